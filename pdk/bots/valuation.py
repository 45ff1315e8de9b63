"""Numbers on a play: what each candidate is worth to the seat, by the hard bot's search.

``analyse(spot, budget=..., seed=...)`` plays every candidate out in the same sampled deals
(the hard bot's: ``HardBot.deals`` on a record's view, so the opponent model weights the
hidden hands by what the opponents' plays said; uniform consistent deals for a position
text, which has no history to read) and finishes each deal with the normal bot's
judgement at every seat (``hard.rollout``), scored by the profile's own settlement
(``Sim.score``). Per candidate it reports

* the expected points of the deal for the seat (the settlement total: what it wins or
  pays), with a 95% interval (mean ± 1.96 standard errors over the deals);
* the chance that the seat goes out first (wins the deal), with a 95% Wilson interval;
* a proof where the exact endgame solver (``hard.Solver``) decides the candidate: with
  few cards left the hidden deals are enumerated rather than sampled (``ENUMERATE``), and
  a candidate that forces going out first in every one of them is ``Proof.WIN`` (its win
  chance is then 1); one that forces it in none is ``Proof.NO_WIN`` (the rivals, playing
  together, can stop it; the numbers still say how often the rollouts' rivals do). With
  every hand open (a puzzle) that is an exact proof; with hidden hands it is "whatever
  the hidden cards are, open-handed play from here" (said so in docs/analysis.md).

Every candidate meets the same deals (common random numbers), so the difference between
two candidates is measured far more tightly than either value: ``Analysis.loss`` gives the
paired difference with its own interval, which ``pdk review`` marks plays by.

The budget is work, not time: rollout-cards per decision (one rollout costs about one unit
per card in play), split over the candidates; more budget, more deals, narrower
intervals. The random stream is derived from ``seed`` and the position only, so the same
call gives the same numbers on any machine. It reads only what the seat could see: the
seat's ``PlayerView`` (or a position text, which holds nothing else).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from pdk.bots.hard import HardBot, Solver, rollout
from pdk.bots.infer import Sampler
from pdk.bots.knowledge import Knowledge
from pdk.bots.model import judgement_cost
from pdk.bots.normal import Judge
from pdk.bots.plan import size_of
from pdk.bots.sim import Sim
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng, derive_seed
from pdk.engine.playout import Playout
from pdk.engine.position_text import TablePosition
from pdk.engine.state import PlayerView

# The default budget in rollout-cards per decision: a classic16 deal reviewed for every
# seat in well under 20 s on one core (benchmarks/bench_review.py).
DEFAULT_BUDGET = 12000
# ``pdk advise`` values one position, every legal play by default: more work for it.
ADVISE_BUDGET = 40000
MIN_DEALS = 8
MAX_DEALS = 600
# The solver is asked when the cards still in play are few; each question gets this many
# nodes (a transposition table is shared by the questions of one deal).
SOLVE_CARDS = 12
SOLVE_NODES = 4000
# With at most this many distinct hidden deals, all of them are searched (and proofs hold).
ENUMERATE = 48
ENUMERATE_CARDS = 14  # no enumeration past this many hidden cards (far too many splits)
# A rollout of more cards than this uses the fast greedy policy (two packs, four players).
JUDGE_LIMIT = 70
# ``race``: the share of the budget every candidate is valued on, the candidates kept for
# the rest, and the part of the second round's seed that sets its deals apart from the first.
RACE_SHARE = 0.5
RACE_KEEP = 2
RACE_ROUND = 2
Z95 = 1.96


class Proof(Enum):
    """What the exact solver decided about a candidate (see the module docstring)."""

    WIN = "win"
    NO_WIN = "no_win"


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean and its 95% interval."""

    mean: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class PlayValue:
    """One candidate (``move`` None: pass) and what it is worth to the seat."""

    move: Move | None
    points: Interval
    win: Interval
    proof: Proof | None
    scores: tuple[float, ...] = field(repr=False)  # per deal searched, in deal order


