"""The baseline bots: ``random`` (uniform over legal plays) and ``easy`` (a beginner)."""

from __future__ import annotations

from collections.abc import Sequence

from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng
from pdk.engine.movegen import BOMB
from pdk.engine.state import PlayerView

# Words a random bot's generator buffers at first: it draws one a turn, 16 in an average
# classic16 deal and 26 at most in 3,000, so 24 serve 99.6% of them in one block where 16
# left half the bots to work out a second block of 64, at three times the cost.
_DEAL_DRAWS = 24


class RandomBot:
    """Uniform over the legal choices, a pass counting as one when it is allowed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed, first=_DEAL_DRAWS)

    def choose(self, view: PlayerView) -> Move | None:
        # The plays the engine generated for this view, read in place (never changed here).
        moves = view.legal
        if moves is None:
            moves = view.legal_moves()
        return self.choose_among(moves, view.can_pass(moves))

    def choose_among(self, moves: Sequence[Move], can_pass: bool) -> Move | None:
        """The same choice from the legal plays alone: the harness hands them over without
        building a view (``pdk.bots.base.LegalOnly``), as millions of baseline deals want."""
        n = len(moves) + (1 if can_pass else 0)
        if n == 0:  # no legal choice at all: only a broken position gets here
            return None
        i = self.rng.below(n)
        return moves[i] if i < len(moves) else None


class EasyBot:
    """A beginner: always plays the lowest play that works, never passes when it can play,
    and leads its lowest card as a single or the smallest combination containing it."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # it never draws: its choice is a function of the position

    def choose(self, view: PlayerView) -> Move | None:
        moves = view.legal_moves()
        if not moves:
            return None
        # Lowest rank first; among equals prefer non-bombs and fewer cards.
        return min(moves, key=lambda m: (m.kind == BOMB, m.top, -C.total(m.counts)))
