"""What keeps ``pdk serve`` within bounds when strangers reach it.

ASGI middleware in front of the app (``guarded``): the Host header checked when the
server listens on loopback only (a page on another site cannot reach it by DNS
rebinding), every request body read in full up to ``max_body`` bytes before the app sees
it (413 whether the body says its length or streams it in chunks, so the app never meets
a half-read body), and the headers that keep the page out of frames and other sites'
scripts on every answer (``Cache-Control: no-store`` on the API's, which carry tokens).
Every refusal here has the API's one error shape, ``{"error": {"key", "text"}}``.

Two budgets the routes take from: ``RateLimit`` (new tables per client address, a token
bucket) and ``ThinkingQueue`` (how many hard bots may think at once in this process; the
others wait their turn without holding a thread, which the page shows as the bots
thinking).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, TypeVar
from urllib.parse import parse_qs

from pdk.text.catalog import Lang, tr

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")

# No inline script or style anywhere: the page is its own files only.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
NO_STORE = (b"cache-control", b"no-store")


def lang_of(scope: Scope) -> Lang:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return "zh" if query.get("lang") == ["zh"] else "en"


def error_json(key: str, lang: Lang, **params: object) -> bytes:
    return json.dumps({"error": {"key": key, "text": tr(key, lang, **params)}}, ensure_ascii=False).encode()


async def send_error(
    send: Send, status: int, body: bytes, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        NO_STORE,
        *HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def host_of(value: str) -> str:
    """The host part of a Host header (``[::1]:8000`` -> ``::1``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value




def guarded(app: ASGIApp, max_body: int, hosts: frozenset[str] | None = None) -> ASGIApp:
    """``app`` behind the checks above; ``hosts``: the Host names accepted (None: any)."""

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        lang = lang_of(scope)
        headers = dict(scope.get("headers") or [])
        if hosts is not None:
            host = host_of(headers.get(b"host", b"").decode("latin-1"))
            if host not in hosts:
                await send_error(send, 421, error_json("web_bad_host", lang, host=host[:64] or "-"))
                return
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > max_body):
            await send_error(send, 413, error_json("web_too_large", lang))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > max_body:
                await send_error(send, 413, error_json("web_too_large", lang))
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def whole() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        api = scope["path"].startswith("/api/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                own = list(message.get("headers", []))
                cached = any(name.lower() == b"cache-control" for name, _ in own)  # said once
                message["headers"] = [*own, *HEADERS, *([NO_STORE] if api and not cached else [])]
            await send(message)

        await app(scope, whole, with_headers)

    return guard


class RateLimit:
    """At most ``per_minute`` (bursts of ``burst``) per client key; 0 means no limit."""

    def __init__(self, per_minute: float, burst: int = 20, max_clients: int = 100_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """0 if ``client`` may go now (and it is counted), else the seconds to wait."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return (1 - tokens) / self.rate
            if len(self._buckets) >= self.max_clients:  # forget the clients whose buckets are full
                full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
                for k in full:
                    del self._buckets[k]
            self._buckets[client] = (tokens - 1, now)
            return 0.0


class Busy(Exception):
    """More waiting for a thinking slot than the queue holds."""


class ThinkingQueue:
    """``slots`` hard-bot searches at a time in this process; up to ``max_waiting`` more
    wait (on the event loop, not in threads), beyond that ``Busy``."""

    def __init__(self, slots: int, max_waiting: int = 1000) -> None:
        self.slots = slots
        self.max_waiting = max_waiting
        self.waiting = 0
        self.running = 0  # thinking now (what /healthz and /metrics show)
        self._sem: asyncio.Semaphore | None = None

    async def run(self, work: Callable[[], Awaitable[T]], max_waiting: int | None = None) -> T:
        """``work`` once a slot is free; ``Busy`` if ``max_waiting`` (the queue's own bound
        unless a smaller one is named: the analyses') wait already."""
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.slots)
        bound = self.max_waiting if max_waiting is None else min(max_waiting, self.max_waiting)
        if self.waiting >= bound:
            raise Busy
        self.waiting += 1
        try:
            await self._sem.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            return await work()
        finally:
            self.running -= 1
            self._sem.release()

    def __repr__(self) -> str:
        return f"ThinkingQueue(slots={self.slots}, waiting={self.waiting})"


__all__ = [
    "CSP",
    "Busy",
    "RateLimit",
    "ThinkingQueue",
    "error_json",
    "guarded",
    "host_of",
    "lang_of",
    "send_error",
]
