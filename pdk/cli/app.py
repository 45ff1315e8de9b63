"""The ``pdk`` program: one Typer app; each command lives in its own module."""

from __future__ import annotations

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


def main() -> None:
    app()
