"""Running a room (issue 36, point 4) through the HTTP API: the ready check before each
deal, handing the host role on, freeing a seat, taking a computer's seat mid-deal (no key
ever shows a hand it does not play), computers told apart by letter, and what 托管 played
for a seat that comes back."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from pdk.rooms.room import Rooms
from pdk.web.rooms_api import play_words
from tests.rooms.test_rooms import Clock, site

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def made(c: TestClient, **extra: Any) -> tuple[str, str, list[str], str]:
    r = c.post("/api/rooms", json={"name": "Ann", "difficulty": "easy"} | extra)
    assert r.status_code == 200, r.text
    rid, host = r.json()["room"], r.json()["key"]
    view = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
    return rid, host, [i["url"].split("#k=")[1] for i in view["invites"]], view["watch"].split("#w=")[1]


def seen(c: TestClient, rid: str, key: str, lang: str = "en") -> dict[str, Any]:
    r = c.get(f"/api/room/{rid}?lang={lang}", headers={"X-PDK-Key": key})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def join(c: TestClient, rid: str, key: str, name: str) -> str:
    r = c.post(f"/api/room/{rid}/join", json={"key": key, "client": f"c-{name}-0000", "name": name})
    assert r.status_code == 200, r.text
    new: str = r.json()["key"]
    return new


def to_the_end(rooms: Rooms, rid: str) -> None:
    """Every seat in 托管 and the room's runner to the settlement (pace 0)."""
    room = rooms.get(rid)
    assert room.table is not None
    for seat in room.table.session.humans:
        room.table.set_auto(True, seat=seat)
    for _ in range(200):
        if room.table.snapshot(None).over:
            return
        room.tick()
    raise AssertionError("the deal did not end")


