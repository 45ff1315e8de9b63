"""One room under a crowd: its three players and ``--spectators`` live streams (issue 38).

    python benchmarks/bench_room_load.py [--spectators 1000] [--moves 120] [--think 0.3]
                                         [--before DIR] [--store postgresql://... --workers 2]

A real ``pdk serve`` (SQLite, one worker, unless ``--store``/``--workers``) holds one room
of classic16 with three people (no bot: every move is a player's request); each player
keeps its own stream open and moves ``--think`` seconds after its stream shows its turn
(the first hint, or a pass when nothing beats). Beside them ``--spectators`` watch-link
streams, each from its own loopback address (127.0.x.y, as people on different machines),
read by a small raw client that only looks for the table's version in each message.

Reported: the players' requests (play and pass; their latency, p50 and p99), how late each
move reached each stream (from the moment the player sent it to the first message of that
stream showing that move or a later one, p50/p99/max over every stream and move), the
messages and bytes the streams received per move, and the server's CPU milliseconds per
move (its processes' time from ``/proc``). ``--before DIR`` runs the same against another
checkout first (``git archive COMMIT | tar -x -C DIR``).

The server and this generator share the machine's cores: run under ``nice`` beside other
work and read the CPU column, which the generator's share does not blur.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_web import Client, Serving, next_request, pct

VERSIONS = re.compile(rb'"versions": \[(\d+), (\d+)\]')


class Stream:
    """A raw server-sent-events reader: each message's arrival and table version."""

    def __init__(self, port: int, path: str, key: str, local: str, keep: bool = False) -> None:
        self.port, self.path, self.key, self.local, self.keep = port, path, key, local, keep
        self.got: list[tuple[float, int]] = []
        self.bytes = 0
        self.last: dict[str, Any] | None = None  # the newest message (a player's own)
        self.changed = asyncio.Event()
        self.first = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.error = ""

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.local, 0))
        except OSError as exc:
            self.error = str(exc)
            self.first.set()
            return
        head = (
            f"GET {self.path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-pdk-key: {self.key}\r\n"
            "accept: text/event-stream\r\n\r\n"
        )
        writer.write(head.encode())
        buf = b""
        try:
            status = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in status.split(b"\r\n", 1)[0]:
                self.error = status.split(b"\r\n", 1)[0].decode()
                self.first.set()
                return
            while True:
                chunk = await reader.read(1 << 16)
                if not chunk:
                    return
                now = time.perf_counter()
                self.bytes += len(chunk)
                buf += chunk
                while b"\n\n" in buf:
                    event, buf = buf.split(b"\n\n", 1)
                    start = event.find(b"data: ")
                    if start < 0 or b"event: presence" in event[:start]:  # a badge, not the room
                        continue
                    # chunked transfer: the chunk sizes sit between lines; the JSON is on one
                    data = event[start + 6 :].split(b"\r\n", 1)[0]
                    m = VERSIONS.search(data, 0, 400)
                    if m:
                        self.got.append((now, int(m.group(2))))
                    if self.keep:
                        self.last = json.loads(data)
                        self.changed.set()
                    self.first.set()
        except (OSError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()


async def seat_player(
    port: int,
    rid: str,
    key: str,
    seat: int,
    own: Stream,
    until: float,
    think: float,
    sent: dict[int, float],
    latencies: list[float],
    errors: list[str],
) -> None:
    http = Client("127.0.0.1", port, f"127.0.200.{seat + 1}")
    client = f"player-{seat}-bench"
    while time.perf_counter() < until:
        own.changed.clear()
        view = own.last
        table = None if view is None else view["table"]
        if view is None or table is None or table["model"]["settlement"] is not None or table["machine_turn"]:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(own.changed.wait(), 2)
            continue
        if not any(s["to_move"] and s["seat"] == seat for s in table["model"]["seats"]):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(own.changed.wait(), 2)
            continue
        await asyncio.sleep(think)
        kind, body = next_request(table)
        body |= {"key": key, "client": client}
        start = time.perf_counter()
        status, answer = await http.call("POST", f"/api/room/{rid}/{kind}", body)
        latencies.append((time.perf_counter() - start) * 1000)
        if status != 200:
            errors.append(f"{status} {str(answer)[:100]}")
            await asyncio.sleep(0.2)
            continue
        sent.setdefault(answer["versions"][1], start)
        while own.last is view or (own.last is not None and own.last["versions"][1] < answer["versions"][1]):
            own.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(own.changed.wait(), 2)
    await http.aclose()


async def host_deals(port: int, rid: str, host: str, until: float, streams: list[Stream]) -> None:
    """The host deals again whenever a deal is over."""
    http = Client("127.0.0.1", port, "127.0.200.9")
    own = streams[0]
    while time.perf_counter() < until:
        view = own.last
        if (
            view is not None
            and view["table"] is not None
            and view["table"]["model"]["settlement"] is not None
        ):
            await asyncio.sleep(0.3)
            await http.call("POST", f"/api/room/{rid}/next", {"key": host, "client": "player-0-bench"})
        await asyncio.sleep(0.2)
    await http.aclose()


def run(
    spectators: int, seconds: float, think: float, args: list[str], checkout: str | None
) -> dict[str, Any]:
    limits = ["--connections-per-client", "0", "--max-connections", str(spectators + 200), "--pace", "300"]
    server = Serving([*limits, *args], checkout)
    try:
        return asyncio.run(_run(server, spectators, seconds, think))
    finally:
        server.stop()


async def _run(server: Serving, spectators: int, seconds: float, think: float) -> dict[str, Any]:
    port = server.port
    http = Client("127.0.0.1", port, "127.0.200.10")
    _, made = await http.call("POST", "/api/rooms", {"name": "Ann", "difficulty": "easy"})
    rid, host = made["room"], made["key"]
    _, view = await http.call("GET", f"/api/room/{rid}", key=host)  # the host's view
    watch = view["watch"].split("#w=")[1]
    keys = [host]
    for i, invite in enumerate(view["invites"]):
        key = invite["url"].split("#k=")[1]
        body = {"key": key, "client": f"player-{i + 1}-bench", "name": f"P{i + 2}"}
        _, joined = await http.call("POST", f"/api/room/{rid}/join", body)
        keys.append(joined.get("key", key))
    live = f"/api/room/{rid}/live?client={{}}"
    own = [
        Stream(port, live.format(f"player-{s}-bench"), k, f"127.0.201.{s + 1}", keep=True)
        for s, k in enumerate(keys)
    ]
    crowd = [
        Stream(port, live.format(f"watch-{i:05d}"), watch, f"127.0.{1 + i // 250}.{1 + i % 250}")
        for i in range(spectators)
    ]
    for s in own:
        s.start()
    for i, s in enumerate(crowd):
        s.start()
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*(s.first.wait() for s in [*own, *crowd])), 120)
    refused = [s.error for s in crowd if s.error]
    await http.call("POST", f"/api/room/{rid}/start", {"key": host, "client": "player-0-bench"})
    sent: dict[int, float] = {}
    latencies: list[float] = []
    errors: list[str] = []
    cpu = server.cpu()
    bytes0 = sum(s.bytes for s in crowd)
    msgs0 = sum(len(s.got) for s in crowd)
    until = time.perf_counter() + seconds
    players = [
        seat_player(port, rid, k, seat, own[seat], until, think, sent, latencies, errors)
        for seat, k in enumerate(keys)
    ]
    await asyncio.gather(*players, host_deals(port, rid, host, until, own))
    await asyncio.sleep(1.5)  # the last move's messages arrive
    cpu = server.cpu() - cpu
    late: list[float] = []
    for s in crowd:
        got = s.got
        for version, at in sent.items():
            arrived = next((t for t, v in got if v >= version and t >= at), None)
            late.append(float("inf") if arrived is None else (arrived - at) * 1000)
    for s in [*own, *crowd]:
        if s.task is not None:
            s.task.cancel()
    await http.aclose()
    moves = len(sent)
    return {
        "moves": moves,
        "players_p50": pct(latencies, 0.5) if latencies else float("nan"),
        "players_p99": pct(latencies, 0.99) if latencies else float("nan"),
        "late_p50": pct(late, 0.5) if late else float("nan"),
        "late_p99": pct(late, 0.99) if late else float("nan"),
        "late_max": max(late) if late else float("nan"),
        "msgs_per_move": (sum(len(s.got) for s in crowd) - msgs0) / max(1, moves) / max(1, len(crowd)),
        "kb_per_move": (sum(s.bytes for s in crowd) - bytes0) / 1024 / max(1, moves),
        "cpu_ms_per_move": cpu * 1000 / max(1, moves),
        "errors": len(errors),
        "refused": len(refused),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--think", type=float, default=0.3, help="seconds a player waits before its move")
    ap.add_argument("--before", help="another checkout measured first")
    ap.add_argument("--rounds", type=int, default=1, help="before/after pairs, interleaved")
    ap.add_argument("--store")
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * a.spectators + 256)), hard))
    extra = (["--store", a.store] if a.store else []) + (
        ["--workers", str(a.workers)] if a.workers > 1 else []
    )
    setups = ([("before", a.before)] if a.before else []) + [("this", None)]
    print(
        f"one room, 3 players, {a.spectators} spectator streams, {a.seconds:.0f} s, think {a.think} s"
        f" ({'SQLite, 1 worker' if not a.store else f'{a.workers} workers'}):"
    )
    cols = (
        "moves  play p50  play p99  late p50  late p99  late max  msg/move  KB/move"
        "  cpu ms/move  err  refused"
    )
    print(f"  {'code':8} {cols}")
    for _ in range(a.rounds):
        for name, checkout in setups:
            m = run(a.spectators, a.seconds, a.think, extra, checkout)
            print(
                f"  {name:8} {m['moves']:5d} {m['players_p50']:9.1f} {m['players_p99']:9.1f}"
                f" {m['late_p50']:9.1f} {m['late_p99']:9.1f} {m['late_max']:9.1f} {m['msgs_per_move']:9.2f}"
                f" {m['kb_per_move']:8.0f} {m['cpu_ms_per_move']:12.1f} {m['errors']:4d} {m['refused']:8d}",
                flush=True,
            )


if __name__ == "__main__":
    main()
