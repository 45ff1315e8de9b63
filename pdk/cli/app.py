"""The ``pdk`` program: one Typer app; each command lives in its own module."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pdk import __version__

app = typer.Typer(
    name="pdk",
    help="跑得快 (Pao De Kuai) — play, analyse and simulate the shedding card game.",
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        print(f"pdk {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """跑得快 (Pao De Kuai) — play, analyse and simulate the shedding card game."""


# Each module registers its commands on ``app`` when imported.
from pdk.cli import (  # noqa: E402
    moves,
    play,
    replay,
    selfplay,
    stats,
    variants,
)

__all__ = ["app", "main", "moves", "play", "replay", "selfplay", "stats", "variants"]


def _click_kind(exc: BaseException) -> str | None:
    """The click exception family an error belongs to, by class name: Typer vendors its own
    copy of click in recent releases, so the classes cannot be imported from one place."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    for kind in ("NoArgsIsHelpError", "UsageError", "Abort", "ClickException"):
        if kind in names:
            return kind
    return None


def main() -> None:
    """Run the program. A usage error (unknown option, bad value, missing option) is one
    line on stderr and exit 2, like every other user error, instead of a framed box."""
    try:
        result = app(standalone_mode=False)
    except Exception as exc:
        kind = _click_kind(exc)
        if kind == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            print(ctx.get_help() if ctx is not None else "pdk -h for help")
            sys.exit(0)
        if kind == "Abort":
            print("pdk: interrupted", file=sys.stderr)
            sys.exit(130)
        if kind in ("UsageError", "ClickException"):
            ctx = getattr(exc, "ctx", None)
            where = f"pdk {ctx.info_name}" if ctx is not None and ctx.parent is not None else "pdk"
            message = exc.format_message()  # type: ignore[attr-defined]
            print(f"pdk: error: {message} (see '{where} -h')", file=sys.stderr)
            sys.exit(int(getattr(exc, "exit_code", 2)))
        raise
    sys.exit(result if isinstance(result, int) else 0)
