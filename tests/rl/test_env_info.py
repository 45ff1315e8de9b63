"""The environment's legal ids and bool mask in ``info`` (issue 39): the same actions as
the observation's int8 mask, only for the agent to act, and the documented agent's loop."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install 'pdk[rl]')")

from pdk.rl import env, raw_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", ["classic16", "jokers17", "four-player-004"])
def test_info_holds_the_legal_ids_and_a_bool_mask_equal_to_the_observations(variant: str) -> None:
    e = env(variant)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    turns = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            assert "legal_actions" not in info
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and info["action_mask"].dtype == np.bool_
        assert (
            info["legal_actions"]
            == np.flatnonzero(mask).tolist()
            == np.flatnonzero(info["action_mask"]).tolist()
        )
        assert info["legal_actions"] == sorted(info["legal_actions"])
        for other in e.agents:
            if other != agent:
                assert "legal_actions" not in e.infos[other]
                assert not e.observe(other)["action_mask"].any()
        e.step(info["legal_actions"][rng.integers(len(info["legal_actions"]))])
        turns += 1
    assert turns > 10


def test_the_masks_cannot_be_written_to() -> None:
    e = raw_env("classic16")
    e.reset(seed=1)
    with pytest.raises(ValueError):
        e.infos[e.agent_selection]["action_mask"][0] = True


def test_the_documented_agent_runs_and_reports_steps_per_second() -> None:
    out = subprocess.run(
        [sys.executable, "examples/rl_random_agent.py", "--deals", "5", "--seed", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("5 deals of classic16, action space 51429")
    assert lines[-1].endswith("steps/s")
    means = [float(line.split("mean reward ")[1]) for line in lines[1:-1]]
    assert len(means) == 3 and abs(sum(means)) < 1e-9  # cards-left settlement is zero-sum
