"""Combinations (牌型): their kinds, how a set of cards reads as one, and what beats what.

A *reading* is how a set of cards counts as a combination: its kind, its top rank (the
rank that is compared) and its units (chain length, number of trios in a plane, or for a
bomb its strength class). The same cards may read several ways (docs/rules.md D2); ``classify``
returns every reading and the callers pick by the decision rules. The engine's internal
move is ``Move``, a NamedTuple ``(counts, kind, top, units, suit)``: typed fields, and
still cheap to build in the generator's hot loops.

Every rule comes from a profile knob. The kinds past ``BOMB`` exist only in variants
(bare trio, trio with one, trio chain, four with kickers, straight flush). Where a variant
lets kicker counts differ but a follower need not match them, all trios read as
``TRIO_WITH_TWO`` and all planes as ``PLANE`` so that they compare as one combination, as
classic16's short last hand does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from pdk.engine import counts as C
from pdk.engine.cards import RANK_CHARS, Rank, rank_label, rank_of, suit_of
from pdk.engine.profile import Profile
from pdk.text.catalog import Said


class ComboKind(IntEnum):
    """The kinds of combination. classic16 knows the first seven (docs/rules.md); the rest exist
    only where a profile's knobs enable them (bare trio, trio with one, trio chain, four
    with kickers, straight flush)."""

    SINGLE = 0
    PAIR = 1
    PAIR_CHAIN = 2
    STRAIGHT = 3
    TRIO_WITH_TWO = 4
    PLANE = 5
    BOMB = 6
    TRIO = 7
    TRIO_WITH_ONE = 8
    TRIO_CHAIN = 9
    FOUR_WITH = 10
    STRAIGHT_FLUSH = 11

    @property
    def label(self) -> str:
        """The machine name used in JSON and records (``pair_chain``)."""
        return self.name.lower()

    @property
    def said(self) -> Said:
        """The kind's name for players (``连对`` / ``pair chain``)."""
        return Said(f"kind_{self.label}")


BOMB = ComboKind.BOMB
STRAIGHT = ComboKind.STRAIGHT
STRAIGHT_FLUSH = ComboKind.STRAIGHT_FLUSH
# A plane's units hold its trio count in the low bits; with exact-kicker following the
# kicker count sits above them so that only planes with as many kickers compare.
UNITS_KICKER_SHIFT = 5
UNITS_TRIO_MASK = (1 << UNITS_KICKER_SHIFT) - 1


