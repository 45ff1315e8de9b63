"""Two bots compared deal by deal: each plays the same duplicate deals against the same
opponents, and the difference of their scores is taken per deal (paired), so most of the
luck of the cards cancels out of the difference.

    python benchmarks/bench_paired.py --a hard --b hard-v2 --opponents normal,normal \
        --deals 600 --out /tmp/paired.jsonl

Each deal is played in every seat arrangement of ``A + opponents``, then of ``B + opponents``
(the deal seeds are ``pdk selfplay --duplicate``'s, so ``bench_strength.py`` with the same
seed plays the same deals). One JSON line per deal is appended to ``--out`` as it finishes;
a rerun with the same ``--out`` skips the deals already there, so a long run can be
stopped and resumed, and ``--summary`` prints the figures of whatever is in the file.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from pdk.engine.deal import deal_seed
from pdk.engine.profile import Profile
from pdk.match.run import GameTask, arrangements, play_game, t_quantile_975
from pdk.variants.registry import load_profile


def ci(values: list[float]) -> str:
    m = statistics.fmean(values)
    if len(values) < 2:
        return f"{m:+.2f}"
    h = t_quantile_975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def summary(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        print("no deals yet")
        return
    a, b = rows[0]["a"], rows[0]["b"]
    sa = [r["score_a"] for r in rows]
    sb = [r["score_b"] for r in rows]
    wa = statistics.fmean(r["wins_a"] for r in rows)
    wb = statistics.fmean(r["wins_b"] for r in rows)
    diff = [x - y for x, y in zip(sa, sb, strict=True)]
    same = sum(1 for r in rows if r["score_a"] == r["score_b"])
    print(f"{rows[0]['variant']}, {len(rows)} duplicate deals (seed {rows[0]['seed']}), against "
          f"{rows[0]['opponents']}; {same} deals scored alike")  # fmt: skip
    print(f"{a:>10}: mean {ci(sa)}  win rate {wa:.1%}")
    print(f"{b:>10}: mean {ci(sb)}  win rate {wb:.1%}")
    print(f"  paired {a} - {b}: {ci(diff)}")


Job = tuple[Profile, int, int, str, str, dict[str, list[tuple[str, ...]]]]


def _deal(job: Job) -> dict[str, object]:
    """Every game of one deal, A's then B's, in this process (a plug-in's per-process memo
    sees both): each bot's mean score and win rate over the seats it sat in."""
    profile, seed, d, a, b, arr = job
    row: dict[str, object] = {"deal": d, "a": a, "b": b}
    for who, tag in ((a, "a"), (b, "b")):
        scores: list[float] = []
        wins: list[int] = []
        for k, bots in enumerate(arr[who]):
            res = play_game(profile, GameTask(k, d, k, deal_seed(seed, d), bots, False))
            for seat, name in enumerate(bots):
                if name == who:
                    scores.append(res.totals[seat])
                    wins.append(int(res.winner == seat))
        row[f"score_{tag}"] = statistics.fmean(scores)
        row[f"wins_{tag}"] = statistics.fmean(wins)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="hard")
    ap.add_argument("--b", default="hard-v2")
    ap.add_argument("--opponents", default="normal,normal")
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--first", type=int, default=0, help="the first deal's index")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--summary", action="store_true", help="only print the figures of --out")
    args = ap.parse_args()
    if args.summary:
        summary(args.out)
        return
    profile = load_profile(args.variant)
    opponents = args.opponents.split(",")
    if len(opponents) + 1 != profile.players:
        need = profile.players - 1
        raise SystemExit(f"{profile.name} seats {profile.players} players: give {need} opponents")
    done = set()
    if args.out.exists():
        done = {json.loads(line)["deal"] for line in args.out.read_text().splitlines() if line.strip()}
    arr = {who: arrangements([who, *opponents], duplicate=True) for who in (args.a, args.b)}
    deals = [d for d in range(args.first, args.first + args.deals) if d not in done]
    jobs = [(profile, args.seed, d, args.a, args.b, arr) for d in deals]
    if args.workers > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(args.workers)
        rows = pool.imap_unordered(_deal, jobs)
    else:
        rows = map(_deal, jobs)
    with args.out.open("a") as out:
        for row in rows:
            row.update(variant=args.variant, seed=args.seed, opponents=args.opponents)
            out.write(json.dumps(row) + "\n")
            out.flush()
    summary(args.out)


if __name__ == "__main__":
    main()
