"""``--save-dir ''`` names no folder: every command that takes it refuses it in one line
(a path-typed option would quietly read it as the current folder)."""

from __future__ import annotations

import pytest

from tests.support.cli import run_pdk


@pytest.mark.parametrize("command", ["play", "stats", "serve"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_save_dir_is_refused(command: str, lang: str) -> None:
    proc = run_pdk(command, "--save-dir", " ", "--lang", lang, stdin="")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--save-dir" in lines[0]
    assert ("文件夹" in lines[0]) == (lang == "zh")
