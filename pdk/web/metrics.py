"""What ``pdk serve`` tells its operator: ``/healthz``, ``/metrics`` and the access log.

``observed`` is the outermost layer of the app: it times every request, counts it by its
*route template* (``/api/table/{token}/play``, never the path a client sent, which carries
table tokens and room ids) and status, counts the event streams open, and writes the
access log line, which says the method, the template, the status, the milliseconds and
the client, and nothing else: no path, no query (room keys), no header. uvicorn's own
access log, which prints the request line, is turned off (``pdk.cli.serve``).

``/metrics`` is the Prometheus text exposition format (version 0.0.4), written here rather
than with ``prometheus_client``: a handful of counters, gauges and one histogram family
are a page of code, and a dependency (with its own registry, process collector and
multi-process mode) would be more than what it saves. The numbers are the server's: with
``--workers N`` a scrape through the port reaches whichever worker accepts it, so each
worker writes its figures to a file in a folder the workers share (``Shared``: every
``PUBLISH_EVERY`` seconds, and at once when it answers a scrape) and the one that answers
sums them: counters over every worker this server has run (a worker killed and started
again keeps its predecessor's counts, so no counter goes down), gauges over the workers
alive now, ``pdk_info`` one sample per live worker and ``pdk_workers`` their number.
Another worker's figures may be ``PUBLISH_EVERY`` seconds old. Who may read them is ``--metrics``:
``local`` (the default) answers only a client on this machine that came straight to the
server (a request a proxy forwarded carries ``X-Forwarded-For``, and is refused even
though the proxy's own address is loopback), ``any`` answers everyone, ``off`` nobody; a
refusal is a plain 404.

``/healthz`` is for a load balancer, a service manager or a probe: 200 with a small JSON
when the store answers a cheap query and the bot queue has room, else 503 with the reason.
It is open to everyone, like the store's reason a page already shows on a 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import sys
import threading
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.routing import Match, Mount

from pdk import __version__
from pdk.files.atomic import atomic_write
from pdk.rooms.room import Rooms
from pdk.store.contract import StoreError
from pdk.table.tables import TableStore
from pdk.web.guard import ASGIApp, Message, Receive, Scope, Send, ThinkingQueue, error_json, lang_of
from pdk.web.wire import DIRECT_SEND

MetricsAccess = Literal["local", "any", "off"]
ACCESS_LOG = "pdk.access"
# Seconds until an answer's head is sent: a move is milliseconds, a hard bot's search or a
# review seconds (an event stream's head is sent as it opens).
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
HEALTH_TIMEOUT = 2.0  # seconds the store may take to answer the health probe
PROBE_KEY = "pdk-healthz"  # a key no table or room has: the probe reads an index, no save
GONE = 499  # the status counted when the client left before any answer (nginx's number)
UNMATCHED = "(unmatched)"
# Methods are labels: any other token a client sends is counted as OTHER, so that nobody
# can grow the counters (and the scrape) by inventing methods.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
WORKER = str(os.getpid())  # with --workers, which worker answered this scrape
PUBLISH_EVERY = 1.0  # seconds between a worker's writes of its figures (``Shared``)
Gauge = tuple[str, str, dict[str, str], float]  # name, help, labels, value
_access = logging.getLogger(ACCESS_LOG)


@dataclass
class _Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0

    def add(self, seconds: float) -> None:
        self.counts[bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds


class Metrics:
    """The counters of one process; ``render`` writes them and the gauges it is given."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, int], int] = {}
        self._latency: dict[str, _Histogram] = {}
        self.in_flight = 0
        self.streams = 0
        self.store_errors = 0
        self.started = time.time()

    def store_failed(self) -> None:
        """One ``StoreUnavailable`` met by anyone (``pdk.store.counted``); any thread."""
        with self._lock:
            self.store_errors += 1

    def answered(self, method: str, route: str, status: int, head_seconds: float | None) -> None:
        with self._lock:
            key = (method, route, status)
            self._requests[key] = self._requests.get(key, 0) + 1
            if head_seconds is not None:
                self._latency.setdefault(route, _Histogram()).add(head_seconds)

    def snapshot(self, gauges: list[Gauge]) -> dict[str, Any]:
        """These counters and ``gauges`` as JSON-ready data: what a worker shares."""
        with self._lock:
            return {
                "pid": os.getpid(),
                "requests": [[m, r, s, n] for (m, r, s), n in self._requests.items()],
                "latency": [[r, list(h.counts), h.total] for r, h in self._latency.items()],
                "store_errors": self.store_errors,
                "gauges": [list(g) for g in gauges],
            }

    def render(self, gauges: list[Gauge], others: list[dict[str, Any]] | None = None) -> str:
        """The exposition text: these counters, then ``gauges`` (name, help, labels, value;
        one name may come with several label sets, in a row); with ``others`` (the other
        workers' snapshots, ``Shared``), the sums over all of them."""
        mine = self.snapshot(gauges)
        every = [mine, *(others or [])]
        req: dict[tuple[str, str, int], int] = {}
        lat: dict[str, _Histogram] = {}
        for snap in every:
            for method, route, status, n in snap["requests"]:
                key = (str(method), str(route), int(status))
                req[key] = req.get(key, 0) + int(n)
            for route, counts, total in snap["latency"]:
                h = lat.setdefault(str(route), _Histogram())
                h.counts = [a + int(b) for a, b in zip(h.counts, counts, strict=True)]
                h.total += float(total)
        requests = sorted(req.items())
        latency = sorted((r, h.counts, h.total) for r, h in lat.items())
        store_errors = sum(int(snap["store_errors"]) for snap in every)
        if others is not None:
            gauges = _summed([snap for snap in every if snap is mine or snap.get("alive")])
        out: list[str] = []
        _family(out, "pdk_requests_total", "counter", "Requests answered, by route template and status.")
        for (method, route, status), n in requests:
            labels = {"route": route, "method": method, "status": str(status)}
            out.append(_sample("pdk_requests_total", labels, n))
        _family(
            out,
            "pdk_request_duration_seconds",
            "histogram",
            "Seconds until the answer's head was sent, by route template.",
        )
        for route, counts, total in latency:
            running = 0
            for bound, n in zip((*BUCKETS, float("inf")), counts, strict=True):
                running += n
                le = "+Inf" if bound == float("inf") else f"{bound:g}"
                bucket = {"route": route, "le": le}
                out.append(_sample("pdk_request_duration_seconds_bucket", bucket, running))
            out.append(_sample("pdk_request_duration_seconds_sum", {"route": route}, total))
            out.append(_sample("pdk_request_duration_seconds_count", {"route": route}, running))
        _family(out, "pdk_store_errors_total", "counter", "Times the store could not read or write.")
        out.append(_sample("pdk_store_errors_total", {}, store_errors))
        named = ""
        for name, help_text, labels, value in gauges:
            if name != named:
                _family(out, name, "gauge", help_text)
                named = name
            out.append(_sample(name, labels, value))
        return "\n".join(out) + "\n"


