"""Selfplay throughput: whole deals per second through the ``pdk selfplay`` harness.

    python benchmarks/bench_selfplay.py [--deals 1000] [--levels random,easy] [--repeats 3]

For each bot level, ``--deals`` deals are played by three copies of it through
``pdk.app.match.play_game`` — the exact path ``pdk selfplay --workers 1`` takes: derive the
deal's seed, deal, build the seeded bots, let each choose from its seat's ``PlayerView``,
``step``, settle and reduce to a ``GameResult``. A second column adds what ``--out`` costs
(re-checking every play and serialising the record).

Rates are deals per second of this process's CPU time (``time.process_time``): the speed of
one core whatever else the machine runs; the best of ``--repeats`` runs is reported with the
median beside it. The last line times ``run_match`` over a pool of ``--workers`` processes
by the wall clock, to show how far the pool scales on this machine.

Compare with ``bench_engine.py``'s random-bot deals/s: that loop picks from
``GameState.legal_moves()`` directly; the harness pays for a ``PlayerView`` per turn (what
keeps bots honest) and for bot construction per deal.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pdk.app.match import make_tasks, play_game, run_match
from pdk.app.registry import load_profile
from pdk.engine.profile import Profile


def rate(profile: Profile, level: str, deals: int, seed: int, records: bool) -> float:
    tasks = make_tasks([level] * profile.players, deals, seed, keep_records=records)
    start = time.process_time()
    for task in tasks:
        play_game(profile, task)
    return deals / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--levels", default="random,easy")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    profile = load_profile(args.variant)
    print(f"selfplay throughput, one core, {args.deals} deals per run, best (median) of {args.repeats}")
    print(f"{'level':>8} {'deals/s':>16} {'deals/s with --out':>22}")
    for level in args.levels.split(","):
        rate(profile, level, 20, args.seed + 99, False)  # warm the generator's caches
        plain = [rate(profile, level, args.deals, args.seed + i, False) for i in range(args.repeats)]
        kept = [rate(profile, level, args.deals, args.seed + i, True) for i in range(args.repeats)]
        print(
            f"{level:>8} {max(plain):>8.0f} ({statistics.median(plain):>5.0f})"
            f" {max(kept):>14.0f} ({statistics.median(kept):>5.0f})"
        )
    level = args.levels.split(",")[0]
    start = time.perf_counter()
    run_match(profile, [level] * profile.players, args.deals, args.seed, workers=args.workers)
    wall = args.deals / (time.perf_counter() - start)
    print(f"{level} over {args.workers} worker processes, wall clock: {wall:.0f} deals/s")


if __name__ == "__main__":
    main()
