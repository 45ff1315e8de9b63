"""``pdk replay``: step through any game record, print it as a transcript, or validate it.

Records come from ``pdk play``, from ``pdk selfplay --out`` (JSONL, one game a line, picked
with ``--game K``) or from ``replays/``. Loading re-checks every play (``pdk.engine.record``), so a
bad file ends with one line naming the file and, for plays, the move and the reason.
Rendering lives in ``replay_view`` (pure); this module reads keys and draws.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Iterator
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pdk.bots import BotSpecError, bot_names, check_bot, is_plugin
from pdk.cli.common import LangOpt, fail, lang_or_fail, out_console
from pdk.cli.play import from_record
from pdk.cli.record_file import is_jsonl, load_or_fail
from pdk.cli.replay_view import (
    ExplainError,
    Explanation,
    Frame,
    explain,
    render_frame,
    seat_names,
    transcript,
)
from pdk.engine.record import GameRecord, RecordError, dumps
from pdk.engine.state import GameState
from pdk.records.disk import jsonl_games, parse
from pdk.records.text_record import dumps_text
from pdk.table.session import HUMAN
from pdk.text.catalog import Lang, excerpt, tr


class Key(Enum):
    NEXT = "next"
    PREV = "prev"
    FIRST = "first"
    LAST = "last"
    JUMP = "jump"
    EXPLAIN = "explain"
    VIEW = "view"
    PRACTICE = "practice"
    QUIT = "quit"
    OTHER = "other"


_ESCAPES = {
    b"[C": Key.NEXT,
    b"[D": Key.PREV,
    b"[A": Key.PREV,
    b"[B": Key.NEXT,
    b"[H": Key.FIRST,
    b"[F": Key.LAST,
    b"OH": Key.FIRST,
    b"OF": Key.LAST,
    b"[1~": Key.FIRST,
    b"[4~": Key.LAST,
    b"[5~": Key.PREV,
    b"[6~": Key.NEXT,
}
_LETTERS = {
    "n": Key.NEXT,
    " ": Key.NEXT,
    "\r": Key.NEXT,
    "\n": Key.NEXT,
    "j": Key.NEXT,
    "p": Key.PREV,
    "b": Key.PREV,
    "k": Key.PREV,
    "\x7f": Key.PREV,
    "f": Key.FIRST,
    "0": Key.FIRST,
    "l": Key.LAST,
    "$": Key.LAST,
    "g": Key.JUMP,
    "e": Key.EXPLAIN,
    "?": Key.EXPLAIN,
    "v": Key.VIEW,
    "t": Key.PRACTICE,
    "q": Key.QUIT,
    "\x04": Key.QUIT,
}


def decode_key(data: bytes) -> Key:
    """Map the bytes of one key press to a command (arrows, Home/End, letters)."""
    if data.startswith(b"\x1b"):
        return _ESCAPES.get(data[1:], Key.QUIT if data == b"\x1b" else Key.OTHER)
    return _LETTERS.get(data.decode("utf-8", "replace").lower(), Key.OTHER)


def _read_key(fd: int) -> bytes:
    data = os.read(fd, 1)
    if data == b"\x1b":
        # An escape sequence arrives at once; a lone Esc does not continue.
        while select.select([fd], [], [], 0.05)[0]:
            data += os.read(fd, 1)
            if data[-1:].isalpha() or data[-1:] == b"~":
                break
    return data


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    import termios  # POSIX only: imported here so the other commands still load elsewhere
    import tty

    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


class Replayer:
    """The navigation state of an interactive replay (no I/O, so it is testable)."""

    def __init__(self, record: GameRecord, viewer: int | None, bot: str, explain_on: bool) -> None:
        self.record = record
        self.states: list[GameState] = list(record.states())
        self.step = 0
        self.viewer = viewer
        self.bot = bot
        self.explain_on = explain_on
        self.note = ""  # a one-screen answer to a key (a practice asked where none starts)
        self._cache: dict[int, Explanation] = {}

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def apply(self, key: Key) -> None:
        if key is Key.NEXT:
            self.step = min(self.step + 1, self.last)
        elif key is Key.PREV:
            self.step = max(self.step - 1, 0)
        elif key is Key.FIRST:
            self.step = 0
        elif key is Key.LAST:
            self.step = self.last
        elif key is Key.EXPLAIN:
            self.explain_on = not self.explain_on
        elif key is Key.VIEW:
            order: list[int | None] = [None, *range(self.record.profile.players)]
            self.viewer = order[(order.index(self.viewer) + 1) % len(order)]

    def practice_at(self) -> int | None:
        """The play a practice from this screen starts at (``pdk play --from``): the next
        play, when it is seat 0's (the person's seat in ``pdk play``); None otherwise."""
        actions = self.record.actions
        if self.step < len(actions) and actions[self.step].seat == HUMAN:
            return self.step + 1
        return None

    def jump(self, n: int) -> None:
        self.step = max(0, min(n, self.last))

    def frame(self, source: str, lang: Lang) -> Frame:
        state = self.states[self.step]
        if self.note:  # said once, over the screen it was asked on
            note, self.note = self.note, ""
            return Frame(source, self.step, self.viewer, explain_note=note)
        if not self.explain_on:
            return Frame(source, self.step, self.viewer)
        names = seat_names(self.record, lang)
        if state.over:
            return Frame(source, self.step, self.viewer, explain_note=tr("rp_explain_over", lang))
        if self.viewer is not None and state.turn != self.viewer:
            note = tr("rp_explain_hidden", lang, who=names[self.viewer])
            return Frame(source, self.step, self.viewer, explain_note=note)
        if self.step not in self._cache:
            actual = self.record.actions[self.step] if self.step < len(self.record.actions) else None
            self._cache[self.step] = explain(state, self.bot, self.record.seed or 0, actual)
        return Frame(source, self.step, self.viewer, explanation=self._cache[self.step])


def run_interactive(replayer: Replayer, source: str, lang: Lang) -> int | None:
    """Draw, read a key, move; Ctrl-C, Esc, q or the end of input quit cleanly (None). t
    on a play of seat 0's leaves with that play's number, to practise from it."""
    import tty

    console = Console()
    fd = sys.stdin.fileno()
    with _cbreak(fd), contextlib.suppress(KeyboardInterrupt):
        while True:
            console.clear()
            frame = replace(replayer.frame(source, lang), legal_limit=max(3, console.height - 24))
            console.print(render_frame(replayer.record, replayer.states, frame, lang))
            data = _read_key(fd)
            key = decode_key(data) if data else Key.QUIT
            if key is Key.QUIT:
                return None
            if key is Key.PRACTICE:
                number = replayer.practice_at()
                if number is not None:
                    return number
                replayer.note = tr("rp_practice_not_here", lang)
                continue
            if key is Key.JUMP:
                _cooked(fd)
                try:
                    text = input(tr("rp_jump_prompt", lang, n=replayer.last))
                except EOFError:
                    text = ""
                tty.setcbreak(fd)
                if text.strip().isdigit():
                    replayer.jump(int(text.strip()))
                continue
            replayer.apply(key)
    return None  # Ctrl-C


def _cooked(fd: int) -> None:
    """Line editing and echo back on, for the jump prompt."""
    import termios

    attrs = termios.tcgetattr(fd)
    attrs[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, attrs)


EXPORTS = ("txt", "json")


def check_all(path: Path, lang: Lang) -> int:
    """Validate every game of the JSONL file ``path``, reading it line by line; fail at the
    first bad one. Returns how many games were checked."""
    k = 0
    try:
        for k, line in enumerate(jsonl_games(path), 1):
            try:
                parse(line)
            except RecordError as exc:
                fail(f"{path}: {tr('rp_game_k', lang, k=k)}: {exc.message(lang)}")
            except (KeyError, TypeError, AttributeError, ValueError):
                fail(tr("rp_err_invalid", lang, path=f"{path}: {tr('rp_game_k', lang, k=k)}"))
    except RecordError as exc:  # the file itself: unreadable, or a line past the bound
        fail(f"{path}: {tr('rp_game_k', lang, k=k + 1)}: {exc.message(lang)}")
    return k


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or a JSONL file of records.")],
    game: Annotated[
        int | None, typer.Option("--game", "-g", min=1, help="Line K of a JSONL file (1 = first).")
    ] = None,
    as_seat: Annotated[
        int | None, typer.Option("--as", help="Show only what this seat saw (default: every hand face up).")
    ] = None,
    print_: Annotated[
        bool, typer.Option("--print", help="Write the whole game as a readable transcript, no interaction.")
    ] = False,
    check: Annotated[bool, typer.Option("--check", help="Only validate the record (exit 2 if bad).")] = False,
    explain_on: Annotated[
        bool,
        typer.Option("--explain", help="Show what the bot would play at each step, and the legal plays."),
    ] = False,
    bot: Annotated[
        str | None,
        typer.Option(
            "--bot", help="The bot that explains: a level, or a plug-in spec file.py:Bot (default: normal)."
        ),
    ] = None,
    export: Annotated[
        str | None,
        typer.Option(
            "--export", help="Write the record to stdout as txt (tag pairs, one action a line) or json."
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Step through a game record: next / previous / jump, hands, trick, 报单, card counter,
    settlement, and what a bot would have played.

    Keys: n, → or space next · p or ← previous · g jump to play N · f or Home first ·
    l or End last · e what the bot would play here · v cycle the view · t play on from
    here against the computers (a play of seat 0's) · q quit.
    """
    language = lang_or_fail(lang)
    known = bot_names()
    bot_name = bot if bot is not None else ("normal" if "normal" in known else "easy")
    if is_plugin(bot_name):
        try:
            check_bot(bot_name)  # a bad spec fails here, before the record is read
        except BotSpecError as exc:
            fail(exc.message(language))
    elif bot_name not in known:
        fail(tr("rp_err_bot", language, name=excerpt(bot_name), known=", ".join(known)))
    if check and game is None and is_jsonl(file):
        n = check_all(file, language)
        out_console().print(tr("rp_check_games", language, path=file, n=n), markup=False, highlight=False)
        return
    if export is not None and export not in EXPORTS:
        fail(tr("rp_err_export", language, fmt=excerpt(export)))
    record = load_or_fail(file, game, language)
    if export is not None:
        sys.stdout.write(dumps_text(record) if export == "txt" else dumps(record) + "\n")
        return
    players = record.profile.players
    if as_seat is not None and not 0 <= as_seat < players:
        fail(tr("rp_err_seat", language, last=players - 1))
    source = f"{file.name}#{game}" if game is not None else file.name
    if check:
        state = record.replay()
        names = seat_names(record, language)
        n = len(record.actions)
        if state.winner is not None:
            msg = tr("rp_check_ok", language, path=file, n=n, who=names[state.winner])
        else:
            msg = tr("rp_check_unfinished", language, path=file, n=n)
        out_console().print(msg, markup=False, highlight=False)
        return
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    try:
        if print_ or not interactive:
            lines = transcript(
                record,
                language,
                viewer=as_seat,
                bot=bot_name if explain_on else None,
                bot_seed=record.seed or 0,
            )
            sys.stdout.write("\n".join(lines) + "\n")
            return
        number = run_interactive(Replayer(record, as_seat, bot_name, explain_on), source, language)
    except ExplainError as exc:
        fail(exc.message(language))
    if number is not None:  # t: play on from here against the computers
        from_record(file, number, game, language)
