"""End to end: ``pdk play --join URL`` in a pseudo-terminal takes a seat of a room that a
real server (uvicorn in this process) holds, and plays a whole deal with the same keys as
``pdk play`` (``h`` for a hint, Enter plays it) while the host plays seat 0 over the HTTP
API and a bot seat 2; the deal's result lands in the terminal's own history
(``pdk stats``). Bad links are one line and a non-zero exit.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from pdk.rooms.room import Rooms
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app
from tests.support.tooling import served, until

pytestmark = pytest.mark.e2e

TIMEOUT = 60


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("join")
    store = TableStore(root, load_profile("classic16"), "classic16", seed=5, difficulty="easy")
    rooms = Rooms(store.saves, store.archive, pace_ms=20, away_after=30, seed=5)
    with served(create_app(store, pace_ms=20, rooms=rooms)) as up:
        yield up.url


def call(base: str, path: str, body: dict[str, Any] | None = None, key: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} | ({} if key is None else {"X-PDK-Key": key})
    req = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return json.loads(exc.read())


def host_plays(base: str, rid: str, key: str, stop: threading.Event) -> None:
    """Seat 0, played over the API: its first hint, or a pass."""
    while not stop.is_set():
        room = call(base, f"api/room/{rid}/poll?client=host-0000&since=-1", key=key)
        t = room.get("table")
        if (
            t
            and not t["machine_turn"]
            and t["model"]["task"]["seat"] == 0
            and t["model"]["settlement"] is None
        ):
            body = {"key": key, "client": "host-0000", "seq": t["seq"]}
            hints = t["model"]["hints"]
            call(
                base,
                f"api/room/{rid}/" + ("play" if hints else "pass"),
                body | ({"cards": hints[0]["cards"]} if hints else {}),
            )
        stop.wait(0.05)  # between polls; ends as soon as the test is done


def spawn(save_dir: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    env.pop("COLUMNS", None)  # the pty's 100 columns, not the runner's
    env.pop("LINES", None)
    cmd = ["play", "--lang", "en", "--save-dir", str(save_dir), *args]
    return pexpect.spawn(
        "pdk", cmd, env=env, encoding="utf-8", codec_errors="replace", timeout=TIMEOUT, dimensions=(30, 100)
    )


TABLE = re.compile(r"[^\x1b]*▶ You[^\x1b]*?Your hand \(\d+\)\r\n[^\r\n]*")


def seat_turns(child: pexpect.spawn) -> Iterator[str]:
    """The table as the terminal shows it each time it is the seat's turn (``▶ You``), once
    per table: answering every prompt drawn would type ahead of the screen (each key redraws
    the frame, and the backlog of stale prompts grows faster than it is read). The same
    table again after two seconds is yielded again (a key lost, a refused play). Ends when
    the settlement shows."""
    last, at = "", 0.0
    while True:
        i = child.expect([r"Settlement, deal 1", r"play \(\? help\)> ", pexpect.TIMEOUT], timeout=2)
        if i == 0:
            return
        found = TABLE.findall(child.before) if i == 1 else []
        if found and (found[-1] != last or time.monotonic() - at > 2):
            last, at = found[-1], time.monotonic()
            yield last


@pytest.mark.slow
def test_the_terminal_joins_a_room_and_plays_a_deal(server: str, tmp_path: Path) -> None:
    made = call(server, "api/rooms", {"name": "Ann", "difficulty": "easy"})
    rid, host = made["room"], made["key"]
    room = call(server, f"api/room/{rid}", key=host)
    link = room["invites"][0]["url"]
    child = spawn(tmp_path, "--join", link, "--name", "Tom")
    child.expect("Waiting for the host")
    stop = threading.Event()
    call(server, f"api/room/{rid}/start", {"key": host, "client": "host-0000"})
    helper = threading.Thread(target=host_plays, args=(server, rid, host, stop), daemon=True)
    helper.start()
    try:
        # (no expect("Your hand") here: it would eat the first frame, which seat_turns must
        # read, and the next frame came only when the long poll timed out, 15 s later)
        end = time.monotonic() + TIMEOUT
        turns = 0
        for _ in seat_turns(child):  # the first hint, played with Enter
            assert time.monotonic() < end, "the deal did not end in the terminal"
            child.sendline("h")
            child.sendline("")
            turns += 1
        assert turns, "the seat's hand and turn were never shown"
        child.expect("The host deals the next deal")
        child.sendline("q")  # a room's terminal keeps keys typed ahead of its prompt
        child.expect(pexpect.EOF)
    finally:
        stop.set()
        child.close()
    assert child.exitstatus == 0
    seen = call(server, f"api/room/{rid}", key=host)
    assert seen["seats"][1]["name"] == "Tom" and seen["table"]["model"]["settlement"] is not None
    stats = subprocess.run(
        ["pdk", "stats", "--json", "--save-dir", str(tmp_path)], capture_output=True, text=True, check=True
    )
    data = json.loads(stats.stdout)
    assert data["games"] == 1
    assert data["total"] == seen["seats"][1]["total"]


@pytest.mark.parametrize(
    "link", ["http://x/room/abc#k=1", "ftp://h/room/AAAAAAAAAAAAAAAA#k=" + "A" * 32, "nonsense"]
)
def test_a_bad_link_is_one_line(tmp_path: Path, link: str) -> None:
    r = subprocess.run(
        ["pdk", "play", "--join", link, "--save-dir", str(tmp_path)], capture_output=True, text=True
    )
    assert r.returncode == 2
    assert r.stderr.startswith("pdk: error: not a seat's link") and len(r.stderr.strip().splitlines()) == 1


def test_a_forged_key_is_refused_in_one_line(server: str, tmp_path: Path) -> None:
    made = call(server, "api/rooms", {"name": "Ann"})
    link = f"{server}room/{made['room']}#k={'B' * 32}"
    r = subprocess.run(
        ["pdk", "play", "--join", link, "--save-dir", str(tmp_path)], capture_output=True, text=True
    )
    assert r.returncode == 2 and "grants no seat" in r.stderr and "Traceback" not in r.stderr


def test_serve_on_every_interface_prints_the_address_and_its_qr_code(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    args = ["serve", "--host", "0.0.0.0", "--port", str(port), "--no-open", "--save-dir", str(tmp_path)]
    child = pexpect.spawn("pdk", [*args, "--lang", "en"], env=env, encoding="utf-8", timeout=TIMEOUT)
    try:
        child.expect(r"On this network, open (http://[0-9.]+:\d+/)")
        url = child.match.group(1)
        assert url.endswith(f":{port}/")
        child.expect("▀▀▀▀▀▀▀▀▀▀")  # the QR code's last row, drawn in the terminal

        def room_page() -> bytes | bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/room", timeout=20) as res:
                    return bytes(res.read())
            except urllib.error.URLError:
                return False

        # uvicorn starts once the address is printed
        assert b'data-testid="create-room"' in until(room_page, 20, "the room page is served", every=0.1)
    finally:
        child.kill(2)
        child.close()
