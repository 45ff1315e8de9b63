"""The ``hard`` bot: determinized Monte-Carlo search over deals consistent with the public
record, weighted by what the opponents' plays say about their hands.

For each decision with a real choice:

1. the ``normal`` bot's judgement ranks the legal plays and keeps the few best candidates
   (going out, or a sure run of unbeatable plays, is played at once);
2. ``infer.Sampler`` deals the hidden cards many times, consistent with hand sizes and with
   every must-beat pass (a pass proves the passer could not beat the play); the opponent
   model (``model.OpponentModel``: the normal bot's judgement softened into probabilities,
   so a play that the sampled hand would not have chosen is unlikely) weights those deals;
   the search keeps a weighted sample of them and refines each by Metropolis steps (card
   trades between hands, taken by the model's weight), twelve model readings per deal kept.
   Late in the deal (at most 18 hidden cards) it searches instead every split of the
   hidden cards in which every play the opponents made was normal's first choice, when
   those are few (``belief_exact``), and falls back to the sample when none survives;
3. in each kept deal every candidate is played and the deal is finished on rank counts
   (``sim.Sim``: the engine's transition, so play-to-the-last, bombs scored when played,
   doubling and 包赔 are the profile's) with every seat playing the normal bot's judgement
   (``judged``; a much faster ``greedy`` policy is available, and ``hard-learned`` plays
   the learned policy there instead: ``learned.Continuation``), and scored by the profile's
   own settlement (``Sim.score``: ``pdk.engine.settlement.settle``) from this seat. With
   few cards left, an exact AND/OR search (``Solver``) first looks for a forced win: a
   candidate that forces one in every sampled deal is played at once;
4. the candidate with the best mean score is played; where the profile has learned weights
   (``value_net``) and the deals were sampled, each mean first takes in the network's
   estimate of the candidate's gain over normal's choice as ``PRIOR`` more deals (the
   network learned that gain from rollouts on true hands, so it knows what the sample
   gets wrong on average; ``learned_gains``).

Measured (docs/strength.md): normal-judgement rollouts instead of greedy ones moved the win
rate against two normal bots from about 42% to 48%; with the hidden hands revealed (a
cheat, only as an experiment) the same search won 64%.

It reads only a ``PlayerView``: the sampler and the model see the public history and its
own hand, and never another hand. Choices are reproducible: the random stream is derived
from the seed and the position (so it does not depend on earlier calls) and the budget is
counted in work (rollout cards and solver nodes), never in time, so the same seed plays
the same game on a loaded machine. A wall-clock cap (``time_cap``) is there only when asked
for (``pdk selfplay --time-cap``, which writes it in each record): a capped search may stop
early, and then its choice depends on the machine.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from pdk.bots.belief_exact import HIDDEN_MAX, ExactBelief, pick
from pdk.bots.infer import Sampler
from pdk.bots.model import OpponentModel, judgement_cost
from pdk.bots.normal import SURE, Judge
from pdk.bots.plan import size_of
from pdk.bots.sim import Policy, Sim
from pdk.engine.combos import Move
from pdk.engine.deal import Rng, derive_seed
from pdk.engine.movegen import BOMB, SINGLE
from pdk.engine.state import PlayerView, next_holding

if TYPE_CHECKING:
    from pdk.bots.value_net import ValueNet

# The opponent model's budget per decision, in cards of the hands it reads (one normal
# judgement each, per drawn deal): a judgement costs several times more on the general
# generator's profiles (bigger hands, richer catalogues). Sized to keep decisions within
# a median of 0.3 s on this machine (docs/strength.md).
MODEL_CARDS_FAST = 24_000
MODEL_CARDS_GENERAL = 4_500
# Independent draws per deal searched, before the Metropolis steps refine the kept ones.
STARTS = 4
# The learned value's weight beside the rollouts, in sampled deals (``HardBot(prior=...)``):
# its gain over normal's choice counts as this many more deals. Measured (docs/strength.md,
# issue 27): 8 gained on hard-v2 where 24 did not (100 deals each); with exact beliefs late,
# +0.37 [+0.09, +0.64] a deal over 600 classic16 deals.
PRIOR = 8.0


def lets_out(sim: Sim, move: Move) -> bool:
    """Would some other player go out at once by beating ``move``? (Exact: the sampled
    deal is known to the rollout.)"""
    t = sim.turn
    n = sim.n
    gen = sim.gen
    for o in range(n):
        if o == t or not sim.sizes[o] or sim.sizes[o] > 4:
            continue
        hand = sim.counts[o]
        nxt = sim.sizes[next_holding(sim.sizes, o)] == 1
        for r in gen.follows(hand, move, nxt):
            if r[0] == hand:
                return True
    return False


def _near_out(sim: Sim) -> bool:
    t = sim.turn
    return any(sim.sizes[o] <= 4 for o in range(sim.n) if o != t)


def greedy(sim: Sim, moves: list[Move], can_pass: bool) -> Move | None:
    """The rollout policy: go out if possible; lead the longest play that sheds the lowest
    rank (avoiding singles when an opponent holds one card); follow with the cheapest play
    that beats, bombs last."""
    if not moves:
        return None
    t = sim.turn
    hand = sim.counts[t]
    for m in moves:
        if m.counts == hand:
            return m
    if sim.prev is None:
        low = (hand & -hand).bit_length() - 1
        low_field = 31 << (low - low % 5)
        danger = any(sim.sizes[o] == 1 for o in range(sim.n) if o != t)
        near = _near_out(sim)
        best: Move | None = None
        best_key: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
        for m in moves:
            c = m.counts
            key = (
                not (near and lets_out(sim, m)),
                m.kind != BOMB,
                not (danger and m.kind == SINGLE),
                bool(c & low_field),
                size_of(c) * 1000 - m.top,
            )
            if best is None or key > best_key or (key == best_key and c < best.counts):
                best, best_key = m, key
        return best
    cheapest: Move | None = None
    near = _near_out(sim)
    for m in moves:
        if m.kind == BOMB and sim.prev.kind != BOMB:
            continue
        if near and lets_out(sim, m):
            continue
        if cheapest is None or (m.top, m.counts) < (cheapest.top, cheapest.counts):
            cheapest = m
    if cheapest is None:
        cheapest = min(moves, key=lambda m: m.top)
    if can_pass and cheapest.kind != BOMB:
        owner = sim.prev_seat
        if owner is not None and sim.sizes[owner] > 2 and cheapest.top >= 11:
            return None
    return cheapest


def judged(sim: Sim, moves: list[Move], can_pass: bool) -> Move | None:
    """The ``normal`` bot's judgement inside a sampled deal (``Sim.judgement``)."""
    if not moves:
        return None
    if len(moves) == 1 and not can_pass:
        return moves[0]
    return sim.judgement(moves, can_pass)[0][1]


