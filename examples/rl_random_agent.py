"""A random agent in pdk's PettingZoo environment (``pip install 'pdk[rl]'``).

    python examples/rl_random_agent.py [--variant classic16] [--deals 100]

Each agent picks uniformly among its legal actions, read from ``info["legal_actions"]``
(the legal ids; ``obs["action_mask"]`` and ``info["action_mask"]`` say the same as int8 and
bool masks): the loop any PettingZoo training code runs, with the policy left out. It
prints the mean reward per seat (the settlement, so it sums to zero on cards-left profiles)
and the steps per second.
"""

from __future__ import annotations

import argparse
import random
import time

from pdk.rl import env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="classic16")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    e = env(variant=args.variant)
    rng = random.Random(args.seed)
    totals: dict[str, float] = {}
    steps = 0
    start = time.perf_counter()
    e.reset(seed=args.seed)  # deal 1 is pdk selfplay --seed SEED's first deal
    for _ in range(args.deals):
        for agent in e.agent_iter():
            _, reward, termination, truncation, info = e.last()
            totals[agent] = totals.get(agent, 0.0) + reward
            if termination or truncation:
                e.step(None)
                continue
            legal = info["legal_actions"]
            e.step(legal[rng.randrange(len(legal))])
            steps += 1
        e.reset()  # the run's next deal
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals of {args.variant}, action space {e.action_space('player_0').n}")
    for agent, total in sorted(totals.items()):
        print(f"  {agent}: mean reward {total / args.deals:+.2f}")
    print(f"{steps} steps in {seconds:.2f}s: {steps / seconds:,.0f} steps/s")


if __name__ == "__main__":
    main()
