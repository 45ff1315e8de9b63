"""Quick phrases (issue 36, point 5): a seat sends one of a fixed set to the room, every
view shows it, anything else is refused, and a seat may send one every few seconds."""

from __future__ import annotations

from pathlib import Path

from pdk.rooms.room import PHRASES, SAY_EVERY
from tests.rooms.test_rooms import Clock, site


def test_a_phrase_reaches_the_room_and_only_listed_ones_are_taken(tmp_path: Path) -> None:
    clock = Clock()
    _rooms, c = site(tmp_path, clock)
    made = c.post("/api/rooms", json={"name": "Ann"}).json()
    rid, host = made["room"], made["key"]
    view = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
    watch = view["watch"].split("#w=")[1]
    body = {"key": host, "client": "host-cccc"}
    r = c.post(f"/api/room/{rid}/say", json=body | {"phrase": "hurry"})
    assert r.status_code == 200 and r.json()["said"] == [{"n": 1, "seat": 0, "phrase": "hurry"}]
    seen = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": watch}).json()
    assert seen["said"] == [{"n": 1, "seat": 0, "phrase": "hurry"}]
    too_soon = c.post(f"/api/room/{rid}/say", json=body | {"phrase": "nice"})
    assert too_soon.status_code == 429
    clock.now += SAY_EVERY
    free_text = c.post(f"/api/room/{rid}/say", json=body | {"phrase": "hi there"})
    assert free_text.status_code == 409 and free_text.json()["error"]["key"] == "web_room_bad_phrase"
    assert (
        c.post(
            f"/api/room/{rid}/say", json={"key": watch, "client": "watcher-1", "phrase": "nice"}
        ).status_code
        == 403
    )
    for i, phrase in enumerate(PHRASES[:9]):
        clock.now += SAY_EVERY
        assert c.post(f"/api/room/{rid}/say", json=body | {"phrase": phrase}).status_code == 200, i
    kept = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()["said"]
    assert len(kept) == 8 and kept[-1]["n"] == 10
    assert set(c.get("/api/rooms/choices").json()["phrases"]) == set(PHRASES)


def test_the_host_frees_a_seat_for_a_computer_and_its_old_link_is_dead(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    made = c.post("/api/rooms", json={"name": "Ann", "difficulty": "easy"}).json()
    rid, host = made["room"], made["key"]
    view = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
    guest = view["invites"][0]["url"].split("#k=")[1]
    assert (
        c.post(f"/api/room/{rid}/join", json={"key": guest, "client": "guest-aaaa", "name": "Bo"}).status_code
        == 200
    )
    hc = {"key": host, "client": "host-cccc"}
    c.post(f"/api/room/{rid}/start", json=hc)
    gone = c.post(f"/api/room/{rid}/free", json=hc | {"seat": 1}).json()
    assert gone["seats"][1]["taken"] is False and gone["seats"][1]["name"] == ""
    room = rooms.get(rid)
    assert room.table is not None and 1 in room.table.session.auto_seats  # a computer plays it now
    assert c.get(f"/api/room/{rid}", headers={"X-PDK-Key": guest}).status_code == 403
    assert len(gone["invites"]) == 2  # the seat is free again, under a new link
    assert c.post(f"/api/room/{rid}/free", json=hc | {"seat": 0}).status_code == 409
    assert (
        c.post(f"/api/room/{rid}/free", json={"key": guest, "client": "guest-aaaa", "seat": 2}).status_code
        == 403
    )
