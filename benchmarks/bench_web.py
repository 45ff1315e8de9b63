"""Speed and load of ``pdk serve`` (never timed in the tests).

    python benchmarks/bench_web.py [--deals 10] [--clients 50] [--difficulty normal]

1. **First load**: the bytes of everything the page fetches before it can be played (the
   HTML, its CSS and JavaScript modules, the labels and the first table), raw and gzipped.
2. **Server time per action**, in process (TestClient, no network): the human's play or
   pass, and one bot move, with ``--difficulty`` bots; median and p99 over ``--deals`` deals.
3. **Load**: ``--clients`` simulated players at once, each playing a whole deal through the
   HTTP API of a real ``pdk serve`` pinned to one core (``taskset -c 0`` where available);
   latency p50/p95/p99 of every request, and the number of errors (anything but 200);
   ``--max-tables`` below ``--clients`` measures it with tables evicted to disk and read back.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
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

from pdk.app.registry import load_profile
from pdk.app.tables import TableStore
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


async def one_client(base: str, latencies: list[float], errors: list[str]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        start = time.perf_counter()
        r = await http.post("/api/open", json={})
        latencies.append((time.perf_counter() - start) * 1000)
        if r.status_code != 200:
            errors.append(r.text[:200])
            return
        table = r.json()
        token = table["token"]
        while table["model"]["settlement"] is None:
            kind, body = next_request(table)
            start = time.perf_counter()
            r = await http.post(f"/api/table/{token}/{kind}", json=body)
            latencies.append((time.perf_counter() - start) * 1000)
            if r.status_code != 200:
                errors.append(f"{r.status_code} {r.text[:200]}")
                return
            table = r.json()


def load_test(clients: int, difficulty: str, max_tables: int) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tempfile.mkdtemp(prefix="pdk-load-")
    cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--port", str(port), "--save-dir", data]
    cmd += ["--difficulty", difficulty, "--max-tables", str(max_tables)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/api/labels", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        latencies: list[float] = []
        errors: list[str] = []

        async def run_all() -> None:
            await asyncio.gather(*(one_client(base, latencies, errors) for _ in range(clients)))

        start = time.perf_counter()
        asyncio.run(run_all())
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    print(f"load: {clients} clients, one whole deal each, {difficulty} bots, server on one core", end="")
    print(f" (at most {max_tables} tables in memory):")
    rate = len(latencies) / wall
    print(f"  requests {len(latencies)}  errors {len(errors)}  wall {wall:.1f} s  ({rate:.0f} req/s)")
    print(
        f"  latency ms: p50 {pct(latencies, 0.5):.1f}  p95 {pct(latencies, 0.95):.1f}"
        f"  p99 {pct(latencies, 0.99):.1f}  max {max(latencies):.1f}"
    )
    for e in errors[:3]:
        print("  error:", e)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    ap.add_argument("--max-tables", type=int, default=0, help="the server's bound (default 2 x clients)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = TableStore(
            Path(tmp), load_profile("classic16"), "classic16", seed=1, difficulty=args.difficulty
        )
        client = TestClient(create_app(store))
        first_load(client)
        action_times(client, args.deals)
    if args.clients:
        load_test(args.clients, args.difficulty, args.max_tables or 2 * args.clients)
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
