"""Your own bot against ours, through the installed ``pdk`` program: ``--players`` with a
plug-in spec, and what happens when the plug-in misbehaves."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pdk.engine.record import loads
from tests.support import ROOT
from tests.support.cli import needs_binary, pdk_env, run_pdk_binary

GREEDY = "examples/greedy_bot.py:GreedyBot"
ENV = pdk_env(120)
# As a user runs it from a checkout: the examples' paths are relative to its root.
AS_USER: dict[str, Any] = {"columns": 120, "cwd": ROOT, "timeout": 120}

pytestmark = needs_binary

BAD_BOTS = """
class Illegal:
    name = "cheater"

    def __init__(self, seed):
        pass

    def choose(self, view):
        moves = view.position().legal_moves()
        return (moves[0][0] * 2, *moves[0][1:]) if moves else None  # twice a legal play's cards


GAMES = []


class LateRaiser:
    '''Plays two games, then raises in the third (pdk builds one bot first, to check it).'''

    name = "late"

    def __init__(self, seed):
        GAMES.append(seed)

    def choose(self, view):
        if len(GAMES) >= 4:
            raise KeyError("lost my\\nnotes")
        moves = view.position().legal_moves()
        if not moves:
            return None
        return moves[0] if view.prev is None or not view.position().can_pass(moves) else None
"""


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("pdk: error: ")
    return lines[0]


@pytest.fixture
def bad_bots(tmp_path: Path) -> Path:
    path = tmp_path / "bad_bots.py"
    path.write_text(BAD_BOTS)
    return path


def test_the_readme_recipe_pits_the_example_against_ours(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    proc = run_pdk_binary(
        "selfplay", "--players", f"{GREEDY},normal,normal", "--duplicate", "-n", "3",
        "--workers", "2", "--json", "--out", str(out), **AS_USER,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    assert data["games_played"] == 9
    greedy = [line for line in data["bots"] if line["bot"] == "greedy"]
    assert len(greedy) == 1 and greedy[0]["spec"] == GREEDY and greedy[0]["deals"] == 9
    records = [loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 9 and all(GREEDY in (rec.meta.get("bots") or []) for rec in records)


def test_the_table_shows_the_plug_in_by_its_name() -> None:
    proc = run_pdk_binary("selfplay", "-p", f"{GREEDY},easy,easy", "-n", "2", "-w", "1", **AS_USER)
    assert proc.returncode == 0, proc.stderr
    assert "greedy" in proc.stdout and GREEDY not in proc.stdout


def test_results_do_not_depend_on_the_workers() -> None:
    runs = [
        json.loads(
            run_pdk_binary(
                "selfplay", "-p", f"{GREEDY},easy,random", "-n", "6", "-s", "3", "-w", w, "--json", **AS_USER
            ).stdout
        )
        for w in ("1", "3")
    ]
    assert runs[0]["players"] == runs[1]["players"] and runs[0]["bots"] == runs[1]["bots"]


def test_a_module_on_pythonpath_works(tmp_path: Path) -> None:
    (tmp_path / "my_bot.py").write_text((ROOT / "examples" / "greedy_bot.py").read_text())
    env = {**ENV, "PYTHONPATH": str(tmp_path)}
    proc = run_pdk_binary(
        "selfplay", "-p", "my_bot:GreedyBot,normal,easy", "-n", "2", "-w", "2", "--json", env=env, **AS_USER
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["spec"] == "my_bot:GreedyBot"


def test_an_illegal_move_stops_the_match_in_one_line_in_either_language(bad_bots: Path) -> None:
    spec = f"{bad_bots}:Illegal"
    en = one_error_line(
        run_pdk_binary("selfplay", "-p", f"{spec},easy,easy", "-n", "3", "-w", "2", "--lang", "en", **AS_USER)
    )
    # With two workers, whichever failing game comes back first is reported.
    assert re.search(
        rf"bot cheater \({re.escape(spec)}\) made an illegal move in game \d+ \(deal seed \d+", en
    )
    assert "is not one of its" in en
    zh = one_error_line(
        run_pdk_binary("selfplay", "-p", f"{spec},easy,easy", "-n", "3", "-w", "2", "--lang", "zh", **AS_USER)
    )
    assert f"AI cheater ({spec}) 在第 " in zh and "出了不合法的牌" in zh


def test_an_exception_in_choose_is_one_line_and_finished_records_are_kept(
    bad_bots: Path, tmp_path: Path
) -> None:
    out = tmp_path / "games.jsonl"
    spec = f"{bad_bots}:LateRaiser"
    proc = run_pdk_binary(
        "selfplay", "-p", f"{spec},easy,easy", "-n", "5", "-w", "1", "--out", str(out), **AS_USER
    )
    line = one_error_line(proc)
    assert f"bot late ({spec}) raised KeyError: 'lost my\\nnotes' in game 3 (deal seed " in line
    assert len(out.read_text().splitlines()) == 2  # games 1 and 2 finished and were kept
    assert proc.stdout == ""


@pytest.mark.parametrize(
    ("players", "needle"),
    [
        ("nosuch_bot_module:Bot,easy,easy", "no module named 'nosuch_bot_module'"),
        ("examples/nosuch.py:Bot,easy,easy", "no such file"),
        (f"{GREEDY}x,easy,easy", "has no attribute 'GreedyBotx'"),
        ("examples/greedy_bot.py:,easy,easy", "module.path:factory"),
    ],
)
def test_bad_specs_fail_before_any_game(players: str, needle: str) -> None:
    assert needle in one_error_line(
        run_pdk_binary("selfplay", "-p", players, "-n", "2", "--lang", "en", **AS_USER)
    )


def test_an_import_that_raises_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "needs_gpu.py").write_text("raise OSError('no CUDA device')\n")
    line = one_error_line(
        run_pdk_binary("selfplay", "-p", f"{tmp_path}/needs_gpu.py:Bot", "-n", "2", "--lang", "zh", **AS_USER)
    )
    assert "导入" in line and "OSError: no CUDA device" in line


REPLAY_BOTS = """
class Boom:
    name = "boom"

    def __init__(self, seed):
        pass

    def choose(self, view):
        raise KeyError("nope")


