"""The learned policy as a rollout policy (issue 40): its features on a deal of rank counts
are a view's own, it plays a deal out exactly as the ``learned`` bot at every seat would,
and the hard bot's ``policy="learned"`` knob rolls out with it where weights exist and
with normal's judgement where none do."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from pdk.bots import make_bot
from pdk.bots import value_net as vn
from pdk.bots.features import Encoder, played_by
from pdk.bots.hard import HardBot, rollout
from pdk.bots.learned import Continuation, LearnedBot
from pdk.bots.normal import Judge
from pdk.bots.sim import Sim
from pdk.engine import counts as C
from pdk.engine.deal import deal, derive_seed
from pdk.engine.state import GameState, PlayerView
from pdk.variants.registry import load_profile
from tests.bots.test_learned import random_net


def true_sim(state: GameState, view: PlayerView) -> Sim:
    return Sim.from_view(view, {s: C.from_mask(h) for s, h in enumerate(state.hands) if s != view.seat})


def test_features_from_a_deal_on_rank_counts_are_the_views() -> None:
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, derive_seed(11, 0)))
    bot = LearnedBot(net=random_net("classic16", seed=1))
    checked = 0
    while not state.over:
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if moves:
            order = [m for _, m in Judge(view).rank(moves, can_pass)]
            choices = [*moves, None] if can_pass else list(moves)
            sim = true_sim(state, view)
            at = Encoder.at(profile, view.seat, sim.counts[view.seat], played_by(view), sim.sizes,
                            sim.prev, sim.prev_seat)  # fmt: skip
            assert np.array_equal(Encoder(view).encode(choices, order), at.encode(choices, order))
            checked += 1
        state.step(bot.choose(view))
    assert checked > 10


def test_a_learned_rollout_plays_the_deal_as_the_learned_bot_at_every_seat() -> None:
    """On the true hands, the policy on rank counts reaches the same end as ``learned`` in
    every seat of the real deal (classic16 sets no cards aside, so normal's card counter
    sees the same unseen cards either way)."""
    profile = load_profile("classic16")
    net = random_net("classic16", seed=3)
    bot = LearnedBot(net=net)
    for g in range(2):
        state = GameState(profile, deal(profile, derive_seed(12, g)))
        for _ in range(4 + 3 * g):  # into the deal: a record of plays to start from
            state.step(bot.choose(state.view(state.turn)))
        view = state.view(state.turn)
        sim = true_sim(state, view)
        rollout(sim, Continuation(net, played_by(view)))
        real = copy.deepcopy(state)
        while not real.over:
            real.step(bot.choose(real.view(real.turn)))
        totals = real.settlement().totals
        assert [sim.score(s) for s in range(profile.players)] == [float(t) for t in totals]


def searched(bot: HardBot, variant: str, decisions: int) -> list[list[float] | None]:
    """The search's candidate means at the first few real decisions of a normal-played deal."""
    profile = load_profile(variant)
    state = GameState(profile, deal(profile, derive_seed(13, 0)))
    normal = make_bot("normal")
    out: list[list[float] | None] = []
    while not state.over and len(out) < decisions:
        view = state.view(state.turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        judge = Judge(view)
        ranked = judge.rank(moves, can_pass)
        if len(ranked) > 1 and len(state.history) > 6:
            cands = [m for _, m in ranked[: bot.candidates]]
            out.append(bot.search(view, judge, cands, 0.0)[0])
        state.step(normal.choose(view))
    return out


@pytest.mark.slow
def test_hard_on_learned_rollouts_searches_otherwise_and_falls_back_without_weights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net = random_net("classic16", seed=5)
    monkeypatch.setattr(vn, "shipped", lambda profile: net)
    small = {"determinizations": 4, "min_determinizations": 2, "work": 600}
    judged = searched(HardBot(**small), "classic16", 3)
    learned = searched(HardBot(policy="learned", **small), "classic16", 3)
    assert learned == searched(HardBot(policy="learned", **small), "classic16", 3)  # reproducible
    assert judged != learned
    assert make_bot("hard-learned").policy == "learned"  # type: ignore[attr-defined]
    monkeypatch.undo()
    # classic15 ships no weights: the knob rolls out with normal's judgement, as hard does.
    assert searched(HardBot(policy="learned", **small), "classic15", 2) == searched(
        HardBot(**small), "classic15", 2
    )
