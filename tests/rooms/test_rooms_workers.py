"""One room served by two real ``pdk serve`` processes on one store, as behind a load
balancer with no sticky sessions: on PostgreSQL (changes heard by ``LISTEN``) and on one
SQLite file (changes found by polling).

Seat 0 (Ann) streams from the first server and plays through it; seat 1 (Bee) streams from
the second and plays through either; seat 2 is a bot, moved by whichever server's runner
gets there first; a spectator streams from a third server, where nobody else is. Every
table version a stream shows reaches the others within ``PROMPT`` seconds (Bee's plays and
the bot's moves reach Ann, Ann's reach Bee, everything reaches the spectator), and while
Ann thinks for longer than ``--away``, connected only to the first server, the second
never puts her seat in 托管.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.serving import Server
from tests.support.tooling import until

pytestmark = pytest.mark.slow

PROMPT = 2.0  # seconds within which a change made through one server reaches the other's streams
AWAY = 5  # the smallest --away


@pytest.fixture(scope="module")
def pg() -> Iterator[Any]:
    from tests.support import pg_cluster

    with pg_cluster.running() as cluster:
        yield cluster


class Stream(threading.Thread):
    """A seat's live stream (server-sent events): each message with when it arrived."""

    def __init__(self, base: str, rid: str, key: str, client: str) -> None:
        super().__init__(daemon=True)
        self.url = f"{base}/api/room/{rid}/live"
        self.params = {"client": client}
        self.key = key
        self.got: list[tuple[float, dict[str, Any]]] = []
        self.error: BaseException | None = None
        self._response: httpx.Response | None = None
        self._ended = threading.Event()

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(30, read=60)) as http,
                http.stream("GET", self.url, params=self.params, headers={"X-PDK-Key": self.key}) as r,
            ):
                self._response = r
                assert r.status_code == 200, r.read()
                for line in r.iter_lines():
                    if line.startswith("data: ") and "room" in (view := json.loads(line[6:])):
                        self.got.append((time.monotonic(), view))  # a room, not a presence event
        except BaseException as exc:  # ended by stop(), or a failure the test reports
            if not self._ended.is_set():
                self.error = exc

    def latest(self) -> dict[str, Any] | None:
        return self.got[-1][1] if self.got else None

    def stop(self) -> None:
        self._ended.set()
        if self._response is not None:
            with contextlib.suppress(Exception):  # closed from this thread while it reads
                self._response.close()
        self.join(10)


def first_seen(stream: Stream) -> list[tuple[float, int]]:
    """When each table version first appeared on the stream."""
    seen: dict[int, float] = {}
    for at, msg in stream.got:
        if msg["table"] is not None:
            seen.setdefault(msg["versions"][1], at)
    return sorted((at, v) for v, at in seen.items())


def check_prompt(source: Stream, other: Stream, name: str) -> None:
    """Every version ``source`` showed, ``other`` showed too (or a later one) within
    ``PROMPT`` seconds."""
    theirs = first_seen(other)
    for at, version in first_seen(source):
        reached = [t for t, v in theirs if v >= version]
        assert reached, f"{name}: version {version} never reached the other stream"
        assert min(reached) <= at + PROMPT, f"{name}: version {version} took {min(reached) - at:.2f} s"


def my_turn(view: dict[str, Any] | None) -> bool:
    if view is None or view["table"] is None:
        return False
    t = view["table"]
    task = t["model"]["task"]
    return (
        t["model"]["settlement"] is None
        and not t["machine_turn"]
        and task["seat"] == view["you"]
        and task["kind"] in ("lead", "beat", "none")
    )


def act(base: str, rid: str, key: str, client: str, view: dict[str, Any]) -> int:
    t = view["table"]
    body = {"key": key, "client": client, "seq": t["seq"]}
    hints = t["model"]["hints"]
    if hints:
        r = httpx.post(f"{base}/api/room/{rid}/play", json=body | {"cards": hints[0]["cards"]}, timeout=30)
    else:
        r = httpx.post(f"{base}/api/room/{rid}/pass", json=body, timeout=30)
    assert r.status_code in (200, 409), r.text  # 409: the stream's view was already old...
    if r.status_code == 409:  # ...never "open on another device": it is the same person
        assert r.json()["error"]["key"] != "web_room_in_use", r.text
    return r.status_code


