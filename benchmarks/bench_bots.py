"""Decision time per move for each bot level: median and 99th percentile, one core.

    python benchmarks/bench_bots.py [--deals 40] [--levels random,easy,normal,hard]

Each level plays ``--deals`` whole deals against itself (every seat the same level) and
every ``choose`` call is timed with ``time.perf_counter``. Forced moves (a single legal
choice) are included, since they are part of what a game costs; the figures excluding them
are printed too, because that is where a search bot spends its time.

``--cpu`` times with the process's CPU clock instead of the wall clock: on a machine shared
with other work that is what "one core" means. ``--slowest N`` lists the N slowest
decisions (deal, turn, seat, cards in hand and in play) after each level.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pdk.bots import make_bot
from pdk.engine.deal import deal
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--levels", default="random,easy,normal,hard")
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cpu", action="store_true", help="time with the process CPU clock")
    ap.add_argument("--slowest", type=int, default=0, help="list the slowest decisions")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    profile = load_profile(args.variant)
    print(
        f"{'level':>8} {'moves':>7} {'median ms':>10} {'p99 ms':>9} {'max ms':>9}  (choices>1: median, p99)"
    )
    for level in args.levels.split(","):
        deals = args.deals if not level.startswith("hard") else max(1, args.deals // 4)
        times: list[float] = []
        real: list[float] = []
        where: list[tuple[float, str]] = []
        for d in range(deals):
            state = GameState(profile, deal(profile, args.seed + d))
            bots = [make_bot(level, args.seed * 1000 + d * 3 + s) for s in range(profile.players)]
            while not state.over:
                seat = state.turn
                moves = state.legal_moves()
                choices = len(moves) + state.can_pass(moves)
                view = state.view(seat)
                t0 = clock()
                move = bots[seat].choose(view)
                dt = (clock() - t0) * 1e3
                times.append(dt)
                if choices > 1:
                    real.append(dt)
                    where.append((dt, f"deal {d} turn {len(state.history)} seat {seat}: "
                                      f"{state.sizes[seat]} cards, {sum(state.sizes)} in play"))  # fmt: skip
                state.step(move)
        print(
            f"{level:>8} {len(times):>7} {statistics.median(times):>10.3f} {pct(times, 0.99):>9.3f}"
            f" {max(times):>9.3f}   ({statistics.median(real):.3f}, {pct(real, 0.99):.3f}; {deals} deals)"
        )
        for dt, text in sorted(where, reverse=True)[: args.slowest]:
            print(f"{'':>8} {dt:>9.1f} ms  {text}")


if __name__ == "__main__":
    main()
