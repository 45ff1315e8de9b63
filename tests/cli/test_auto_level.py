"""托管's level at the terminal, as the page's ☰ menu sets it: ``pdk play --auto-level`` and
the ``l`` key (the table's level, easy, normal, hard in turn), kept in the save."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run_pdk


def _level(save_dir: Path) -> str | None:
    data = json.loads((save_dir / "save.json").read_text(encoding="utf-8"))
    level = data.get("session", data).get("auto_level")
    return None if level is None else str(level)


def test_the_auto_level_is_chosen_by_option_and_key_and_kept(tmp_path: Path) -> None:
    args = ("play", "--save-dir", str(tmp_path), "--seed", "3", "--difficulty", "easy")
    first = run_pdk(*args, "--auto-level", "normal", stdin="l\nq\n")
    assert first.returncode == 0, first.stderr
    assert "托管 plays at: hard" in first.stdout and _level(tmp_path) == "hard"
    again = run_pdk(*args, "--lang", "zh", stdin="l\nl\nq\n")  # no option: the save's level
    assert "托管水平：同牌桌难度" in again.stdout and "托管水平：简单" in again.stdout
    assert _level(tmp_path) == "easy"
    table = run_pdk(*args, "--auto-level", "table", stdin="q\n")
    assert table.returncode == 0 and _level(tmp_path) is None
    bad = run_pdk(*args, "--auto-level", "genius", stdin="")
    assert bad.returncode == 2 and "--auto-level" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
