"""A room played through Debian's Caddy, over HTTPS, as the hosting docs configure it.

The Caddyfile is the one ``docs/hosting.md`` gives, read from the page (so the page cannot
drift from what was tested), with a test's changes only: Caddy's internal CA (``tls
internal``, its root trusted by this client alone, nothing installed), a localhost site
on free ports, the admin endpoint off, Caddy's data in the test's directory, and without
its ``respond /metrics 404``, so that what refuses a proxied ``/metrics`` here is pdk
itself. Behind it a
real ``pdk serve`` on loopback with its defaults (it believes ``X-Forwarded-*`` from
127.0.0.1 only). Through the proxy: a single-player table is opened and moved; a room is
made, a friend joins a seat, the host's event stream is read while the deal is played by
托管, and moves arrive on it; the invite links say ``https://localhost:PORT`` (the
forwarded host and scheme, while pdk itself saw ``Host: 127.0.0.1:…`` over plain HTTP),
also when a client sends its own ``X-Forwarded-Host``; ``/metrics`` is refused from the
outside. Then Caddy's JSON access log is read: one line per request, and no table token
and no room key anywhere in it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.serving import Server, free_port, next_request, stop_group

ROOT = Path(__file__).resolve().parents[2]
CADDY = shutil.which("caddy")
METRICS = "respond /metrics 404"
pytestmark = pytest.mark.skipif(CADDY is None, reason="caddy is not installed (apt-get install caddy)")


def documented_caddyfile() -> str:
    """The ``caddyfile`` block of docs/hosting.md."""
    text = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```caddyfile\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 1, "docs/hosting.md gives one Caddyfile"
    return str(blocks[0])


def caddyfile_here(site: int, upstream: int, log: Path, http_port: int) -> str:
    """The documented Caddyfile on this machine: the test's site, ports and log."""
    documented = documented_caddyfile()
    for needed in ("pdk.example.org {", "reverse_proxy 127.0.0.1:8000", "/var/log/caddy/pdk.json", METRICS):
        assert needed in documented, needed
    body = (
        documented.replace("pdk.example.org {", f"localhost:{site} {{\n\ttls internal\n\tbind 127.0.0.1", 1)
        .replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
        .replace("/var/log/caddy/pdk.json", str(log))
        .replace(METRICS, "")
    )
    options = (
        "{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\thttp_port {http_port}\n\thttps_port {site}\n}}\n\n"
    )
    return options + body


class Caddy:
    def __init__(self, home: Path, caddyfile: str) -> None:
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        (home / "Caddyfile").write_text(caddyfile, encoding="utf-8")
        self.out = open(home / "caddy.out", "w")  # noqa: SIM115 (closed in stop)
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
        }
        assert CADDY is not None
        cmd = [CADDY, "run", "--config", str(home / "Caddyfile"), "--adapter", "caddyfile"]
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True
        )

    def root_ca(self, timeout: float = 30) -> Path:
        """Caddy's internal root certificate, once it has made it."""
        root = self.home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + timeout
        while not root.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"caddy did not start: {(self.home / 'caddy.out').read_text()}")
            time.sleep(0.1)
        return root

    def stop(self) -> None:
        stop_group(self.proc)
        self.out.close()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[httpx.Client, str, Path]]:
    """A ``pdk serve`` behind Caddy: an HTTPS client that trusts Caddy's CA only, the
    site's address, and Caddy's access log."""
    upstream, site, http_port = free_port(), free_port(), free_port()
    log = tmp_path / "caddy" / "access.json"
    server = Server(tmp_path / "data", "--pace", "0", "--difficulty", "easy", port=upstream).start()
    caddy = Caddy(tmp_path / "caddy", caddyfile_here(site, upstream, log, http_port))
    try:
        context = ssl.create_default_context(cafile=str(caddy.root_ca()))
        base = f"https://localhost:{site}"
        with httpx.Client(base_url=base, verify=context, timeout=20) as client:
            deadline = time.monotonic() + 30
            while True:  # the root exists before the site's certificate is issued
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                time.sleep(0.2)
            yield client, base, log
    finally:
        caddy.stop()
        server.stop()


def stream_events(
    client: httpx.Client, url: str, params: dict[str, str], headers: dict[str, str]
) -> queue.Queue[Any]:
    """The room views an event stream sends, on a queue, read by a thread until it ends."""
    views: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        try:
            wait = httpx.Timeout(20, read=60)
            with client.stream("GET", url, params=params, headers=headers, timeout=wait) as answer:
                views.put(answer.status_code)
                for line in answer.iter_lines():
                    if line.startswith("data: ") and "room" in (view := json.loads(line[6:])):
                        views.put(view)  # a room, not a presence event
        except httpx.HTTPError as exc:
            views.put(exc)

    threading.Thread(target=read, daemon=True).start()
    return views


