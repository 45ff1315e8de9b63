"""``pdk review`` (``pdk.analysis.review``): a deliberately bad play is marked ``??``, every
profile's records review, the annotated record replays with its marks."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from pdk.analysis.puzzles import choices, open_position, open_sim, solve
from pdk.analysis.review import Review, annotate, marks, review
from pdk.bots import make_bot
from pdk.bots.simple import RandomBot
from pdk.bots.valuation import same_play
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.engine.record import GameRecord
from pdk.engine.state import GameState
from pdk.records.disk import dump, parse
from pdk.variants.registry import available_profiles, load_profile
from tests.support import ROOT
from tests.support.cli import run_pdk

REPLAYS = ROOT / "replays"


@cache
def blundered_record() -> tuple[GameRecord, int, int]:
    """A game of normal bots in which, at the first position where exactly one play
    forces the win (open-handed, proven by the solver), the seat plays another one.
    Made once per process (the solver's proofs cost seconds): the record is frozen and
    every test reads it the same way."""
    profile = load_profile("classic16")
    seed = deal_seed(5, 33)
    state = GameState(profile, deal(profile, seed))
    bots = [make_bot("normal", bot_seed(seed, i)) for i in range(3)]
    blunder: tuple[int, int] | None = None
    while not state.over:
        if blunder is None and sum(state.sizes) <= 24 and state.history:
            got = solve(open_position(state))
            if got is not None:
                wrong = [m for m in choices(open_sim(open_position(state))) if not same_play(m, got[0])]
                blunder = (len(state.history) + 1, state.turn)
                state.step(wrong[0])
                continue
        state.step(bots[state.turn].choose(state.view(state.turn)))
    assert blunder is not None
    return GameRecord.of(state, seed, source="test"), blunder[0], blunder[1]


@cache
def blunder_reviewed() -> Review:
    """The blundering seat's review of ``blundered_record`` at the default budget, made
    once per process: two tests read it (the marks, and the replay screen showing them)."""
    record, _, seat = blundered_record()
    return review(record, seats={seat})


def test_a_deliberately_bad_play_is_marked_double_question() -> None:
    _, number, seat = blundered_record()
    rv = blunder_reviewed()
    bad = next(p for p in rv.plays if p.number == number)
    assert bad.mark == "??" and bad.loss.low > 0
    assert not same_play(bad.best, bad.played)
    assert number in rv.turning
    me = rv.seats[seat]
    assert me.blunders >= 1 and me.accuracy is not None and me.accuracy < 100
    assert all(p.seat == seat for p in rv.plays)


def test_review_json_and_the_annotated_record_in_replay(tmp_path: Path) -> None:
    record, number, seat = blundered_record()
    src = tmp_path / "game.json"
    dump(record, src)
    out = tmp_path / "reviewed.json"
    res = run_pdk("review", str(src), "--seat", str(seat), "--json", "--out", str(out))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    entry = next(p for p in data["plays"] if p["n"] == number)
    assert entry["mark"] == "??" and entry["loss"][1] > 0
    assert data["seats"][seat]["blunders"] >= 1
    shown = run_pdk("replay", str(out), "--print")
    assert shown.returncode == 0, shown.stderr
    assert "?? better:" in shown.stdout
    table = run_pdk("review", str(src), "--seat", str(seat), "--lang", "zh")
    assert "准确率" in table.stdout and "??" in table.stdout and "转折点" in table.stdout


@pytest.mark.parametrize("name", [p.name for p in available_profiles()])
def test_every_profile_reviews(name: str) -> None:
    profile = load_profile(name)
    state = GameState(profile, deal(profile, 3))
    bots = [RandomBot(i) for i in range(profile.players)]
    while not state.over:
        state.step(bots[state.turn].choose(state.view(state.turn)))
    record = GameRecord.of(state, 3)
    rv = review(record, seats={0}, budget=300)
    rated = [p for p in rv.plays if not p.forced]
    assert all(0 <= (p.accuracy or 0) <= 100 and p.loss.mean >= 0 for p in rated)
    assert rv.seats[0].decisions == len(rated)


@pytest.mark.parametrize("sample", sorted(REPLAYS.glob("*.json")), ids=lambda p: p.name)
def test_shipped_records_review_from_the_command_line(sample: Path) -> None:
    res = run_pdk("review", str(sample), "--seat", "0", "--budget", "400")
    assert res.returncode == 0, res.stderr
    assert "accuracy" in res.stdout or "no decisions" in res.stdout


def test_review_reads_a_selfplay_jsonl_game(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    assert run_pdk("selfplay", "-n", "2", "-p", "normal", "-w", "1", "-o", str(out)).returncode == 0
    res = run_pdk("review", str(out), "--game", "2", "--budget", "300", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["plays"]


def test_a_tampered_review_in_a_record_is_ignored() -> None:
    record, _, _ = blundered_record()
    bad_plays = [{"n": "1", "mark": "??"}, {"n": 99999, "mark": "??", "loss": [1]}]
    for junk in (5, [1, 2], {"plays": "x"}, {"plays": bad_plays}):
        assert marks(replace(record, meta={"review": junk})) == {}
    rv = review(record, seats={0}, budget=300)
    again = parse(json.dumps(annotate(record, rv).to_dict()))
    assert set(marks(again)) == {p.number for p in rv.plays if p.mark}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--seat", "3"), "--seat must be 0-2"),
        (("--seat", "1", "--all"), "exclusive"),
        (("--budget", "5"), "--budget must be"),
    ],
)
def test_review_bad_options_are_one_line(args: tuple[str, ...], needle: str) -> None:
    res = run_pdk("review", str(REPLAYS / "shut_out.json"), *args)
    assert res.returncode == 2 and needle in res.stderr, res.stderr


def test_the_replay_screen_shows_a_marked_play() -> None:
    from rich.console import Console

    from pdk.cli.replay_view import Frame, render_frame

    record, number, _ = blundered_record()
    annotated = annotate(record, blunder_reviewed())
    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(render_frame(annotated, list(annotated.states()), Frame("g", number, None), "en"))
    assert "Review: ?? better was" in console.export_text()


def test_a_marked_play_is_offered_again_and_the_new_play_judged(tmp_path: Path) -> None:
    # Issue 37: the review said what was wrong but offered no way to try again.
    from pdk.analysis.review import retries, retry

    record, number, seat = blundered_record()
    rv = review(record, seats={seat})
    marked = retries(rv)
    assert marked and all(p.mark and p.own for p in marked)
    p = next(q for q in marked if q.number == number)
    got = retry(record, number, p.best)
    assert got.better and got.gain.mean > 0 and same_play(got.best, p.best)
    assert retry(record, number, p.played).gain.mean == 0
    path = tmp_path / "deal.json"
    dump(record, path)
    offered = run_pdk("review", str(path), "--seat", str(seat))
    assert f"--retry {number} --play" in offered.stdout
    cards = "pass" if p.best is None else p.best.notation()
    again = run_pdk("review", str(path), "--retry", str(number), "--play", cards, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["better"] == got.better


def test_a_mark_is_confirmed_in_deals_the_best_was_not_chosen_in() -> None:
    # Issue 37: a classic15 decision (the agreement benchmark's, deal 7 of seed 37) where
    # following hint 1 (J) was a ?? of the review at seed 0: J 4.4 units below Q, interval
    # [0.6, 8.2] in 50 deals, the best being the best of seven means over the same deals.
    # At four times the budget J is 1.2 units below, interval [-0.8, 3.1]: no mark. The
    # review now measures a would-be mark again against that best alone in fresh deals.
    from pdk.analysis.review import TOP, mark_of, unit, verdict
    from pdk.bots.valuation import DEFAULT_BUDGET, Spot, analyse
    from pdk.match.run import GameTask, play_game

    profile = load_profile("classic15")
    res = play_game(profile, GameTask(7, 7, 0, deal_seed(37, 7), ("normal",) * 3, True))
    assert res.record is not None
    record = parse(res.record)
    view = list(record.states())[3].view(2)
    move = next(m for m in view.legal_moves() if m.notation() == "J")
    spot, u = Spot.of_view(view), unit(profile)
    a = analyse(spot, budget=DEFAULT_BUDGET, seed=0, top=TOP, include=(move,))
    assert mark_of(a.loss(move), u) == "??"  # the first analysis alone: the old review's mark
    assert mark_of(verdict(spot, a, move, u, budget=DEFAULT_BUDGET, seed=0), u) == ""
