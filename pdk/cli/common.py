"""What every command shares: one-line errors, profile lookup, language, consoles, and the data
folder (every command that keeps something finds it the same way)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import platformdirs
import typer
from rich.console import Console

from pdk.engine.profile import Profile, ProfileError
from pdk.text.catalog import Lang, default_lang, excerpt, tr
from pdk.variants.registry import load_profile

VariantOpt = Annotated[
    str,
    typer.Option("--variant", "-v", help="Rule profile: a name from `pdk variants` or a .yaml path."),
]
LangOpt = Annotated[str | None, typer.Option("--lang", help="Language: zh or en (default: from the locale).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr and a non-zero exit: how every user error ends."""
    err_console().print(f"pdk: error: {message}", markup=False, highlight=False)
    raise typer.Exit(code)


def err_console() -> Console:
    return Console(stderr=True, soft_wrap=True, no_color="NO_COLOR" in os.environ)


def out_console() -> Console:
    """stdout. Piped into a file or another program, tables are laid out 120 columns wide
    (rather than rich's 80) so that no column is cut; ``COLUMNS`` still decides if set."""
    width = None if is_terminal() or "COLUMNS" in os.environ else 120
    return Console(soft_wrap=True, no_color="NO_COLOR" in os.environ, width=width)


def make_console() -> Console:
    """Colour on a terminal; plain text with ``NO_COLOR`` or when output is not a terminal."""
    plain = "NO_COLOR" in os.environ
    console = Console(highlight=False, soft_wrap=False)
    if plain or not console.is_terminal:
        console = Console(highlight=False, color_system=None, soft_wrap=False)
    return console


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


def profile_or_fail(variant: str, lang: Lang) -> Profile:
    try:
        return load_profile(variant)
    except ProfileError as exc:
        fail(exc.message(lang))


def lang_or_fail(lang: str | None) -> Lang:
    if lang is None:
        return default_lang()
    if lang in ("en", "zh"):
        return lang  # type: ignore[return-value]
    # The language is what is wrong, so the line says it in both.
    value = excerpt(lang)
    fail(f"{tr('err_lang', 'en', value=value)} / {tr('err_lang', 'zh', value=value)}")


def is_terminal() -> bool:
    return sys.stdout is not None and sys.stdout.isatty()


def sane_environment() -> None:
    """Before any command runs: a ``COLUMNS`` or ``LINES`` that is not a usable number
    (``0``, ``abc``, a twelve-digit width) is dropped, so tables and errors are laid out
    at the terminal's or the default width instead of vanishing; a closed stdin reads as
    the end of input and a closed stderr discards. A closed stdout is the caller's to
    refuse (``stdout_closed``): the output is the point of every command."""
    for var in ("COLUMNS", "LINES"):
        value = os.environ.get(var)
        if value is not None and not (value.strip().isdigit() and 10 <= int(value) <= 10_000):
            del os.environ[var]
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (lives as long as the process)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def stdout_closed() -> bool:
    return sys.stdout is None


def silence_stdout() -> None:
    """The reader of stdout went away (``| head -1``): point stdout at /dev/null so the
    interpreter's last flush does not fail again on the way out."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass
