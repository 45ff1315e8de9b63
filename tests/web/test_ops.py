"""What ``pdk serve`` tells its operator (``pdk.web.metrics``) and what it believes of a
proxy (``pdk.web.forwarded``), through the app in process and through a real server.

``/healthz`` answers 200 while the store answers and 503 with the store's reason when it
does not; ``/metrics`` is Prometheus text whose requests are labelled by route template
(never a token), whose store-error counter counts the store's failures, and which answers
only a client on this machine that no proxy forwarded unless ``--metrics any``. The
``X-Forwarded-*`` headers change the links and the client only when the connection comes
from a trusted address, and a forwarded host that is not a host changes nothing. A real
``pdk serve --access-log`` is driven with table tokens, room keys in query strings and
bodies, and its log must show the routes and none of those secrets.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pdk import __version__
from pdk.cli.serve import serve
from pdk.rooms.room import Rooms
from pdk.store.contract import StoreUnavailable
from pdk.store.counted import CountedStore
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.factory import SETTINGS_ENV, ServeSettings, build_app
from pdk.web.forwarded import Trusted
from pdk.web.guard import ThinkingQueue
from pdk.web.metrics import BUCKETS, Metrics, Shared, mount_operator
from pdk.web.rooms_api import RoomLimits
from pdk.web.server import WebLimits, create_app, room_limits
from tests.support.serving import Server, stop_group

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

LOCAL = ("127.0.0.1", 40000)


class Failing(CountedStore):
    """The real store, until ``down`` is set: then every read is refused, as a database
    that stopped would refuse it."""

    down = False

    def versions(self, keys: list[str]) -> dict[str, int]:
        if self.down:
            with self._counted():
                raise StoreUnavailable("connection refused")
        return super().versions(keys)


def app(root: Path, client: tuple[str, int] = LOCAL, **limits: Any) -> tuple[TestClient, Metrics, Failing]:
    metrics = Metrics()
    store = TableStore(root, load_profile("classic16"), "classic16", seed=3, difficulty="easy")
    failing = Failing(store.saves, metrics.store_failed)
    store.store = failing
    rooms = Rooms(failing, store.archive, pace_ms=0, seed=3)
    made = create_app(store, pace_ms=0, limits=WebLimits(**limits), rooms=rooms, metrics=metrics)
    return TestClient(made, client=client), metrics, failing


def samples(text: str, name: str) -> dict[str, float]:
    """The samples of one metric: the label text -> its value."""
    found = {}
    for line in text.splitlines():
        m = re.fullmatch(rf"{name}(\{{.*\}})? (\S+)", line)
        if m:
            found[m.group(1) or ""] = float(m.group(2))
    return found


def test_healthz_says_the_store_and_the_queue(tmp_path: Path) -> None:
    c, metrics, store = app(tmp_path)
    ok = c.get("/healthz")
    assert ok.status_code == 200
    assert ok.json() == {
        "status": "ok",
        "store": "ok",
        "bot_queue": {"thinking": 0, "waiting": 0, "slots": 1},
    }
    store.down = True
    down = c.get("/healthz")
    assert down.status_code == 503
    assert down.json()["status"] == "unavailable" and down.json()["store"] == "unreachable"
    assert down.json()["reason"] == "store: connection refused"
    assert metrics.store_errors == 1
    store.down = False
    assert c.get("/healthz").status_code == 200


def test_healthz_is_503_when_the_bot_queue_is_full(tmp_path: Path) -> None:
    """The queue's bound is ``max_waiting``; a queue that holds none is full at once."""
    store = TableStore(tmp_path, load_profile("classic16"), "classic16")
    bare = FastAPI()
    mount_operator(bare, Metrics(), store, Rooms(store.saves, store.archive), ThinkingQueue(2, max_waiting=0))
    answer = TestClient(bare).get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["store"] == "ok" and answer.json()["reason"] == "bot queue full: 0 waiting"
    assert answer.json()["bot_queue"] == {"thinking": 0, "waiting": 0, "slots": 2}


