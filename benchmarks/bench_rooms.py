"""Load of tables for friends (never timed in the tests).

    python benchmarks/bench_rooms.py [--rooms 20] [--people 3] [--deals 1]

Starts a real ``pdk serve`` (pinned to one core with ``taskset -c 0`` where available,
pace 0, easy bots in the seats nobody takes) and fills ``--rooms`` rooms with ``--people``
simulated people each. Every person holds a server-sent-events stream open, as the room
page does, and plays its first hint (or passes) as soon as its stream says it is its turn,
until every room has played ``--deals`` deals to the settlement.

It reports the messages the streams delivered per second, and the delay from a command's
answer to the moment each OTHER seat of the room received the table after it (p50, p95,
p99): how long a play takes to reach everyone. Errors are answers other than 200 (a 409
from a move that raced a bot or 要不起 is counted apart: it is the game saying no).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Tally:
    messages: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0
    retried: int = 0
    posted: dict[tuple[str, int, int], float] = field(
        default_factory=dict
    )  # (room, deal, seq) -> answered at
    seen: set[tuple[str, int, int, int]] = field(default_factory=set)
    done: set[tuple[str, int]] = field(default_factory=set)


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any], tally: Tally) -> httpx.Response:
    """A POST, sent again once if the server had just closed the idle connection it reused
    (uvicorn closes keep-alive connections after 5 s; that is the client's race, not a
    refusal)."""
    try:
        return await http.post(path, json=body)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        tally.retried += 1
        return await http.post(path, json=body)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def person(
    http: httpx.AsyncClient, rid: str, key: str, seat: int, host: bool, deals: int, tally: Tally, people: int
) -> None:
    client = f"bench-{seat}-{rid[:6]}"
    await post(http, f"/api/room/{rid}/join", {"key": key, "client": client, "name": f"P{seat}"}, tally)
    live = f"/api/room/{rid}/live"
    async with http.stream("GET", live, params={"client": client}, headers={"X-PDK-Key": key}) as res:
        async for line in res.aiter_lines():
            if not line.startswith("data: "):
                continue
            room = json.loads(line[6:])
            if "room" not in room:  # a presence event: the badges, not the room
                continue
            tally.messages += 1
            t = room["table"]
            if t is None:
                continue
            m = t["model"]
            mark = (rid, m["deal_no"], t["seq"])
            if mark in tally.posted and (rid, m["deal_no"], t["seq"], seat) not in tally.seen:
                tally.seen.add((rid, m["deal_no"], t["seq"], seat))
                tally.latencies.append(time.perf_counter() - tally.posted[mark])
            if m["settlement"] is not None:
                tally.done.add((rid, seat))
                if m["deal_no"] >= deals:
                    if sum(1 for r, _ in tally.done if r == rid) >= people:
                        return
                    continue
                if host:
                    await asyncio.sleep(0.05)  # the others see the settlement first
                    await post(http, f"/api/room/{rid}/next", {"key": key, "client": client}, tally)
                continue
            if (
                t["machine_turn"]
                or m["task"]["seat"] != seat
                or m["task"]["kind"] not in ("lead", "beat", "none")
            ):
                continue
            body: dict[str, Any] = {"key": key, "client": client, "seq": t["seq"]}
            hints = m["hints"]
            path = "play" if hints else "pass"
            if hints:
                body["cards"] = hints[0]["cards"]
            r = await post(http, f"/api/room/{rid}/{path}", body, tally)
            if r.status_code == 200:
                after = r.json()["table"]
                tally.posted[(rid, after["model"]["deal_no"], after["seq"])] = time.perf_counter()
            elif r.status_code == 409:
                tally.refused += 1
            else:
                tally.errors += 1


async def run(base: str, rooms: int, people: int, deals: int) -> None:
    limits = httpx.Limits(max_connections=rooms * people * 2 + 10)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        made = []
        for _ in range(rooms):
            r = await http.post("/api/rooms", json={"name": "P0", "difficulty": "easy"})
            while r.status_code == 429:  # room making is rate limited: 1 a second, 10 at once
                await asyncio.sleep(0.5)
                r = await http.post("/api/rooms", json={"name": "P0", "difficulty": "easy"})
            rid, host = r.json()["room"], r.json()["key"]
            view = (await http.get(f"/api/room/{rid}", headers={"X-PDK-Key": host})).json()
            keys = [host, *[i["url"].split("#k=")[1] for i in view["invites"]][: people - 1]]
            made.append((rid, keys))
        tally = Tally()
        tasks = [
            asyncio.create_task(person(http, rid, key, seat, seat == 0, deals, tally, people))
            for rid, keys in made
            for seat, key in enumerate(keys)
        ]
        await asyncio.sleep(0.5)  # everyone connected
        start = time.perf_counter()
        for rid, keys in made:
            await http.post(f"/api/room/{rid}/start", json={"key": keys[0], "client": f"bench-0-{rid[:6]}"})
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
        elapsed = time.perf_counter() - start
    lat = sorted(tally.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0.0] * 99
    print(f"rooms × seats: {rooms} × {people} (+{3 - people} bot seats each), {deals} deal(s) per room")
    print(
        f"stream messages delivered: {tally.messages} in {elapsed:.1f} s = {tally.messages / elapsed:.0f}/s"
    )
    print(
        f"a command's answer to each other seat receiving it: p50 {q[49] * 1000:.1f} ms, "
        f"p95 {q[94] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms (n={len(lat)})"
    )
    print(
        f"errors: {tally.errors}; refused (raced the machine): {tally.refused}; sent again: {tally.retried}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--people", type=int, default=3)
    ap.add_argument("--deals", type=int, default=1)
    args = ap.parse_args()
    port = free_port()
    data = tempfile.mkdtemp(prefix="pdk-bench-rooms-")
    cmd = ["pdk", "serve", "--no-open", "--port", str(port), "--save-dir", data, "--pace", "0"]
    # every simulated person comes from this one address, as behind a proxy: no per-address
    # connection limit (its default, 64, is less than 20 rooms' streams and commands)
    cmd += ["--difficulty", "easy", "--connections-per-client", "0"]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    server = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy()
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/api/labels", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        asyncio.run(run(base, args.rooms, args.people, args.deals))
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
