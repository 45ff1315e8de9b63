"""The hard bot is reproducible: its budget is counted in work, so a record made by
``pdk selfplay -p hard`` is replayed play for play by ``pdk replay --explain --bot hard``,
however loaded the machine; a time cap is there only when asked for, and is then written
in the record."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from pdk.bots import make_bot
from pdk.cli.replay_view import explain
from pdk.engine.deal import deal_seed
from pdk.engine.record import loads
from pdk.engine.state import GameState
from pdk.match.run import GameTask, play_game
from pdk.variants.registry import load_profile
from tests.support.cli import run_pdk

PROFILE = load_profile("classic16")


@pytest.mark.slow
def test_replay_explain_reproduces_every_hard_play_of_a_selfplay_record(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = run_pdk(
        "selfplay", "-p", "hard,normal,hard", "-n", "1", "--seed", "9", "-w", "1", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    record = loads(out.read_text().splitlines()[0])
    assert "time_cap" not in record.meta
    state = GameState(record.profile, record.deal)
    checked = 0
    easy_differs = False
    for action in record.actions:
        played = None if action.play is None else action.play.move
        if record.meta["bots"][action.seat] == "hard":
            # Asked with the seeds selfplay derived (``bot_seed``), hard plays what it played.
            said = explain(state, "hard", record.seed or 0, action)
            assert said.choice == played
            checked += 1
        easy_differs |= explain(state, "easy", record.seed or 0, action).choice != played
        state.play(None if action.play is None else action.play.cards)
    assert checked > 3
    # The check can fail: another bot disagrees with what was played somewhere in the deal.
    assert easy_differs


@pytest.mark.slow
def test_a_slow_clock_changes_no_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a cap the search never reads the clock's verdict: a machine so loaded that
    every reading is an hour later plays the same moves."""
    task = GameTask(0, 0, 0, deal_seed(4, 0), ("hard", "normal", "normal"), True)
    calm = play_game(PROFILE, task)
    hours = itertools.count(0, 3600.0)
    monkeypatch.setattr("pdk.bots.hard.time.perf_counter", lambda: next(hours))
    loaded = play_game(PROFILE, task)
    assert json.loads(calm.record or "")["plays"] == json.loads(loaded.record or "")["plays"]


@pytest.mark.slow
def test_a_time_cap_is_asked_for_and_written_in_the_record() -> None:
    assert make_bot("hard", 1).time_cap is None
    assert make_bot("hard", 1, time_cap=0.5).time_cap == 0.5
    task = GameTask(0, 0, 0, deal_seed(4, 0), ("hard", "easy", "easy"), True, time_cap=0.5)
    record = loads(play_game(PROFILE, task).record or "")
    assert record.meta["time_cap"] == 0.5