class AlwaysPass:
    name = "passer"

    def __init__(self, seed):
        pass

    def choose(self, view):
        return None  # a leader may not pass
"""


@pytest.fixture
def replay_setup(tmp_path: Path) -> tuple[Path, Path]:
    games = tmp_path / "g.jsonl"
    done = run_pdk_binary(
        "selfplay", "-n", "1", "-p", "easy", "--seed", "4", "-w", "1", "--out", str(games), **AS_USER
    )
    assert done.returncode == 0, done.stderr
    bots = tmp_path / "replay_bots.py"
    bots.write_text(REPLAY_BOTS)
    return games, bots


def test_replay_explains_with_a_plug_in_bot(replay_setup: tuple[Path, Path]) -> None:
    games, _ = replay_setup
    done = run_pdk_binary(
        "replay",
        str(games),
        "--game",
        "1",
        "--print",
        "--explain",
        "--bot",
        GREEDY,
        "--lang",
        "en",
        **AS_USER,
    )
    assert done.returncode == 0, done.stderr
    # Where the plug-in differs from the record, named by its ``name`` as the match summary names it.
    assert "(greedy would play" in done.stdout


@pytest.mark.parametrize(
    ("bot", "lang", "said"),
    [
        (
            "Boom",
            "en",
            r"^pdk: error: the bot \w+ \(.*replay_bots\.py:Boom\) raised KeyError: 'nope'"
            r" when asked about play 1$",
        ),
        ("Boom", "zh", r"^pdk: error: AI \w+ \(.*replay_bots\.py:Boom\) 在第 1 手出错：KeyError: 'nope'$"),
        (
            "AlwaysPass",
            "en",
            r"^pdk: error: the bot \w+ \(.*:AlwaysPass\) chose pass at play 1, which is not a legal play",
        ),
        ("Missing", "en", r"^pdk: error: bot '.*replay_bots\.py:Missing': .* has no attribute 'Missing'$"),
    ],
)
def test_replay_stops_on_a_misbehaving_plug_in_with_one_line(
    replay_setup: tuple[Path, Path], bot: str, lang: str, said: str
) -> None:
    games, bots = replay_setup
    done = run_pdk_binary(
        "replay",
        str(games),
        "--game",
        "1",
        "--print",
        "--explain",
        "--bot",
        f"{bots}:{bot}",
        "--lang",
        lang,
        **AS_USER,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(said, lines[0]), done.stderr
