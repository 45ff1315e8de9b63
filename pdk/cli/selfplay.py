"""``pdk selfplay``: bot against bot at scale, with a summary a reader can trust.

The command only parses options, drives ``pdk.match.run`` and renders. Ctrl-C is caught as a
flag (a second one aborts at once) so the games already finished are summarised and their
records written; ``--out`` is written in game order as soon as a gap-free prefix is done.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from pdk.bots import BotSpecError, bot_names, check_bot, is_plugin
from pdk.cli.common import (
    JsonOpt,
    LangOpt,
    VariantOpt,
    err_console,
    fail,
    lang_or_fail,
    out_console,
    profile_or_fail,
)
from pdk.cli.engine import prepare_engines
from pdk.cli.table import NARROW, difficulty_name
from pdk.match.backend_contract import Backend, BackendError
from pdk.match.backends import BACKENDS, open_backend
from pdk.match.ratings import SprtError, SprtSpec
from pdk.match.run import (
    GameResult,
    Line,
    MatchError,
    Summary,
    Tally,
    default_workers,
    iter_tasks,
)
from pdk.text.catalog import Lang, LocalizedError, excerpt, tr

if TYPE_CHECKING:
    from rich.progress import Progress

    from pdk.engine.profile import Profile


# Bounds that no real run reaches, so a typo of a few digits is refused, not obeyed
# (10**20 deals never end; 100,000 processes take the machine down).
MAX_GAMES = 10**9
MAX_WORKERS = 256


def parse_players(text: str | None, seats: int, lang: Lang) -> list[str]:
    """One bot name per seat; a single name fills every seat. Unknown names and bad
    plug-in specs fail here, before any process starts."""
    names = [p.strip() for p in ("normal" if text is None else text).split(",") if p.strip()]
    if not names:
        fail(tr("sp_no_players", lang))
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        fail(tr("sp_players_count", lang, n=seats, got=len(names)))
    known = bot_names()
    for name in names:
        if name not in known and not is_plugin(name):
            fail(tr("sp_unknown_bot", lang, name=excerpt(name), known=", ".join(known)))
    prepare_engines(names, lang)
    return names


DEFAULT_MOVE_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class _Scale:
    """Where the games run and how long a plug-in may think (``--backend``, ``--address``,
    ``--move-timeout``)."""

    backend: str
    address: str | None
    move_timeout: float
    time_cap: float | None = None


def _backend_or_fail(scale: _Scale, workers: int, names: list[str], lang: Lang) -> Backend:
    """The backend, checked and connected before ``--out`` is opened: nothing is lost."""
    try:
        return open_backend(
            scale.backend, workers=workers, address=scale.address, plugins=[n for n in names if is_plugin(n)]
        )
    except (BackendError, BotSpecError) as exc:
        fail(exc.message(lang))


def checked_labels(names: list[str], profile: Profile, lang: Lang) -> dict[str, str]:
    """Build every bot once and ask it whether it can play ``profile`` (a plug-in's import,
    an outside engine's hello, the learned level's weights), failing in one line before any
    game starts; return the plug-ins' ``name``s. What a plug-in prints meanwhile goes to
    stderr (stdout is the --json summary's)."""
    try:
        with redirect_stdout(sys.stderr):
            labels = {name: check_bot(name, profile) for name in dict.fromkeys(names)}
    except LocalizedError as exc:
        fail(exc.message(lang))
    return {name: label for name, label in labels.items() if is_plugin(name)}


def _sprt_or_fail(text: str | None, names: list[str], duplicate: bool, lang: Lang) -> SprtSpec | None:
    if text is None:
        return None
    try:
        spec = SprtSpec.parse(text)
    except SprtError as exc:
        fail(exc.message(lang))
    if len(set(names)) != 2 or not duplicate:
        fail(tr("sprt_needs_two", lang))
    return spec


def duel_lines(summary: Summary, lang: Lang) -> list[str]:
    """The Elo line of a two-bot match (and the SPRT's), named as the tables name the bots."""
    duel = summary.duel
    if duel is None or not duel.deals:
        return []
    shown = {line.spec or line.bot: difficulty_name(line.bot, lang) for line in summary.bots}
    elo, err = duel.elo()
    lines = [
        tr(
            "elo_line",
            lang,
            a=shown.get(duel.first, duel.first),
            b=shown.get(duel.second, duel.second),
            elo="—" if elo is None else f"{elo:+.1f}",
            err="—" if err is None else f"{err:.1f}",
            los=100 * duel.los(),
            w=duel.wins,
            d=duel.draws,
            l=duel.losses,
        )
    ]
    if duel.sprt is not None:
        verdict = duel.verdict()
        key = {"H1": "sprt_h1", "H0": "sprt_h0"}.get(verdict or "", "sprt_open")
        lines.append(
            tr(
                key,
                lang,
                llr=duel.llr(),
                lo=duel.sprt.lower,
                hi=duel.sprt.upper,
                elo0=f"{duel.sprt.elo0:g}",
                elo1=f"{duel.sprt.elo1:g}",
                n=duel.deals,
            )
        )
    return lines


def _fmt_ci(line: Line) -> str:
    if line.ci95 is None:
        return "—"
    lo, hi = line.ci95
    return f"{lo:+.2f}…{hi:+.2f}"


def summary_tables(summary: Summary, lang: Lang, width: int = 80) -> list[RenderableType]:
    """The summary as rich tables (pure: no printing), every cell whole at ``width``: the
    per-seat table leaves out the deal count its title gives, built-in bots are named in
    the reader's language, and below ``NARROW`` columns only wins and scores are shown.
    Titles are lines of their own, so that they wrap where a table title would not."""
    wide = width >= NARROW
    tables: list[RenderableType] = []
    for title, lines, with_seat in (
        (tr("sp_title_seats", lang, n=summary.seats[0].deals if summary.seats else 0), summary.seats, True),
        (tr("sp_title_bots", lang), summary.bots, False),
    ):
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
        keys = (["sp_col_seat"] if with_seat else []) + ["sp_col_bot"]
        keys += ([] if with_seat else ["sp_col_deals"]) + ["sp_col_wins", "sp_col_win_rate", "sp_col_score"]
        keys += ["sp_col_ci", "sp_col_bombs", "sp_col_shut_out", "sp_col_plays"] if wide else []
        for key in keys:
            table.add_column(tr(key, lang), justify="left" if key == "sp_col_bot" else "right", no_wrap=True)
        for line in lines:
            cells = {
                "sp_col_seat": str(line.seat),
                "sp_col_bot": difficulty_name(line.bot, lang),
                "sp_col_deals": str(line.deals),
                "sp_col_wins": str(line.wins),
                "sp_col_win_rate": f"{100 * line.win_rate:.1f}%",
                "sp_col_score": f"{line.score_mean:+.2f}",
                "sp_col_ci": _fmt_ci(line),
                "sp_col_bombs": str(line.bombs),
                "sp_col_shut_out": str(line.shut_outs),
                "sp_col_plays": f"{line.plays_per_deal:.1f}",
            }
            table.add_row(*(cells[k] for k in keys))
        tables.append(Group(Text(title, style="bold"), table))
    return tables


class _Stop:
    """The first Ctrl-C asks to stop after the current game; a second one aborts."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


class _RecordWriter:
    """Writes records in game order, each line flushed as soon as every earlier game is done.

    A write that fails (a full disk) is kept in ``error`` and ends the writing: the run
    stops, says so in one line and still summarises the games finished."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh
        self.next = 0
        self.pending: dict[int, str] = {}
        self.written = 0
        self.error: OSError | None = None

    def add(self, res: GameResult) -> None:
        assert res.record is not None
        self.pending[res.index] = res.record
        while self.next in self.pending:
            self._write(self.pending.pop(self.next))
            self.next += 1

    def drain(self) -> None:
        """After an interruption: keep every finished record, in order, gaps skipped."""
        for index in sorted(self.pending):
            self._write(self.pending.pop(index))

    def _write(self, text: str) -> None:
        if self.error is not None:
            return
        try:
            self.fh.write(text + "\n")
            self.fh.flush()
        except OSError as exc:
            self.error = exc
            return
        self.written += 1

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError as exc:  # the last flush of a full disk
            self.error = self.error or exc


def selfplay(
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Deals to play.")] = 100,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Bots per seat, comma-separated (random, easy, normal, hard, your own as "
            "module:factory or path/to/file.py:factory, or an outside engine as cmd:COMMAND or "
            "engine:NAME); one name fills every seat.",
        ),
    ] = None,
    variant: VariantOpt = "classic16",
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, max=2**63 - 1, help="The same seed gives the same results.")
    ] = 0,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="Replay every deal in every seat arrangement of the bots.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write every game record to this JSONL file.")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", min=1, max=MAX_WORKERS, help="Processes (default: all cores)."),
    ] = None,
    backend: Annotated[
        str,
        typer.Option("--backend", help=f"Where the games run: {' or '.join(BACKENDS)} (ray: pdk[ray])."),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="The Ray cluster to join (auto, host:6379, ray://host:10001)."),
    ] = None,
    move_timeout: Annotated[
        float,
        typer.Option(
            "--move-timeout",
            min=0.001,
            help="Seconds a plug-in bot may think over one move before the match stops.",
        ),
    ] = DEFAULT_MOVE_TIMEOUT,
    time_cap: Annotated[
        float | None,
        typer.Option(
            "--time-cap",
            min=0.001,
            help="Seconds the hard bot may think over one move (default: no cap, the same game "
            "on any machine); written in each record.",
        ),
    ] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            help="elo0,elo1[,alpha,beta]: with two bots and --duplicate, stop as soon as the "
            "SPRT accepts elo >= elo1 or elo <= elo0 (alpha, beta default 0.05).",
        ),
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Play deals bot against bot and summarise wins, scores (95% CI), bombs and 全关."""
    # Catch Ctrl-C from the very start, so no press is lost while the run is set up.
    stop = _Stop()
    old_handler = signal.signal(signal.SIGINT, stop)
    try:
        scale = _Scale(backend, address, move_timeout, time_cap)
        _run(games, players, variant, seed, duplicate, out, workers, as_json, lang, stop, scale, sprt)
    finally:
        signal.signal(signal.SIGINT, old_handler)


def _run(
    games: int,
    players: str | None,
    variant: str,
    seed: int,
    duplicate: bool,
    out: Path | None,
    workers: int | None,
    as_json: bool,
    lang: str | None,
    stop: _Stop,
    scale: _Scale,
    sprt_text: str | None = None,
) -> None:
    language = lang_or_fail(lang)
    profile = profile_or_fail(variant, language)
    names = parse_players(players, profile.players, language)
    sprt = _sprt_or_fail(sprt_text, names, duplicate, language)
    n_workers = workers or default_workers()
    tally = Tally(names, duplicate, checked_labels(names, profile, language), sprt)
    planned = games * tally.arrangements
    tasks = iter_tasks(names, games, seed, duplicate, out is not None, scale.move_timeout, scale.time_cap)
    where = _backend_or_fail(scale, n_workers, names, language)
    fh: IO[str] | None = None
    if out is not None:
        try:
            fh = out.open("w", encoding="utf-8")
        except OSError as exc:
            fail(tr("sp_out_error", language, path=out, reason=exc.strerror or exc))
    writer = _RecordWriter(fh) if fh is not None else None
    progress = _progress(language) if sys.stderr.isatty() else None
    started = time.perf_counter()
    # The workers fork here with SIGPIPE at its default action, so a worker whose parent
    # was killed ends silently on its next write instead of printing a BrokenPipeError,
    # and with a watch on the parent for a worker blocked on a lock its dead sibling held.
    _watch_parent_in_forked_workers()
    pipe = getattr(signal, "SIGPIPE", None)
    old_pipe = signal.signal(pipe, signal.SIG_DFL) if pipe is not None else None
    try:
        stream = where.games(profile, tasks)
    finally:
        if pipe is not None:
            signal.signal(pipe, old_pipe)
    failure = None
    decided = False
    try:
        if progress is not None:
            progress.start()
            task_id = progress.add_task(tr("sp_progress", language), total=planned)
        for res in stream:
            tally.add(res)
            if writer is not None:
                writer.add(res)
            if progress is not None:
                progress.advance(task_id)
            if stop.requested or (writer is not None and writer.error is not None):
                break
            if tally.duel is not None and tally.duel.verdict() is not None:
                decided = True
                break
    except KeyboardInterrupt:
        stop.requested = True
    except MatchError as exc:
        failure = exc.message(language)
    finally:
        stream.close()
        if progress is not None:
            progress.stop()
        if writer is not None:
            writer.drain()
            writer.close()
    if failure is not None:
        fail(failure)
    seconds = time.perf_counter() - started
    write_failed = writer is not None and writer.error is not None
    # A full disk is said below; an SPRT that decided ends the match as planned.
    interrupted = tally.games < planned and not write_failed and not decided
    summary = tally.summary(games_planned=planned, seconds=seconds, interrupted=interrupted)
    _report(summary, profile.name, seed, n_workers, as_json, language)
    if write_failed:
        assert writer is not None and writer.error is not None
        reason = writer.error.strerror or str(writer.error)
        fail(tr("sp_out_failed", language, path=out, n=writer.written, reason=reason))
    if writer is not None and not as_json:
        err_console().print(
            tr("sp_records", language, n=writer.written, path=out), markup=False, highlight=False
        )
    if interrupted:
        raise typer.Exit(130)


_watching = False


def _watch_parent_in_forked_workers() -> None:
    """Make every process forked from here on exit quietly once its parent is gone (a
    ``kill -9`` of ``pdk selfplay``): otherwise a worker can wait forever on a queue lock
    that a sibling held when it died. Registered once per process."""
    global _watching
    if _watching or not hasattr(os, "register_at_fork"):
        return
    _watching = True
    os.register_at_fork(after_in_child=_start_parent_watch)


def _start_parent_watch() -> None:
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="pdk-parent-watch", daemon=True).start()


def _progress(lang: Lang) -> Progress:
    # Imported here: the progress bar exists only on a terminal, and every pdk command
    # would pay for the import otherwise.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class RateColumn(ProgressColumn):
        """Deals per second, from rich's own running speed estimate."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("—/s" if speed is None else f"{speed:.0f}/s", style="progress.data.speed")

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _report(summary: Summary, variant: str, seed: int, workers: int, as_json: bool, lang: Lang) -> None:
    if as_json:
        data = summary.to_json()
        data.update(variant=variant, seed=seed, workers=workers)
        print(json.dumps(data, ensure_ascii=False))
        return
    console = out_console()
    if summary.interrupted:
        err_console().print(
            tr("sp_interrupted", lang, done=summary.games, planned=summary.games_planned),
            markup=False,
            highlight=False,
        )
    for table in summary_tables(summary, lang, console.width):
        console.print(table, soft_wrap=False)
    for text in duel_lines(summary, lang):
        console.print(text, markup=False, highlight=False)
    console.print(tr("sp_legend", lang), markup=False, highlight=False, style="dim", soft_wrap=False)
    console.print(
        tr(
            "sp_footer",
            lang,
            played=tr(
                "sp_played_dup", lang, deals=summary.deals, arr=summary.arrangements, games=summary.games
            )
            if summary.arrangements > 1
            else tr("sp_played", lang, games=summary.games),
            secs=summary.seconds,
            rate=summary.deals_per_s,
            variant=variant,
            seed=seed,
            workers=workers,
        ),
        markup=False,
        highlight=False,
        soft_wrap=False,
    )
