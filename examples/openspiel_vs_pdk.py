"""OpenSpiel's MCTS or ISMCTS bot against pdk's own bots, on pdk's seeded deals.

    pip install 'pdk[openspiel]'
    python examples/openspiel_vs_pdk.py [--bot ismcts] [--opponents normal,normal]
        [--variant classic16] [--deals 12] [--simulations 100] [--seed 0]

Deal ``i`` is ``pdk selfplay --seed SEED``'s deal ``i``, played into ``python_pdk``'s chance
nodes (``state_from_deal``); the OpenSpiel bot takes seat ``i mod players`` (every seat in
turn) and pdk's bots the others, each built for the deal as ``pdk selfplay`` builds it
(``bot_seed``). A pdk bot sees its ``PlayerView``; its play becomes the action id of the
same play. ``ismcts`` is OpenSpiel's information-set MCTS (it samples the hidden hands
through ``resample_from_infostate``); ``mcts`` is plain MCTS on the true state, so it sees
every hand: an open-handed yardstick, not a fair player. Prints each side's mean points
per deal (the settlement) with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import pdk.openspiel  # noqa: F401  (registers python_pdk)
from pdk.bots import make_bot
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.openspiel import state_from_deal
from pdk.rl.actions import PASS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", choices=["ismcts", "mcts"], default="ismcts")
    ap.add_argument("--opponents", default="normal,normal", help="pdk bots for the other seats")
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = pyspiel.load_game("python_pdk", {"variant": args.variant})
    profile = game.rules.profile
    table = game.rules.table
    names = args.opponents.split(",")
    if len(names) != profile.players - 1:
        ap.error(f"{args.variant} seats {profile.players}: give {profile.players - 1} opponents")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if args.bot == "ismcts":
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
    else:
        bot = mcts.MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng)
    ours: list[float] = []
    theirs: list[float] = []
    start = time.perf_counter()
    for i in range(args.deals):
        seed = deal_seed(args.seed, i)
        state = state_from_deal(game, deal(profile, seed).hands)
        me = i % profile.players
        others = iter(names)
        bots = {s: make_bot(next(others), bot_seed(seed, s)) for s in range(profile.players) if s != me}
        while not state.is_terminal():
            seat = state.current_player()
            if seat == me:
                action = bot.step(state)
            else:
                move = bots[seat].choose(state.state.view(seat))
                action = PASS if move is None else table.action_of(move)
            state.apply_action(action)
        returns = state.returns()
        ours.append(returns[me])
        theirs += [r for s, r in enumerate(returns) if s != me]
    seconds = time.perf_counter() - start
    print(
        f"{args.deals} deals of {args.variant}: OpenSpiel {args.bot} ({args.simulations} simulations a move)"
    )
    print(f"  {args.bot:<10} {_mean(ours)}")
    print(f"  {'pdk ' + '/'.join(sorted(set(names))):<10} {_mean(theirs)}")
    print(f"  {seconds:.1f}s")


def _mean(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return f"{mean:+.2f} points a deal [{mean - half:+.2f}, {mean + half:+.2f}] over {len(xs)} seat-deals"


if __name__ == "__main__":
    main()
