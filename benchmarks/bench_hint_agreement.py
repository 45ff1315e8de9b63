"""Does the review agree with the hint? Following hint 1, how often is it marked ``?``/``??``.

    nice -n 10 python benchmarks/bench_hint_agreement.py --positions 500
    python benchmarks/bench_hint_agreement.py --positions 40 --variants classic16  # quick

Positions come from seeded selfplay deals (normal bots at every seat, several profiles),
every decision with a real choice, taken evenly until ``--positions`` are in. At each the
review's own judgement (``pdk.analysis.review``: the analysis over normal's best six plus the
plays judged, at the review's default budget and seed 0, a mark confirmed in fresh deals as
``review.verdict`` confirms it) marks two plays:

* **before**: the hint list's first play as it was before issue 37, the planner's cheapest
  sensible play (``planner_order``; 托管 played it, never passing);
* **after**: what following the hints plays now (``first_choice`` at ``HINT_BUDGET``: hint 1,
  or a pass where the search rates passing above every play).

It reports each one's ``?`` and ``??`` counts and rates (with 95% Wilson intervals) and the
hint's own time per decision (process time: this machine is shared, wall time is not the
hint's). One process, one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from pdk.analysis.review import TOP, mark_of, unit, verdict
from pdk.bots.hints import HINT_BUDGET, first_choice, planner_order
from pdk.bots.valuation import DEFAULT_BUDGET, Z95, Spot, analyse
from pdk.engine.deal import deal_seed
from pdk.engine.state import PlayerView
from pdk.match.run import GameTask, play_game
from pdk.records.disk import parse
from pdk.variants.registry import load_profile

VARIANTS = ("classic16", "classic15", "four-player", "jokers17")


def positions(variants: list[str], wanted: int, seed: int, every: int) -> list[PlayerView]:
    """Decisions with a real choice from seeded normal-bot deals, round-robin over the
    profiles, one in ``every`` kept."""
    out: list[PlayerView] = []
    pools: dict[str, list[PlayerView]] = {v: [] for v in variants}
    k = 0
    while len(out) < wanted:
        for v in variants:
            profile = load_profile(v)
            lineup = ("normal",) * profile.players
            res = play_game(profile, GameTask(k, k, 0, deal_seed(seed, k), lineup, True))
            assert res.record is not None
            rec = parse(res.record)
            for i, (state, action) in enumerate(zip(rec.states(), rec.actions, strict=False)):
                view = state.view(action.seat)
                legal = view.legal_moves()
                if len(legal) + (1 if view.can_pass(legal) else 0) >= 2 and i % every == k % every:
                    pools[v].append(view)
        k += 1
        while all(pools.values()) and len(out) < wanted:
            for v in variants:
                if pools[v] and len(out) < wanted:
                    out.append(pools[v].pop(0))
    return out


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * ((p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--every", type=int, default=4, help="keep one decision in this many")
    ap.add_argument("--hint-budget", type=int, default=HINT_BUDGET)
    ap.add_argument("--review-budget", type=int, default=DEFAULT_BUDGET)
    args = ap.parse_args()
    views = positions(args.variants.split(","), args.positions, args.seed, args.every)
    marks: dict[str, dict[str, int]] = {"before": {"?": 0, "??": 0}, "after": {"?": 0, "??": 0}}
    same = 0
    times: list[float] = []
    by_variant: dict[str, dict[str, int]] = {}
    for n, view in enumerate(views, 1):
        planned = planner_order(view)
        before = planned[0] if planned else None
        t0 = time.process_time()
        after = first_choice(view, args.hint_budget)
        times.append(time.process_time() - t0)
        same += before == after
        spot = Spot.of_view(view)
        a = analyse(spot, budget=args.review_budget, seed=0, top=TOP, include=(before, after))
        u = unit(view.profile)
        empty = {"n": 0, "before?": 0, "before??": 0, "after?": 0, "after??": 0}
        row = by_variant.setdefault(view.profile.name, empty)
        row["n"] += 1
        for name, move in (("before", before), ("after", after)):
            loss = verdict(spot, a, move, u, budget=args.review_budget, seed=0)
            mark = mark_of(loss, u)
            if mark:
                marks[name][mark] += 1
                row[name + mark] += 1
                if name == "after":
                    where = f"{view.profile.name} seat {view.seat} after {len(view.history)} plays"
                    shown = "pass" if move is None else move.notation()
                    best = "pass" if a.best.move is None else a.best.move.notation()
                    print(f"after {mark}: {where}: {shown}, best {best}, -{loss.mean:.2f}", file=sys.stderr)
        if n % 25 == 0:
            print(f"{n}/{len(views)} {json.dumps(marks)}", file=sys.stderr)
    total = len(views)
    times.sort()
    report = {
        "positions": total,
        "variants": args.variants,
        "hint_budget": args.hint_budget,
        "review_budget": args.review_budget,
        "same_as_before": same,
        "hint_s_median": round(statistics.median(times), 3),
        "hint_s_p90": round(times[min(total - 1, int(0.9 * total))], 3),
        "hint_s_p99": round(times[min(total - 1, int(0.99 * total))], 3),
        "by_variant": by_variant,
    }
    for name, m in marks.items():
        for mark, k in m.items():
            low, high = wilson(k, total)
            report[f"{name}{mark}"] = f"{k} ({100 * k / total:.1f}% [{100 * low:.1f}, {100 * high:.1f}])"
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
