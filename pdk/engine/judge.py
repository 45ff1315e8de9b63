"""The rule core: whether a set of cards, by rank counts, is a legal play from a hand, and
as what reading; or the reason it is not.

``pdk.engine.position.check`` (which adds the card-level tests: held cards, the first play's
card) and the general move generator both ask ``judge``, so the two cannot disagree. It
sits below both of them, which keeps the generator from importing the judge that uses it.
"""

from __future__ import annotations

from enum import Enum

from pdk.engine import counts as C
from pdk.engine.cards import Rank, rank_label
from pdk.engine.combos import (
    BOMB,
    ComboKind,
    Move,
    Reading,
    beats,
    classify,
    counts_label,
    follow_key,
    move_of,
    preferred_lead,
)
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


class FollowReason(Enum):
    """Why a play of another shape cannot follow at all (said after "does not beat"):
    the rule text asks for the reason, not only that it does not beat."""

    KIND = "follow_kind"  # a single is followed only by a single (or a bomb)
    KIND_N = "follow_kind_n"  # a straight of 5 only by a straight of 5 (or a bomb)
    KIND_NO_BOMB = "follow_kind_no_bomb"
    KIND_N_NO_BOMB = "follow_kind_n_no_bomb"


class FollowNote(LocalizedError):
    """The shape a follow must have, as a part of a ``DOES_NOT_BEAT`` refusal."""

    reason: FollowReason


_HIGHEST = 99  # above every rank: "would this shape beat, were it high enough?"

# Kinds whose length varies: a follow must match the number of cards as well as the kind.
_CHAINS = {ComboKind.STRAIGHT, ComboKind.PAIR_CHAIN, ComboKind.PLANE, ComboKind.TRIO_CHAIN}


def follow_note(profile: Profile, prev: Move) -> FollowNote:
    """What may follow ``prev``: its kind (and length, for a chain), or a bomb where the
    profile has bombs."""
    kind = ComboKind(prev.kind)
    chain = kind in _CHAINS or (
        kind == ComboKind.STRAIGHT_FLUSH and "straight_flush" not in profile.bomb_kinds
    )
    bombs = bool(profile.bomb_kinds)
    reason = {
        (False, True): FollowReason.KIND,
        (True, True): FollowReason.KIND_N,
        (False, False): FollowReason.KIND_NO_BOMB,
        (True, False): FollowReason.KIND_N_NO_BOMB,
    }[(chain, bombs)]
    return FollowNote(reason, kind=kind, n=C.total(prev.counts))


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
) -> Reading | tuple[Reason, dict[str, object]]:
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
        text = counts_label(counts)
        if profile.rules.short_last_hand and classify(profile, counts, whole_hand=True):
            return Reason.BARE_TRIO, {"cards": text}
        return Reason.NOT_A_COMBINATION, {"cards": text}
    if locked is None:
        locked = locked_ranks(profile, hand_counts)
    if locked:
        kept = [rd for rd in readings if _keeps_bombs(rd, counts, hand_counts, locked)]
        if not kept:
            r = next(r for r in locked if C.count(counts, r))
            bomb = counts_label(C.count(hand_counts, r) * C.ONE[r])
            return Reason.BREAKS_BOMB, {"cards": counts_label(counts), "bomb": bomb}
        readings = kept
    if prev is not None:
        _, pk, ptop, punits = prev
        beating = [rd for rd in readings if beats(rd.kind, rd.top, rd.units, pk, ptop, punits)]
        if not beating:
            # Too low, or not even the shape that could follow: then the rule is said too.
            shaped = any(
                rd.kind == BOMB or beats(rd.kind, _HIGHEST, rd.units, pk, ptop, punits) for rd in readings
            )
            return Reason.DOES_NOT_BEAT, {
                "cards": move_of(counts, preferred_lead(readings)).shown(),
                "prev": prev.shown(),
                "why": "" if shaped else follow_note(profile, prev),
            }
        reading = beating[0] if len(beating) == 1 else max(beating, key=follow_key)
    else:
        reading = readings[0] if len(readings) == 1 else preferred_lead(readings)
    if reading.kind == ComboKind.SINGLE and next_has_one and profile.rules.bao_dan_highest_single:
        high = highest_single(profile, hand_counts)
        if reading.top != high:
            if prev is not None and high <= prev.top:
                return Reason.NO_SINGLE_UNDER_BAO_DAN, {"high": rank_label(high), "prev": prev.shown()}
            return Reason.HIGHEST_SINGLE, {"high": rank_label(high)}
    return reading


def highest_single(profile: Profile, hand_counts: int) -> int:
    """D1: the highest rank the player may play as a single (bomb-locked ranks excluded)."""
    locked = set(locked_ranks(profile, hand_counts))
    return max((r for r, _ in C.items(hand_counts) if r not in locked), default=-1)
