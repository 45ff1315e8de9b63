"""Bot strength by duplicate deals: each deal is replayed with the bots in every seat
arrangement, so the luck of the cards cancels out.

    python benchmarks/bench_strength.py --players normal,easy,easy --deals 500 --workers 2

prints, per bot, the mean score per deal with its 95% confidence interval (one sample per
deal: the bot's mean over every seat it sat in) and its win rate, using the same harness as
``pdk selfplay --duplicate`` (``pdk.match.run``). ``--markdown`` prints a table row per bot.
"""

from __future__ import annotations

import argparse
import json
import time

from pdk.match.run import run_match, summarize
from pdk.variants.registry import load_profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="normal,easy,easy", help="one bot per seat, comma-separated")
    ap.add_argument("--deals", type=int, default=200, help="deals (each played in every arrangement)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--markdown", action="store_true", help="print markdown table rows")
    args = ap.parse_args()
    profile = load_profile(args.variant)
    players = args.players.split(",")
    t0 = time.perf_counter()
    results = run_match(profile, players, args.deals, args.seed, duplicate=True, workers=args.workers)
    seconds = time.perf_counter() - t0
    summary = summarize(players, results, seconds=seconds)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
        return
    label = " vs ".join(players)
    for line in summary.bots:
        lo, hi = line.ci95 if line.ci95 else (float("nan"), float("nan"))
        if args.markdown:
            print(
                f"| {label} | {line.bot} | {summary.deals} | {line.deals} | {line.score_mean:+.2f} "
                f"| [{lo:+.2f}, {hi:+.2f}] | {line.win_rate:.1%} |"
            )
        else:
            print(
                f"{line.bot:>8}: deals {summary.deals} games {line.deals}  mean {line.score_mean:+.2f}"
                f"  95% CI [{lo:+.2f}, {hi:+.2f}]  win rate {line.win_rate:.1%}"
            )
    print(f"({summary.games} games in {seconds:.1f} s)")


if __name__ == "__main__":
    main()
