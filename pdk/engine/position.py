"""Judging plays: the one ``check`` path every caller uses, and the ``Position`` it judges.

A ``Position`` is what decides legality for the player to move: the profile, their hand,
the play to beat (or none when leading), whether their 下家 has 报单, and whether the play
must contain a given card (the first play under some variants). ``check`` returns the
play with its reading, or raises ``IllegalPlay`` with a reason code; ``legal_moves`` lists
the plays the generator finds. A property test holds them in exact agreement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from pdk.engine import counts as C
from pdk.engine.cards import (
    CardParseError,
    CardPlace,
    CardReason,
    Rank,
    format_cards,
    format_unicode,
    mask_of,
    parse_specs,
    rank_label,
    rank_of,
    suit_of,
)
from pdk.engine.combos import (
    ComboKind,
    Move,
    Reading,
    counts_label,
    counts_notation,
)
from pdk.engine.generator import Generator, generator_for
from pdk.engine.judge import IllegalPlay, Reason, highest_single, judge, locked_ranks
from pdk.engine.profile import Profile
from pdk.text.catalog import excerpt


class Play(NamedTuple):
    """Cards actually played, with the reading they were played as.

    A named tuple rather than a frozen dataclass: the bots' fast path makes one per turn.
    """

    cards: tuple[int, ...]
    kind: ComboKind
    top: int
    units: int

    @property
    def counts(self) -> int:
        return C.from_cards(self.cards)

    @property
    def move(self) -> Move:
        """The move these cards made, a straight flush with the suit its cards are of."""
        return Move(self.counts, self.kind, self.top, self.units, flush_suit(self.kind, self.cards))

    @property
    def notation(self) -> str:
        return format_cards(self.cards)

    @property
    def reading(self) -> Reading:
        return Reading(self.kind, self.top, self.units)

    def __str__(self) -> str:
        return format_unicode(self.cards)


def _lowest_bits(nibble: int, n: int) -> int:
    out = 0
    for s in range(4):
        if n and nibble >> s & 1:
            out |= 1 << s
            n -= 1
    return out


# SUIT_PICKS[nibble][n]: the n lowest suits present in a rank's 4-bit suit nibble.
SUIT_PICKS = [[_lowest_bits(nib, n) for n in range(5)] for nib in range(16)]


# _NIBBLE_CARDS[rank][suit bits]: the card ids of those suits of that rank, lowest first.
_NIBBLE_CARDS = [
    [tuple(r * 4 + s for s in range(4) if bits >> s & 1) for bits in range(16)] for r in range(16)
]


def pick_cards(hand: int, counts: int) -> tuple[int, tuple[int, ...]]:
    """``choose_cards`` for one pack without a preferred card — the lowest suits of each
    rank — as a bitmask and the card ids (the hot path: every generated play in self-play).
    It starts at the lowest rank of the play, so a single or a pair is one table lookup."""
    low = ((counts & -counts).bit_length() - 1) // C.BITS
    counts >>= C.BITS * low
    shift = 4 * low
    mask = 0
    cards: tuple[int, ...] = ()
    for table in _NIBBLE_CARDS[low:]:
        n = counts & C.FIELD
        if n:
            bits = SUIT_PICKS[(hand >> shift) & 15][n]
            mask |= bits << shift
            cards += table[bits]
        counts >>= 5
        if not counts:
            break
        shift += 4
    return mask, cards


def choose_cards(
    hand: int, counts: int, prefer: int = 0, *, suit: int = -1, plain: bool = False
) -> tuple[int, ...]:
    """Physical cards from ``hand`` (a card-id bitmask) for a rank-count play.

    Cards in ``prefer`` are taken first (the lead card that a first play must contain);
    otherwise the lowest suits, so the choice is deterministic. Only profiles with straight
    flushes care about suits: ``suit`` (a straight flush's ``Move.suit``) takes one card of
    each rank in that suit, and ``plain`` (a plain straight there) avoids one suit when it
    can, so that a straight does not turn into a flush by accident. ``ValueError`` when the
    hand has no such flush: a generated flush names a suit its hand holds.
    """
    if suit >= 0:
        return _flush_cards(hand, counts, prefer, suit)
    if plain:
        return _unflushed(hand, counts, prefer)
    chosen: list[int] = []
    for r, n in C.items(counts):
        candidates = [cid for cid in _rank_cards(hand, r) if prefer >> cid & 1]
        candidates += [cid for cid in _rank_cards(hand, r) if not prefer >> cid & 1]
        chosen.extend(candidates[:n])
    return tuple(sorted(chosen))


def _flush_cards(hand: int, counts: int, prefer: int, suit: int) -> tuple[int, ...]:
    """One card of every rank in ``counts``, all of ``suit`` (a preferred card first, where
    two packs hold two copies of it)."""
    chosen = []
    for r, n in C.items(counts):
        pool = [c for c in _rank_cards(hand, r) if suit_of(c) == suit]
        if n != 1 or not pool:
            raise ValueError(f"no straight flush of suit {suit} on {counts_notation(counts)} in the hand")
        pool.sort(key=lambda c: not prefer >> c & 1)
        chosen.append(pool[0])
    return tuple(sorted(chosen))


def _unflushed(hand: int, counts: int, prefer: int) -> tuple[int, ...]:
    """Cards for a plain straight that are not all of one suit, when the hand allows."""
    base = list(choose_cards(hand, counts, prefer))
    if not is_one_suit(base):
        return tuple(base)
    for i, cid in enumerate(base):
        for other in _rank_cards(hand, rank_of(cid)):
            if suit_of(other) != suit_of(cid) and not prefer >> cid & 1:
                base[i] = other
                return tuple(sorted(base))
    return tuple(base)


def is_one_suit(cards: Sequence[int]) -> bool:
    """True when every card is of one suit (jokers have none, so never)."""
    if not cards or any(rank_of(c) >= Rank.BLACK_JOKER for c in cards):
        return False
    s = suit_of(cards[0])
    return all(suit_of(c) == s for c in cards)


def flush_suit(kind: int, cards: Sequence[int]) -> int:
    """The suit a played straight flush names (``Move.suit``): its cards' suit when they
    read as a flush (``STRAIGHT_FLUSH``, or a ``BOMB`` of several ranks in one suit, which
    only a straight flush is); -1 for every other play."""
    if kind == ComboKind.STRAIGHT_FLUSH or (
        kind == ComboKind.BOMB and len(cards) > 1 and rank_of(cards[0]) != rank_of(cards[-1])
    ):
        if is_one_suit(cards):
            return suit_of(cards[0])
    return -1


def plain_straight(profile: Profile, kind: int) -> bool:
    """Whether a play of ``kind`` must avoid one suit (``choose_cards``' ``plain``): a
    plain straight where one suit's straight would be a straight flush."""
    return kind == ComboKind.STRAIGHT and profile.combinations.straight_flush != "none"


def _rank_cards(hand: int, rank: int) -> list[int]:
    out = []
    for copy in (0, 64):
        bits = (hand >> (copy + rank * 4)) & 15
        for s in range(4):
            if bits >> s & 1:
                out.append(copy + rank * 4 + s)
    return out


def resolve_cards(
    text: str, available: int, what: CardPlace = CardPlace.HAND, *, spread: bool = False
) -> tuple[int, ...]:
    """Turn notation into physical cards taken from ``available`` (a bitmask).

    A rank without a suit takes any free card of that rank; a named suit must be there.
    With ``spread`` ranks written without a suit take the suits in turn, shifted by rank,
    so that they never make a one-suit straight by chance: for a hand that exists only as
    notation (``pdk moves``), "34567" is a plain straight, not a straight flush.
    Raises ``CardParseError`` with a reason code; ``what`` names ``available`` in it.

    Text to cards, and back with ``format_cards``: the named suits are kept, a bare rank
    takes the lowest free suit (here ♣3, the two others being taken):

    >>> from pdk.engine.cards import format_cards, mask_of
    >>> hand = mask_of(range(12))  # every 3, 4 and 5
    >>> cards = resolve_cards("3s 3h 3 4", hand)
    >>> cards, format_cards(cards, suits=True)
    ((0, 1, 2, 4), '3s3h3c4s')
    """
    specs = parse_specs(text)
    if not specs:
        raise CardParseError(CardReason.NO_CARDS, text=excerpt(text))
    left = available
    chosen: list[int] = []
    taken = [0] * 16  # unsuited cards resolved so far, by rank
    for spec in sorted(specs, key=lambda s: s.suit is None):
        pool = _rank_cards(left, spec.rank)
        if spec.suit is not None:
            pool = [c for c in pool if suit_of(c) == spec.suit]
        elif spread:
            turn = spec.rank + taken[spec.rank]
            taken[spec.rank] += 1
            pool.sort(key=lambda c: (suit_of(c) - turn) % 4)
        if not pool:
            label = (
                format_unicode([spec.rank * 4 + (spec.suit or 0)])
                if spec.suit is not None
                else (rank_label(spec.rank))
            )
            raise CardParseError(CardReason.NOT_AVAILABLE, card=label, place=what)
        chosen.append(pool[0])
        left &= ~(1 << pool[0])
    return tuple(sorted(chosen))


@dataclass(frozen=True, slots=True)
class Position:
    """Everything that decides which plays are legal for the player to move."""

    profile: Profile
    hand: int
    prev: Move | None = None
    next_has_one: bool = False
    must_contain: int | None = None
    gen: Generator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", generator_for(self.profile))
        prev = self.prev
        if prev is not None and type(prev) is not Move:
            # A plain (counts, kind, top, units[, suit]) tuple, as older callers and plug-ins
            # write it (the play to beat needs no suit: any flush of its reading beats alike).
            counts, kind, top, units = prev[:4]
            object.__setattr__(self, "prev", Move(counts, ComboKind(kind), top, units, *prev[4:5]))

    @property
    def counts(self) -> int:
        return C.from_mask(self.hand)

    def legal_moves(self) -> list[Move]:
        """Every legal play, by rank counts, with its reading."""
        if self.gen.suited:
            moves = self.gen.moves(self.counts, self.prev, self.next_has_one, hand_mask=self.hand)
        else:
            moves = self.gen.moves(self.counts, self.prev, self.next_has_one)
        if self.must_contain is not None:
            card = self.must_contain
            moves = [m for m in moves if m.can_hold(card)]
        return moves

    def can_pass(self, moves: list[Move] | None = None) -> bool:
        return self.gen.can_pass(self.prev, self.legal_moves() if moves is None else moves)

    def cards_for(self, counts: int) -> tuple[int, ...] | None:
        """The cards a play typed as ranks alone means: a legal move with exactly these rank
        counts, a plain one before a straight flush (only suits make one, and they were not
        written), its suits chosen as ``play_for`` chooses them. None when no legal move has
        these ranks (the caller's own cards then get the refusal and its reason).
        ``IllegalPlay`` (``WHICH_SUIT``) when only straight flushes of several suits have
        them: which suit goes is the player's to write, not ours to guess."""
        moves = [m for m in self.legal_moves() if m.counts == counts]
        if not moves:
            return None
        plain = [m for m in moves if m.suit < 0]
        if plain or len(moves) == 1:
            return self.play_for((plain or moves)[0]).cards
        options = " / ".join(format_cards(self.play_for(m).cards, suits=True) for m in moves)
        raise IllegalPlay(Reason.WHICH_SUIT, cards=counts_label(counts), options=options)

    def play_for(self, move: Move) -> Play:
        """Attach suits to a generated move (a straight flush's are the suit it names)."""
        prefer = 0 if self.must_contain is None else 1 << self.must_contain
        plain = plain_straight(self.profile, move.kind)
        cards = choose_cards(self.hand, move.counts, prefer, suit=move.suit, plain=plain)
        return Play(cards, move.kind, move.top, move.units)


def check(pos: Position, cards: Sequence[int] | None) -> Play | None:
    """Judge one play (``None`` is a pass); return it with its reading or raise IllegalPlay.

    A hand of 3 3 4 4 5 7 leading a trick (no play to beat, the next seat not on one card):

    >>> from pdk.engine.cards import mask_of
    >>> from pdk.variants.registry import load_profile
    >>> hand = mask_of(range(9)) & ~mask_of([2, 3, 6, 7]) | mask_of([16])  # ♠3♥3 ♠4♥4 ♠5 ♠7
    >>> pos = Position(load_profile("classic16"), hand, None, False)
    >>> [m.notation() for m in pos.legal_moves()]
    ['3', '4', '5', '7', '33', '44', '3344']
    >>> check(pos, resolve_cards("3344", hand)).kind.name
    'PAIR_CHAIN'
    >>> try:
    ...     check(pos, resolve_cards("345", hand))
    ... except IllegalPlay as refused:
    ...     print(refused.reason.name)
    NOT_A_COMBINATION
    """
    profile = pos.profile
    prev_text = pos.prev.shown() if pos.prev is not None else ""
    if cards is None:
        if pos.prev is None:
            raise IllegalPlay(Reason.LEADER_CANNOT_PASS)
        moves = pos.legal_moves()
        if profile.rules.must_beat and moves:
            raise IllegalPlay(Reason.MUST_BEAT, prev=prev_text, example=moves[0].shown())
        return None
    mask = mask_of(cards)
    if len(set(cards)) != len(cards) or mask & ~pos.hand:
        # as the table shows plays: "10 10", not "TT"
        raise IllegalPlay(Reason.NOT_IN_HAND, cards=excerpt(counts_label(C.from_cards(cards))))
    flush = profile.combinations.straight_flush != "none" and is_one_suit(cards)
    verdict = judge(profile, pos.counts, C.from_cards(cards), pos.prev, pos.next_has_one, flush)
    if not isinstance(verdict, Reading):
        reason, params = verdict
        raise IllegalPlay(reason, **params)
    if pos.must_contain is not None and pos.must_contain not in cards:
        raise IllegalPlay(Reason.MUST_CONTAIN_LEAD, card=format_unicode([pos.must_contain]))
    return Play(tuple(sorted(cards)), verdict.kind, verdict.top, verdict.units)


__all__ = [
    "CardParseError",
    "IllegalPlay",
    "Play",
    "Position",
    "Reason",
    "check",
    "choose_cards",
    "highest_single",
    "judge",
    "locked_ranks",
    "pick_cards",
    "resolve_cards",
]
