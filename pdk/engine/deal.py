"""Reproducible deals (docs/rules.md D6).

The shuffle uses its own SplitMix64 generator and an unbiased Fisher–Yates, not Python's
``random``, so a seed gives the same deal on every machine and Python version.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from pdk.engine.cards import rank_of, suit_of
from pdk.engine.profile import Profile, card_from_name

_MASK64 = (1 << 64) - 1
_BATCH = 64  # words ``Rng`` buffers at a time
_FIRST_BATCH = 16  # …and the first time, unless its owner says how many it will draw
T = TypeVar("T")


def splitmix64(seed: int) -> Iterator[int]:
    """An endless stream of 64-bit words from one seed (Steele, Lea & Flood 2014)."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


SEED_BITS = 53  # derived seeds stay exact in JSON readers that use doubles
# One odd multiplier per position of a part, so that (a, b) and (b, a) mix differently.
_PART_WEIGHTS = (
    0x100000001B3,
    0x9E3779B97F4A7C15,
    0xD1B54A32D192ED03,
    0xAEF17502108EF2D9,
    0xF1357AEA2E62A9C5,
)
_BOT_SALT = 1


def derive_seed(*parts: int) -> int:
    """The one way pdk derives a seed from others (a run's seed and a deal's index, a deal's
    seed and a seat, a bot's seed and a move number): well mixed, independent of how many
    siblings there are, the same on every machine.

    >>> derive_seed(5, 0) == deal_seed(5, 0)
    True
    >>> 0 <= derive_seed(1, 2, 3) < 2**SEED_BITS
    True
    """
    if not 1 <= len(parts) <= len(_PART_WEIGHTS):
        raise ValueError(f"derive_seed takes 1 to {len(_PART_WEIGHTS)} parts, got {len(parts)}")
    total = 0
    for p, w in zip(parts, _PART_WEIGHTS, strict=False):
        total += p * w
    # ``splitmix64(total)``'s first word, worked out inline: every game derives four seeds,
    # and starting a generator for one word cost more than the arithmetic.
    z = (total + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> (64 - SEED_BITS)


def deal_seed(run_seed: int, index: int) -> int:
    """The seed of deal ``index`` (from 0) of a run, a match or a play session: ``pdk play
    --seed N`` and ``pdk selfplay --seed N`` deal the same deals."""
    return derive_seed(run_seed, index)


def bot_seed(deal_seed: int, seat: int) -> int:
    """The seed a seat's bot is built with for one deal, wherever the deal is played or
    replayed, so ``pdk replay --explain --bot B`` asks the very bot that played."""
    return derive_seed(deal_seed, seat, _BOT_SALT)


class Rng:
    """Deterministic integers for shuffles and seeded bots; portable across platforms.

    The same SplitMix64 stream as ``splitmix64(seed)``, made cheap because a random-bot
    deal draws about fifty numbers: the state is a plain int (resuming a Python generator
    per draw cost more than the arithmetic), and ``below`` takes its words from a buffer
    filled 64 at a time by ``_stream_words``, which works out a block of the stream in
    one go (about 0.1 µs a word against 0.4 µs one by one; a block costs as much as
    fifteen single draws, and most generators here draw dozens or thousands). The buffer
    changes no result: the words are those the stream would give one by one.
    """

    __slots__ = ("_ahead", "_batch", "_state")

    def __init__(self, seed: int, first: int = _FIRST_BATCH) -> None:
        self._state = seed & _MASK64  # the state after the last word drawn or buffered
        self._ahead: list[int] = []  # the next words of the stream, the next one last
        # The first block is small (a generator made for one deal or one move may draw a
        # few words only), or ``first`` words when the owner knows it draws about that
        # many; the later ones ``_BATCH``. The blocks change no word drawn.
        self._batch = first

    def _refill(self) -> int:
        """Buffer the stream's next words (a block) and draw the first of them."""
        k = self._batch
        self._batch = _BATCH
        self._ahead = ahead = _stream_words(self._state, k)
        self._state = (self._state + k * 0x9E3779B97F4A7C15) & _MASK64
        return ahead.pop()

    def below(self, n: int) -> int:
        """Uniform in ``range(n)`` by rejection, so no residue bias.

        A word ``z`` is rejected when it lies in the top ``2**64 % n`` values (fewer than
        ``n``). For ``n <= 2**32`` every ``z`` under ``2**64 - 2**32`` is therefore
        accepted without working out the limit: that is the path nearly every draw takes.
        """
        ahead = self._ahead
        z = ahead.pop() if ahead else self._refill()
        if z < 0xFFFFFFFF00000000 and n <= 0x100000000:
            return z % n
        # z - z % n is the multiple of n at or below z; it is under the limit exactly when
        # a whole block of n values fits below 2**64.
        if z - z % n <= 0x10000000000000000 - n:
            return z % n
        return self.below(n)

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates with multiply-shift indexes (bias below 2**-58, far under any
        measurable effect). The shuffle takes one word of this generator and runs its own
        SplitMix64 stream from it, so its swaps can be worked out all at once
        (``_swap_indexes``). Changing this changes every seeded deal: a test pins one."""
        if self._ahead:
            word = self._ahead.pop()
        else:
            # A deal's generator only ever shuffles: one plain SplitMix64 step, no buffer.
            self._state = state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            word = z ^ (z >> 31)
        n = len(items)
        if n < 2:
            return
        i = n - 1
        for j in _swap_indexes(word, n):
            items[i], items[j] = items[j], items[i]
            i -= 1


# Many SplitMix64 words at once (SWAR). Word k of a stream is mix(state + k * golden): the
# words do not depend on each other, so k of them can be mixed together on one big integer
# with a 128-bit lane per word. Each lane value is kept below 2**64 before every
# multiplication, so a lane's product (under 2**128) never spills into the next lane; a
# dozen operations on one long integer replace a dozen per word.
_LANE = 128


@lru_cache(maxsize=128)
def _lanes(k: int) -> tuple[int, int, int]:
    """For ``k`` lanes: 1 in every lane, lane ``t``'s offset ``(t + 1) * golden mod 2**64``,
    and the low 64 bits of every lane."""
    units = sum(1 << (_LANE * t) for t in range(k))
    offsets = sum((((t + 1) * 0x9E3779B97F4A7C15) & _MASK64) << (_LANE * t) for t in range(k))
    return units, offsets, units * _MASK64


def _mixed_lanes(state: int, k: int) -> int:
    """The ``k`` words after ``state``: lane ``t``'s low 64 bits hold word ``t + 1``.
    The lanes' high halves hold junk from the next lane; callers mask or skip them."""
    units, offsets, lanes = _lanes(k)
    s = (state * units + offsets) & lanes
    z = (((s ^ (s >> 30)) & lanes) * 0xBF58476D1CE4E5B9) & lanes
    z = (((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB) & lanes
    return z ^ (z >> 31)


# Where the lanes' low halves sit among the 64-bit words of ``to_bytes(..., sys.byteorder)``,
# last lane first: little-endian words run (low, high) from lane 0 up, big-endian words
# (high, low) from the last lane down.
_LOW_HALVES_LAST_FIRST = slice(-2, None, -2) if sys.byteorder == "little" else slice(1, None, 2)


def _stream_words(state: int, k: int) -> list[int]:
    """The ``k`` words after ``state``, last word first (so ``pop`` draws them in order)."""
    z = _mixed_lanes(state, k)
    return memoryview(z.to_bytes(16 * k, sys.byteorder)).cast("Q")[_LOW_HALVES_LAST_FIRST].tolist()


@lru_cache(maxsize=128)
def _multiplier_masks(n: int) -> tuple[int, ...]:
    """Per bit ``b``: the low halves of the lanes ``t`` whose bound ``n - t`` has bit ``b``."""
    return tuple(
        sum(_MASK64 << (_LANE * t) for t in range(n - 1) if (n - t) >> b & 1) for b in range(n.bit_length())
    )


def _swap_indexes(word: int, n: int) -> bytes | list[int]:
    """The Fisher–Yates swap partners for ``items[n-1], items[n-2], …, items[1]``.

    Step ``t + 1`` of the shuffle's stream (seeded by ``word``) gives the index
    ``(mix(word + (t + 1) * golden) * (n - t)) >> 64``; up to 256 items (every deck) all
    ``n - 1`` are worked out at once in lanes, which halves the cost of a deal.
    """
    if n > 256:
        # Indexes past one byte, and lanes that would grow quadratically: word by word.
        words = splitmix64(word)
        return [(next(words) * (n - t)) >> 64 for t in range(n - 1)]
    z = _mixed_lanes(word, n - 1)
    # Multiply each lane by its own bound n - t, one bit of the bounds at a time (the
    # masks also drop the junk in the high halves).
    product = 0
    for shift, mask in enumerate(_multiplier_masks(n)):
        product += (z & mask) << shift
    # The index is each lane's product >> 64: the low byte of the lane's upper half.
    return (product >> 64).to_bytes(16 * (n - 1), "little")[::16]


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
    return list(_lead_order(profile))


@lru_cache(maxsize=64)
def _lead_order(profile: Profile) -> tuple[int, ...]:
    """``lead_order`` worked out once per profile: every deal asks for it."""
    lead = card_from_name(profile.lead.card)
    order = [lead]
    if not profile.lead.fallback:
        return tuple(order)
    suit, rank = suit_of(lead), rank_of(lead)
    suits = [suit] + [s for s in range(4) if s != suit]
    for s in suits:
        start = rank + 1 if s == suit else 0
        for r in range(start, 13):
            order.append(r * 4 + s)
    return tuple(order)


@lru_cache(maxsize=64)
def _lead_bits(profile: Profile) -> tuple[tuple[int, int], ...]:
    """``lead_order`` as (card, bit), each card's first-pack copy before its second."""
    return tuple((card, 1 << card) for base in _lead_order(profile) for card in (base, base + 64))


def find_lead(profile: Profile, hands: tuple[int, ...]) -> tuple[int, int | None]:
    """(seat, card): who leads the deal and which card of theirs decided it.

    With two packs the first pack's copy decides (two-deck: "the first ♠3"), the second
    only when the first is set aside, so every seat is as likely to lead. (It once was
    the lower seat holding either copy, which let seat 0 lead 43% of two-deck deals.)"""
    for card, bit in _lead_bits(profile):
        for seat, hand in enumerate(hands):
            if hand & bit:
                return seat, card
    return 0, None


def give_lead_copy(profile: Profile, hands: tuple[int, ...], leader: int) -> tuple[int, ...]:
    """``hands`` with the deciding card's two copies placed so that ``leader`` leads, when
    it holds the other copy. A record writes both copies of a card alike, so read back,
    the first copy goes to whichever hand is written first; the recorded leader says
    which seat held it."""
    seat, card = find_lead(profile, hands)
    if card is None or seat == leader or not 0 <= leader < len(hands):
        return hands
    both = (1 << card) | (1 << (card ^ 64))
    if (hands[leader] & both) != 1 << (card ^ 64):
        return hands
    out = list(hands)
    out[seat] ^= both
    out[leader] ^= both
    return tuple(out)


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


@lru_cache(maxsize=64)
def _deck_bits(profile: Profile) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The deck as ``1 << card`` in deck order, and each dealt hand's slice of it."""
    size = profile.hand_size
    slices = tuple((i * size, (i + 1) * size) for i in range(profile.players))
    return tuple(1 << c for c in profile.deck_cards), slices


def deal(profile: Profile, seed: int, leader: int | None = None) -> Deal:
    """Shuffle the profile's deck with ``seed`` and deal every hand.

    Hidden dummy hands are dealt after the players' hands (so a two-player deal is the
    three-player deal with the last hand face down) and join the set-aside cards.
    ``leader`` is for the winner-leads match rule (see ``next_leader``).
    """
    # Shuffling each card's bit rather than its id deals the same cards (the swaps do not
    # look at the items) and makes each hand's mask a plain sum of its slice.
    deck, slices = _deck_bits(profile)
    bits = list(deck)
    Rng(seed).shuffle(bits)
    hands = tuple([sum(bits[a:b]) for a, b in slices])
    aside = sum(bits[slices[-1][1] :])
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
