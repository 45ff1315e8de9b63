"""uvicorn's HTTP/1.1 protocol with a deadline for reading each request.

uvicorn times out idle keep-alive connections but not a request that arrives slowly: a
client that sends half a header (or half a body) and waits holds its connection, and a
few thousand of them use up the server's open files while real players are refused.
Here every request must arrive in full within ``READ_TIMEOUT`` seconds of its connection
opening or of the previous answer; otherwise the client gets 408 (if nothing was answered
yet) and the connection is closed. And one address may hold at most ``PER_CLIENT``
connections at once (429 and closed beyond), so a single client cannot fill the server's
connection limit and shut out everyone else (behind a proxy, where every client has the
proxy's address, set it to 0: no limit).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from pdk.web.guard import error_json

READ_TIMEOUT = 10.0
READ_TIMEOUT_ENV = "PDK_READ_TIMEOUT"  # how ``pdk serve --read-timeout`` reaches its workers
PER_CLIENT = 64
PER_CLIENT_ENV = "PDK_CONNECTIONS_PER_CLIENT"


def _refusal(status: str, key: str) -> bytes:
    body = error_json(key, "en")
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class TimedH11Protocol(H11Protocol):
    read_timeout = float(os.environ.get(READ_TIMEOUT_ENV, READ_TIMEOUT))
    per_client = int(os.environ.get(PER_CLIENT_ENV, PER_CLIENT))
    _open: ClassVar[dict[str, int]] = {}  # connections per address (one event loop: no lock)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and self.per_client:
            held = self._open.get(host, 0)
            if held >= self.per_client:
                transport.write(_refusal("429 Too Many Requests", "web_too_many_connections"))
                transport.close()
                return
            self._open[host] = held + 1
            self._counted = host
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._disarm()  # the request is in: the app's time is not the client's

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is not h11.DONE:
            self._arm()  # the next request on this connection has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._counted is not None:
            left = self._open.get(self._counted, 1) - 1
            if left > 0:
                self._open[self._counted] = left
            else:
                self._open.pop(self._counted, None)
            self._counted = None
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_refusal("408 Request Timeout", "web_timeout"))
        self.transport.close()


__all__ = ["PER_CLIENT", "PER_CLIENT_ENV", "READ_TIMEOUT", "READ_TIMEOUT_ENV", "TimedH11Protocol"]