def _summed(alive: list[dict[str, Any]]) -> list[Gauge]:
    """The live workers' gauges as one server's: each name and label set summed, except
    ``pdk_info`` (one sample per worker: its labels name it) and the start time (the
    earliest)."""
    names: dict[str, tuple[str, dict[str, tuple[dict[str, str], float]]]] = {}
    for snap in alive:
        for name, help_text, labels, value in snap["gauges"]:
            _, samples = names.setdefault(str(name), (str(help_text), {}))
            key = json.dumps(labels, sort_keys=True)
            if key not in samples:
                samples[key] = (dict(labels), float(value))
            elif name == "pdk_start_time_seconds":
                samples[key] = (samples[key][0], min(samples[key][1], float(value)))
            else:
                samples[key] = (samples[key][0], samples[key][1] + float(value))
    out = [(n, h, labels, v) for n, (h, samples) in names.items() for labels, v in samples.values()]
    out.append(("pdk_workers", "Worker processes serving now (--workers).", {}, float(len(alive))))
    return out


class Shared:
    """The folder where the workers of one ``pdk serve --workers N`` leave their figures,
    one file per process (``<pid>.json``, written whole), so that any of them can answer a
    scrape for all (see the module docstring). ``pdk serve`` makes it empty for each run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mine = folder / f"{os.getpid()}.json"

    def publish(self, snapshot: dict[str, Any]) -> None:
        atomic_write(self.mine, json.dumps(snapshot))

    def others(self) -> list[dict[str, Any]]:
        """Every other worker's last figures, each marked whether that process is alive."""
        found = []
        for path in sorted(self.folder.glob("*.json")):
            if path == self.mine:
                continue
            try:
                snap = json.loads(path.read_text())
            except (OSError, ValueError):  # a worker's first write under way, or gone
                continue
            snap["alive"] = _alive(int(snap.get("pid", 0)))
            found.append(snap)
        return found

    def run(self, snapshot: Callable[[], dict[str, Any]]) -> None:
        """Publish this worker's figures every ``PUBLISH_EVERY`` seconds, in a daemon
        thread (the event loop never waits on the file)."""

        def loop() -> None:
            while True:
                with contextlib.suppress(OSError):
                    self.publish(snapshot())
                time.sleep(PUBLISH_EVERY)

        threading.Thread(target=loop, name="pdk-metrics", daemon=True).start()


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _family(out: list[str], name: str, kind: str, help_text: str) -> None:
    out.append(f"# HELP {name} {help_text}")
    out.append(f"# TYPE {name} {kind}")


