"""Rank counts packed into one integer: the engine's working form of a hand or a play.

Five bits per rank (``count << 5 * rank``), enough for two packs (8 of a rank). Suits do
not decide combinations, so move generation runs on these integers and suits are attached
only when a play is made. Containment of ``part`` in ``whole`` is one subtraction: add a
guard bit above every field, subtract, and every guard survives exactly when no field of
``part`` exceeds the one in ``whole``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from pdk.engine.cards import NUM_RANKS, cards_of, rank_of

V = TypeVar("V")

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


def _byte_tables() -> tuple[list[int], ...]:
    """For each byte of a card mask, its byte value → the counts it adds.

    A byte holds two ranks' four suits (card ids ``rank * 4 + suit``), so byte ``k`` covers
    ranks ``2k`` and ``2k + 1``; its entry is both nibbles' popcounts, already shifted
    into their 5-bit fields.
    """
    pair = [bin(b & 15).count("1") + (bin(b >> 4).count("1") << BITS) for b in range(256)]
    return tuple([n << (2 * BITS * k) for n in pair] for k in range(8))


_B0, _B1, _B2, _B3, _B4, _B5, _B6, _B7 = _byte_tables()


def from_mask(mask: int) -> int:
    """The rank counts of a card bitmask (either pack: ids ``copy * 64 + rank * 4 + suit``).

    Eight table look-ups per pack, one per byte, instead of one step per card: every
    ``GameState`` and every bot turns hands into counts (classic16: ~0.5 µs a hand
    against ~3 µs card by card).
    """
    if mask >> 64:
        if mask >> 128:  # a third pack: not a deal pdk makes, but count it all the same
            return from_mask(mask & 0xFFFFFFFFFFFFFFFF) + from_mask(mask >> 64)
        b = mask.to_bytes(16, "little")
        return (
            _B0[b[0]] + _B1[b[1]] + _B2[b[2]] + _B3[b[3]] + _B4[b[4]] + _B5[b[5]] + _B6[b[6]] + _B7[b[7]]
            + _B0[b[8]] + _B1[b[9]] + _B2[b[10]] + _B3[b[11]]
            + _B4[b[12]] + _B5[b[13]] + _B6[b[14]] + _B7[b[15]]
        )  # fmt: skip
    b = mask.to_bytes(8, "little")
    return _B0[b[0]] + _B1[b[1]] + _B2[b[2]] + _B3[b[3]] + _B4[b[4]] + _B5[b[5]] + _B6[b[6]] + _B7[b[7]]


# total(): add neighbouring 5-bit fields into 10-bit ones, then one multiplication sums all
# eight 10-bit fields into the top one. No field or partial sum can exceed 15 * 31 < 1024,
# so nothing carries between fields.
_EVEN_FIELDS = sum(FIELD << (2 * BITS * k) for k in range(8))
_TENS = sum(1 << (2 * BITS * k) for k in range(8))
_TOP = 2 * BITS * 7


def total(counts: int) -> int:
    """How many cards ``counts`` holds: the sum of every rank's count."""
    return ((((counts & _EVEN_FIELDS) + ((counts >> BITS) & _EVEN_FIELDS)) * _TENS) >> _TOP) & 1023


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


class Table(dict[int, V]):
    """A dict that fills itself: ``table[key]`` builds a missing entry once. A hit is a
    plain subscript with no Python call, which matters on the per-turn paths (legal-play
    generation, the bots' hand planning)."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[int], V]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: int) -> V:
        value = self[key] = self.build(key)
        return value


def _compact_spread(spread: int) -> int:
    """Rank bitmask from a mask with at most one bit, the lowest, in each 5-bit field."""
    m = 0
    r = 0
    while spread:
        if spread & 1:
            m |= 1 << r
        spread >>= BITS
        r += 1
    return m


LOW_BITS = sum(ONE)  # bit 0 of every field
COMPACT: Table[int] = Table(_compact_spread)  # at most 2**15 keys: one per rank mask
SET_BITS: Table[list[int]] = Table(cards_of)  # a rank mask's ranks, lowest first


def rank_masks(counts: int) -> tuple[int, int, int]:
    """Bitmasks over ranks held at least once, twice and three times: what singles, pairs
    and trios (and the chains of each) can be made of.

    Worked on every field at once from the count bits (a count c >= 3 exactly when bit 2
    or higher is set, or bits 0 and 1 both are), then each spread mask is compacted to one
    bit per rank by a table lookup: the bots' hand planning asks this ~100,000 times a
    second, and a loop over ranks cost ten times as much.
    """
    b0 = counts & LOW_BITS
    b1 = (counts >> 1) & LOW_BITS
    high = ((counts >> 2) | (counts >> 3) | (counts >> 4)) & LOW_BITS
    return COMPACT[b0 | b1 | high], COMPACT[b1 | high], COMPACT[(b0 & b1) | high]


def ranks_list(counts: int) -> list[int]:
    """Every rank once per card, lowest first: ``items`` flattened."""
    out: list[int] = []
    for r, n in items(counts):
        out.extend([r] * n)
    return out
