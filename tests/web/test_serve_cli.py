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


def test_lang_opens_the_page_in_that_language(tmp_path: object) -> None:
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--port", str(port), "--lang", "en"]
    proc = subprocess.Popen([*cmd, "--save-dir", str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(10)
    assert f"http://127.0.0.1:{port}/?lang=en" in line
