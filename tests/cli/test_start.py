"""``pdk CMD ...`` builds only CMD's command (``pdk.cli.app.app_for``): what it prints and
how it exits must be what the whole program would print, for every command and group."""

from __future__ import annotations

import pytest
import typer

from pdk.cli import app as cli_app
from tests.support.cli import run_pdk

NAMES = [
    *(
        info.name or typer.main.get_command_name(info.callback.__name__)
        for info in cli_app.app.registered_commands
        if info.callback is not None
    ),
    *(str(info.typer_instance.info.name) for info in cli_app.app.registered_groups if info.typer_instance),
]


def test_every_command_and_group_is_built_alone() -> None:
    assert {"selfplay", "play", "review", "ladder", "variants"} <= set(NAMES)
    for name in NAMES:
        alone = cli_app.app_for([name, "--help"])
        assert len(alone.registered_commands) + len(alone.registered_groups) == 1, name
    assert cli_app.app_for(["--version"]) is cli_app.app
    assert cli_app.app_for(["selfpla"]) is cli_app.app
    assert cli_app.app_for([]) is cli_app.app


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("tail", [["-h"], ["--no-such-option"]])
def test_a_command_alone_says_what_the_whole_program_says(
    name: str, tail: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = run_pdk(name, *tail)
    monkeypatch.setattr(cli_app, "app_for", lambda argv: cli_app.app)
    whole = run_pdk(name, *tail)
    assert (alone.returncode, alone.stdout, alone.stderr) == (whole.returncode, whole.stdout, whole.stderr)
    assert alone.stdout or alone.stderr
