"""How well the hard bot's inference finds the true hidden hands (an experiment: it reads
the true hands from the game state, which no bot may do).

    python benchmarks/bench_inference.py [--positions 1000] [--samples 40] [--beta 1.0]

Self-play deals of ``--players`` (normal by default) are played; every ``--every``-th
decision is a position. At each, the sampler (``infer.Sampler``: hand sizes, must-beat
passes, unbreakable bombs) draws ``--samples`` deals of the hidden cards, and the opponent
model (``model.OpponentModel``) weights them. Printed, before (every consistent deal alike)
and after (weighted by the model):

* **truth rank**: the share of sampled deals the true deal out-weighs (ties count half);
  0.5 before, by definition; higher means the model prefers the truth;
* **log-likelihood gain**: ``log w(truth) - log mean w(samples)``, the self-normalised
  estimate of log(P_after(truth) / P_before(truth)); 0 before;
* **cards placed right**: the expected share of the opponents' hidden cards that the
  sampled deals put in the right hand (weighted mean after, plain mean before).

With ``--searched`` it also prints the share of cards placed right in the deals the hard
bot would search there (``HardBot.deals``, 12 deals: uniform draws before, the model's
weighted and Metropolis-refined sample after), and the milliseconds that cost; and, by
phase of the deal (the hidden cards: more than 18, 15 to 18, 14 or fewer), the same for
``hard-v2`` (the weighted sample everywhere) and ``hard`` (every split consistent with
the record, where few enough: ``belief_exact``), with the share of positions where the
exact belief held.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from pdk.bots import make_bot
from pdk.bots.hard import HardBot
from pdk.bots.infer import Sampler
from pdk.bots.model import OpponentModel
from pdk.engine import counts as C
from pdk.engine.deal import Rng, deal, derive_seed
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def overlap(a: int, b: int) -> int:
    return sum(min(n, C.count(b, r)) for r, n in C.items(a))


def placed(hands: dict[int, int], truth: dict[int, int]) -> float:
    """The share of the hidden cards that ``hands`` puts in the right hand."""
    held = sum(C.total(c) for c in truth.values())
    return sum(overlap(hands[s], truth[s]) for s in truth) / held


def ci(values: list[float]) -> str:
    m = statistics.fmean(values)
    h = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{m:.3f} [{m - h:.3f}, {m + h:.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--every", type=int, default=4, help="take every n-th decision of a deal")
    ap.add_argument("--beta", type=float, default=None, help="the model's beta (default: the bot's)")
    ap.add_argument("--recent", type=int, default=None, help="plays read per opponent (default: the bot's)")
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--players", default="normal")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--searched", action="store_true", help="also measure the hard bot's searched deals")
    args = ap.parse_args()
    profile = load_profile(args.variant)
    names = args.players.split(",")
    names = names * profile.players if len(names) == 1 else names
    kw: dict[str, float] = {}
    if args.beta is not None:
        kw["beta"] = args.beta
    ranks: list[float] = []
    gains: list[float] = []
    right_before: list[float] = []
    right_after: list[float] = []
    searched: dict[str, list[float]] = {"uniform": [], "model": []}
    spent = {"uniform": 0.0, "model": 0.0}
    searchers = {"uniform": HardBot(0, inference="uniform"), "model": HardBot(0, belief="sampled")}
    exact = HardBot(0)
    phases = (">18", "15-18", "<=14")
    by_phase: dict[tuple[str, str], list[float]] = {(p, k): [] for p in phases for k in ("model", "exact")}
    phase_ms: dict[tuple[str, str], float] = {(p, k): 0.0 for p in phases for k in ("model", "exact")}
    held: dict[str, int] = {p: 0 for p in phases}
    t0 = time.perf_counter()
    d = 0
    while len(ranks) < args.positions:
        state = GameState(profile, deal(profile, derive_seed(args.seed, d)))
        bots = [make_bot(n, derive_seed(args.seed, d, s)) for s, n in enumerate(names)]
        step = 0
        while not state.over and len(ranks) < args.positions:
            seat = state.turn
            view = state.view(seat)
            if step % args.every == args.every - 1:
                model = (
                    OpponentModel(view, **kw)
                    if args.recent is None
                    else OpponentModel(view, recent=args.recent, **kw)
                )
                if model.facts:
                    sampler = Sampler(view)
                    truth = {s: state.counts[s] for s in range(profile.players) if s != seat}
                    rng = Rng(derive_seed(args.seed, d, step))
                    samples = [sampler.sample(rng) for _ in range(args.samples)]
                    lw = [model.log_weight(h) for h in samples]
                    lt = model.log_weight(truth)
                    ranks.append(sum(1.0 if lt > x else 0.5 if lt == x else 0.0 for x in lw) / len(lw))
                    top = max(lw)
                    gains.append(lt - top - math.log(statistics.fmean(math.exp(x - top) for x in lw)))
                    right = [placed(h, truth) for h in samples]
                    ws = [math.exp(x - top) for x in lw]
                    right_before.append(statistics.fmean(right))
                    right_after.append(sum(w * r for w, r in zip(ws, right, strict=True)) / sum(ws))
                    for name, bot in searchers.items() if args.searched else ():
                        t = time.process_time()
                        found = bot.deals(view, Rng(derive_seed(args.seed, d, step, 1)), 12)
                        spent[name] += time.process_time() - t
                        right_here = statistics.fmean(placed(h, truth) for h in found)
                        searched[name].append(right_here)
                        if name == "model":
                            hidden = sum(view.hand_sizes) - view.hand_sizes[seat]
                            phase = phases[0] if hidden > 18 else phases[1] if hidden > 14 else phases[2]
                            by_phase[(phase, "model")].append(right_here)
                            phase_ms[(phase, "model")] += time.process_time() - t
                            t = time.process_time()
                            found = exact.deals(view, Rng(derive_seed(args.seed, d, step, 1)), 12)
                            phase_ms[(phase, "exact")] += time.process_time() - t
                            held[phase] += exact.last_exact
                            got = statistics.fmean(placed(h, truth) for h in found)
                            by_phase[(phase, "exact")].append(got)
            state.step(bots[seat].choose(view))
            step += 1
        d += 1
    print(f"{args.variant}, {len(ranks)} positions, {d} deals of {','.join(names)}, {args.samples} samples")
    print("                      before                 after (opponent model)")
    print(f"truth rank            0.500                  {ci(ranks)}")
    print(f"log-likelihood gain   0.000                  {ci(gains)}")
    print(f"cards placed right    {ci(right_before)}    {ci(right_after)}")
    if args.searched:
        per = {k: 1000 * v / len(ranks) for k, v in spent.items()}
        print(
            f"searched deals right  {ci(searched['uniform'])}    {ci(searched['model'])}"
            f"   ({per['uniform']:.0f} / {per['model']:.0f} ms a position)"
        )
        print("phase (hidden cards)  positions  exact held  right: hard-v2 (sampled)   right: hard (exact)"
              "      ms: hard-v2 / hard")  # fmt: skip
        for p in phases:
            m, e = by_phase[(p, "model")], by_phase[(p, "exact")]
            if not m:
                continue
            print(
                f"{p:>20}  {len(m):>9}  {held[p] / len(m):>10.1%}  {ci(m):>24}  {ci(e):>24}"
                f"   {1000 * phase_ms[(p, 'model')] / len(m):.0f}"
                f" / {1000 * phase_ms[(p, 'exact')] / len(m):.0f}"
            )
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
