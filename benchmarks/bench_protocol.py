"""What the outside-engine protocol costs: a trivial engine over the protocol against the
same bot in process, and an engine's start-up, paid once per worker.

    python benchmarks/bench_protocol.py [--deals 300] [--repeats 3]

* **in process** — a plug-in bot that plays its first legal play (or passes), in one seat
  of ``random`` opponents, through ``pdk.match.run.play_game`` (the ``pdk selfplay
  --workers 1`` path);
* **over the protocol** — the same bot as a Python engine (``cmd:python3 trivial.py``): the
  deal, every event, the request and the answer as JSON lines through pipes;
* **greedy engines** — the two reference engines (``examples/engines/``), Python and C.

Both lines play the same deals; the difference per decision is the protocol's cost (encode,
pipe, the engine's own JSON, the answer parsed and checked). Rates are deals per second of
wall-clock time (the engine runs in its own process). Start-up is the time from ``Popen``
to a parsed hello; ``pdk selfplay`` pays it once per worker and seat, which the last line
checks by counting the engine's starts over a whole run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pdk.bots import register_plugin
from pdk.bots.external import EngineProcess, EngineSpec, stop_all
from pdk.engine.combos import Move
from pdk.engine.state import PlayerView
from pdk.match.run import iter_tasks, play_game
from pdk.variants.registry import load_profile

ROOT = Path(__file__).resolve().parent.parent
GREEDY_PY = ROOT / "examples/engines/greedy.py"
TRIVIAL = """
import json, os, sys
if os.environ.get("PDK_BENCH_STARTS"):
    with open(os.environ["PDK_BENCH_STARTS"], "a") as fh:
        fh.write(f"{os.getpid()}\\n")
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        hello = {"type": "hello", "protocol_version": 1, "name": "first", "author": "bench"}
        print(json.dumps(hello), flush=True)
    elif kind == "act":
        print('{"play":0}' if msg["legal"] else '{"pass":true}', flush=True)
    elif kind == "quit":
        break
"""


class FirstLegal:
    """The trivial engine's strategy in process: the first legal play, else a pass."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, view: PlayerView) -> Move | None:
        moves = view.legal_moves()
        return moves[0] if moves else None


def rate(players: list[str], deals: int, seed: int) -> tuple[float, int]:
    """Deals per wall-clock second, and the decisions seat 0 made."""
    profile = load_profile("classic16")
    decisions = 0
    start = time.perf_counter()
    for task in iter_tasks(players, deals, seed):
        res = play_game(profile, task)
        decisions += res.turns // profile.players  # about a third of the turns are seat 0's
    return deals / (time.perf_counter() - start), decisions


def startup_ms(argv: list[str], times: int = 5) -> float:
    spec = EngineSpec("bench", tuple(argv))
    out = []
    for _ in range(times):
        start = time.perf_counter()
        proc = EngineProcess(spec)
        out.append(1000 * (time.perf_counter() - start))
        proc.quit()
    return statistics.median(out)


def starts_in_a_run(engine: str, workers: int, deals: int, starts: Path) -> int:
    starts.write_text("")
    cmd = [sys.executable, "-m", "pdk", "selfplay", "-p", f"{engine},random,random", "-n", str(deals)]
    cmd += ["--workers", str(workers), "--json"]
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, "PDK_BENCH_STARTS": str(starts)})
    return len(starts.read_text().split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pdk-bench-protocol-"))
    os.environ.setdefault("PDK_ENGINE_LOGS", str(tmp / "logs"))
    trivial = tmp / "trivial.py"
    trivial.write_text(TRIVIAL, encoding="utf-8")
    register_plugin("bench:FirstLegal", FirstLegal)
    engine = f"cmd:{sys.executable} {trivial}"
    greedy_py = f"cmd:{sys.executable} {ROOT / 'examples/engines/greedy.py'}"
    lines = {"in process": "bench:FirstLegal", "over the protocol": engine, "greedy.py engine": greedy_py}
    cc = shutil.which("cc") or shutil.which("gcc")
    greedy_c = tmp / "greedy"
    if cc is not None:
        subprocess.run(
            [cc, "-O2", "-std=c99", "-o", str(greedy_c), str(ROOT / "examples/engines/greedy.c")], check=True
        )
        lines["greedy.c engine"] = f"cmd:{greedy_c}"
    for players in lines.values():  # start each engine once, as a worker would
        rate([players, "random", "random"], 5, 1)
    results: dict[str, list[float]] = {name: [] for name in lines}
    decisions: dict[str, int] = {}
    for r in range(args.repeats):
        for name, players in lines.items():
            value, decisions[name] = rate([players, "random", "random"], args.deals, 100 + r)
            results[name].append(value)
    print(f"protocol cost, classic16, {args.deals} deals, one seat of three; median of {args.repeats}")
    base = statistics.median(results["in process"])
    for name, values in results.items():
        med = statistics.median(values)
        per = (1 / med - 1 / base) * args.deals / max(decisions[name], 1) * 1e6
        extra = "" if name == "in process" else f"   +{per:,.0f} µs per decision"
        print(f"{name:<20} {med:>8.1f} deals/s{extra}")
    print("start-up to a parsed hello (median of 5):")
    print(f"  trivial.py          {startup_ms([sys.executable, str(trivial)]):>7.1f} ms")
    print(
        f"  greedy.py           {startup_ms([sys.executable, str(GREEDY_PY)]):>7.1f} ms"
    )
    if cc is not None:
        print(f"  greedy.c            {startup_ms([str(greedy_c)]):>7.1f} ms")
    stop_all()
    starts = tmp / "starts"
    for workers in (1, 2):
        n = starts_in_a_run(engine, workers, 200, starts)
        print(
            f"engine starts in a 200-deal selfplay, --workers {workers}: {n} "
            "(the parent's check, then one per worker)"
        )


if __name__ == "__main__":
    main()