def play_across_two_servers(tmp_path: Path, store: list[str]) -> None:
    args = [*store, "--pace", "150", "--away", str(AWAY), "--difficulty", "easy", "--seed", "3"]
    one, two, three = (Server(tmp_path, *args) for _ in range(3))
    streams: list[Stream] = []
    try:
        for server in (one, two, three):
            server.start()
        r = httpx.post(f"{one.base}/api/rooms", json={"name": "Ann", "difficulty": "easy"}, timeout=30)
        rid, ann = r.json()["room"], r.json()["key"]
        view = httpx.get(f"{one.base}/api/room/{rid}", headers={"X-PDK-Key": ann}, timeout=30).json()
        bee = view["invites"][0]["url"].split("#k=")[1]
        joined = {"key": bee, "client": "bee-client", "name": "Bee"}
        assert httpx.post(f"{two.base}/api/room/{rid}/join", json=joined, timeout=30).status_code == 200
        watch = view["watch"].split("#w=")[1]
        ann_live = Stream(one.base, rid, ann, "ann-client")
        bee_live = Stream(two.base, rid, bee, "bee-client")
        # a spectator, the only one connected to the third server
        watcher = Stream(three.base, rid, watch, "watch-client")
        streams += [ann_live, bee_live, watcher]
        for s in streams:
            s.start()
        until(lambda: all(s.got for s in streams), 20, "every stream's first message")
        start = {"key": ann, "client": "ann-client"}
        assert httpx.post(f"{one.base}/api/room/{rid}/start", json=start, timeout=30).status_code == 200
        waited = False
        bee_server = 0
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            for s in streams:
                assert s.error is None, s.error
            a, b = ann_live.latest(), bee_live.latest()
            if a and a["table"] and a["table"]["model"]["settlement"] is not None:
                break
            if my_turn(a):
                if not waited:
                    # Ann thinks past --away, connected to the first server only: the
                    # second server (whose runner runs: Bee is connected there) must
                    # hear that she is here. Elapsed time is what is tested: AWAY is the
                    # smallest --away, and 3 s more let the second server's runner look past it.
                    time.sleep(AWAY + 3)
                    seen = httpx.get(
                        f"{two.base}/api/room/{rid}", headers={"X-PDK-Key": bee}, timeout=30
                    ).json()
                    assert seen["seats"][0]["auto"] is False and seen["seats"][0]["present"] is True
                    assert bee_live.latest()["seats"][0]["auto"] is False  # type: ignore[index]
                    waited = True
                    continue
                act(one.base, rid, ann, "ann-client", a)
                until(lambda a=a: ann_live.latest() is not a, 30, "Ann's stream after her move")
            elif my_turn(b):
                # Bee's plays go through either server: no sticky sessions
                base = (two.base, one.base)[bee_server % 2]
                bee_server += 1
                act(base, rid, bee, "bee-client", b)  # type: ignore[arg-type]
                until(lambda b=b: bee_live.latest() is not b, 30, "Bee's stream after her move")
            else:  # the bot's turn, or a stream not yet caught up: wait for the next message
                new = lambda a=a, b=b: ann_live.latest() is not a or bee_live.latest() is not b  # noqa: E731
                until(new, 30, "a new message")
        else:
            raise AssertionError("the deal did not end")
        same = lambda: len({str(s.latest()["versions"]) for s in streams}) == 1  # type: ignore[index]  # noqa: E731
        until(same, PROMPT, "the last version on every stream")
        assert waited, "Ann never had a move to think over"
        check_prompt(bee_live, ann_live, "from the second server to the first")
        check_prompt(ann_live, bee_live, "from the first server to the second")
        check_prompt(ann_live, watcher, "from the first server to the spectator's")
        check_prompt(bee_live, watcher, "from the second server to the spectator's")
        last = [s.latest() for s in streams]
        assert last[0]["versions"] == last[1]["versions"] == last[2]["versions"]  # type: ignore[index]
        assert all(not seat["auto"] for seat in last[0]["seats"][:2])  # type: ignore[index]
        # the bot's moves (made by either server's runner) reached both streams
        bot_turns = {m["versions"][1] for _, m in ann_live.got if m["table"] and m["table"]["bot_turn"]}
        assert len(bot_turns) >= 3, bot_turns
        for s in streams:
            shown = {v for _, v in first_seen(s)}
            assert all(any(v > turn for v in shown) for turn in bot_turns)
    finally:
        # The servers first: stopping them ends the streams' connections, so each stream's
        # thread ends at once (a response closed from this thread left that thread's read
        # blocked: the first stream's join waited out its whole ten seconds).
        try:
            for server in (one, two, three):
                server.stop()
        finally:
            for s in streams:
                s.stop()


def test_a_room_across_two_servers_on_postgresql(tmp_path: Path, pg: Any) -> None:
    play_across_two_servers(tmp_path, ["--store", pg.url])


def test_a_room_across_two_servers_on_one_sqlite_file(tmp_path: Path) -> None:
    play_across_two_servers(tmp_path, [])