def rollout(sim: Sim, policy: str | Policy, limit: int = 2000) -> int:
    """Finish the deal in place, every seat playing ``policy``: ``"judge"`` (the normal
    bot's judgement, what the search is tuned with), ``"greedy"`` (several times faster),
    or a ``Policy`` object (the learned policy: ``learned.Continuation``). Returns the
    turns played (the search's work counter). ``limit`` is above the longest deal (every
    card played singly, every other seat passing each time: 108 * 4 turns)."""
    for turn in range(limit):
        if sim.done:
            return turn
        moves = sim.moves()
        can_pass = sim.can_pass(moves)
        if policy == "judge":
            sim.advance(judged(sim, moves, can_pass))
        elif policy == "greedy":
            sim.advance(greedy(sim, moves, can_pass))
        else:
            assert not isinstance(policy, str)
            sim.advance(policy(sim, moves, can_pass))
    return limit


class Solver:
    """Exact search on one sampled deal: can ``me`` force going out before every rival
    (the seats still holding cards when the search starts), whatever they do? On first-out
    profiles that is winning the deal; playing to the last, it is taking the best place
    still open. (Paranoid: the rivals are assumed to cooperate against ``me``.)

    Boolean AND/OR search on the engine's transition (must-beat, 报单 and every variant rule
    come with ``Sim.moves``) with a node budget per question and a transposition table on
    rank counts and the trick, shared by every question asked about the same deal; ``None``
    means the budget ran out before a proof either way."""

    def __init__(self, me: int, rivals: list[int]) -> None:
        self.me = me
        self.rivals = rivals
        self.budget = 0
        self.table: dict[tuple[object, ...], bool] = {}

    def wins(self, sim: Sim, budget: int) -> bool | None:
        self.budget = budget
        try:
            return self._wins(sim)
        except _OutOfBudget:
            return None

    def _wins(self, sim: Sim) -> bool:
        sizes = sim.sizes
        if not sizes[self.me]:
            return True
        if sim.done or any(not sizes[o] for o in self.rivals):
            return False
        key = (tuple(sim.counts), sim.turn, sim.prev, sim.prev_seat, sim.passes)
        got = self.table.get(key)
        if got is not None:
            return got
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        moves = sim.moves()
        options: list[Move | None] = list(moves)
        if sim.can_pass(moves) or not moves:
            options.append(None)
        mine = sim.turn == self.me
        hand = sim.counts[sim.turn]
        # Try the likeliest proofs (mine) and refutations (theirs) first: going out, then
        # high plays.
        options.sort(
            key=lambda m: (-1, 0) if m is not None and m.counts == hand else (0, -(m.top if m else -1))
        )
        result = not mine
        for m in options:
            child = sim.clone()
            child.advance(m)
            if self._wins(child) == mine:
                result = mine
                break
        self.table[key] = result
        return result


