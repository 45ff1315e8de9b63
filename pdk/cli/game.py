"""The terminal's game: keys in, frames out, over one seat (``pdk.table.seat``).

``pdk play`` and ``pdk play --join`` are this one loop over two kinds of seat: a table in
this process (``LocalSeat``), whose machine moves this loop paces, or a room's seat on a
server (``RoomSeat``, ``pdk.cli.join``), whose table moves on its own while the loop waits
for a line. The loop reads the seat's snapshot only (the table model and the seat's
switches), never a session; the table module (``pdk.cli.table``) draws it.
"""

from __future__ import annotations

import select
import signal
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Group, RenderableType

from pdk.bots import DIFFICULTIES
from pdk.bots.external import EngineError
from pdk.cli.common import fail, make_console
from pdk.cli.play_input import Cmd, parse_command
from pdk.cli.prose import Prose
from pdk.cli.table import SHORT, Frame, play_text, render_over, render_settlement, render_table
from pdk.engine.events import BombStands, Event
from pdk.store.contract import StoreUnavailable
from pdk.table import runner
from pdk.table.seat import Refused, Seat, SeatHint
from pdk.table.service import SeatTable
from pdk.text.catalog import Lang, tr

POLL = 0.25  # seconds between two looks at a seat that moves on its own, while a line is awaited


@dataclass
class Ui:
    """What the loop remembers between frames (not part of the game)."""

    lang: Lang
    delay: float
    messages: list[str] = field(default_factory=list)
    hint: SeatHint | None = None  # the hint on show, and the move it was for
    hint_at: tuple[int, int] = (-1, -1)  # (deal, seq)
    auto_note: str = ""  # the last 要不起 notice: a new one replaces it, they never pile up
    save: Path | None = None  # where the game is saved, when it is saved here
    resume: str = "pdk play"  # the command that finds this save again


@contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Hold Ctrl-C while a command is applied and saved, so it lands whole or not at all."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt


def auto_on(t: SeatTable) -> bool:
    """托管 is on for the seat, as its table model shows it."""
    return t.model.seat(t.model.viewer).auto


# 托管's levels in the order the ``l`` key steps through them: the table's, then each level.
AUTO_LEVELS: tuple[str | None, ...] = (None, *DIFFICULTIES)


def auto_level_said(level: str | None, lang: Lang) -> str:
    """托管's level in words, as the page's ☰ menu names it."""
    return tr("web_auto_level_table" if level is None else f"diff_{level}", lang)


def over(t: SeatTable) -> bool:
    return t.model.task.kind == "over"


