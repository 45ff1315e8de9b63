"""The shortest end-to-end check: a seeded random game runs to a zero-sum settlement."""

from pdk.bots import make_bot
from pdk.engine.deal import deal
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def test_random_game_settles_to_zero() -> None:
    profile = load_profile()
    state = GameState(profile, deal(profile, 7))
    bots = [make_bot("random", seed) for seed in range(3)]
    while not state.over:
        state.step(bots[state.turn].choose(state.view(state.turn)))
    assert sum(state.settlement().totals) == 0
