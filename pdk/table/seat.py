"""One seat of a table, as a face drives it: the seat interface and its local kind.

A face (the terminal's ``pdk play``) is keys in and frames out over a ``Seat``: it reads the
seat's snapshot (``SeatTable``: the table model plus what the seat has switched on), sends
the seat's commands, asks for hints, and draws. Two kinds of seat satisfy it:

- ``LocalSeat`` (here): the table service (``pdk.table.service``) in this process. The
  face makes the machine's moves itself (bots, 托管, 要不起), at its own pace (``step``).
- ``RoomSeat`` (``pdk.cli.join``): a seat of a room held by a server, over the room's HTTP
  API. The room's runner makes the machine's moves and the other seats play on their own,
  so the table moves while the face waits (``moved``). It lives with the terminal, not in
  ``pdk.rooms``: it is an HTTP client of the server's API (the pages are the other
  clients), and ``pdk.rooms`` is the server's side of a room.

A seat speaks its face's language: a refusal comes as a sentence (``Refused``), ready to
show, because a room's server words its refusals itself (in the language it is asked in)
and the two kinds must reach the face alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pdk.bots.external import EngineError
from pdk.engine.events import Event
from pdk.table.service import Reply, SeatTable, TableService
from pdk.text.catalog import Lang, LocalizedError
from pdk.view.table_model import PlayModel


class Refused(Exception):
    """A command the seat did not take, in the face's language: ``text`` says why. A
    refusal of the play itself (the rules, a stale or wrong turn) is shown as such
    ("refused: …"); a ``plain`` one is a sentence of its own (a lost connection, a room's
    rule such as "only the host deals")."""

    def __init__(self, text: str, *, plain: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.plain = plain


@dataclass(frozen=True)
class SeatHint:
    """The hint a press of 'hint' shows: the ``index``-th of ``count`` (repeated presses
    cycle), the play (``cards``: what to send back to play it), its kind and why it is
    offered, said in the face's language."""

    index: int
    count: int
    play: PlayModel
    cards: tuple[str, ...]
    kind: str
    why: str


@runtime_checkable
class Seat(Protocol):
    """One seat of a table, for a face to drive. Commands name the move they answer
    (``seq``), return the engine's events they caused (what a face announces at once, such
    as a bomb's score) and raise ``Refused`` when not taken; a local seat also raises
    ``StoreUnavailable`` (nothing applied: the disk is gone) and ``EngineError`` (an outside
    engine broke the protocol)."""

    @property
    def runs_machine(self) -> bool:
        """True: this face makes the machine's moves (``step``, when the snapshot says
        ``machine_turn``) and nothing else moves the table. False: a server makes them,
        and the table moves on its own while the face waits (``moved``)."""
        ...

    def snapshot(self) -> SeatTable | None:
        """The seat's table now; None while there is none yet (a room not dealt)."""
        ...

    def moved(self) -> bool:
        """Whether there is news of the table since the last look, from elsewhere than
        this face (other seats, the room's runner): the face draws it again. It looks
        without waiting."""
        ...

    def news(self) -> list[str]:
        """Sentences the seat has for its player since the last call (a connection lost,
        the history not written), each once."""
        ...

    def gone(self) -> str | None:
        """Why the table cannot be played any more (the room was closed), or None."""
        ...

    def company(self) -> str | None:
        """A line naming who sits at the table, with their totals and 托管 (a room's
        seats), or None when the table's own seat names say it all."""
        ...

    def deals_next(self) -> bool:
        """Whether this seat deals the next deal once one is over (a room's host does)."""
        ...

    def play_text(self, seq: int, text: str) -> tuple[Event, ...]: ...

    def play_cards(self, seq: int, cards: Sequence[str]) -> tuple[Event, ...]: ...

    def pass_turn(self, seq: int) -> tuple[Event, ...]: ...

    def step(self, seq: int) -> tuple[Event, ...]:
        """One move of the machine (a bot, 托管, 要不起), where the face makes them."""
        ...

    def next_deal(self, seq: int) -> tuple[Event, ...]: ...

    def set_auto(self, on: bool) -> tuple[Event, ...]: ...

    def set_auto_pass(self, on: bool) -> tuple[Event, ...]: ...

    def set_counter(self, on: bool) -> tuple[Event, ...]: ...

    def set_auto_level(self, level: str | None) -> tuple[Event, ...]:
        """The level 托管 plays at (None: the table's difficulty)."""
        ...

    def hint(self, seq: int) -> SeatHint | None:
        """The next hint (None: nothing can be played); changes nothing."""
        ...


@dataclass
class LocalSeat:
    """The human seat of a table service in this process (``pdk play``): every command is
    the service's, applied and saved before it returns; the face paces the machine."""

    table: TableService
    lang: Lang

    @property
    def runs_machine(self) -> bool:
        return True

    def snapshot(self) -> SeatTable:
        return self.table.snapshot()

    def moved(self) -> bool:
        return False  # nothing but this face moves a table of one person

    def news(self) -> list[str]:
        return []

    def gone(self) -> str | None:
        return None

    def company(self) -> str | None:
        return None

    def deals_next(self) -> bool:
        return True

    def _do(self, run: Callable[[], Reply]) -> tuple[Event, ...]:
        try:
            return run().events
        except EngineError:
            raise  # not a refusal: the engine is broken, the face stops
        except LocalizedError as exc:  # IllegalPlay, InputError, TableRefused
            raise Refused(exc.message(self.lang)) from None

    def play_text(self, seq: int, text: str) -> tuple[Event, ...]:
        return self._do(lambda: self.table.play_text(seq, text))

    def play_cards(self, seq: int, cards: Sequence[str]) -> tuple[Event, ...]:
        return self._do(lambda: self.table.play_cards(seq, cards))

    def pass_turn(self, seq: int) -> tuple[Event, ...]:
        return self._do(lambda: self.table.pass_turn(seq))

    def step(self, seq: int) -> tuple[Event, ...]:
        return self._do(lambda: self.table.step(seq))

    def next_deal(self, seq: int) -> tuple[Event, ...]:
        return self._do(lambda: self.table.next_deal(seq))

    def set_auto(self, on: bool) -> tuple[Event, ...]:
        return self._do(lambda: self.table.set_auto(on))

    def set_auto_pass(self, on: bool) -> tuple[Event, ...]:
        return self._do(lambda: self.table.set_auto_pass(on))

    def set_counter(self, on: bool) -> tuple[Event, ...]:
        return self._do(lambda: self.table.set_counter(on))

    def set_auto_level(self, level: str | None) -> tuple[Event, ...]:
        return self._do(lambda: self.table.set_auto_level(level))

    def hint(self, seq: int) -> SeatHint | None:
        try:
            shown = self.table.hint(seq)
        except LocalizedError as exc:
            raise Refused(exc.message(self.lang)) from None
        if shown is None:
            return None
        h = shown.hint
        return SeatHint(
            shown.index,
            shown.count,
            shown.play,
            shown.cards,
            h.move.said.text(self.lang),  # a short last hand by what it holds
            shown.reason.text(self.lang),  # what it does, why now, the search's verdict
        )


__all__ = ["LocalSeat", "Refused", "Seat", "SeatHint"]
