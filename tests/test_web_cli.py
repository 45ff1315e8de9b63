"""``pdk serve``'s command line: bad input is one line and exit 2, before any server starts."""

from __future__ import annotations

import socket

from typer.testing import CliRunner

from pdk.cli.app import app

runner = CliRunner()


def test_bad_options_are_one_line_errors() -> None:
    for args, said in (
        (["--difficulty", "godlike", "--no-open"], "godlike"),
        (["--variant", "no-such-rules", "--no-open"], "no-such-rules"),
        (["--lang", "fr", "--no-open"], "fr"),
    ):
        result = runner.invoke(app, ["serve", *args])
        assert result.exit_code == 2, result.output
        assert said in result.output and "Traceback" not in result.output


def test_a_port_in_use_is_one_line(tmp_path: object) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--no-open", "--port", str(port), "--save-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}" in result.output and "Traceback" not in result.output
