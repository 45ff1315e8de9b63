"""``pdk ladder``: bots added with their versions, rated over runs in the data directory,
shown ranked with their error, and every bad case in one line. The commands run in this
process (``run_pdk``), but for the run that starts worker processes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.cli import run_pdk, run_pdk_binary

GREEDY = f"cmd:{sys.executable} {ROOT / 'examples/engines/greedy.py'}"


def show(tmp_path: Path) -> dict[str, Any]:
    proc = run_pdk("ladder", "show", "--json", columns=120, data_dir=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


@pytest.mark.slow
def test_ladder_rates_bots_across_runs(tmp_path: Path) -> None:
    for bot in ["random", "easy", "normal", GREEDY]:
        assert run_pdk("ladder", "add", bot, columns=120, data_dir=tmp_path).returncode == 0
    proc = run_pdk("ladder", "add", "easy", columns=120, data_dir=tmp_path)
    assert proc.returncode == 2 and "easy is already on the ladder" in proc.stderr
    start = show(tmp_path)
    assert [b["deals"] for b in start["bots"]] == [0, 0, 0, 0]
    greedy = next(b for b in start["bots"] if b["name"] == "greedy-py")
    assert greedy["about"]["command"][-1].endswith("greedy.py") and greedy["pdk_version"]
    proc = run_pdk_binary(  # its own process: it starts two workers
        "ladder", "run", "--games", "24", "--workers", "2", columns=120, data_dir=tmp_path, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "24 deals rated" in proc.stdout and "normal" in proc.stdout
    first = show(tmp_path)
    assert first["deals"] == 24
    # Four bots, tables of three in turn: each sat at three tables of four.
    assert sorted(b["deals"] for b in first["bots"]) == [18, 18, 18, 18]
    ranked = [b["name"] for b in first["bots"]]
    assert ranked[-1] == "random" and ranked[0] == "normal", first["bots"]
    for b in first["bots"]:
        assert b["range95"][0] < b["mu"] < b["range95"][1] and b["sigma"] < 25 / 3
    # A second run continues the deal numbers (new cards) and narrows the errors.
    assert (
        run_pdk("ladder", "run", "--games", "8", "--workers", "1", columns=120, data_dir=tmp_path).returncode
        == 0
    )
    second = show(tmp_path)
    assert second["deals"] == 32
    sigma = {b["name"]: b["sigma"] for b in first["bots"]}
    assert all(b["sigma"] < sigma[b["name"]] for b in second["bots"])


@pytest.mark.slow
def test_ladder_bad_cases_fail_in_one_line(tmp_path: Path) -> None:
    proc = run_pdk("ladder", "show", columns=120, data_dir=tmp_path)
    assert proc.returncode == 0 and "the ladder is empty" in proc.stderr
    run_pdk("ladder", "add", "random", columns=120, data_dir=tmp_path)
    proc = run_pdk("ladder", "run", "--games", "3", columns=120, data_dir=tmp_path)
    assert proc.returncode == 2 and "needs at least 3 bots" in proc.stderr
    proc = run_pdk("ladder", "add", "nobot", columns=120, data_dir=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    (tmp_path / "ladder.json").write_text("{not json", encoding="utf-8")
    proc = run_pdk("ladder", "show", columns=120, data_dir=tmp_path)
    assert proc.returncode == 2 and "ladder" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_bot_that_cannot_play_the_ladders_profile_fails_before_any_deal(tmp_path: Path) -> None:
    """The learned level without weights for the ladder's profile: one line before any
    deal, and the ladder's file (no ratings) is unchanged."""
    run_pdk("ladder", "add", "learned", "--variant", "classic15", columns=120, data_dir=tmp_path)
    for bot in ("easy", "normal"):
        run_pdk("ladder", "add", bot, columns=120, data_dir=tmp_path)
    before = (tmp_path / "ladder.json").read_text(encoding="utf-8")
    proc = run_pdk("ladder", "run", "--games", "3", columns=120, data_dir=tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "classic15" in lines[0] and "pdk train" in lines[0]
    assert (tmp_path / "ladder.json").read_text(encoding="utf-8") == before
