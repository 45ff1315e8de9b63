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

from pdk import counts as C
from pdk.cards import (
    CardParseError,
    format_cards,
    format_unicode,
    parse_specs,
    rank_label,
    rank_of,
    suit_of,
)
from pdk.combos import ComboKind, Move, Reading, beats, classify, preferred_lead
from pdk.i18n import Lang, tr
from pdk.movegen import MoveGenerator, generator_for
from pdk.profile import Profile


class Reason(Enum):
    """Why a play (or a pass) is refused; values are message keys in ``pdk.i18n``."""

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


class IllegalPlay(ValueError):
    """A refused play: a reason code plus the facts its message needs."""

    def __init__(self, reason: Reason, **params: str) -> None:
        self.reason = reason
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: Lang = "en") -> str:
        return tr(self.reason.value, lang, **self.params)


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
    return "".join(rank_label(r).replace("10", "T") for r in C.ranks_list(move[0]))


def _lowest_bits(nibble: int, n: int) -> int:
    out = 0
    for s in range(4):
        if n and nibble >> s & 1:
            out |= 1 << s
            n -= 1
    return out


# _PICK[nibble][n]: the n lowest suits present in a rank's 4-bit suit nibble.
_PICK = [[_lowest_bits(nib, n) for n in range(5)] for nib in range(16)]


def pick_mask(hand: int, counts: int) -> int:
    """``choose_cards`` for one pack without a preferred card, as a bitmask (the hot path)."""
    chosen = 0
    shift = 0
    while counts:
        n = counts & 31
        if n:
            chosen |= _PICK[(hand >> shift) & 15][n] << shift
        counts >>= 5
        shift += 4
    return chosen


def choose_cards(hand: int, counts: int, prefer: int = 0) -> tuple[int, ...]:
    """Physical cards from ``hand`` (a card-id bitmask) for a rank-count play.

    Cards in ``prefer`` are taken first (the lead card that a first play must contain);
    otherwise the lowest suits, so the choice is deterministic.
    """
    chosen: list[int] = []
    for r, n in C.items(counts):
        candidates = [cid for cid in _rank_cards(hand, r) if prefer >> cid & 1]
        candidates += [cid for cid in _rank_cards(hand, r) if not prefer >> cid & 1]
        chosen.extend(candidates[:n])
    return tuple(sorted(chosen))


def _rank_cards(hand: int, rank: int) -> list[int]:
    out = []
    for copy in (0, 64):
        bits = (hand >> (copy + rank * 4)) & 15
        for s in range(4):
            if bits >> s & 1:
                out.append(copy + rank * 4 + s)
    return out


def resolve_cards(text: str, available: int, what: str = "hand") -> tuple[int, ...]:
    """Turn notation into physical cards taken from ``available`` (a bitmask).

    A rank without a suit takes any free card of that rank; a named suit must be there.
    Raises ``CardParseError`` with a one-line reason.
    """
    specs = parse_specs(text)
    if not specs:
        raise CardParseError(f"no cards in {text!r}")
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
            raise CardParseError(f"not enough cards: {label} is not available in the {what}")
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
        cards = choose_cards(self.hand, move[0], prefer)
        return Play(cards, ComboKind(move[1]), move[2], move[3])


def _locked_ranks(profile: Profile, hand_counts: int) -> list[int]:
    if not (profile.bombs.unbreakable and profile.bombs.four):
        return []
    return [r for r, n in C.items(hand_counts) if n >= 4]


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
    mask = 0
    for cid in cards:
        mask |= 1 << cid
    text = format_cards(cards)
    if len(set(cards)) != len(cards) or mask & ~pos.hand:
        raise IllegalPlay(Reason.NOT_IN_HAND, cards=text)
    hand_counts = pos.counts
    counts = C.from_cards(cards)
    readings = classify(profile, counts, whole_hand=counts == hand_counts)
    if not readings:
        if classify(profile, counts, whole_hand=True) and profile.rules.short_last_hand:
            raise IllegalPlay(Reason.BARE_TRIO, cards=text)
        raise IllegalPlay(Reason.NOT_A_COMBINATION, cards=text)
    for r in _locked_ranks(profile, hand_counts):
        k = C.count(counts, r)
        if k and counts != C.count(hand_counts, r) * C.ONE[r]:
            bomb = rank_label(r) * C.count(hand_counts, r)
            raise IllegalPlay(Reason.BREAKS_BOMB, cards=text, bomb=bomb)
    if pos.prev is not None:
        _, pk, ptop, punits = pos.prev
        beating = [rd for rd in readings if beats(rd.kind, rd.top, rd.units, pk, ptop, punits)]
        if not beating:
            raise IllegalPlay(Reason.DOES_NOT_BEAT, cards=text, prev=prev_text)
        reading = max(beating, key=lambda rd: (rd.units, rd.top))
    else:
        reading = preferred_lead(readings)
    bao_dan = pos.next_has_one and profile.rules.bao_dan_highest_single
    if reading.kind == ComboKind.SINGLE and bao_dan:
        locked = set(_locked_ranks(profile, hand_counts))
        high = max(r for r, _ in C.items(hand_counts) if r not in locked)
        if reading.top != high:
            if pos.prev is not None and high <= pos.prev[2]:
                raise IllegalPlay(Reason.NO_SINGLE_UNDER_BAO_DAN, high=rank_label(high), prev=prev_text)
            raise IllegalPlay(Reason.HIGHEST_SINGLE, high=rank_label(high))
    if pos.must_contain is not None and pos.must_contain not in cards:
        raise IllegalPlay(Reason.MUST_CONTAIN_LEAD, card=format_unicode([pos.must_contain]))
    return Play(tuple(sorted(cards)), reading.kind, reading.top, reading.units)


__all__ = [
    "CardParseError",
    "IllegalPlay",
    "Play",
    "Position",
    "Reason",
    "check",
    "choose_cards",
    "move_notation",
    "resolve_cards",
]
