"""Rank counts packed into one integer: the engine's working form of a hand or a play.

Five bits per rank (``count << 5 * rank``), enough for two packs (8 of a rank). Suits do
not decide combinations, so move generation runs on these integers and suits are attached
only when a play is made. Containment of ``part`` in ``whole`` is one subtraction: add a
guard bit above every field, subtract, and every guard survives exactly when no field of
``part`` exceeds the one in ``whole``.
"""

from __future__ import annotations

from collections.abc import Iterable

from pdk.cards import NUM_RANKS, rank_of

BITS = 5
FIELD = (1 << BITS) - 1
ONE = [1 << (BITS * r) for r in range(NUM_RANKS)]
GUARDS = sum(16 << (BITS * r) for r in range(NUM_RANKS))


def contains(whole: int, part: int) -> bool:
    """True when every rank count of ``part`` is at most that of ``whole``."""
    return ((whole + GUARDS) - part) & GUARDS == GUARDS


def count(counts: int, rank: int) -> int:
    return (counts >> (BITS * rank)) & FIELD


def from_cards(cards: Iterable[int]) -> int:
    c = 0
    for cid in cards:
        c += ONE[rank_of(cid)]
    return c


def from_mask(mask: int) -> int:
    c = 0
    while mask:
        low = mask & -mask
        c += ONE[rank_of(low.bit_length() - 1)]
        mask ^= low
    return c


def total(counts: int) -> int:
    n = 0
    while counts:
        n += counts & FIELD
        counts >>= BITS
    return n


def items(counts: int) -> list[tuple[int, int]]:
    """(rank, count) for every rank present, lowest rank first."""
    out = []
    r = 0
    while counts:
        n = counts & FIELD
        if n:
            out.append((r, n))
        counts >>= BITS
        r += 1
    return out


def rank_masks(counts: int) -> tuple[int, int, int]:
    """Bitmasks over ranks held at least once, twice and three times: what singles, pairs
    and trios (and the chains of each) can be made of."""
    m1 = m2 = m3 = 0
    r = 0
    while counts:
        n = counts & FIELD
        if n:
            bit = 1 << r
            m1 |= bit
            if n >= 2:
                m2 |= bit
                if n >= 3:
                    m3 |= bit
        counts >>= BITS
        r += 1
    return m1, m2, m3


def ranks_list(counts: int) -> list[int]:
    """Every rank once per card, lowest first: ``items`` flattened."""
    out: list[int] = []
    for r, n in items(counts):
        out.extend([r] * n)
    return out
