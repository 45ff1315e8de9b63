"""``pdk play``: the interactive game against two bots, deal after deal.

The command is the input loop only: the session (``pdk.app.session``) owns the game and its
save, the table module (``pdk.cli.table``) draws, the history (``pdk.app.history``) keeps
finished deals. The game is saved after every play, so quitting, closing the terminal
or ``kill -9`` all resume at the same position with ``pdk play``.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import platformdirs
import typer
from rich.console import Console, Group

from pdk.app.archive import add_to_history, record_path, write_record
from pdk.app.history import History
from pdk.app.session import HUMAN, SaveError, Session, Slot, claim_slot, load_save, move_aside, new_session
from pdk.app.table_model import TableModel, move_play, play_model, table_model
from pdk.bots import DIFFICULTIES, bot_names
from pdk.bots.external import EngineError, is_engine
from pdk.bots.hints import Hint, hint_list
from pdk.cli.common import LangOpt, fail, lang_or_fail, profile_or_fail
from pdk.cli.engine import check_engine
from pdk.cli.play_input import Cmd, InputError, names_suits, parse_command, resolve_input
from pdk.cli.prose import Prose
from pdk.cli.table import Frame, play_text, render_over, render_settlement, render_table
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.engine.record import RecordError
from pdk.engine.rules import IllegalPlay
from pdk.engine.settlement import Settlement
from pdk.text.catalog import Lang, excerpt, tr
from pdk.text.explain import reason_text


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
    auto: bool = False
    auto_pass: bool = True
    hint_at: int = -1
    hint_index: int = -1
    hint_moves: list[Hint] = field(default_factory=list)


@contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Hold Ctrl-C while a play is applied and saved, so it lands whole or not at all."""
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
    """The input loop around one session and its save slot."""

    def __init__(self, session: Session, slot: Slot, history: History, records: Path, ui: Ui) -> None:
        self.session = session
        self.slot = slot
        self.history = history
        self.records = records
        self.ui = ui
        self.console = make_console()
        self.unsaved: str | None = None  # why the last save failed, if it did

    # -- drawing ---------------------------------------------------------------------------

    def model(self, settlement: Settlement | None = None) -> TableModel:
        """The table model for the human seat (the one source of what the table says)."""
        s = self.session
        return table_model(
            s.state.view(HUMAN),
            None if s.state.over else s.state.turn,
            settlement=settlement,
            totals=s.totals if settlement is not None else None,
            auto=(HUMAN,) if self.ui.auto else (),
            hints_for_viewer=False,
            deal_no=s.deal_no,
            difficulty=s.difficulty,
            variant=s.profile.name,
        )

    def draw(self, keep_messages: bool = False, settlement: Settlement | None = None) -> None:
        s = self.session
        frame = Frame(
            self.model(settlement),
            self.ui.lang,
            session_total=s.totals[HUMAN],
            auto=self.ui.auto,
            counter=bool(s.ui.get("counter")),
            messages=tuple(self.ui.messages),
        )
        if not keep_messages:
            self.ui.messages = []
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(render_table(frame, self.console.width))

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

    def save(self) -> None:
        try:
            self.slot.save(self.session)
        except (OSError, ValueError) as exc:  # ValueError: RecordError, the deal does not replay
            self.unsaved = error_detail(exc, self.ui.lang)
            self.ui.messages.append(tr("save_failed", self.ui.lang, detail=self.unsaved))
        else:
            self.unsaved = None

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the player quits; Ctrl-C ends 托管, or quits (saved) otherwise."""
        while True:
            try:
                if not self._loop():
                    return
            except KeyboardInterrupt:
                if self.ui.auto:
                    self.ui.auto = False
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    continue
                self.quit()
                return

    def _loop(self) -> bool:
        state = self.session.state
        while True:
            if state.over:
                if not self.finish_deal():
                    return False
                state = self.session.state
                continue
            if state.turn != HUMAN or self.ui.auto:
                self.machine_move()
                continue
            if self.ui.auto_pass and state.prev is not None and not state.legal_moves():
                self.auto_pass()
                continue
            self.draw()
            try:
                line = self.ask(tr("prompt", self.ui.lang))
            except EOFError:
                self.quit()
                return False
            if not self.handle(line):
                return False

    def machine_move(self) -> None:
        """A bot's move, or 托管's for the human seat.

        On a terminal the table is redrawn before each such move and the move takes at
        least ``delay`` seconds, so the player can follow the table (and press Ctrl-C to
        end 托管); without a terminal moves are instant and only the player's turns draw.
        """
        state = self.session.state
        live = self.console.is_terminal
        if live:
            self.draw(keep_messages=True)
        start = time.monotonic()
        human = state.turn == HUMAN
        try:
            move = self.session.auto_move() if human else self.session.bot_move()
        except EngineError as exc:  # the game is saved after every play: nothing is lost
            fail(exc.message(self.ui.lang))
        if live and self.ui.delay > 0:
            self.wait(self.ui.delay - (time.monotonic() - start))
            if human and not self.ui.auto:
                return  # 托管 was taken back during the pause: the turn is the player's again
        self.step(move)

    def step(self, move: Move | None) -> None:
        """Apply one move and save it; say so when a bomb has just scored."""
        state = self.session.state
        before = list(state.bomb_bonuses)
        with deferred_interrupt():
            state.step(move)
            self.save()
        self.note_bombs(before)

    def note_bombs(self, before: list[int]) -> None:
        """A bomb that stands (or scores when played) shows its credit at once, not only in
        the settlement."""
        rules = self.session.profile.settlement
        n = self.session.state.players
        for seat, (was, now) in enumerate(zip(before, self.session.state.bomb_bonuses, strict=True)):
            if now > was and rules.bomb_bonus:
                who = self.model().seat(seat).name.text(self.ui.lang)
                each = rules.bomb_bonus_paid_by == "each_other"
                key = "bomb_scores_each" if each else "bomb_scores"
                amount = rules.bomb_bonus * (n - 1) if each else rules.bomb_bonus
                self.ui.messages.append(tr(key, self.ui.lang, who=who, bonus=rules.bomb_bonus, amount=amount))

    def wait(self, seconds: float) -> None:
        """Pause between computer moves; while 托管 is on, a typed ``a``/``托管`` (or q)
        takes the seat back at once (the terminal delivers a line when Enter is pressed)."""
        end = time.monotonic() + max(0.0, seconds)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            if not (self.ui.auto and sys.stdin.isatty()):
                time.sleep(left)
                return
            ready, _, _ = select.select([sys.stdin], [], [], left)
            if ready:
                cmd = parse_command(sys.stdin.readline())
                if cmd.kind in (Cmd.AUTO, Cmd.QUIT):
                    self.ui.auto = False
                    self.ui.messages.append(tr("auto_off", self.ui.lang))
                    return

    def auto_pass(self) -> None:
        """要不起: nothing beats the play, so the table passes for the player after a short
        pause and says so (``x`` or ``--no-auto-pass`` turns it off)."""
        lang = self.ui.lang
        if self.console.is_terminal and self.ui.delay > 0:
            self.ui.messages.append(tr("auto_pass_now", lang))
            self.draw(keep_messages=True)
            self.ui.messages.pop()
            time.sleep(max(self.ui.delay, 0.6))
        prev = self.model().task.beat
        cards = "" if prev is None or prev.play is None else prev.play.text
        self.step(None)
        self.ui.messages.append(tr("auto_passed", lang, cards=cards))

    def handle(self, line: str) -> bool:
        """One line of input at the human's turn; False means quit."""
        lang = self.ui.lang
        state = self.session.state
        cmd = parse_command(line)
        if cmd.kind is Cmd.QUIT:
            self.quit()
            return False
        if cmd.kind is Cmd.HELP:
            self.ui.messages.append(tr("help", lang))
        elif cmd.kind is Cmd.COUNTER:
            on = not self.session.ui.get("counter")
            self.session.ui["counter"] = on
            self.ui.messages.append(tr("counter_on" if on else "counter_off", lang))
            self.save()
        elif cmd.kind is Cmd.AUTO:
            self.ui.auto = True
            self.ui.messages.append(tr("auto_on", lang))
        elif cmd.kind is Cmd.AUTO_PASS:
            self.ui.auto_pass = not self.ui.auto_pass
            self.session.ui["auto_pass"] = self.ui.auto_pass
            self.ui.messages.append(tr("auto_pass_on" if self.ui.auto_pass else "auto_pass_off", lang))
            self.save()
        elif cmd.kind is Cmd.HINT:
            self.hint()
        elif cmd.kind is Cmd.EMPTY:
            # Enter plays the hint on show; with nothing that beats the trick, Enter passes.
            if self.ui.hint_at == len(state.history) and self.ui.hint_moves:
                self.apply_move(self.ui.hint_moves[self.ui.hint_index].move)
            elif state.prev is not None and not state.legal_moves():
                self.attempt(None)
            else:
                self.ui.messages.append(self.enter_why())
        elif cmd.kind is Cmd.PASS:
            self.attempt(None)
        else:
            try:
                cards = resolve_input(cmd.text, state.hands[HUMAN])
            except InputError as exc:
                said = {k: excerpt(v) if isinstance(v, str) else v for k, v in exc.params.items()}
                self.ui.messages.append(tr("refused", lang, reason=tr(exc.key, lang, **said)))
                return True
            if not names_suits(cmd.text):
                # Ranks only: the suits that make the play legal, a plain straight rather
                # than a straight flush by accident (the first free suit of each rank was
                # often one suit throughout).
                cards = state.position().cards_for(C.from_cards(cards)) or cards
            self.attempt(cards)
        return True

    def enter_why(self) -> str:
        """Why a bare Enter did nothing: it plays a hint on show, or passes when nothing
        beats; leading, or holding a play that beats, it needs a play typed first."""
        task = self.model().task
        lang = self.ui.lang
        if task.kind == "lead":
            return tr("enter_lead", lang)
        cards = "" if task.beat is None or task.beat.play is None else task.beat.play.text
        return tr("enter_must" if not task.can_pass else "enter_free", lang, cards=cards)

    def hint(self) -> None:
        """Repeated presses cycle through the legal plays, cheapest sensible first, each
        with its reason (must-beat and 报单 obeyed)."""
        state = self.session.state
        lang = self.ui.lang
        view = state.view(HUMAN)
        if self.ui.hint_at != len(state.history):
            self.ui.hint_at = len(state.history)
            self.ui.hint_moves = hint_list(view)
            self.ui.hint_index = -1
        if not self.ui.hint_moves:
            self.ui.messages.append(tr("hint_none", lang))
            return
        self.ui.hint_index = (self.ui.hint_index + 1) % len(self.ui.hint_moves)
        h = self.ui.hint_moves[self.ui.hint_index]
        shown = play_text(play_model(move_play(view, h.move)), self.console.width).plain
        self.ui.messages.append(
            tr(
                "hint_show",
                lang,
                i=self.ui.hint_index + 1,
                n=len(self.ui.hint_moves),
                cards=shown,
                kind=h.move.kind.said(lang),
                why=reason_text(h.reason, h.params, lang),
            )
        )

    def attempt(self, cards: tuple[int, ...] | None) -> None:
        with deferred_interrupt():
            try:
                self.session.state.play(cards)
            except IllegalPlay as exc:
                self.ui.messages.append(tr("refused", self.ui.lang, reason=exc.message(self.ui.lang)))
                return
            self.save()

    def apply_move(self, move: Move) -> None:  # a hint's move, with suits the engine picks
        state = self.session.state
        play = state.position().play_for(move)
        self.attempt(play.cards)

    def quit(self) -> None:
        self.save()
        s = self.session
        if self.unsaved is None:
            self.say(tr("saved_quit", self.ui.lang, path=self.slot.path))
        else:  # never "game saved" after a save that failed
            self.say(tr("quit_unsaved", self.ui.lang, detail=self.unsaved))
        deals = tr("deals_1" if s.deals_done == 1 else "deals_n", self.ui.lang, n=s.deals_done)
        self.say(tr("bye", self.ui.lang, deals=deals, total=s.totals[HUMAN]))

    # -- end of a deal ---------------------------------------------------------------------

    def finish_deal(self) -> bool:
        """Settle, write the record and the history row, deal the next hand; False = quit.

        Safe to repeat after a crash: the record path and the history id are fixed by
        the deal, and the totals live in the save that is written only afterwards.
        """
        s = self.session
        lang = self.ui.lang
        self.ui.auto = False
        st = s.settle()
        model = self.model(st)
        sm = model.settlement
        assert sm is not None
        if self.console.is_terminal:
            self.console.clear()
        frame = Frame(model, lang, session_total=s.totals[HUMAN])
        self.console.print(render_over(frame, self.console.width))
        # Notices not shown yet (要不起 in the last trick, a bomb's score, a note from
        # loading the save) are shown here once; the next deal starts without them.
        if self.ui.messages:
            self.console.print(Group(*(Prose(msg, style="yellow") for msg in self.ui.messages)))
        self.ui.messages = []
        title = tr("settle_title", lang, n=s.deal_no)
        self.console.print(render_settlement(sm, title, lang, self.console.width))
        path = record_path(s, self.records)
        try:
            write_record(s, self.records)
            self.console.print(tr("record_saved", lang), markup=False)
            self.say_path(str(path))
        except (OSError, ValueError) as exc:
            self.say(tr("record_failed", lang, detail=error_detail(exc, lang)))
        try:
            add_to_history(s, st, self.history, path)
        except Exception as exc:  # sqlite3.Error, OSError: never lose the game over stats
            self.say(tr("history_failed", lang, detail=str(exc)))
        s.next_deal()
        self.save()
        try:
            answer = self.ask(tr("next_prompt", lang))
        except EOFError:
            self.quit()
            return False
        if parse_command(answer).kind is Cmd.QUIT:
            self.quit()
            return False
        return True


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
) -> None:
    """Play 跑得快 against two AI players; the game is saved after every play."""
    language = lang_or_fail(lang)
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
    ui = Ui(language, delay, auto_pass=bool(session.ui.get("auto_pass", True)) and auto_pass)
    game = Game(session, slot, History(base / "history.sqlite3"), base / "records", ui)
    game.ui.messages.extend(notes)
    game.save()
    try:
        game.run()
    finally:
        slot.release()
