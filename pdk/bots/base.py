"""What a bot is: given what its seat may see, a legal move or a pass.

Kept apart from the level registry in ``pdk.bots`` so that each level's module can name
the protocol without importing the package that lists the levels (no cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from pdk.engine.combos import Move
from pdk.engine.state import PlayerView


class Bot(Protocol):
    """A player: given what its seat may see, pick a legal move (``None`` = pass)."""

    name: str

    def choose(self, view: PlayerView) -> Move | None: ...


class LegalOnly(Protocol):
    """A bot that decides from the legal plays alone (``random``): besides ``choose`` it
    has ``choose_among``, which must make the very choice ``choose`` would, so that the
    harness can hand it the plays without building a view each turn."""

    def choose_among(self, moves: Sequence[Move], can_pass: bool) -> Move | None: ...


BotFactory = Callable[[int], Bot]
