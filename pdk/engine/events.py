"""What happened when an action was applied, as typed values: the engine says it once.

Faces used to compare states to learn what a move did (a bomb's bonus recomputed, the
finishing order rebuilt from hand sizes). ``GameState.act`` returns these events instead,
worked out from the few counters the state machine already keeps, so a face only says
them. The fast paths (``GameState.step`` and ``play``, every simulated turn) build none:
events cost nothing when nobody listens.

A record replays into the same events (``replay_events``), since they follow from the
actions alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pdk.engine.position import Play
from pdk.engine.settlement import Settlement


@dataclass(frozen=True, slots=True)
class Played:
    """A seat played ``play`` (its cards and its reading: kind, top rank, units)."""

    seat: int
    play: Play


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Everyone else passed: ``seat`` took the trick with ``play`` (the next lead follows)."""

    seat: int
    play: Play


@dataclass(frozen=True, slots=True)
class BombStands:
    """A bomb scored its bonus (when its trick was won, or when played, by the profile):
    ``collects`` is what its player takes in all, ``each`` what every other seat pays
    (0 when the bonus comes from nobody)."""

    seat: int
    collects: int
    each: int


@dataclass(frozen=True, slots=True)
class BaoDan:
    """报单: ``seat`` is down to one card."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """``seat`` played its last card and finished ``place`` (1 = 头游)."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class DealOver:
    """The deal is over; the settlement names every payment (包赔 included)."""

    settlement: Settlement


Event = Played | Passed | TrickWon | BombStands | BaoDan | PlayerOut | DealOver


@dataclass(frozen=True, slots=True)
class Before:
    """The counters ``GameState.act`` reads before an action, to say what it changed."""

    seat: int
    bombs: tuple[int, ...]
    trick_start: int
    top: Play | None
    top_seat: int | None
    out: int


def said_events(
    before: Before,
    play: Play | None,
    sizes: Sequence[int],
    bombs: Sequence[int],
    trick_start: int,
    history_len: int,
    order: Sequence[int],
    bonus: int,
    each_other: bool,
    settlement: Settlement | None,
) -> tuple[Event, ...]:
    """The events of one action, from the counters before it and after it."""
    seat = before.seat
    out: list[Event] = []
    if play is None:
        out.append(Passed(seat))
        if trick_start == history_len and before.top is not None and before.top_seat is not None:
            out.append(TrickWon(before.top_seat, before.top))
    else:
        out.append(Played(seat, play))
    others = len(sizes) - 1
    for s, (was, now) in enumerate(zip(before.bombs, bombs, strict=True)):
        if now > was:
            each = (now - was) * bonus if each_other else 0
            out.append(BombStands(s, each * others if each_other else (now - was) * bonus, each))
    if play is not None:
        if sizes[seat] == 1:
            out.append(BaoDan(seat))
        elif sizes[seat] == 0:
            out.append(PlayerOut(seat, order.index(seat) + 1 if seat in order else before.out + 1))
    if settlement is not None:
        out.append(DealOver(settlement))
    return tuple(out)


__all__ = [
    "BaoDan",
    "Before",
    "BombStands",
    "DealOver",
    "Event",
    "Passed",
    "Played",
    "PlayerOut",
    "TrickWon",
    "said_events",
]
