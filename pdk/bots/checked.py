"""The one checked-answer path for plug-in bots, shared by matches and replays.

The built-in bots are trusted; a user's bot is not. ``checked_choice`` asks it for a move
and accepts the answer only if it is one of the legal choices of the view's position; an
exception, an illegal move or pass, or (with a time limit) an answer that takes too long
becomes a ``BadAnswer`` before it can reach a game state. The caller turns that into its
own one-line message (a match names the game and deal, a replay the step).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from types import FrameType

from pdk.bots import bot_label, one_line
from pdk.bots.base import Bot
from pdk.bots.external import EngineError
from pdk.engine.cards import SUIT_CHARS
from pdk.engine.combos import ComboKind, Move, counts_notation
from pdk.engine.state import PlayerView


class AnswerFault(Enum):
    """How a plug-in's answer failed."""

    RAISED = "raised"
    ILLEGAL = "illegal"
    ILLEGAL_PASS = "illegal_pass"
    TIMEOUT = "timeout"


class BadAnswer(Exception):
    """A plug-in's answer that was refused: ``detail`` is the exception (``RAISED``) or the
    move in notation (``ILLEGAL``); ``legal`` is how many legal plays it had."""

    def __init__(self, fault: AnswerFault, detail: str = "", legal: int = 0) -> None:
        super().__init__(fault.value, detail)
        self.fault = fault
        self.detail = detail
        self.legal = legal


class _Overtime(BaseException):
    """Raised inside a bot's ``choose`` when its time is up (a BaseException, so that a
    bot's own ``except Exception`` cannot swallow it)."""


def checked_choice(bot: Bot, view: PlayerView, timeout: float | None = None) -> Move | None:
    """``bot``'s answer for ``view`` if it is legal there (the engine's own ``Move`` from
    then on, whatever equal value the bot built); else ``BadAnswer``. ``timeout`` seconds
    bound the answer where a timer can interrupt it (the main thread of a process)."""
    try:
        with _time_limit(timeout):
            move = bot.choose(view)
    except _Overtime:
        raise BadAnswer(AnswerFault.TIMEOUT) from None
    except EngineError:
        raise  # an outside engine's fault is already named, with its own reason
    except Exception as exc:
        raise BadAnswer(AnswerFault.RAISED, one_line(exc)) from None
    pos = view.position()
    legal = pos.legal_moves()
    if move is None:
        if pos.can_pass(legal):
            return None
        raise BadAnswer(AnswerFault.ILLEGAL_PASS, legal=len(legal))
    try:
        return _matched(legal, move)
    except Exception:  # not in the list, or a value whose == raises (an array, say)
        raise BadAnswer(AnswerFault.ILLEGAL, describe(move), len(legal)) from None


def _matched(legal: list[Move], move: object) -> Move:
    """The legal move ``move`` names: an equal one (a straight flush with its suit), else,
    for the old four-field tuple without a suit, the one legal move with those four fields.
    Four fields that fit flushes of several suits name none of them: ``ValueError``."""
    if move in legal:
        return legal[legal.index(move)]
    if isinstance(move, tuple) and len(move) == 4:
        named = [m for m in legal if m[:4] == move]
        if len(named) == 1:
            return named[0]
    raise ValueError(move)


def named(bot: object, spec: str) -> str:
    """How a refused answer names its plug-in: its ``name`` with the spec beside it, so the
    user knows both the bot and the file to fix."""
    label = bot_label(bot, spec)
    return spec if label == spec else f"{label} ({spec})"


def describe(move: object) -> str:
    """A move a plug-in returned, in notation with its kind if it has the shape of one."""
    try:
        if not (isinstance(move, tuple) and len(move) in (4, 5)):
            return repr(move)[:80]
        notation = counts_notation(int(move[0]))
        suit = int(move[4]) if len(move) == 5 else -1
        label = ComboKind(int(move[1])).label + (f" {SUIT_CHARS[suit]}" if 0 <= suit < 4 else "")
        text = f"{notation} ({label})" if notation else repr(move)
    except Exception:
        text = repr(move)
    return text if len(text) <= 80 else text[:79] + "…"


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` with ``_Overtime`` (SIGALRM's interval timer).
    Without a limit, off the main thread or where there is no such timer, it only runs the
    block: a limit that cannot be kept is not pretended."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return
    if not hasattr(signal, "setitimer"):
        yield
        return

    def overtime(signum: int, frame: FrameType | None) -> None:
        raise _Overtime

    old = signal.signal(signal.SIGALRM, overtime)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


__all__ = ["AnswerFault", "BadAnswer", "checked_choice", "describe", "named"]