@dataclass(frozen=True, slots=True)
class Analysis:
    """The seat's candidates, best first (by expected points, then win chance)."""

    seat: int
    plays: tuple[PlayValue, ...]
    deals: int  # deals searched per candidate
    exact: bool  # every consistent hidden deal was searched
    legal: int  # legal choices in the position (passing counted)

    @property
    def best(self) -> PlayValue:
        return self.plays[0]

    def find(self, move: Move | None) -> PlayValue | None:
        for p in self.plays:
            if same_play(p.move, move):
                return p
        return None

    def loss(self, move: Move | None) -> Interval:
        """Expected points the seat gives up by playing ``move`` instead of the best play,
        with the 95% interval of the paired difference (0 for the best play itself)."""
        return self.difference(self.best.move, move)

    def difference(self, better: Move | None, move: Move | None) -> Interval:
        """Expected points ``move`` gives up against ``better``, with the 95% interval of
        the paired difference over the deals both met (every deal, but in a ``race``: a
        dropped candidate met only the first round's)."""
        first, chosen = self.find(better), self.find(move)
        if first is None or chosen is None:
            raise ValueError("the play was not analysed")
        shared = min(len(first.scores), len(chosen.scores))  # a race: the deals both met
        diffs = [b - c for b, c in zip(first.scores[:shared], chosen.scores[:shared], strict=True)]
        if chosen is first or not diffs:
            return Interval(0.0, 0.0, 0.0)
        return _mean_interval(diffs)


def same_play(a: Move | None, b: Move | None) -> bool:
    """Two choices are the same play when their rank counts and reading agree."""
    if a is None or b is None:
        return a is b
    return a[0] == b[0] and a[1] == b[1]


@dataclass(frozen=True)
class Spot:
    """Where the analysis starts: the seat's view, what it has not seen, and the hands it
    knows besides its own (an open-handed puzzle). ``position`` is set when the spot was
    read from a position text: the view then has no history, and the deals start from the
    text's own state instead of replaying one."""

    view: PlayerView
    unseen: int
    open_hands: dict[int, int]
    position: TablePosition | None = None

    @classmethod
    def of_view(cls, view: PlayerView) -> Spot:
        return cls(view, Knowledge(view).unseen, {})

    @classmethod
    def of_position(cls, pos: TablePosition) -> Spot:
        known = {s: C.from_mask(h) for s, h in enumerate(pos.hands) if h is not None and s != pos.turn}
        return cls(pos.view(), pos.unseen_counts(), known, pos)


def analyse(
    spot: Spot,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    top: int | None = None,
    include: Sequence[Move | None] = (),
) -> Analysis:
    """The seat's candidates with their numbers (see the module docstring). ``top`` keeps
    the normal judgement's best ``top`` choices (None: every legal choice); ``include``
    adds choices that must be valued whatever the judgement says (a played move)."""
    view = spot.view
    pos = view.position()
    moves = pos.legal_moves()
    legal = len(moves) + (1 if pos.can_pass(moves) else 0)
    choices = _candidates(spot, moves, top, include)
    rng = Rng(derive_seed(seed, len(view.history), view.seat, sum(view.hand_sizes)))
    deals, exact = _deals(spot, rng, len(choices), budget)
    tallies = _played_out(spot, choices, deals, exact)
    return _analysis(view.seat, [t.value(exact) for t in tallies], len(deals), exact, legal)


