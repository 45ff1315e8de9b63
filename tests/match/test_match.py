"""The tournament harness: deal seeding, duplicate arrangements, statistics, workers."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine.deal import deal
from pdk.engine.profile import Profile
from pdk.engine.record import loads
from pdk.match.run import (
    GameResult,
    MatchError,
    arrangements,
    make_tasks,
    mean_ci,
    play_game,
    run_match,
    summarize,
    t_quantile_975,
)


def test_deal_seeds_depend_only_on_run_seed_and_index() -> None:
    short = [t.seed for t in make_tasks(["random"] * 3, 5, seed=11)]
    long = [t.seed for t in make_tasks(["random"] * 3, 50, seed=11)]
    assert short == long[:5]
    assert len(set(long)) == 50
    other = [t.seed for t in make_tasks(["random"] * 3, 5, seed=12)]
    assert not set(other) & set(long)
    assert all(0 <= s < 2**53 for s in long)  # exact in any JSON reader


@pytest.mark.parametrize(
    ("players", "count"),
    [(["easy", "easy", "easy"], 1), (["random", "easy", "easy"], 3), (["random", "easy", "normal"], 6)],
)
def test_duplicate_plays_every_distinct_arrangement(players: list[str], count: int) -> None:
    arr = arrangements(players, duplicate=True)
    assert len(arr) == count == len(set(arr))
    assert arr[0] == tuple(players)
    assert all(sorted(a) == sorted(players) for a in arr)
    assert arrangements(players, duplicate=False) == [tuple(players)]


def test_duplicate_tasks_share_each_deal() -> None:
    tasks = make_tasks(["random", "easy", "easy"], 4, seed=3, duplicate=True)
    assert len(tasks) == 12
    assert [t.index for t in tasks] == list(range(12))
    for d in range(4):
        group = [t for t in tasks if t.deal_index == d]
        assert len({t.seed for t in group}) == 1
        assert {t.bots for t in group} == set(arrangements(["random", "easy", "easy"], True))


def test_a_game_is_played_from_the_seeded_deal_and_settles_to_zero(classic: Profile) -> None:
    task = make_tasks(["random", "easy", "random"], 1, seed=5, keep_records=True)[0]
    res = play_game(classic, task)
    assert sum(res.totals) == 0
    assert res.totals[res.winner] > 0 or any(b for b in res.bombs)
    assert res.record is not None
    rec = loads(res.record)  # re-checks every play
    assert rec.deal == deal(classic, task.seed)
    assert rec.meta["bots"] == ["random", "easy", "random"]
    assert len(rec.actions) == res.turns
    assert sum(res.plays) == sum(1 for a in rec.actions if a.play is not None)


def test_results_identical_whatever_the_worker_count(classic: Profile) -> None:
    one = run_match(classic, ["random", "easy", "easy"], 12, seed=9, duplicate=True, workers=1)
    two = run_match(classic, ["random", "easy", "easy"], 12, seed=9, duplicate=True, workers=2)
    assert one == two
    assert [r.index for r in two] == list(range(36))


def test_summary_counts(classic: Profile) -> None:
    results = run_match(classic, ["random", "easy", "easy"], 10, seed=1, duplicate=True)
    s = summarize(["random", "easy", "easy"], results)
    assert (s.games, s.deals, s.arrangements) == (30, 10, 3)
    # Per-seat lines count the given arrangement only.
    assert all(line.deals == 10 for line in s.seats)
    assert sum(line.wins for line in s.seats) == 10
    pooled = {line.bot: line for line in s.bots}
    assert pooled["random"].deals == 30 and pooled["easy"].deals == 60
    assert pooled["random"].wins + pooled["easy"].wins == 30
    # Zero-sum: the pooled means, weighted by seats, cancel out.
    total = pooled["random"].score_mean * 1 + pooled["easy"].score_mean * 2
    assert total == pytest.approx(0, abs=1e-9)
    js = s.to_json()
    assert set(js) >= {"games", "players", "bots", "deals_per_s"}
    assert (js["games"], js["games_played"], js["arrangements"]) == (10, 30, 3)
    assert set(js["players"][0]) >= {"seat", "bot", "wins", "score_mean", "ci95"}
    assert set(js["bots"][0]) >= {"bot", "deals", "wins", "win_rate", "score_mean", "ci95"}


def test_pooled_samples_are_per_deal() -> None:
    """A bot in two seats contributes one sample per deal (their mean), not two."""

    def res(i: int, totals: tuple[int, ...]) -> GameResult:
        return GameResult(i, i, 0, i, ("a", "b", "b"), 0, totals, (0, 0, 0), (False,) * 3, (1, 1, 1), 3)

    s = summarize(["a", "b", "b"], [res(0, (4, -2, -2)), res(1, (-6, 10, -4))])
    b = next(line for line in s.bots if line.bot == "b")
    assert b.score_mean == pytest.approx(((-2 + -2) / 2 + (10 - 4) / 2) / 2)
    assert b.ci95 is not None


def test_t_quantiles_match_tables() -> None:
    for df, exact in [(1, 12.706), (5, 2.571), (6, 2.447), (10, 2.228), (30, 2.042), (120, 1.980)]:
        assert t_quantile_975(df) == pytest.approx(exact, abs=0.002)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-60, 60), min_size=2, max_size=40))
def test_mean_ci_is_centred_and_widens_with_spread(values: list[int]) -> None:
    mean, ci = mean_ci([float(v) for v in values])
    assert mean == pytest.approx(statistics.fmean(values))
    assert ci is not None
    lo, hi = ci
    assert lo <= mean <= hi
    half = t_quantile_975(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    assert hi - mean == pytest.approx(half, abs=1e-9)


def test_mean_ci_needs_two_samples() -> None:
    assert mean_ci([]) == (0.0, None)
    assert mean_ci([3.0]) == (3.0, None)


def test_tally_does_not_depend_on_arrival_order(classic: Profile) -> None:
    results = run_match(classic, ["random", "easy", "random"], 8, seed=2, duplicate=True)
    shuffled = list(results)
    random.Random(0).shuffle(shuffled)
    a = summarize(["random", "easy", "random"], results, duplicate=True).to_json()
    b = summarize(["random", "easy", "random"], shuffled, duplicate=True).to_json()
    assert a == b


def test_interrupted_deals_still_count(classic: Profile) -> None:
    """A deal whose arrangements were cut short still contributes its finished games."""
    results = run_match(classic, ["random", "easy", "easy"], 3, seed=2, duplicate=True)[:-1]
    s = summarize(["random", "easy", "easy"], results, duplicate=True, interrupted=True)
    assert (s.games, s.deals) == (8, 3)
    pooled = {line.bot: line for line in s.bots}
    assert pooled["random"].deals == 8 and pooled["random"].ci95 is not None


def test_a_faulty_bot_is_reported_with_the_game_and_seed(
    classic: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdk.bots

    class Broken:
        name = "broken"

        def __init__(self, seed: int = 0) -> None:
            pass

        def choose(self, view: object) -> None:
            raise RuntimeError("no idea")

    monkeypatch.setitem(pdk.bots._REGISTRY, "broken", Broken)
    task = make_tasks(["broken", "easy", "easy"], 1, seed=3)[0]
    with pytest.raises(MatchError, match=rf"game 1 \(deal seed {task.seed}, broken,easy,easy\).*no idea"):
        play_game(classic, task)
