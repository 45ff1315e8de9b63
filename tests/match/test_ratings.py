"""Elo, LOS and the SPRT of two-bot matches (``pdk.match.ratings``), by the formulas and on
bots of known difference through ``pdk selfplay``."""

from __future__ import annotations

import json
import math

import pytest

from pdk.match.ratings import Duel, SprtError, SprtSpec, elo_of, score_of
from tests.support.cli import run_pdk


def _duel(wins: int, draws: int, losses: int, sprt: SprtSpec | None = None) -> Duel:
    duel = Duel("a", "b", 1, sprt)
    for i, totals in enumerate([(2, -2)] * wins + [(0, 0)] * draws + [(-2, 2)] * losses):
        duel.add(i, ("a", "b"), totals)
    return duel


def test_elo_error_and_los_by_the_formulas() -> None:
    duel = _duel(60, 0, 40)
    elo, err = duel.elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.6 - 1))  # +70.4
    half = 1.959963984540054 * math.sqrt(0.24 / 100)
    assert err == pytest.approx((elo_of(0.6 + half) - elo_of(0.6 - half)) / 2)
    assert duel.los() == pytest.approx(0.5 * (1 + math.erf(20 / math.sqrt(200))))  # Φ(2)
    assert _duel(10, 80, 10).elo()[0] == pytest.approx(0.0)
    assert _duel(10, 0, 0).elo() == (None, None)  # every deal won: no finite Elo
    assert score_of(elo_of(0.3)) == pytest.approx(0.3)


def test_a_deal_is_one_sample_pooled_over_its_arrangements() -> None:
    duel = Duel("a", "b", 3)
    duel.add(0, ("a", "b", "b"), (10, -5, -5))
    duel.add(0, ("b", "a", "b"), (-5, -4, 9))
    assert duel.deals == 0  # the deal is not complete
    duel.add(0, ("b", "b", "a"), (2, 2, -4))
    # a: (10 - 4 - 4) / 3 > b: (-5 - 5 - 5 + 9 + 2 + 2) / 6
    assert (duel.wins, duel.draws, duel.losses) == (1, 0, 0)


def test_sprt_accepts_each_hypothesis_and_waits_when_unsure() -> None:
    spec = SprtSpec.parse("0,50")
    assert (spec.alpha, spec.beta) == (0.05, 0.05)
    assert spec.upper == pytest.approx(math.log(0.95 / 0.05))
    assert _duel(70, 0, 30, spec).verdict() == "H1"
    assert _duel(30, 0, 70, spec).verdict() == "H0"
    assert _duel(6, 0, 5, spec).verdict() is None
    assert _duel(9, 0, 0, spec).verdict() is None  # below the minimum number of deals


@pytest.mark.parametrize("text", ["50,0", "0", "0,10,0.6,0.05", "a,b", "0,nan", "0,1,2"])
def test_bad_sprt_values_are_refused(text: str) -> None:
    with pytest.raises(SprtError):
        SprtSpec.parse(text)


def _selfplay(*args: str) -> dict[str, object]:
    proc = run_pdk("selfplay", "--json", "--workers", "1", *args)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, object] = json.loads(proc.stdout)
    return data


def test_sprt_stops_a_match_of_bots_of_known_difference() -> None:
    # easy beats random by a wide margin: H1 (elo >= 50) long before 2,000 deals.
    data = _selfplay("-p", "easy,random,random", "-n", "2000", "--duplicate", "--sprt", "0,50")
    elo = data["elo"]
    assert isinstance(elo, dict) and elo["sprt"]["verdict"] == "H1"
    assert elo["bot"] == "easy" and elo["elo"] is not None and elo["elo"] > 50
    assert data["games"] < 200 and data["interrupted"] is False
    # Seen from the weaker side, the same test accepts H0 (elo <= 0).
    data = _selfplay("-p", "random,easy,easy", "-n", "2000", "--duplicate", "--sprt", "0,50")
    assert data["elo"]["sprt"]["verdict"] == "H0"  # type: ignore[index]
    # Two equal bots (random, and the same class loaded as a plug-in): H0, never H1.
    data = _selfplay(
        "-p", "random,pdk.bots.simple:RandomBot,random", "-n", "500", "--duplicate", "--sprt", "0,20"
    )
    assert data["elo"]["sprt"]["verdict"] == "H0"  # type: ignore[index]


def test_two_bot_summary_prints_elo_and_los() -> None:
    proc = run_pdk("selfplay", "-p", "easy,random,random", "-n", "40", "--duplicate", "--workers", "1")
    assert proc.returncode == 0
    assert "Elo easy vs random: +" in proc.stdout and "(95%), LOS " in proc.stdout


def test_sprt_needs_two_bots_and_duplicate() -> None:
    proc = run_pdk("selfplay", "-p", "easy,random,normal", "-n", "10", "--duplicate", "--sprt", "0,10")
    assert proc.returncode == 2 and "--sprt needs exactly two different bots" in proc.stderr
