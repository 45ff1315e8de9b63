"""Hints for a human player: every legal play, cheapest sensible first, each with a reason.

A player trusts a hint that plays the way a careful player would: go out when you can;
otherwise keep pairs, trios, chains and bombs whole and shed the lowest play that does
(when following, the lowest play that beats); spend a 2, a pair of aces, a joker or a
bomb only when nothing cheaper will do. "Whole" is the planner's judgement
(``pdk.bots.plan``): a play costs what it does to the value of the cards left, so taking
one 7 out of 777 costs more than playing a lone 8.

The list is exactly the position's legal plays (must-beat and 报单 are the generator's,
so they hold here too); ``pdk play``'s hint key cycles through it and 托管 plays the
first. Reasons are message keys with parameters (``pdk.text.messages.hints``), rendered
in the player's language by the face that shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdk.bots.plan import planner_for
from pdk.engine import counts as C
from pdk.engine.cards import Rank
from pdk.engine.combos import ComboKind, Move
from pdk.engine.state import PlayerView

_BOMBS = (ComboKind.BOMB, ComboKind.STRAIGHT_FLUSH)
_GROUP_OF = {2: "pair", 3: "trio", 4: "four"}
_FIRST_ONLY = ("hint_why_lowest_beat", "hint_why_lowest_lead", "hint_why_keeps")


@dataclass(frozen=True, slots=True)
class Hint:
    """One legal play and why it is offered: ``reason`` is a message key, ``params`` its
    parameters (ranks as rank indexes under ``rank``/``high``, group names as keys)."""

    move: Move
    reason: str
    params: dict[str, int | str] = field(default_factory=dict)


def premium(move: Move) -> bool:
    """A play a player keeps for the end: any bomb, a 2, a joker, or two or more aces."""
    if move.kind in _BOMBS:
        return True
    return any(r >= Rank.TWO or (r == Rank.ACE and n >= 2) for r, n in C.items(move.counts))


def broken(move: Move, hand: int) -> tuple[str, int] | None:
    """The largest same-rank group of the hand the play splits (a pair, trio or four it takes
    only part of), as (group name, rank); ``None`` when it takes every group whole."""
    worst: tuple[int, int] | None = None
    for r, used in C.items(move.counts):
        held = C.count(hand, r)
        if used < held and held >= 2 and (worst is None or held > worst[0]):
            worst = (held, r)
    if worst is None:
        return None
    return _GROUP_OF[min(worst[0], 4)], worst[1]


def hint_list(view: PlayerView) -> list[Hint]:
    """Every legal play for the seat, cheapest sensible first, each with its reason."""
    pos = view.position()
    moves = pos.legal_moves()
    hand = C.from_mask(view.hand)
    plan = planner_for(pos.gen)
    following = view.prev is not None

    def key(m: Move) -> tuple[bool, bool, bool, float, float, int]:
        out = m.counts == hand
        loss = -plan.value(hand - m.counts)
        split = broken(m, hand) is not None
        if following:  # the lowest play that beats; the planner only picks among kickers
            return (not out, premium(m), split, float(m.top), round(loss, 6), 0)
        return (not out, premium(m), split, round(loss, 6), m.top, -C.total(m.counts))

    ordered = sorted(moves, key=key)
    bao_dan = pos.next_has_one and any(m.kind == ComboKind.SINGLE for m in ordered)
    out = [_reason(m, ordered, hand, following, bao_dan) for m in ordered]
    # Only the first whole play of a kind is "the lowest"; a later one plays higher.
    seen: set[tuple[ComboKind, int]] = set()
    for i, h in enumerate(out):
        kind, top = h.move.kind, h.move.top
        if (kind, top) in seen and not h.reason.startswith("hint_why_premium"):
            out[i] = Hint(h.move, "hint_why_other_kickers", {"rank": top})
        elif h.reason in _FIRST_ONLY and any(k == kind for k, _ in seen):
            out[i] = Hint(h.move, "hint_why_higher" if following else "hint_why_lead_other", {"rank": top})
        seen.add((kind, top))
    return out


def _reason(m: Move, ordered: list[Move], hand: int, following: bool, bao_dan: bool) -> Hint:
    if m.counts == hand:
        return Hint(m, "hint_why_out")
    if bao_dan and m.kind == ComboKind.SINGLE:
        return Hint(m, "hint_why_bao_dan", {"rank": m.top})
    split = broken(m, hand)
    if premium(m):
        if any(not premium(o) for o in ordered):
            return Hint(m, "hint_why_premium_spent", {"rank": m.top})
        return Hint(m, "hint_why_premium_only", {"rank": m.top})
    if split is not None:
        group, rank = split
        return Hint(m, "hint_why_breaks", {"group": group, "rank": rank})
    # Whole: name a group a cheaper-looking play of the same kind would have broken.
    for o in ordered:
        if o.kind == m.kind and o.top < m.top:
            spoilt = broken(o, hand)
            if spoilt is not None:
                group, rank = spoilt
                return Hint(m, "hint_why_keeps", {"group": group, "rank": rank})
    return Hint(m, "hint_why_lowest_beat" if following else "hint_why_lowest_lead", {"rank": m.top})


def hints(view: PlayerView) -> list[Move]:
    """Every legal play for the seat, cheapest sensible first (passing is not a hint)."""
    return [h.move for h in hint_list(view)]