def test_metrics_count_by_route_template_never_a_token(tmp_path: Path) -> None:
    c, _, store = app(tmp_path)
    token = c.post("/api/open", json={}).json()["token"]
    for _ in range(3):
        assert c.get(f"/api/table/{token}").status_code == 200
    assert c.get("/api/table/" + "x" * 22).status_code in (404, 422)
    room = c.post("/api/rooms", json={"name": "Ann", "turn_time": 0, "difficulty": "easy"}).json()
    assert c.get(f"/api/room/{room['room']}", headers={"X-PDK-Key": room["key"]}).status_code == 200
    assert c.get("/static/app.js").status_code == 200
    assert c.get("/no/such/page").status_code == 404
    for n in range(3):  # invented methods are one label, not three
        assert c.request(f"BREW{n}", "/healthz").status_code == 405
    store.down = True
    assert c.get(f"/api/table/{token}").status_code == 200  # served from memory: no read
    assert c.get("/healthz").status_code == 503

    answer = c.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = answer.text
    for secret in (token, room["room"], room["key"]):
        assert secret not in text
    requests = samples(text, "pdk_requests_total")
    assert requests['{route="/api/table/{token}",method="GET",status="200"}'] == 4
    assert requests['{route="/api/room/{room_id}",method="GET",status="200"}'] == 1
    assert requests['{route="/static/{path}",method="GET",status="200"}'] == 1
    assert requests['{route="(unmatched)",method="GET",status="404"}'] == 1
    assert requests['{route="/healthz",method="GET",status="503"}'] == 1
    assert requests['{route="/healthz",method="OTHER",status="405"}'] == 3
    assert not any("BREW" in labels for labels in requests)
    latency = samples(text, "pdk_request_duration_seconds_count")
    assert latency['{route="/api/table/{token}"}'] == 5  # the refused token too
    buckets = samples(text, "pdk_request_duration_seconds_bucket")
    assert buckets['{route="/api/open",le="+Inf"}'] == 1
    assert samples(text, "pdk_store_errors_total") == {"": 1}
    assert samples(text, "pdk_tables_live") == {"": 1}
    assert samples(text, "pdk_rooms_live")['{phase="waiting"}'] == 1
    assert samples(text, "pdk_streams_open") == {"": 0}
    assert samples(text, "pdk_bot_queue_waiting") == {"": 0}
    assert samples(text, "pdk_bot_queue_slots") == {"": 1}
    assert samples(text, "pdk_info") == {f'{{version="{__version__}",worker="{os.getpid()}"}}': 1}
    # Every sample belongs to a family announced with its HELP and TYPE.
    families = set(re.findall(r"^# TYPE (\S+) (?:counter|gauge|histogram)$", text, re.M))
    for line in text.splitlines():
        if not line.startswith("#"):
            name = re.split(r"[{ ]", line)[0]
            assert name.startswith("pdk_")
            assert name in families or re.sub(r"_(bucket|sum|count)$", "", name) in families, line


def test_metrics_answer_this_machine_unproxied_only(tmp_path: Path) -> None:
    local, _, _ = app(tmp_path / "a")
    assert local.get("/metrics").status_code == 200
    # Through a proxy on this machine the peer is loopback too: the header tells.
    assert local.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
    stranger, _, _ = app(tmp_path / "b", client=("203.0.113.9", 5000))
    assert stranger.get("/metrics").status_code == 404
    anyone, _, _ = app(tmp_path / "c", client=("203.0.113.9", 5000), metrics="any")
    assert anyone.get("/metrics").status_code == 200
    nobody, _, _ = app(tmp_path / "d", metrics="off")
    assert nobody.get("/metrics").status_code == 404
    assert nobody.get("/healthz").status_code == 200


PROXIED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "pdk.example.org",
    "X-Forwarded-For": "198.51.100.7",
}


def invite(c: TestClient, headers: dict[str, str]) -> str:
    made = c.post("/api/rooms", json={"name": "Ann", "turn_time": 0, "difficulty": "easy"}, headers=headers)
    assert made.status_code == 200, made.text
    url: str = made.json()["url"]
    return url


