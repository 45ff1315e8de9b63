"""What a ``--host`` means: the address to bind, whether it is every interface or loopback
only, and how to write it in a URL.

Every spelling of "all interfaces" (``0``, ``0.0.0.0``, ``0000.0.0.0``, ``::``, ``::0``,
``[::]``) is recognised by resolving it as the system will (``getaddrinfo``), not by
comparing strings; IPv6 addresses are bracketed in URLs (``http://[::1]:8000/``).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Listen:
    bind: str  # what the socket binds (a numeric address, or the name as given)
    ip: Address | None  # None: a name the system could not resolve

    @property
    def everywhere(self) -> bool:
        return self.ip is not None and self.ip.is_unspecified

    @property
    def loopback(self) -> bool:
        return self.ip is not None and self.ip.is_loopback

    @property
    def family(self) -> socket.AddressFamily:
        return socket.AF_INET6 if isinstance(self.ip, ipaddress.IPv6Address) else socket.AF_INET

    def url_host(self) -> str:
        """The host part of the URL to open: loopback when listening everywhere."""
        if self.ip is None:
            return self.bind
        ip: Address = self.ip
        if ip.is_unspecified:
            ip = ipaddress.ip_address("::1" if ip.version == 6 else "127.0.0.1")
        return f"[{ip}]" if ip.version == 6 else str(ip)


def listen(host: str) -> Listen:
    name = host.strip()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        return Listen(name, None)
    ip = ipaddress.ip_address(str(infos[0][4][0]).split("%")[0])
    numeric = _numeric(name)
    return Listen(str(ip) if numeric else name, ip)


def _numeric(name: str) -> bool:
    try:
        socket.getaddrinfo(name, None, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError):
        return False
    return True


@dataclass(frozen=True)
class Links:
    """How a room's invite and watch links are written. ``base``: the address other devices
    reach (the LAN address a server bound to every interface prints), used whatever address
    the host's own page was opened with; None: the address the page was opened with.
    ``local_only``: the server listens on loopback, so its links open on this computer only."""

    base: str | None = None
    local_only: bool = False


def links_for(where: Listen, port: int, lan: str) -> Links:
    """The links of a server listening at ``where``: ``lan`` (this machine's address on its
    network) when it listens everywhere, none of its own otherwise."""
    if where.everywhere:
        host = f"[{lan}]" if ":" in lan else lan
        return Links(f"http://{host}:{port}/")
    return Links(None, where.loopback)


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def allowed_hosts(where: Listen) -> frozenset[str] | None:
    """The Host header names a loopback-only server answers to (None: any)."""
    if not where.loopback:
        return None
    return LOOPBACK_HOSTS | {where.bind.lower()} | ({str(where.ip)} if where.ip else set())


__all__ = ["LOOPBACK_HOSTS", "Links", "Listen", "allowed_hosts", "links_for", "listen"]
