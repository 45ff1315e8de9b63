"""Exact beliefs for the hard bot late in a deal: every split of the unseen cards that the
public record allows, when there are few enough to list.

Measured (docs/strength.md, issue 27): it places 0.99 of the hidden cards right where the
hard bot's weighted sample places 0.92. Alone it gained +0.14 a deal on the search
(``hard-exact``), below the issue's bar of +0.3; with the learned prior where the deals are
sampled, the ``hard`` level that uses both gains +0.37 [+0.09, +0.64] over 600 deals.

Why: the hard search's strength falls off a cliff as soon as a tenth of the hidden cards are
misplaced (docs/strength.md, fifth pass), and its weighted sample places about one card in
eight wrong even late in the deal. Late in a deal listing every split is cheap, and against
normal-like opponents the record pins the hands down: ``normal`` is deterministic, so a
split in which *every* play an opponent made was normal's first choice is exactly a deal
of the posterior against normal opponents, and all such splits are equally likely.

``exact_deals`` lists the splits of the unseen rank counts among the hidden holders (the
other seats, and an undealt pile if the profile sets cards aside) within the sampler's caps
(``infer.Sampler``: sizes, must-beat passes, unbreakable bombs), keeps those in which every
pass was forced, and then checks every play read (``model.OpponentModel`` with no limit on
how many), newest first, against normal's first choice for the hand the split gives that
seat then. A judgement is cached per (play, hand then), so splits sharing an opponent's
hand share its judgements. Work is bounded (``SPLITS_MAX``, ``WORK_MAX``, less on the
general generator's profiles): a
position with more is left to the weighted sample. ``None`` means "no exact belief here"
(too many hidden cards, too much work, or no split survives: the opponents do not play
like normal); the caller falls back to the weighted sample.
"""

from __future__ import annotations

from collections.abc import Iterator

from pdk.bots.infer import Sampler
from pdk.bots.model import OpponentModel, judgement_cost
from pdk.engine import counts as C
from pdk.engine.deal import Rng
from pdk.engine.state import PlayerView

# Hidden cards (the opponents' and any undealt pile) at most. At 15-18 on classic16 the
# belief still holds in 83-96% of positions at a median 3.5 ms; at 19-22 in 12% (the work
# budget runs out): docs/strength.md, issue 27.
HIDDEN_MAX = 18
SPLITS_MAX = 6_000  # splits listed at most (within the caps), before any judgement
# Normal judgements at most, in cards of the hands judged (``model.judgement_cost``: about
# a card each up to 16 cards, more beyond): on classic16 about 600 judgements, some 0.2 s.
# A judgement costs about five times more on the general generator's profiles (the same
# ratio as the opponent model's budgets, ``hard.MODEL_CARDS_FAST`` / ``MODEL_CARDS_GENERAL``).
WORK_MAX = 8_000
WORK_MAX_GENERAL = 1_500
ALL_PLAYS = 10_000  # "every play": the opponent model's per-seat limit, lifted


class ExactBelief:
    """The splits of one position that survive every public fact; see the module docstring."""

    def __init__(self, view: PlayerView, hidden_max: int = HIDDEN_MAX) -> None:
        self.view = view
        self.hidden_max = hidden_max
        self.judgements = 0  # the judgements made (benchmarks read it)
        self.work = 0  # their cost, in cards (``model.judgement_cost``)
        self.listed = 0

    def deals(self) -> list[dict[int, int]] | None:
        """Every surviving split (seat -> rank counts, the undealt pile dropped), in a fixed
        order, or ``None`` (see the module docstring)."""
        sampler = Sampler(self.view)
        if sum(sampler.sizes) > self.hidden_max or not sampler.holders:
            return None
        splits = []
        for split in _splits(sampler):
            self.listed += 1
            if self.listed > SPLITS_MAX:
                return None
            hands = {h: split[i] for i, h in enumerate(sampler.holders) if h >= 0}
            if sampler.consistent(hands):
                splits.append(hands)
        budget = WORK_MAX if self.view.profile.classic_generation else WORK_MAX_GENERAL
        model = OpponentModel(self.view, recent=ALL_PLAYS)
        facts = list(reversed(model.facts))  # newest first: the smallest hands, the sharpest
        seen: dict[tuple[int, int], bool] = {}
        kept = []
        for hands in splits:
            ok = True
            for i, fact in enumerate(facts):
                then = hands[fact.seat] + fact.move.counts + fact.later
                first = seen.get((i, then))
                if first is None:
                    self.judgements += 1
                    self.work += judgement_cost(C.total(then))
                    if self.work > budget:
                        return None
                    ranked = model.judged(fact, then)
                    first = seen[(i, then)] = ranked is None or ranked[0][1] == fact.move
                if not first:
                    ok = False
                    break
            if ok:
                kept.append(hands)
        return kept or None


def pick(found: list[dict[int, int]], rng: Rng, count: int) -> list[dict[int, int]]:
    """The deals to search: all of them when they are at most ``count`` (each once: the
    rollouts are deterministic, so a deal searched twice adds nothing), else ``count`` of
    them drawn without replacement (they are equally likely), in their listed order."""
    if len(found) <= count:
        return found
    order = list(range(len(found)))
    rng.shuffle(order)
    return [found[i] for i in sorted(order[:count])]


def _splits(sampler: Sampler) -> Iterator[list[int]]:
    """Every way to share the unseen rank counts among the holders, each taking exactly its
    size and no rank above its cap (rank counts per holder, in the holders' order)."""
    ranks = [(r, n) for r, n in C.items(sampler.unseen)]
    caps = sampler.caps
    k = len(sampler.holders)
    room = list(sampler.sizes)
    counts = [0] * k
    left = [0] * (len(ranks) + 1)  # cards still to place from rank i on
    for i in range(len(ranks) - 1, -1, -1):
        left[i] = left[i + 1] + ranks[i][1]

    def place(i: int) -> Iterator[list[int]]:
        if i == len(ranks):
            yield list(counts)
            return
        r, n = ranks[i]
        yield from share(i, r, n, 0)

    def share(i: int, r: int, n: int, h: int) -> Iterator[list[int]]:
        if h == k - 1:
            if n <= room[h] and n <= caps[h][r] and room[h] - n <= left[i + 1]:
                room[h] -= n
                counts[h] += n * C.ONE[r]
                yield from place(i + 1)
                counts[h] -= n * C.ONE[r]
                room[h] += n
            return
        for take in range(min(n, room[h], caps[h][r]), -1, -1):
            room[h] -= take
            counts[h] += take * C.ONE[r]
            yield from share(i, r, n - take, h + 1)
            counts[h] -= take * C.ONE[r]
            room[h] += take

    yield from place(0)
