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
    """Who holds what at the start: hands as card-id bitmasks, plus undealt cards.

    ``set_aside`` holds every card no player holds: random cards put aside and any hidden
    dummy hand (two-player). ``lead_card`` is the card that made ``leader`` the leader, or
    ``None`` when the leader was chosen otherwise (the last deal's winner).
    """

    hands: tuple[int, ...]
    set_aside: int
    leader: int
    lead_card: int | None = None


def lead_order(profile: Profile) -> list[int]:
    """The cards that decide the leader, first held first: the lead card, then (with
    ``lead.fallback``) the next cards of its suit upward, then spades, hearts, clubs,
    diamonds from the lowest (seed 001: "按黑桃4、5…类推 … 若无黑桃则按红桃、梅花、方块")."""
    lead = card_from_name(profile.lead.card)
    order = [lead]
    if not profile.lead.fallback:
        return order
    suit, rank = lead & 3, (lead & 63) >> 2
    suits = [suit] + [s for s in range(4) if s != suit]
    for s in suits:
        start = rank + 1 if s == suit else 0
        for r in range(start, 13):
            order.append(r * 4 + s)
    return order


def find_lead(profile: Profile, hands: tuple[int, ...]) -> tuple[int, int | None]:
    """(seat, card): who leads the deal and which card of theirs decided it."""
    for base in lead_order(profile):
        # With two packs the copies of a card are written alike, so the lower seat holding
        # either copy leads: the choice survives a record round trip.
        for seat, hand in enumerate(hands):
            for cid in (base, base + 64):
                if hand >> cid & 1:
                    return seat, cid
    return 0, None


def find_leader(profile: Profile, hands: tuple[int, ...]) -> int:
    """The holder of the profile's lead card; if it was set aside, the fallback holder."""
    return find_lead(profile, hands)[0]


def deal_from_hands(
    profile: Profile, hands: tuple[int, ...], set_aside: int = 0, leader: int | None = None
) -> Deal:
    """A deal of given hands. ``leader`` overrides the lead card (the match-level
    winner-leads rule); the first play is then free."""
    if leader is not None:
        if not 0 <= leader < len(hands):
            raise ValueError(f"leader must be a seat 0..{len(hands) - 1}, not {leader}")
        return Deal(hands, set_aside, leader, None)
    seat, card = find_lead(profile, hands)
    return Deal(hands, set_aside, seat, card)


def deal(profile: Profile, seed: int, leader: int | None = None) -> Deal:
    """Shuffle the profile's deck with ``seed`` and deal every hand.

    Hidden dummy hands are dealt after the players' hands (so a two-player deal is the
    three-player deal with the last hand face down) and join the set-aside cards.
    ``leader`` is for the winner-leads match rule (see ``next_leader``).
    """
    cards = list(profile.deck_cards)
    Rng(seed).shuffle(cards)
    size = profile.hand_size
    hands = tuple(mask_of(cards[i * size : (i + 1) * size]) for i in range(profile.players))
    aside = mask_of(cards[profile.players * size :])
    return deal_from_hands(profile, hands, aside, leader)


def next_leader(profile: Profile, previous_winner: int | None) -> int | None:
    """The match-level lead rule: who leads the next deal of a match.

    With ``lead.winner_leads`` (seed 003, method 1) the last deal's winner leads from the
    second deal on; pass the result to ``deal(profile, seed, leader=...)``. ``None`` means
    the lead card decides, as in the first deal and in every profile without the knob.
    """
    if profile.lead.winner_leads and previous_winner is not None:
        return previous_winner
    return None
