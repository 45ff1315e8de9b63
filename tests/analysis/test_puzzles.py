"""残局 puzzles: the shipped set is re-proved by the hard bot's solver (a sample each run;
``benchmarks/bench_review.py puzzles`` re-proves all), and ``pdk puzzles`` judges answers."""

from __future__ import annotations

import hashlib
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from pdk.analysis.puzzles import Puzzle, Standing, choices, load, open_sim, prove
from pdk.bots.valuation import same_play
from pdk.variants.registry import load_profile
from tests.support.cli import run_pdk

SHIPPED = load()
# A different sample each run (the seed is in the test id when one fails). Under pytest -n
# every worker collects the module and all must draw the same sample: they share the run's
# id, so the seed is derived from it.
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")
if _RUN:
    SAMPLE_SEED = int(hashlib.sha256(_RUN.encode()).hexdigest(), 16) % (1 << 30)
else:
    SAMPLE_SEED = random.SystemRandom().randrange(1 << 30)
SAMPLE = random.Random(SAMPLE_SEED).sample(SHIPPED, 8)


def test_the_shipped_set_has_at_least_200_puzzles_at_every_level() -> None:
    assert len(SHIPPED) >= 200
    assert len({p.position for p in SHIPPED}) == len(SHIPPED)
    levels = Counter(p.level for p in SHIPPED)
    assert set(levels) == {1, 2, 3, 4}, levels


@pytest.mark.parametrize("puzzle", SAMPLE, ids=lambda p: f"id{p.id}-seed{SAMPLE_SEED}")
def test_a_shipped_puzzle_is_reproved_by_the_solver(puzzle: Puzzle) -> None:
    assert prove(puzzle)


def test_a_puzzle_with_a_second_winning_play_is_not_proved() -> None:
    p = SHIPPED[0]
    sim = open_sim(p.table())
    wrong = next(m for m in choices(sim) if not p.is_answer(m))
    fake = Puzzle(p.id, p.position, None if wrong is None else wrong.notation(),
                  "pass" if wrong is None else wrong.kind.label, p.plays)  # fmt: skip
    assert not prove(fake)


def _wrong_answer(p: Puzzle) -> str:
    sim = open_sim(p.table())
    for m in choices(sim):
        if not p.is_answer(m):
            return "pass" if m is None else m.notation()
    raise AssertionError("a puzzle has a wrong answer")


def test_the_right_answer_wins_and_a_wrong_one_is_refuted() -> None:
    p = next(q for q in SHIPPED if q.answer is not None and q.level >= 2)
    right = run_pdk("puzzles", "--id", str(p.id), "--answer", p.answer or "pass")
    assert right.returncode == 0, right.stderr
    assert "Right" in right.stdout
    wrong = run_pdk("puzzles", "--id", str(p.id), "--answer", _wrong_answer(p))
    assert wrong.returncode == 1
    assert "the others can stop you" in wrong.stdout and "The answer" in wrong.stdout
    zh = run_pdk("puzzles", "--id", str(p.id), "--answer", "q", "--lang", "zh")
    assert zh.returncode == 0 and "答案" in zh.stdout


def test_an_illegal_answer_is_one_line() -> None:
    p = SHIPPED[0]
    res = run_pdk("puzzles", "--id", str(p.id), "--answer", "RRRR")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1


def test_the_puzzle_is_asked_for_on_stdin() -> None:
    p = SHIPPED[0]
    res = run_pdk("puzzles", "--id", str(p.id), stdin=(p.answer or "pass") + "\n")
    assert res.returncode == 0 and "Right" in res.stdout


def test_make_mines_puzzles_that_reprove(tmp_path: Path) -> None:
    out = tmp_path / "mined.json"
    res = run_pdk("puzzles", "make", "--games", "12", "--seed", "4", "--out", str(out))
    assert res.returncode == 0, res.stderr
    mined = load(out)
    assert mined and all(prove(p) for p in mined)
    again = run_pdk("puzzles", "check", "--file", str(out))
    assert again.returncode == 0 and f"{len(mined)} puzzles" in again.stdout


def test_a_bad_puzzle_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    res = run_pdk("puzzles", "--file", str(bad))
    assert res.returncode == 2 and "not a puzzle file" in res.stderr


def test_the_solution_line_ends_with_the_seat_out() -> None:
    from pdk.analysis.puzzles import line

    p = SAMPLE[0]
    pos = p.table()
    answer = next(m for m in choices(open_sim(pos)) if p.is_answer(m))
    moves = line(pos, answer)
    sim = open_sim(pos)
    for _, m in moves:
        sim.advance(m)
    assert sim.sizes[pos.turn] == 0 and same_play(moves[0][1], answer)


# From a bot game: seat 0 leads with 7 TTT J 2; seat 2 has not played. Only the 2 first
# (nobody can beat it) lets seat 0 go out before seat 2 plays a card: a 全关.
SWEEP = ("classic16 0 7cTsTcTdJh2s/3d4s4h5h7h8h9h9c9dJcJdQsQhQdKcAh/4c6h6c6d8cKd "
         "3s3h3c4d5s5c5d6s7s7d8s8d9sThJsQcKsKhAcAd -")  # fmt: skip


