"""Review, advise and puzzle-mining speed, and the accuracy review gives each bot level.

    python benchmarks/bench_review.py speed --deals 5          # s per classic16 deal reviewed
    python benchmarks/bench_review.py advise --positions 20    # s per pdk advise analysis
    python benchmarks/bench_review.py mine --deals 20          # puzzles found per minute
    python benchmarks/bench_review.py accuracy --deals 100     # easy / normal / hard accuracy
    python benchmarks/bench_review.py accuracy --levels easy,normal,hard,hint   # the hint player too
    python benchmarks/bench_review.py puzzles                  # re-prove every shipped puzzle

Everything runs in this one process (one core). ``accuracy`` plays each deal with the three
levels seated in turn (deal k rotates easy, normal, hard by k; ``--levels`` names others,
the seats taking them in turn), reviews every seat at the
default budget and reports each level's mean accuracy over deals with a 95% interval (one
sample per deal: the level's accuracy in that deal).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from pdk.analysis.puzzles import load, mine, prove
from pdk.analysis.review import review
from pdk.bots.valuation import ADVISE_BUDGET, DEFAULT_BUDGET, Spot, analyse
from pdk.engine.deal import deal_seed
from pdk.engine.record import GameRecord
from pdk.match.run import GameTask, mean_ci, play_game
from pdk.records.disk import parse
from pdk.variants.registry import load_profile

LEVELS = ("easy", "normal", "hard")


def records(
    variant: str, deals: int, seed: int, rotate: bool = True, levels: tuple[str, ...] = LEVELS
) -> list[tuple[tuple[str, ...], GameRecord]]:
    profile = load_profile(variant)
    out = []
    for k in range(deals):
        seats = range(profile.players)
        lineup = tuple(levels[(i + k) % len(levels)] for i in seats) if rotate else levels
        res = play_game(profile, GameTask(k, k, 0, deal_seed(seed, k), lineup, True))
        assert res.record is not None
        out.append((lineup, parse(res.record)))
    return out


def speed(args: argparse.Namespace) -> None:
    times = []
    for _, rec in records(args.variant, args.deals, args.seed, rotate=False):
        t0 = time.process_time()
        review(rec, budget=args.budget)
        times.append(time.process_time() - t0)
        print(f"deal: {len(rec.actions)} plays, {times[-1]:.1f} s", file=sys.stderr)
    print(json.dumps({"variant": args.variant, "budget": args.budget, "deals": len(times),
                      "median_s": statistics.median(times), "max_s": max(times),
                      "mean_s": statistics.fmean(times)}))  # fmt: skip


def advise(args: argparse.Namespace) -> None:
    times = []
    budget = ADVISE_BUDGET if args.budget == DEFAULT_BUDGET else args.budget
    for _, rec in records(args.variant, max(1, args.positions // 10), args.seed, rotate=False):
        states = list(rec.states())[:-1]
        for st in states[:: max(1, len(states) // 10)]:
            t0 = time.process_time()
            analyse(Spot.of_view(st.view(st.turn)), budget=budget)
            times.append(time.process_time() - t0)
    print(json.dumps({"variant": args.variant, "budget": budget, "positions": len(times),
                      "median_s": statistics.median(times), "max_s": max(times)}))  # fmt: skip


def accuracy(args: argparse.Namespace) -> None:
    levels = tuple(args.levels.split(","))
    per: dict[str, list[float]] = {lv: [] for lv in levels}
    t0 = time.time()
    for k, (lineup, rec) in enumerate(records(args.variant, args.deals, args.seed, levels=levels)):
        rv = review(rec, budget=args.budget)
        for s in rv.seats:
            if s.accuracy is not None:
                per[lineup[s.seat]].append(s.accuracy)
        done = {lv: round(statistics.fmean(v), 1) for lv, v in per.items() if v}
        print(f"{k + 1} deals, {time.time() - t0:.0f} s: {done}", file=sys.stderr, flush=True)
    out = {}
    for lv, values in per.items():
        mean, ci = mean_ci(values)
        out[lv] = {"accuracy": round(mean, 2), "ci95": ci and [round(ci[0], 2), round(ci[1], 2)],
                   "deals": len(values)}  # fmt: skip
    print(json.dumps({"variant": args.variant, "budget": args.budget, "deals": args.deals, "levels": out}))


def mine_rate(args: argparse.Namespace) -> None:
    t0 = time.process_time()
    found = list(mine(args.variant, args.deals, args.seed))
    secs = time.process_time() - t0
    rate = round(60 * len(found) / secs, 1)
    print(json.dumps({"variant": args.variant, "games": args.deals, "puzzles": len(found),
                      "cpu_s": round(secs, 1), "puzzles_per_min": rate}))  # fmt: skip


def reprove(args: argparse.Namespace) -> None:
    t0 = time.process_time()
    shipped = load()
    failed = [p.id for p in shipped if not prove(p)]
    secs = round(time.process_time() - t0, 1)
    print(json.dumps({"puzzles": len(shipped), "failed": failed, "cpu_s": secs}))
    if failed:
        sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("speed", "advise", "accuracy", "mine", "puzzles"))
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--levels", default=",".join(LEVELS), help="accuracy: the levels seated in turn")
    args = ap.parse_args()
    modes = {"speed": speed, "advise": advise, "accuracy": accuracy, "mine": mine_rate, "puzzles": reprove}
    modes[args.what](args)


if __name__ == "__main__":
    main()
