"""Links that work on the family's network (issue 36, point 1): a server bound to every
interface hands out invite and watch links (and their QR codes) on the LAN address it
printed, whatever address the host's page was opened with; one bound to loopback says its
links open on this computer only."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path
from urllib.parse import urlsplit

from pdk.rooms.room import Rooms
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.address import Links, links_for, listen
from pdk.web.rooms_api import invite_url, qr_svg
from pdk.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _client(root: Path, links: Links) -> TestClient:
    store = TableStore(root, load_profile("classic16"), "classic16", seed=7, difficulty="easy")
    rooms = Rooms(store.saves, store.archive, pace_ms=0, seed=7)
    return TestClient(create_app(store, pace_ms=0, rooms=rooms, links=links))


def test_links_for_every_interface_carry_the_lan_address() -> None:
    assert links_for(listen("0.0.0.0"), 8000, "192.168.1.23") == Links("http://192.168.1.23:8000/")
    assert links_for(listen("127.0.0.1"), 8000, "") == Links(None, local_only=True)
    assert links_for(listen("::"), 8000, "fd00::5") == Links("http://[fd00::5]:8000/")


def test_invites_watch_links_and_qr_codes_carry_the_lan_address(tmp_path: Path) -> None:
    c = _client(tmp_path, links_for(listen("0.0.0.0"), 8000, "192.168.1.23"))
    made = c.post("http://127.0.0.1:8000/api/rooms", json={"name": "Ann"}).json()
    assert made["url"].startswith("http://192.168.1.23:8000/room/")
    rid, host = made["room"], made["key"]
    view = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
    assert {urlsplit(i["url"]).netloc for i in view["invites"]} == {"192.168.1.23:8000"}
    assert urlsplit(view["watch"]).netloc == "192.168.1.23:8000"
    key = view["invites"][0]["url"].split("#k=")[1]
    qr = c.get(f"/api/room/{rid}/qr/1", headers={"X-PDK-Key": host})
    assert qr.content == qr_svg(invite_url("http://192.168.1.23:8000/", rid, key))
    assert c.get("/api/rooms/links").json() == {"base": "http://192.168.1.23:8000/", "local_only": False}


def test_a_loopback_server_says_its_links_work_here_only(tmp_path: Path) -> None:
    c = _client(tmp_path, links_for(listen("127.0.0.1"), 8000, ""))
    assert c.get("/api/rooms/links").json() == {"base": "http://testserver/", "local_only": True}


def test_pdk_serve_on_every_interface_hands_out_links_that_are_not_loopback(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--host", "0.0.0.0", "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--save-dir", str(tmp_path), "--lang", "en"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        printed = [proc.stdout.readline() for _ in range(3)]
        lan = next(
            w for line in printed for w in line.split() if w.startswith("http://") and "127.0.0.1" not in w
        )
        body = json.dumps({"name": "Ann"}).encode()
        for _ in range(100):
            try:
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/rooms", body, {"content-type": "application/json"}
                )
                with urllib.request.urlopen(req, timeout=5) as r:
                    made = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        proc.terminate()
        proc.wait(10)
    host = urlsplit(made["url"]).hostname
    assert made["url"].startswith(lan.rstrip("/") + "/room/")
    assert host is not None and host not in ("127.0.0.1", "localhost", "::1")


def test_a_six_digit_room_number_finds_the_room_and_a_seat(tmp_path: Path) -> None:
    c = _client(tmp_path, Links())
    made = c.post("/api/rooms", json={"name": "Ann"}).json()
    rid, host = made["room"], made["key"]
    number = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()["number"]
    assert len(number) == 6 and number.isdigit()
    found = c.get(f"/api/rooms/number/{number}").json()
    assert found["room"] == rid
    watch = found["watch"].split("#w=")[1]
    guest = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": watch}).json()
    assert guest["number"] is None and guest["invites"] == []  # only the host is shown them
    seat = c.post(f"/api/room/{rid}/claim", json={"key": watch, "client": "phone-aaaa", "name": "Bo"})
    assert seat.status_code == 200 and len(seat.json()["key"]) == 32
    other = "100000" if number != "100000" else "100001"
    assert c.get(f"/api/rooms/number/{other}").status_code == 404
    assert c.get("/api/rooms/number/12345").status_code == 422
    c.post(f"/api/room/{rid}/close", json={"key": host, "client": "host-cccc"})
    assert c.get(f"/api/rooms/number/{number}").status_code in (404, 410)


def test_room_numbers_cannot_be_tried_in_bulk(tmp_path: Path) -> None:
    c = _client(tmp_path, Links())
    codes = [c.get(f"/api/rooms/number/{100000 + i}").status_code for i in range(14)]
    assert codes[:10] == [404] * 10 and 429 in codes[10:]
