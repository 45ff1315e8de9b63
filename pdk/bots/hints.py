"""Hints for a human player: the legal plays best first (the ``pdk play`` hint key and
托管 use this ordering).

The order is the ``normal`` bot's judgement (hand planning, card counting, 报单 danger),
so the first hint is what that bot would play; every legal play is listed, none trimmed.
"""

from __future__ import annotations

from pdk.bots.normal import Judge
from pdk.engine.combos import Move
from pdk.engine.state import PlayerView


def hints(view: PlayerView) -> list[Move]:
    """Every legal play for the seat, best first (passing is not a hint)."""
    moves = view.position().legal_moves()
    if len(moves) <= 1:
        return moves
    ranked = Judge(view).rank(moves, can_pass=False, trim=False)
    return [m for _, m in ranked if m is not None]