def _sample(name: str, labels: dict[str, str], value: float) -> str:
    if labels:
        inner = ",".join(f'{k}="{_escaped(v)}"' for k, v in labels.items())
        name = f"{name}{{{inner}}}"
    number = str(int(value)) if float(value).is_integer() else repr(float(value))
    return f"{name} {number}"


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def route_of(scope: Scope, app: FastAPI) -> str:
    """The template of the route that answered (FastAPI leaves it in the scope), else the
    mount's (``/static/{path}``), else ``UNMATCHED``: never the path the client sent."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    probe = {**scope, "path": scope.get("path", ""), "root_path": ""}
    for candidate in app.router.routes:
        if isinstance(candidate, Mount) and candidate.matches(probe)[0] is Match.FULL:
            return f"{candidate.path}/{{path}}"
    return UNMATCHED


def observed(app: ASGIApp, fastapi: FastAPI, metrics: Metrics) -> ASGIApp:
    """``app`` timed, counted and logged (see the module docstring)."""

    async def observe(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 0
        head: float | None = None
        streaming = False

        async def sending(message: Message) -> None:
            nonlocal status, head, streaming
            if message["type"] == "http.response.start":
                status, head = int(message["status"]), time.perf_counter() - began
                kind = dict(message.get("headers") or []).get(b"content-type", b"")
                if kind.startswith(b"text/event-stream"):
                    streaming = True
                    metrics.streams += 1
            await send(message)

        metrics.in_flight += 1
        scope[DIRECT_SEND] = send  # an event stream's messages, past the layers (wire.EventStream)
        try:
            await app(scope, receive, sending)
        except BaseException:
            status = status or 500
            raise
        finally:
            metrics.in_flight -= 1
            if streaming:
                metrics.streams -= 1
            status = status or GONE
            route = route_of(scope, fastapi)
            method = str(scope.get("method", "-"))
            method = method if method in METHODS else "OTHER"  # a client's word: bounded
            metrics.answered(method, route, status, head)
            if _access.isEnabledFor(logging.INFO):
                client = scope.get("client")
                who = client[0] if client else "-"
                ms = (time.perf_counter() - began) * 1000
                _access.info('%s "%s %s" %d %.1fms', who, method, route, status, ms)

    return observe


def log_access(stream: Any = None) -> None:
    """Write the access log (``pdk serve --access-log``) to ``stream`` (stderr: the
    terminal, or the journal under systemd), one line a request, times in UTC."""
    if any(getattr(h, "_pdk_access", False) for h in _access.handlers):
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    formatter = logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    handler._pdk_access = True  # type: ignore[attr-defined]
    _access.addHandler(handler)
    _access.setLevel(logging.INFO)
    _access.propagate = False


def _came_straight_from_here(request: Request) -> bool:
    """A client on this machine that no proxy forwarded (see the module docstring)."""
    if "x-forwarded-for" in request.headers or "forwarded" in request.headers:
        return False
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def mount_operator(
    app: FastAPI,
    metrics: Metrics,
    tables: TableStore,
    rooms: Rooms,
    thinking: ThinkingQueue,
    access: MetricsAccess = "local",
    shared: Shared | None = None,
) -> None:
    """Add ``/healthz`` and ``/metrics`` to ``app``; ``shared``: the folder of the server's
    workers' figures, when there are several (``--workers``)."""
    probing: list[asyncio.Future[dict[str, int]]] = []  # the store probe under way, shared by callers

    async def store_reason() -> str | None:
        if not probing or probing[0].done():
            probe = asyncio.ensure_future(run_in_threadpool(tables.saves.versions, [PROBE_KEY]))
            # A probe that outlived its callers' wait still ends: its failure is read here.
            probe.add_done_callback(lambda done: done.cancelled() or done.exception())
            probing[:] = [probe]
        try:
            await asyncio.wait_for(asyncio.shield(probing[0]), HEALTH_TIMEOUT)
        except StoreError as exc:
            return f"store: {exc.detail.splitlines()[0] if exc.detail else type(exc).__name__}"
        except TimeoutError:
            return f"store: no answer in {HEALTH_TIMEOUT:g} s"
        return None

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        store = await store_reason()
        reasons = [] if store is None else [store]
        if thinking.waiting >= thinking.max_waiting:
            reasons.append(f"bot queue full: {thinking.waiting} waiting")
        body: dict[str, Any] = {
            "status": "unavailable" if reasons else "ok",
            "store": "ok" if store is None else "unreachable",
            "bot_queue": {"thinking": thinking.running, "waiting": thinking.waiting, "slots": thinking.slots},
        }
        if reasons:
            body["reason"] = "; ".join(reasons)
        return JSONResponse(body, 503 if reasons else 200, headers={"Cache-Control": "no-store"})

    def gauges() -> list[Gauge]:
        live = rooms.live()
        phases = {"waiting": 0, "playing": 0, "closed": 0}
        for room in live:
            phases[room.info.phase] = phases.get(room.info.phase, 0) + 1
        return [
            ("pdk_info", "This server's version and process.", {"version": __version__, "worker": WORKER}, 1),
            ("pdk_start_time_seconds", "When this process started (Unix time).", {}, metrics.started),
            ("pdk_tables_live", "Single-player tables held in memory.", {}, tables.live()),
            *(
                ("pdk_rooms_live", "Rooms held in memory, by phase.", {"phase": p}, n)
                for p, n in phases.items()
            ),
            ("pdk_streams_open", "Event streams open (room seats, spectators).", {}, metrics.streams),
            ("pdk_requests_in_flight", "Requests being answered (streams too).", {}, metrics.in_flight),
            ("pdk_bot_queue_thinking", "Hard bots thinking now.", {}, thinking.running),
            ("pdk_bot_queue_waiting", "Hard bots waiting for a thinking slot.", {}, thinking.waiting),
            ("pdk_bot_queue_slots", "Hard bots that may think at once (--hard-slots).", {}, thinking.slots),
        ]

    if shared is not None:
        shared.run(lambda: metrics.snapshot(gauges()))

    @app.get("/metrics", include_in_schema=False)
    def prometheus(request: Request) -> Response:
        if access == "off" or (access == "local" and not _came_straight_from_here(request)):
            body = error_json("web_not_found", lang_of(request.scope))
            return Response(body, 404, media_type="application/json")
        if shared is None:
            text = metrics.render(gauges())
        else:
            now = gauges()
            with contextlib.suppress(OSError):
                shared.publish(metrics.snapshot(now))
            text = metrics.render(now, shared.others())
        return Response(
            text,
            media_type="text/plain; version=0.0.4; charset=utf-8",
            headers={"Cache-Control": "no-store"},
        )


__all__ = [
    "ACCESS_LOG",
    "BUCKETS",
    "Metrics",
    "MetricsAccess",
    "Shared",
    "log_access",
    "mount_operator",
    "observed",
]
