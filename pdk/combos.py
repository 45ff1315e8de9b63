"""Combinations (牌型): their kinds, how a set of cards reads as one, and what beats what.

A *reading* is how a set of cards counts as a combination: its kind, its top rank (the
rank that is compared) and its units (chain length, or number of trios in a plane). The
same cards may read several ways (RULES.md D2); ``classify`` returns every reading and the
callers pick by the decision rules. The engine's internal move is the tuple
``(counts, kind, top, units)`` — cheap to build in the generator's hot loops.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from pdk import counts as C
from pdk.profile import Profile


class ComboKind(IntEnum):
    SINGLE = 0
    PAIR = 1
    PAIR_CHAIN = 2
    STRAIGHT = 3
    TRIO_WITH_TWO = 4
    PLANE = 5
    BOMB = 6

    @property
    def label(self) -> str:
        """The machine name used in JSON and records (``pair_chain``)."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> ComboKind:
        return cls[label.upper()]


# (counts, kind, top, units): the generator's and the state machine's unit of play.
Move = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Reading:
    """How a play counts: kind, compared rank, units (chain length / trio count)."""

    kind: ComboKind
    top: int
    units: int


def beats(kind: int, top: int, units: int, prev_kind: int, prev_top: int, prev_units: int) -> bool:
    """Same kind and units and higher, or a bomb over a non-bomb / a lower bomb."""
    if kind == ComboKind.BOMB:
        return prev_kind != ComboKind.BOMB or top > prev_top
    return kind == prev_kind and units == prev_units and top > prev_top


def _consecutive(ranks: list[int], chain: tuple[int, ...]) -> bool:
    if not ranks or ranks[0] not in chain:
        return False
    start = chain.index(ranks[0])
    return chain[start : start + len(ranks)] == tuple(ranks)


def classify(profile: Profile, counts: int, *, whole_hand: bool) -> list[Reading]:
    """Every reading of a set of cards under the profile, ignoring what the hand holds.

    ``whole_hand`` says the cards are the player's entire remaining hand, which is when a
    trio or plane may carry fewer kickers (the short last hand).
    """
    combos = profile.combinations
    chain = combos.chain_rank_indexes
    its = C.items(counts)
    n = sum(k for _, k in its)
    ranks = [r for r, _ in its]
    readings: list[Reading] = []
    if n == 0:
        return readings
    if len(its) == 1:
        r, k = its[0]
        if k == 1:
            readings.append(Reading(ComboKind.SINGLE, r, 1))
        elif k == 2:
            readings.append(Reading(ComboKind.PAIR, r, 1))
        elif k == 4 and profile.bombs.four:
            readings.append(Reading(ComboKind.BOMB, r, 1))
    if all(k == 2 for _, k in its) and len(its) >= max(2, combos.pair_chain.min_length):
        if combos.pair_chain.enabled and _consecutive(ranks, chain):
            readings.append(Reading(ComboKind.PAIR_CHAIN, ranks[-1], len(ranks)))
    if all(k == 1 for _, k in its) and len(its) >= combos.straight.min_length:
        if combos.straight.enabled and _consecutive(ranks, chain):
            readings.append(Reading(ComboKind.STRAIGHT, ranks[-1], len(ranks)))
    short = whole_hand and profile.rules.short_last_hand
    trio_k = combos.trio.kickers
    for t, k in its:
        if k != 3:
            continue
        rest = n - 3
        if rest == trio_k or (rest == 0 and combos.trio.bare) or (short and rest < trio_k):
            readings.append(Reading(ComboKind.TRIO_WITH_TWO, t, 1))
    if combos.plane.enabled:
        readings.extend(_plane_readings(profile, its, n, short))
    return readings


def _plane_readings(profile: Profile, its: list[tuple[int, int]], n: int, short: bool) -> list[Reading]:
    plane = profile.combinations.plane
    chain = profile.combinations.chain_rank_indexes
    trios = {r for r, k in its if k == 3 and r in chain}
    out = []
    for i in range(len(chain)):
        length = 0
        for r in chain[i:]:
            if r not in trios:
                break
            length += 1
            if length < plane.min_length:
                continue
            rest = n - 3 * length
            want = plane.kickers_per_trio * length
            if rest == want or (short and 0 <= rest < want):
                out.append(Reading(ComboKind.PLANE, r, length))
    return out


def preferred_lead(readings: list[Reading]) -> Reading:
    """D2 for a lead: the reading with the most trios, then the highest top rank."""

    def key(r: Reading) -> tuple[int, int, int]:
        trios = r.units if r.kind == ComboKind.PLANE else int(r.kind == ComboKind.TRIO_WITH_TWO)
        return (trios, r.kind == ComboKind.BOMB, r.top)

    return max(readings, key=key)