def test_forwarded_headers_are_believed_from_a_trusted_proxy_only(tmp_path: Path) -> None:
    proxied, _, _ = app(tmp_path / "a")  # 127.0.0.1: trusted by default
    assert invite(proxied, PROXIED).startswith("https://pdk.example.org/room/")
    assert invite(proxied, {}).startswith("http://testserver/room/")
    for host in ("evil.example/x#", "a b", "pdk.example.org:99999999", "[::1"):
        assert invite(proxied, {**PROXIED, "X-Forwarded-Host": host}).startswith("https://testserver/room/")
    stranger, _, _ = app(tmp_path / "b", client=("203.0.113.9", 5000))
    assert invite(stranger, PROXIED).startswith("http://testserver/room/")
    narrowed, _, _ = app(tmp_path / "c", forwarded="10.0.0.0/8")
    assert invite(narrowed, PROXIED).startswith("http://testserver/room/")
    nobody, _, _ = app(tmp_path / "d", forwarded="")
    assert invite(nobody, PROXIED).startswith("http://testserver/room/")


def test_the_client_is_the_nearest_address_no_trusted_proxy_added() -> None:
    trusted = Trusted("127.0.0.1, 10.0.0.0/8")
    assert "10.1.2.3" in trusted and "127.0.0.1" in trusted and "192.0.2.1" not in trusted
    assert "testclient" not in trusted and not Trusted("") and "192.0.2.1" in Trusted("*")
    with pytest.raises(ValueError):
        Trusted("127.0.0.300")


def test_a_forwarded_client_counts_for_the_per_client_bounds(tmp_path: Path) -> None:
    """New tables are limited per client: through a trusted proxy, per forwarded client."""
    c, _, _ = app(tmp_path, opens_per_minute=1)
    codes = [
        c.post("/api/open", json={}, headers={"X-Forwarded-For": f"198.51.100.{i % 2}"}).status_code
        for i in range(44)
    ]
    # Two clients, a burst of 20 each: the 41st open is the first refused.
    assert codes[:40] == [200] * 40 and codes[40:] == [429] * 4


def test_the_rooms_rate_limits_are_options_counted_per_client(tmp_path: Path) -> None:
    """``--rooms-per-minute`` and the others reach the rooms' buckets (they were fixed), and
    a bucket is a client's: its address, or the one a trusted proxy forwarded; an address
    the proxy list does not trust cannot pick a fresh bucket by sending the header."""
    settings = ServeSettings(
        data_dir=str(tmp_path / "s"), profile="classic16", variant="classic16", seed=3, max_tables=8,
        difficulty="easy", pace_ms=0, store=None, shared=False, max_body=4096, hosts=None,
        opens_per_minute=0, hard_slots=1, idle_seconds=0, rooms=(2, 4, 12),
    )  # fmt: skip
    os.environ[SETTINGS_ENV] = settings.to_env()
    try:
        assert ServeSettings.from_env() == settings
    finally:
        del os.environ[SETTINGS_ENV]
    limits = room_limits(*settings.rooms)  # type: ignore[misc]
    assert (limits.creates_burst, limits.streams_burst, limits.polls_burst) == (1, 2, 2)
    defaults = inspect.signature(serve).parameters
    given = [defaults[f"{n}_per_minute"].default for n in ("rooms", "streams", "polls")]
    assert room_limits(*given) == RoomLimits()  # pdk serve's defaults are the rooms' own
    proxied, _, _ = app(tmp_path / "a", rooms=limits)
    body = {"name": "Ann", "turn_time": 0, "difficulty": "easy"}

    def made(c: TestClient, who: str | None) -> int:
        headers = {} if who is None else {"X-Forwarded-For": who}
        return c.post("/api/rooms", json=body, headers=headers).status_code

    # one room at once per client: each forwarded client has its own bucket
    assert [made(proxied, f"198.51.100.{i}") for i in range(4)] == [200] * 4
    assert made(proxied, "198.51.100.0") == 429
    assert made(proxied, None) == 200 and made(proxied, None) == 429  # the proxy itself: one client
    stranger, _, _ = app(tmp_path / "b", client=("203.0.113.9", 5000), rooms=limits)
    assert [made(stranger, f"198.51.100.{i}") for i in range(3)] == [200, 429, 429]
    c = build_app(settings)
    with TestClient(c, client=LOCAL) as local:
        assert [local.post("/api/rooms", json=body).status_code for _ in range(2)] == [200, 429]


