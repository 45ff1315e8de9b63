"""Outside engines end to end through the real ``pdk`` program: the two reference engines
conform and play the same bot; every way an engine can fail stops the match in one line
naming it, the game and the move, with exit 2 and the finished records kept; an engine
starts once per worker, not once per deal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.cli import run_pdk, run_pdk_binary

GREEDY_PY = f"{sys.executable} {ROOT / 'examples/engines/greedy.py'}"
FAULTY_PY = str(ROOT / "tests/support/engines/faulty.py")
FAULTY = f"{sys.executable} {FAULTY_PY}"


def env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "PDK_DATA_DIR": str(tmp_path), **extra}


@pytest.fixture(scope="module")
def greedy_c(tmp_path_factory: pytest.TempPathFactory) -> str:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler on this machine")
    out = tmp_path_factory.mktemp("cc") / "greedy"
    flags = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror"]
    subprocess.run([cc, *flags, "-o", str(out), str(ROOT / "examples/engines/greedy.c")], check=True)
    return str(out)


@pytest.mark.parametrize("which", ["python", "c"])
def test_reference_engines_conform(which: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    command = GREEDY_PY if which == "python" else request.getfixturevalue("greedy_c")
    proc = run_pdk("engine", "check", command, "--json", env=env(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["passed"] and report["engine"] == f"greedy-{'py' if which == 'python' else 'c'}"
    assert all(c["asked"] > 0 and not c["mistakes"] for c in report["checks"])


def test_check_lists_the_mistakes_of_a_broken_engine(tmp_path: Path) -> None:
    proc = run_pdk("engine", "check", f"{FAULTY} illegal", env=env(tmp_path))
    assert proc.returncode == 1
    assert "9999, which is not one of its" in proc.stdout and "does not conform" in proc.stdout


def test_both_reference_engines_are_the_same_bot(tmp_path: Path, greedy_c: str) -> None:
    players = f"cmd:{greedy_c},cmd:{GREEDY_PY},random"
    # Ten deals, each in all six seatings (60 games, hundreds of plays per engine): duplicate
    # play gives the two engines the same hands in the same seats, so a choice made
    # differently once in a few hundred plays already splits their totals, and greedy's lead
    # over random is some 4 points a deal (60 deals, 360 games, showed nothing more).
    args = ["selfplay", "-p", players, "-n", "10", "--duplicate", "--workers", "1", "--json"]
    proc = run_pdk(*args, env=env(tmp_path))  # in this process: one worker, the engines its children
    assert proc.returncode == 0, proc.stderr
    bots = {b["bot"]: b for b in json.loads(proc.stdout)["bots"]}
    assert bots["greedy-c"]["score_mean"] == bots["greedy-py"]["score_mean"]
    assert bots["greedy-c"]["wins"] == bots["greedy-py"]["wins"]
    assert bots["greedy-c"]["score_mean"] > bots["random"]["score_mean"]


def _named(tmp_path: Path, mode: str, fail_deal: int = 3) -> None:
    (tmp_path / "engines.toml").write_text(
        "[faulty]\n"
        f"command = {json.dumps([sys.executable, FAULTY_PY, mode, str(fail_deal)])}\n"
        "move_time = 0.5\nstart_time = 1.0\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("crash", "exited (code 3)"),
        ("hang", "gave no answer within 0.5s"),
        ("garbage", "answered I resign, not a move"),
        ("illegal", "played 9999, which is not one of its"),
        ("long", "wrote a line longer than 1048576 bytes"),
    ],
)
def test_a_failing_engine_stops_the_match_in_one_line(tmp_path: Path, mode: str, said: str) -> None:
    _named(tmp_path, mode)
    out = tmp_path / "games.jsonl"
    args = ["selfplay", "-p", "engine:faulty,random,random", "-n", "10", "--workers", "1", "-o", str(out)]
    proc = run_pdk_binary(*args, env=env(tmp_path), timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "engine faulty (engine:faulty) failed over move" in lines[0] and "of game 3 (deal 3" in lines[0]
    assert said in lines[0] and "Traceback" not in proc.stderr
    assert len(out.read_text().splitlines()) == 2  # the finished games are kept


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("engine:faulty", "sent no hello within 1s of starting"),
        ("cmd:/nonexistent/engine --flag", "cannot start /nonexistent/engine --flag"),
        ("cmd:", "names no command to run"),
        ("engine:nobody", "no engine named nobody"),
    ],
)
def test_an_engine_that_cannot_start_fails_before_any_game(tmp_path: Path, players: str, said: str) -> None:
    _named(tmp_path, "nohello")
    proc = run_pdk_binary("selfplay", "-p", f"{players},random,random", "-n", "5", env=env(tmp_path))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and said in proc.stderr, proc.stderr


def test_a_wrong_protocol_version_is_named(tmp_path: Path) -> None:
    proc = run_pdk_binary(
        "selfplay", "-p", f"cmd:{FAULTY} version,random,random", "-n", "5", env=env(tmp_path)
    )
    assert proc.returncode == 2
    assert "speaks protocol version 99; pdk speaks 1" in proc.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_engine_starts_once_per_worker_not_per_deal(tmp_path: Path, workers: str) -> None:
    starts = tmp_path / "starts"
    args = ["selfplay", "-p", f"cmd:{FAULTY} none,random,random", "-n", "60", "--workers", workers]
    proc = run_pdk_binary(*args, env=env(tmp_path, FAULTY_STARTS=str(starts)), timeout=120)
    assert proc.returncode == 0, proc.stderr
    # The parent greets it once before the match (a bad engine fails before any game);
    # with one worker that process plays every deal, with two each worker starts its own.
    assert len(starts.read_text().split()) == (1 if workers == "1" else 3)


def test_engine_log_holds_its_stderr_not_pdks_output(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys, runpy\nprint('thinking hard', file=sys.stderr)\n"
        f"runpy.run_path({str(ROOT / 'examples/engines/greedy.py')!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    proc = run_pdk_binary(
        "selfplay", "-p", f"cmd:{sys.executable} {noisy},random,random", "-n", "3", env=env(tmp_path)
    )
    assert proc.returncode == 0 and "thinking hard" not in proc.stdout + proc.stderr
    logs = list((tmp_path / "engine-logs").iterdir())
    assert any("thinking hard" in p.read_text() for p in logs)


def test_the_server_seats_an_engine_only_from_its_owners_configuration(tmp_path: Path) -> None:
    from pdk.table.tables import TableStore
    from pdk.variants.registry import load_profile

    engine = f"cmd:{GREEDY_PY}"
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=3, difficulty=engine)
    table = store.create()  # the owner's default: the engine
    assert table.session.difficulty == engine
    while table.session.state.turn != 0 and not table.session.state.over:
        table.step(table.seq)
    assert table.session.state.history or table.session.state.turn == 0
    # A request names a level, never a program: anything else falls back to the owner's.
    assert store.create("easy").session.difficulty == "easy"
    assert store.create("cmd:/bin/sh").session.difficulty == engine
