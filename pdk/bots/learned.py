"""The ``learned`` level: the learned value's own choice, with no search.

Every legal choice (a pass too, when allowed) is scored by the network (``value_net``) on
its features (``features``), and the best is played; ties go to ``normal``'s order, whose
ranking is one of the inputs. Going out at once is always played (every level does). The
network is the profile's shipped one, or ``PDK_WEIGHTS``'s; a profile with none is refused
with one line when the bot first moves. Deterministic: the seed changes nothing, the
weights decide every play.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pdk.bots.features import Encoder
from pdk.bots.normal import SURE, Judge
from pdk.bots.sim import Sim
from pdk.bots.value_net import ValueNet, shipped
from pdk.engine.combos import Move
from pdk.engine.profile import Profile
from pdk.engine.state import PlayerView


def scored(
    net: ValueNet,
    view: PlayerView,
    moves: list[Move],
    can_pass: bool,
    ranked: list[tuple[float, Move | None]] | None = None,
) -> tuple[list[Move | None], list[Move | None], NDArray[np.float32], NDArray[np.float32]]:
    """The choices (plays, then a pass if allowed), normal's order of them, their feature
    rows and their values in points; ``ranked`` is normal's judgement, if already made."""
    if ranked is None:
        ranked = Judge(view).rank(moves, can_pass)
    order = [m for _, m in ranked]
    choices: list[Move | None] = [*moves, None] if can_pass else list(moves)
    x = Encoder(view).encode(choices, order)
    return choices, order, x, net(x)


def best(
    choices: list[Move | None],
    order: list[Move | None],
    values: NDArray[np.float32],
    among: int | None = None,
) -> Move | None:
    """The highest value (among normal's first ``among`` choices, if given); on a tie, the
    choice normal ranks first."""
    place = {m: i for i, m in enumerate(order)}
    last = len(order)
    pool = [
        (float(v), m)
        for m, v in zip(choices, values, strict=True)
        if among is None or place.get(m, last) < among
    ]
    top = max(v for v, _ in pool)
    return min((m for v, m in pool if v == top), key=lambda m: place.get(m, last))


def pool_of(net: ValueNet, among: int | None = None) -> int | None:
    """How many of normal's first choices the network chooses among: ``among`` if given,
    else what its weights were trained on (``meta["among"]``), else all of them."""
    if among is not None:
        return among
    trained = net.meta.get("among")
    return trained if isinstance(trained, int) else None


class Continuation:
    """The learned level's policy playing the seat to move of a deal on rank counts
    (``Sim``): a rollout policy (``sim.Policy``) for the hard bot's search and for
    training's advantage targets over the learned policy's own play (``pdk train
    --continuation learned``).

    It chooses as ``LearnedBot`` does (a sure run or going out as normal ranks it, else
    the network's best among normal's first choices), on the features a view would give
    (``Encoder.at``); a sampled deal has no history, so what each seat has played is
    counted here: ``played`` starts as the public record's (``features.played_by``, plus
    the candidate being rolled out) and every move this policy returns is added to it.
    One object per rollout (it keeps that rollout's record). The only difference from the
    bot at a table: normal's card counter sees the other hands pooled (``Sim.judgement``),
    as in the hard bot's rollouts, where a cards-aside pile would be among its unseen.

    ``seats`` (None: every seat) are the seats it plays; the others play normal's first
    choice, as ``hard.judged`` does: a learned player at a table of normal ones."""

    __slots__ = ("among", "net", "played", "seats")

    def __init__(
        self, net: ValueNet, played: list[int], among: int | None = None, seats: frozenset[int] | None = None
    ) -> None:
        self.net = net
        self.played = played
        self.among = pool_of(net, among)
        self.seats = seats

    @classmethod
    def after(
        cls,
        net: ValueNet,
        public: list[int],
        seat: int,
        cand: Move | None,
        seats: frozenset[int] | None = None,
    ) -> Continuation:
        """A fresh policy for one rollout after ``seat`` plays ``cand``: its record of plays
        is the public one (``features.played_by``) plus the candidate."""
        played = list(public)
        if cand is not None:
            played[seat] += cand.counts
        return cls(net, played, seats=seats)

    def __call__(self, sim: Sim, moves: list[Move], can_pass: bool) -> Move | None:
        if not moves:
            return None
        t = sim.turn
        if len(moves) == 1 and not can_pass:
            move: Move | None = moves[0]
        else:
            ranked = sim.judgement(moves, can_pass)
            order = [m for _, m in ranked]
            if ranked[0][0] >= SURE or (self.seats is not None and t not in self.seats):
                move = order[0]
            else:
                pool: list[Move | None] = order[: self.among] if self.among is not None else list(moves)
                if self.among is None and can_pass:
                    pool.append(None)
                enc = Encoder.at(sim.profile, t, sim.counts[t], self.played, sim.sizes, sim.prev,
                                 sim.prev_seat)  # fmt: skip
                move = best(pool, order, self.net(enc.encode(pool, order)))
        if move is not None:
            self.played[t] += move.counts
        return move


class LearnedBot:
    """See the module docstring; ``net`` overrides the shipped network (training uses it)."""

    def __init__(
        self, seed: int = 0, net: ValueNet | None = None, among: int | None = None, name: str = "learned"
    ) -> None:
        self.seed = seed
        self.net = net
        self.among = among
        self.name = name

    def ready(self, profile: Profile) -> None:
        """``WeightsError`` (one line: how to train them) if no network plays ``profile``:
        asked before a match starts, so a run does not fail at its first game."""
        if self.net is None:
            shipped(profile.name)

    def choose(self, view: PlayerView) -> Move | None:
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if not moves:
            return None
        if len(moves) == 1 and not can_pass:
            return moves[0]
        ranked = Judge(view).rank(moves, can_pass)
        if ranked[0][0] >= SURE:  # going out now, or a sure run of winners (as hard plays)
            return ranked[0][1]
        net = self.net if self.net is not None else shipped(view.profile.name)
        choices, order, _, values = scored(net, view, moves, can_pass, ranked)
        return best(choices, order, values, pool_of(net, self.among))
