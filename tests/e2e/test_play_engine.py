"""``pdk play --opponents cmd:…``: an outside engine plays both opponents of the real
``pdk play`` in a pseudo-terminal; the save remembers it, and an engine that cannot start
is one line before any game."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support import ROOT
from tests.support.cli import run_pdk_binary

pytestmark = pytest.mark.e2e

GREEDY = f"cmd:{sys.executable} {ROOT / 'examples/engines/greedy.py'}"
PROMPT = r"play \(\? help\)> "


def test_an_engine_plays_the_opponents_and_the_save_names_it(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1", "PDK_DATA_DIR": str(tmp_path)}
    env.pop("COLUMNS", None)
    args = ["play", "--opponents", GREEDY, "--seed", "3", "--lang", "en", "--save-dir", str(tmp_path)]
    child = pexpect.spawn(
        "pdk", [*args, "--delay", "0"], env=env, encoding="utf-8", timeout=60, dimensions=(24, 80)
    )
    child.expect(PROMPT)
    child.sendline("a")  # 托管: the table's level plays the player's seat, the engine the others
    child.expect("Enter: next deal")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    records = list((tmp_path / "records").glob("*.json"))
    assert len(records) == 1
    record = json.loads(records[0].read_text(encoding="utf-8"))
    assert record["meta"]["difficulty"] == GREEDY and record["result"] is not None
    assert {p["seat"] for p in record["plays"]} == {0, 1, 2}  # the engine played both seats
    assert list((tmp_path / "engine-logs").iterdir())


def test_an_engine_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PDK_DATA_DIR": str(tmp_path)}
    args = ["play", "--opponents", "cmd:/nonexistent/engine", "--save-dir", str(tmp_path)]
    proc = run_pdk_binary(*args, env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "cannot start /nonexistent/engine" in proc.stderr
    assert not (tmp_path / "save.json").exists()
