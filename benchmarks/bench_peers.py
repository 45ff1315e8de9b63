"""pdk beside its peers: OpenSpiel's dou_dizhu, RLCard and DouZero, side by side.

    python benchmarks/bench_peers.py [--repeats 5] [--scale 1] [--against DIR] [--venv /tmp/pdk-peers-venv]

The peers are installed into a throw-away virtual environment (``--venv``, made on first
use with ``pip install open_spiel==2.0.2 rlcard==1.2.0`` and ``douzero==1.1.0 --no-deps``:
DouZero's game needs only NumPy, its trainer PyTorch), never into pdk's. Every line is
measured in a fresh process (``python -c``), the lines rotated through each repeat so load
hits them alike, and reported as the median of ``--repeats``, per CPU-second of the child
(``time.process_time``; the two whole-process lines take the child's whole CPU time from
``resource.getrusage``). 斗地主 (dou_dizhu) is a close cousin: about 62 decisions a game
against classic16's 48, so games/s favours pdk a little.

Lines (pdk | peer):

* GameState random loop (``bench_engine.random_deal``) | OpenSpiel dou_dizhu driven from
  Python (``state.legal_actions()``, ``random.choice``, ``apply_action``);
* Playout loop (``bench_engine.playout_deal``) | the same;
* GameState loop | OpenSpiel's C++ loop (``pyspiel.evaluate_bots``, uniform random bots);
* the PettingZoo env with the documented agent (``examples/rl_random_agent.py``'s loop:
  an action from ``info["legal_actions"]``) | OpenSpiel's ``rl_environment`` with a random
  agent over ``time_step.observations["legal_actions"]``;
* the env with PettingZoo's ``action_space(agent).sample(mask)`` agent | the same;
* a whole ``pdk selfplay -p random --games 3000`` process | a Python process playing 3000
  dou_dizhu games; and ``pdk selfplay --games 1`` (start-up: imports, the first deal);
* GameState loop | RLCard ``env.run`` (doudizhu, random agents) and DouZero's ``GameEnv``
  (random agents).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS = ["open_spiel==2.0.2", "rlcard==1.2.0"]
NO_DEPS = ["douzero==1.1.0"]

# Each job: (name, which python: "pdk" or "peer", code printing one JSON number).
_PDK_LOOP = """
import sys, time
sys.path.insert(0, {bench!r})
from bench_engine import random_deal, playout_deal
try:
    from pdk.variants.registry import load_profile
except ImportError:  # before the package layout of issue 35
    from pdk.app.registry import load_profile
profile = load_profile("classic16")
for s in range(200):
    {fn}(profile, 10_000_000 + s)  # warm the generator's caches, as a long run has them
start = time.process_time()
for s in range({n}):
    {fn}(profile, s)
print({n} / (time.process_time() - start))
"""

_PDK_ENV = """
import random, time
import numpy as np
from pdk.rl import env as make_env
e = make_env("classic16")
rng = random.Random(0)
def run(steps, agent):
    done = 0
    e.reset(seed=1)
    for a in e.possible_agents:
        e.action_space(a).seed(1)
    while done < steps:
        for name in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            if agent == "ids":
                # The documented agent: the legal ids from the info (before they were
                # there, examples/rl_random_agent.py searched the int8 mask).
                legal = info.get("legal_actions")
                if legal is None:
                    legal = np.flatnonzero(obs["action_mask"]).tolist()
                e.step(legal[rng.randrange(len(legal))])
            else:
                e.step(int(e.action_space(name).sample(obs["action_mask"])))
            done += 1
        e.reset()
    return done
run(500, {agent!r})
start = time.process_time()
steps = run({n}, {agent!r})
print(steps / (time.process_time() - start))
"""

_OS_PY = """
import random, time
import pyspiel
game = pyspiel.load_game("dou_dizhu")
rng = random.Random(0)
def play():
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
for _ in range(100):
    play()
start = time.process_time()
for _ in range({n}):
    play()
