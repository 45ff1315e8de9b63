"""pdk as an OpenSpiel game (``pdk.openspiel``): OpenSpiel's own API checks, its ISMCTS bot
playing, the settlement as returns, and a committed playthrough per shipped profile that
must regenerate byte for byte (``PDK_UPDATE_PLAYTHROUGHS=1`` rewrites them after a
deliberate change)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'pdk[openspiel]')")

import numpy as np  # noqa: E402
from absl import flags  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import pdk.openspiel  # noqa: E402, F401 (registers python_pdk)
from pdk.engine.deal import deal, deal_seed  # noqa: E402
from pdk.engine.state import GameState  # noqa: E402
from pdk.openspiel.game import action_name, state_from_deal  # noqa: E402
from pdk.rl.env import raw_env  # noqa: E402
from pdk.variants.registry import available_profiles  # noqa: E402

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
PROFILES = sorted(p.name for p in available_profiles())
SEED = 39


def _load(variant: str = "classic16") -> pyspiel.Game:
    return pyspiel.load_game("python_pdk", {"variant": variant})


def _random_play(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_shipped_profile_has_a_committed_playthrough() -> None:
    assert sorted(p.stem.removeprefix("python_pdk_") for p in PLAYTHROUGHS.glob("*.txt")) == PROFILES


@pytest.mark.parametrize("variant", PROFILES)
def test_playthrough_regenerates_unchanged(variant: str) -> None:
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # replay reads the generator's --use_action_ids flag
    path = PLAYTHROUGHS / f"python_pdk_{variant}.txt"
    if os.environ.get("PDK_UPDATE_PLAYTHROUGHS") == "1":
        text = generate_playthrough.playthrough(f"python_pdk(variant={variant})", None, seed=SEED)
        path.write_text(text, encoding="utf-8")
    original, regenerated = generate_playthrough.replay(str(path))
    assert regenerated == original


@pytest.mark.parametrize("variant", ["classic16", "jokers17", "two-player", "four-player-004"])
def test_random_sim_test(variant: str) -> None:
    """OpenSpiel's own consistency checks (clone, serialise, observations, returns)."""
    pyspiel.random_sim_test(_load(variant), num_sims=3, serialize=True, verbose=False)


def test_returns_are_the_engines_settlement_of_the_same_deal() -> None:
    """A seeded pdk deal played in through the chance nodes: the same hands, the same
    leader, and (the same plays made) the same settlement as ``GameState`` gives."""
    game = _load()
    profile = game.rules.profile
    d = deal(profile, deal_seed(7, 0))
    state = state_from_deal(game, d.hands)
    ref = GameState(profile, d)
    assert state.state.hands == ref.hands and state.current_player() == ref.turn == d.leader
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        ref.step(None if action == 0 else next(m for m in ref.legal_moves() if state_name(game, m) == action))
    assert state.returns() == [float(t) for t in ref.settlement().totals]
    assert sum(state.returns()) == 0  # classic16 settles zero-sum


def state_name(game: pyspiel.Game, move: object) -> int:
    return game.rules.table.action_of(move)


def test_legal_actions_and_observation_match_the_environment() -> None:
    """The same deal in the PettingZoo environment and in OpenSpiel: the same legal ids
    and the default observation tensor equal to the environment's observation."""
    game = _load()
    env = raw_env("classic16")
    env.reset(seed=11)
    state = state_from_deal(game, env.state.deal.hands)
    observer = make_observation(game)
    rng = np.random.RandomState(2)
    while not state.is_terminal():
        seat = state.current_player()
        obs = env.observe(env.agent_selection)
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == state.legal_actions()
        observer.set_from(state, seat)
        assert observer.tensor.tolist() == obs["observation"].astype(np.float32).tolist()
        action = int(rng.choice(state.legal_actions()))
        env.step(action)
        state.apply_action(action)
    assert state.returns() == [env.rewards[a] for a in env.possible_agents]


def test_information_states_differ_between_players_and_hide_other_hands() -> None:
    game = _load()
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])
    strings = [state.information_state_string(p) for p in range(3)]
    assert len(set(strings)) == 3
    hand1 = str(state).splitlines()[1].split(": ")[1]
    assert hand1 not in strings[0] and hand1 in strings[1]


def test_serialisation_round_trips() -> None:
    game = _load("draw4")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    for _ in range(70):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


@pytest.mark.parametrize("variant", ["classic16", "draw4", "two-player", "hearts3"])
def test_resampled_states_keep_the_players_information_state(variant: str) -> None:
    game = _load(variant)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    seen_other = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        player = state.current_player()
        for _ in range(3):
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.legal_actions() == state.legal_actions()
            seen_other |= str(sample) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen_other  # the hidden hands were drawn anew, not copied


def test_ismcts_bot_plays_a_deal() -> None:
    game = _load()
    rng = np.random.RandomState(6)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            steps += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert steps > 0 and sum(state.returns()) == 0


def test_action_strings_name_one_id() -> None:
    game = _load("hearts3")
    table = game.rules.table
    names = [action_name(table, a) for a in range(table.size)]
    assert len(set(names)) == len(names)
    assert names[0] == "pass" and names[1] == "whole hand"


def test_bad_variant_is_one_line() -> None:
    with pytest.raises(Exception, match="bad variant 'nope'"):
        _load("nope")


def test_placement_profile_is_general_sum() -> None:
    game = _load("jokers17")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    _random_play(state, np.random.RandomState(7))
    assert game.min_utility() <= min(state.returns()) and max(state.returns()) <= game.max_utility()


def test_the_example_plays_openspiels_bot_against_pdks() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    cmd = [sys.executable, "examples/openspiel_vs_pdk.py", "--deals", "2", "--simulations", "3"]
    out = subprocess.run(
        [*cmd, "--opponents", "random,random"], capture_output=True, text=True, cwd=root, timeout=600
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "2 deals of classic16: OpenSpiel ismcts (3 simulations a move)"
    assert "over 2 seat-deals" in lines[1] and "over 4 seat-deals" in lines[2]
