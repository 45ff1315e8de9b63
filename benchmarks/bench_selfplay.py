"""Selfplay throughput: whole deals per second through the ``pdk selfplay`` harness, beside
the engine's own ``GameState`` loop on the same deals.

    python benchmarks/bench_selfplay.py [--deals 1000] [--levels random,normal] [--repeats 5]
                                        [--against /path/to/other/checkout]

Lines, per level:

* **GameState loop** (random only) — the engine alone: deal the deal's seed, pick uniformly
  among ``GameState.legal_moves()`` (a pass counting as one when allowed), ``step``, settle.
  This is ``bench_engine.py``'s random-deal loop on the harness's deal seeds.
* **harness** — ``pdk.match.run.play_game``, the exact path ``pdk selfplay --workers 1``
  takes: derive the seed, deal, build the seeded bots, let each choose from its seat's
  ``PlayerView``, ``step``, settle, reduce to a ``GameResult``.
* **harness --out** — the same, also building and serialising each game's record.

The runs are *interleaved*: repeat 1 of every line, then repeat 2, ... so that a burst of
load from other processes on the machine hits every line alike; the ratio harness/GameState
is computed per repeat and its median reported. Rates are deals per CPU-second of this
process (``time.process_time``); the median of ``--repeats`` runs is the figure, the best in
brackets. Every repeat plays fresh deals.

``--against DIR`` runs this same script from another checkout (``git worktree add DIR
<commit>``) and from this one, each repeat of each in a fresh child process, one after the
other, and prints the two side by side: a before/after table measured in the same minutes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from pdk.engine.deal import Rng, deal, deal_seed
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.match.run import make_tasks, play_game
from pdk.variants.registry import load_profile


def harness(profile: Profile, level: str, deals: int, seed: int, records: bool) -> float:
    tasks = make_tasks([level] * profile.players, deals, seed, keep_records=records)
    start = time.process_time()
    for task in tasks:
        play_game(profile, task)
    return deals / (time.process_time() - start)


def command(profile: Profile, deals: int, seed: int) -> float:
    """The whole ``pdk selfplay -p random --workers 1 --games N`` command, run in this
    process through the real entry point (options parsed, the match, the tally, the summary
    printed), per CPU-second; only the interpreter's start and imports are left out (the
    ``pdk selfplay, own process`` line adds them back)."""
    from pdk.cli.app import main as pdk_main

    argv = ["pdk", "selfplay", "-p", "random", "--workers", "1", "--games", str(deals)]
    argv += ["--seed", str(seed), "--variant", profile.name, "--json"]
    saved, sys.argv = sys.argv, argv
    start = time.process_time()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            pdk_main()
    except SystemExit as exc:
        if exc.code:
            raise
    finally:
        sys.argv = saved
    return deals / (time.process_time() - start)


def command_process(profile: Profile, deals: int, seed: int) -> float:
    """The same command as a process of its own (start-up and imports included): deals per
    CPU-second of that process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "pdk", "selfplay", "-p", "random", "--workers", "1", "--games", str(deals)]
    cmd += ["--seed", str(seed), "--variant", profile.name, "--json"]
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return deals / cpu


def gamestate(profile: Profile, deals: int, seed: int) -> float:
    start = time.process_time()
    for d in range(deals):
        s = deal_seed(seed, d)
        state = GameState(profile, deal(profile, s))
        rng = Rng(s)
        while not state.over:
            moves = state.legal_moves()
            i = rng.below(len(moves) + state.can_pass(moves))
            state.step(moves[i] if i < len(moves) else None)
        state.settlement()
    return deals / (time.process_time() - start)


def lines(profile: Profile, levels: list[str], deals: int) -> dict[str, Callable[[int], float]]:
    """Each line's one timed run for a seed; normal-bot deals are ~20x slower than random."""
    out: dict[str, Callable[[int], float]] = {}
    for level in levels:
        n = deals if level in ("random", "easy") else max(20, deals // 10)
        if level == "random":
            out["GameState loop (random)"] = lambda s, n=n: gamestate(profile, n, s)
            out["pdk selfplay -p random"] = lambda s, n=n: command(profile, n, s)
            out["pdk selfplay, own process"] = lambda s, n=n: command_process(profile, n, s)
        out[f"harness {level}"] = lambda s, lv=level, n=n: harness(profile, lv, n, s, False)
        out[f"harness {level} --out"] = lambda s, lv=level, n=n: harness(profile, lv, n, s, True)
    return out


def one_repeat(profile: Profile, levels: list[str], deals: int, r: int) -> dict[str, float]:
    """Every line of every repeat on deals of its own: bots and generators memoise, and
    replaying deals a line has seen would flatter it."""
    runs = lines(profile, levels, deals).items()
    return {name: run(1000 + 7919 * r + 104729 * i) for i, (name, run) in enumerate(runs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--levels", default="random,normal")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--against", default="", help="another checkout to measure between repeats")
    ap.add_argument("--one", type=int, default=-1, help=argparse.SUPPRESS)  # a child's one repeat
    args = ap.parse_args()
    profile = load_profile(args.variant)
    levels = args.levels.split(",")
    for level in levels:  # warm the generator's tables, as any long run has
        harness(profile, level, 20, 99, False)
    if args.one >= 0:
        print(json.dumps(one_repeat(profile, levels, args.deals, args.one)))
        return
    here: list[dict[str, float]] = []
    there: list[dict[str, float]] = []
    for r in range(args.repeats):
        if args.against:
            # Both checkouts in fresh processes alike: a long-lived one carries the move
            # generator's memo from repeat to repeat (about 10% faster by the fifth).
            here.append(_child(args, r, os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
            there.append(_child(args, r, args.against))
        else:
            here.append(one_repeat(profile, levels, args.deals, r))
    print(
        f"selfplay throughput, {profile.name}, one core, deals per CPU-second: "
        f"median [best] of {args.repeats} interleaved repeats"
    )
    head = f"{'line':<28} {'this checkout':>18}"
    if args.against:
        head += f" {'--against':>18} {'ratio':>7}"
    print(head)
    for name in here[0]:
        mine = [h[name] for h in here]
        row = f"{name:<28} {statistics.median(mine):>9.0f} [{max(mine):>6.0f}]"
        if args.against and name in there[0]:
            other = [t[name] for t in there]
            ratio = statistics.median(m / o for m, o in zip(mine, other, strict=True))
            row += f" {statistics.median(other):>9.0f} [{max(other):>6.0f}] {ratio:>6.2f}x"
        print(row)
    if "random" in levels:
        for name in ("harness random", "pdk selfplay -p random", "pdk selfplay, own process"):
            ratios = [h[name] / h["GameState loop (random)"] for h in here]
            row = f"{name} / GameState loop, median per repeat: {statistics.median(ratios):.2f}"
            if args.against and name in there[0]:
                theirs = [t[name] / t["GameState loop (random)"] for t in there]
                row += f" (--against {statistics.median(theirs):.2f})"
            print(row)


def _child(args: argparse.Namespace, r: int, checkout: str) -> dict[str, float]:
    """One repeat of this script as ``checkout`` runs it (its own pdk on the path)."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    # This script, with the other checkout's package first on the path: the same lines,
    # the whole command included, measured on both.
    script = os.path.abspath(__file__)
    cmd = [sys.executable, script, "--deals", str(args.deals), "--levels", args.levels]
    cmd += ["--variant", args.variant, "--one", str(r)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=checkout)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


if __name__ == "__main__":
    main()