class Game:
    """Keys in, frames out, over one seat: the seat applies (and saves) each command, the
    loop says what happened and draws the seat's table."""

    def __init__(self, seat: Seat, ui: Ui) -> None:
        self.seat = seat
        self.ui = ui
        self.console = make_console()
        self.unsaved: str | None = None  # why the last write failed, if it did

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, t: SeatTable, keep_messages: bool = False) -> None:
        frame = Frame(
            t.model,
            self.ui.lang,
            session_total=t.session_total,
            auto=auto_on(t),
            counter=t.counter,
            messages=tuple(self.ui.messages),
        )
        if not keep_messages:
            self.ui.messages = []
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(render_table(frame, self.console.width))
        self.print_company()

    def draw_waiting(self) -> None:
        """No deal yet (a room its host has not dealt): who sits there, and the news."""
        if self.console.is_terminal:
            self.console.clear()
        company = self.seat.company() or ""
        waiting = tr("web_room_waiting", self.ui.lang)
        self.console.print(
            Group(Prose(company, style="bold"), Prose(waiting), *(Prose(m) for m in self.ui.messages))
        )
        self.ui.messages = []

    def print_company(self) -> None:
        company = self.seat.company()
        if company is not None:
            self.console.print(Prose(company))

    def lines(self, *parts: RenderableType) -> int:
        """How many lines these take on this terminal."""
        return sum(len(self.console.render_lines(p, self.console.options, pad=False)) for p in parts)

    def ask(self, prompt: str) -> str:
        """Read one line at a prompt, after discarding keys typed ahead (on a terminal), so
        a buffered Enter never answers a prompt the player has not seen yet."""
        if sys.stdin.isatty():
            with suppress(termios.error):
                termios.tcflush(sys.stdin, termios.TCIFLUSH)
        return self.console.input(prompt)

    def read(self, prompt: str) -> str | None:
        """One line typed at ``prompt``; None when the table moved first (a seat whose table
        moves on its own: the caller draws it again). ``EOFError`` at the end of input.
        A table in this process waits for the player, so the read blocks (and drops keys
        typed during the machine's moves); a room moves meanwhile, so the line is awaited
        beside the room's changes, and keys typed ahead are kept."""
        if self.seat.runs_machine:
            return self.ask(prompt)
        self.console.print(prompt, end="")
        while True:
            self.ui.messages.extend(self.seat.news())
            if self.seat.moved() or self.ui.messages:
                return None
            if sys.stdin.isatty() or _selectable():
                ready, _, _ = select.select([sys.stdin], [], [], POLL)
                if not ready:
                    continue
            line = sys.stdin.readline()
            if line == "":
                raise EOFError
            return line

    def say(self, text: str) -> None:
        """A sentence, wrapped at the terminal's width between words (and between Chinese
        characters): printed raw, the terminal cut "deal 1 is ov|er." at 40 columns."""
        self.console.print(Group(Prose(text)))

    def say_path(self, path: str) -> None:
        """A path alone on its line, never broken by us (soft wrap), so that it copies whole."""
        self.console.print(path, markup=False, soft_wrap=True)

    # -- commands ----------------------------------------------------------------------------

    def command(self, run: Callable[[], tuple[Event, ...]]) -> bool:
        """One seat command: applied and saved together, or (the write failed) not at all,
        said in one line; a refusal is said with its reason. Whether it was taken."""
        lang = self.ui.lang
        with deferred_interrupt():
            try:
                events = run()
            except EngineError as exc:  # the game is saved after every play: nothing is lost
                fail(exc.message(lang))
            except StoreUnavailable as exc:
                self.unsaved = exc.detail
                self.ui.messages.append(tr("save_failed", lang, detail=exc.detail))
                return False
            except Refused as exc:
                self.ui.messages.append(exc.text if exc.plain else tr("refused", lang, reason=exc.text))
                return False
        self.unsaved = None
        self.note_events(events)
        return True

    def note_events(self, events: tuple[Event, ...]) -> None:
        """A bomb that stands (or scores when played) shows its credit at once, not only in
        the settlement."""
        lang = self.ui.lang
        t = None
        for e in events:
            if isinstance(e, BombStands) and e.collects:
                t = t or self.seat.snapshot()
                assert t is not None
                who = t.model.seat(e.seat).name.text(lang)
                key = "bomb_scores_each" if e.each else "bomb_scores"
                self.ui.messages.append(tr(key, lang, who=who, bonus=e.each, amount=e.collects))

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the player quits; Ctrl-C ends 托管, or quits otherwise."""
        while True:
            try:
                if not self._loop():
                    return
            except KeyboardInterrupt:
                t = self.seat.snapshot()
                if t is not None and auto_on(t):
                    self.command(lambda: self.seat.set_auto(False))
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    continue
                self.quit()
                return

    def _loop(self) -> bool:
        while True:
            self.ui.messages.extend(self.seat.news())
            gone = self.seat.gone()
            t = self.seat.snapshot()
            if gone is not None:
                if t is None:
                    self.draw_waiting()
                else:
                    self.draw(t)
                self.console.print(gone)
                return False
            if t is None:
                if not self.wait_for_deal():
                    return False
                continue
            if over(t):
                if not self.finish_deal(t):
                    return False
                continue
            # After a failed write the machine waits for the player (Enter tries again).
            if self.seat.runs_machine and t.machine_turn and self.unsaved is None:
                self.machine_move(t)
                continue
            self.draw(t)
            try:
                line = self.read(tr("prompt", self.ui.lang))
            except EOFError:
                self.quit()
                return False
            if line is not None and not self.handle(line, t):
                return False

    def wait_for_deal(self) -> bool:
        """No deal yet: wait for one (q quits, ? helps); False = quit."""
        self.draw_waiting()
        try:
            line = self.read("")
        except EOFError:
            self.quit()
            return False
        if line is None:
            return True
        cmd = parse_command(line)
        if cmd.kind is Cmd.QUIT:
            self.quit()
            return False
        self.ui.messages.append(tr("help" if cmd.kind is Cmd.HELP else "web_room_not_started", self.ui.lang))
        return True

    def machine_move(self, t: SeatTable) -> None:
        """A bot's move, 托管's, or 要不起's for the player's seat.

        On a terminal the table is redrawn before each such move and the move takes at
        least ``delay`` seconds, so the player can follow the table (and press Ctrl-C to
        end 托管); without a terminal moves are instant and only the player's turns draw.
        """
        live = self.console.is_terminal
        lang = self.ui.lang
        passing = runner.passing(t)  # 要不起: nothing beats
        beaten = t.model.task.beat
        if passing and live and self.ui.delay > 0:
            self.ui.messages.append(tr("auto_pass_now", lang))
            self.draw(t, keep_messages=True)
            self.ui.messages.pop()
            time.sleep(runner.pause(t, self.ui.delay))
        elif live:
            self.draw(t, keep_messages=True)
            if self.ui.delay > 0:
                self.wait(self.ui.delay)
                now = self.seat.snapshot()
                if not t.bot_turn and now is not None and not auto_on(now):
                    return  # 托管 was taken back during the pause: the turn is the player's
        if self.command(lambda: self.seat.step(t.seq)) and passing:
            cards = "" if beaten is None or beaten.play is None else beaten.play.text
            if self.ui.auto_note in self.ui.messages:
                self.ui.messages.remove(self.ui.auto_note)
            self.ui.auto_note = tr("auto_passed", lang, cards=cards)
            self.ui.messages.append(self.ui.auto_note)

    def wait(self, seconds: float) -> None:
        """Pause between computer moves; while 托管 is on, a typed ``a``/``托管`` (or q)
        takes the seat back at once (the terminal delivers a line when Enter is pressed)."""
        end = time.monotonic() + max(0.0, seconds)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            t = self.seat.snapshot()
            if not (t is not None and auto_on(t) and sys.stdin.isatty()):
                time.sleep(left)
                return
            ready, _, _ = select.select([sys.stdin], [], [], left)
            if ready:
                cmd = parse_command(sys.stdin.readline())
                if cmd.kind in (Cmd.AUTO, Cmd.QUIT):
                    self.command(lambda: self.seat.set_auto(False))
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    return

    def handle(self, line: str, t: SeatTable) -> bool:
        """One line of input at the seat's table ``t``; False means quit."""
        lang = self.ui.lang
        seat = self.seat
        seq = t.seq
        cmd = parse_command(line)
        if cmd.kind is Cmd.QUIT:
            self.quit()
            return False
        if cmd.kind is Cmd.HELP:
            self.ui.messages.append(tr("help", lang))
        elif cmd.kind is Cmd.COUNTER:
            on = not t.counter
            if self.command(lambda: seat.set_counter(on)):
                self.ui.messages.append(tr("counter_on" if on else "counter_off", lang))
        elif cmd.kind is Cmd.AUTO:
            on = not auto_on(t)
            if self.command(lambda: seat.set_auto(on)):
                self.ui.messages.append(tr("auto_on" if on else "auto_off", lang))
        elif cmd.kind is Cmd.AUTO_PASS:
            on = not t.auto_pass
            if self.command(lambda: seat.set_auto_pass(on)):
                self.ui.messages.append(tr("auto_pass_on" if on else "auto_pass_off", lang))
        elif cmd.kind is Cmd.AUTO_LEVEL:
            at = AUTO_LEVELS.index(t.auto_level) if t.auto_level in AUTO_LEVELS else 0
            level = AUTO_LEVELS[(at + 1) % len(AUTO_LEVELS)]
            if self.command(lambda: seat.set_auto_level(level)):
                self.ui.messages.append(tr("auto_level_now", lang, level=auto_level_said(level, lang)))
        elif cmd.kind is Cmd.HINT:
            self.hint(t)
        elif cmd.kind is Cmd.EMPTY:
            # Enter plays the hint on show; with nothing that beats the trick, Enter passes;
            # after a failed write, it tries the machine's move again.
            shown = self.ui.hint
            if shown is not None and self.ui.hint_at == (t.deal_no, seq):
                self.command(lambda: seat.play_cards(seq, shown.cards))
            elif t.machine_turn and seat.runs_machine:
                self.unsaved = None
            elif t.model.task.kind == "none":
                self.command(lambda: seat.pass_turn(seq))
            elif t.model.task.seat == t.model.viewer:
                self.ui.messages.append(self.enter_why(t))
        elif cmd.kind is Cmd.PASS:
            self.command(lambda: seat.pass_turn(seq))
        else:
            self.command(lambda: seat.play_text(seq, cmd.text))
        return True

    def enter_why(self, t: SeatTable) -> str:
        """Why a bare Enter did nothing: it plays a hint on show, or passes when nothing
        beats; leading, or holding a play that beats, it needs a play typed first."""
        task = t.model.task
        lang = self.ui.lang
        if task.kind == "lead":
            return tr("enter_lead", lang)
        cards = "" if task.beat is None or task.beat.play is None else task.beat.play.text
        return tr("enter_must" if not task.can_pass else "enter_free", lang, cards=cards)

    def hint(self, t: SeatTable) -> None:
        """Repeated presses cycle through the hints (at most five, the analysis's best
        first: ``pdk.bots.hints``), each with its reason (must-beat and 报单 obeyed)."""
        lang = self.ui.lang
        try:
            shown = self.seat.hint(t.seq)
        except Refused as exc:
            self.ui.messages.append(exc.text if exc.plain else tr("refused", lang, reason=exc.text))
            return
        self.ui.hint, self.ui.hint_at = shown, (t.deal_no, t.seq)
        if shown is None:
            self.ui.messages.append(tr("hint_none", lang))
            return
        self.ui.messages.append(
            tr(
                "hint_show",
                lang,
                i=shown.index + 1,
                n=shown.count,
                cards=play_text(shown.play, self.console.width).plain,
                kind=shown.kind,
                why=shown.why,
            )
        )

    def quit(self) -> None:
        """Where the game is kept (when it is kept here) and the session's score."""
        lang = self.ui.lang
        if self.ui.save is not None:
            if self.unsaved is None:
                self.say(tr("saved_quit", lang, path=self.ui.save, command=self.ui.resume))
            else:  # never "game saved" after a write that failed
                self.say(tr("quit_unsaved", lang, detail=self.unsaved))
        t = self.seat.snapshot()
        done = 0 if t is None else t.deals_done
        deals = tr("deals_1" if done == 1 else "deals_n", lang, n=done)
        self.say(tr("bye", lang, deals=deals, total=0 if t is None else t.session_total))

    # -- end of a deal ---------------------------------------------------------------------

    def finish_deal(self, t: SeatTable) -> bool:
        """The settlement panel of the deal just over (settled, recorded and added to the
        history once, by the table's service), then the next deal: on Enter where this
        seat deals it, else when the table moves on; False = quit."""
        lang = self.ui.lang
        sm = t.model.settlement
        assert sm is not None
        if self.console.is_terminal:
            self.console.clear()
        frame = Frame(t.model, lang, session_total=t.session_total)
        width = self.console.width
        # A short terminal (40×20) gets the screen that fits it, so the title never
        # scrolls away: no trick line nor notices (the panel says the same), and the
        # reasons only if they fit beside the cards each seat held.
        short = self.console.is_terminal and self.console.height < SHORT
        title = tr("settle_title", lang, n=t.model.deal_no)
        head = render_over(frame, width, short)
        sheet = render_settlement(sm, title, lang, width)
        if short and self.lines(head, sheet) + 4 > self.console.height:
            sheet = render_settlement(sm, title, lang, width, reasons=False)
        self.console.print(head)
        # Notices not shown yet (要不起 in the last trick, a bomb's score, a note from
        # loading the save) are shown here once; the next deal starts without them.
        if self.ui.messages and not short:
            self.console.print(Group(*(Prose(msg, style="yellow") for msg in self.ui.messages)))
        self.ui.messages = []
        self.console.print(sheet)
        if t.record is not None:
            if not short:
                self.console.print(tr("record_saved", lang), markup=False)
            self.say_path(str(t.record))
        self.print_company()
        if not self.seat.deals_next():
            self.console.print(tr("web_room_next_host", lang))
        while True:
            try:
                answer = self.read(tr("next_prompt", lang) if self.seat.deals_next() else "")
            except EOFError:
                self.quit()
                return False
            if answer is None:
                return True  # the table moved (the next deal, a seat's news): drawn again
            if parse_command(answer).kind is Cmd.QUIT:
                self.quit()
                return False
            if not self.seat.deals_next():
                continue
            if self.command(lambda: self.seat.next_deal(t.seq)):
                return True
            for msg in self.ui.messages:
                self.say(msg)
            self.ui.messages = []


def _selectable() -> bool:
    try:
        sys.stdin.fileno()
    except (OSError, ValueError):
        return False
    return True


__all__ = ["Game", "Ui", "deferred_interrupt"]
