"""What the exact belief costs and how often it holds, per profile (``belief_exact``).

    python benchmarks/bench_exact.py --deals 6 --variants classic16,jokers17,two-deck

Normal bots (or ``--players``) play ``--deals`` deals; at every position with ``--least`` to
``--hidden`` hidden cards the exact belief is computed, timed on the process CPU clock. Printed per profile:
positions, the share where it held (splits survived within the work budget), where the
true hands were among them, the median and largest number of splits kept, and the median,
p99 and largest time. The hard bot pays this on top of its search only in those positions
(and saves the model's reading where it holds).
"""

from __future__ import annotations

import argparse
import statistics
import time

from pdk.bots import belief_exact, make_bot
from pdk.bots.belief_exact import ExactBelief
from pdk.engine.deal import deal, derive_seed
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--variants", default="classic16")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--hidden", type=int, default=belief_exact.HIDDEN_MAX, help="the most hidden cards")
    ap.add_argument("--least", type=int, default=0, help="the fewest hidden cards")
    ap.add_argument("--players", default="normal", help="the bot in every seat (a plug-in spec works)")
    args = ap.parse_args()
    print(f"players: {args.players}")
    print("| profile | positions | held | truth kept | splits kept: median / max | median | p99 | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for variant in args.variants.split(","):
        profile = load_profile(variant)
        times: list[float] = []
        kept: list[int] = []
        truth_in = 0
        for d in range(args.deals):
            state = GameState(profile, deal(profile, derive_seed(args.seed, d)))
            bots = [make_bot(args.players, s) for s in range(profile.players)]
            while not state.over:
                view = state.view(state.turn)
                if args.least <= sum(view.hand_sizes) - view.hand_sizes[view.seat] <= args.hidden:
                    t = time.process_time()
                    found = ExactBelief(view, args.hidden).deals()
                    times.append(time.process_time() - t)
                    if found is not None:
                        kept.append(len(found))
                        truth = {s: state.counts[s] for s in range(profile.players) if s != view.seat}
                        truth_in += truth in found
                state.step(bots[state.turn].choose(view))
        n = len(times)
        print(
            f"| {variant} | {n} | {len(kept) / n:.0%} | {truth_in / max(len(kept), 1):.0%} "
            f"| {statistics.median(kept) if kept else 0:.0f} / {max(kept, default=0)} "
            f"| {1000 * statistics.median(times):.1f} ms | {1000 * pct(times, 0.99):.0f} ms "
            f"| {1000 * max(times):.0f} ms |"
        )


if __name__ == "__main__":
    main()
