"""The PettingZoo environment: PettingZoo's own API test on every shipped profile, deals
reproduced from ``reset(seed=…)``, an action for every legal play, zero-sum rewards."""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.cli import run_pdk

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test

import pdk
from pdk.engine import counts as C
from pdk.engine.deal import deal, deal_seed
from pdk.rl import env, raw_env
from pdk.rl.actions import PASS, WHOLE_HAND, action_table
from pdk.variants.registry import load_profile

SHIPPED = sorted(p.stem for p in (Path(pdk.__file__).parent / "variants").glob("*.yaml"))


def play_random(e: object, seed: int, rng: np.random.Generator) -> dict[str, float]:
    e.reset(seed=seed)  # type: ignore[attr-defined]
    total = dict.fromkeys(e.possible_agents, 0.0)  # type: ignore[attr-defined]
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        total[agent] += reward
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))  # type: ignore[attr-defined]
    return total


@pytest.mark.slow
@pytest.mark.parametrize("variant", SHIPPED)
def test_pettingzoo_api_test_passes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on Dict observations, as for its own card games
        api_test(env(variant=variant), num_cycles=300, verbose_progress=False)


def test_seeded_random_steps_are_pinned() -> None:
    # PettingZoo's masked sampling on seeded action spaces, over several deals: every
    # observation, mask and reward is hashed, and the digest was taken before the
    # environment was made faster, so a faster one is seen to give the very same episodes.
    e = env("classic16")
    e.reset(seed=11)
    for agent in e.possible_agents:
        e.action_space(agent).seed(11)
    digest = hashlib.sha256()
    steps = 0
    while steps < 1500:
        for name in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            digest.update(name.encode())
            digest.update(obs["observation"].tobytes())
            digest.update(np.flatnonzero(obs["action_mask"]).tobytes())
            digest.update(repr((reward, term, trunc)).encode())
            if term or trunc:
                e.step(None)
                continue
            e.step(int(e.action_space(name).sample(obs["action_mask"])))
            steps += 1
        e.reset()
    assert digest.hexdigest()[:16] == "28f5a55d1840668c"


def test_reset_with_a_seed_deals_selfplays_deal_and_repeats() -> None:
    profile = load_profile("classic16")
    a, b = raw_env("classic16"), raw_env("classic16")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.state is not None and b.state is not None
    assert a.state.hands == b.state.hands == list(deal(profile, deal_seed(5, 0)).hands)
    for agent in a.possible_agents:
        assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    a.reset()  # the run's next deal
    assert a.state.hands == list(deal(profile, deal_seed(5, 1)).hands)


@pytest.mark.parametrize("variant", ["classic16", "jokers17", "hearts3", "two-deck"])
def test_rewards_are_the_settlement(variant: str) -> None:
    e = raw_env(variant)
    rng = np.random.default_rng(1)
    for seed in range(5):
        total = play_random(e, seed, rng)
        assert e.state is not None and e.state.done
        assert [total[a] for a in e.possible_agents] == [float(t) for t in e.state.settlement().totals]
        if e.profile.settlement.scheme == "cards_left":  # placement points need not sum to zero
            assert sum(total.values()) == 0


@pytest.mark.parametrize("variant", ["classic16", "jokers17", "hearts3", "two-deck", "four-player"])
def test_every_legal_play_is_an_action_and_the_mask_says_exactly_which(variant: str) -> None:
    e = raw_env(variant)
    table = action_table(e.profile)
    rng = np.random.default_rng(2)
    for seed in range(8):
        e.reset(seed=seed)
        while e.state is not None and not e.state.done:
            state = e.state
            moves = state.legal_moves()
            mask = e.observe(e.agent_selection)["action_mask"]
            wanted = {table.action_of(m) for m in moves} | ({PASS} if state.can_pass(moves) else set())
            assert set(np.flatnonzero(mask)) == wanted
            for m in moves:  # only a whole hand may fall outside the table
                assert table.action_of(m) != WHOLE_HAND or m.counts == state.counts[state.turn]
            e.step(int(rng.choice(sorted(wanted))))


def test_the_observation_is_the_documented_fixed_shape() -> None:
    e = raw_env("classic16")
    e.reset(seed=3)
    obs = e.observe("player_0")["observation"]
    n, ranks = 3, 15
    assert obs.shape == e.observation_space("player_0")["observation"].shape
    assert obs.shape == (ranks * (1 + n) + n + ranks + 12 + n,)
    assert e.state is not None
    assert list(obs[:ranks]) == [C.count(e.state.counts[0], r) for r in range(ranks)]
    assert list(obs[ranks * (1 + n) : ranks * (1 + n) + n]) == [16, 16, 16]
    assert action_table(e.profile).size == e.action_space("player_0").n


def test_an_illegal_action_and_a_bad_profile_are_clear_exceptions() -> None:
    e = raw_env("classic16")
    e.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        e.step(PASS)  # the leader may not pass
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    wrapped = env("classic16")  # without a bounds wrapper: the environment's own check refuses
    wrapped.reset(seed=0)
    for bad in (float(legal), str(legal), None, -1, 10**9, wrapped.action_space("player_0").n):
        with pytest.raises(ValueError, match="not legal"):
            e.step(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not legal"):
            wrapped.step(bad)
    e.step(np.int64(legal))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bad variant 'no-such-game'"):
        env(variant="no-such-game")


def test_a_policy_plays_in_selfplay_as_a_plug_in_bot() -> None:
    spec = str(ROOT / "examples" / "policy_bot.py") + ":Bot"
    proc = run_pdk("selfplay", "-p", f"{spec},random,random", "-n", "4", "-w", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["bot"] == "policy"
