"""The ``pdk`` program: one Typer app; each command lives in its own module."""

from __future__ import annotations

import functools
import gc
import importlib
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from pdk import __version__
from pdk.cli.common import sane_environment, silence_stdout, stdout_closed
from pdk.text.catalog import Lang, default_lang, tr


def _version(value: bool) -> None:
    if value:
        print(f"pdk {__version__}")
        raise typer.Exit()


def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """跑得快 (Pao De Kuai) — play, analyse and simulate the shedding card game."""


# The commands, registered here and only here (as fastapi-cli does): name, module in
# pdk.cli, the function (or the Typer group) in it. The command modules parse and render,
# and never import this module back.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("play", "play", "play"),
    ("stats", "stats", "stats"),
    ("moves", "moves", "moves"),
    ("selfplay", "selfplay", "selfplay"),
    ("replay", "replay", "replay"),
    ("serve", "serve", "serve_app"),
    ("advise", "advise", "advise"),
    ("review", "review", "review_cmd"),
    ("train", "train", "train"),
    ("variants", "variants", "variants_app"),
    ("puzzles", "puzzles", "puzzles_app"),
    ("engine", "engine", "engine_app"),
    ("ladder", "ladder", "ladder_app"),
)


def build(only: str | None = None) -> typer.Typer:
    """The program, or with ``only`` the program with that one command: a run imports and
    builds what it runs alone (each command module brings its own libraries, and Typer
    reads the signature of every command it builds), while what that command parses,
    prints and answers is the same either way."""
    program = typer.Typer(
        name="pdk",
        help="跑得快 (Pao De Kuai) — play, analyse and simulate the shedding card game.",
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    program.callback()(root)
    for name, module, attribute in COMMANDS:
        if only is not None and name != only:
            continue
        made = getattr(importlib.import_module(f"pdk.cli.{module}"), attribute)
        if isinstance(made, typer.Typer):
            program.add_typer(made)
        else:
            program.command(name)(made)
    return program


@functools.cache
def whole() -> typer.Typer:
    """Every command: help, a typo, and the tests' runner."""
    return build()


def __getattr__(name: str) -> Any:
    if name == "app":  # ``from pdk.cli.app import app``: the whole program, built on first use
        return whole()
    raise AttributeError(name)


def _click_kind(exc: BaseException) -> str | None:
    """The click exception family an error belongs to, by class name: Typer vendors its own
    copy of click in recent releases, so the classes cannot be imported from one place."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    for kind in ("NoArgsIsHelpError", "UsageError", "Abort", "ClickException"):
        if kind in names:
            return kind
    return None


def argv_lang(argv: list[str]) -> Lang:
    """The language asked for on the command line (``--lang zh``), else the locale's: for
    the errors found before a command has read its options."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        else:
            continue
        if value in ("en", "zh"):
            return value  # type: ignore[return-value]
    return default_lang()


def usage_message(exc: Any, lang: Lang) -> str:
    """A usage error in ``lang``. English is the parser's own line; in Chinese the common
    kinds are said from the error's fields (the option, the parameter), and any other
    kind keeps the parser's text inside a Chinese sentence."""
    english: str = exc.format_message()
    if lang == "en":
        return english
    names = {cls.__name__ for cls in type(exc).__mro__}
    param = getattr(exc, "param", None)
    hint = getattr(exc, "param_hint", None)
    if hint is None and param is not None:
        hint = param.get_error_hint()
    elif hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(h) for h in hint)
    if "NoSuchOption" in names:
        alts = getattr(exc, "possibilities", None)
        if alts:
            return tr("usage_no_option_alts", lang, name=exc.option_name, alts=", ".join(sorted(alts)))
        return tr("usage_no_option", lang, name=exc.option_name)
    if "MissingParameter" in names and hint:
        kind = getattr(exc, "param_type", None) or getattr(param, "param_type_name", "option")
        return tr("usage_missing_argument" if kind == "argument" else "usage_missing_option", lang, hint=hint)
    if "BadParameter" in names and hint:
        return tr("usage_bad_value", lang, hint=hint, detail=exc.message)
    return tr("usage_other", lang, detail=english)


