"""Speed and load of ``pdk serve`` (never timed in the tests).

    python benchmarks/bench_web.py [--only first|load|soak] [--tables 10,50,200] [--seconds 20]
                                   [--before DIR] [--soak-tables 200] [--soak-pace 0.7]

1. **First load**: the bytes of everything the page fetches before it can be played (the
   HTML, its CSS and JavaScript modules, the labels and the first table), raw and gzipped.
2. **Server time per action**, in process (TestClient, no network): the human's play or
   pass, and one bot move, with ``--difficulty`` bots; median and p99 over ``--deals`` deals.
3. **Load**: for each of ``--tables`` concurrent tables, players (each from its own
   loopback address) moving as fast as a real ``pdk serve`` answers (pace 0), normal bots:
   moves answered per second, p50 and p99 latency, errors, and the server's own CPU
   milliseconds per request (its processes' time from ``/proc``: the figure that the load
   generator's share of the cores does not blur); one worker on SQLite, two
   workers on a throw-away PostgreSQL (``tests/support/pg_cluster.py``), and ``--before DIR``
   (another checkout, e.g. ``git worktree add /tmp/pdk_before 8434dc7``) beside them.
4. **Soak**: ``--soak-tables`` players at the page's pace, alone and then with hostile
   traffic from other addresses (1,100 half-sent requests held open, two floods of opens,
   64 KB chunked bodies): the players' p99 must stay under a second.

The server and the load generator share this machine's cores (and other work): the
figures are what one 2-core box does as both, not the server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import httpx

from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def first_load(client: TestClient) -> None:
    zh = {"lang": "zh"}
    answers = {
        "/": client.get("/"),
        "/static/style.css": client.get("/static/style.css"),
        "/static/app.js": client.get("/static/app.js"),
        "/static/cards.js": client.get("/static/cards.js"),
        "/api/labels": client.get("/api/labels", params=zh),
        "/api/open": client.post("/api/open", json={}, params=zh),
    }
    raw = sum(len(r.content) for r in answers.values())
    sent = sum(r.num_bytes_downloaded for r in answers.values())
    print("first load (bytes of the body, and as transferred with the server's gzip):")
    for name, r in answers.items():
        print(f"  {name:20} {len(r.content):7,d} B  ({r.num_bytes_downloaded:6,d} B transferred)")
    print(f"  total                {raw:7,d} B  ({sent:6,d} B transferred; budget 200 KB)")


def next_request(table: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What a player does next: step a bot, pass when nothing beats, else the first hint."""
    model = table["model"]
    if table["bot_turn"]:
        return "step", {"seq": table["seq"]}
    if model["task"]["kind"] == "none":
        return "pass", {"seq": table["seq"]}
    return "play", {"seq": table["seq"], "cards": model["hints"][0]["cards"]}


def action_times(client: TestClient, deals: int) -> None:
    human: list[float] = []
    bot: list[float] = []
    for _ in range(deals):
        table = client.post("/api/open", json={}).json()
        token = table["token"]
        while table["model"]["settlement"] is None:
            kind, body = next_request(table)
            start = time.perf_counter()
            r = client.post(f"/api/table/{token}/{kind}", json=body)
            (bot if kind == "step" else human).append((time.perf_counter() - start) * 1000)
            assert r.status_code == 200, r.text
            table = r.json()
    print(f"server time per action over {deals} deals (ms, in process):")
    for name, xs in (("human play/pass", human), ("bot move", bot)):
        print(f"  {name:16} n={len(xs):5d}  median {statistics.median(xs):7.2f}  p99 {pct(xs, 0.99):7.2f}")


