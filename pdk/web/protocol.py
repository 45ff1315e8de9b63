"""uvicorn's HTTP/1.1 protocol with a deadline for reading each request.

The protocol is uvicorn's httptools one (the C parser of Node's llhttp): under load it
costs the server about an eighth less CPU a request than the pure-Python h11 one
(``benchmarks/bench_web.py``, the load rows' CPU column).

uvicorn times out idle keep-alive connections but not a request that arrives slowly: a
client that sends half a header (or half a body) and waits holds its connection, and a
few thousand of them use up the server's open files while real players are refused.
Here every request must arrive in full within ``READ_TIMEOUT`` seconds of its connection
opening or of the previous answer; otherwise the client gets 408 (if nothing was answered
yet) and the connection is closed. And one address may hold at most ``PER_CLIENT``
connections at once (429 and closed beyond), so a single client cannot fill the server's
connection limit and shut out everyone else (behind a proxy, where every client has the
proxy's address, set it to 0: no limit). A request line and headers larger than
``MAX_HEAD`` bytes are refused with 431 as they arrive, never held in memory.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pdk.web.guard import error_json

READ_TIMEOUT = 10.0
READ_TIMEOUT_ENV = "PDK_READ_TIMEOUT"  # how ``pdk serve --read-timeout`` reaches its workers
PER_CLIENT = 64
PER_CLIENT_ENV = "PDK_CONNECTIONS_PER_CLIENT"
MAX_HEAD = 16 * 1024


def _refusal(status: str, key: str) -> bytes:
    body = error_json(key, "en")
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


_REFUSED = _refusal("429 Too Many Requests", "web_too_many_connections")
_STOPPING: list[Callable[[], None]] = []


def when_stopping(callback: Callable[[], None]) -> None:
    """Call ``callback`` (on the event loop) when the server begins its graceful shutdown:
    uvicorn then waits for every open answer to end, and a live stream ends only when told
    (``pdk serve`` also caps the wait, ``timeout_graceful_shutdown``)."""
    _STOPPING.append(callback)


class TimedProtocol(HttpToolsProtocol):
    read_timeout = float(os.environ.get(READ_TIMEOUT_ENV, READ_TIMEOUT))
    per_client = int(os.environ.get(PER_CLIENT_ENV, PER_CLIENT))
    _open: ClassVar[dict[str, int]] = {}  # connections per address (one event loop: no lock)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._head = 0  # bytes of the current request's line and headers
        self._unanswered = 0  # requests read in full and not yet answered (pipelining)
        self._refused = False  # the request's head was too large: answered, closing
        self._turned_away = False  # over the per-address limit: never set up

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else None
        if host is not None and self.per_client:
            held = self._open.get(host, 0)
            if held >= self.per_client:  # refused before uvicorn sets anything up: a flood of
                self._turned_away = True  # these costs the server as little as it can
                transport.write(_REFUSED)
                transport.close()
                return
            self._open[host] = held + 1
            self._counted = host
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        self._head = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value))
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        self._head += size
        if self._head > MAX_HEAD and not self._refused:
            # Said, then closed a moment later: closing at once with the rest of the headers
            # unread would reset the connection and could lose the answer on its way.
            self._refused = True
            self._disarm()
            self.transport.write(_refusal("431 Request Header Fields Too Large", "web_head_too_large"))
            self.transport.pause_reading()
            self.loop.call_later(1.0, self.transport.close)

    def on_headers_complete(self) -> None:
        if not self._refused:
            super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()  # the request is in: the app's time is not the client's
        self._unanswered += 1
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._unanswered = max(0, self._unanswered - 1)
        super().on_response_complete()
        if not self.transport.is_closing() and not self._unanswered:
            self._arm()  # the next request on this connection has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        if self._turned_away:
            return
        self._disarm()
        if self._counted is not None:
            left = self._open.get(self._counted, 1) - 1
            if left > 0:
                self._open[self._counted] = left
            else:
                self._open.pop(self._counted, None)
            self._counted = None
        super().connection_lost(exc)

    def shutdown(self) -> None:
        while _STOPPING:  # once, at the first connection told to close
            _STOPPING.pop()()
        super().shutdown()

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_refusal("408 Request Timeout", "web_timeout"))
        self.transport.close()


__all__ = [
    "MAX_HEAD",
    "PER_CLIENT",
    "PER_CLIENT_ENV",
    "READ_TIMEOUT",
    "READ_TIMEOUT_ENV",
    "TimedProtocol",
    "when_stopping",
]
