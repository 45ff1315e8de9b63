"""The ``learned`` bot choosing only among normal's first few choices (an experiment: does
restricting the network to the plays normal considers, where its training data is dense,
beat letting it pick any legal play, where rarely played choices have noisy values?).

    PDK_WEIGHTS=pdk/bots/weights/classic16.npz python benchmarks/bench_strength.py \
        --players benchmarks/experiments/learned_among.py:top3,normal,normal --deals 300
"""

from __future__ import annotations

from pdk.bots.learned import LearnedBot


def top2(seed: int = 0) -> LearnedBot:
    return LearnedBot(seed, among=2, name="learned-top2")


def top3(seed: int = 0) -> LearnedBot:
    return LearnedBot(seed, among=3, name="learned-top3")
