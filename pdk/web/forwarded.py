"""A TLS proxy's word on the request, believed only from the proxy (``--forwarded-allow-ips``).

Behind Caddy or nginx the server sees the proxy's address, plain HTTP and whatever Host
the proxy sends, while the invite links it writes must say what the player's browser
used (``https://pdk.example.org/room/...``) and the per-client bounds must see the
player. The proxy says both in ``X-Forwarded-For``, ``X-Forwarded-Proto`` and
``X-Forwarded-Host``; anyone else could say the same, so they are read only when the
connection comes from an address in the trusted list (default ``127.0.0.1``, what uvicorn
trusted before; ``*`` any, empty none). uvicorn's own handling of the first two is off
(``pdk serve`` passes ``proxy_headers=False``): it would replace the client's address
first, and this layer could then no longer tell the proxy from a stranger.

This layer stands inside ``pdk.web.guard``, whose Host check (against DNS rebinding)
judges the Host header the connection really carried; the forwarded host only feeds the
links the app writes. A forwarded host must look like one (a name or an address, maybe a
port), so no header can put a path or a fragment into a link.
"""

from __future__ import annotations

import ipaddress
import re

from pdk.web.guard import ASGIApp, Receive, Scope, Send

DEFAULT_TRUSTED = "127.0.0.1"
HOST = re.compile(
    r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$"
)
SCHEMES = {"http": "http", "https": "https"}
WS = {"http": "ws", "https": "wss"}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Trusted:
    """The addresses whose forwarded headers are believed: ``*``, or a comma-separated
    list of addresses and networks (``127.0.0.1,10.0.0.0/8``); ``ValueError`` for a typo."""

    def __init__(self, spec: str) -> None:
        items = [part.strip() for part in spec.split(",") if part.strip()]
        self.everyone = "*" in items
        self.networks: list[Network] = [ipaddress.ip_network(i, strict=False) for i in items if i != "*"]

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:  # a unix socket, the test client
            return False
        return any(address in net for net in self.networks)

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)


def _text(value: bytes) -> str:
    return value.decode("latin-1")


def _last(value: bytes) -> str:
    """The value the nearest proxy wrote (a chain appends to the right)."""
    return _text(value).split(",")[-1].strip()


def _ip(text: str) -> bool:
    """An address, and nothing else, may stand for the client (it is logged)."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def forwarded(app: ASGIApp, trusted: Trusted) -> ASGIApp:
    """``app`` seeing the client, scheme and host a trusted proxy forwarded."""

    async def read(scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] not in ("http", "websocket") or not client or client[0] not in trusted:
            await app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        proto = SCHEMES.get(_last(headers.get(b"x-forwarded-proto", b"")).lower())
        if proto is not None:
            scope["scheme"] = proto if scope["type"] == "http" else WS[proto]
        host = _last(headers.get(b"x-forwarded-host", b""))
        if HOST.fullmatch(host):
            kept = [(k, v) for k, v in scope.get("headers") or [] if k != b"host"]
            scope["headers"] = [(b"host", host.encode("latin-1")), *kept]
        said = _text(headers.get(b"x-forwarded-for", b"")).split(",")
        chain = [a for a in (h.strip() for h in said) if _ip(a)]
        # The client is the nearest address the trusted proxies did not add themselves.
        for n, address in enumerate(reversed(chain), 1):
            if address not in trusted or n == len(chain):
                scope["client"] = (address, 0)
                break
        await app(scope, receive, send)

    return read


__all__ = ["DEFAULT_TRUSTED", "Trusted", "forwarded"]
