"""Cards, ranks, suits and the card notation.

A card is a small integer so that a hand can be a bitmask and a play can be removed from
it with one ``&~``: ``id = copy * 64 + rank * 4 + suit`` (``copy`` is the pack, 0 or 1).
Jokers are ranks of their own with suit 0. Ranks are indexes in the fixed order
``3 4 5 6 7 8 9 T J Q K A 2 B R`` (B = small/black joker 小王, R = big/red joker 大王);
a profile decides which of them exist and how they rank.

The notation is the one players type: ranks ``3..9 T J Q K A 2 B R`` (``10`` for T,
case-insensitive), each optionally followed by a suit letter ``s h c d``; separators are
optional. ``format_cards`` writes the same notation back, ``format_unicode`` the display
form (♠3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from pdk.text.catalog import LocalizedError, excerpt


class Rank(IntEnum):
    """Rank indexes in the fixed natural order; a profile may reorder their strength."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12
    BLACK_JOKER = 13
    RED_JOKER = 14


class Suit(IntEnum):
    """Suits in the order ♠ ♥ ♣ ♦ (s h c d). Jokers carry suit 0."""

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3


NUM_RANKS = 15
RANK_CHARS = "3456789TJQKA2BR"
SUIT_CHARS = "shcd"
SUIT_SYMBOLS = "♠♥♣♦"
JOKER_RANKS = frozenset({Rank.BLACK_JOKER, Rank.RED_JOKER})
_UNICODE_JOKERS = {Rank.BLACK_JOKER: "小王", Rank.RED_JOKER: "大王"}


class CardReason(Enum):
    """Why card text cannot be read or taken; values are message keys in ``pdk.text.catalog``."""

    UNKNOWN_CARD = "card_unknown"
    NO_CARDS = "card_none"
    NOT_AVAILABLE = "card_not_available"


class CardPlace(Enum):
    """Where ``resolve_cards`` takes cards from, as the message names it."""

    HAND = "card_place_hand"
    DECK = "card_place_deck"
    OUTSIDE_HAND = "card_place_outside_hand"




class CardParseError(LocalizedError, ValueError):
    """Card text that is not valid notation, or names cards that are not there (a
    ``CardPlace`` parameter says where the cards were looked for)."""

    reason: CardReason


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card. ``copy`` tells the packs apart in two-pack games."""

    rank: Rank
    suit: Suit
    copy: int = 0

    @property
    def id(self) -> int:
        return card_id(self.rank, self.suit, self.copy)

    @classmethod
    def from_id(cls, cid: int) -> Card:
        return cls(Rank((cid & 63) >> 2), Suit(cid & 3), cid >> 6)

    def __str__(self) -> str:
        return format_cards([self.id])


def card_id(rank: int, suit: int, copy: int = 0) -> int:
    return copy * 64 + rank * 4 + suit


def rank_of(cid: int) -> int:
    return (cid & 63) >> 2


def suit_of(cid: int) -> int:
    return cid & 3


@dataclass(frozen=True, slots=True)
class CardSpec:
    """A parsed token: a rank and, if the player wrote one, a suit."""

    rank: int
    suit: int | None


def parse_specs(text: str) -> list[CardSpec]:
    """Parse notation into rank/suit specs without deciding which physical cards they are.

    >>> [(int(s.rank), s.suit) for s in parse_specs("3s 10 t")]
    [(0, 0), (7, None), (7, None)]
    """
    specs: list[CardSpec] = []
    s = text  # not stripped: error positions count in the text as the player typed it
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch == "," or ch.isspace():
            i += 1
            continue
        if s.startswith("10", i):
            rank = Rank.TEN
            i += 2
        else:
            idx = RANK_CHARS.find(ch.upper())
            if idx < 0:
                raise CardParseError(CardReason.UNKNOWN_CARD, char=ch, pos=i + 1, text=excerpt(text))
            rank = Rank(idx)
            i += 1
        suit: int | None = None
        if i < n and s[i].lower() in SUIT_CHARS and rank < Rank.BLACK_JOKER:
            # "3d" is three of diamonds; a suit letter only ever follows a rank.
            suit = SUIT_CHARS.index(s[i].lower())
            i += 1
        specs.append(CardSpec(rank, suit))
    return specs


def format_cards(cards: Iterable[int], *, suits: bool = False) -> str:
    """Write card ids in notation, lowest rank first (``33445``, or ``3s3h4c`` with suits).

    Card ids are ``rank * 4 + suit`` (suits ♠ ♥ ♣ ♦), so ♠3 is 0 and ♥3 is 1; a hand is the
    bitmask of its ids (``mask_of`` / ``cards_of``):

    >>> format_cards([4, 0, 1]), format_cards([4, 0, 1], suits=True)
    ('334', '3s3h4s')
    >>> mask_of([0, 1, 4]), cards_of(0b10011)
    (19, [0, 1, 4])
    """
    out = []
    for cid in sorted(cards, key=lambda c: (rank_of(c), suit_of(c), c)):
        r = rank_of(cid)
        out.append(RANK_CHARS[r])
        if suits and r < Rank.BLACK_JOKER:
            out.append(SUIT_CHARS[suit_of(cid)])
    return "".join(out)


def format_unicode(cards: Iterable[int], sep: str = " ") -> str:
    """Display form: ``♠3 ♥10 小王``."""
    parts = []
    for cid in sorted(cards, key=lambda c: (rank_of(c), suit_of(c))):
        r = rank_of(cid)
        if r >= Rank.BLACK_JOKER:
            parts.append(_UNICODE_JOKERS[Rank(r)])
        else:
            label = "10" if r == Rank.TEN else RANK_CHARS[r]
            parts.append(SUIT_SYMBOLS[suit_of(cid)] + label)
    return sep.join(parts)


def rank_label(rank: int) -> str:
    """The rank as a player reads it (``10`` rather than ``T``)."""
    if rank == Rank.TEN:
        return "10"
    if rank >= Rank.BLACK_JOKER:
        return _UNICODE_JOKERS[Rank(rank)]
    return RANK_CHARS[rank]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids in a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