print({n} / (time.process_time() - start))
"""

_OS_CPP = """
import time
import numpy as np
import pyspiel
game = pyspiel.load_game("dou_dizhu")
bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(3)]
rng = np.random.RandomState(0)
start = time.process_time()
for _ in range({n}):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, int(rng.randint(2**31)))
print({n} / (time.process_time() - start))
"""

_OS_RL = """
import random, time
from open_spiel.python import rl_environment
env = rl_environment.Environment("dou_dizhu")
rng = random.Random(0)
def run(steps):
    done = 0
    while done < steps:
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            legal = ts.observations["legal_actions"][p]
            ts = env.step([legal[rng.randrange(len(legal))]])
            done += 1
    return done
run(500)
start = time.process_time()
steps = run({n})
print(steps / (time.process_time() - start))
"""

_OS_PROCESS = """
import random
import pyspiel
game = pyspiel.load_game("dou_dizhu")
rng = random.Random(0)
for _ in range({n}):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
"""

_RLCARD = """
import time
import rlcard
from rlcard.agents import RandomAgent
env = rlcard.make("doudizhu", config={{"seed": 0}})
env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
env.run(is_training=False)
start = time.process_time()
for _ in range({n}):
    env.run(is_training=False)
print({n} / (time.process_time() - start))
"""

_DOUZERO = """
import random, time
import numpy as np
from douzero.env.game import GameEnv

class Random:
    def act(self, infoset):
        return random.choice(infoset.legal_actions)

random.seed(0)
deck = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17] * 4 + [20, 30]
def one(env):
    cards = list(deck)
    random.shuffle(cards)
    env.card_play_init({{"landlord": sorted(cards[:20]), "landlord_up": sorted(cards[20:37]),
                        "landlord_down": sorted(cards[37:54]), "three_landlord_cards": sorted(cards[17:20])}})
    while not env.game_over:
        env.step()
    env.reset()
env = GameEnv({{p: Random() for p in ("landlord", "landlord_up", "landlord_down")}})
for _ in range(20):
    one(env)
start = time.process_time()
for _ in range({n}):
    one(env)
