"""``pdk ladder``: a rating list of bots kept across runs (``pdk.match.ladder``).

``add`` puts a bot on the ladder (any name ``--players`` takes), ``run`` plays deals among
them and updates the ratings, ``show`` prints the list (``--json`` for scripts). The ladder
is ``ladder.json`` in the data directory.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from pdk import __version__
from pdk.bots import BotSpecError, bot_names, check_bot, is_plugin
from pdk.bots.external import is_engine, spec_of
from pdk.cli.common import (
    JsonOpt,
    LangOpt,
    VariantOpt,
    data_dir,
    err_console,
    fail,
    lang_or_fail,
    out_console,
    profile_or_fail,
)
from pdk.cli.engine import prepare_engines
from pdk.cli.table import difficulty_name
from pdk.match.backends import open_backend
from pdk.match.ladder import Ladder, LadderError, run_ladder
from pdk.match.run import MatchError, default_workers
from pdk.text.catalog import Lang, LocalizedError, excerpt, tr

ladder_app = typer.Typer(name="ladder", help="A rating list of bots kept across runs.", no_args_is_help=True)

SaveDirOpt = Annotated[
    str | None, typer.Option("--save-dir", help="Where the ladder lives (default: your data dir).")
]


def _path(save_dir: str | None, lang: Lang) -> Path:
    return data_dir(save_dir, lang) / "ladder.json"


def _load(path: Path, lang: Lang) -> Ladder:
    try:
        return Ladder.load(path)
    except LadderError as exc:
        fail(exc.message(lang))


def _save(ladder: Ladder, path: Path, lang: Lang) -> None:
    try:
        ladder.save(path)
    except OSError as exc:
        fail(tr("ladder_cannot_write", lang, path=path, reason=exc.strerror or exc))


def _about(spec: str, label: str) -> dict[str, Any]:
    """What the bot was when added: a level's pdk version, an engine's command, options
    and own name, a plug-in's spec."""
    about: dict[str, Any] = {"label": label}
    if is_engine(spec):
        engine = spec_of(spec)
        if engine is not None:
            about.update(command=list(engine.argv), options=dict(engine.options), move_time=engine.move_time)
    elif is_plugin(spec):
        about["plugin"] = spec
    return about


@ladder_app.command("add")
def add(
    bot: Annotated[
        str, typer.Argument(help="A level, a plug-in (module:factory) or an engine (cmd:…, engine:NAME).")
    ],
    name: Annotated[
        str | None, typer.Option("--name", help="What to call it (default: its own name).")
    ] = None,
    variant: VariantOpt = "classic16",
    save_dir: SaveDirOpt = None,
    lang: LangOpt = None,
) -> None:
    """Put a bot on the ladder, with a fresh rating."""
    language = lang_or_fail(lang)
    path = _path(save_dir, language)
    ladder = _load(path, language)
    if not ladder.entries:
        ladder.variant = profile_or_fail(variant, language).name
    if bot not in bot_names() and not is_plugin(bot):
        fail(tr("sp_unknown_bot", language, name=excerpt(bot), known=", ".join(bot_names())))
    prepare_engines([bot], language)
    try:
        label = check_bot(bot)
    except BotSpecError as exc:
        fail(exc.message(language))
    try:
        entry = ladder.add(name or label, bot, _about(bot, label))
    except LadderError as exc:
        fail(exc.message(language))
    _save(ladder, path, language)
    out_console().print(tr("ladder_added", language, name=entry.name, n=len(ladder.entries)), markup=False)


class _Stop:
    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


@ladder_app.command("run")
def run(
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=10**7, help="Deals to play.")] = 30,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, max=256, help="Processes (default: all cores).")
    ] = None,
    save_dir: SaveDirOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Play deals among the ladder's bots (each table in every seat arrangement) and
    update their ratings."""
    language = lang_or_fail(lang)
    path = _path(save_dir, language)
    ladder = _load(path, language)
    profile = profile_or_fail(ladder.variant, language)
    specs = [e.spec for e in ladder.entries]
    prepare_engines(specs, language)
    try:
        ladder.tables(profile.players)
        for spec in dict.fromkeys(specs):
            check_bot(spec, profile)
    except LocalizedError as exc:  # the ladder's own refusals, a bot's spec, weights
        fail(exc.message(language))
    backend = open_backend("local", workers=workers or default_workers())
    stop = _Stop()
    old = signal.signal(signal.SIGINT, stop)
    failure = None
    try:
        rated = run_ladder(
            ladder,
            profile.players,
            games,
            lambda tasks: backend.games(profile, tasks),
            lambda: stop.requested,
        )
    except MatchError as exc:
        failure, rated = exc.message(language), 0
    except KeyboardInterrupt:
        rated = 0
    finally:
        signal.signal(signal.SIGINT, old)
    _save(ladder, path, language)
    if failure is not None:
        fail(failure)
    if as_json:
        print(json.dumps(_json(ladder), ensure_ascii=False))
    else:
        out_console().print(tr("ladder_ran", language, n=rated, total=ladder.deals), markup=False)
        _table(ladder, language)
    if stop.requested:
        raise typer.Exit(130)


@ladder_app.command("show")
def show(save_dir: SaveDirOpt = None, as_json: JsonOpt = False, lang: LangOpt = None) -> None:
    """The ladder: bots by rating, with their 95% range and deals played."""
    language = lang_or_fail(lang)
    ladder = _load(_path(save_dir, language), language)
    if as_json:
        print(json.dumps(_json(ladder), ensure_ascii=False))
        return
    if not ladder.entries:
        err_console().print(tr("ladder_empty", language), markup=False)
        return
    _table(ladder, language)


def _json(ladder: Ladder) -> dict[str, Any]:
    data = ladder.to_json()
    data["bots"] = [e.to_json() for e in ladder.ranked()]
    data["pdk_version"] = __version__
    return data


def _table(ladder: Ladder, lang: Lang) -> None:
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        title=tr("ladder_title", lang, variant=ladder.variant, n=ladder.deals),
    )
    for key, justify in (
        ("ladder_col_rank", "right"),
        ("ladder_col_bot", "left"),
        ("ladder_col_rating", "right"),
        ("ladder_col_range", "right"),
        ("ladder_col_ordinal", "right"),
        ("ladder_col_deals", "right"),
        ("ladder_col_version", "left"),
    ):
        table.add_column(tr(key, lang), justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for rank, e in enumerate(ladder.ranked(), 1):
        table.add_row(
            str(rank),
            difficulty_name(e.name, lang),
            f"{e.mu:.2f}",
            f"± {1.959963984540054 * e.sigma:.2f}",
            f"{e.ordinal:.2f}",
            str(e.deals),
            e.pdk_version,
        )
    out_console().print(table)
    out_console().print(tr("ladder_legend", lang), markup=False, style="dim")
