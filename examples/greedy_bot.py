"""A small plug-in bot for ``pdk selfplay``: sheds as many cards as it can, as low as it can.

Run it against the built-in bots (every deal in every seat arrangement, so the luck of the
cards cancels out)::

    pdk selfplay --players examples/greedy_bot.py:GreedyBot,normal,normal --duplicate -n 200

What a bot receives: ``choose(view)`` is called with a ``pdk.engine.state.PlayerView`` — its own
hand, every seat's card count, the public history and the current trick, never another
hand. ``view.position().legal_moves()`` lists every legal play as a ``Move``, the tuple
``(counts, kind, top, units, suit)``: the cards by rank, the ``ComboKind``, the rank compared,
the chain length (or bomb class), and the suit of a straight flush (-1 for any other play).
``choose`` returns one of those moves, or ``None`` to pass. The harness checks a plug-in's
answer: an illegal move stops the match.

``pdk`` builds a bot per seat and game as ``GreedyBot(seed)``; a bot that draws random
numbers should draw them from that seed, so that a run with the same ``--seed`` repeats.
"""

from __future__ import annotations

from pdk.engine import counts
from pdk.engine.combos import ComboKind, Move
from pdk.engine.state import PlayerView


class GreedyBot:
    """Leads the play that gets rid of the most cards (lowest first among equals); follows
    with the lowest play that beats. It keeps its bombs: it bombs only when it may not pass.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # unused: this bot never draws at random

    def choose(self, view: PlayerView) -> Move | None:
        position = view.position()
        moves = position.legal_moves()
        if not moves:
            return None  # nothing beats the play on the table: pass
        plain = [m for m in moves if m.kind != ComboKind.BOMB]
        if view.prev is None:  # leading: any combination may open the trick
            return max(plain or moves, key=lambda m: (counts.total(m.counts), -m.top))
        if not plain and position.can_pass(moves):
            return None  # only a bomb would beat it, and passing is allowed: keep the bomb
        return min(plain or moves, key=lambda m: (m.top, counts.total(m.counts)))
