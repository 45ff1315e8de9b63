"""How much is inference worth to the hard bot? Two experiment-only plug-in bots, for
``bench_strength.py --players benchmarks/experiments/inference_ceiling.py:revealed,normal,normal``.

Neither is a bot anyone should play: ``revealed`` reads the hidden hands, and
``exact_posterior`` is exact only because it assumes its opponents are the normal bot.

* ``revealed``: the hard search with the true hidden hands as its one sampled deal (a
  cheat). The ceiling of any inference: what the search could do if it knew everything.
* ``exact_posterior``: the hard search over deals drawn from the *exact* posterior of
  normal opponents. ``normal`` is deterministic, and the opponent model replays its
  judgement exactly (the true hands make every play it reads normal's first choice), so
  a consistent deal in which every play read is normal's first choice is a draw from
  P(hands | everything seen) against normal bots. Deals are drawn uniformly (the sampler:
  sizes, passes) and kept when they pass; where fewer than needed pass within ``TRIES``
  draws, the rest come from the hard bot's own sampling. The best that inference by
  normal's policy could do, at any cost.

docs/strength.md (fifth pass) gives their scores against two normal bots.
"""

from __future__ import annotations

import gc

from pdk.bots.hard import HardBot
from pdk.bots.infer import Sampler
from pdk.bots.model import OpponentModel, PlayFact
from pdk.engine.deal import Rng
from pdk.engine.state import GameState, PlayerView

TRIES = 4000  # uniform draws per decision for the exact posterior


def true_hands(view: PlayerView) -> dict[int, int]:
    """The other seats' hands, read from the game the view was made from (a cheat: the
    view shares the game's history list, and the game is found by it)."""
    items = view.history._items  # type: ignore[attr-defined]
    for holder in gc.get_referrers(items):
        if isinstance(holder, GameState) and holder.history is items:
            return {s: holder.counts[s] for s in range(view.players) if s != view.seat}
    raise RuntimeError("the view's game is not in this process")


class Revealed(HardBot):
    """The hard search, told the true hidden hands."""

    def deals(self, view: PlayerView, rng: Rng, count: int) -> list[dict[int, int]]:
        return [true_hands(view)]  # the rollouts are deterministic: one deal is enough


class ExactPosterior(HardBot):
    """The hard search over deals in which every play read is normal's first choice."""

    def deals(self, view: PlayerView, rng: Rng, count: int) -> list[dict[int, int]]:
        sampler = Sampler(view)
        model = OpponentModel(view)
        if not model.facts:
            return [sampler.sample(rng) for _ in range(count)]
        kept: list[dict[int, int]] = []
        for _ in range(TRIES):
            hands = sampler.sample(rng)
            if all(first_choice(model, fact, hands) for fact in model.facts):
                kept.append(hands)
                if len(kept) == count:
                    return kept
        return kept + super().deals(view, rng, count - len(kept))


def first_choice(model: OpponentModel, fact: PlayFact, hands: dict[int, int]) -> bool:
    """Was the play ``fact`` records normal's first choice, had the seat held ``hands``?"""
    ranked = model.judged(fact, hands[fact.seat] + fact.move.counts + fact.later)
    return ranked is None or ranked[0][1] == fact.move


def revealed(seed: int = 0) -> HardBot:
    return Revealed(seed, name="hard-revealed")


def exact_posterior(seed: int = 0) -> HardBot:
    # Drawing the posterior takes a median 0.74 s of CPU a decision (up to about 6 s): the
    # wall-clock cap is lifted so that no search is cut short (a cut search plays normal's
    # choice), at the price of hours for a few hundred deals.
    return ExactPosterior(seed, time_cap=60.0, name="hard-exact-posterior")
