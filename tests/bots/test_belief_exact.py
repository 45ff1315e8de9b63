"""Exact beliefs late in a deal (issue 27): against normal opponents the true hidden hands
are always among the splits kept (normal is deterministic, so every play it made is its
first choice for its true hand); every split kept respects the sizes, the cards unseen and
every pass; positions with many hidden cards are left to the weighted sample; and the hard
bot searching them (``hard-exact``) stays reproducible."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdk.bots import make_bot
from pdk.bots.belief_exact import HIDDEN_MAX, ExactBelief, pick
from pdk.bots.hard import HardBot
from pdk.bots.infer import Sampler
from pdk.bots.knowledge import unseen_counts
from pdk.engine import counts as C
from pdk.engine.deal import Rng, deal, derive_seed
from pdk.engine.state import GameState, PlayerView
from pdk.variants.registry import load_profile
from tests.support.cli import run_pdk


def normal_positions(variant: str, deals: int, seed: int = 3) -> list[tuple[PlayerView, dict[int, int]]]:
    """Every position of normal self-play, with the true hidden hands."""
    profile = load_profile(variant)
    out = []
    for d in range(deals):
        state = GameState(profile, deal(profile, derive_seed(seed, d)))
        bots = [make_bot("normal", s) for s in range(profile.players)]
        while not state.over:
            view = state.view(state.turn)
            truth = {s: state.counts[s] for s in range(profile.players) if s != view.seat}
            out.append((view, truth))
            state.step(bots[state.turn].choose(view))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic16", "four-player", "jokers17"])
def test_truth_survives_against_normal(variant: str) -> None:
    held = 0
    for view, truth in normal_positions(variant, 3):
        found = ExactBelief(view).deals()
        hidden = sum(view.hand_sizes) - view.hand_sizes[view.seat]
        if hidden > HIDDEN_MAX:
            assert found is None
            continue
        if found is None:
            continue  # over the work budget: the weighted sample decides
        held += 1
        assert truth in found
        sampler = Sampler(view)
        unseen = unseen_counts(view)
        for hands in found:
            assert sampler.consistent(hands)
            assert all(C.total(hands[s]) == view.hand_sizes[s] for s in hands)
            assert C.contains(unseen, sum(hands.values()))
    assert held > 0


def test_pick_takes_all_when_few_and_a_reproducible_subset_otherwise() -> None:
    found = [{1: i, 2: 0} for i in range(30)]
    assert pick(found[:5], Rng(1), 12) == found[:5]
    a = pick(found, Rng(7), 12)
    assert a == pick(found, Rng(7), 12)
    assert len(a) == 12 and len({h[1] for h in a}) == 12


def test_hard_with_exact_beliefs_is_reproducible_and_uses_them() -> None:
    used = 0
    for view, _ in normal_positions("classic16", 2, seed=9)[::3]:
        if sum(view.hand_sizes) - view.hand_sizes[view.seat] > HIDDEN_MAX:
            continue
        a = HardBot(4, determinizations=6, belief="exact")
        b = HardBot(4, determinizations=6, belief="exact")
        assert a.choose(view) == b.choose(view)
        used += a.last_exact
    assert used > 0


@pytest.mark.parametrize(
    ("level", "exact"), [("hard", True), ("hard-exact", True), ("hard-v2", False), ("hard-v1", False)]
)
def test_hard_uses_them_and_the_baselines_never_do(level: str, exact: bool) -> None:
    bot = make_bot(level, 1)
    assert isinstance(bot, HardBot)
    used = 0
    for view, _ in normal_positions("classic16", 1)[-12:]:
        bot.choose(view)
        used += bot.last_exact
    assert (used > 0) == exact


@pytest.mark.slow
def test_replay_explain_reproduces_hard_and_hard_exact(tmp_path: Path) -> None:
    """``pdk replay --explain --bot B`` replays B's own plays exactly: no note under them.
    In this process (``run_pdk``, one worker): the plays do not depend on the process."""
    games = tmp_path / "g.jsonl"
    made = run_pdk(
        "selfplay", "-n", "1", "-p", "hard-exact,hard,normal", "--seed", "8", "-w", "1", "--out", str(games)
    )
    assert made.returncode == 0, made.stderr
    for seat, bot in ((0, "hard-exact"), (1, "hard")):
        shown = run_pdk(
            "replay", str(games), "--game", "1", "--print", "--explain", "--bot", bot, "--lang", "en"
        )
        assert shown.returncode == 0, shown.stderr
        lines = shown.stdout.splitlines()
        mine = f"seat {seat} ({bot})"
        own = [i for i, line in enumerate(lines) if mine in line and line.strip()[:1].isdigit()]
        assert own
        assert not any("would play" in lines[i + 1] for i in own if i + 1 < len(lines))
