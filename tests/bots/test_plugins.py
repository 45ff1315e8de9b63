"""Plug-in bots: loading a user's bot from a spec, and the harness's checks on its answers."""

from __future__ import annotations

import multiprocessing
import pickle
import sys
import textwrap
from pathlib import Path

import pytest

from pdk.bots import BotSpecError, SpecReason, check_bot, is_plugin, load_factory, make_bot
from pdk.engine.combos import Move
from pdk.engine.profile import Profile
from pdk.engine.state import PlayerView
from pdk.match.run import (
    MatchError,
    MatchFault,
    Tally,
    _init_worker,
    _run_task,
    make_tasks,
    play_game,
    run_match,
)
from tests.support import ROOT

EXAMPLE = ROOT / "examples" / "greedy_bot.py"
GREEDY = f"{EXAMPLE}:GreedyBot"

BOTS = """
from pdk.engine.state import PlayerView

LOADED = []
LOADED.append(1)


class Lowest:
    name = "lowest"

    def __init__(self, seed):
        self.seed = seed

    def choose(self, view: PlayerView):
        moves = view.position().legal_moves()
        return min(moves, key=lambda m: m.top) if moves else None


def make(seed):
    return Lowest(seed + 1)


class Nameless:
    def __init__(self, seed):
        pass

    def choose(self, view):
        moves = view.position().legal_moves()
        return moves[0] if moves else None


class Illegal(Nameless):
    name = "cheater"

    def choose(self, view):
        return (0, 0, 0, 1)  # a single of no cards: not a legal play anywhere


class Passer(Nameless):
    name = "passer"

    def choose(self, view):
        return None  # refused when leading


class Raises(Nameless):
    def choose(self, view):
        raise ZeroDivisionError("bad\\nmaths")


class Copies(Nameless):
    name = "copies"

    def choose(self, view):
        moves = view.position().legal_moves()
        return Move(moves[0]) if moves else None


class Move(tuple):
    pass


class NoChoose:
    def __init__(self, seed):
        pass


NOT_CALLABLE = 3
"""


