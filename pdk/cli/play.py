"""``pdk play``: the interactive game against two bots, deal after deal.

The command is keys in and frames out only: the table service (``pdk.table.service``) runs
the game — the bots, 托管, 要不起, reading typed cards, settling and archiving each deal —
and saves every change before it is shown; the table module (``pdk.cli.table``) draws.
Quitting, closing the terminal or ``kill -9`` all resume at the same position with
``pdk play``.
"""

from __future__ import annotations

import os
import select
import shlex
import signal
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import platformdirs
import typer
from rich.console import Console, Group, RenderableType

from pdk.bots import DIFFICULTIES, bot_names
from pdk.bots.external import EngineError, is_engine
from pdk.cli.common import LangOpt, fail, lang_or_fail, profile_or_fail
from pdk.cli.engine import check_engine
from pdk.cli.play_input import Cmd, parse_command
from pdk.cli.prose import Prose
from pdk.cli.table import SHORT, Frame, play_text, render_over, render_settlement, render_table
from pdk.engine.events import BombStands, Event
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.engine.record import RecordError
from pdk.store.contract import StoreUnavailable
from pdk.store.files import FileStore
from pdk.table import runner
from pdk.table.history import History
from pdk.table.service import Archive, HintShown, Reply, SeatTable, TableService
from pdk.table.session import HUMAN, SaveError, Session, Slot, claim_slot, load_save, move_aside, new_session
from pdk.text.catalog import Lang, LocalizedError, excerpt, tr


def data_dir(save_dir: str | None, lang: Lang) -> Path:
    """``--save-dir``, else ``$PDK_DATA_DIR``, else the platform's user data directory. The
    option is read as text: a path type would turn an empty ``--save-dir ''`` into ``.``."""
    if save_dir is not None:
        if not save_dir.strip():
            fail(tr("err_no_save_dir", lang))
        return Path(save_dir)
    env = os.environ.get("PDK_DATA_DIR")
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("pdk", appauthor=False))


def make_console() -> Console:
    """Colour on a terminal; plain text with ``NO_COLOR`` or when output is not a terminal."""
    plain = "NO_COLOR" in os.environ
    console = Console(highlight=False, soft_wrap=False)
    if plain or not console.is_terminal:
        console = Console(highlight=False, color_system=None, soft_wrap=False)
    return console


def error_detail(exc: Exception, lang: Lang) -> str:
    """Why a save or record could not be written or read, in ``lang`` (an OS error's own
    text is all there is to say about it)."""
    if isinstance(exc, (RecordError, SaveError)):
        return exc.message(lang)
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def check_difficulty(name: str, lang: Lang) -> None:
    if is_engine(name):
        check_engine(name, lang)
        return
    if name not in DIFFICULTIES:
        fail(tr("err_difficulty", lang, name=excerpt(name)))
    known = bot_names()
    if name not in known:
        usable = ", ".join(d for d in DIFFICULTIES if d in known)
        fail(tr("err_difficulty_missing", lang, name=excerpt(name), known=usable))


@dataclass
class Ui:
    """What the loop remembers between frames (not part of the game)."""

    lang: Lang
    delay: float
    messages: list[str] = field(default_factory=list)
    hint: HintShown | None = None  # the hint on show, and the move it was for
    hint_at: int = -1
    auto_note: str = ""  # the last 要不起 notice: a new one replaces it, they never pile up
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


