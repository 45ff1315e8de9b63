"""The learned value without the training library (issue 27): features read a view only and
have one size on every profile; a weights file round-trips and names its run; a file for
another profile or feature version, or not a weights file at all, is refused with one
line; the ``learned`` bot plays legally and reproducibly; and ``pdk train`` (when PyTorch is
installed) trains, writes weights the bot can play with, resumes, and refuses a two-player
profile."""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pdk.bots import make_bot, register_plugin
from pdk.bots import value_net as vn
from pdk.bots.features import SIZE, VERSION, Encoder
from pdk.bots.hard import HardBot
from pdk.bots.learned import LearnedBot
from pdk.bots.normal import Judge
from pdk.bots.value_net import FORMAT, ValueNet, WeightsError
from pdk.engine import counts as C
from pdk.engine.deal import deal, derive_seed
from pdk.engine.state import GameState
from pdk.match.run import run_match
from pdk.variants.registry import load_profile
from tests.bots.test_bots import assert_legal
from tests.support.cli import needs_binary, pdk_env, run_pdk, run_pdk_binary


def random_net(profile: str, seed: int = 0, version: int = VERSION) -> ValueNet:
    rng = np.random.default_rng(seed)
    sizes = [SIZE, 32, 1]
    layers = [
        (rng.normal(0, 0.3, (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    meta = {"format": FORMAT, "version": version, "profile": profile, "seed": seed, "games": 0,
            "commit": "test", "scale": 16.0}  # fmt: skip
    return ValueNet(layers, meta)


@pytest.mark.parametrize("variant", ["classic16", "four-player", "jokers17", "two-deck"])
def test_features_have_one_size_and_read_the_view(variant: str) -> None:
    profile = load_profile(variant)
    state = GameState(profile, deal(profile, derive_seed(2, 0)))
    for _ in range(12):
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        order = [m for _, m in Judge(view).rank(moves, can_pass)]
        choices = [*moves, None] if can_pass else list(moves)
        x = Encoder(view).encode(choices, order)
        assert x.shape == (len(choices), SIZE)
        assert np.isfinite(x).all()
        if moves:
            state.step(order[0])
        else:
            state.step(None)


def test_weights_round_trip_and_refusals(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    net = random_net("classic16")
    net.save(path)
    back = ValueNet.load(path, "classic16")
    x = np.ones((3, SIZE), dtype=np.float32)
    assert np.allclose(back(x), net(x))
    assert back.meta["seed"] == 0 and back.meta["commit"] == "test"
    with pytest.raises(WeightsError) as wrong:
        ValueNet.load(path, "jokers17")
    assert "classic16" in str(wrong.value) and "\n" not in str(wrong.value)
    random_net("classic16", version=VERSION + 1).save(path)
    with pytest.raises(WeightsError, match="version"):
        ValueNet.load(path, "classic16")
    path.write_bytes(b"not a weights file")
    with pytest.raises(WeightsError, match="not a pdk weights file"):
        ValueNet.load(path, "classic16")


def test_no_weights_for_a_profile_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PDK_WEIGHTS", raising=False)
    monkeypatch.setattr(vn, "WEIGHTS_DIR", tmp_path)
    with pytest.raises(WeightsError, match="no learned weights ship for classic15"):
        vn.shipped("classic15")


def test_selfplay_without_weights_for_the_profile_is_one_line_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "records"
    r = run_pdk(
        "selfplay",
        "-p",
        "learned,normal,normal",
        "--variant",
        "classic15",
        "--games",
        "2",
        "--out",
        str(out),
        "--lang",
        "zh",
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    said = WeightsError(vn.WeightsFault.NONE, profile="classic15").message("zh")
    assert lines == [f"pdk: error: {said}"], r.stderr  # the weights' own words, not a failed game's
    assert not out.exists() or not any(out.iterdir())  # no game was started


@pytest.mark.parametrize("variant", ["classic16", "four-player", "jokers17"])
def test_learned_plays_legally_and_reproducibly(variant: str) -> None:
    net = random_net(variant, seed=4)
    register_plugin("test-learned:bot", lambda seed: LearnedBot(seed, net=net))
    profile = load_profile(variant)
    players = ["test-learned:bot"] + ["normal"] * (profile.players - 1)
    a = run_match(profile, players, 2, seed=5, duplicate=True)
    b = run_match(profile, players, 2, seed=5, duplicate=True)
    assert [r.totals for r in a] == [r.totals for r in b]
    state = GameState(profile, deal(profile, derive_seed(6, 0)))
    bot = LearnedBot(net=net)
    while not state.over:
        view = state.view(state.turn)
        move = bot.choose(view)
        assert_legal(view, move)
        state.step(move)


def test_among_keeps_to_normals_first_choices() -> None:
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, derive_seed(8, 0)))
    net = random_net("classic16", seed=9)
    checked = 0
    while not state.over:
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        out = any(m.counts == C.from_mask(view.hand) for m in moves)
        if len(moves) + can_pass > 1 and not out:
            order = [m for _, m in Judge(view).rank(moves, can_pass)]
            assert LearnedBot(net=net, among=1).choose(view) == order[0]
            assert LearnedBot(net=net, among=2).choose(view) in order[:2]
            checked += 1
        state.step(LearnedBot(net=net).choose(view))
    assert checked > 5


def test_the_weights_name_the_pool_the_learned_bot_chooses_from() -> None:
    """Weights trained on normal's first few choices (``meta["among"]``) choose among those."""
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, derive_seed(8, 1)))
    net = random_net("classic16", seed=9)
    net.meta["among"] = 1
    free = random_net("classic16", seed=9)
    differs = 0
    while not state.over:
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if not moves:
            state.step(None)
            continue
        first = Judge(view).rank(moves, can_pass)[0][1]
        if len(moves) + can_pass > 1:
            assert LearnedBot(net=net).choose(view) == first
            differs += LearnedBot(net=free).choose(view) != first
        state.step(first)
    assert differs > 0  # the same network without the pool does choose otherwise


def test_advantage_targets_are_gains_over_normals_first_choice(tmp_path: Path) -> None:
    """Every labelled position's first row is normal's first choice, with no gain over itself;
    the others' gains are rolled out on the true deal, so the same deal gives the same labels."""
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from pdk.train.dmc import Config, Trainer

    profile = load_profile("classic16")
    first_at = SIZE - 3  # the features' last block: normal's first, among its first three, place

    def labels(run: str) -> tuple[list[np.ndarray], list[float]]:
        trainer = Trainer(Config.of(profile, "advantage", seed=4), tmp_path / run / "w.npz")
        return trainer.play_advantage(2)

    rows, gains = labels("a")
    again_rows, again = labels("b")
    assert gains == again and all((x == y).all() for x, y in zip(rows, again_rows, strict=True))
    firsts = [g for x, g in zip(rows, gains, strict=True) if x[first_at] == 1.0]
    assert firsts and all(g == 0.0 for g in firsts)
    assert any(g != 0.0 for g in gains)


def test_learned_is_a_level() -> None:
    assert isinstance(make_bot("learned"), LearnedBot)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``pdk`` in its own process on one thread (PyTorch would otherwise take every core)."""
    return run_pdk_binary(*args, env=pdk_env(OMP_NUM_THREADS="1", **(env or {})), timeout=600)


@needs_binary
def test_train_refuses_two_players(tmp_path: Path) -> None:
    proc = run("train", "--variant", "two-player", "--games", "2", "--out", str(tmp_path / "w.npz"))
    assert proc.returncode != 0
    assert "three or more players" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@needs_binary
@pytest.mark.parametrize("option", ["--hours", "--eval-minutes", "--eval-deals", "--lr", "--games"])
def test_train_refuses_a_number_not_above_zero_in_one_line(tmp_path: Path, option: str) -> None:
    proc = run("train", option, "0", "--out", str(tmp_path / "w.npz"))
    assert proc.returncode != 0 and f"{option} must be above zero" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not (tmp_path / "w.npz").exists()


@needs_binary
@pytest.mark.parametrize("value", ["1", "-0.5", "nan"])
def test_train_refuses_an_average_outside_zero_to_one(tmp_path: Path, value: str) -> None:
    proc = run("train", "--average", value, "--out", str(tmp_path / "w.npz"))
    assert proc.returncode != 0 and "--average must be at least 0 and below 1" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@needs_binary
def test_train_writes_weights_that_play_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    out = tmp_path / "w.npz"
    proc = run("train", "--variant", "classic16", "--games", "16", "--eval-deals", "2", "--seed", "3",
               "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    meta = ValueNet.load(out, "classic16").meta
    assert meta["games"] == 16 and meta["seed"] == 3 and meta["profile"] == "classic16"
    curve = [json.loads(line) for line in out.with_name("w.curve.jsonl").read_text().splitlines()]
    assert curve[-1]["games"] == 16 and curve[-1]["deals"] == 2
    again = run("train", "--variant", "classic16", "--games", "24", "--eval-deals", "2", "--seed", "3",
                "--out", str(out))  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr and ValueNet.load(out, "classic16").meta["games"] == 24
    other = run("train", "--variant", "classic16", "--games", "30", "--seed", "4", "--out", str(out))
    assert other.returncode != 0 and "seed 3" in other.stderr
    method = run("train", "--variant", "classic16", "--games", "30", "--seed", "3", "--method", "dmc",
                 "--out", str(out))  # fmt: skip
    assert method.returncode != 0 and "(advantage)" in method.stderr
    unknown = run("train", "--games", "2", "--method", "td", "--out", str(tmp_path / "x.npz"))
    assert unknown.returncode != 0 and len(unknown.stderr.strip().splitlines()) == 1
    own = {"PDK_WEIGHTS": str(out)}
    played = run("selfplay", "-p", "learned,normal,normal", "-n", "3", "--json", env=own)
    assert played.returncode == 0, played.stderr
    wrong = run("selfplay", "-v", "jokers17", "-p", "learned,normal,normal", "-n", "1", env=own)
    assert wrong.returncode != 0 and "trained for classic16" in wrong.stderr


@needs_binary
def test_train_can_start_from_weights_and_refuses_another_profiles(tmp_path: Path) -> None:
    """``--start`` continues a finished run (the shipped weights): the network begins as the
    file's, the new weights name the run they began from, and a file of another profile is
    refused in one line."""
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from pdk.train.dmc import Config, Trainer

    shipped_path = vn.WEIGHTS_DIR / "classic16.npz"
    shipped_net = ValueNet.load(shipped_path, "classic16")
    trainer = Trainer(Config.of(load_profile("classic16"), "advantage", seed=5), tmp_path / "t" / "w.npz")
    trainer.start_from(shipped_path)
    for (w, b), (w0, b0) in zip(trainer.net.layers, shipped_net.layers, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    # With a moving average, what plays begins as the file's network too, then trails the
    # trained one: after a round it has moved, by a tenth of the raw network's step.
    cfg = Config.of(load_profile("classic16"), "advantage", seed=5, average=0.9, games_per_round=2)
    averaged = Trainer(cfg, tmp_path / "a" / "w.npz")
    averaged.start_from(shipped_path)
    assert np.array_equal(averaged.net.layers[0][0], shipped_net.layers[0][0])
    rows, targets = averaged.play_advantage(0)
    averaged.xs[: len(rows)] = rows
    averaged.ys[: len(rows)] = targets
    averaged.filled = len(rows)
    averaged.learn()
    raw = averaged.model[0].weight.detach().numpy().T
    played = averaged.value_net().layers[0][0]
    start = shipped_net.layers[0][0]
    assert np.allclose(played - start, 0.1 * (raw - start), atol=1e-6) and not np.array_equal(raw, start)
    out = tmp_path / "w.npz"
    proc = run("train", "--games", "8", "--eval-deals", "2", "--start", str(shipped_path), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    meta = ValueNet.load(out, "classic16").meta
    assert meta["games"] == 8 and meta["start"]["games"] == shipped_net.meta["games"]
    wrong = run("train", "--games", "2", "--start", str(vn.WEIGHTS_DIR / "jokers17.npz"),
                "--out", str(tmp_path / "x.npz"))  # fmt: skip
    assert wrong.returncode != 0 and "trained for jokers17" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) == 1


def test_shipped_weights_name_their_run_and_fit_the_limit() -> None:
    shipped = sorted(vn.WEIGHTS_DIR.glob("*.npz"))
    assert shipped, "no weights ship"
    for path in shipped:
        assert path.stat().st_size <= 5 * 1024 * 1024
        net = ValueNet.load(path, path.stem)
        meta = net.meta
        assert meta["profile"] == path.stem and meta["version"] == VERSION
        assert meta["games"] > 0 and meta["samples"] > 0 and meta["commit"] != "unknown"
        assert isinstance(meta["seed"], int)


def test_the_learned_level_plays_with_the_shipped_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PDK_WEIGHTS", raising=False)
    profile = load_profile("classic16")
    a = run_match(profile, ["learned", "normal", "normal"], 1, seed=3, duplicate=True)
    b = run_match(profile, ["learned", "normal", "normal"], 1, seed=3, duplicate=True)
    assert [r.totals for r in a] == [r.totals for r in b]


# -- the learned value inside the hard search (HardBot(prior=K)) ---------------------------


def _choices(profile_name: str, deal_seed: int) -> list[GameState]:
    """Positions of one normal self-play deal where a search would run: more than one
    choice, no going out at once, no sure run (the searches decide those alike)."""
    profile = load_profile(profile_name)
    state = GameState(profile, deal(profile, derive_seed(deal_seed, 0)))
    normal = make_bot("normal")
    found = []
    while not state.over:
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if len(moves) + can_pass > 1 and Judge(view).rank(moves, can_pass)[0][0] < 1e6:
            found.append(state.clone())
        state.step(normal.choose(view))
    return found


def test_a_strong_prior_makes_the_search_play_the_networks_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prior counts as K sampled deals: as K grows, the search's own means stop
    mattering and the hard bot plays what the learned level plays (no proofs: solve_cards 0)."""
    monkeypatch.delenv("PDK_WEIGHTS", raising=False)
    strong = HardBot(
        3, determinizations=2, min_determinizations=2, solve_cards=0, belief="sampled", prior=1e9
    )
    learned = LearnedBot()
    positions = _choices("classic16", 11)
    assert len(positions) > 8
    differs = 0
    for state in positions:
        view = state.view(state.turn)
        assert strong.choose(view) == learned.choose(view)
        plain = HardBot(
            3, determinizations=2, min_determinizations=2, solve_cards=0, belief="sampled", prior=0
        )
        differs += plain.choose(view) != learned.choose(view)
    assert differs > 0  # the network and the search alone do disagree on this deal


def test_the_prior_needs_weights_and_keeps_out_of_exact_beliefs(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a profile without weights the prior changes nothing (the search stands alone);
    where the exact belief holds (the real deal, searched), it is not used either."""
    monkeypatch.delenv("PDK_WEIGHTS", raising=False)
    for state in _choices("classic15", 12)[::3]:
        view = state.view(state.turn)
        a = HardBot(5, determinizations=2, min_determinizations=2, prior=1e9).choose(view)
        assert a == HardBot(5, determinizations=2, min_determinizations=2, prior=0).choose(view)
    exact_seen = 0
    for state in _choices("classic16", 13):
        view = state.view(state.turn)
        bot = HardBot(5, determinizations=2, min_determinizations=2, belief="exact", prior=1e9)
        a = bot.choose(view)
        if bot.last_exact:
            exact_seen += 1
            assert a == HardBot(
                5, determinizations=2, min_determinizations=2, belief="exact", prior=0
            ).choose(view)
    assert exact_seen > 0
