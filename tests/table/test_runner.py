"""One runner for every machine move (``pdk.table.runner``, carried out by ``pdk.web.machine``).

The decision: the pause before an automatic pass has its floor on every face, a seat away
comes before the machine's move, the turn time after it, and only a hard bot's own move is
a search. The server: ``--hard-slots`` bounds the hard searches of the rooms' runners and of
the single tables' ``/step`` together — with one slot, two rooms of hard bots (and a single
table beside them) never search at the same time.
"""

from __future__ import annotations

import threading
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import pdk.table.session as session_module
from pdk.engine.combos import Move
from pdk.rooms.room import Rooms
from pdk.table import runner
from pdk.table.service import SeatTable
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import WebLimits, create_app
from tests.support.tooling import until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def table(tmp_path: Path, difficulty: str = "normal") -> SeatTable:
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=7, difficulty=difficulty)
    return store.create(None).snapshot()


def test_an_automatic_pass_waits_at_least_the_floor_and_a_bot_the_pace(tmp_path: Path) -> None:
    t = table(tmp_path)
    bot = replace(t, machine_turn=True, bot_turn=True, turn=1, auto_seats=())
    passing = replace(t, machine_turn=True, bot_turn=False, turn=0, auto_seats=())
    auto = replace(passing, auto_seats=(0,))
    assert runner.passing(passing) and not runner.passing(bot) and not runner.passing(auto)
    assert runner.pause(bot, 0.2) == 0.2 and runner.pause(auto, 0.2) == 0.2
    assert runner.pause(passing, 0.2) == runner.PASS_PAUSE
    assert runner.pause(passing, 1.5) == 1.5
    assert runner.pause(passing, 0) == 0  # no pace: nothing waits (tests, pipes)
    assert runner.due(passing, pace=0.2, still=0.3) == runner.Due(pytest.approx(0.3))
    step = runner.due(passing, pace=0.2, still=0.6)
    assert (step.wait, step.move, step.seat, step.seq, step.hard) == (0.0, "step", 0, t.seq, False)
    assert runner.due(bot, pace=0.2, still=0.1).wait == pytest.approx(0.1)


def test_away_comes_first_then_the_machine_then_the_turn_time(tmp_path: Path) -> None:
    t = table(tmp_path)
    mine = replace(t, machine_turn=False, bot_turn=False, turn=0)
    bot = replace(t, machine_turn=True, bot_turn=True, turn=1)
    gone = runner.due(bot, pace=0, still=5, away={2: -1.0})
    assert (gone.move, gone.seat, gone.why) == ("auto", 2, "away")
    assert runner.due(bot, pace=1.0, still=0.5, away={2: 0.25}).wait == 0.25
    slow = runner.due(mine, pace=0, still=16, turn_time=15)
    assert (slow.move, slow.seat, slow.why) == ("auto", 0, "turn")
    assert runner.due(mine, pace=0, still=10, turn_time=15, away={2: 8.0}).wait == 5
    assert runner.due(mine, pace=0, still=10, away={0: None}) == runner.Due(None)
    over = replace(t, model=replace(t.model, task=replace(t.model.task, kind="over")))
    assert over.over  # the model says it (SeatTable keeps no copy of its own)
    assert runner.due(over, pace=0, still=99, turn_time=1) == runner.Due(None)


def test_only_a_hard_bots_own_move_is_a_search(tmp_path: Path) -> None:
    t = table(tmp_path, "hard")
    assert t.difficulty == "hard"
    bot = replace(t, machine_turn=True, bot_turn=True, turn=1)
    assert runner.hard(bot) and runner.due(bot, pace=0, still=0).hard
    assert not runner.hard(replace(bot, bot_turn=False, turn=0))  # 托管 or 要不起: the hint bot
    assert not runner.hard(replace(bot, difficulty="normal"))


class Searches:
    """Stands in for the hard bot: the easy bot's move, made slowly, counting how many are
    being made at once."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0
        self.made = 0
        self.lock = threading.Lock()
        self.real = session_module.make_bot

    def make_bot(self, difficulty: str, seed: int) -> Any:
        bot = self.real("easy" if difficulty == "hard" else difficulty, seed)
        if difficulty != "hard":
            return bot
        searches = self

        class Slow:
            def choose(self, view: Any) -> Move | None:
                with searches.lock:
                    searches.now += 1
                    searches.most = max(searches.most, searches.now)
                try:
                    # Elapsed time is the point: a search that lasts (20 ms, as short as
                    # lets two overlap) is what the hard-bot slots must keep one at a time.
                    time.sleep(0.02)
                    return bot.choose(view)  # type: ignore[no-any-return]
                finally:
                    with searches.lock:
                        searches.now -= 1
                        searches.made += 1

        return Slow()


@pytest.mark.parametrize("with_table", [False, True], ids=["two-rooms", "two-rooms-and-a-table"])
def test_hard_slots_bound_the_hard_bots_of_rooms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_table: bool
) -> None:
    searches = Searches()
    monkeypatch.setattr(session_module, "make_bot", searches.make_bot)
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=7, difficulty="hard")
    rooms = Rooms(store.saves, store.archive, pace_ms=0, seed=7)
    app = create_app(store, pace_ms=0, limits=WebLimits(hard_slots=1), rooms=rooms)
    with TestClient(app) as c:
        made = []
        for name in ("Ann", "Bo"):
            r = c.post("/api/rooms", json={"name": name, "difficulty": "hard"})
            assert r.status_code == 200, r.text
            made.append((r.json()["room"], r.json()["key"]))
        for rid, host in made:  # the host in 托管: the whole deal is the machine's
            seat = {"key": host, "client": f"host-{rid[:6]}"}
            assert c.post(f"/api/room/{rid}/start", json=seat).status_code == 200
            assert c.post(f"/api/room/{rid}/auto", json=seat | {"on": True}).status_code == 200
        if with_table:  # a single table of hard bots at the same time, through /step
            t = c.post("/api/open", json={"difficulty": "hard"}).json()
            while not t["model"]["settlement"]:
                verb = "step" if t["machine_turn"] else "auto"
                r = c.post(f"/api/table/{t['token']}/{verb}", json={"seq": t["seq"]})
                assert r.status_code == 200, r.text
                t = r.json()

        def over() -> bool:
            tables = [rooms.get(rid).table for rid, _ in made]
            return all(t is not None and t.snapshot(None).over for t in tables)

        until(over, 60, "the deals ended")
    assert searches.made >= 20  # the bots' moves were searches, many of them
    assert searches.most == 1
