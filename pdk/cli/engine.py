"""``pdk engine``: outside engines. ``pdk engine check CMD`` runs the conformance session
(``pdk.bots.conformance``) and lists every protocol mistake; the helpers here make the
engines file and the log folder known to any command that seats an engine, and check an
opponent named on the command line (a level or an engine) before anything starts."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from pdk.bots import DIFFICULTIES, BotSpecError, bot_names, check_bot
from pdk.bots.conformance import Report, run_check
from pdk.bots.engines import EnginesFileError, engines_file, load_engines, logs_dir
from pdk.bots.external import CMD_PREFIX, EngineError, EngineSpec, is_engine, named_engines, spec_of
from pdk.cli.common import JsonOpt, LangOpt, data_dir, fail, lang_or_fail, out_console
from pdk.text.catalog import Lang, excerpt, tr

engine_app = typer.Typer(
    name="engine", help="Outside engines: check one against the protocol.", no_args_is_help=True
)


def prepare_engines(names: Iterable[str], lang: Lang) -> None:
    """Before any engine starts: its log folder in the data directory, and the named
    engines of the engines file if a name asks for one."""
    names = [n for n in names if is_engine(n)]
    if not names:
        return
    base = data_dir(None, lang)
    os.environ.setdefault("PDK_ENGINE_LOGS", str(logs_dir(base)))
    if any(n.startswith("engine:") for n in names):
        try:
            load_engines(engines_file(base), logs_dir(base))
        except EnginesFileError as exc:
            fail(exc.message(lang))


def check_engine(name: str, lang: Lang) -> str:
    """Start the engine ``name`` names and read its hello (one line and exit 2 if it
    cannot); its own name."""
    prepare_engines([name], lang)
    try:
        return check_bot(name)
    except BotSpecError as exc:
        fail(exc.message(lang))


def check_difficulty(name: str, lang: Lang) -> None:
    """The opponents ``name`` names can play: a built-in level whose bot is installed, or an
    engine that starts and says hello (one line and exit 2 otherwise)."""
    if is_engine(name):
        check_engine(name, lang)
        return
    if name not in DIFFICULTIES:
        fail(tr("err_difficulty", lang, name=excerpt(name)))
    known = bot_names()
    if name not in known:
        usable = ", ".join(d for d in DIFFICULTIES if d in known)
        fail(tr("err_difficulty_missing", lang, name=excerpt(name), known=usable))


def _spec_or_fail(command: str, lang: Lang) -> EngineSpec:
    """``cmd:COMMAND``, ``engine:NAME`` or a bare command line."""
    name = command if is_engine(command) else CMD_PREFIX + command
    prepare_engines([name], lang)
    try:
        spec = spec_of(name)
    except EngineError as exc:
        fail(exc.message(lang))
    if spec is None:
        fail(
            tr(
                "bot_unknown_engine",
                lang,
                name=name[len("engine:") :],
                known=", ".join(named_engines()) or "—",
            )
        )
    return spec


@engine_app.command("check")
def check(
    command: Annotated[str, typer.Argument(help="The engine: a command line, cmd:COMMAND or engine:NAME.")],
    deals: Annotated[
        int, typer.Option("--deals", min=4, max=1000, help="Deals to play in the session.")
    ] = 24,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Run an outside engine through a scripted session and list every protocol mistake."""
    language = lang_or_fail(lang)
    spec = _spec_or_fail(command, language)
    report = run_check(spec, deals)
    if as_json:
        print(json.dumps(_report_json(report), ensure_ascii=False))
    else:
        _render(report, language)
    if not report.passed:
        raise typer.Exit(1)


def _report_json(report: Report) -> dict[str, object]:
    return {
        "engine": report.engine,
        "author": report.author,
        "passed": report.passed,
        "deals": report.deals,
        "decisions": report.decisions,
        "slowest_ms": round(report.slowest_ms, 2),
        "checks": [
            {"check": o.check.name.lower(), "asked": o.asked, "passed": o.passed, "mistakes": o.mistakes}
            for o in report.outcomes.values()
        ],
    }


def _render(report: Report, lang: Lang) -> None:
    console = out_console()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for key in ("ec_col_check", "ec_col_asked", "ec_col_result"):
        table.add_column(tr(key, lang), justify="right" if key == "ec_col_asked" else "left")
    for o in report.outcomes.values():
        if o.passed:
            result = Text(tr("ec_ok", lang), style="green")
        elif not o.mistakes:
            result = Text(tr("ec_not_asked", lang), style="yellow")
        else:
            result = Text(tr("ec_mistakes", lang, n=len(o.mistakes)), style="red")
        table.add_row(tr(o.check.value, lang), str(o.asked), result)
    head = tr("ec_head", lang, engine=report.engine or "?", author=report.author or "?")
    console.print(Text(head, style="bold"))
    console.print(table)
    for o in report.outcomes.values():
        for text in o.mistakes:
            console.print(f"✗ {tr(o.check.value, lang)}: {text}", markup=False, highlight=False)
    verdict = "ec_pass" if report.passed else "ec_fail"
    console.print(
        tr(verdict, lang, deals=report.deals, decisions=report.decisions, ms=report.slowest_ms),
        markup=False,
        highlight=False,
    )
