"""``pdk engine``: outside engines. ``pdk engine check CMD`` runs the conformance session
(``pdk.app.conformance``) and lists every protocol mistake; the helpers here make the
engines file and the log folder known to any command that seats an engine."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Annotated

import typer

from pdk.app.engines import EnginesFileError, engines_file, load_engines, logs_dir
from pdk.bots import BotSpecError, check_bot
from pdk.bots.external import is_engine
from pdk.cli.common import JsonOpt, LangOpt, fail, lang_or_fail, out_console
from pdk.text.catalog import Lang, tr

engine_app = typer.Typer(name="engine", help="Outside engines: check one against the protocol.", no_args_is_help=True)


def prepare_engines(names: Iterable[str], lang: Lang) -> None:
    """Before any engine starts: its log folder in the data directory, and the named
    engines of the engines file if a name asks for one."""
    from pdk.cli.play import data_dir  # here: play imports this module for its opponents

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
