"""The one way to list legal plays: the ``Generator`` protocol, and ``generator_for``, which
picks the implementation for a profile once.

Two implementations stand behind it. ``pdk.engine.movegen.MoveGenerator`` builds plays
from packed rank counts with the classic knobs' shapes hard-wired, which is what makes
random deals and bot search fast; ``pdk.engine.movegen_general.GeneralGenerator`` covers
every knob by asking the rule core (``pdk.engine.judge``) about each candidate. A profile's
``classic_generation`` says which one is exact for it; callers never choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from pdk.engine.combos import Move
from pdk.engine.movegen import MoveGenerator
from pdk.engine.movegen_general import GeneralGenerator
from pdk.engine.profile import Profile


class Generator(Protocol):
    """Legal plays for one profile, by rank counts (suits only where ``suited``)."""

    profile: Profile
    # Straight flushes need the cards, not just rank counts: pass ``hand_mask``.
    suited: bool

    def leads(self, counts: int, next_has_one: bool = False) -> list[Move]: ...

    def follows(self, counts: int, prev: Move, next_has_one: bool = False) -> list[Move]: ...

    def moves(
        self, counts: int, prev: Move | None, next_has_one: bool = False, hand_mask: int = 0
    ) -> list[Move]: ...

    def smallest_follow(self, counts: int, prev: Move) -> int | None: ...

    def can_pass(self, prev: Move | None, moves: Sequence[Move]) -> bool: ...


@lru_cache(maxsize=64)
def generator_for(profile: Profile) -> Generator:
    """The generator for a profile: the fast rank-count one when it covers every knob the
    profile sets (``Profile.classic_generation``), else the general one."""
    if profile.classic_generation:
        return MoveGenerator(profile)
    return GeneralGenerator(profile)
