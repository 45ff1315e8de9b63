"""The PettingZoo environment's speed: masked random steps per CPU-second, and a digest of
what they played, so a faster environment is seen to play the very same games.

    python benchmarks/bench_rl_env.py [--steps 20000] [--repeats 5] [--against DIR]

Two agents, both uniform over the legal actions of ``pdk.rl.env`` (the wrapped ``env()``,
as a user gets it):

* **sample(mask)** — PettingZoo's documented loop: ``env.action_space(agent).sample(mask)``
  (Gymnasium's masked sampling), each agent's action space seeded;
* **choice(nonzero)** — the module docstring's loop: ``env.np_random.choice(mask.nonzero()[0])``.
  Most of its time is NumPy's ``nonzero`` over an int8 mask of 51,431 actions (about
  80 µs a call here, against 3 µs for a boolean one): the agent's cost, not the
  environment's.

Runs are interleaved with ``--against DIR`` (another checkout, e.g. ``git worktree add DIR
COMMIT``): one repeat of this checkout, one of that, each in a fresh process, so load hits
both alike; the digests must be equal (the same seeds, the same games).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any


def run(steps: int, agent: str, seed: int) -> tuple[float, str]:
    from pdk.rl import env as make_env

    e: Any = make_env("classic16")
    e.reset(seed=seed)
    for a in e.possible_agents:
        e.action_space(a).seed(seed)
    digest = hashlib.sha256()
    done = 0
    start = time.process_time()
    while done < steps:
        for name in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            if term or trunc:
                digest.update(f"{name}:{reward};".encode())
                e.step(None)
                continue
            mask = obs["action_mask"]
            if agent == "sample(mask)":
                action = int(e.action_space(name).sample(mask))
            else:
                action = int(e.np_random.choice(mask.nonzero()[0]))
            digest.update(f"{action},".encode())
            e.step(action)
            done += 1
        e.reset()
    return done / (time.process_time() - start), digest.hexdigest()[:16]


AGENTS = ("sample(mask)", "choice(nonzero)")


def one_repeat(steps: int, r: int) -> dict[str, tuple[float, str]]:
    return {agent: run(steps, agent, 1000 + r) for agent in AGENTS}


def _child(args: argparse.Namespace, r: int, checkout: str) -> dict[str, tuple[float, str]]:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    cmd = [sys.executable, os.path.abspath(__file__), "--steps", str(args.steps), "--one", str(r)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=checkout)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return {k: (float(v[0]), str(v[1])) for k, v in data.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--against", default="")
    ap.add_argument("--one", type=int, default=-1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one >= 0:
        print(json.dumps(one_repeat(args.steps, args.one)))
        return
    run(500, AGENTS[0], 1)  # warm the action table and generator caches
    here, there = [], []
    for r in range(args.repeats):
        if args.against:
            # Both checkouts in fresh processes alike (a long-lived one keeps its memos).
            here.append(_child(args, r, os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
            there.append(_child(args, r, args.against))
        else:
            here.append(one_repeat(args.steps, r))
    print(f"pdk.rl env, classic16, masked random steps per CPU-second: median [best] of {args.repeats}")
    for agent in AGENTS:
        mine = [h[agent][0] for h in here]
        row = f"{agent:<18} {statistics.median(mine):>8.0f} [{max(mine):>6.0f}]"
        if there:
            other = [t[agent][0] for t in there]
            same = all(h[agent][1] == t[agent][1] for h, t in zip(here, there, strict=True))
            ratio = statistics.median(m / o for m, o in zip(mine, other, strict=True))
            row += f"   --against {statistics.median(other):>8.0f} [{max(other):>6.0f}] {ratio:5.2f}x"
            row += f"   same games: {'yes' if same else 'NO'}"
        print(row)


if __name__ == "__main__":
    main()