class Client:
    """A small HTTP/1.1 client for the load: one keep-alive connection from its own loopback
    address, JSON in and out, gzip accepted as browsers do. The load generator shares the
    cores with the server, and a full-featured client spends about as much CPU a request
    as the server does; this one spends a fraction of it, so the rows measure the server
    rather than the generator."""

    def __init__(self, host: str, port: int, local: str) -> None:
        self.host, self.port, self.local = host, port, local
        self.stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        keyed = "" if key is None else f"x-pdk-key: {key}\r\n"  # a room's key: never in the URL
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n{keyed}"
            f"content-type: application/json\r\naccept-encoding: gzip\r\n"
            f"content-length: {len(data)}\r\n\r\n"
        ).encode()
        for attempt in range(2):  # a keep-alive connection the server closed: open another once
            if self.stream is None:
                self.stream = await asyncio.open_connection(self.host, self.port, local_addr=(self.local, 0))
            reader, writer = self.stream
            try:
                writer.write(head + data)
                await writer.drain()
                status, headers = await _head(reader)
                text = await reader.readexactly(int(headers.get("content-length", "0")))
            except (OSError, asyncio.IncompleteReadError, ValueError):
                await self.aclose()
                if attempt:
                    raise
                continue
            if headers.get("connection") == "close":
                await self.aclose()
            if headers.get("content-encoding") == "gzip":  # as a browser asks for it
                text = gzip.decompress(text)
            return status, json.loads(text) if text else None
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        if self.stream is not None:
            self.stream[1].close()
            self.stream = None


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip().lower()
    return int(lines[0].split()[1]), headers


async def player(
    http: Client,
    until: float,
    pace: float,
    latencies: list[float],
    moves: list[int],
    errors: list[str],
    difficulty: str | None = None,
) -> None:
    """One player at one table until ``until``: every move answered is counted (a bot's
    step, the player's play or pass), deal after deal; ``pace`` seconds between requests
    (0: as fast as the server answers)."""
    status, table = await http.call("POST", "/api/open", {"difficulty": difficulty} if difficulty else {})
    if status != 200:
        errors.append(f"{status} {table}")
        return
    token = table["token"]
    while time.perf_counter() < until:
        kind, body = next_move(table)
        if pace:
            await asyncio.sleep(pace)
        start = time.perf_counter()
        try:
            status, answer = await http.call("POST", f"/api/table/{token}/{kind}", body)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            errors.append(type(exc).__name__)
            await asyncio.sleep(0.1)
            continue
        latencies.append((time.perf_counter() - start) * 1000)
        if status != 200:
            errors.append(f"{status} {str(answer)[:120]}")
            table = (await http.call("GET", f"/api/table/{token}"))[1]
            continue
        if kind != "next":
            moves.append(1)
        table = answer