print({n} / (time.process_time() - start))
"""


def jobs(scale: float, pdk_root: str = "") -> dict[str, tuple[str, str]]:
    """name -> (interpreter, code)."""

    def n(x: int) -> int:
        return max(1, int(x * scale))

    bench = str(Path(pdk_root) / "benchmarks") if pdk_root else str(HERE)  # bench_engine's loops
    return {
        "pdk_gamestate": ("pdk", _PDK_LOOP.format(bench=bench, fn="random_deal", n=n(3000))),
        "pdk_playout": ("pdk", _PDK_LOOP.format(bench=bench, fn="playout_deal", n=n(3000))),
        "pdk_env_ids": ("pdk", _PDK_ENV.format(agent="ids", n=n(100_000))),
        "pdk_env_sample": ("pdk", _PDK_ENV.format(agent="sample", n=n(30_000))),
        "pdk_selfplay_3000": ("pdk-process", f"selfplay -p random --games {n(3000)} -w 1 --seed 1"),
        "pdk_selfplay_1": ("pdk-process", "selfplay -p random --games 1 -w 1 --seed 1"),
        "os_python": ("peer", _OS_PY.format(n=n(3000))),
        "os_cpp": ("peer", _OS_CPP.format(n=n(20_000))),
        "os_rl_env": ("peer", _OS_RL.format(n=n(100_000))),
        "os_process_3000": ("peer-process", _OS_PROCESS.format(n=n(3000))),
        "rlcard": ("peer", _RLCARD.format(n=n(100))),
        "douzero": ("peer", _DOUZERO.format(n=n(300))),
    }


def ensure_venv(venv: Path) -> Path:
    python = venv / "bin" / "python"
    if python.exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PEERS], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", *NO_DEPS], check=True)
    return python


def run_job(kind: str, code: str, peer: Path, pdk_root: str = "") -> float | None:
    """One fresh process: the rate it prints, or its whole CPU time for a process line.
    ``pdk_root``: another checkout whose ``pdk`` the pdk lines import (``PYTHONPATH``)."""
    env = dict(os.environ)
    if pdk_root and kind.startswith("pdk"):
        env["PYTHONPATH"] = os.path.abspath(pdk_root)
    if kind.endswith("process"):
        if kind == "pdk-process":
            pdk = shutil.which("pdk") or str(Path(sys.executable).parent / "pdk")
            cmd = [pdk, *code.split()]
        else:
            cmd = [str(peer), "-c", code]
        probe = (
            "import resource, subprocess, sys, json\n"
            "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(json.dumps(u.ru_utime + u.ru_stime))\n"
        )
        out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, env=env)
    else:
        python = sys.executable if kind == "pdk" else str(peer)
        cwd = pdk_root or ROOT
        out = subprocess.run(
            [python, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd, env=env
        )
    if out.returncode != 0:
        print(f"  ({kind} job failed: {out.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
        return None
    return float(out.stdout.strip().splitlines()[-1])


ROWS = [
    (
        "GameState random loop, deals/s",
        "pdk_gamestate",
        "OpenSpiel dou_dizhu from Python, games/s",
        "os_python",
    ),
    ("Playout loop, deals/s", "pdk_playout", "OpenSpiel dou_dizhu from Python, games/s", "os_python"),
    (
        "GameState random loop, deals/s",
        "pdk_gamestate",
        "OpenSpiel C++ loop (evaluate_bots), games/s",
        "os_cpp",
    ),
    (
        "env + documented agent (legal ids), steps/s",
        "pdk_env_ids",
        "OpenSpiel rl_environment, steps/s",
        "os_rl_env",
    ),
    ("env + sample(mask) agent, steps/s", "pdk_env_sample", "OpenSpiel rl_environment, steps/s", "os_rl_env"),
    (
        "pdk selfplay -p random --games 3000, CPU s",
        "pdk_selfplay_3000",
        "Python process, 3000 dou_dizhu games, CPU s",
        "os_process_3000",
    ),
    ("GameState random loop, deals/s", "pdk_gamestate", "RLCard doudizhu env.run, games/s", "rlcard"),
    ("GameState random loop, deals/s", "pdk_gamestate", "DouZero GameEnv, games/s", "douzero"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--venv", default="/tmp/pdk-peers-venv", help="the peers' throw-away venv")
    ap.add_argument(
        "--scale", type=float, default=1.0, help="the work per line, times this (0.1: quick, noisier)"
    )
    ap.add_argument(
        "--against",
        default="",
        help="another checkout (git archive of main) measured too, line by line interleaved",
    )
    ap.add_argument("--json", default="", help="also write every run's figure to this JSON file")
    ap.add_argument(
        "--pdk-root", default="", help="measure the pdk of another checkout (e.g. git archive of main)"
    )
    args = ap.parse_args()
    peer = ensure_venv(Path(args.venv))
    todo: dict[str, tuple[str, str, str]] = {
        k: (kind, code, args.pdk_root) for k, (kind, code) in jobs(args.scale, args.pdk_root).items()
    }
    if args.against:
        for k, (kind, code) in jobs(args.scale, args.against).items():
            if kind.startswith("pdk"):
                todo["before:" + k] = (kind, code, args.against)
    names = list(todo)
    got: dict[str, list[float]] = {k: [] for k in names}
    for r in range(args.repeats):
        order = names[r % len(names) :] + names[: r % len(names)]  # rotated, interleaved
        for name in order:
            kind, code, root = todo[name]
            value = run_job(kind, code, peer, root)
            if value is not None:
                got[name].append(value)
    med = {k: statistics.median(v) for k, v in got.items() if v}
    if args.json:
        Path(args.json).write_text(json.dumps({"medians": med, "runs": got}, indent=1))
    print(f"median of {args.repeats}, fresh process per line, per CPU-second (process lines: CPU s)")
    for prefix, title in ([("before:", f"before ({args.against})")] if args.against else []) + [("", "now")]:
        print(f"-- {title}")
        print(f"{'pdk':<46} {'':>10}  {'peer':<46} {'':>10}  pdk/peer")
        for mine, a, theirs, b in ROWS:
            if prefix + a not in med or b not in med:
                continue
            x, y = med[prefix + a], med[b]
            ratio = y / x if a.startswith("pdk_selfplay") else x / y  # CPU seconds: less is better
            print(f"{mine:<46} {x:>10,.2f}  {theirs:<46} {y:>10,.2f}  {ratio:6.2f}")
        if prefix + "pdk_selfplay_1" in med:
            one = med[prefix + "pdk_selfplay_1"]
            print(f"pdk selfplay -p random --games 1 (start-up and one deal): {one:.3f} CPU s")


if __name__ == "__main__":
    main()
