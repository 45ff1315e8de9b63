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
from enum import Enum
from typing import NamedTuple

from pdk.engine import counts as C
from pdk.engine.cards import (
    RANK_CHARS,
    CardParseError,
    CardPlace,
    CardReason,
    Rank,
    cards_of,
    format_cards,
    format_unicode,
    mask_of,
    parse_specs,
    rank_label,
    rank_of,
    suit_of,
)
from pdk.engine.combos import ComboKind, Move, Reading, beats, classify, follow_key, preferred_lead
from pdk.engine.movegen import MoveGenerator, generator_for
from pdk.engine.profile import Profile
from pdk.text.catalog import LocalizedError


class Reason(Enum):
    """Why a play (or a pass) is refused; values are message keys in ``pdk.text.catalog``."""

    NOT_IN_HAND = "not_in_hand"
    NOT_A_COMBINATION = "not_a_combination"
    BARE_TRIO = "bare_trio"
    DOES_NOT_BEAT = "does_not_beat"
    MUST_BEAT = "must_beat"
    LEADER_CANNOT_PASS = "leader_cannot_pass"
    HIGHEST_SINGLE = "highest_single"
    NO_SINGLE_UNDER_BAO_DAN = "no_single_under_bao_dan"
    BREAKS_BOMB = "breaks_bomb"
    MUST_CONTAIN_LEAD = "must_contain_lead"
    GAME_OVER = "game_over"


class IllegalPlay(LocalizedError, ValueError):
    """A refused play: a ``Reason`` plus the facts its message needs."""

    reason: Reason


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
        return (self.counts, int(self.kind), self.top, self.units)

    @property
    def notation(self) -> str:
        return format_cards(self.cards)

    @property
    def reading(self) -> Reading:
        return Reading(self.kind, self.top, self.units)

    def __str__(self) -> str:
        return format_unicode(self.cards)


def move_notation(move: Move) -> str:
    """A generated play in notation (ranks only: suits do not matter to it)."""
    return "".join(RANK_CHARS[r] for r in C.ranks_list(move[0]))


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
    low = ((counts & -counts).bit_length() - 1) // 5
    counts >>= 5 * low
    shift = 4 * low
    mask = 0
    cards: tuple[int, ...] = ()
    for table in _NIBBLE_CARDS[low:]:
        n = counts & 31
        if n:
            bits = SUIT_PICKS[(hand >> shift) & 15][n]
            mask |= bits << shift
            cards += table[bits]
        counts >>= 5
        if not counts:
            break
        shift += 4
    return mask, cards


def choose_cards(hand: int, counts: int, prefer: int = 0, *, suited: int = 0) -> tuple[int, ...]:
    """Physical cards from ``hand`` (a card-id bitmask) for a rank-count play.

    Cards in ``prefer`` are taken first (the lead card that a first play must contain);
    otherwise the lowest suits, so the choice is deterministic. ``suited`` matters only in
    profiles with straight flushes: 1 takes all cards of one suit (the flush), -1 avoids
    that when it can (a plain straight should not turn into a flush by accident).
    """
    if suited:
        flush = _flush_cards(hand, counts, prefer)
        if suited > 0 and flush is not None:
            return flush
        if suited < 0 and flush is not None:
            return _unflushed(hand, counts, prefer)
    chosen: list[int] = []
    for r, n in C.items(counts):
        candidates = [cid for cid in _rank_cards(hand, r) if prefer >> cid & 1]
        candidates += [cid for cid in _rank_cards(hand, r) if not prefer >> cid & 1]
        chosen.extend(candidates[:n])
    return tuple(sorted(chosen))


def _flush_cards(hand: int, counts: int, prefer: int) -> tuple[int, ...] | None:
    """One card of every rank in ``counts``, all of one suit (preferred card's suit first)."""
    its = C.items(counts)
    if any(n != 1 for _, n in its):
        return None
    suits = [suit_of(c) for c in cards_of(prefer)] + [0, 1, 2, 3]
    for s in suits:
        chosen = []
        for r, _ in its:
            pool = [c for c in _rank_cards(hand, r) if suit_of(c) == s]
            if not pool:
                break
            chosen.append(pool[0])
        else:
            return tuple(sorted(chosen))
    return None


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
    if not cards or any(rank_of(c) >= 13 for c in cards):
        return False
    s = suit_of(cards[0])
    return all(suit_of(c) == s for c in cards)


def suited_for(profile: Profile, kind: int) -> int:
    """How ``choose_cards`` must treat suits for a play of ``kind`` (see there)."""
    if profile.combinations.straight_flush == "none":
        return 0
    if kind == ComboKind.STRAIGHT_FLUSH:
        return 1
    if kind == ComboKind.STRAIGHT:
        return -1
    if kind == ComboKind.BOMB and profile.combinations.straight_flush == "bomb":
        return 1
    return 0


def _rank_cards(hand: int, rank: int) -> list[int]:
    out = []
    for copy in (0, 64):
        bits = (hand >> (copy + rank * 4)) & 15
        for s in range(4):
            if bits >> s & 1:
                out.append(copy + rank * 4 + s)
    return out