def test_metrics_are_the_servers_summed_over_its_workers(tmp_path: Path) -> None:
    """With ``--workers`` each scrape reached one worker and showed its figures alone. Now
    the answering worker sums what every worker left in the shared folder: counters over
    every worker this run had (a dead one's counts stay), gauges over the living only."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    metrics = Metrics()
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=3, difficulty="easy")
    made = create_app(store, pace_ms=0, metrics=metrics, shared=Shared(folder))
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        for pid, labels_n, streams in ((alive.pid, 5, 3), (dead.pid, 7, 100)):
            snap = {
                "pid": pid,
                "requests": [["GET", "/api/labels", 200, labels_n]],
                "latency": [["/api/labels", [labels_n] + [0] * len(BUCKETS), 0.001 * labels_n]],
                "store_errors": 2,
                "gauges": [
                    ["pdk_info", "x", {"version": __version__, "worker": str(pid)}, 1],
                    ["pdk_streams_open", "x", {}, streams],
                ],
            }
            (folder / f"{pid}.json").write_text(json.dumps(snap))
        c = TestClient(made, client=LOCAL)
        assert c.get("/api/labels").status_code == 200
        text = c.get("/metrics").text
    finally:
        alive.kill()
        alive.wait()
    requests = samples(text, "pdk_requests_total")
    assert requests['{route="/api/labels",method="GET",status="200"}'] == 1 + 5 + 7
    assert samples(text, "pdk_request_duration_seconds_count")['{route="/api/labels"}'] == 1 + 5 + 7
    assert samples(text, "pdk_store_errors_total")[""] == 4
    assert samples(text, "pdk_streams_open")[""] == 3  # the dead worker's 100 are gone with it
    assert samples(text, "pdk_workers")[""] == 2
    assert len(samples(text, "pdk_info")) == 2
    assert (folder / f"{os.getpid()}.json").exists()  # its own, for the others' scrapes


def output_of(server: Server) -> str:
    """What the server wrote (stdout and stderr), once it has stopped."""
    assert server.proc is not None and server.proc.stdout is not None
    stop_group(server.proc)
    return server.proc.stdout.read()


def test_the_access_log_says_routes_never_keys_or_tokens(tmp_path: Path) -> None:
    server = Server(tmp_path, "--access-log", "--pace", "0", "--difficulty", "easy", "--lang", "en").start()
    secrets: list[str] = []
    try:
        with httpx.Client(base_url=server.base, timeout=10) as h:
            table = h.post("/api/open", json={}).json()
            secrets.append(table["token"])
            assert h.get(f"/api/table/{table['token']}").status_code == 200
            made = h.post("/api/rooms", json={"name": "Ann", "turn_time": 0, "difficulty": "easy"}).json()
            rid, host = made["room"], made["key"]
            secrets += [rid, host]
            view = h.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
            seat = view["invites"][0]["url"].split("#k=")[1]
            watch = view["watch"].split("#w=")[1]
            secrets += [seat, watch]
            joined = h.post(
                f"/api/room/{rid}/join", json={"key": seat, "client": "client-two-1", "name": "Bo"}
            )
            assert joined.status_code == 200, joined.text
            assert (
                h.get(
                    f"/api/room/{rid}/poll", params={"client": "w-client-1"}, headers={"X-PDK-Key": watch}
                ).status_code
                == 200
            )
            with h.stream(
                "GET", f"/api/room/{rid}/live", params={"client": "host-client"}, headers={"X-PDK-Key": host}
            ) as s:
                assert s.status_code == 200
                next(s.iter_lines())
            # seat 1 was just taken (its QR is refused: 409); seat 2 is still free
            assert h.get(f"/api/room/{rid}/qr/2", headers={"X-PDK-Key": host}).status_code == 200
            assert h.get(f"/api/table/{table['token']}/nope", headers={"X-PDK-Key": host}).status_code == 404
    finally:
        log = output_of(server)
    lines = [ln for ln in log.splitlines() if re.search(r'"(GET|POST) ', ln)]
    assert any('"POST /api/open" 200' in ln for ln in lines), log
    assert any('"GET /api/table/{token}" 200' in ln for ln in lines), log
    assert any('"GET /api/room/{room_id}/live" 200' in ln for ln in lines), log
    assert any('"GET (unmatched)" 404' in ln for ln in lines), log
    assert all(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ 127\.0\.0\.1 \"", ln) for ln in lines), lines
    for secret in secrets:
        assert secret not in log, secret
    assert "?key=" not in log and "client=" not in log
