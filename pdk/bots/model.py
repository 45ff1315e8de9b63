"""An opponent model for the hard bot's inference: how likely each observed play was, for a
sampled hand.

The model is the ``normal`` bot's judgement softened into probabilities. For an observed
decision of an opponent, and a sampled hand, the hand it held then is known (today's hand
plus what it has played since); the table then is public (the trick, every seat's size,
报单, what had been played), read by replaying the history through the engine (``Sim.replay``).
``normal``'s ``Judge`` scores every legal play from that hand, and the play made gets the
probability ``exp(beta * score) / sum(exp(beta * scores))``. A deal's log-weight is the sum
of the log-probabilities of the decisions read. A hand from which the play made was the
natural one (a planned group, a loose card beating a single) scores high; a hand that would
have led a straight instead of a lone 3, or beaten with a loose 9 instead of splitting a
pair of 8s, scores low — and, unlike a score of the play alone, the hand's other choices
count: a play is likely when it was among the best *that hand* had.

Forced choices (one legal play) say nothing, and a play that went out is no choice worth
reading; both are skipped. ``beta`` sets how much the model
trusts that opponents play like ``normal``: it is sharp enough to read normal-like players
and soft enough that a human's different taste lowers a deal's weight, not to zero.
``benchmarks/bench_inference.py`` measures how well it ranks the true hands among sampled ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pdk.bots.infer import Sampler
from pdk.bots.knowledge import Knowledge, deck_counts
from pdk.bots.normal import Judge
from pdk.bots.sim import Sim
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng
from pdk.engine.state import PlayerView

BETA = 3.0  # log-probability per unit of normal's score (bench_inference.py --beta)
RECENT = 6  # decisions read per opponent, the latest first (older ones: bigger hands, dearer)
BIG_HAND = 16  # hands up to this size cost a judgement about one unit per card
_SURE = 1e5  # normal's scores at or above this are "going out" or "a sure run out"
_SURE_MARGIN = 2.0  # ... softened to this far above the best ordinary score
_UNLISTED = 3.0  # a play normal does not even score (a trimmed kicker choice): this far below


def judgement_cost(cards: int) -> int:
    """What one normal judgement of a hand of ``cards`` costs, in cards: about one per card
    (a play for each group, valued by the planner) up to ``BIG_HAND``; beyond, the plays
    and the hands they leave both grow (two packs: 27 cards, a lead of 60 plays), so the
    cost grows with the square. The hard bot sizes its model reading and its judged
    rollouts by it."""
    return cards if cards <= BIG_HAND else cards * cards // BIG_HAND


@dataclass(frozen=True, slots=True)
class PlayFact:
    """Seat ``seat`` played ``move`` and has played ``later`` since (rank counts), so its
    hand just before was today's hand plus ``move.counts`` plus ``later``. ``table`` is the
    deal just before the play (other seats' cards in it are placeholders), ``played`` the
    rank counts every seat had played by then."""

    seat: int
    move: Move
    later: int
    table: Sim
    played: int


def play_facts(view: PlayerView, recent: int = RECENT, max_cards: int | None = None) -> list[PlayFact]:
    """The latest ``recent`` plays of every other seat (not a play that went out), with
    the table each was made at; with ``max_cards``, only the latest of them whose
    ``judgement_cost`` adds up to no more than that."""
    history = view.history
    wanted: dict[int, int] = {}  # history index -> rank counts the seat played after it
    later: dict[int, int] = {}
    taken: dict[int, int] = {}
    for i in range(len(history) - 1, -1, -1):
        action = history[i]
        seat, play = action.seat, action.play
        if play is None or seat == view.seat:
            continue
        since = later.get(seat, 0)
        later[seat] = since + C.from_cards(play.cards)
        if since == 0 and view.hand_sizes[seat] == 0:
            continue  # its last play: going out is no choice worth reading
        if taken.get(seat, 0) < recent:
            then = judgement_cost(view.hand_sizes[seat] + C.total(later[seat]))
            if max_cards is not None:
                if then > max_cards:
                    break
                max_cards -= then
            taken[seat] = taken.get(seat, 0) + 1
            wanted[i] = since
    if not wanted:
        return []
    # Any deal consistent with the record replays the public table; its hidden cards are
    # placeholders that the facts never read.
    placeholder = Sampler(view).sample(Rng(0))
    facts: list[PlayFact] = []
    played = 0
    for i, table in enumerate(Sim.replay(view, placeholder)):
        if i == len(history):
            break
        action = history[i]
        if i in wanted and action.play is not None:
            facts.append(PlayFact(action.seat, action.play.move, wanted[i], table.clone(), played))
        if action.play is not None:
            played += C.from_cards(action.play.cards)
    return facts


class OpponentModel:
    """Log-weights of sampled deals under normal's softened policy; see the module docstring."""

    def __init__(
        self, view: PlayerView, beta: float = BETA, recent: int = RECENT, max_cards: int | None = None
    ) -> None:
        self.profile = view.profile
        self.beta = beta
        self.facts = play_facts(view, recent, max_cards)
        # The model's work per deal weighed: the judgement cost of every hand read.
        self.cards = sum(judgement_cost(f.table.sizes[f.seat]) for f in self.facts)
        self.deck = deck_counts(view.profile)

    def log_weight(self, hands: dict[int, int]) -> float:
        """The log-probability of every decision read, for these hidden hands."""
        return sum(self.log_prob(f, hands[f.seat] + f.move.counts + f.later) for f in self.facts)

    def judged(self, fact: PlayFact, hand: int) -> list[tuple[float, Move | None]] | None:
        """Normal's ranking of every choice the seat had at ``fact``, had it held ``hand``
        then (best first), or None when the choice was forced."""
        table = fact.table
        table.counts[fact.seat] = hand
        moves = table.moves()
        can_pass = table.can_pass(moves)
        if len(moves) + can_pass <= 1:
            return None
        view = table.table_view(fact.seat)
        know = Knowledge(view, hand=hand, unseen=self.deck - hand - fact.played)
        return Judge(view, know).rank(moves, can_pass)

    def log_prob(self, fact: PlayFact, hand: int) -> float:
        """log P(the play made | the seat held ``hand`` then), under the softened policy."""
        ranked = self.judged(fact, hand)
        if ranked is None:
            return 0.0
        ordinary = [s for s, _ in ranked if s < _SURE]
        best = max(ordinary, default=0.0)
        scores = [best + _SURE_MARGIN if s >= _SURE else s for s, _ in ranked]
        made = next((s for s, (_, m) in zip(scores, ranked, strict=True) if m == fact.move), None)
        if made is None:
            made = min(scores) - _UNLISTED
        beta = self.beta
        top = max(scores)
        norm = math.log(sum(math.exp(beta * (s - top)) for s in scores))
        return beta * (made - top) - norm
