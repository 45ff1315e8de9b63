"""Policy iteration with ``pdk train --continuation learned`` (issue 40): the advantage
targets are the gains of each choice when the start weights' policy plays every seat after
it; each round's weights name their parent (its file's hash), their round and their
continuation, and ``pdk train --info`` says so; a run resumes with its continuation; and
``--backend ray`` learns the same weights as the local run for the same seed."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from pdk.bots import make_bot
from pdk.bots import value_net as vn
from pdk.bots.learned import LearnedBot
from pdk.bots.normal import SURE, Judge
from pdk.bots.value_net import ValueNet, file_hash
from pdk.engine.deal import deal, derive_seed
from pdk.engine.state import GameState
from pdk.train.labels import Config, Labeller
from pdk.variants.registry import load_profile
from tests.bots.test_learned import random_net
from tests.support.cli import run_pdk

SHIPPED = vn.WEIGHTS_DIR / "classic16.npz"


@pytest.mark.parametrize("continuation", ["learned", "own"])
def test_learned_continuation_targets_are_gains_with_the_policy_playing_on(continuation: str) -> None:
    """The first labelled position's targets, recomputed on the real deal: each candidate
    played, then ``learned`` (the policy's network) at every seat to the end, or (``own``)
    at the chooser's seat with ``normal`` at the others."""
    profile = load_profile("classic16")
    policy = random_net("classic16", seed=7)
    config = Config.of(profile, "advantage", seed=4, continuation=continuation)
    labeller = Labeller(config, random_net("classic16", seed=8), policy, float(profile.hand_size))
    _, targets = labeller.play_advantage(0)
    state = GameState(profile, deal(profile, derive_seed(4, 0)))
    while True:  # the deal's first position with a choice the labelling rolls out
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        ranked = Judge(view).rank(moves, can_pass)
        if len(ranked) > 1 and ranked[0][0] < SURE:
            break
        state.step(ranked[0][1])
    bot = LearnedBot(net=policy)
    others = bot if continuation == "learned" else make_bot("normal")
    scores = []
    for _, cand in ranked[: config.candidates]:
        real = copy.deepcopy(state)
        real.step(cand)
        while not real.over:
            turn = real.turn
            real.step((bot if turn == view.seat else others).choose(real.view(turn)))
        scores.append(real.settlement().totals[view.seat])
    gains = [(s - scores[0]) / profile.hand_size for s in scores]
    assert targets[: len(gains)] == pytest.approx(gains)
    assert any(g != 0 for g in gains)
    other = "own" if continuation == "learned" else "learned"
    for name, net in (("normal", None), (other, policy)):  # each continuation labels otherwise
        again = Labeller(Config.of(profile, "advantage", seed=4, continuation=name), labeller.net, net,
                         labeller.scale)  # fmt: skip
        assert again.play_advantage(0)[1] != targets


def test_a_learned_continuation_is_refused_for_deep_monte_carlo() -> None:
    with pytest.raises(ValueError, match="advantage"):
        Config.of(load_profile("classic16"), "dmc", continuation="learned")
    with pytest.raises(ValueError, match="continuation"):
        Config.of(load_profile("classic16"), "advantage", continuation="hard")


def trained(start: Path, out: Path, **settings: object) -> ValueNet:
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from pdk.train.dmc import Trainer

    config = Config.of(load_profile("classic16"), "advantage", seed=6, games=2, games_per_round=2,
                       steps_per_round=1, batch=8, eval_deals=1, continuation="learned",
                       **settings)  # type: ignore[arg-type]  # fmt: skip
    trainer = Trainer(config, out)
    trainer.start_from(start)
    trainer.run()
    return ValueNet.load(out, "classic16")


def test_rounds_chain_name_their_parent_and_resume_with_their_continuation(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from pdk.train.dmc import Trainer

    second = trained(SHIPPED, tmp_path / "r2" / "w.npz")
    meta = second.meta
    assert (meta["round"], meta["continuation"]) == (2, "learned")
    assert meta["start"]["sha256"] == file_hash(SHIPPED) and meta["start"]["round"] == 1
    third = trained(tmp_path / "r2" / "w.npz", tmp_path / "r3" / "w.npz")
    assert third.meta["round"] == 3 and third.meta["start"]["sha256"] == file_hash(tmp_path / "r2" / "w.npz")
    said = run_pdk("train", "--info", str(tmp_path / "r3" / "w.npz"))
    assert said.returncode == 0, said.stderr
    assert "round 3 (learned continuation)" in said.stdout
    assert f"parent {file_hash(tmp_path / 'r2' / 'w.npz')}" in said.stdout
    # Resumed, the run's continuation is the second round's network again, from the checkpoint.
    config = Config.of(load_profile("classic16"), "advantage", seed=6, games=2, continuation="learned")
    again = Trainer(config, tmp_path / "r3" / "w.npz")
    assert again.resume() and again.round == 3 and again.policy is not None
    for (w, b), (w0, b0) in zip(again.policy.layers, second.layers, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    other = Trainer(Config.of(load_profile("classic16"), "advantage", seed=6), tmp_path / "r3" / "w.npz")
    with pytest.raises(ValueError, match="learned continuation"):
        other.resume()


def test_train_says_in_one_line_what_a_learned_continuation_needs(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    no_start = run_pdk("train", "--continuation", "learned", "--games", "2", "--out", str(tmp_path / "w.npz"))
    assert no_start.returncode == 2 and "--start" in no_start.stderr
    dmc = run_pdk("train", "--continuation", "learned", "--method", "dmc", "--out", str(tmp_path / "w.npz"))
    assert dmc.returncode == 2 and len(dmc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.slow
def test_the_ray_backend_learns_the_same_weights_as_the_local_run(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from pdk.train.dmc import Trainer
    from pdk.train.ray_labels import open_labels

    config = Config.of(load_profile("classic16"), "advantage", seed=9, games=2, games_per_round=2,
                       steps_per_round=1, batch=8, eval_deals=1, continuation="learned")  # fmt: skip
    here = Trainer(config, tmp_path / "local" / "w.npz")
    here.start_from(SHIPPED)
    here.run()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    try:
        there = Trainer(config, tmp_path / "ray" / "w.npz", open_labels("ray", workers=2))
        there.start_from(SHIPPED)
        there.run()
    finally:
        ray.shutdown()
    assert here.status.samples == there.status.samples > 0
    for (w, b), (w0, b0) in zip(here.net.layers, there.net.layers, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    assert not np.array_equal(here.net.layers[0][0], ValueNet.load(SHIPPED, "classic16").layers[0][0])
