"""The bounds of ``pdk serve`` (``pdk.web.guard``, ``pdk.web.protocol``, ``pdk.web.address``):
one error shape for every 4xx, strictly typed numbers, 413 for every oversized body, the
headers, the Host check, opens rate-limited, idle tables cleared (and the player told),
hard bots queued, half-sent requests timed out, every spelling of all-interfaces warned."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from pdk.store.tokens import new_token
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.address import listen
from pdk.web.guard import Busy, ThinkingQueue
from pdk.web.server import MAX_BODY, WebLimits, create_app
from tests.support.serving import Server
from tests.support.tooling import until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def client(root: Path, **limits: object) -> tuple[TableStore, TestClient]:
    store = TableStore(root, load_profile("classic16"), "classic16", seed=3, difficulty="easy")
    return store, TestClient(create_app(store, pace_ms=0, limits=WebLimits(**limits)))  # type: ignore[arg-type]


def error_of(r: object) -> dict[str, str]:
    body = r.json()  # type: ignore[attr-defined]
    assert set(body) >= {"error"} and set(body["error"]) == {"key", "text"}, body
    return dict(body["error"])


def test_every_4xx_has_one_error_shape(tmp_path: Path) -> None:
    _, c = client(tmp_path)
    token = c.post("/api/open", json={}).json()["token"]
    for r, status, key in (
        (c.get("/no/such/page"), 404, "web_not_found"),
        (c.get("/api/table/" + "a" * 32), 404, "web_no_table"),
        (c.delete("/api/open"), 405, "web_method"),
        (c.get(f"/api/table/{token}/step"), 405, "web_method"),
        (c.post(f"/api/table/{token}/step", json={"seq": "x"}), 422, "web_bad_request"),
        (c.get("/api/table/x"), 422, "web_bad_token"),
    ):
        assert r.status_code == status, r.text
        assert error_of(r)["key"] == key


@pytest.mark.parametrize("seq", [True, "0", 0.0, "1e3", None, [0]])
def test_numbers_are_strictly_typed(tmp_path: Path, seq: object) -> None:
    _, c = client(tmp_path)
    token = c.post("/api/open", json={}).json()["token"]
    r = c.post(f"/api/table/{token}/step", json={"seq": seq})
    assert r.status_code == 422 and "seq" in error_of(r)["text"]


def test_every_oversized_body_is_a_413_chunked_or_not(tmp_path: Path) -> None:
    _, c = client(tmp_path)
    token = c.post("/api/open", json={}).json()["token"]
    big = b'{"seq": 0, "pad": "' + b"x" * (MAX_BODY + 1000) + b'"}'

    def chunks() -> Iterator[bytes]:  # no Content-Length: Transfer-Encoding chunked
        for i in range(0, len(big), 1000):
            yield big[i : i + 1000]

    headers = {"content-type": "application/json"}
    for r in (
        c.post(f"/api/table/{token}/step", content=big, headers=headers),
        c.post(f"/api/table/{token}/step", content=chunks(), headers=headers),
        c.post("/api/open", content=chunks(), headers=headers),
        c.post(f"/api/table/{token}/step", content=b"{}", headers={**headers, "content-length": "99999"}),
    ):
        assert r.status_code == 413 and error_of(r)["key"] == "web_too_large"
    assert c.get(f"/api/table/{token}").json()["seq"] == 0


def test_the_page_and_answers_carry_the_protective_headers(tmp_path: Path) -> None:
    _, c = client(tmp_path)
    head = c.head("/")
    assert head.status_code == 200 and head.content == b""
    page = c.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in page.text and "<style" not in page.text and " style=" not in page.text
    for r in (page, c.post("/api/open", json={}), c.get("/static/app.js"), c.get("/nope")):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    opened = c.post("/api/open", json={})
    assert "token" in opened.json() and opened.headers["cache-control"] == "no-store"


def test_a_loopback_server_answers_only_to_its_own_names(tmp_path: Path) -> None:
    _, c = client(tmp_path, hosts=frozenset({"localhost", "127.0.0.1", "::1"}))
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
        assert c.get("/api/labels", headers={"host": host}).status_code == 200
    for host in ("evil.example:8000", "127.0.0.1.evil.example", ""):
        r = c.get("/api/labels", headers={"host": host})
        assert r.status_code == 421 and error_of(r)["key"] == "web_bad_host"


def test_opens_are_rate_limited_per_client(tmp_path: Path) -> None:
    _, c = client(tmp_path, opens_per_minute=6)
    answers = [c.post("/api/open", json={}) for _ in range(25)]
    refused = [r for r in answers if r.status_code == 429]
    assert refused and int(refused[0].headers["retry-after"]) >= 1
    assert error_of(refused[0])["key"] == "web_slow_down"
    token = answers[0].json()["token"]  # resuming a table is never limited
    assert c.post("/api/open", json={"token": token}).status_code == 200


def test_an_idle_table_is_cleared_and_the_player_told(tmp_path: Path) -> None:
    store, c = client(tmp_path, idle_seconds=3600)
    token = c.post("/api/open", json={}).json()["token"]
    assert store.expire(0) == [token]
    assert c.get(f"/api/table/{token}").status_code == 404
    again = c.post("/api/open", json={"token": token}, params={"lang": "en"}).json()
    assert again["token"] != token and again["notice"]["key"] == "web_expired"
    assert "1 hour" in again["notice"]["text"]
    assert "notice" not in c.post("/api/open", json={}).json()


def test_hard_bots_think_one_at_a_time_and_the_queue_is_bounded() -> None:
    queue = ThinkingQueue(slots=1, max_waiting=3)
    running = 0
    most = 0

    async def think() -> int:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0)  # not a wait: it lets the others try the queue while this one thinks
        running -= 1
        return 1

    async def main() -> tuple[list[object], int]:
        results = await asyncio.gather(*(queue.run(think) for _ in range(8)), return_exceptions=True)
        return list(results), queue.waiting

    results, waiting = asyncio.run(main())
    assert most == 1 and waiting == 0
    assert results.count(1) == 4 and sum(isinstance(r, Busy) for r in results) == 4


def test_hard_tables_step_through_the_queue(tmp_path: Path) -> None:
    _, c = client(tmp_path)
    token = c.post("/api/open", json={"difficulty": "hard"}).json()["token"]
    table = c.get(f"/api/table/{token}").json()
    for _ in range(6):
        if not table["bot_turn"]:
            break
        r = c.post(f"/api/table/{token}/step", json={"seq": table["seq"]})
        assert r.status_code == 200, r.text
        table = r.json()
    assert table["difficulty"] == "hard"


@pytest.mark.parametrize("host", ["0", "0.0.0.0", "0000.0.0.0", "::", "::0", "[::]"])
def test_every_spelling_of_all_interfaces_is_one(host: str) -> None:
    where = listen(host)
    assert where.everywhere and not where.loopback
    assert where.url_host() in ("127.0.0.1", "[::1]")


def test_printed_urls_bracket_ipv6_and_warn_for_all_interfaces(tmp_path: Path) -> None:
    import httpx

    for host, shown, warned in (("::0", "[::1]", True), ("0", "127.0.0.1", True), ("::1", "[::1]", False)):
        try:
            with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
                s.bind((listen(host).bind, 0))
        except OSError:
            continue  # no IPv6 on this machine
        server = Server(tmp_path, "--host", host)
        server.start(probe=False)
        try:
            assert server.proc is not None and server.proc.stdout is not None
            lines = [server.proc.stdout.readline() for _ in range(1 + warned)]
            url = f"http://{shown}:{server.port}/"
            assert url in lines[0]
            assert ("every network interface" in "".join(lines)) == warned

            def answered(url: str = url) -> int | bool:
                try:
                    return httpx.get(url + "api/labels", timeout=2).status_code
                except httpx.HTTPError:
                    return False

            # the printed address is one a browser can open
            assert until(answered, 20, f"{url} answers", every=0.1) == 200
        finally:
            server.stop()


def test_a_half_sent_request_is_timed_out(tmp_path: Path) -> None:
    server = Server(tmp_path, "--read-timeout", "1").start()
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as slow:
            slow.sendall(b"POST /api/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{")
            slow.settimeout(10)
            start = time.monotonic()
            answer = b""
            while chunk := slow.recv(4096):
                answer += chunk
            assert time.monotonic() - start < 5
        assert answer.startswith(b"HTTP/1.1 408") and b"web_timeout" in answer
        with socket.create_connection(("127.0.0.1", server.port)) as slower:
            slower.sendall(b"GET / HTTP/1.1\r\nHo")  # headers never finished
            slower.settimeout(10)
            assert slower.recv(4096).startswith(b"HTTP/1.1 408")
    finally:
        server.stop()


def test_oversized_headers_are_refused_as_they_arrive(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as big:
            big.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            with contextlib.suppress(OSError):  # the server may stop reading once it has said no
                for i in range(40):  # 40 KB of headers, never finished
                    big.sendall(f"x-filler-{i}: ".encode() + b"a" * 1024 + b"\r\n")
            big.settimeout(10)
            answer = big.recv(4096)
        assert answer.startswith(b"HTTP/1.1 431") and b"web_head_too_large" in answer
    finally:
        server.stop()


def test_a_kept_alive_connection_is_not_timed_out_while_the_app_answers(tmp_path: Path) -> None:
    """Two requests on one connection, the second sent at once (pipelined): both are
    answered, and the read deadline only counts the time a request takes to arrive (an idle
    connection is then closed without a word, as a keep-alive time-out would)."""
    server = Server(tmp_path, "--read-timeout", "1").start()
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as conn:
            one = b"GET /api/labels HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            conn.sendall(one + one)
            conn.settimeout(10)
            answer = b""
            start = time.monotonic()
            while chunk := conn.recv(65536):  # both answers, then closed once idle a second
                answer += chunk
            idle_closed = time.monotonic() - start
        assert answer.count(b"HTTP/1.1 200") == 2 and b"HTTP/1.1 408" not in answer
        assert idle_closed < 5  # the read deadline, not uvicorn's 5 s keep-alive
    finally:
        server.stop()


def test_a_foreign_host_is_refused_by_a_real_loopback_server(tmp_path: Path) -> None:
    import httpx

    server = Server(tmp_path).start()
    try:
        r = httpx.get(f"{server.base}/api/labels", headers={"host": "rebind.example"})
        assert r.status_code == 421
        assert httpx.get(f"{server.base}/api/labels").status_code == 200
    finally:
        server.stop()


def test_workers_need_postgresql(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pdk.cli.app import app

    result = CliRunner().invoke(app, ["serve", "--no-open", "--workers", "2", "--save-dir", str(tmp_path)])
    assert result.exit_code == 2 and "postgresql" in result.output and "Traceback" not in result.output


def test_stale_temporary_files_are_cleared_at_start(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    stale = [tmp_path / f".save.json.{99999999}.tmp", tmp_path / "records" / f".x.json.{99999998}.tmp"]
    for p in stale:
        p.write_text("half")
    server = Server(tmp_path).start()
    server.stop()
    assert not any(p.exists() for p in stale)


def test_tokens_are_never_reused_for_a_new_table(tmp_path: Path) -> None:
    _, c = client(tmp_path)
    unknown = new_token()
    r = c.post("/api/open", json={"token": unknown}).json()
    assert r["token"] != unknown


def test_one_address_cannot_hold_every_connection(tmp_path: Path) -> None:
    import httpx

    server = Server(tmp_path, "--connections-per-client", "3", "--read-timeout", "30").start()
    held = []
    try:
        for _ in range(3):  # half-sent requests hold the address's three connections
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"GET / HTTP/1.1\r\nHo")
            held.append(s)

        def fourth_answer() -> bytes | bool:
            """What a fourth connection is told at once (False while the server, not yet
            counting the three, still waits for its request: then it is closed, freeing
            its place, and tried again)."""
            with socket.create_connection(("127.0.0.1", server.port)) as fourth:
                fourth.settimeout(0.5)
                try:
                    return fourth.recv(4096) or False
                except TimeoutError:
                    return False

        assert until(fourth_answer, 20, "a fourth connection is answered").startswith(b"HTTP/1.1 429")
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.9")  # another client is served

        async def get() -> int:
            async with httpx.AsyncClient(transport=other) as http:
                return (await http.get(f"{server.base}/api/labels")).status_code

        assert asyncio.run(get()) == 200
    finally:
        for s in held:
            s.close()
        server.stop()
