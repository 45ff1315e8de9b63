"""Hostile input at the command line (issue 13): card strings, bad options, file-system
faults and tampered saves through the commands (Typer's CliRunner), closed and odd streams
through the real program. Every bad input ends in one line and a non-zero exit, never a
traceback; nothing read from a file names a path; a failed save is never called saved."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pdk.cli.app import app_for, main
from tests.support import ROOT
from tests.support.cli import pdk_env
from tests.support.tooling import running_in_group, until

RECORD = ROOT / "replays" / "shut_out.json"
runner = CliRunner()
FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@functools.cache
def program(name: str) -> typer.Typer:
    """The program as ``pdk NAME ...`` builds it (that one command, or the whole for an
    unknown name): Typer reads the signature of every command the program holds at each
    call, and for the whole program that was most of the fuzz tests' time."""
    return app_for([name])


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Run a command; an exception other than the exit is the failure we hunt."""
    result = runner.invoke(
        program(args[0]), list(args), input=input, env={"NO_COLOR": "1", "LANG": "C.UTF-8"}
    )
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"{type(exc).__name__}: {exc}"
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, err: str, echo: str = "") -> None:
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, lines
    assert "Traceback" not in err
    if len(echo) > 60:
        assert echo not in err
        assert len(lines[0]) < 400


# -- card strings ----------------------------------------------------------------------------

CARD_ALPHABET = "3456789TJQKA2tjqkaxsShHdDcC10 ,-♠♥♦♣大小王BRé\t"


@FUZZ
@given(st.text(alphabet=CARD_ALPHABET, max_size=120) | st.text(max_size=40))
def test_fuzz_card_strings_in_every_card_option(text: str) -> None:
    for args in (
        ("moves", "--hand", text),
        ("moves", "--hand", "334455667788", "--play", text),
        ("moves", "--hand", "334455667788", "--beat", text),
    ):
        if "\x00" in text:
            continue
        code, _, err = invoke(*args)
        assert code in (0, 1, 2), (args, code)
        if code == 2:
            assert_one_line_error(code, err, text)


@pytest.mark.parametrize("option", ["--hand", "--play", "--beat"])
@pytest.mark.parametrize("text", ["", " ", " , "])
def test_no_cards_given(option: str, text: str) -> None:
    args = ["moves", "--hand", "334455"] if option != "--hand" else ["moves"]
    code, _, err = invoke(*args, option, text)
    assert_one_line_error(code, err)
    assert f"{option}: no cards given" in err


def test_a_40000_character_card_string_is_not_echoed() -> None:
    for text in ("♠" * 40_000, "3" * 40_000):
        for args in (("moves", "--hand", text), ("moves", "--hand", "33", "--play", text)):
            _, out, err = invoke(*args)
            assert text not in out + err
            assert len(out + err) < 1000


# -- options ---------------------------------------------------------------------------------

HUGE = "9" * 40
BAD_OPTIONS = [
    ("selfplay", "--players", ""),
    ("selfplay", "--players", " , "),
    ("selfplay", "-n", "0"),
    ("selfplay", "-n", "-1"),
    ("selfplay", "-n", HUGE),
    ("selfplay", "-w", "0"),
    ("selfplay", "-w", "-3"),
    ("selfplay", "-w", "100000"),
    ("selfplay", "-s", HUGE),
    ("selfplay", "-v", ""),
    ("selfplay", "--lang", ""),
    ("selfplay", "-p", "normal,normal,normal,normal"),
    ("selfplay", "-p", "x" * 5000),
    ("moves", "--hand", "33", "--next-holds", "0"),
    ("moves", "--hand", "33", "--next-holds", "-1"),
    ("moves", "--hand", "33", "--next-holds", HUGE),
    ("moves", "--hand", "33", "-v", ""),
    ("moves", "--hand", "33", "--lang", "x" * 5000),
    ("replay", str(RECORD), "--game", "0"),
    ("replay", str(RECORD), "--as", "-1"),
    ("replay", str(RECORD), "--as", HUGE),
    ("replay", str(RECORD), "--bot", ""),
    ("replay", str(RECORD), "--bot", "y" * 5000),
    ("play", "--difficulty", ""),
    ("play", "--difficulty", "z" * 5000),
    ("play", "--delay", "-1"),
    ("play", "--delay", "nan"),
    ("play", "--delay", "inf"),
    ("play", "--seed", HUGE),
    ("play", "--seed", "-1"),
    ("play", "--lang", ""),
    ("variants", "show", ""),
    ("variants", "show", "v" * 5000),
    ("variants", "check", ""),
]


@pytest.mark.parametrize("args", BAD_OPTIONS, ids=lambda a: " ".join(x[:12] for x in a))
def test_every_bad_option_exits_non_zero_in_one_line(
    args: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through ``main``, as the program runs: usage errors are its one line too."""
    extra = ["--save-dir", str(tmp_path)] if args[0] == "play" else []
    monkeypatch.setattr(sys, "argv", ["pdk", *args, *extra])
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    monkeypatch.setenv("COLUMNS", "100")  # main may drop it; monkeypatch puts it back
    with pytest.raises(SystemExit) as info:
        main()
    _, err = capsys.readouterr()
    longest = max(args, key=len)
    assert_one_line_error(int(info.value.code or 0), err, longest if len(longest) > 60 else "")