@pytest.fixture
def plugdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory on sys.path holding ``plugbots.py`` (a module) and ``pkg/sub.py``."""
    (tmp_path / "plugbots.py").write_text(BOTS)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub.py").write_text(BOTS)
    (tmp_path / "raises_on_import.py").write_text("raise RuntimeError('no GPU\\nfound')\n")
    (tmp_path / "imports_missing.py").write_text("import surely_not_installed_xyz\n")
    (tmp_path / "broken_syntax.py").write_text("def f(:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_spec_is_told_from_a_level_by_its_colon() -> None:
    assert is_plugin("mybots:Bot") and is_plugin("bots/x.py:Bot")
    assert not is_plugin("normal")


def test_a_module_spec_loads_a_class_or_a_factory(plugdir: Path) -> None:
    bot = make_bot("plugbots:Lowest", 7)
    assert bot.name == "lowest" and vars(bot)["seed"] == 7
    assert vars(make_bot("plugbots:make", 7))["seed"] == 8
    assert make_bot("pkg.sub:Lowest").name == "lowest"  # a dotted module path


def test_a_file_spec_loads_by_path(plugdir: Path) -> None:
    bot = make_bot(f"{plugdir / 'plugbots.py'}:Lowest", 5)
    assert bot.name == "lowest"
    assert make_bot(GREEDY).name == "greedy"


def test_the_factory_is_loaded_once_per_spec(plugdir: Path) -> None:
    spec = f"{plugdir / 'pkg' / 'sub.py'}:make"
    assert load_factory(spec) is load_factory(spec)
    module = sys.modules[load_factory(spec).__module__]
    make_bot(spec, 1)
    make_bot(spec, 2)
    assert vars(module)["LOADED"] == [1]


def test_the_label_is_the_bots_name_or_else_its_spec(plugdir: Path) -> None:
    assert check_bot("plugbots:Lowest") == "lowest"
    assert check_bot("plugbots:Nameless") == "plugbots:Nameless"
    assert check_bot("easy") == "easy"


@pytest.mark.parametrize(
    ("spec", "reason", "needle"),
    [
        ("nosuchmodule_xyz:Bot", SpecReason.NO_MODULE, "no module named 'nosuchmodule_xyz'"),
        ("pkg.nosuch:Bot", SpecReason.NO_MODULE, "no module named 'pkg.nosuch'"),
        ("no/such/file.py:Bot", SpecReason.NO_FILE, "no such file"),
        ("plugbots:Missing", SpecReason.NO_ATTR, "plugbots has no attribute 'Missing'"),
        ("raises_on_import:Bot", SpecReason.IMPORT_FAILED, "raised RuntimeError: no GPU found"),
        ("imports_missing:Bot", SpecReason.IMPORT_FAILED, "ModuleNotFoundError"),
        ("broken_syntax:Bot", SpecReason.IMPORT_FAILED, "SyntaxError"),
        ("plugbots:NOT_CALLABLE", SpecReason.NOT_CALLABLE, "is not callable"),
        ("plugbots:NoChoose", SpecReason.NO_CHOOSE, "no choose(view) method"),
        ("plugbots:", SpecReason.BAD_SPEC, "module.path:factory"),
        (":Bot", SpecReason.BAD_SPEC, "module.path:factory"),
        ("plugbots:not an identifier", SpecReason.BAD_SPEC, "module.path:factory"),
        ("nobody", SpecReason.UNKNOWN, "unknown bot 'nobody'"),
    ],
)
def test_a_bad_spec_says_what_is_wrong_in_one_line(
    plugdir: Path, spec: str, reason: SpecReason, needle: str
) -> None:
    with pytest.raises(BotSpecError) as info:
        make_bot(spec)
    assert info.value.reason is reason
    assert needle in str(info.value)
    for lang in ("en", "zh"):
        text = info.value.message(lang)
        assert "\n" not in text and spec.strip() in text


def test_a_file_that_raises_on_import_is_not_left_half_loaded(plugdir: Path) -> None:
    spec = f"{plugdir / 'raises_on_import.py'}:Bot"
    for _ in range(2):
        with pytest.raises(BotSpecError, match="RuntimeError: no GPU found"):
            make_bot(spec)


def test_spec_errors_are_bilingual_and_survive_pickling(plugdir: Path) -> None:
    with pytest.raises(BotSpecError) as info:
        make_bot("plugbots:Missing")
    again = pickle.loads(pickle.dumps(info.value))
    assert again.reason is SpecReason.NO_ATTR
    assert "没有" in again.message("zh") and "no attribute" in again.message("en")


def test_a_plug_in_plays_whole_games(classic: Profile) -> None:
    results = run_match(classic, [GREEDY, "easy", "normal"], 4, seed=1, duplicate=True, keep_records=True)
    assert len(results) == 4 * 6
    assert all(sum(r.totals) == 0 for r in results)
    assert all(r.record is not None and GREEDY in r.record for r in results)


def _fault(profile: Profile, spec: str) -> MatchError:
    task = make_tasks([spec, "easy", "easy"], 1, seed=3)[0]
    with pytest.raises(MatchError) as info:
        play_game(profile, task)
    return info.value


def test_an_illegal_move_stops_the_game_naming_bot_game_deal_and_move(
    classic: Profile, plugdir: Path
) -> None:
    err = _fault(classic, "plugbots:Illegal")
    assert err.reason is MatchFault.BOT_ILLEGAL
    seed = make_tasks(["easy"] * 3, 1, seed=3)[0].seed
    assert str(err).startswith(
        f"bot cheater (plugbots:Illegal) made an illegal move in game 1 (deal seed {seed}"
    )
    assert "(0, 0, 0, 1) is not one of its" in str(err)
    assert "不合法" in err.message("zh")


def test_an_illegal_pass_is_refused(classic: Profile, plugdir: Path) -> None:
    err = _fault(classic, "plugbots:Passer")
    assert err.reason is MatchFault.BOT_ILLEGAL_PASS and "it passed, but must play" in str(err)


def test_an_exception_in_choose_names_the_bot_and_the_exception(classic: Profile, plugdir: Path) -> None:
    err = _fault(classic, "plugbots:Raises")
    assert err.reason is MatchFault.BOT_RAISED
    assert str(err).startswith("bot plugbots:Raises raised ZeroDivisionError: bad maths in game 1")
    again = pickle.loads(pickle.dumps(err))  # as it crosses back from a worker
    assert again.reason is MatchFault.BOT_RAISED and again.message("zh") == err.message("zh")


def test_an_equal_move_of_the_bots_own_type_is_accepted(classic: Profile, plugdir: Path) -> None:
    results = run_match(classic, ["plugbots:Copies", "easy", "easy"], 2, seed=5)
    assert len(results) == 2


def test_built_in_bots_keep_the_unchecked_path(classic: Profile, monkeypatch: pytest.MonkeyPatch) -> None:
    import pdk.bots

    class Cheater:
        name = "cheater"

        def __init__(self, seed: int = 0) -> None:
            pass

        def choose(self, view: PlayerView) -> Move | None:
            raise RuntimeError("unchecked")

    monkeypatch.setitem(pdk.bots._REGISTRY, "cheater", Cheater)
    err = _fault(classic, "cheater")
    assert err.reason is MatchFault.GAME_FAILED  # the engine-fault path, not the plug-in checks


def test_summary_lines_show_a_plug_in_by_its_name(plugdir: Path) -> None:
    tally = Tally(["plugbots:Lowest", "plugbots:Nameless", "normal"], labels={"plugbots:Lowest": "lowest"})
    assert [line.bot for line in tally.seats] == ["lowest", "plugbots:Nameless", "normal"]
    assert tally.seats[0].to_json()["spec"] == "plugbots:Lowest"
    assert "spec" not in tally.seats[2].to_json()
    clash = Tally(["a.py:X", "b.py:X", "normal"], labels={"a.py:X": "x", "b.py:X": "x"})
    assert [line.bot for line in clash.seats][:2] == ["x (a.py:X)", "x (b.py:X)"]
    impostor = Tally(["a.py:X", "normal", "normal"], labels={"a.py:X": "normal"})
    assert impostor.seats[0].bot == "normal (a.py:X)"


def test_a_fresh_worker_process_rebuilds_the_bot_from_its_spec(classic: Profile) -> None:
    # "spawn" starts a new interpreter that has loaded nothing: only the spec string travels.
    tasks = make_tasks([GREEDY, "easy", "easy"], 2, seed=9)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1, initializer=_init_worker, initargs=(classic,)) as pool:
        results = pool.map(_run_task, tasks)
    assert [r.totals for r in results] == [play_game(classic, t).totals for t in tasks]


def test_the_example_bot_is_documented_and_small() -> None:
    text = EXAMPLE.read_text()
    assert "pdk selfplay --players examples/greedy_bot.py:GreedyBot" in text
    assert len(textwrap.dedent(text).splitlines()) < 80
