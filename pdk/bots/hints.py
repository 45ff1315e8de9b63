"""Hints for a human player: the legal plays best first (the ``pdk play`` hint key and
托管 use this ordering)."""

from __future__ import annotations

from pdk import counts as C
from pdk.combos import Move
from pdk.movegen import BOMB
from pdk.state import PlayerView


def hints(view: PlayerView) -> list[Move]:
    """Every legal play for the seat, best first: low ranks before high, more cards
    before fewer, bombs last."""
    moves = view.position().legal_moves()
    return sorted(moves, key=lambda m: (m[1] == BOMB, m[2], -C.total(m[0]), m[1]))
