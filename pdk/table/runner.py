"""What the machine does next at a table, and when: one rule for every face.

A table moves without anyone asking in five ways: a bot's move, a 托管 seat's move, a
要不起 pass (nothing beats and auto-pass is on), and in a room a person put in 托管 because
their turn time ran out or they went away. Each face used to time these itself, and the
copies drifted: the pause before an automatic pass was a floor of 0.6 s in the terminal,
600 ms in the page and absent from rooms, and only the single table's ``step`` endpoint
sent hard bots through the server's thinking slots, so ``--hard-slots`` did not bound the
hard bots of rooms. So there is one decision, ``due``: given a seat's snapshot (never the
session), how long the table has been still, the face's pace, and for a room its turn time
and who is away, it names the one thing due (``Due``) and in how many seconds. The faces
only carry it out: ``pdk play`` sleeps ``pause`` and steps, a room's runner
(``pdk.web.rooms_api``) and the page's ``/step`` run it through the same thinking slots
(``pdk.web.machine``), since ``Due.hard`` says which moves are a hard bot's search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pdk.table.service import SeatTable

PASS_PAUSE = 0.6  # seconds: the least pause before an automatic pass, to read the play not beaten
HARD = "hard"  # the level whose moves are searches that take a thinking slot


@dataclass(frozen=True)
class Due:
    """The next thing the machine does at a table.

    ``wait`` seconds from now (0: now; None: nothing until someone acts). At ``wait`` 0,
    ``move`` says what: ``"step"`` (the table service's ``step``: a bot, 托管 or 要不起) or
    ``"auto"`` (``seat`` goes to 托管, ``why``: its turn time ran out, or its person is
    away). ``seq`` and ``version`` are the table it was decided on, so a move decided
    before someone else moved is not made; ``hard``: the move is a hard bot's search."""

    wait: float | None
    move: Literal["step", "auto"] | None = None
    seat: int | None = None
    why: Literal["turn", "away"] | None = None
    seq: int = -1
    version: int = -1
    hard: bool = False


def passing(t: SeatTable) -> bool:
    """The machine's move is 要不起's pass for a person (not a bot's, not 托管's)."""
    return t.machine_turn and not t.bot_turn and t.turn not in t.auto_seats


def pause(t: SeatTable, pace: float) -> float:
    """Seconds a face shows the table before the machine's move on it: the face's pace,
    at least ``PASS_PAUSE`` before an automatic pass; none at pace 0 (tests, pipes)."""
    if pace <= 0:
        return 0.0
    return max(pace, PASS_PAUSE) if passing(t) else pace


def hard(t: SeatTable) -> bool:
    """The machine's move is a hard bot's search: a bot's at a hard table, or 托管's where
    it plays at hard (the level picked for it, else the table's; 要不起 is a pass)."""
    if not t.machine_turn:
        return False
    if t.bot_turn:
        return t.difficulty == HARD
    return t.turn in t.auto_seats and hard_level(t)


def hard_level(t: SeatTable) -> bool:
    """托管 plays at hard here (the level picked for it, else the table's): one 托管 move
    asked for at once is a hard search."""
    return (t.auto_level or t.difficulty) == HARD


def due(
    t: SeatTable,
    *,
    pace: float,
    still: float,
    turn_time: float = 0,
    away: Mapping[int, float | None] | None = None,
) -> Due:
    """The next thing due at the table ``t`` shows, which has not moved for ``still``
    seconds. ``pace``: seconds a machine move waits (``pause``); ``turn_time``: seconds a
    person has for a move before 托管 takes it (0: no limit); ``away``: for each person's
    seat not in 托管, seconds until it counts as away (<= 0: it is), None while connected.
    A seat away comes first, then the machine's move, then the turn time."""
    if t.over:
        return Due(None)
    waits: list[float] = []
    for seat, left in (away or {}).items():
        if left is not None and left <= 0:
            return Due(0.0, "auto", seat, "away", t.seq, t.version)
        if left is not None:
            waits.append(left)
    if t.machine_turn:
        wait = pause(t, pace) - still
        if wait > 0:
            return Due(min([wait, *waits]))
        return Due(0.0, "step", t.turn, None, t.seq, t.version, hard(t))
    if turn_time:
        left = turn_time - still
        if left <= 0:
            return Due(0.0, "auto", t.turn, "turn", t.seq, t.version)
        waits.append(left)
    return Due(min(waits) if waits else None)


__all__ = ["HARD", "PASS_PAUSE", "Due", "due", "hard", "passing", "pause"]
