"""``pdk play``: the interactive game against two bots, deal after deal.

The command finds or starts the game and hands it to the terminal's game loop
(``pdk.cli.game``) over a local seat (``pdk.table.seat.LocalSeat``): the table service
(``pdk.table.service``) runs the game — the bots, 托管, 要不起, reading typed cards,
settling and archiving each deal — and saves every change before it is shown. Quitting,
closing the terminal or ``kill -9`` all resume at the same position with ``pdk play``.
``--join`` takes a seat of a room instead (``pdk.cli.join``): the same loop over the room's
seat.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from pdk.bots import DIFFICULTIES
from pdk.cli.common import LangOpt, data_dir, fail, lang_or_fail, make_console, profile_or_fail
from pdk.cli.engine import check_difficulty
from pdk.cli.game import Game, Ui
from pdk.cli.record_file import load_or_fail
from pdk.engine.profile import DEFAULT_PROFILE
from pdk.engine.record import RecordError
from pdk.store.files import FileStore
from pdk.table.history import History
from pdk.table.seat import LocalSeat
from pdk.table.service import Archive, TableService
from pdk.table.session import (
    HUMAN,
    SaveError,
    Session,
    Slot,
    claim_slot,
    load_save,
    move_aside,
    new_session,
    practice_session,
)
from pdk.text.catalog import Lang, excerpt, tr

# ``--auto-level``: "table" is 托管 at the table's difficulty (the save's None).
AUTO_LEVEL_NAMES = ("table", *DIFFICULTIES)


def error_detail(exc: Exception, lang: Lang) -> str:
    """Why a save or record could not be written or read, in ``lang`` (an OS error's own
    text is all there is to say about it)."""
    if isinstance(exc, (RecordError, SaveError)):
        return exc.message(lang)
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def practice_or_fail(
    path: Path, game: int | None, at: int | None, difficulty: str | None, lang: Lang
) -> Session:
    """``--from``: the deal of a record as it stood before play ``at`` (yours: the seat of
    ``pdk play``), the computers at ``difficulty`` playing on from there, as the page's
    "play on from here" does; a new game, so a game in progress is asked about first."""
    if at is None:
        fail(tr("practice_needs_at", lang))
    record = load_or_fail(path, game, lang)
    if difficulty is not None:
        check_difficulty(difficulty, lang)
    yours = [k for k, a in enumerate(record.actions, 1) if a.seat == HUMAN]
    if at not in yours:
        plays = ", ".join(map(str, yours[:8])) + (" …" if len(yours) > 8 else "")
        fail(tr("practice_not_yours", lang, n=at, last=len(record.actions), plays=plays or "-"))
    return practice_session(record, at, record.profile.name, difficulty or "normal")


def from_record(path: Path, at: int, game: int | None, lang: Lang) -> None:
    """A practice from play ``at`` of the record in ``path``, in the default save folder:
    what the replay's t starts (``pdk play --from PATH --at N``)."""
    play(from_record=path, at=at, game_no=game, lang=lang)


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
    auto_level: Annotated[
        str | None,
        typer.Option(
            "--auto-level",
            help="The level 托管 plays at: table (the opponents'), easy, normal or hard (cycle with l).",
        ),
    ] = None,
    join: Annotated[
        str | None,
        typer.Option("--join", help="Take a seat at a table for friends (the seat link from the room page)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="With --join: your name at the table.")
    ] = None,
    from_record: Annotated[
        Path | None,
        typer.Option(
            "--from", help="Practice: play on from a game record's position (with --at N; a review's marks)."
        ),
    ] = None,
    at: Annotated[
        int | None,
        typer.Option("--at", min=1, help="With --from: the play of yours to play again (1 = first)."),
    ] = None,
    game_no: Annotated[
        int | None, typer.Option("--game", "-g", min=1, help="With --from: line K of a JSONL file.")
    ] = None,
) -> None:
    """Play 跑得快 against two AI players; the game is saved after every play."""
    language = lang_or_fail(lang)
    practice = None
    if from_record is None and (at is not None or game_no is not None):
        fail(tr("practice_needs_from", language))
    if from_record is not None and join is not None:
        fail(tr("practice_not_joined", language))
    if from_record is not None:
        practice = practice_or_fail(from_record, game_no, at, difficulty, language)
        new = True
    if join is not None:
        from pdk.cli.join import join as join_room  # an HTTP client: loaded only when asked

        base = data_dir(save_dir, language)
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(tr("err_save_dir", language, path=base, detail=error_detail(exc, language)))
        why = join_room(join, name, base, language)
        if why is not None:
            fail(why)
        return
    if auto_level is not None and auto_level not in AUTO_LEVEL_NAMES:
        fail(tr("usage_bad_value", language, hint="--auto-level", detail=", ".join(AUTO_LEVEL_NAMES)))
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
    if practice is not None:
        session = practice
        notes.append(tr("practice_from", language, n=at, path=from_record))
    if session is None:
        profile = profile_or_fail(DEFAULT_PROFILE if variant is None else variant, language)
        diff = difficulty or "normal"
        check_difficulty(diff, language)
        session = new_session(profile, variant or profile.name, diff, seed)
    # This run's choices start the table: 托管 off, auto-pass as the option and the save say.
    session.auto = False
    session.auto_pass = session.auto_pass and auto_pass
    if auto_level is not None:  # else the level the save kept (the l key changes it)
        session.auto_level = None if auto_level == "table" else auto_level
    archive = Archive(base / "records", History(base / "history.sqlite3"))
    store = FileStore(base)
    table, unsaved = TableService.adopt(store, slot.path.stem, archive, session, hints=False)
    ui = Ui(language, delay, save=slot.path)
    if save_dir is not None:  # plain `pdk play` would look in the default folder instead
        ui.resume = f"pdk play --save-dir {shlex.quote(save_dir)}"
    game = Game(LocalSeat(table, language), ui)
    game.ui.messages.extend(notes)
    if unsaved is not None:
        game.unsaved = unsaved
        game.ui.messages.append(tr("save_failed", language, detail=unsaved))
    try:
        game.run()
    finally:
        slot.release()
