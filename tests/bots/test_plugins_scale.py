"""Plug-in bots as bot builders run them: a module found in the current directory, prints
that never reach ``--json``, and ``--move-timeout`` stopping a bot that hangs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pdk.engine.record import loads
from tests.support.cli import pdk_env, run_pdk, run_pdk_binary

CHATTY = '''
import random
print("chatty: imported")

class Bot:
    name = "chatty"

    def __init__(self, seed):
        print("chatty: built", seed)

    def choose(self, view):
        moves = view.legal_moves()
        print("chatty: thinking about", len(moves), "plays")
        return moves[0] if moves else None
'''

SLOW = '''
import time

CALLS = [0]

class Bot:
    name = "sleepy"

    def __init__(self, seed):
        pass

    def choose(self, view):
        CALLS[0] += 1
        if CALLS[0] > {after}:
            try:
                time.sleep(60)  # the fault itself: a bot that hangs (the move timeout stops it)
            except Exception:  # a bot that swallows errors is stopped all the same
                pass
        moves = view.legal_moves()
        return moves[0] if moves else None
'''


def test_a_module_in_the_current_directory_needs_no_pythonpath(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cwd_bot_one.py").write_text(CHATTY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    proc = run_pdk("selfplay", "-p", "cwd_bot_one:Bot,random,random", "-n", "3", "-w", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["bot"] == "chatty"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_a_bot_prints_never_reaches_the_json_summary(tmp_path: Path, workers: str) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text(CHATTY)
    args = ("selfplay", "-p", f"{bot}:Bot,random,random", "-n", "4", "-w", workers, "--json")
    # Two workers: the installed program, so the pool's processes write to real descriptors.
    proc = run_pdk(*args) if workers == "1" else run_pdk_binary(*args, env=pdk_env())
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # the whole of stdout is the one JSON document
    assert data["games"] == 4
    assert "chatty: thinking about" in proc.stderr


@pytest.mark.parametrize(("lang", "words"), [("en", "took longer than 0.3s"), ("zh", "思考超过 0.3 秒")])
def test_a_bot_that_hangs_is_stopped_in_one_line_and_finished_records_are_kept(
    tmp_path: Path, lang: str, words: str
) -> None:
    bot = tmp_path / f"sleepy_{lang}.py"
    bot.write_text(SLOW.replace("{after}", "30"))
    out = tmp_path / "games.jsonl"
    proc = run_pdk(
        "selfplay", "-p", f"{bot}:Bot,random,random", "-n", "50", "-w", "1",
        "--move-timeout", "0.3", "--out", str(out), "--lang", lang,
    )  # fmt: skip
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert words in lines[0] and "sleepy" in lines[0] and str(bot) in lines[0]
    assert ("deal " in lines[0] and "move " in lines[0]) or ("副牌" in lines[0] and "手" in lines[0])
    kept = [loads(line) for line in out.read_text().splitlines()]
    assert kept, "the games finished before the hang are kept"
    assert [r.meta["game"] for r in kept] == list(range(1, len(kept) + 1))


def test_move_timeout_must_be_positive() -> None:
    proc = run_pdk("selfplay", "-n", "1", "--move-timeout", "0")
    assert proc.returncode == 2
