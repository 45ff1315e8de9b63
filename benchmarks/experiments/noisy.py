"""A noisier normal bot, as an opponent that does not play exactly like normal (issue 27:
the exact belief must not cost strength against such players).

``noisy``: normal's first choice, except that one real decision in five (seeded, per
position) takes normal's second choice instead — still sensible play, but not normal's.

    python benchmarks/bench_exact.py --players benchmarks/experiments/noisy.py:noisy
"""

from __future__ import annotations

from pdk.bots.normal import Judge
from pdk.engine.combos import Move
from pdk.engine.deal import Rng, derive_seed
from pdk.engine.state import PlayerView


class Noisy:
    name = "noisy"

    def __init__(self, seed: int = 0, wander: float = 0.2) -> None:
        self.seed = seed
        self.wander = wander

    def choose(self, view: PlayerView) -> Move | None:
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if not moves:
            return None
        if len(moves) == 1 and not can_pass:
            return moves[0]
        ranked = Judge(view).rank(moves, can_pass)
        rng = Rng(derive_seed(self.seed, len(view.history), view.seat))
        if len(ranked) > 1 and ranked[0][0] < 1e5 and rng.below(1000) < self.wander * 1000:
            return ranked[1][1]
        return ranked[0][1]


def noisy(seed: int = 0) -> Noisy:
    return Noisy(seed)