def next_view(views: queue.Queue[Any], timeout: float = 20) -> dict[str, Any]:
    view = views.get(timeout=timeout)
    assert isinstance(view, dict), view
    return view


def test_a_room_is_played_through_caddy(proxied: tuple[httpx.Client, str, Path]) -> None:
    client, base, log = proxied
    secrets: list[str] = []

    # A single-player table, through the proxy: its token rides in every path.
    table = client.post("/api/open", json={}).json()
    secrets.append(table["token"])
    for _ in range(3):
        action, body = next_request(table)
        answer = client.post(f"/api/table/{table['token']}/{action}", json=body)
        assert answer.status_code == 200, answer.text
        table = answer.json()
    assert client.get(f"/api/table/{table['token']}").json()["seq"] == table["seq"]

    made = client.post("/api/rooms", json={"name": "Ann", "turn_time": 0, "difficulty": "easy"}).json()
    rid, host = made["room"], made["key"]
    secrets += [host]
    assert made["url"].startswith(f"{base}/room/{rid}#k="), made["url"]
    host_client = "host-stream-client"
    # The key in the header, as the page sends it: Caddy's log must drop that header too.
    views = stream_events(client, f"/api/room/{rid}/live", {"client": host_client}, {"X-PDK-Key": host})
    assert views.get(timeout=20) == 200
    first = next_view(views)
    invites = [i["url"] for i in first["invites"]]
    assert all(url.startswith(f"{base}/room/{rid}#k=") for url in invites), invites
    assert first["watch"].startswith(f"{base}/room/{rid}#w=")
    friend = invites[0].split("#k=")[1]
    secrets += [friend, first["watch"].split("#w=")[1], *(u.split("#k=")[1] for u in invites)]

    # A client's own X-Forwarded-Host is not what Caddy forwards.
    forged = client.post(
        "/api/rooms",
        json={"name": "Eve", "turn_time": 0, "difficulty": "easy"},
        headers={"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"},
    ).json()
    secrets.append(forged["key"])
    assert forged["url"].startswith(f"{base}/room/"), forged["url"]

    joined = client.post(
        f"/api/room/{rid}/join", json={"key": friend, "client": "friend-client", "name": "Bo"}
    )
    assert joined.status_code == 200, joined.text
    deadline = time.monotonic() + 20
    while not next_view(views)["seats"][1]["taken"]:  # the join reaches the host's stream
        assert time.monotonic() < deadline
    dealt = client.post(f"/api/room/{rid}/start", json={"key": host, "client": host_client})
    assert dealt.status_code == 200, dealt.text
    for key, who in ((host, host_client), (friend, "friend-client")):  # 托管 plays both people
        on = client.post(f"/api/room/{rid}/auto", json={"key": key, "client": who, "on": True})
        assert on.status_code == 200, on.text
    seqs: set[int] = set()
    deadline = time.monotonic() + 30
    while len(seqs) < 4:  # moves arrive on the stream, through the proxy, as they are made
        view = next_view(views)
        if view["table"] is not None:
            seqs.add(view["table"]["seq"])
        assert time.monotonic() < deadline, seqs
    assert max(seqs) >= 3

    refused = client.get("/metrics")  # pdk's own refusal: the request came through a proxy
    assert refused.status_code == 404 and refused.json()["error"]["key"] == "web_not_found"
    assert client.get("/healthz").json()["status"] == "ok"
    client.close()  # ends the stream: Caddy writes its line for it

    deadline = time.monotonic() + 10
    while "/live" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, "Caddy logged no stream"
        time.sleep(0.1)
    text = log.read_text()
    entries = [json.loads(line) for line in text.splitlines()]
    uris = [e["request"]["uri"] for e in entries]
    assert "/api/table/-/play" in uris or "/api/table/-/step" in uris or "/api/table/-/pass" in uris, uris
    assert any(u.split("?")[0] == f"/api/room/{rid}/live" for u in uris), uris
    streams = [e for e in entries if e["request"]["uri"].startswith(f"/api/room/{rid}/live")]
    assert all("X-Pdk-Key" not in e["request"].get("headers", {}) for e in streams), streams
    assert all(e["request"]["host"] == f"localhost:{base.rsplit(':', 1)[1]}" for e in entries)
    for secret in secrets:
        assert secret not in text, f"a secret in Caddy's log: {secret[:6]}…"
