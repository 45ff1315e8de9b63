"""Bots only ever return legal plays, in every profile the engine ships.

Positions come from random games (random bots, seeded deals) so they cover leads, follows,
must-beat, 报单 and short last hands as they occur in play. Every bot's choice is judged by
``rules.check``, the one path that decides legality.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots import bot_names, make_bot
from pdk.bots.hints import MAX_HINTS, hints
from pdk.engine import counts as C
from pdk.engine.deal import Rng, deal
from pdk.engine.position import check
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import available_profiles

PROFILES = available_profiles()
FAST_BOTS = ["random", "easy", "normal"]


def random_position(profile: Profile, seed: int, steps: int) -> GameState:
    """A deal played ``steps`` random turns in (stopping before the end)."""
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed ^ 0x5EED)
    for _ in range(steps):
        moves = state.legal_moves()
        choices = len(moves) + state.can_pass(moves)
        i = rng.below(choices)
        nxt = state.clone()
        nxt.step(moves[i] if i < len(moves) else None)
        if nxt.over:
            break
        state = nxt
    return state


def assert_legal(state: GameState, move: object) -> None:
    pos = state.position()
    if move is None:
        check(pos, None)  # raises when passing is not allowed
        return
    assert move in pos.legal_moves()
    play = pos.play_for(move)  # type: ignore[arg-type]
    assert check(pos, play.cards) is not None


def test_every_level_is_registered() -> None:
    assert {"random", "easy", "normal", "hard"} <= set(bot_names())


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_fast_bots_play_legally(profile: Profile, seed: int, steps: int) -> None:
    state = random_position(profile, seed, steps)
    view = state.view(state.turn)
    for name in FAST_BOTS:
        assert_legal(state, make_bot(name, seed).choose(view))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_hints_are_legal_distinct_and_few(profile: Profile, seed: int, steps: int) -> None:
    # Issue 37: at most five, no two of one body (kicker variants), every shape offered
    # while there is room (the old list was every legal play: 提示 1/144 when leading).
    state = random_position(profile, seed, steps)
    got = hints(state.view(state.turn))
    legal = state.position().legal_moves()
    assert set(got) <= set(legal) and len(got) <= MAX_HINTS
    assert bool(got) == bool(legal)
    bodies = [(m.kind, C.total(m.counts), m.top) for m in got]
    assert len(set(bodies)) == len(bodies)
    shapes = {(m.kind, C.total(m.counts)) for m in legal}
    assert len(got) == min(MAX_HINTS, len({(m.kind, C.total(m.counts), m.top) for m in legal}))
    if len(shapes) <= MAX_HINTS:
        assert shapes == {(m.kind, C.total(m.counts)) for m in got}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_whole_games_between_levels_stay_legal(profile: Profile) -> None:
    for seed in range(3):
        state = GameState(profile, deal(profile, seed))
        bots = [make_bot(name, seed) for name in ("normal", "easy", "random", "normal")]
        while not state.over:
            seat = state.turn
            move = bots[seat].choose(state.view(seat))
            assert_legal(state, move)
            state.step(move)
