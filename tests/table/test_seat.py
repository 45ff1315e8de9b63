"""Both kinds of seat satisfy the one seat interface (``pdk.table.seat.Seat``) that the
terminal's game loop drives: the same scripted commands — the first hint at every turn of
the seat, a pass when there is none, then the next deal — through a local seat (a table
service in this process, whose machine moves the driver makes) and through a room's seat
over HTTP (a real server in this process, whose runner makes them) give the same screens,
the same hints and the same outcome, deal after deal.
"""

from __future__ import annotations

import dataclasses
import io
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from pdk.cli.join import RoomClient, RoomSeat, parse_link
from pdk.cli.table import Frame, render_settlement, render_table
from pdk.rooms.room import Rooms
from pdk.store.files import FileStore
from pdk.table.history import History
from pdk.table.seat import LocalSeat, Refused, Seat
from pdk.table.service import Archive, SeatTable, TableService
from pdk.table.session import new_session
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.view.table_model import TableModel
from pdk.web.server import create_app
from tests.support.tooling import served, until

SEED = 11
WIDTH = 80


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("seat")
    store = TableStore(root, load_profile("classic16"), "classic16", seed=SEED, difficulty="easy")
    rooms = Rooms(store.saves, store.archive, pace_ms=10, away_after=60, seed=SEED)
    with served(create_app(store, pace_ms=10, rooms=rooms)) as up:
        yield up.url


def local_seat(root: Path) -> LocalSeat:
    session = new_session(load_profile("classic16"), "classic16", "easy", SEED)
    archive = Archive(root / "records", History(root / "history.sqlite3"))
    table, unsaved = TableService.adopt(FileStore(root), "save", archive, session, hints=False)
    assert unsaved is None
    return LocalSeat(table, "en")


def room_seat(base: str, root: Path) -> RoomSeat:
    """The host's seat of a new room (the other seats bots at the local table's level),
    dealt with the same seed as the local table."""
    req = urllib.request.Request(
        base + "api/rooms",
        data=json.dumps({"name": "Ann", "difficulty": "easy"}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=20) as res:
        made = json.loads(res.read())
    link = parse_link(made["url"])
    assert link is not None
    seat = RoomSeat(RoomClient(link, "en"), History(root / "history.sqlite3"), "en")
    assert seat.enter(None) is None
    assert seat.snapshot() is None  # not dealt yet
    status, _ = seat.api.call("/start", {})
    assert status == 200
    seat.start()
    return seat


def screen(t: SeatTable) -> str:
    """The table as the terminal draws it (the hints the room's model carries for its
    pages are not drawn; a local table computes them only when asked)."""
    model = faceless(t.model)
    console = Console(width=WIDTH, record=True, color_system=None, file=io.StringIO())
    frame = Frame(model, "en", session_total=t.session_total, counter=t.counter)
    if model.settlement is not None:
        console.print(render_settlement(model.settlement, "settlement", "en", WIDTH))
    else:
        console.print(render_table(frame, WIDTH))
    return console.export_text()


def faceless(model: TableModel) -> TableModel:
    return dataclasses.replace(model, hints=(), hint_reasons=())


def settle(seat: Seat, wait: float = 30.0) -> SeatTable:
    """The seat's table once it is the seat's to act (or the deal is over): the driver
    makes the machine's moves where the seat leaves them to it, else waits for the room."""

    def back() -> tuple[SeatTable] | None:
        t = seat.snapshot()
        if t is not None and (t.model.task.kind == "over" or not t.machine_turn):
            if t.model.task.kind == "over" or t.model.task.seat == t.model.viewer:
                return (t,)
        if t is not None and t.machine_turn and seat.runs_machine:
            seat.step(t.seq)
        else:
            seat.moved()  # news of the room, looked at (a face would draw it again)
        return None

    return until(back, wait, "the table came back to the seat", every=0.01)[0]


def script(seat: Seat, deals: int) -> list[Any]:
    """Every screen at the seat's turns, each hint offered, every settlement."""
    seen: list[Any] = []
    for deal in range(deals):
        while True:
            t = settle(seat)
            seen.append(screen(t))
            if t.model.task.kind == "over":
                break
            shown = seat.hint(t.seq)
            if shown is None:
                seat.pass_turn(t.seq)
                continue
            seen.append((shown.index, shown.count, shown.cards, shown.kind, shown.why))
            seat.play_cards(t.seq, shown.cards)
        seen.append((t.deals_done, t.session_total, t.totals, faceless(t.model)))
        assert seat.deals_next()
        if deal + 1 < deals:
            seat.next_deal(t.seq)
    return seen


def test_a_local_seat_and_a_room_seat_play_alike(server: str, tmp_path: Path) -> None:
    local = local_seat(tmp_path / "local")
    remote = room_seat(server, tmp_path / "remote")
    try:
        for seat in (local, remote):
            assert isinstance(seat, Seat)
        here = script(local, 2)
        there = script(remote, 2)
    finally:
        remote.close()
    assert len(here) > 10 and here == there
    assert local.runs_machine and not remote.runs_machine
    assert local.company() is None and remote.company() is not None and "Ann*" in (remote.company() or "")
    # Each finished deal is in each machine's history once (the room's seat writes its own).
    assert History(tmp_path / "local" / "history.sqlite3").stats().games == 2
    assert History(tmp_path / "remote" / "history.sqlite3").stats().games == 2


def test_both_seats_refuse_a_play_out_of_turn_alike(server: str, tmp_path: Path) -> None:
    """A stale move number is refused by both, in words, and changes nothing."""
    local = local_seat(tmp_path / "local")
    remote = room_seat(server, tmp_path / "remote")
    try:
        said = []
        for seat in (local, remote):
            t = settle(seat)
            with pytest.raises(Refused) as refused:
                seat.pass_turn(t.seq + 5)
            said.append(refused.value.text)
            assert not refused.value.plain
            after = seat.snapshot()
            assert after is not None and after.seq == t.seq
    finally:
        remote.close()
    assert said[0] == said[1]


def test_a_rooms_seat_refuses_choosing_the_auto_level(tmp_path: Path) -> None:
    """A room's 托管 plays at the room's level: the terminal's ``l`` says so, sending nothing."""
    link = parse_link("http://127.0.0.1:9/room/" + "r" * 16 + "#k=" + "k" * 32)
    assert link is not None
    seat = RoomSeat(RoomClient(link, "en"), History(tmp_path / "history.sqlite3"), "en")
    with pytest.raises(Refused, match="room's level"):
        seat.set_auto_level("hard")