def test_play_variant_empty_is_refused(tmp_path: Path) -> None:
    code, _, err = invoke("play", "--variant", "", "--new", "--yes", "--save-dir", str(tmp_path), input="q\n")
    assert_one_line_error(code, err)


# -- saves and the file system --------------------------------------------------------------


def _play(save_dir: Path, *extra: str, input: str = "q\n") -> tuple[int, str, str]:
    return invoke("play", "--save-dir", str(save_dir), "--delay", "0", "--lang", "en", *extra, input=input)


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    """A data dir holding a real save of a game in progress."""
    d = tmp_path / "data"
    code, _, err = _play(d, "--seed", "3", input="h\n\nq\n")
    assert code == 0, err
    assert (d / "save.json").exists()
    return d


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """A folder nobody may write into, root included (``chattr +i``); skip if impossible."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0 and shutil.which("chattr") is not None
    if immutable:
        subprocess.run(["chattr", "+i", str(folder)], check=False, capture_output=True)
    try:
        probe = folder / ".probe"
        try:
            probe.write_text("x")
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("cannot make a read-only folder here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=False, capture_output=True)
        folder.chmod(0o755)


def test_a_corrupt_save_in_a_read_only_folder_is_one_line(tmp_path: Path) -> None:
    d = tmp_path / "ro"
    d.mkdir()
    (d / "save.json").write_text("{broken")
    (d / "save.json.lock").write_text("")
    with read_only(d):
        code, _, err = _play(d)
    assert_one_line_error(code, err)
    assert "cannot be moved aside" in err
    assert (d / "save.json").read_text() == "{broken"


def test_a_save_that_cannot_be_written_is_never_called_saved(saved: Path) -> None:
    before = (saved / "save.json").read_bytes()
    with read_only(saved):
        _, out, _ = _play(saved)
    assert "could not save" in out
    assert "game saved" not in out.split("could not save", 1)[1]
    assert "could not be saved" in out
    assert (saved / "save.json").read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_save_that_is_a_fifo_or_a_folder_is_moved_aside(tmp_path: Path, kind: str) -> None:
    d = tmp_path / "d"
    d.mkdir()
    if kind == "fifo":
        os.mkfifo(d / "save.json")
    else:
        (d / "save.json").mkdir()
    code, out, err = _play(d)
    assert code == 0, err
    assert "unreadable" in out
    assert list(d.glob("save.json.corrupt-*"))


def test_a_data_dir_that_is_a_file(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    assert_one_line_error(*_play(f)[::2])
    code, _, err = invoke("stats", "--save-dir", str(f))
    assert_one_line_error(code, err)


def test_stale_temporary_files_are_removed_at_the_next_start(saved: Path) -> None:
    dead = 4_194_304 + 17  # above Linux's pid_max: no such process
    stale = [saved / f".save.json.{dead}.tmp", saved / "records" / f".x-001.json.{dead}.tmp"]
    live = saved / f".save-2.json.{os.getppid()}.tmp"  # a live process's write in progress
    for p in [*stale, live]:
        p.parent.mkdir(exist_ok=True)
        p.write_text("{half")
    code, _, err = _play(saved)
    assert code == 0, err
    assert not any(p.exists() for p in stale)
    assert live.exists()


@pytest.mark.parametrize("sid", ["../escaped", "/tmp/pdk-hostile-abs/x", "a/b", ".."])
def test_a_tampered_session_id_never_names_a_path(saved: Path, sid: str) -> None:
    data = json.loads((saved / "save.json").read_text())
    data["session"]["id"] = sid
    (saved / "save.json").write_text(json.dumps(data))
    outside = {p for p in saved.parent.rglob("*") if p.is_file()}
    code, out, err = _play(saved, input="a\n" + "\n" * 40 + "q\n")
    assert code == 0, err
    assert "session.id" in out
    created = {p for p in saved.parent.rglob("*") if p.is_file()} - outside
    assert all(p.parent in (saved, saved / "records") for p in created), created
    assert not Path("/tmp/pdk-hostile-abs").exists()


def test_selfplay_out_on_a_full_disk_keeps_the_summary() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    code, out, err = invoke("selfplay", "-n", "4", "-w", "1", "--out", "/dev/full")
    assert_one_line_error(code, err)
    assert "No space left" in err
    assert "deals in" in out


# -- streams (the real program: a closed descriptor cannot be faked in-process) ---------------


def sh(command: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=120, env=pdk_env(**env)
    )


@pytest.mark.parametrize(
    "command",
    ["pdk moves --hand 33 >&-", f"pdk replay {RECORD} --print >&-", "pdk variants >&-"],
)
def test_stdout_closed_is_one_line(command: str) -> None:
    p = sh(command)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == ["pdk: error: cannot write the output: standard output is closed"]


def test_stdin_closed_quits_and_saves(tmp_path: Path) -> None:
    p = sh(f"pdk play --save-dir {tmp_path} --delay 0 <&-")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert (tmp_path / "save.json").exists()


def test_a_reader_that_goes_away_is_quiet() -> None:
    p = sh(f"pdk replay {RECORD} --print | head -c 10; pdk moves --hand 33445566778899TTJJQQKKA | head -1")
    assert "Traceback" not in p.stderr and "Exception" not in p.stderr, p.stderr
    assert p.stderr == ""


@pytest.mark.parametrize("columns", ["0", "-5", "abc", "", "999999999999"])
def test_odd_columns_neither_hide_tables_nor_errors(columns: str) -> None:
    listed = sh("pdk variants", COLUMNS=columns)
    assert listed.returncode == 0 and "classic16" in listed.stdout
    bad = sh("pdk moves --hand ZZ", COLUMNS=columns)
    assert bad.returncode == 2 and "unknown card" in bad.stderr


def test_selfplay_workers_of_a_killed_parent_exit_quietly() -> None:
    proc = subprocess.Popen(
        ["pdk", "selfplay", "-n", "100000", "-w", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=pdk_env(),
        start_new_session=True,
    )

    # Killed once both workers are busy playing (each has used half a second of CPU),
    # not after a guessed three seconds; then they have ten seconds to notice and go.
    def busy(pid: int) -> bool:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return False
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= 0.5

    workers_busy = lambda: sum(busy(pid) for pid in running_in_group(proc.pid) if pid != proc.pid) >= 2  # noqa: E731
    until(workers_busy, 60, "two workers at work", every=0.05)
    proc.kill()
    _, err = proc.communicate(timeout=60)
    with contextlib.suppress(TimeoutError):  # what is left is killed, then reported below
        until(lambda: not running_in_group(proc.pid), 10, "the workers ended", every=0.05)
    alive = running_in_group(proc.pid)
    for pid in alive:
        os.kill(pid, 9)
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    assert not alive
