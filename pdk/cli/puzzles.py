"""``pdk puzzles``: solve a 残局 puzzle in the terminal; ``pdk puzzles make`` mines new ones
from bot games and ``pdk puzzles check`` re-proves a puzzle file (``pdk.analysis.puzzles``)."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from pdk.analysis.puzzles import (
    THEMES,
    Puzzle,
    PuzzleFileError,
    Standing,
    dumps,
    line,
    load,
    mine,
    prove,
    themes,
)
from pdk.cli.advise import play_said
from pdk.cli.common import LangOpt, data_dir, err_console, fail, lang_or_fail, out_console, profile_or_fail
from pdk.cli.play_input import PASS_WORDS
from pdk.cli.replay_view import cards_text
from pdk.engine.cards import CardParseError, CardPlace, cards_of, parse_specs
from pdk.engine.combos import Move
from pdk.engine.deal import Rng
from pdk.engine.position import IllegalPlay, Reason, check, resolve_cards
from pdk.engine.position_text import TablePosition
from pdk.files.atomic import atomic_write
from pdk.table.history import History, HistoryError
from pdk.text.catalog import Lang, excerpt, tr
from pdk.view.table_model import seat_names

puzzles_app = typer.Typer(
    name="puzzles",
    help="残局 puzzles: one play forces the win — find it.",
    no_args_is_help=False,
    invoke_without_command=True,
)

FileOpt = Annotated[
    Path | None, typer.Option("--file", "-f", help="A puzzle file (default: the shipped set).")
]


def _load(path: Path | None, lang: Lang) -> list[Puzzle]:
    try:
        return load(path)
    except PuzzleFileError as exc:
        fail(tr("pz_bad_file", lang, path=path or "puzzles.json", detail=str(exc)))


@puzzles_app.callback()
def puzzles(
    ctx: typer.Context,
    level: Annotated[
        int | None, typer.Option("--level", "-l", min=1, max=4, help="1 easy … 4 expert.")
    ] = None,
    number: Annotated[
        int | None, typer.Option("--id", min=1, help="This puzzle (default: a random one).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", min=0, help="Pick the puzzle by this seed.")
    ] = None,
    answer: Annotated[
        str | None,
        typer.Option("--answer", "-a", help="Answer at once (cards or 'pass') instead of being asked."),
    ] = None,
    theme: Annotated[
        str | None,
        typer.Option("--theme", "-t", help=f"Only puzzles of this theme: {', '.join(THEMES)}."),
    ] = None,
    position: Annotated[
        bool, typer.Option("--position", help="Also print the position text (for pdk advise).")
    ] = False,
    file: FileOpt = None,
    save_dir: Annotated[
        str | None,
        typer.Option("--save-dir", help="Where your history and puzzle rating live (default: data dir)."),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Show a puzzle, take your play, and say why it wins or loses; your puzzle rating and
    streak are kept in your history."""
    if ctx.invoked_subcommand is not None:
        return
    language = lang_or_fail(lang)
    pool = _load(file, language)
    if number is not None:
        pool = [p for p in pool if p.id == number]
    if level is not None:
        pool = [p for p in pool if p.level == level]
    if theme is not None:
        if theme not in THEMES:
            fail(tr("usage_bad_value", language, hint="--theme", detail=", ".join(THEMES)))
        pool = [p for p in pool if theme in themes(p)]
    if not pool:
        fail(tr("pz_none", language, level=level or "-"))
    pick = pool[Rng(seed if seed is not None else time.time_ns()).below(len(pool))]
    pos = pick.table()
    console = out_console()
    history = History(data_dir(save_dir, language) / "history.sqlite3")
    show(pick, pos, language, position)
    _say_standing(_standing(history, language), language)
    names = _names(pos, language)
    if answer is None:
        try:
            answer = input(tr("pz_prompt", language))
        except EOFError:
            answer = "q"
    if answer.strip().lower() in ("q", "quit"):
        console.print(tr("pz_answer", language, play=_answer_said(pick, pos, language)), markup=False)
        _print_line(line(pos, _answer_move(pick, pos), pick.goal), names, language)
        _record(history, pick, False, language)  # giving up is a failed puzzle
        return
    move = _read(answer, pos, language)
    if pick.is_answer(move):
        console.print(tr("pz_right", language, play=play_said(move, language)), style="bold green")
        _print_line(line(pos, move, pick.goal), names, language)
        _record(history, pick, True, language)
        return
    console.print(tr("pz_wrong", language, play=play_said(move, language)), style="bold red")
    _print_line(line(pos, move, pick.goal), names, language)
    console.print(tr("pz_answer", language, play=_answer_said(pick, pos, language)), markup=False)
    _print_line(line(pos, _answer_move(pick, pos), pick.goal), names, language)
    _record(history, pick, False, language)
    raise typer.Exit(1)


def _standing(history: History, lang: Lang) -> Standing | None:
    """The player's puzzle standing; None (said on stderr) when the history cannot be read,
    which loses no puzzle."""
    try:
        return history.puzzle_standing()
    except (OSError, sqlite3.Error, HistoryError) as exc:
        _unsaved(exc, lang)
        return None