class Move(NamedTuple):
    """The generator's and the state machine's unit of play: which ranks and how many of
    each (``counts``, packed as in ``pdk.engine.counts``), how they read (``kind``), the
    rank that is compared (``top``), ``units`` (chain length, trio count, or a bomb's
    strength class: see ``bomb_units``) and ``suit``.

    Suits are chosen only when the move is played, except where the suit is the play: a
    straight flush (同花顺, kind ``STRAIGHT_FLUSH``, or a ``BOMB`` where the profile makes it
    one) names its suit (0-3), since the same ranks in hearts and in spades are different
    cards to give up. Two flushes of different suits are therefore two distinct moves: the
    generator offers both, perft counts both, and playing one takes exactly its own suit's
    cards (nothing is guessed). Every other move has ``suit`` -1.

    A NamedTuple rather than a dataclass: the generator builds and caches millions of
    them, and a plain tuple's speed and hashing carry over. Plug-in bots written against
    the old four-field ``(counts, kind, top, units)`` tuple keep working where those four
    fields name one legal move (``pdk.bots.checked``).

    >>> five, nine, three = C.ONE[Rank.FIVE], C.ONE[Rank.NINE], C.ONE[Rank.THREE]
    >>> m = Move(3 * five + nine + three, ComboKind.TRIO_WITH_TWO, Rank.FIVE, 1)
    >>> m.notation(), m.suit
    ('35559', -1)
    >>> m.groups()
    (('5', '5', '5'), ('3', '9'))
    """

    counts: int
    kind: ComboKind
    top: int
    units: int
    suit: int = -1

    def can_hold(self, card: int) -> bool:
        """Whether a play of this move can include ``card`` (the card a first play must
        contain): its rank is played, and in the move's suit when the move names one."""
        return C.contains(self.counts, C.ONE[rank_of(card)]) and self.suit in (-1, suit_of(card))

    @property
    def trios(self) -> int:
        """How many trios a plane or trio chain holds (its units without the kicker count)."""
        return self.units & UNITS_TRIO_MASK

    def notation(self) -> str:
        """The ranks in notation, lowest first, one character per card (``'TTJJQQ'``)."""
        return counts_notation(self.counts)

    def body_ranks(self) -> tuple[int, ...]:
        """The ranks of the combination's body, lowest first: a trio's or plane's trios, a
        four-with's four; for any other kind every rank of the play."""
        if self.kind in _BODY_OF_THREE:
            want = 3
        elif self.kind == ComboKind.FOUR_WITH:
            want = 4
        else:
            return tuple(r for r, _ in C.items(self.counts))
        if self.kind not in (ComboKind.PLANE, ComboKind.TRIO_CHAIN):
            return (self.top,)
        body = [r for r, n in C.items(self.counts) if n >= want]
        if len(body) > self.trios:
            # Kickers that are themselves three of a rank: the body is the run ending at top.
            run = [r for r in body if self.top - self.trios < r <= self.top]
            body = run if len(run) == self.trios else body[-self.trios :]
        return tuple(body)

    @property
    def said(self) -> Said:
        """The play's name for players: its kind's, except a short last hand (a trio or a
        plane carrying fewer kickers than the kind asks, allowed only as the last play),
        named by what it holds: ``333 + 4`` out is a trio with one as the last hand, never
        a 三带二."""
        total = C.total(self.counts)
        if self.kind == ComboKind.TRIO_WITH_TWO and total < 5:
            held = ComboKind.TRIO if total == 3 else ComboKind.TRIO_WITH_ONE
            return Said.of("kind_last_hand", kind=held.said)
        if self.kind == ComboKind.PLANE and total < 5 * self.trios:
            return Said.of("kind_last_hand", kind=Said("kind_plane_short"))
        return self.kind.said

    def shown(self) -> str:
        """The play as players read it, as the table shows it: the body, then the kickers
        (``555 + 4 9``, ``10 10``, ``9 10 J Q K``, a low chain ``A 2 3 4 5``); messages
        quote plays this way."""
        if self.kind not in _BODY_OF_THREE and self.kind != ComboKind.FOUR_WITH:
            ranks = sorted(C.ranks_list(self.counts), key=lambda r: reading_rank(self.kind, self.top, r))
            return " ".join(rank_groups(ranks))
        per = 4 if self.kind == ComboKind.FOUR_WITH else 3
        body = sum(per * C.ONE[r] for r in self.body_ranks())
        kickers = counts_label(self.counts - body)
        return counts_label(body) + (" + " + kickers if kickers else "")

    def groups(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The play as it reads, for display: the body's cards, then the kickers' (each a
        rank character, lowest first). Kinds without kickers have an empty second part."""
        per = 4 if self.kind == ComboKind.FOUR_WITH else 3
        body = self.body_ranks()
        rest = self.counts
        head: list[str] = []
        if self.kind in _BODY_OF_THREE or self.kind == ComboKind.FOUR_WITH:
            for r in body:
                head += [RANK_CHARS[r]] * per
                rest -= per * C.ONE[r]
            return tuple(head), tuple(RANK_CHARS[r] for r in C.ranks_list(rest))
        return tuple(RANK_CHARS[r] for r in C.ranks_list(self.counts)), ()


def rank_groups(ranks: Iterable[int]) -> list[str]:
    """Ranks (lowest first, once per card) as players read them, a group per rank: ``555``;
    a label of two characters is spaced (``10 10``, ``小王 小王``) so that ranks never run
    together. Notation writes a ten ``T`` (one character a card, for typing and records);
    what a player is shown writes ``10``."""
    groups: list[str] = []
    last = -1
    for r in ranks:
        label = rank_label(r)
        if r == last:
            groups[-1] += (" " if len(label) > 1 else "") + label
        else:
            groups.append(label)
        last = r
    return groups


_LOW_CHAINS = (ComboKind.STRAIGHT, ComboKind.STRAIGHT_FLUSH, ComboKind.PAIR_CHAIN)


def reading_rank(kind: int, top: int, rank: int) -> int:
    """Where ``rank`` reads in a play of ``kind`` topped by ``top``: its rank, except that in
    a chain whose top is below the A (``low_ace_two``: A2345, AA2233) the A and the 2 read
    first, as the low cards they are there."""
    if kind in _LOW_CHAINS and top < Rank.ACE and rank >= Rank.ACE:
        return rank - Rank.ACE - 2
    return rank


def counts_label(counts: int) -> str:
    """Rank counts as players read them (``10 10``, ``3 4 5 6 7``)."""
    return " ".join(rank_groups(C.ranks_list(counts)))


def counts_notation(counts: int) -> str:
    """Rank counts in notation, lowest first, one character per card: how a move is
    written in records, JSON and messages (suits do not matter to it)."""
    return "".join(RANK_CHARS[r] for r in C.ranks_list(counts))


def move_of(counts: int, reading: Reading) -> Move:
    """The move that plays ``counts`` as ``reading``."""
    return Move(counts, reading.kind, reading.top, reading.units)


# A bomb's units: 1 + BOMB_TIER * (rank of its kind in the profile's bomb order) + size term.
BOMB_TIER = 32
_TRIO_KINDS = (ComboKind.TRIO, ComboKind.TRIO_WITH_ONE, ComboKind.TRIO_WITH_TWO)
_BODY_OF_THREE = (*_TRIO_KINDS, ComboKind.PLANE, ComboKind.TRIO_CHAIN)


@dataclass(frozen=True, slots=True)
class Reading:
    """How a play counts: kind, compared rank, units (chain length / trio count)."""

    kind: ComboKind
    top: int
    units: int


def beats(kind: int, top: int, units: int, prev_kind: int, prev_top: int, prev_units: int) -> bool:
    """Same kind and units and higher, or a bomb over a non-bomb / a weaker bomb.

    Bombs compare by units (their kind's place in the bomb order, then size where size
    counts) and then by top rank; a straight flush beats any plain straight of its length.
    """
    if kind == BOMB:
        return prev_kind != BOMB or (units, top) > (prev_units, prev_top)
    if kind == STRAIGHT_FLUSH and prev_kind == STRAIGHT:
        return units == prev_units
    return kind == prev_kind and units == prev_units and top > prev_top


def bomb_units(profile: Profile, kind: str, size: int) -> int:
    """The units of a bomb of ``kind`` with ``size`` cards (see ``BOMB_TIER``)."""
    tier = profile.bomb_kinds.index(kind)
    extra = 0
    if (kind == "same_rank" and profile.bombs.more_cards_beat_fewer) or kind == "straight_flush":
        extra = size
    return 1 + BOMB_TIER * tier + extra


def _pairs_only(counts: int) -> bool:
    return all(n % 2 == 0 for _, n in C.items(counts))


def trio_kind(profile: Profile, kickers: int) -> ComboKind:
    """The kind a trio with ``kickers`` reads as."""
    if not profile.combinations.trio.follow_same_kickers:
        return ComboKind.TRIO_WITH_TWO
    return _TRIO_KINDS[min(kickers, 2)]


def plane_reading(profile: Profile, top: int, trios: int, kickers: int) -> Reading:
    """A plane of ``trios`` trios topped by ``top`` carrying ``kickers`` cards."""
    plane = profile.combinations.plane
    if kickers == 0 and plane.bare and plane.follow_same_kickers:
        return Reading(ComboKind.TRIO_CHAIN, top, trios)
    units = trios
    if plane.follow_same_kickers and plane.low < plane.kickers_per_trio:
        units += kickers << UNITS_KICKER_SHIFT
    return Reading(ComboKind.PLANE, top, units)


def classify(profile: Profile, counts: int, *, whole_hand: bool, flush: bool = False) -> list[Reading]:
    """Every reading of a set of cards under the profile, ignoring what the hand holds.

    ``whole_hand`` says the cards are the player's entire remaining hand, which is when a
    trio or plane may carry fewer kickers (the short last hand). ``flush`` says the cards
    are all of one suit (only straight flushes care).
    """
    combos = profile.combinations
    bombs = profile.bombs
    its = C.items(counts)
    n = sum(k for _, k in its)
    readings: list[Reading] = []
    if n == 0:
        return readings
    if len(its) == 1:
        r, k = its[0]
        if k == 1:
            readings.append(Reading(ComboKind.SINGLE, r, 1))
        elif k == 2:
            readings.append(Reading(ComboKind.PAIR, r, 1))
        if bombs.four and bombs.min_size <= k <= bombs.max_size and r < Rank.BLACK_JOKER:
            readings.append(Reading(ComboKind.BOMB, r, bomb_units(profile, "same_rank", k)))
        if bombs.three_aces and k == 3 and r == Rank.ACE:
            readings.append(Reading(ComboKind.BOMB, r, bomb_units(profile, "three_aces", 3)))
    if bombs.joker_pair and counts == C.ONE[Rank.BLACK_JOKER] + C.ONE[Rank.RED_JOKER]:
        readings.append(Reading(ComboKind.BOMB, Rank.RED_JOKER, bomb_units(profile, "joker_pair", 2)))
    if bombs.four_jokers and counts == 2 * (C.ONE[Rank.BLACK_JOKER] + C.ONE[Rank.RED_JOKER]):
        readings.append(Reading(ComboKind.BOMB, Rank.RED_JOKER, bomb_units(profile, "four_jokers", 4)))
    if len(its) >= 2:
        rank_mask = 0
        for r, _ in its:
            rank_mask |= 1 << r
        top = combos.chain_windows.get(rank_mask)
        if top is not None:
            length = len(its)
            pc = combos.pair_chain
            if pc.enabled and length >= pc.min_length and all(k == 2 for _, k in its):
                readings.append(Reading(ComboKind.PAIR_CHAIN, top, length))
            st = combos.straight
            if st.enabled and length >= st.min_length and all(k == 1 for _, k in its):
                readings.append(Reading(ComboKind.STRAIGHT, top, length))
                if flush and combos.straight_flush == "beats_straights":
                    readings.append(Reading(ComboKind.STRAIGHT_FLUSH, top, length))
                elif flush and combos.straight_flush == "bomb":
                    units = bomb_units(profile, "straight_flush", length)
                    readings.append(Reading(ComboKind.BOMB, top, units))
    short = whole_hand and profile.rules.short_last_hand
    trio = combos.trio
    allowed = trio.counts
    most = allowed[-1]
    for t, k in its:
        if k != 3 or t >= Rank.BLACK_JOKER:
            continue
        rest = n - 3
        if rest in allowed and (trio.kicker_kind == "any" or _pairs_only(counts - 3 * C.ONE[t])):
            readings.append(Reading(trio_kind(profile, rest), t, 1))
        elif short and rest < most and rest not in allowed:
            readings.append(Reading(trio_kind(profile, most), t, 1))
    four = combos.four_with
    if four.enabled:
        for r, k in its:
            rest = n - 4
            if k == 4 and four.min_kickers <= rest <= four.max_kickers:
                if four.kicker_kind == "any" or _pairs_only(counts - 4 * C.ONE[r]):
                    units = rest if four.follow_same_kickers else 1
                    readings.append(Reading(ComboKind.FOUR_WITH, r, units))
    if combos.plane.enabled:
        readings.extend(_plane_readings(profile, its, n, counts, short))
    return readings


def _plane_readings(
    profile: Profile, its: list[tuple[int, int]], n: int, counts: int, short: bool
) -> list[Reading]:
    plane = profile.combinations.plane
    trio_mask = 0
    for r, k in its:
        if k == 3:
            trio_mask |= 1 << r
    out: list[Reading] = []
    if trio_mask.bit_count() < plane.min_length:
        return out
    low, high = plane.low, plane.kickers_per_trio
    windows = profile.combinations.chain_windows
    for window in _windows_within(profile, trio_mask, plane.min_length):
        top = windows[window]
        length = window.bit_count()
        rest = n - 3 * length
        if low * length <= rest <= high * length or (rest == 0 and plane.bare):
            if plane.kicker_kind == "pairs" and rest:
                body = sum(3 * C.ONE[r] for r in range(Rank.BLACK_JOKER) if window >> r & 1)
                if not _pairs_only(counts - body):
                    continue
            out.append(plane_reading(profile, top, length, rest))
        elif short and 0 <= rest < low * length:
            out.append(plane_reading(profile, top, length, high * length))
    return out


def _windows_within(profile: Profile, mask: int, min_length: int) -> list[int]:
    """The chain windows made of ranks in ``mask`` only, at least ``min_length`` long, in
    ``chain_windows`` order. A hand holds few trios, so its submasks are usually far fewer
    than the windows (a handful against dozens) and are what is looked up; with many trios
    the windows are walked instead."""
    windows = profile.combinations.chain_windows
    if 1 << mask.bit_count() > len(windows):
        return [w for w in windows if w & mask == w and w.bit_count() >= min_length]
    found = []
    sub = mask
    while sub:
        if sub.bit_count() >= min_length and sub in windows:
            found.append(sub)
        sub = (sub - 1) & mask
    order = profile.combinations.chain_window_order
    return sorted(found, key=order.__getitem__)


def lead_key(r: Reading) -> tuple[int, int, int, int, int]:
    """D2 for a lead: a bomb first (only three aces read both as a bomb and as a trio),
    then the reading with the most trios, a straight flush, the highest top rank."""
    if r.kind in (ComboKind.PLANE, ComboKind.TRIO_CHAIN):
        trios = r.units & UNITS_TRIO_MASK
    else:
        trios = int(r.kind in _TRIO_KINDS)
    return (r.kind == ComboKind.BOMB, trios, r.kind == ComboKind.STRAIGHT_FLUSH, r.top, r.units)


def follow_key(r: Reading) -> tuple[int, int, int]:
    """Among readings that beat the play, the one used: a straight flush over a plain
    straight, then the most units (trios), then the highest top (D2)."""
    return (r.kind == ComboKind.STRAIGHT_FLUSH, r.units, r.top)


def preferred_lead(readings: list[Reading]) -> Reading:
    """D2 for a lead: the reading with the most trios, then the highest top rank."""
    return max(readings, key=lead_key)