def resolve_cards(text: str, available: int, what: CardPlace = CardPlace.HAND) -> tuple[int, ...]:
    """Turn notation into physical cards taken from ``available`` (a bitmask).

    A rank without a suit takes any free card of that rank; a named suit must be there.
    Raises ``CardParseError`` with a reason code; ``what`` names ``available`` in it.
    """
    specs = parse_specs(text)
    if not specs:
        raise CardParseError(CardReason.NO_CARDS, text=text)
    left = available
    chosen: list[int] = []
    for spec in sorted(specs, key=lambda s: s.suit is None):
        pool = _rank_cards(left, spec.rank)
        if spec.suit is not None:
            pool = [c for c in pool if suit_of(c) == spec.suit]
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
    gen: MoveGenerator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gen", generator_for(self.profile))

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
            need = C.ONE[rank_of(self.must_contain)]
            moves = [m for m in moves if C.contains(m[0], need)]
        return moves

    def can_pass(self, moves: list[Move] | None = None) -> bool:
        return self.gen.can_pass(self.prev, self.legal_moves() if moves is None else moves)

    def play_for(self, move: Move) -> Play:
        """Attach suits to a generated move."""
        prefer = 0 if self.must_contain is None else 1 << self.must_contain
        cards = choose_cards(self.hand, move[0], prefer, suited=suited_for(self.profile, move[1]))
        return Play(cards, ComboKind(move[1]), move[2], move[3])


def locked_ranks(profile: Profile, hand_counts: int) -> list[int]:
    """Ranks whose cards form a held bomb that may not be broken up."""
    bombs = profile.bombs
    if not bombs.unbreakable:
        return []
    out = []
    for r, n in C.items(hand_counts):
        same_rank = bombs.four and n >= bombs.min_size and r < Rank.BLACK_JOKER
        if same_rank or (bombs.three_aces and r == Rank.ACE and n >= 3):
            out.append(r)
    return out


def _keeps_bombs(reading: Reading, counts: int, hand_counts: int, locked: list[int]) -> bool:
    """A locked rank goes out only whole, as its bomb (or as the four of a four-with)."""
    for r in locked:
        k = C.count(counts, r)
        if not k:
            continue
        if k != C.count(hand_counts, r) or reading.top != r:
            return False
        if reading.kind == ComboKind.BOMB and counts == k * C.ONE[r]:
            continue
        if reading.kind != ComboKind.FOUR_WITH:
            return False
    return True


def judge(
    profile: Profile,
    hand_counts: int,
    counts: int,
    prev: Move | None,
    next_has_one: bool,
    flush: bool = False,
    *,
    locked: list[int] | None = None,
    readings: list[Reading] | None = None,
) -> Reading | tuple[Reason, dict[str, str]]:
    """The reading a rank-count play is legal as, or why it is not.

    This is the rule core shared by ``check`` (which adds the card-level tests) and the
    general move generator, so the two cannot disagree. The generator passes ``locked``
    (the hand's bomb-locked ranks) and ``readings`` (``classify``'s answer, which it
    memoises) so that they are worked out once, not per candidate.
    """
    if readings is None:
        readings = classify(profile, counts, whole_hand=counts == hand_counts, flush=flush)
    text = ""
    if not readings:
        text = move_notation((counts, 0, 0, 0))
        if profile.rules.short_last_hand and classify(profile, counts, whole_hand=True):
            return Reason.BARE_TRIO, {"cards": text}
        return Reason.NOT_A_COMBINATION, {"cards": text}
    if locked is None:
        locked = locked_ranks(profile, hand_counts)
    if locked:
        kept = [rd for rd in readings if _keeps_bombs(rd, counts, hand_counts, locked)]
        if not kept:
            r = next(r for r in locked if C.count(counts, r))
            bomb = rank_label(r) * C.count(hand_counts, r)
            return Reason.BREAKS_BOMB, {"cards": move_notation((counts, 0, 0, 0)), "bomb": bomb}
        readings = kept
    if prev is not None:
        _, pk, ptop, punits = prev
        beating = [rd for rd in readings if beats(rd.kind, rd.top, rd.units, pk, ptop, punits)]
        if not beating:
            return Reason.DOES_NOT_BEAT, {
                "cards": move_notation((counts, 0, 0, 0)),
                "prev": move_notation(prev),
            }
        reading = beating[0] if len(beating) == 1 else max(beating, key=follow_key)
    else:
        reading = readings[0] if len(readings) == 1 else preferred_lead(readings)
    if reading.kind == ComboKind.SINGLE and next_has_one and profile.rules.bao_dan_highest_single:
        high = highest_single(profile, hand_counts)
        if reading.top != high:
            if prev is not None and high <= prev[2]:
                return Reason.NO_SINGLE_UNDER_BAO_DAN, {"high": rank_label(high), "prev": move_notation(prev)}
            return Reason.HIGHEST_SINGLE, {"high": rank_label(high)}
    return reading


def highest_single(profile: Profile, hand_counts: int) -> int:
    """D1: the highest rank the player may play as a single (bomb-locked ranks excluded)."""
    locked = set(locked_ranks(profile, hand_counts))
    return max((r for r, _ in C.items(hand_counts) if r not in locked), default=-1)


def check(pos: Position, cards: Sequence[int] | None) -> Play | None:
    """Judge one play (``None`` is a pass); return it with its reading or raise IllegalPlay."""
    profile = pos.profile
    prev_text = move_notation(pos.prev) if pos.prev is not None else ""
    if cards is None:
        if pos.prev is None:
            raise IllegalPlay(Reason.LEADER_CANNOT_PASS)
        moves = pos.legal_moves()
        if profile.rules.must_beat and moves:
            raise IllegalPlay(Reason.MUST_BEAT, prev=prev_text, example=move_notation(moves[0]))
        return None
    mask = mask_of(cards)
    text = format_cards(cards)
    if len(set(cards)) != len(cards) or mask & ~pos.hand:
        raise IllegalPlay(Reason.NOT_IN_HAND, cards=text)
    flush = profile.combinations.straight_flush != "none" and is_one_suit(cards)
    verdict = judge(profile, pos.counts, C.from_cards(cards), pos.prev, pos.next_has_one, flush)
    if not isinstance(verdict, Reading):
        reason, params = verdict
        if "cards" in params:
            params["cards"] = text
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
    "judge",
    "move_notation",
    "pick_cards",
    "resolve_cards",
]
