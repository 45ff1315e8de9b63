"""Reproducible deals (RULES.md D6).

The shuffle uses its own SplitMix64 generator and an unbiased Fisher–Yates, not Python's
``random``, so a seed gives the same deal on every machine and Python version.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pdk.cards import mask_of
from pdk.profile import Profile, card_from_name

_MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """An endless stream of 64-bit words from one seed (Steele, Lea & Flood 2014)."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


class Rng:
    """Deterministic integers for shuffles and seeded bots; portable across platforms."""

    def __init__(self, seed: int) -> None:
        self._words = splitmix64(seed)

    def below(self, n: int) -> int:
        """Uniform in ``range(n)`` by rejection, so no residue bias."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = next(self._words)
            if x < limit:
                return x % n

    def random(self) -> float:
        return (next(self._words) >> 11) / float(1 << 53)

    def shuffle(self, items: list[int]) -> None:
        """Fisher–Yates with multiply-shift indexes (bias below 2**-58, far under any
        measurable effect); SplitMix64 is inlined because dealing is on the self-play hot
        path. Changing this changes every seeded deal: a test pins one."""
        state = next(self._words)
        for i in range(len(items) - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what at the start: hands as card-id bitmasks, plus undealt cards."""

    hands: tuple[int, ...]
    set_aside: int
    leader: int


def find_leader(profile: Profile, hands: tuple[int, ...]) -> int:
    """The holder of the profile's lead card; if it was set aside, the holder of the lowest
    spade, else the lowest heart, club, diamond (seed 001's fallback order)."""
    lead = card_from_name(profile.lead.card)
    order = [lead] + [r * 4 + s for s in range(4) for r in range(13)]
    for cid in order:
        for seat, hand in enumerate(hands):
            if hand >> cid & 1:
                return seat
    return 0


def deal_from_hands(profile: Profile, hands: tuple[int, ...], set_aside: int = 0) -> Deal:
    return Deal(hands, set_aside, find_leader(profile, hands))


def deal(profile: Profile, seed: int) -> Deal:
    """Shuffle the profile's deck with ``seed`` and deal every hand."""
    cards = list(profile.deck_cards)
    Rng(seed).shuffle(cards)
    size = profile.hand_size
    hands = tuple(mask_of(cards[i * size : (i + 1) * size]) for i in range(profile.players))
    aside = mask_of(cards[profile.players * size :])
    return deal_from_hands(profile, hands, aside)