def _record(history: History, p: Puzzle, solved: bool, lang: Lang) -> None:
    """The answer into the player's history, and the standing after it."""
    try:
        after, delta = history.add_puzzle("", p.id, p.level, solved)
    except (OSError, sqlite3.Error, HistoryError) as exc:
        _unsaved(exc, lang)
        return
    _say_standing(after, lang, delta)


def _say_standing(st: Standing | None, lang: Lang, delta: int | None = 0) -> None:
    """The rating and streaks; after an answer its change, or that the puzzle counted
    before (``delta`` None)."""
    if st is not None:
        out_console().print(st.said(lang, delta), style="bold", markup=False, highlight=False)


def _unsaved(exc: Exception, lang: Lang) -> None:
    detail = exc.message(lang) if isinstance(exc, HistoryError) else str(exc)
    err_console().print(tr("pz_history_failed", lang, detail=detail), markup=False, highlight=False)


def _names(pos: TablePosition, lang: Lang) -> list[str]:
    """The seats as the solver's table names them: 你, 下家, 上家 (who plays after whom)."""
    return seat_names(pos.sizes, pos.turn, lang)


def show(p: Puzzle, pos: TablePosition, lang: Lang, position: bool = False) -> None:
    """The puzzle in the solver's words: its seats from where the solver sits, in turn
    order from them; the position text only when asked (``--position``)."""
    console = out_console()
    names = _names(pos, lang)
    who = names[pos.turn]
    level = tr(f"pz_level_{p.level}", lang)
    console.print(
        tr("pz_title", lang, id=p.id, level=level, goal=tr(f"pz_goal_{p.goal}", lang, who=who)), style="bold"
    )
    n = len(pos.hands)
    for seat in ((pos.turn + k) % n for k in range(n)):
        label = Text(f"{names[seat]}: ", style="bold cyan" if seat == pos.turn else "bold")
        label.append_text(cards_text(cards_of(pos.hands[seat] or 0)))
        console.print(label)
    if pos.beat is not None and pos.beat_seat is not None:
        table = Text(f"{tr('rp_trick', lang)}: {names[pos.beat_seat]} ", style="bold")
        table.append_text(cards_text(pos.beat))
        console.print(table)
    else:
        console.print(tr("rp_trick_empty", lang, who=who), style="dim")
    found = themes(p)
    if found:
        said = ", ".join(tr(f"pz_theme_{t}", lang) for t in found)
        console.print(tr("pz_themes", lang, themes=said), style="dim", markup=False)
    if position:
        console.print(tr("pz_position", lang, text=p.position), style="dim", markup=False, highlight=False)


def _answer_move(p: Puzzle, pos: TablePosition) -> Move | None:
    if p.answer is None:
        return None
    view = pos.view()
    return next(m for m in view.legal_moves() if p.is_answer(m))


def _answer_said(p: Puzzle, pos: TablePosition, lang: Lang) -> str:
    return play_said(_answer_move(p, pos), lang)


def _print_line(moves: list[tuple[int, Move | None]], names: list[str], lang: Lang) -> None:
    console = out_console()
    for seat, m in moves:
        console.print(tr("pz_line", lang, who=names[seat], play=play_said(m, lang)),
                      markup=False, highlight=False)  # fmt: skip


def _read(text: str, pos: TablePosition, lang: Lang) -> Move | None:
    """The player's answer as a legal play of the position; one line and exit 2 if not."""
    position = pos.view().position()
    cards = None
    try:
        if text.strip().lower() not in PASS_WORDS:
            try:
                parse_specs(text)
                cards = resolve_cards(text, position.hand, CardPlace.HAND)
            except CardParseError as exc:
                raise IllegalPlay(Reason.NOT_IN_HAND, cards=excerpt(text.strip())) from exc
        played = check(position, cards)
    except IllegalPlay as exc:
        fail(tr("pz_illegal", lang, reason=exc.message(lang)))
    return None if played is None else played.move


@puzzles_app.command("make")
def make(
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the puzzles (JSON).")],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=1_000_000, help="Bot games to mine.")
    ] = 100,
    variant: Annotated[str, typer.Option("--variant", "-v", help="A first-out rule profile.")] = "classic16",
    seed: Annotated[int, typer.Option("--seed", "-s", min=0)] = 0,
    lang: LangOpt = None,
) -> None:
    """Mine puzzles from bot games: positions where the exact solver proves one play wins."""
    language = lang_or_fail(lang)
    if profile_or_fail(variant, language).end != "first_out":
        fail(tr("pz_first_out", language, name=variant))
    t0 = time.perf_counter()
    found = list(mine(variant, games, seed))
    atomic_write(out, dumps(found) + "\n")
    secs = time.perf_counter() - t0
    out_console().print(tr("pz_made", language, n=len(found), path=out, deals=games, secs=secs), markup=False)


@puzzles_app.command("check")
def check_cmd(file: FileOpt = None, lang: LangOpt = None) -> None:
    """Re-prove every puzzle of a file with the solver (exit 1 at the first that fails)."""
    language = lang_or_fail(lang)
    pool = _load(file, language)
    for p in pool:
        if not prove(p):
            fail(tr("pz_unproved", language, id=p.id), 1)
    out_console().print(tr("pz_checked", language, n=len(pool)), markup=False)
    sys.stdout.flush()
