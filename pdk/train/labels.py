"""What ``pdk train`` learns from: its settings (``Config``) and the labelling of one
training deal (``Labeller``), with numpy only, so that a Ray worker labels deals without
the training library (``pdk train --backend ray``, ``pdk.train.ray_labels``).

A deal's labels depend on its number, the settings and the two networks the labeller
holds (the one under training, which plays some seats of the training deal, and the
continuation's), never on where it is labelled: the local run and a cluster learn from
the same rows in the same order, so the same seed gives the same weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pdk.bots.features import Encoder, played_by
from pdk.bots.hard import rollout
from pdk.bots.learned import Continuation, best, scored
from pdk.bots.normal import SURE, Judge
from pdk.bots.sim import Policy, Sim
from pdk.bots.value_net import ValueNet
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng, deal, derive_seed
from pdk.engine.profile import Profile
from pdk.engine.state import GameState, PlayerView

Labels = tuple[list[NDArray[np.float32]], list[float]]


def _decisions(state: GameState) -> Iterator[tuple[int, PlayerView, list[Move], bool]]:
    """The deal's real decisions, in turn: the seat, its view, its plays and whether it may
    pass. Positions that leave nothing to choose (no play, or one play and no pass) are
    stepped here and never labelled; the caller steps the move it chooses before asking
    for the next decision."""
    while not state.over:
        seat = state.turn
        view = state.view(seat)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if not moves or (len(moves) == 1 and not can_pass):
            state.step(moves[0] if moves else None)
            continue
        yield seat, view, moves, can_pass


@dataclass(frozen=True)
class Config:
    """A training run's settings; the defaults are the ones the shipped weights used."""

    profile: Profile
    seed: int = 0
    hours: float = 1.0
    games: int | None = None  # stop after this many deals instead (tests, reproducible runs)
    hidden: int = 256
    depth: int = 3  # hidden layers
    lr: float = 1e-3
    batch: int = 256
    buffer: int = 100_000
    games_per_round: int = 8
    steps_per_round: int = 4
    epsilon: float = 0.1
    net_share: float = 0.5
    ramp_games: int = 2_000
    eval_minutes: float = 10.0
    eval_deals: int = 30
    eval_seed: int = 1_001
    checkpoint_minutes: float = 5.0
    method: str = "dmc"  # or "advantage" (see ``Labeller.play_advantage``)
    candidates: int = 6  # advantage: normal's first choices rolled out, and the learned bot's pool
    average: float = 0.0  # the weights played and written: an average decaying by this a round (0: the last)
    continuation: str = "normal"  # advantage: who plays on after a candidate (``CONTINUATIONS``)

    @classmethod
    def of(cls, profile: Profile, method: str = "dmc", **settings: Any) -> Config:
        """A run of ``method`` with its own defaults: the advantage method keeps five times
        more samples, because its target (the gain over normal's play) does not move as the
        network learns, so an old sample is as right as a new one."""
        if method not in METHODS:
            raise ValueError(f"unknown training method {method!r}")
        if settings.get("continuation", "normal") not in CONTINUATIONS:
            raise ValueError(f"unknown continuation {settings['continuation']!r}")
        if method != "advantage" and settings.get("continuation", "normal") != "normal":
            raise ValueError("only the advantage method has a continuation to choose")
        if method == "advantage":
            settings = {"buffer": 500_000, **settings}
        return cls(profile, method=method, **settings)


METHODS = ("dmc", "advantage")
# Who plays on after a candidate in the advantage method's rollouts: normal's judgement at
# every seat (the shipped weights' targets); the learned policy of the run's start weights
# at every seat (policy iteration on a table of learned players: ``Labeller.play_advantage``);
# or that policy at the chooser's seat only, normal's judgement at the others (policy
# iteration against a table of normal players, the table the strength is measured at).
CONTINUATIONS = ("normal", "learned", "own")


