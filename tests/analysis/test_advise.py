"""The analysis (``pdk.bots.valuation``), position texts and ``pdk advise``: positions with a
known answer are ranked right, numbers are reproducible, texts round-trip with ``pdk moves``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots.simple import RandomBot
from pdk.bots.valuation import Proof, Spot, analyse
from pdk.engine import position_text as P
from pdk.engine.cards import CardPlace, cards_of, format_cards, mask_of
from pdk.engine.deal import deal
from pdk.engine.position import resolve_cards
from pdk.engine.state import GameState
from pdk.variants.registry import available_profiles, load_profile
from tests.support import ROOT
from tests.support.cli import run_pdk

C16 = load_profile("classic16")
REPLAYS = ROOT / "replays"


def position(hands: list[str], turn: int, beat: str = "-") -> str:
    """A classic16 position text whose played cards are everything not in a hand or on
    the table (hands given as cards are shown; ``#N`` hides N of the rest)."""
    full = mask_of(C16.deck_cards)
    deck = full
    for h in hands:
        if not h.startswith("#"):
            deck &= ~mask_of(resolve_cards(h, full, CardPlace.DECK))
    if beat != "-":
        deck &= ~mask_of(resolve_cards(beat.split(":")[1], full, CardPlace.DECK))
    hidden = sum(int(h[1:]) for h in hands if h.startswith("#"))
    rest = cards_of(deck)
    played = rest[hidden:]  # the lowest unshown cards stay hidden
    return f"classic16 {turn} {'/'.join(hands)} {format_cards(played, suits=True) or '-'} {beat}"


def test_a_forced_win_is_proven_and_ranked_first() -> None:
    # Seat 2 holds 33 44 5 against one card and seven (from a bot game): nothing left out
    # beats 3344, so 3344 then 5 wins whatever they hold; every other lead loses a card.
    text = ("classic16 2 #7/#1/3s3h4s4h5d 3c3d4c4d5s5h5c6s6h6c7s7h8s8h8c9s9h9c9dThTdJsJcJdQsQhQcKsKhKcKdAh"
            "AcAd2s -")  # fmt: skip
    a = analyse(Spot.of_position(P.parse(text, C16)))
    assert a.exact
    best = a.best
    assert best.move is not None and best.move.notation() == "3344"
    assert best.proof is Proof.WIN and best.win.mean == 1.0
    assert all(p.proof is Proof.NO_WIN for p in a.plays[1:])


@pytest.mark.parametrize("hidden", [False, True])
def test_a_single_that_hands_the_next_player_the_deal_under_bao_dan_ranks_last(hidden: bool) -> None:
    # The 下家 holds one card (an ace): a single must be the highest (9) and it beats it
    # and goes out; either pair leads to a win.
    # Hidden, the five cards out are A 4 5 7 J: whoever holds the ace, or the J behind
    # it, beats the 9, and the one card left is the 下家's.
    text = position(["3s3h9s9h", "Ad", "4s5s7sJs"], 0)
    if hidden:
        text = text.replace("/Ad/4s5s7sJs", "/#1/#4")
    pos = P.parse(text, C16)
    a = analyse(Spot.of_position(pos), seed=3)
    assert a.plays[-1].move is not None and a.plays[-1].move.notation() == "9"
    assert a.best.move is not None and a.best.move.notation() in ("33", "99")
    loss = a.loss(a.plays[-1].move)
    assert loss.low > 0


def test_the_same_seed_gives_the_same_numbers_and_more_budget_narrower_intervals() -> None:
    state = GameState(C16, deal(C16, 11))
    bots = [RandomBot(i) for i in range(3)]
    for _ in range(6):
        state.step(bots[state.turn].choose(state.view(state.turn)))
    spot = Spot.of_view(state.view(state.turn))
    # Reproducibility does not need the default budget: a small one samples deals the same way.
    a, b = analyse(spot, seed=5, top=4, budget=2000), analyse(spot, seed=5, top=4, budget=2000)
    assert a == b
    small, big = analyse(spot, seed=5, top=4, budget=800), analyse(spot, seed=5, top=4, budget=8000)
    width = lambda an: sum(p.points.high - p.points.low for p in an.plays)  # noqa: E731
    assert big.deals > small.deals and width(big) < width(small)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_position_text_round_trips(seed: int, steps: int) -> None:
    state = GameState(C16, deal(C16, seed))
    bots = [RandomBot(seed + i) for i in range(3)]
    for _ in range(steps):
        if state.over:
            break
        state.step(bots[state.turn].choose(state.view(state.turn)))
    if state.over:
        return
    view = state.view(state.turn)
    text = P.of_view(view, tuple(state.bomb_bonuses)).format()
    again = P.parse(text, C16)
    assert again.format() == text
    assert sorted(again.view().legal_moves()) == sorted(view.legal_moves())
    assert again.unseen_counts() == Spot.of_view(view).unseen


def test_moves_accepts_a_position_and_agrees_with_hand_beat_next_holds() -> None:
    text = position(["#5", "#1", "3s3h4s9s9hKd"], 2, beat="1:8c")
    by_text = json.loads(run_pdk("moves", "--position", text, "--json").stdout)
    by_options = json.loads(run_pdk("moves", "--hand", "3s3h4s9s9hKd", "--beat", "8c", "--next-holds", "5",
                                    "--json").stdout)  # fmt: skip
    assert by_text["plays"] == by_options["plays"] and by_text["can_pass"] == by_options["can_pass"]
    assert by_text["position"] == P.parse(text, C16).format()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("classic16 0", "5 fields"),
        ("classic16 9 #16/#16/#16 - -", "seat to move"),
        ("classic16 0 #16/#16 - -", "2 hands given"),
        ("classic16 0 #x/#16/3 - -", "#N"),
        ("classic16 0 3s3s/#16/#16 - -", "position (0)"),
        ("classic16 0 33/#16/#16 - -", "cards are out"),
        ("nosuch 0 3/#1/#1 - -", "nosuch"),
        ("classic16 0 #16/#16/#16 - -", "show its cards"),
    ],
)
def test_a_bad_position_is_one_line_and_exit_2(text: str, needle: str) -> None:
    res = run_pdk("advise", text)
    assert res.returncode == 2
    assert needle in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_advise_from_a_record_and_a_move_number_as_json() -> None:
    res = run_pdk(
        "advise", str(REPLAYS / "bao_dan_endgame.json"), "--move", "3", "--json", "--budget", "2000"
    )
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["plays"] and data["deals"] >= 8
    first = data["plays"][0]
    assert first["points"][1] <= first["points"][0] <= first["points"][2]
    assert 0 <= first["win"][1] <= first["win"][0] <= first["win"][2] <= 1
    assert P.parse(data["position"], C16).format() == data["position"]
    # The table's words, not its numbers, are checked here: a small budget shows them as well.
    table = run_pdk("advise", data["position"], "--top", "3", "--lang", "zh", "--budget", "2000")
    assert table.returncode == 0 and "期望得分" in table.stdout


@pytest.mark.parametrize("name", [p.name for p in available_profiles()])
def test_position_texts_of_every_profile_round_trip_and_analyse(name: str) -> None:
    profile = load_profile(name)
    for seed in range(3):
        state = GameState(profile, deal(profile, seed))
        bots = [RandomBot(seed + i) for i in range(profile.players)]
        k = 0
        while not state.over:
            if k % 9 == 4:
                view = state.view(state.turn)
                text = P.of_view(view, tuple(state.bomb_bonuses)).format()
                again = P.parse(text, profile)
                assert again.format() == text
                assert sorted(again.view().legal_moves()) == sorted(view.legal_moves())
            state.step(bots[state.turn].choose(state.view(state.turn)))
            k += 1
    a = analyse(Spot.of_position(again), budget=300, top=3)
    assert a.plays and all(p.points.low <= p.points.mean <= p.points.high for p in a.plays)
