"""Issue 37: a browser table's hints are searched when the page asks, in a thinking slot,
never while a snapshot of the table is built (the search's p99 was 3.1 s, and every poll,
step and play built one)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from pdk.bots import hints as hints_module
from pdk.bots.hints import HINT_BUDGET, first_choice
from pdk.table.session import HUMAN
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the hint searches made (``pdk.bots.hints`` calls the analysis's race for them)."""
    made: list[int] = []
    real = hints_module.race

    def counted(*args: Any, **kw: Any) -> Any:
        made.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(hints_module, "race", counted)
    return made


def at_my_turn(root: Path, difficulty: str) -> tuple[TableStore, TestClient, str, dict[str, Any]]:
    """A classic16 browser table of ``difficulty`` at the person's first turn."""
    store = TableStore(root, load_profile("classic16"), "classic16", seed=4, difficulty=difficulty)
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    table = client.get(f"/api/table/{token}").json()
    while table["bot_turn"]:
        table = client.post(f"/api/table/{token}/step", json={"seq": table["seq"]}).json()
    return store, client, token, table


def test_no_snapshot_waits_on_a_hint_search_the_page_asks(tmp_path: Path, searches: list[int]) -> None:
    store, client, token, table = at_my_turn(tmp_path, "normal")
    # Before: the snapshot of the seat's turn searched the hints (about 0.3 s, p99 3.1 s).
    assert searches == []
    assert table["model"]["hints_pending"] is True
    seq = table["seq"]
    got = client.post(f"/api/table/{token}/hints", json={"seq": seq})
    assert got.status_code == 200, got.text
    answer = got.json()
    assert len(searches) == 1 and answer["hint_seconds"] > 0
    model = answer["model"]
    assert model["hints_pending"] is False and 1 <= len(model["hints"]) == len(model["hint_reasons"]) <= 5
    live = store.get(token)
    assert live is not None
    move = first_choice(live.session.state.view(HUMAN), HINT_BUDGET)
    assert move is not None and model["hints"][0]["text"] == move.shown()
    # Searched once: the next snapshot carries them, and asking again searches nothing.
    again = client.get(f"/api/table/{token}").json()["model"]
    assert again["hints_pending"] is False and again["hints"] == model["hints"]
    assert client.post(f"/api/table/{token}/hints", json={"seq": seq}).json()["hint_seconds"] == 0
    assert len(searches) == 1
    # A stale move number is refused, as a play's is.
    stale = client.post(f"/api/table/{token}/hints", json={"seq": seq + 5})
    assert stale.status_code == 409 and stale.json()["error"]["key"] == "web_stale"


def test_an_easy_table_shows_the_planners_hints_at_once(tmp_path: Path, searches: list[int]) -> None:
    table = at_my_turn(tmp_path, "easy")[3]
    assert table["model"]["hints_pending"] is False and table["model"]["hints"]
    assert searches == []


def test_the_page_picks_the_level_tuo_guan_plays_at(tmp_path: Path) -> None:
    # Before: the settings took no level (422), and 托管 always played the table's.
    from dataclasses import replace

    from pdk.bots import make_bot
    from pdk.engine.deal import bot_seed
    from pdk.table import runner

    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=4, difficulty="easy")
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    url = f"/api/table/{token}"
    answer = client.post(f"{url}/settings", json={"auto_level": "normal"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["auto_level"] == "normal"
    live = store.get(token)
    assert live is not None and live.session.auto_level == "normal"
    # 托管 plays as the picked level's bot plays that seat, from what the seat may see.
    table = client.get(url).json()
    while table["bot_turn"]:
        table = client.post(f"{url}/step", json={"seq": table["seq"]}).json()
    seq = table["seq"]
    view = live.session.state.view(HUMAN)
    want = make_bot("normal", bot_seed(live.session.seed, HUMAN)).choose(view)
    client.post(f"{url}/auto", json={"seq": seq})
    played = live.session.state.history[seq].play
    assert (played.move if played else None) == want
    # Picked hard at an easy table, a 托管 move is a hard search and waits for a slot.
    shown = live.snapshot()
    assert not runner.hard_level(shown)
    assert runner.hard_level(replace(shown, auto_level="hard"))
    # "" is the table's level again.
    assert client.post(f"{url}/settings", json={"auto_level": ""}).json()["auto_level"] == ""
    assert client.post(f"{url}/settings", json={"auto_level": "expert"}).status_code == 422


def test_a_rooms_views_never_search_and_its_seat_asks(tmp_path: Path, searches: list[int]) -> None:
    # Before: a room's table searched the seat's hints in every render of the room (one
    # task draws every kind of viewer, so each spectator's view waited on the search).
    from pdk.rooms.room import Rooms

    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=9, difficulty="normal")
    rooms = Rooms(store.saves, store.archive, pace_ms=0, seed=9)  # not a deal searched above
    client = TestClient(create_app(store, pace_ms=0, rooms=rooms))
    made = client.post("/api/rooms", json={"name": "Ann", "difficulty": "normal"}).json()
    rid, key = made["room"], made["key"]
    me = {"key": key, "client": "host-cccc"}
    assert client.post(f"/api/room/{rid}/start", json=me).status_code == 200
    room = rooms.get(rid)
    for _ in range(60):  # the bots move until it is the host's turn (pace 0)
        if room.tick() is None or room.due().seat == 0:
            break
    view = client.get(f"/api/room/{rid}", headers={"X-PDK-Key": key}).json()
    seq, model = view["table"]["seq"], view["table"]["model"]
    assert model["task"]["kind"] in ("lead", "beat") and model["hints_pending"] is True
    assert searches == []
    got = client.post(f"/api/room/{rid}/hints", json={**me, "seq": seq})
    assert got.status_code == 200, got.text
    model = got.json()["table"]["model"]
    assert model["hints_pending"] is False and 1 <= len(model["hints"]) <= 5 and len(searches) == 1
    again = client.get(f"/api/room/{rid}", headers={"X-PDK-Key": key}).json()["table"]["model"]
    assert again["hints"] == model["hints"] and len(searches) == 1
    # a spectator's key is not a seat's; a stale move number is refused as a play's is
    watch = client.get(f"/api/room/{rid}", headers={"X-PDK-Key": key}).json()["watch"].split("#w=")[1]
    assert client.post(f"/api/room/{rid}/hints", json={**me, "key": watch, "seq": seq}).status_code == 403
    stale = client.post(f"/api/room/{rid}/hints", json={**me, "seq": seq + 5})
    assert stale.status_code == 409 and stale.json()["error"]["key"] == "web_stale"