class Game:
    """Keys in, frames out, over one table service (``pdk.table.service``): the service plays
    the bots, 托管 and 要不起, settles and archives each deal, and saves every change."""

    def __init__(self, table: TableService, slot: Slot, ui: Ui) -> None:
        self.table = table
        self.slot = slot
        self.ui = ui
        self.console = make_console()
        self.unsaved: str | None = None  # why the last write failed, if it did

    @property
    def session(self) -> Session:
        return self.table.session

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, keep_messages: bool = False) -> None:
        t = self.table.snapshot()
        frame = Frame(
            t.model,
            self.ui.lang,
            session_total=t.session_total,
            auto=t.auto,
            counter=t.counter,
            messages=tuple(self.ui.messages),
        )
        if not keep_messages:
            self.ui.messages = []
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(render_table(frame, self.console.width))

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

    def say(self, text: str) -> None:
        """A sentence, wrapped at the terminal's width between words (and between Chinese
        characters): printed raw, the terminal cut "deal 1 is ov|er." at 40 columns."""
        self.console.print(Group(Prose(text)))

    def say_path(self, path: str) -> None:
        """A path alone on its line, never broken by us (soft wrap), so that it copies whole."""
        self.console.print(path, markup=False, soft_wrap=True)

    # -- commands ----------------------------------------------------------------------------

    def command(self, run: Callable[[], Reply]) -> Reply | None:
        """One seat command: applied and saved together, or (the write failed) not at all,
        said in one line; a refusal is said with its reason."""
        lang = self.ui.lang
        with deferred_interrupt():
            try:
                reply = run()
            except EngineError as exc:  # the game is saved after every play: nothing is lost
                fail(exc.message(lang))
            except StoreUnavailable as exc:
                self.unsaved = exc.detail
                self.ui.messages.append(tr("save_failed", lang, detail=exc.detail))
                return None
            except LocalizedError as exc:  # IllegalPlay, InputError, TableRefused
                self.ui.messages.append(tr("refused", lang, reason=exc.message(lang)))
                return None
        self.unsaved = None
        self.note_events(reply.events)
        return reply

    def note_events(self, events: tuple[Event, ...]) -> None:
        """A bomb that stands (or scores when played) shows its credit at once, not only in
        the settlement."""
        rules = self.session.profile.settlement
        lang = self.ui.lang
        for e in events:
            if isinstance(e, BombStands) and e.collects:
                who = self.table.snapshot().model.seat(e.seat).name.text(lang)
                key = "bomb_scores_each" if e.each else "bomb_scores"
                self.ui.messages.append(tr(key, lang, who=who, bonus=rules.bomb_bonus, amount=e.collects))

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the player quits; Ctrl-C ends 托管, or quits otherwise."""
        while True:
            try:
                if not self._loop():
                    return
            except KeyboardInterrupt:
                if self.session.auto:
                    self.command(lambda: self.table.set_auto(False))
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    continue
                self.quit()
                return

    def _loop(self) -> bool:
        while True:
            t = self.table.snapshot()
            if t.over:
                if not self.finish_deal():
                    return False
                continue
            # After a failed write the machine waits for the player (Enter tries again).
            if t.machine_turn and self.unsaved is None:
                self.machine_move(t)
                continue
            self.draw()
            try:
                line = self.ask(tr("prompt", self.ui.lang))
            except EOFError:
                self.quit()
                return False
            if not self.handle(line):
                return False

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
            self.draw(keep_messages=True)
            self.ui.messages.pop()
            time.sleep(runner.pause(t, self.ui.delay))
        elif live:
            self.draw(keep_messages=True)
            if self.ui.delay > 0:
                self.wait(self.ui.delay)
                if not t.bot_turn and not self.session.auto:
                    return  # 托管 was taken back during the pause: the turn is the player's
        if self.command(lambda: self.table.step(t.seq)) is not None and passing:
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
            if not (self.session.auto and sys.stdin.isatty()):
                time.sleep(left)
                return
            ready, _, _ = select.select([sys.stdin], [], [], left)
            if ready:
                cmd = parse_command(sys.stdin.readline())
                if cmd.kind in (Cmd.AUTO, Cmd.QUIT):
                    self.command(lambda: self.table.set_auto(False))
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    return

    def handle(self, line: str) -> bool:
        """One line of input at the human's turn; False means quit."""
        lang = self.ui.lang
        table = self.table
        seq = table.seq
        cmd = parse_command(line)
        if cmd.kind is Cmd.QUIT:
            self.quit()
            return False
        if cmd.kind is Cmd.HELP:
            self.ui.messages.append(tr("help", lang))
        elif cmd.kind is Cmd.COUNTER:
            on = not self.session.counter
            if self.command(lambda: table.set_counter(on)):
                self.ui.messages.append(tr("counter_on" if on else "counter_off", lang))
        elif cmd.kind is Cmd.AUTO:
            if self.command(lambda: table.set_auto(True)):
                self.ui.messages.append(tr("auto_on", lang))
        elif cmd.kind is Cmd.AUTO_PASS:
            on = not self.session.auto_pass
            if self.command(lambda: table.set_auto_pass(on)):
                self.ui.messages.append(tr("auto_pass_on" if on else "auto_pass_off", lang))
        elif cmd.kind is Cmd.HINT:
            self.hint()
        elif cmd.kind is Cmd.EMPTY:
            # Enter plays the hint on show; with nothing that beats the trick, Enter passes;
            # after a failed write, it tries the machine's move again.
            t = table.snapshot()
            shown = self.ui.hint
            if shown is not None and self.ui.hint_at == seq:
                self.command(lambda: table.play_cards(seq, shown.cards))
            elif t.machine_turn:
                self.unsaved = None
            elif t.model.task.kind == "none":
                self.command(lambda: table.pass_turn(seq))
            else:
                self.ui.messages.append(self.enter_why(t))
        elif cmd.kind is Cmd.PASS:
            self.command(lambda: table.pass_turn(seq))
        else:
            self.command(lambda: table.play_text(seq, cmd.text))
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

    def hint(self) -> None:
        """Repeated presses cycle through the legal plays, cheapest sensible first, each
        with its reason (must-beat and 报单 obeyed)."""
        lang = self.ui.lang
        seq = self.table.seq
        try:
            shown = self.table.hint(seq)
        except LocalizedError as exc:
            self.ui.messages.append(tr("refused", lang, reason=exc.message(lang)))
            return
        self.ui.hint, self.ui.hint_at = shown, seq
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
                kind=shown.hint.move.said.text(lang),
                why=shown.reason.text(lang),  # what it does, and why now (hint_reason)
            )
        )

    def quit(self) -> None:
        s = self.session
        if self.unsaved is None:
            self.say(tr("saved_quit", self.ui.lang, path=self.slot.path, command=self.ui.resume))
        else:  # never "game saved" after a write that failed
            self.say(tr("quit_unsaved", self.ui.lang, detail=self.unsaved))
        deals = tr("deals_1" if s.deals_done == 1 else "deals_n", self.ui.lang, n=s.deals_done)
        self.say(tr("bye", self.ui.lang, deals=deals, total=s.totals[HUMAN]))

    # -- end of a deal ---------------------------------------------------------------------

    def finish_deal(self) -> bool:
        """The settlement panel of the deal just over (settled, recorded and added to the
        history by the service, once), then the next deal on Enter; False = quit."""
        lang = self.ui.lang
        t = self.table.snapshot()
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
        title = tr("settle_title", lang, n=t.deal_no)
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
        if not short:
            self.console.print(tr("record_saved", lang), markup=False)
        self.say_path(str(self.table.archive.path(self.session)))
        while True:
            try:
                answer = self.ask(tr("next_prompt", lang))
            except EOFError:
                self.quit()
                return False
            if parse_command(answer).kind is Cmd.QUIT:
                self.quit()
                return False
            if self.command(lambda: self.table.next_deal(t.seq)) is not None:
                return True
            for msg in self.ui.messages:
                self.say(msg)
            self.ui.messages = []


