"""``Playout``, the rank-count core: it must play and settle a deal exactly as
``GameState`` does wherever it claims to (``exact_for``), and say so nowhere else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine import counts as C
from pdk.engine.deal import Rng, deal
from pdk.engine.playout import Playout
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import available_profiles, load_profile
from tests.support.positions import with_knobs

EXACT = [p for p in available_profiles() if Playout.exact_for(p)]


def test_the_classic_profiles_are_exact() -> None:
    names = {p.name for p in EXACT}
    assert {"classic16", "classic15", "draw4", "two-player", "four-player"} <= names


@pytest.mark.parametrize(
    "knobs",
    [
        {"rules": {"bao_pei": True, "bao_dan_highest_single": False}},
        {"settlement": {"bomb_doubling": True}},
        {"settlement": {"bomb_bonus_when": "played"}},
        {"settlement": {"reverse_spring_multiplier": 2}},
    ],
    ids=["bao_pei", "bomb_doubling", "bombs_when_played", "reverse_spring"],
)
def test_rules_a_playout_cannot_follow_are_not_claimed(knobs: dict[str, dict[str, object]]) -> None:
    assert not Playout.exact_for(with_knobs("classic16", **knobs))


def test_last_one_and_placement_profiles_are_not_claimed() -> None:
    jokers = load_profile("jokers17")
    assert jokers.end == "last_one" and not Playout.has_its_transition(jokers)
    assert not Playout.exact_for(load_profile("two-deck"))  # straight flushes need suits


@pytest.mark.parametrize("profile", EXACT, ids=lambda p: p.name)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_a_playout_plays_and_settles_as_the_game_state(profile: Profile, seed: int) -> None:
    d = deal(profile, seed)
    state = GameState(profile, d)
    game = Playout.of_deal(profile, d)
    rng = Rng(seed)
    while not state.over:
        moves = game.moves()
        assert moves == state.legal_moves()
        assert game.can_pass(moves) == state.can_pass(moves)
        i = rng.below(len(moves) + game.can_pass(moves))
        move = moves[i] if i < len(moves) else None
        game.advance(move)
        state.step(move)
        assert (game.turn, game.prev, game.sizes) == (state.turn, state.prev, state.sizes)
    assert game.over and game.counts == [C.from_mask(h) for h in state.hands]
    assert game.settlement() == state.settlement()


def test_the_first_play_must_contain_the_lead_card_rank() -> None:
    profile = with_knobs("classic16", lead={"must_contain": True})
    d = deal(profile, 7)
    game = Playout.of_deal(profile, d)
    assert d.lead_card is not None
    need = C.ONE[(d.lead_card & 63) >> 2]
    first = game.moves()
    assert first and all(C.contains(m.counts, need) for m in first)
    game.advance(first[-1])
    game.advance(None)
    game.advance(None)
    assert game.prev is None and game.turn == d.leader
    assert any(not C.contains(m.counts, need) for m in game.moves())  # only the first play


def test_a_clone_is_independent() -> None:
    profile = load_profile("classic16")
    game = Playout.of_deal(profile, deal(profile, 3))
    copy = game.clone()
    game.advance(game.moves()[0])
    assert copy.counts != game.counts and copy.turn != game.turn and copy.prev is None


def test_settling_an_unfinished_playout_is_refused() -> None:
    profile = load_profile("classic16")
    with pytest.raises(ValueError, match="not over"):
        Playout.of_deal(profile, deal(profile, 1)).settlement()