def main() -> None:
    """Run the program, and end it with one line whatever the streams do: stdout closed
    (exit 2), its reader gone (``| head -1``: quiet, exit 141 as for SIGPIPE), the disk
    full under it, or any other system error left unsaid (one line, exit 2)."""
    sane_environment()
    # What the start made (the commands, rich, pydantic's schemas) lives as long as the
    # program: frozen, the collector stops walking it again and again during a long run
    # (a selfplay of millions of deals makes garbage all the time).
    gc.freeze()
    lang = argv_lang(sys.argv[1:])
    if stdout_closed():
        print(f"pdk: error: {tr('err_stdout_closed', lang)}", file=sys.stderr)
        sys.exit(2)
    try:
        try:
            _run()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        sys.exit(141)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"pdk: error: {where}{exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)


# A range this wide is a machine limit, not advice: help says only its lower bound.
_HUGE = 2**31


def plain_help(command: Any) -> None:
    """Help screens that read as words: a value is named after its option (``--seed SEED``,
    ``--save-dir DIR``) rather than by Python type (``<str>``, ``<int range>``), an on/off
    flag or an argument (named already) shows no type (no ``<bool>``, ``<str>``), and a
    range up to 2**63 shows as ``x>=0``."""
    for param in command.params:
        if isinstance(param, TyperArgument):
            setattr(param, "display_type_rich", lambda ctx: None)  # noqa: B010 (mypy: a method)
            continue
        if not isinstance(param, TyperOption) or param.metavar is not None:
            continue
        if param.is_flag:
            param.metavar = ""
            continue
        param.metavar = (param.name or "value").split("_")[-1].upper()
        top, low = getattr(param, "max", None), getattr(param, "min", None)
        if isinstance(top, int) and top >= _HUGE:
            setattr(  # noqa: B010 (mypy refuses assigning to a method)
                param, "_get_number_range_help_str", lambda low=low: "" if low is None else f"x>={low}"
            )
    # The help option is made (and kept) on first use: made here, with the same names.
    shown = command.get_help_option(command.context_class(command, help_option_names=["-h", "--help"]))
    if shown is not None:
        shown.metavar = ""
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            plain_help(sub)


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The program with only the command that ``argv`` names (``pdk selfplay ...``), else
    the whole of it (``pdk -h``, a typo)."""
    name = argv[0] if argv else ""
    return build(name) if any(name == known for known, _, _ in COMMANDS) else whole()


@functools.cache
def _command(name: str) -> Any:
    """The click command that runs ``pdk name ...`` (``""``: the whole program), its help
    made plain: made once a process. Converting a Typer program reads every signature
    again (most of a short command's time), and a process that runs the program more
    than once (the tests, in process) would pay it on every run."""
    command = typer.main.get_command(app_for([name]))
    plain_help(command)
    return command


def _run() -> None:
    """A usage error (unknown option, bad value, missing option) is one line on stderr and
    exit 2, like every other user error, instead of a framed box."""
    try:
        asked = sys.argv[1] if len(sys.argv) > 1 else ""
        command = _command(asked if any(asked == known for known, _, _ in COMMANDS) else "")
        result = command(standalone_mode=False)
    except Exception as exc:
        kind = _click_kind(exc)
        if kind == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            print(ctx.get_help() if ctx is not None else "pdk -h for help")
            sys.exit(0)
        lang = argv_lang(sys.argv[1:])
        if kind == "Abort":
            print(f"pdk: {tr('interrupted', lang)}", file=sys.stderr)
            sys.exit(130)
        if kind in ("UsageError", "ClickException"):
            ctx = getattr(exc, "ctx", None)
            where = f"pdk {ctx.info_name}" if ctx is not None and ctx.parent is not None else "pdk"
            line = tr("usage_line", lang, message=usage_message(exc, lang), where=where)
            print(f"pdk: error: {line}", file=sys.stderr)
            sys.exit(int(getattr(exc, "exit_code", 2)))
        raise
    sys.exit(result if isinstance(result, int) else 0)