def confirm_new(slot: Slot, lang: Lang) -> None:
    """``--new`` over a game in progress: ask before throwing it away (``--yes`` skips the
    question; without a terminal to ask on, nothing is discarded)."""
    try:
        old = load_save(slot.path)
    except SaveError:
        return  # unreadable: it is moved aside, not lost
    question = tr("new_confirm", lang, n=old.deal_no, variant=old.variant, path=slot.path)
    if not sys.stdin.isatty():
        slot.release()
        fail(tr("new_needs_yes", lang, path=slot.path))
    answer = make_console().input(question, markup=False).strip().lower()
    if answer not in ("y", "yes", "是", "好"):
        slot.release()
        make_console().print(tr("new_kept", lang), markup=False)
        raise typer.Exit(0)


def play(
    difficulty: Annotated[
        str | None,
        typer.Option("--difficulty", "-d", help="Opponents: easy, normal or hard (default normal)."),
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponents",
            help="Outside engine as both opponents: cmd:COMMAND or engine:NAME (docs/protocol.md).",
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Rule profile: a name or a .yaml path (default classic16)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, max=2**63 - 1, help="Seed of the first deal (reproducible)."),
    ] = None,
    lang: LangOpt = None,
    save_dir: Annotated[
        str | None,
        typer.Option("--save-dir", help="Where the save, records and history live (default: your data dir)."),
    ] = None,
    new: Annotated[
        bool, typer.Option("--new", help="Start a new game instead of resuming the saved one (asks first).")
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="With --new: discard a game in progress without asking.")
    ] = False,
    auto_pass: Annotated[
        bool,
        typer.Option(
            "--auto-pass/--no-auto-pass", help="要不起: pass for you when nothing beats (toggle with x)."
        ),
    ] = True,
    delay: Annotated[
        float,
        typer.Option(
            "--delay", min=0.0, max=60.0, help="Seconds each computer or 托管 play takes on a terminal."
        ),
    ] = 0.5,
    join: Annotated[
        str | None,
        typer.Option("--join", help="Take a seat at a table for friends (the seat link from the room page)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="With --join: your name at the table.")
    ] = None,
) -> None:
    """Play 跑得快 against two AI players; the game is saved after every play."""
    language = lang_or_fail(lang)
    if join is not None:
        from pdk.cli.join import join as join_room  # a client of a server: only when asked

        base = data_dir(save_dir, language)
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(tr("err_save_dir", language, path=base, detail=error_detail(exc, language)))
        why = join_room(join, name, base, language)
        if why is not None:
            fail(why)
        return
    difficulty = opponents or difficulty
    if difficulty is not None:
        check_difficulty(difficulty, language)
    base = data_dir(save_dir, language)
    try:
        slot = claim_slot(base)
    except SaveError as exc:
        fail(exc.message(language))
    except OSError as exc:
        fail(tr("err_save_dir", language, path=base, detail=error_detail(exc, language)))
    notes: list[str] = []
    if slot.number > 1:
        notes.append(tr("slot_other", language, busy=base / "save.json", mine=slot.path))
    session: Session | None = None
    if new and slot.path.exists() and not yes:
        confirm_new(slot, language)
    if not new and slot.path.exists():
        try:
            session = load_save(slot.path)
        except SaveError as exc:
            detail = exc.message(language)
            try:
                moved = move_aside(slot.path)
            except OSError as err:  # a read-only folder: say so rather than play unsaved
                reason = error_detail(err, language)
                fail(tr("save_cannot_move", language, path=slot.path, detail=detail, reason=reason))
            notes.append(tr("save_corrupt", language, path=slot.path, detail=detail, moved=moved))
        else:
            notes.append(tr("resumed", language, n=session.deal_no, path=slot.path))
            asked_variant = variant is not None and variant not in (session.variant, session.profile.name)
            asked_other = difficulty is not None and difficulty != session.difficulty
            if asked_variant or asked_other or seed is not None:
                notes.append(
                    tr(
                        "resume_differs",
                        language,
                        variant=excerpt(session.variant),
                        difficulty=excerpt(session.difficulty),
                    )
                )
            check_difficulty(session.difficulty, language)
    if session is None:
        profile = profile_or_fail(DEFAULT_PROFILE if variant is None else variant, language)
        diff = difficulty or "normal"
        check_difficulty(diff, language)
        session = new_session(profile, variant or profile.name, diff, seed)
    # This run's choices start the table: 托管 off, auto-pass as the option and the save say.
    session.auto = False
    session.auto_pass = session.auto_pass and auto_pass
    archive = Archive(base / "records", History(base / "history.sqlite3"))
    store = FileStore(base)
    table, unsaved = TableService.adopt(store, slot.path.stem, archive, session, hints=False)
    ui = Ui(language, delay)
    if save_dir is not None:  # plain `pdk play` would look in the default folder instead
        ui.resume = f"pdk play --save-dir {shlex.quote(save_dir)}"
    game = Game(table, slot, ui)
    game.ui.messages.extend(notes)
    if unsaved is not None:
        game.unsaved = unsaved
        game.ui.messages.append(tr("save_failed", language, detail=unsaved))
    try:
        game.run()
    finally:
        slot.release()