class _OutOfBudget(Exception):
    pass


def gumbel_top(rng: Rng, log_weights: list[float], k: int) -> list[int]:
    """``k`` indexes drawn without replacement with probability proportional to
    ``exp(log_weights)`` (Gumbel top-k), in index order."""
    keys = []
    for i, lw in enumerate(log_weights):
        u = (rng.below(1 << 53) + 0.5) / (1 << 53)
        keys.append((lw - math.log(-math.log(u)), i))
    keys.sort(reverse=True)
    return sorted(i for _, i in keys[:k])


class HardBot:
    """Determinized Monte-Carlo search; see the module docstring.

    Up to ``determinizations`` deals are searched per decision, fewer when many cards are
    still in play (``work`` is the budget in rollout-cards); the budget depends on the
    position only, so the choice is reproducible. ``time_cap`` seconds (None: no cap)
    stops the search early, only when asked for.

    ``inference="model"`` has the opponent model (``model.OpponentModel``) read ``pool``
    deals per deal searched: ``STARTS`` independent draws, weighted and sampled, then
    Metropolis steps from the kept ones (``_refined``), reading at most ``model_cards``
    cards' worth of decisions in all (the model's cost: ``model.judgement_cost`` of each
    hand it reads, per deal read; by default ``MODEL_CARDS_FAST`` or ``MODEL_CARDS_GENERAL`` by
    the profile's generator); ``"uniform"`` searches consistent deals as drawn. ``scoring="settlement"``
    scores a finished sampled deal with the profile's own settlement (``Sim.score``);
    ``"classic"`` with first-out card payment whatever the profile, on the first-out
    transition. ``hard-v1`` is ``inference="uniform", scoring="classic"``: the bot as it
    was before both, kept as a baseline to measure against. ``policy="learned"`` (the
    ``hard-learned`` level) rolls out with the learned policy at every seat
    (``learned.Continuation``) where the profile has weights, with normal's judgement
    where it has none; ``hard`` keeps normal's judgement until the learned rollouts are
    measured better (docs/learning.md)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        determinizations: int = 24,
        min_determinizations: int = 6,
        judge_limit: int = 400,
        work: int = 3600,
        candidates: int = 6,
        policy: str = "judge",
        time_cap: float | None = None,
        solve_cards: int = 7,
        solve_nodes: int = 300,
        proof_samples: int = 8,
        inference: str = "model",
        pool: int = 12,
        model_cards: int | None = None,
        scoring: str = "settlement",
        belief: str = "exact",
        exact_cards: int = HIDDEN_MAX,
        prior: float = PRIOR,
        name: str = "hard",
    ) -> None:
        if policy not in ("judge", "greedy", "learned"):
            raise ValueError(f"unknown rollout policy {policy!r}")
        if inference not in ("model", "uniform"):
            raise ValueError(f"unknown inference {inference!r}")
        if scoring not in ("settlement", "classic"):
            raise ValueError(f"unknown scoring {scoring!r}")
        if belief not in ("exact", "sampled"):
            raise ValueError(f"unknown belief {belief!r}")
        self.seed = seed
        self.determinizations = determinizations
        self.min_determinizations = min_determinizations
        self.judge_limit = judge_limit
        self.work = work
        self.candidates = candidates
        self.policy = policy
        self.time_cap = time_cap
        self.solve_cards = solve_cards
        self.solve_nodes = solve_nodes
        self.proof_samples = proof_samples
        self.inference = inference
        self.pool = pool
        self.model_cards = model_cards
        self.scoring = scoring
        self.belief = belief
        self.exact_cards = exact_cards
        self.prior = prior
        self.name = name
        self.work_done = 0  # rollout plays plus solver nodes of the last decision (tests)
        self.model_work = 0  # the opponent model's judgements (cards read) of the last decision
        self.last_exact = False  # whether the last ``deals`` came from an exact belief

    def deals(self, view: PlayerView, rng: Rng, count: int) -> list[dict[int, int]]:
        """The hidden hands to search: ``count`` deals from the sampler, or with the model
        ``count`` deals of the opponent model's weighted sample, ``pool`` model readings
        each (see ``_refined``). With ``belief="exact"``, late in the deal, every split the
        record allows instead, when they are few (``belief_exact``)."""
        self.last_exact = False
        if self.belief == "exact" and self.inference == "model":
            found = ExactBelief(view, self.exact_cards).deals()
            if found is not None:
                self.last_exact = True
                return pick(found, rng, count)
        sampler = Sampler(view)
        if self.inference == "uniform" or self.pool <= 1:
            return [sampler.sample(rng) for _ in range(count)]
        draws = count * self.pool
        # The model reads each deal's latest plays, as many as ``model_cards`` allows.
        budget = self.model_cards
        if budget is None:
            budget = MODEL_CARDS_FAST if view.profile.classic_generation else MODEL_CARDS_GENERAL
        model = OpponentModel(view, max_cards=budget // draws)
        if not model.facts:
            return [sampler.sample(rng) for _ in range(count)]
        return self._refined(sampler, model, rng, count, draws)

    def _refined(
        self, sampler: Sampler, model: OpponentModel, rng: Rng, count: int, draws: int
    ) -> list[dict[int, int]]:
        """Importance sampling, then Metropolis steps: ``STARTS`` consistent deals are drawn
        per deal wanted and ``count`` of them kept by weight (Gumbel top-k); each kept deal
        then walks by card trades (``Sampler.swap``), a trade taken with probability
        ``min(1, w(new) / w(old))``, until the model has read ``draws`` deals in all.
        Independent draws rarely land where the weight is (the likely hands are few among
        the consistent ones); the walk climbs towards them and samples around them. On
        classic16 positions (docs/strength.md) twelve readings this way put more of the
        searched deals' cards in the right hands than sixteen independent draws weighted,
        and cost less than eight did."""
        first = min(draws, count * STARTS)
        drawn = [sampler.sample(rng) for _ in range(first)]
        weights = [model.log_weight(h) for h in drawn]
        steps = (draws - first) // count
        read = first
        known: dict[tuple[tuple[int, int], ...], float] = {}
        out = []
        for i in gumbel_top(rng, weights, count):
            hands, lw = drawn[i], weights[i]
            taken = tries = 0
            while taken < steps and tries < 20 * steps:
                tries += 1
                new = sampler.swap(hands, rng)
                if new is None:
                    continue
                key = tuple(sorted(new.items()))
                nl = known.get(key)
                if nl is None:
                    nl = known[key] = model.log_weight(new)
                    taken += 1
                    read += 1
                if nl >= lw or rng.below(1 << 30) < math.exp(nl - lw) * (1 << 30):
                    hands, lw = new, nl
            out.append(hands)
        self.model_work += read * model.cards
        return out

    def choose(self, view: PlayerView) -> Move | None:
        if not isinstance(view, PlayerView):
            raise TypeError("the hard bot plays from a PlayerView only")
        start = time.perf_counter()
        self.work_done = 0
        self.model_work = 0
        pos = view.position()
        moves = pos.legal_moves()
        can_pass = pos.can_pass(moves)
        if not moves:
            return None
        if len(moves) == 1 and not can_pass:
            return moves[0]
        judge = Judge(view)
        ranked = judge.rank(moves, can_pass)
        if ranked[0][0] >= SURE:  # going out now, or a sure run of winners
            return ranked[0][1]
        cands = [m for _, m in ranked[: self.candidates]]
        if len(cands) == 1:
            return cands[0]
        means, sure, n = self.search(view, judge, cands, start)
        if sure is not None:
            return cands[sure]
        if means is None:
            return cands[0]  # no complete sample in time: the normal bot's choice
        if self.prior and not self.last_exact:
            gains = learned_gains(view, moves, can_pass, ranked, cands)
            if gains is not None:
                # The network's gain over normal's first choice counts as ``prior``
                # sampled deals more, each scoring the first candidate's mean plus it.
                k = self.prior
                means = [(n * m + k * (means[0] + g)) / (n + k) for m, g in zip(means, gains, strict=True)]
        # Ties go to the normal bot's order (the candidates are in it).
        return cands[max(range(len(cands)), key=lambda i: (means[i], -i))]

    def search(
        self, view: PlayerView, judge: Judge, cands: list[Move | None], start: float
    ) -> tuple[list[float] | None, int | None, int]:
        """Every candidate rolled out in each searched deal: the candidates' mean scores
        (None if no deal was searched in time), the index of a candidate proven to win in
        every deal searched (if there is one), and the deals the means are over."""
        # The random stream depends on the seed and the position only, not on earlier calls.
        rng = Rng(derive_seed(self.seed, len(view.history), view.seat))
        profile = view.profile
        me = view.seat
        legacy = self.scoring == "classic"
        first_out = legacy or profile.end == "first_out"
        totals = [0.0] * len(cands)
        solving = size_of(judge.hand) <= self.solve_cards
        proven = [0] * len(cands)
        # A rollout costs about one unit per card still in play: size the fixed budget by
        # the position (not the clock), so early, long rollouts get fewer samples.
        # A judgement's cost grows faster than its hand beyond 16 cards (``judgement_cost``;
        # two packs: 27), so then a card in play weighs more.
        big = max(view.hand_sizes)
        cost = sum(view.hand_sizes) * judgement_cost(big) / big  # one rollout, in rollout-cards
        dets = max(
            self.min_determinizations, min(self.determinizations, int(self.work // (len(cands) * cost)))
        )
        # Very big tables (two packs, four players) roll out with the fast greedy policy.
        policy = self.policy if len(cands) * cost <= self.judge_limit else "greedy"
        net = learned_policy(view) if policy == "learned" else None
        if policy == "learned" and net is None:
            policy = "judge"  # no weights for the profile: normal's judgement plays on
        public = played_by_seat(view) if net is not None else []
        done = 0
        out_of_time = False
        searched = self.deals(view, rng, dets)
        proof_at = min(self.proof_samples, len(searched))  # an exact belief may hold fewer
        for det, hands in enumerate(searched, 1):
            base = Sim.legacy_from_view(view, hands) if legacy else Sim.from_view(view, hands)
            solver = Solver(me, [o for o in range(base.n) if o != me and base.sizes[o]]) if solving else None
            scores = [0.0] * len(cands)
            for i, cand in enumerate(cands):
                if self.time_cap is not None and time.perf_counter() - start > self.time_cap:
                    out_of_time = True  # this sample is dropped: every candidate counts alike
                    break
                sim = base.clone()
                sim.advance(cand)
                played: str | Policy = policy
                if net is not None:
                    played = learned_rollout(net, public, me, cand)
                won = None
                if solver is not None:
                    won = solver.wins(sim.clone(), self.solve_nodes)
                    self.work_done += self.solve_nodes - max(0, solver.budget)
                if won:
                    proven[i] += 1
                self.work_done += rollout(sim, played)
                score = sim.legacy_score(me) if legacy else sim.score(me)
                if won and first_out and sim.winner != me:
                    score = max(score, base.legacy_out_now(me) if legacy else base.out_now(me))
                scores[i] = score
            if out_of_time:
                break
            done = det
            for i, score in enumerate(scores):
                totals[i] += score
            if solving and done == proof_at:
                sure = [i for i in range(len(cands)) if proven[i] == done]
                if sure:  # a forced win in every deal consistent with what we know
                    return None, sure[0], done
                solving = False  # no sure win: the rollouts decide (the proofs cost time)
        if done == 0:
            return None, None, 0
        return [t / done for t in totals], None, done


def learned_gains(
    view: PlayerView,
    moves: list[Move],
    can_pass: bool,
    ranked: list[tuple[float, Move | None]],
    cands: list[Move | None],
) -> list[float] | None:
    """The learned value's gain of each candidate over the first (normal's choice), in
    points, or None where no network plays the profile (the search then stands alone).
    Imported here: numpy is loaded only by a search that uses it."""
    from pdk.bots.learned import scored
    from pdk.bots.value_net import WeightsError, shipped

    try:
        net = shipped(view.profile.name)
    except WeightsError:
        return None
    choices, _, _, values = scored(net, view, moves, can_pass, ranked)
    value = {m: float(v) for m, v in zip(choices, values, strict=True)}
    first = value[cands[0]]
    return [value[m] - first for m in cands]


def learned_policy(view: PlayerView) -> ValueNet | None:
    """The network whose policy plays on in ``policy="learned"`` rollouts: the profile's
    (the same as the prior's), or None where no weights play it."""
    from pdk.bots.value_net import WeightsError, shipped

    try:
        return shipped(view.profile.name)
    except WeightsError:
        return None


def played_by_seat(view: PlayerView) -> list[int]:
    """What each seat has played (the learned policy's record starts from it)."""
    from pdk.bots.features import played_by

    return played_by(view)


def learned_rollout(net: ValueNet, public: list[int], seat: int, cand: Move | None) -> Policy:
    """The learned policy for one rollout after ``seat`` plays ``cand`` (imported here:
    numpy is loaded only by a search that uses it)."""
    from pdk.bots.learned import Continuation

    return Continuation.after(net, public, seat, cand)


def hard_learned(seed: int = 0) -> HardBot:
    """``hard-learned``: the hard bot whose rollouts play every seat with the learned
    policy (``learned.Continuation``, the profile's weights) instead of normal's
    judgement (issue 40): a stronger model of the table than normal's, measured against
    ``hard`` before it could replace it."""
    return HardBot(seed, policy="learned", name="hard-learned")


def hard_exact(seed: int = 0) -> HardBot:
    """``hard-exact``: the hard bot with exact beliefs late in the deal but without the
    learned prior: issue 27's first stage alone, kept to measure it by."""
    return HardBot(seed, belief="exact", prior=0, name="hard-exact")


def hard_v2(seed: int = 0) -> HardBot:
    """The pinned baseline ``hard-v2``: the hard bot before issue 27, i.e. the
    model-weighted sample in every position and no learned prior."""
    return HardBot(seed, belief="sampled", prior=0, name="hard-v2")


def hard_v1(seed: int = 0) -> HardBot:
    """The pinned baseline ``hard-v1``: uniform consistent deals, first-out card payment."""
    return HardBot(seed, inference="uniform", scoring="classic", belief="sampled", prior=0, name="hard-v1")