def race(
    spot: Spot,
    *,
    budget: int,
    seed: int,
    top: int,
    keep: int = RACE_KEEP,
    share: float = RACE_SHARE,
    include: Sequence[Move | None] = (),
) -> Analysis:
    """``analyse``'s candidates (the normal judgement's best ``top``, and ``include``) raced
    for one budget: every candidate valued on ``share`` of it, then the rest spent on the
    best ``keep`` of them in fresh deals (their own seed), each survivor's deals combined.
    The plays of the analysis are the survivors best first, by all their deals, then the
    dropped by the first round's; a paired difference (``Analysis.difference``) is over the
    deals both met. Spends no more rollouts than ``analyse`` at the same budget. Where a
    race cannot help (every hidden deal enumerated, or too few deals to drop anything on),
    it is ``analyse`` itself.

    Why: with ``analyse`` every candidate meets as many deals, so the budget goes as much
    on plays clearly behind as on the close call at the top; the first hint's errors are
    that close call, taken on a dozen deals (benchmarks/README.md, issue 37)."""
    view = spot.view
    pos = view.position()
    moves = pos.legal_moves()
    legal = len(moves) + (1 if pos.can_pass(moves) else 0)
    choices = _candidates(spot, moves, top, include)
    per_deal = _deal_cost(view)
    opening = int(budget * share)
    if len(choices) < 2 * keep or opening // (len(choices) * per_deal) < MIN_DEALS:
        return analyse(spot, budget=budget, seed=seed, top=top, include=include)
    rng = Rng(derive_seed(seed, len(view.history), view.seat, sum(view.hand_sizes)))
    deals, exact = _deals(spot, rng, len(choices), opening)
    tallies = _played_out(spot, choices, deals, exact)
    left = min(MAX_DEALS, int((budget - len(deals) * len(choices) * per_deal) // (keep * per_deal)))
    if exact or left < 1:  # every hidden deal met already, or nothing left to spend
        return _analysis(view.seat, [t.value(exact) for t in tallies], len(deals), exact, legal)
    first = [t.value(False) for t in tallies]
    ranked = _best_first(first)
    alive = sorted(ranked[:keep])
    rng = Rng(derive_seed(seed, len(view.history), view.seat, sum(view.hand_sizes), RACE_ROUND))
    more = _sampled(spot, rng, left)
    again = _played_out(spot, [choices[i] for i in alive], more, False)
    raced = [tallies[i].add(t).value(False) for i, t in zip(alive, again, strict=True)]
    out = _analysis(view.seat, raced, len(deals) + len(more), False, legal)
    return replace(out, plays=out.plays + tuple(first[i] for i in ranked[keep:]))


def _candidates(
    spot: Spot, moves: list[Move], top: int | None, include: Sequence[Move | None]
) -> list[Move | None]:
    view = spot.view
    can_pass = view.position().can_pass(moves)
    choices: list[Move | None] = [*moves, None] if can_pass or not moves else list(moves)
    if top is not None and len(choices) > top:
        know = Knowledge(view, hand=C.from_mask(view.hand), unseen=spot.unseen)
        ranked = [m for _, m in Judge(view, know).rank(moves, can_pass)][:top]
        for extra in include:
            if not any(same_play(extra, m) for m in ranked):
                ranked.append(next(m for m in choices if same_play(m, extra)))
        choices = ranked
    return choices


@dataclass(slots=True)
class _Tally:
    """One candidate's outcomes over the deals it met, in deal order."""

    move: Move | None
    scores: list[float] = field(default_factory=list)
    wins: int = 0
    proven: int = 0
    refuted: int = 0

    def value(self, exact: bool) -> PlayValue:
        n = len(self.scores)
        proof = None
        if exact and self.proven == n:
            proof = Proof.WIN
        elif exact and self.refuted == n:
            proof = Proof.NO_WIN
        win = Interval(1.0, 1.0, 1.0) if proof is Proof.WIN else _wilson(self.wins, n)
        return PlayValue(self.move, _mean_interval(self.scores), win, proof, tuple(self.scores))

    def add(self, more: _Tally) -> _Tally:
        return _Tally(self.move, self.scores + more.scores, self.wins + more.wins,
                      self.proven + more.proven, self.refuted + more.refuted)  # fmt: skip


def _played_out(
    spot: Spot, choices: Sequence[Move | None], deals: list[dict[int, int]], exact: bool
) -> list[_Tally]:
    """Every choice played out in every deal (the same deals for each: common random
    numbers), each finished by the rollout policy and scored by the settlement; the solver
    asked where few cards are left (``exact``: the deals are every consistent one)."""
    view = spot.view
    me = view.seat
    policy = "judge" if _deal_cost(view) <= JUDGE_LIMIT else "greedy"
    solving = sum(view.hand_sizes) <= SOLVE_CARDS or (
        exact and size_of(C.from_mask(view.hand)) <= SOLVE_CARDS
    )
    first_out = view.profile.end == "first_out"
    tallies = [_Tally(c) for c in choices]
    for hands in deals:
        base = sim_at(spot, hands)
        rivals = [o for o in range(base.n) if o != me and base.sizes[o]]
        solver = Solver(me, rivals) if solving else None
        for t in tallies:
            sim = base.clone()
            sim.advance(t.move)
            won = solver.wins(sim.clone(), SOLVE_NODES) if solver is not None else None
            if won:
                t.proven += 1
            elif won is False:
                t.refuted += 1
            rollout(sim, policy)
            score = sim.score(me)
            if won and first_out and sim.winner != me:
                score = max(score, base.out_now(me))
            t.scores.append(score)
            t.wins += 1 if won or sim.winner == me else 0
    return tallies


def _analysis(seat: int, values: list[PlayValue], deals: int, exact: bool, legal: int) -> Analysis:
    return Analysis(seat, tuple(values[i] for i in _best_first(values)), deals, exact, legal)


def _best_first(values: Sequence[PlayValue]) -> list[int]:
    """The values' indexes best first: by expected points, then win chance, then order."""
    return sorted(range(len(values)), key=lambda i: (-values[i].points.mean, -values[i].win.mean, i))


def _deal_cost(view: PlayerView) -> float:
    """Rollout-cards one rollout from here costs (the budget's unit of work)."""
    big = max(view.hand_sizes)
    return sum(view.hand_sizes) * judgement_cost(big) / big


def _deals(spot: Spot, rng: Rng, candidates: int, budget: int) -> tuple[list[dict[int, int]], bool]:
    """The hidden deals to search, and whether they are all of the consistent ones."""
    view = spot.view
    hidden = [s for s in range(view.players) if s != view.seat and s not in spot.open_hands]
    if not any(view.hand_sizes[s] for s in hidden):
        return [dict(spot.open_hands)], True
    sampler = Sampler(view, unseen=spot.unseen - sum(spot.open_hands.values()), holders=hidden)
    every = _every_deal(sampler, hidden)
    if every is not None:
        return [{**spot.open_hands, **h} for h in every], True
    count = max(MIN_DEALS, min(MAX_DEALS, int(budget // (candidates * _deal_cost(view)))))
    return _sampled(spot, rng, count, sampler), False


def _sampled(spot: Spot, rng: Rng, count: int, sampler: Sampler | None = None) -> list[dict[int, int]]:
    """``count`` hidden deals drawn from ``rng`` (more than ``ENUMERATE`` are consistent)."""
    view = spot.view
    if spot.position is None and not spot.open_hands:
        # The weighted sample, not the exact belief: a review reads anybody's plays, and
        # the exact belief's reading (every play was normal's first choice) fits bots only.
        return HardBot(derive_seed(rng.below(1 << 62)), belief="sampled").deals(view, rng, count)
    if sampler is None:
        hidden = [s for s in range(view.players) if s != view.seat and s not in spot.open_hands]
        sampler = Sampler(view, unseen=spot.unseen - sum(spot.open_hands.values()), holders=hidden)
    return [{**spot.open_hands, **sampler.sample(rng)} for _ in range(count)]


def _every_deal(sampler: Sampler, hidden: list[int]) -> list[dict[int, int]] | None:
    """Every split of the hidden cards among the holders consistent with the public facts,
    or None when there are more than ``ENUMERATE`` splits (then the deals are sampled)."""
    out: list[dict[int, int]] = []
    if sum(sampler.sizes) > ENUMERATE_CARDS:
        return None
    for split in _splits(sampler.unseen, sampler.sizes, sampler.caps):
        hands = {h: split[i] for i, h in enumerate(sampler.holders) if h >= 0}
        if sampler.consistent(hands):
            out.append(hands)
            if len(out) > ENUMERATE:
                return None
    return out or None


def _splits(unseen: int, sizes: list[int], caps: list[list[int]]) -> Iterator[list[int]]:
    """Every way to give the rank counts ``unseen`` to holders of ``sizes`` cards, each
    rank within the holder's cap; stops being asked for once too many are found."""
    ranks = [(r, n) for r, n in C.items(unseen)]
    k = len(sizes)
    seen_limit = ENUMERATE * 50  # bound the walk itself, whatever the filter keeps

    def go(i: int, room: list[int], acc: list[int]) -> Iterator[list[int]]:
        if i == len(ranks):
            if not any(room):
                yield list(acc)
            return
        r, n = ranks[i]
        for parts in _compositions(n, k):
            if any(parts[h] > room[h] or parts[h] > caps[h][r] for h in range(k)):
                continue
            for h in range(k):
                room[h] -= parts[h]
                acc[h] += parts[h] * C.ONE[r]
            yield from go(i + 1, room, acc)
            for h in range(k):
                room[h] += parts[h]
                acc[h] -= parts[h] * C.ONE[r]

    for walked, split in enumerate(go(0, list(sizes), [0] * k)):
        if walked > seen_limit:
            return
        yield split


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


def sim_at(spot: Spot, hands: dict[int, int]) -> Sim:
    """The sampled deal as it stands: replayed from the record's history, or set up from
    the position text (which has no history to replay)."""
    if spot.position is None:
        return Sim.from_view(spot.view, hands)
    sim = Sim.legacy_from_view(spot.view, hands)
    pos = spot.position
    sim.simple = Playout.has_its_transition(pos.profile)
    sim.bomb_bonuses = list(pos.bombs)
    sim.bombs_played = sum(pos.bombs)
    sim.active = sum(1 for s in pos.sizes if s)
    sim.order = [s for s in range(sim.n) if not pos.sizes[s]]
    return sim


def _mean_interval(xs: Sequence[float]) -> Interval:
    n = len(xs)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = sum(xs) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def _wilson(k: int, n: int) -> Interval:
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))