def next_move(table: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if table["model"]["settlement"] is not None:
        return "next", {"seq": table["seq"]}
    return next_request(table)


def _without(checkout: str) -> str:
    """A folder that hides from ``checkout`` the packages it did not depend on: uvicorn
    picks httptools and uvloop by itself when they are installed, so without this an
    older checkout would be measured with the speed-ups that came after it."""
    declared = Path(checkout, "pyproject.toml").read_text()
    shim = Path(tempfile.mkdtemp(prefix="pdk-before-"))
    for name in ("httptools", "uvloop"):
        if f'"{name}' not in declared:
            (shim / f"{name}.py").write_text(f"raise ImportError('{name}: not a dependency then')\n")
    return str(shim)


class Serving:
    """``pdk serve`` started for a measurement, stopped by its own process group."""

    def __init__(self, args: list[str], checkout: str | None = None) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.data = tempfile.mkdtemp(prefix="pdk-load-")
        cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--port", str(self.port)]
        cmd += ["--save-dir", self.data]
        env = {**os.environ, "PYTHONPATH": f"{checkout}:{_without(checkout)}"} if checkout else None
        self.proc = subprocess.Popen(
            [*cmd, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
            cwd=checkout,  # ``python -m`` puts the working folder first on the path
        )
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(300):
            try:
                httpx.get(self.base + "/api/labels", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("pdk serve did not start")

    def cpu(self) -> float:
        """CPU seconds the server's processes (the worker processes too) have used so far."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
        return total

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait(30)
        shutil.rmtree(self.data, ignore_errors=True)


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *_children(int(child))]
    return found


def clients(port: int, n: int) -> list[Client]:
    """One client per player, each from its own loopback address (127.0.1.x), as players
    on different machines: the per-address bounds treat them as such."""
    return [Client("127.0.0.1", port, f"127.0.{1 + i // 250}.{1 + i % 250}") for i in range(n)]


def measure(port: int, tables: int, seconds: float, pace: float, hard: int = 0) -> dict[str, float]:
    """The normal players' figures; ``hard`` more players at hard tables move beside them."""
    latencies: list[float] = []
    moves: list[int] = []
    errors: list[str] = []

    async def run_all() -> None:
        http = clients(port, tables + hard)
        until = time.perf_counter() + seconds
        normal = [player(h, until, pace, latencies, moves, errors) for h in http[:tables]]
        hards = [player(h, until, 0, [], [], [], "hard") for h in http[tables:]]
        await asyncio.gather(*normal, *hards)
        for h in http:
            await h.aclose()

    start = time.perf_counter()
    asyncio.run(run_all())
    wall = time.perf_counter() - start
    return {
        "moves_s": len(moves) / wall,
        "p50": pct(latencies, 0.5) if latencies else float("nan"),
        "p99": pct(latencies, 0.99) if latencies else float("nan"),
        "errors": len(errors),
        "requests": len(latencies),
    }


def load_table(sizes: list[int], seconds: float, pg_url: str | None, before: str | None) -> None:
    """moves/s, p50, p99 at pace 0 for each size: one worker on SQLite, two on PostgreSQL
    (and ``before``: another checkout's ``pdk serve``, one worker, as it stores tables)."""
    setups: list[tuple[str, list[str], str | None]] = [("sqlite, 1 worker", [], None)]
    if before:
        setups.insert(0, ("before (files), 1 worker", [], before))
    if pg_url:
        setups.append(("postgresql, 2 workers", ["--store", pg_url, "--workers", "2"], None))
    print(f"load at pace 0, normal bots, {seconds:.0f} s per row (CPU shared with the load generator):")
    print(
        f"  {'store':24} {'tables':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'cpu ms':>8}"
    )
    for name, extra, checkout in setups:
        for n in sizes:
            args = ["--difficulty", "normal", "--max-tables", str(max(256, 2 * n)), *extra]
            server = Serving(args, checkout)
            try:
                cpu = server.cpu()
                m = measure(server.port, n, seconds, 0)
                cpu = (server.cpu() - cpu) * 1000 / max(1, m["requests"])
            finally:
                server.stop()
            print(
                f"  {name:24} {n:6d} {m['moves_s']:8.0f} {m['p50']:8.1f} {m['p99']:8.1f} {m['errors']:6d}"
                f" {cpu:8.2f}",
                flush=True,
            )


async def hostile(base_host: str, port: int, until: float, counts: dict[str, int]) -> None:
    """Half-sent requests held open, a flood of opens and oversized chunked bodies, from
    127.0.0.2 and 127.0.0.3 (not the players' addresses)."""

    async def half_sent() -> None:
        while time.perf_counter() < until:
            try:
                reader, writer = await asyncio.open_connection(base_host, port, local_addr=("127.0.0.2", 0))
                writer.write(b"POST /api/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
                await writer.drain()
                counts["half_sent"] += 1
                await reader.read()  # until the server gives up on it
                writer.close()
            except OSError:
                await asyncio.sleep(0.5)

    async def flood(http: httpx.AsyncClient) -> None:
        while time.perf_counter() < until:
            try:
                r = await http.post("/api/open", json={})
                counts[f"open_{r.status_code}"] = counts.get(f"open_{r.status_code}", 0) + 1
            except httpx.HTTPError:
                await asyncio.sleep(0.1)

    async def oversized(http: httpx.AsyncClient) -> None:
        async def chunks() -> Any:
            for _ in range(64):
                yield b"x" * 1024

        while time.perf_counter() < until:
            try:
                r = await http.post("/api/open", content=chunks(), headers={"content-type": "text/plain"})
                counts[f"big_{r.status_code}"] = counts.get(f"big_{r.status_code}", 0) + 1
            except httpx.HTTPError:
                await asyncio.sleep(0.1)

    base = f"http://{base_host}:{port}"
    flooder = httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2"))
    big = httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.3"))
    await asyncio.gather(*(half_sent() for _ in range(1100)), flood(flooder), flood(flooder), oversized(big))


def run_hostile(port: int, seconds: float, out: Any) -> None:
    counts: dict[str, int] = {"half_sent": 0}
    asyncio.run(hostile("127.0.0.1", port, time.perf_counter() + seconds, counts))
    out.put(counts)


def hard_share(tables: int, hard: int, seconds: float, before: str | None) -> None:
    """Normal players' moves/s alone and beside ``hard`` hard tables moving at pace 0."""
    print(f"{tables} normal tables at pace 0, alone and beside {hard} hard tables, {seconds:.0f} s a row:")
    for name, checkout in ([("before", before)] if before else []) + [("now (--hard-slots 1)", None)]:
        for h in (0, hard):
            server = Serving(["--difficulty", "normal"], checkout)
            try:
                m = measure(server.port, tables, seconds, 0, h)
            finally:
                server.stop()
            print(
                f"  {name:22} hard {h:3d}: normal moves/s {m['moves_s']:6.0f}  p50 {m['p50']:7.1f} ms"
                f"  p99 {m['p99']:7.1f} ms  errors {m['errors']}",
                flush=True,
            )


def soak(tables: int, seconds: float, pace: float) -> None:
    """Real players at the page's pace while hostile traffic runs beside them."""
    import multiprocessing

    server = Serving(["--difficulty", "normal", "--read-timeout", "5"])
    try:
        quiet = measure(server.port, tables, seconds / 2, pace)
        results: Any = multiprocessing.get_context("spawn").Queue()
        attacker = multiprocessing.get_context("spawn").Process(
            target=run_hostile, args=(server.port, seconds + 5, results)
        )
        attacker.start()
        time.sleep(3)  # the half-sent connections are open
        loud = measure(server.port, tables, seconds, pace)
        attacker.join(60)
        counts = results.get(timeout=10)
    finally:
        server.stop()
    print(f"soak: {tables} players at a {pace * 1000:.0f} ms pace, sqlite, 1 worker, {seconds:.0f} s:")
    for name, m in (("alone", quiet), ("with hostile traffic", loud)):
        print(
            f"  {name:22} moves/s {m['moves_s']:6.0f}  p50 {m['p50']:7.1f} ms  p99 {m['p99']:7.1f} ms"
            f"  errors {m['errors']}"
        )
    print("  hostile:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--tables", default="10,50,200", help="concurrent tables of the load rows")
    ap.add_argument("--seconds", type=float, default=20, help="length of each load row")
    ap.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL rows")
    ap.add_argument("--soak-tables", type=int, default=200)
    ap.add_argument("--soak-seconds", type=float, default=30)
    ap.add_argument("--soak-pace", type=float, default=0.7, help="seconds between a player's requests")
    ap.add_argument("--only", choices=["first", "load", "soak", "hard"], help="run one part only")
    ap.add_argument("--before", help="another checkout (git worktree add DIR COMMIT) measured beside")
    args = ap.parse_args()
    if args.only in (None, "first"):
        with tempfile.TemporaryDirectory() as tmp:
            store = TableStore(
                Path(tmp), load_profile("classic16"), "classic16", seed=1, difficulty=args.difficulty
            )
            client = TestClient(create_app(store))
            first_load(client)
            action_times(client, args.deals)
    if args.only in (None, "load"):
        cluster = None
        if not args.no_postgres:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from tests.support import pg_cluster

            why = pg_cluster.missing()
            cluster = None if why else pg_cluster.Cluster().start()
            if why:
                print("postgresql rows skipped:", why)
        try:
            sizes = [int(n) for n in args.tables.split(",")]
            load_table(sizes, args.seconds, cluster.url if cluster else None, args.before)
        finally:
            if cluster is not None:
                cluster.destroy()
    if args.only in (None, "hard"):
        hard_share(20, 10, args.seconds, args.before)
    if args.only in (None, "soak"):
        soak(args.soak_tables, args.soak_seconds, args.soak_pace)
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus, shared with other work)")


if __name__ == "__main__":
    main()