@dataclass(frozen=True)
class Labeller:
    """Labels training deals: ``net`` is the network under training as it stands this
    round (it plays some seats of the training deal), ``policy`` the continuation's
    network (``continuation="learned"``: the round's start weights, fixed for the run),
    ``scale`` the targets' unit (points per card of a hand). Picklable: Ray ships it."""

    config: Config
    net: ValueNet
    policy: ValueNet | None
    scale: float

    def label(self, g: int) -> Labels:
        """Deal number ``g``'s rows and targets, by the run's method."""
        return self.play_advantage(g) if self.config.method == "advantage" else self.play(g)

    def continuation(self, public: list[int], seat: int, cand: Move | None) -> str | Policy:
        """The rollout policy after ``seat`` plays ``cand``: normal's judgement, or a fresh
        learned policy whose record of plays is the public one plus ``cand``."""
        if self.policy is None:
            return "judge"
        seats = frozenset({seat}) if self.config.continuation == "own" else None
        return Continuation.after(self.policy, public, seat, cand, seats)

    def _deal(self, g: int) -> tuple[GameState, Rng, list[bool], int]:
        """Deal number ``g`` as both labellings start it: the table, the deal's own random
        stream, which seats the network plays (more of them as training ramps up), and the
        exploration threshold on that stream's 20-bit draws."""
        cfg = self.config
        profile = cfg.profile
        state = GameState(profile, deal(profile, derive_seed(cfg.seed, g)))
        rng = Rng(derive_seed(cfg.seed, g, 1))
        share = cfg.net_share * min(1.0, g / cfg.ramp_games)
        uses_net = [rng.below(1 << 20) < share * (1 << 20) for _ in range(profile.players)]
        return state, rng, uses_net, int(cfg.epsilon * (1 << 20))

    def play(self, g: int) -> tuple[list[NDArray[np.float32]], list[float]]:
        """Deal number ``g``: every real decision's feature row and the return it earned."""
        state, rng, uses_net, explore = self._deal(g)
        rows: list[NDArray[np.float32]] = []
        seats: list[int] = []
        for seat, view, moves, can_pass in _decisions(state):
            wander = rng.below(1 << 20) < explore
            if uses_net[seat]:
                choices, order, x, values = scored(self.net, view, moves, can_pass)
                i = rng.below(len(choices)) if wander else choices.index(best(choices, order, values))
                move, row = choices[i], x[i]
            else:
                order = [m for _, m in Judge(view).rank(moves, can_pass)]
                choices = [*moves, None] if can_pass else list(moves)
                move = choices[rng.below(len(choices))] if wander else order[0]
                row = Encoder(view).encode([move], order)[0]
            rows.append(row)
            seats.append(seat)
            state.step(move)
        paid = state.settlement().totals
        return rows, [paid[s] / self.scale for s in seats]

    def play_advantage(self, g: int) -> tuple[list[NDArray[np.float32]], list[float]]:
        """Deal number ``g``, labelled by advantage: at every real decision, each of
        normal's first ``candidates`` choices is played and the deal finished with every
        seat playing the continuation (normal's judgement, ``hard.rollout``; or with
        ``continuation="learned"`` the policy of ``policy``'s network,
        ``learned.Continuation``) on the deal's true hands, and its row is regressed on
        its score minus that of normal's first choice (the same baseline whatever the
        continuation: a state's baseline changes no choice, and the hard bot's prior reads
        the network's gain over normal's choice).

        Why this target: the same hidden cards and the same deterministic continuation
        follow every candidate, so the luck of the deal cancels out of the difference
        (as in duplicate deals); what is left is what the choice itself changed. Averaged
        over the deals a view allows, it is the advantage of the choice under normal's
        play, which is exactly what the hard bot estimates with its sampled deals; greedy
        play on it is a step of policy improvement over normal. The rollouts may read the
        true hands because only the network's inputs must be a view's: normal, deciding
        in the rollout, reads its own hand and counts the rest, as at the table.

        With the learned continuation it is the advantage of each choice when the network
        ``policy`` plays every seat after it: the next step of policy iteration, each
        round's network learning its gain over the last round's play."""
        cfg = self.config
        state, rng, uses_net, explore = self._deal(g)
        rows: list[NDArray[np.float32]] = []
        targets: list[float] = []
        for seat, view, moves, can_pass in _decisions(state):
            ranked = Judge(view).rank(moves, can_pass)
            cands = [m for _, m in ranked[: cfg.candidates]]
            if ranked[0][0] >= SURE or len(cands) == 1:  # the learned bot plays these as normal does
                state.step(cands[0])
                continue
            order = [m for _, m in ranked]
            x = Encoder(view).encode(cands, order)
            base = Sim.from_view(view, {s: C.from_mask(h) for s, h in enumerate(state.hands) if s != seat})
            public = played_by(view) if self.policy is not None else []
            scores = []
            for cand in cands:
                sim = base.clone()
                sim.advance(cand)
                rollout(sim, self.continuation(public, seat, cand))
                scores.append(sim.score(seat))
            for row, score in zip(x, scores, strict=True):
                rows.append(row)
                targets.append((score - scores[0]) / self.scale)
            if rng.below(1 << 20) < explore:
                move = cands[rng.below(len(cands))]
            elif uses_net[seat]:
                move = best(list(cands), order, self.net(x))
            else:
                move = cands[0]
            state.step(move)
        return rows, targets



# Labels a round's deals, in order: in this process (``local_labels``), or on a Ray
# cluster (``ray_labels.RayLabels``); the same rows either way.
LabelAll = Callable[[Labeller, Sequence[int]], list[Labels]]


def local_labels(labeller: Labeller, games: Sequence[int]) -> list[Labels]:
    return [labeller.label(g) for g in games]
