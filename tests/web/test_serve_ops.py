"""The operator's commands of ``pdk serve`` against a real server's store
(``pdk.store.backup``, ``pdk.rooms.ledger``, ``pdk.cli.serve``).

A backup taken while the server is answering moves holds every move acknowledged before it
began and is itself an intact pdk store; a restore is refused while the server runs and
changes nothing then, refuses a file that is not a pdk store, and once the server is
stopped puts the backup in place, keeping the store it replaced, so the server started
again serves the tables of the backup and not the ones made after it. ``pdk serve rooms``
lists the rooms (id, phase, seats, last activity) and never a key; ``rooms close ID``
closes one under the running server, which refuses it from then on. PostgreSQL gets
``pg_dump`` guidance without its URL (a password) echoed.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

from pdk.cli.app import app
from pdk.store.backup import contents
from pdk.store.sqlite import SqliteStore
from tests.support.serving import Server, next_request

runner = CliRunner()
ARGS = ("--pace", "0", "--difficulty", "easy", "--lang", "en")


def pdk_serve(*args: str) -> tuple[int, str]:
    done = runner.invoke(app, ["serve", *args], env={"COLUMNS": "200"})  # a table's rows on one line
    return done.exit_code, done.output


def versions(store_file: Path, keys: list[str]) -> dict[str, int]:
    with contextlib.closing(SqliteStore(store_file)) as store:
        return store.versions(keys)


def test_backup_while_serving_then_restore(tmp_path: Path) -> None:
    data = tmp_path / "data"
    live = data / "tables.sqlite3"
    server = Server(data, *ARGS).start()
    try:
        with httpx.Client(base_url=server.base, timeout=20) as h:
            tokens = [h.post("/api/open", json={}).json()["token"] for _ in range(3)]
            stop = threading.Event()
            moves = [0]

            def play() -> None:  # moves keep landing while the backups are taken
                table = h.get(f"/api/table/{tokens[0]}").json()
                while not stop.is_set():
                    action, body = next_request(table)
                    answer = h.post(f"/api/table/{tokens[0]}/{action}", json=body).json()
                    table = answer.get("table", answer)
                    moves[0] += 1

            player = threading.Thread(target=play)
            player.start()
            try:
                for n in range(3):
                    time.sleep(0.3)
                    before = versions(live, tokens)
                    code, said = pdk_serve("backup", str(tmp_path / f"b{n}.sqlite3"), "--save-dir", str(data))
                    assert code == 0, said
                    assert said.startswith("backed up 3 tables and 0 rooms"), said
                    kept = versions(tmp_path / f"b{n}.sqlite3", tokens)
                    assert all(kept[t] >= before[t] for t in tokens), (before, kept)
                    assert contents(tmp_path / f"b{n}.sqlite3").tables == 3
            finally:
                stop.set()
                player.join(30)
            assert moves[0] > 10
            later = [h.post("/api/open", json={}).json()["token"] for _ in range(2)]

        # While the server runs, a restore changes nothing.
        now = versions(live, tokens + later)
        code, said = pdk_serve("restore", str(tmp_path / "b2.sqlite3"), "--save-dir", str(data))
        assert code == 2 and "a pdk serve is using it: stop it first" in said, said
        assert versions(live, tokens + later) == now
    finally:
        server.stop()

    (tmp_path / "junk.sqlite3").write_text("not a database")
    for junk in ("junk.sqlite3", "missing.sqlite3"):
        code, said = pdk_serve("restore", str(tmp_path / junk), "--save-dir", str(data))
        assert code == 2 and "cannot restore" in said, said
    assert versions(live, tokens + later) == now

    code, said = pdk_serve("restore", str(tmp_path / "b2.sqlite3"), "--save-dir", str(data))
    assert code == 0, said
    assert said.startswith(f"restored 3 tables and 0 rooms from {tmp_path / 'b2.sqlite3'}"), said
    kept = next(data.glob("tables.sqlite3.before-restore-*"))
    assert str(kept) in said.replace("\n", "")
    assert contents(kept).tables == 5  # the store it replaced, whole
    restored = versions(tmp_path / "b2.sqlite3", tokens)

    again = Server(data, *ARGS).start()
    try:
        with httpx.Client(base_url=again.base, timeout=20) as h:
            for token in tokens:
                assert h.get(f"/api/table/{token}").status_code == 200
            for token in later:
                assert h.get(f"/api/table/{token}").status_code == 404
    finally:
        again.stop()
    assert versions(live, tokens) == restored


def make_room(h: httpx.Client, name: str) -> tuple[str, str]:
    made = h.post("/api/rooms", json={"name": name, "turn_time": 0, "difficulty": "easy"})
    assert made.status_code == 200, made.text
    return made.json()["room"], made.json()["key"]


def keys_in(view: dict[str, Any]) -> list[str]:
    """The seat and watch keys a host's view carries (in its links' fragments)."""
    found = [i["url"].split("#k=")[1] for i in view["invites"]]
    return [*found, view["watch"].split("#w=")[1]]


def test_rooms_are_listed_without_keys_and_closed_under_a_running_server(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data, *ARGS).start()
    try:
        with httpx.Client(base_url=server.base, timeout=20) as h:
            waiting, host_a = make_room(h, "Ann")
            playing, host_b = make_room(h, "小明")
            started = h.post(f"/api/room/{playing}/start", json={"key": host_b, "client": "host-client-b"})
            assert started.status_code == 200, started.text
            secrets = [host_a, host_b, *keys_in(started.json())]

            code, listed = pdk_serve("rooms", "--json", "--save-dir", str(data))
            assert code == 0, listed
            rooms = {r["id"]: r for r in json.loads(listed)}
            assert set(rooms) == {waiting, playing}
            assert rooms[waiting]["phase"] == "waiting" and rooms[playing]["phase"] == "playing"
            assert rooms[playing]["variant"] == "classic16"
            assert [s["name"] for s in rooms[playing]["seats"] if s["taken"]] == ["小明"]
            assert len(rooms[playing]["seats"]) == 3
            assert abs(rooms[playing]["last_activity"] - time.time()) < 120
            code, text = pdk_serve("--save-dir", str(data), "rooms")  # the options before the command
            assert code == 0 and waiting in text and playing in text and "playing" in text, text
            assert "1/3: 小明, (free), (free)" in text, text
            for secret in secrets:
                assert secret not in listed and secret not in text

            code, said = pdk_serve("rooms", "close", playing, "--save-dir", str(data))
            assert code == 0 and said.strip() == f"room {playing} closed (its deals stay kept)", said
            free = keys_in(started.json())[0]
            # The server hears the change within its change feed's poll (a second); until
            # then a command on its older copy is "moved on meanwhile", never accepted.
            for _ in range(50):
                body = {"key": free, "client": "late-client", "name": "Bo"}
                join = h.post(f"/api/room/{playing}/join", json=body)
                if join.status_code != 409:
                    break
                assert join.json()["error"]["key"] == "web_room_moved", join.text
                time.sleep(0.1)
            assert join.status_code == 410, join.text
            dealt = h.post(f"/api/room/{waiting}/start", json={"key": host_a, "client": "host-client-a"})
            assert dealt.status_code == 200, dealt.text
            code, said = pdk_serve("rooms", "close", playing, "--save-dir", str(data))
            assert code == 0 and "closed already" in said, said
            code, said = pdk_serve("rooms", "close", "A" * 16, "--save-dir", str(data))
            assert code == 2 and f"no room {'A' * 16}" in said, said
            code, said = pdk_serve("rooms", "close", "../../etc", "--save-dir", str(data))
            assert code == 2 and "no room" in said, said
    finally:
        server.stop()
    code, listed = pdk_serve("rooms", "--json", "--save-dir", str(data))
    phases = {r["id"]: r["phase"] for r in json.loads(listed)}
    assert phases == {waiting: "playing", playing: "closed"}


def test_an_empty_data_dir_has_no_rooms_and_no_store_is_made(tmp_path: Path) -> None:
    code, said = pdk_serve("rooms", "--save-dir", str(tmp_path))
    assert code == 0 and said.startswith("no rooms in"), said
    assert pdk_serve("rooms", "--json", "--save-dir", str(tmp_path)) == (0, "[]\n")
    code, said = pdk_serve("backup", str(tmp_path / "b.sqlite3"), "--save-dir", str(tmp_path))
    assert code == 2 and "no such file" in said, said
    assert list(tmp_path.iterdir()) == []


def test_postgresql_is_told_pg_dump_and_its_url_is_not_echoed() -> None:
    url = "postgresql://pdk:s3cret-pw@db.invalid/pdk"
    code, said = pdk_serve("backup", "pdk.dump", "--store", url)
    assert code == 2 and "pg_dump --format=custom --table=pdk_tables --file pdk.dump" in said, said
    code, said = pdk_serve("--store", url, "restore", "pdk.dump")
    assert code == 2 and "pg_restore" in said, said
    assert "s3cret" not in said