def test_a_shut_out_puzzle_is_solved_and_reproved() -> None:
    from pdk.analysis.puzzles import solve
    from pdk.engine.position_text import parse
    from pdk.variants.registry import load_profile

    got = solve(parse(SWEEP, load_profile("classic16")), goal="sweep")
    assert got is not None
    move, plays = got
    assert move is not None and move.notation() == "2" and plays == 2
    right = Puzzle(1, SWEEP, "2", "single", 2, "sweep")
    assert prove(right)
    assert not prove(Puzzle(1, SWEEP, "7", "single", 2, "sweep"))
    assert not prove(Puzzle(1, SWEEP, "2", "single", 2, "win"))  # going out first alone: more than one way


def test_a_puzzle_names_the_seats_as_the_table_does() -> None:
    # Issue 37: "座位 0/1/2" told nobody who plays after whom; the raw position string
    # was printed whatever was asked.
    p = next(q for q in SHIPPED if q.answer is not None)
    zh = run_pdk("puzzles", "--id", str(p.id), "--answer", "q", "--lang", "zh")
    assert zh.returncode == 0 and "座位" not in zh.stdout
    assert "你" in zh.stdout and "下家" in zh.stdout and "上家" in zh.stdout
    assert p.position not in zh.stdout
    asked = run_pdk("puzzles", "--id", str(p.id), "--answer", "q", "--position")
    assert p.position in asked.stdout


def test_a_short_last_hand_is_named_by_what_it_holds() -> None:
    # Issue 37: the solution 333 + 4, a last hand, was named 三带二.
    from pdk.cli.advise import play_said
    from tests.support.positions import Judge

    moves = Judge(load_profile("classic16")).pos("3334").legal_moves()
    move = next(m for m in moves if len(m.notation()) == 4)
    assert "三带二" not in play_said(move, "zh") and "三带一" in play_said(move, "zh")
    assert "trio with two" not in play_said(move, "en")


def test_puzzles_can_be_picked_by_theme() -> None:
    from pdk.analysis.puzzles import THEMES, themes

    for theme in ("bao_dan", "only_single", "sweep"):
        pool = [p for p in SHIPPED if theme in themes(p)]
        assert pool, theme
        res = run_pdk("puzzles", "--theme", theme, "--seed", "1", "--answer", "q")
        assert res.returncode == 0, res.stderr
        assert any(f"题 {p.id} " in res.stdout or f"puzzle {p.id} " in res.stdout for p in pool)
    assert set(THEMES) == {"sweep", "bao_dan", "last_bomb", "only_single"}
    assert run_pdk("puzzles", "--theme", "nonsense", "--answer", "q").returncode == 2


def test_the_puzzle_rating_is_an_elo_step_against_the_level() -> None:
    from pdk.analysis.puzzles import START_RATING, Standing, level_rating

    fresh = Standing()
    assert fresh.rating == START_RATING == level_rating(2)
    even = fresh.after(2, True)  # an even match: half the step, K/2
    assert even.rating == pytest.approx(START_RATING + 16) and (even.streak, even.best) == (1, 1)
    # Solving an easy puzzle earns less than solving an expert one; failing costs more.
    assert fresh.after(1, True).rating - START_RATING < fresh.after(4, True).rating - START_RATING
    assert fresh.after(1, False).rating < fresh.after(4, False).rating
    run = even.after(3, True).after(1, False).after(2, True)
    assert (run.streak, run.best, run.solved, run.tried) == (1, 2, 3, 4)


def test_the_puzzle_rating_and_streak_are_kept_across_runs(tmp_path: Path) -> None:
    p = next(q for q in SHIPPED if q.answer is not None and q.level >= 2)
    other = next(q for q in SHIPPED if q.answer is not None and q.id != p.id)
    right = run_pdk("puzzles", "--id", str(p.id), "--answer", p.answer or "pass", data_dir=tmp_path)
    assert right.returncode == 0, right.stderr
    header, after = [ln for ln in right.stdout.splitlines() if ln.startswith("Puzzle rating")]
    assert header.startswith("Puzzle rating 1200 · streak 0") and "streak 1 (best 1)" in after
    gained = round(Standing().after(p.level, True).rating)
    assert f"Puzzle rating {gained} " in after and f"(+{gained - 1200})" in after
    again = run_pdk("puzzles", "--id", str(p.id), "--answer", _wrong_answer(p), data_dir=tmp_path)
    assert f"rating {gained} · streak 1 (best 1) · solved 1/1 (answered before" in again.stdout
    wrong = run_pdk("puzzles", "--id", str(other.id), "--answer", "q", "--lang", "zh", data_dir=tmp_path)
    assert "连对 0（最多 1）· 解出 1/2" in wrong.stdout
    from pdk.table.history import History

    kept = History(tmp_path / "history.sqlite3").puzzle_standing()
    assert (kept.streak, kept.best, kept.tried) == (0, 1, 2)
    assert kept == Standing().after(p.level, True).after(other.level, False)
    assert History(tmp_path / "history.sqlite3").puzzle_standing("someone") == Standing()