def test_the_deal_starts_when_everyone_seated_is_ready_or_the_host_deals(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    rid, host, invites, _ = made(c)
    bo = join(c, rid, invites[0], "Bo")
    view = seen(c, rid, host)
    assert [s["ready"] for s in view["seats"]] == [False, False, True]  # a computer always is
    r = c.post(f"/api/room/{rid}/ready", json={"key": bo, "client": "c-Bo-0000"})
    assert r.status_code == 200 and r.json()["seats"][1]["ready"] and r.json()["table"] is None
    r = c.post(f"/api/room/{rid}/ready", json={"key": host, "client": "host-0000"})
    assert r.status_code == 200 and r.json()["phase"] == "playing" and r.json()["table"] is not None
    assert [s["ready"] for s in r.json()["seats"]] == [False, False, True]  # asked again next time
    mid = c.post(f"/api/room/{rid}/ready", json={"key": bo, "client": "c-Bo-0000"})
    assert mid.status_code == 409 and mid.json()["error"]["key"] == "web_room_not_between"
    to_the_end(rooms, rid)
    r = c.post(f"/api/room/{rid}/ready", json={"key": bo, "client": "c-Bo-0000"})
    assert r.json()["table"]["model"]["deal_no"] == 1  # the host is not ready yet
    off = c.post(f"/api/room/{rid}/ready", json={"key": bo, "client": "c-Bo-0000", "on": False})
    assert not off.json()["seats"][1]["ready"]
    # The host need not wait for anyone.
    r = c.post(f"/api/room/{rid}/next", json={"key": host, "client": "host-0000"})
    assert r.status_code == 200 and r.json()["table"]["model"]["deal_no"] == 2


def test_the_host_hands_the_role_on_and_the_new_host_frees_the_old_seat(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    rid, host, invites, _ = made(c)
    bo = join(c, rid, invites[0], "Bo")
    hc = {"key": host, "client": "host-0000"}
    free = c.post(f"/api/room/{rid}/host", json=hc | {"seat": 2})
    assert free.status_code == 409 and free.json()["error"]["key"] == "web_room_not_person"
    r = c.post(f"/api/room/{rid}/host", json=hc | {"seat": 1})
    assert r.status_code == 200 and r.json()["host"] is False and r.json()["host_seat"] == 1
    assert not r.json()["invites"]  # the invitations are the new host's now
    assert c.post(f"/api/room/{rid}/start", json=hc).status_code == 403
    assert c.get(f"/api/room/{rid}/qr/watch", headers={"X-PDK-Key": host}).status_code == 403
    bc = {"key": bo, "client": "c-Bo-0000"}
    mine = seen(c, rid, bo)
    assert mine["host"] is True and len(mine["invites"]) == 1 and mine["watch"]
    assert c.get(f"/api/room/{rid}/qr/watch", headers={"X-PDK-Key": bo}).status_code == 200
    assert c.post(f"/api/room/{rid}/start", json=bc).status_code == 200
    gone = c.post(f"/api/room/{rid}/free", json=bc | {"seat": 0})
    assert gone.status_code == 200 and not gone.json()["seats"][0]["taken"]
    assert c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).status_code == 403  # the old key died
    room = rooms.get(rid)
    assert room.table is not None and 0 in room.table.session.auto_seats  # 托管 plays it out
    # The freed seat's new link is on offer: it shows no hand while 托管 plays the seat.
    link = next(i["url"] for i in gone.json()["invites"] if i["seat"] == 0).split("#k=")[1]
    assert seen(c, rid, link)["table"]["model"]["hand"] == []
    assert c.get(f"/api/room/{rid}/qr/0", headers={"X-PDK-Key": bo}).status_code == 200
    assert c.post(f"/api/room/{rid}/free", json=bc | {"seat": 1}).status_code == 409  # not their own


def test_a_computer_seat_taken_mid_deal_shows_no_hand_until_the_next_deal(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    rid, host, invites, watch = made(c)
    bo = join(c, rid, invites[0], "Bo")
    hc = {"key": host, "client": "host-0000"}
    c.post(f"/api/room/{rid}/start", json=hc)
    # The host frees Bo's seat mid-deal, and a spectator takes it at once.
    c.post(f"/api/room/{rid}/free", json=hc | {"seat": 1})
    claimed = c.post(f"/api/room/{rid}/claim", json={"key": watch, "client": "fan-0000", "name": "Cy"})
    assert claimed.status_code == 200
    cy = claimed.json()["key"]
    assert c.get(f"/api/room/{rid}", headers={"X-PDK-Key": bo}).status_code == 403
    view = seen(c, rid, cy)
    assert view["you"] == 1 and view["seats"][1]["name"] == "Cy"
    assert view["table"]["model"]["hand"] == [] and view["auto_made"] == []  # Bo's hand is 托管's
    assert (
        c.post(f"/api/room/{rid}/auto", json={"key": cy, "client": "fan-0000", "on": False}).status_code
        == 409
    )
    # The other computer's seat, taken too: its old key dies with the bot.
    old = seen(c, rid, host)["invites"][0]["url"].split("#k=")[1]
    dee = join(c, rid, old, "Dee")
    assert dee != old and c.get(f"/api/room/{rid}", headers={"X-PDK-Key": old}).status_code == 403
    assert seen(c, rid, dee)["table"]["model"]["hand"] == []
    to_the_end(rooms, rid)
    c.post(f"/api/room/{rid}/next", json=hc)
    for key in (cy, dee):
        assert len(seen(c, rid, key)["table"]["model"]["hand"]) == 16  # theirs from this deal


def test_computers_are_told_apart_in_the_seats_and_the_replay(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    rid, host, _, _ = made(c)
    before = seen(c, rid, host, "zh")
    assert [s["label"] for s in before["seats"]] == ["Ann", "空位", "空位"]
    c.post(f"/api/room/{rid}/start", json={"key": host, "client": "host-0000"})
    view = seen(c, rid, host, "zh")
    assert [s["label"] for s in view["seats"]] == ["Ann", "电脑 A（简单）", "电脑 B（简单）"]
    assert [s["letter"] for s in view["seats"]] == [None, "A", "B"]
    to_the_end(rooms, rid)
    replay = c.get(f"/api/room/{rid}/replay?lang=en", headers={"X-PDK-Key": host}).json()
    assert replay["names"] == ["Ann", "computer A (easy)", "computer B (easy)"]


def test_a_seat_back_from_auto_is_told_what_was_played_for_it(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    rid, host, _, _ = made(c)
    hc = {"key": host, "client": "host-0000"}
    c.post(f"/api/room/{rid}/start", json=hc)
    room = rooms.get(rid)
    assert room.table is not None
    c.post(f"/api/room/{rid}/auto", json=hc | {"on": True})
    for _ in range(12):
        room.tick()
    back = c.post(f"/api/room/{rid}/auto", json=hc | {"on": False}).json()
    made_for = back["auto_made"]
    history = room.table.session.state.history
    mine = [n for n, by in room.table.session.made_by.items() if by == "auto" and history[n - 1].seat == 0]
    assert made_for and [m["n"] for m in made_for] == sorted(mine)
    assert [m["text"] for m in made_for] == [play_words(history[m["n"] - 1].play, "en") for m in made_for]
    assert any(m["text"] != "Pass" for m in made_for)
    shown = seen(c, rid, host, "zh")["auto_made"]
    assert [m["n"] for m in shown] == [m["n"] for m in made_for] and shown[0]["text"] != made_for[0]["text"]


def test_a_person_back_from_being_away_is_told_what_auto_played(tmp_path: Path) -> None:
    clock = Clock()
    rooms, c = site(tmp_path, clock, away=20.0)
    rid, host, invites, _ = made(c)
    bo = join(c, rid, invites[0], "Bo")
    c.post(f"/api/room/{rid}/start", json={"key": host, "client": "host-0000"})
    room = rooms.get(rid)
    assert room.table is not None
    clock.now += 40  # Bo's page is gone: his seat goes to 托管, and it plays for him

    def played_for_bo() -> int:
        assert room.table is not None
        history = room.table.session.state.history
        return sum(by == "auto" and history[n - 1].seat == 1 for n, by in room.table.session.made_by.items())

    room.table.set_auto(True, seat=0)  # the host's seat plays itself meanwhile
    for _ in range(60):
        room.touch(0, "host-0000")
        room.tick()
        if played_for_bo() >= 2 or room.table.snapshot(None).over:
            break
    assert played_for_bo() >= 1
    back = c.post(f"/api/room/{rid}/join", json={"key": bo, "client": "c-Bo-0001", "person": None})
    assert back.status_code == 200 and not back.json()["seats"][1]["auto"]
    assert len(back.json()["auto_made"]) == played_for_bo()
