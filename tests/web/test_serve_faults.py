"""Faults of a real ``pdk serve``: ``kill -9`` in the middle of a burst of moves loses no
acknowledged move (SQLite, one worker; PostgreSQL, a worker of two killed), and a stopped
database is a 503 with its reason until it is back, with nothing to restart.

"Acknowledged" is an answer 200 to the client: after the kill every table must be at
least at the move number its last such answer named (the deal number too: a table never
goes back to an earlier deal).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.support.serving import Server, next_request
from tests.support.tooling import until

pytestmark = pytest.mark.slow

BURST_TABLES = 4


@pytest.fixture(scope="module")
def pg() -> Iterator[object]:
    from tests.support import pg_cluster

    with pg_cluster.running() as cluster:
        yield cluster


@contextmanager
def burst(base: str, tokens: list[str]) -> Iterator[dict[str, tuple[int, int]]]:
    """Each table moved as fast as the server answers while the block runs; the dict
    yielded keeps the last answered (deal, move) of each. Errors (the server being killed)
    are retried from a fresh read."""
    acked: dict[str, tuple[int, int]] = {}
    stop = threading.Event()

    def player(token: str) -> None:
        with httpx.Client(base_url=base, timeout=10) as http:
            table = None
            while not stop.is_set():
                try:
                    if table is None:
                        r = http.get(f"/api/table/{token}")
                    else:
                        kind, body = next_request(table)
                        r = http.post(f"/api/table/{token}/{kind}", json=body)
                except httpx.HTTPError:
                    table = None
                    stop.wait(0.05)  # a pause before retrying the killed server; ends with the burst
                    continue
                data = r.json()
                table = data.get("table") if r.status_code == 409 else data if r.status_code == 200 else None
                if r.status_code == 200:
                    acked[token] = max(acked.get(token, (0, 0)), (data["model"]["deal_no"], data["seq"]))

    threads = [threading.Thread(target=player, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    try:
        yield acked
    finally:
        stop.set()
        for t in threads:
            t.join(30)


def under_way(acked: dict[str, tuple[int, int]], timeout: float = 30) -> None:
    """Return once every table of the burst has had a move acknowledged, and then another,
    so that the kill lands while moves are in flight (rather than after a fixed wait: fast
    on an idle machine, still mid-burst on a loaded one)."""
    until(lambda: len(acked) == BURST_TABLES, timeout, "every table of the burst had a move")
    moved_on(acked, timeout)


def moved_on(acked: dict[str, tuple[int, int]], timeout: float = 30) -> None:
    """Return once every table has had a move acknowledged after this call."""
    before = dict(acked)
    until(lambda: all(acked[t] > before[t] for t in before), timeout, "every table moved on")


def opened(base: str, n: int) -> list[str]:
    return [httpx.post(base + "/api/open", json={}, timeout=30).json()["token"] for _ in range(n)]


def check_kept(base: str, acked: dict[str, tuple[int, int]]) -> None:
    assert acked, "no move was acknowledged before the kill"
    for token, (deal, seq) in acked.items():
        now = httpx.get(f"{base}/api/table/{token}", timeout=30).json()
        assert (now["model"]["deal_no"], now["seq"]) >= (deal, seq), f"{token}: an acknowledged move was lost"


def test_kill_9_loses_no_acknowledged_move_on_sqlite(tmp_path: Path) -> None:
    server = Server(tmp_path, "--difficulty", "easy", "--opens-per-minute", "0").start()
    try:
        tokens = opened(server.base, BURST_TABLES)
        for _ in range(3):
            with burst(server.base, tokens) as acked:
                under_way(acked)
                server.kill9()  # mid-burst: moves are in flight
            server.start()
            check_kept(server.base, acked)
    finally:
        server.stop()


def test_kill_9_of_a_worker_loses_no_acknowledged_move_on_postgresql(tmp_path: Path, pg: object) -> None:
    url = pg.url  # type: ignore[attr-defined]
    args = ["--store", url, "--workers", "2", "--difficulty", "easy", "--opens-per-minute", "0"]
    server = Server(tmp_path, *args)
    server.start()
    try:
        tokens = opened(server.base, BURST_TABLES)
        for _ in range(3):
            with burst(server.base, tokens) as acked:
                under_way(acked)
                # The worker killed last round is started again by uvicorn's supervisor:
                # wait for it rather than assume it is already back.
                workers = until(lambda: w if len(w := server.workers()) == 2 else None, 30, "two workers")
                os.kill(workers[0], signal.SIGKILL)  # one worker, mid-burst; the other serves on
                moved_on(acked)
            check_kept(server.base, acked)
    finally:
        server.stop()


def test_a_stopped_database_is_a_503_with_its_reason_then_recovers(tmp_path: Path, pg: object) -> None:
    url = pg.url  # type: ignore[attr-defined]
    server = Server(tmp_path, "--store", url, "--difficulty", "easy").start()
    try:
        token = opened(server.base, 1)[0]
        pg.stop()  # type: ignore[attr-defined]
        try:
            for _ in range(2):  # the first finds its pooled connection dead, the next cannot connect
                r = httpx.get(f"{server.base}/api/table/{token}", timeout=30)
                assert r.status_code == 503, r.text
                error = r.json()["error"]
                assert error["key"] == "web_storage" and "\n" not in error["text"]
            r = httpx.post(f"{server.base}/api/open", json={}, timeout=30)
            assert r.status_code == 503
        finally:
            pg.start()  # type: ignore[attr-defined]
        r = httpx.get(f"{server.base}/api/table/{token}", timeout=30)
        assert r.status_code == 200, r.text
        kind, body = next_request(r.json())
        assert httpx.post(f"{server.base}/api/table/{token}/{kind}", json=body, timeout=30).status_code == 200
    finally:
        server.stop()
