"""Does the learned value choose as the hard bot's full rollouts do? The gate before the
value may play inside the search (issue 27: at least 90% of 500 positions).

    python benchmarks/bench_value.py --weights pdk/bots/weights/classic16.npz --positions 500

Positions come from self-play of normal bots (every ``--every``-th real choice). At each,
the hard bot (``hard-v2``: the weighted sample, full normal-judgement rollouts, no exact
belief, no wall-clock cap) chooses among its candidates (normal's best six); the network
chooses among the same candidates by its value. Printed: how often the network's choice is
the search's, with a 95% interval, and, for scale, how often normal's own first choice is.

The search's choices depend on the positions only, so ``--cache FILE`` keeps them (one
JSON line per position) and a later run with other weights reads them instead of searching
again; ``--weights none`` only fills the cache.

``--again`` searches each position a second time with another seed and prints how often
the two searches choose alike: the search's own noise (24 sampled deals), the ceiling for
any judgement measured against it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from pdk.bots import make_bot
from pdk.bots.hard import HardBot
from pdk.bots.learned import scored
from pdk.bots.normal import Judge
from pdk.bots.value_net import ValueNet
from pdk.engine.deal import deal, derive_seed
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def share(hits: int, n: int) -> str:
    p = hits / n
    h = 1.96 * math.sqrt(p * (1 - p) / n)
    return f"{p:.1%} [{p - h:.1%}, {p + h:.1%}] ({hits}/{n})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", type=Path, required=True)
    ap.add_argument("--cache", type=Path, default=None, help="the search's choices, kept between runs")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--again", action="store_true", help="search again, seed 1: its own agreement")
    args = ap.parse_args()
    profile = load_profile(args.variant)
    net = None if str(args.weights) == "none" else ValueNet.load(args.weights, profile.name)
    cached: dict[str, list[int] | None] = {}
    if args.cache is not None and args.cache.exists():
        for line in args.cache.read_text().splitlines():
            row = json.loads(line)
            cached[row["at"]] = row["move"]
    sink = args.cache.open("a") if args.cache is not None else None
    search = HardBot(0, belief="sampled", prior=0)  # the rollouts alone: no learned prior
    second = HardBot(1, belief="sampled", prior=0)
    n = agree = normal_agree = again = 0
    t0 = time.perf_counter()
    d = 0
    while n < args.positions:
        state = GameState(profile, deal(profile, derive_seed(args.seed, d)))
        bots = [make_bot("normal", s) for s in range(profile.players)]
        real = 0
        while not state.over and n < args.positions:
            view = state.view(state.turn)
            moves = view.legal_moves()
            can_pass = view.can_pass(moves)
            if len(moves) + can_pass > 1:
                real += 1
                ranked = Judge(view).rank(moves, can_pass)
                cands = [m for _, m in ranked[: search.candidates]]
                if real % args.every == 0 and ranked[0][0] < 1e6 and len(cands) > 1:
                    at = f"{d}/{len(view.history)}"
                    if at in cached:
                        said = cached[at]
                        chosen = next((m for m in cands if m is not None and list(m) == said), None)
                    else:
                        chosen = search.choose(view)
                        if sink is not None:
                            said = None if chosen is None else list(chosen)
                            sink.write(json.dumps({"at": at, "move": said}) + "\n")
                            sink.flush()
                    n += 1
                    normal_agree += cands[0] == chosen
                    if args.again:
                        again += second.choose(view) == chosen
                    if net is not None:
                        choices, _, _, values = scored(net, view, moves, can_pass)
                        value = {m: float(v) for m, v in zip(choices, values, strict=True)}
                        mine = max(cands, key=lambda m: (value[m], -cands.index(m)))
                        agree += mine == chosen
            state.step(bots[state.turn].choose(view))
        d += 1
    print(f"{args.variant}, {n} positions from {d} deals of normal self-play")
    if net is not None:
        meta = net.meta
        print(f"weights: {meta.get('games')} deals of training, seed {meta.get('seed')}, "
              f"commit {meta.get('commit')}")  # fmt: skip
        print(f"the network's choice is the search's   {share(agree, n)}")
    print(f"normal's first choice is the search's  {share(normal_agree, n)}")
    if args.again:
        print(f"a second search (seed 1) chooses alike {share(again, n)}")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
