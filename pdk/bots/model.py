"""An opponent model for the hard bot's inference: how likely each observed play was, for a
sampled hand.

A player plans a hand into groups and plays them (``Planner.value``, the normal bot's
judgement); a play that breaks the plan — a single 3 led out of a straight, a pair split
to beat a single — is one that player rarely makes. So a sampled hand is weighted by how
well each play it made fits its plan: for every play, the planner's value of the hand
after it minus the value before (the *plan gain*; playing a planned group gains about one
play, breaking a straight or a pair loses a lot), and the deal's log-weight is
``beta`` times the sum. The gain is not normalised over the hand's other choices (that
would cost a move generation and a planner call per legal play, per sampled deal), so the
model is a likelihood up to a factor per hand; ``benchmarks/bench_inference.py`` measures
how well it ranks the true hands among sampled ones.

Only the public record is read: the plays, and the sampled hands they came from (today's
hand plus what the seat has played since).
"""

from __future__ import annotations

from dataclasses import dataclass

from pdk.bots.plan import Planner, planner_for
from pdk.engine import counts as C
from pdk.engine.generator import generator_for
from pdk.engine.state import PlayerView

BETA = 1.0  # log-weight per play of plan gain (benchmarks/bench_inference.py: --beta)
RECENT = 8  # plays read per opponent, the latest first (older ones: bigger hands, dearer)


@dataclass(frozen=True, slots=True)
class PlayFact:
    """Seat ``seat`` played ``counts`` and has played ``later`` since (rank counts), so its
    hand just before was today's hand plus ``counts`` plus ``later``."""

    seat: int
    counts: int
    later: int


def play_facts(view: PlayerView, recent: int = RECENT) -> list[PlayFact]:
    """The latest ``recent`` plays of every other seat that did not take it out."""
    facts: list[PlayFact] = []
    later: dict[int, int] = {}
    taken: dict[int, int] = {}
    for action in reversed(view.history):
        seat, play = action.seat, action.play
        if play is None or seat == view.seat:
            continue
        counts = C.from_cards(play.cards)
        since = later.get(seat, 0)
        later[seat] = since + counts
        if since == 0 and view.hand_sizes[seat] == 0:
            continue  # its last play: going out is no choice worth reading
        if taken.get(seat, 0) < recent:
            taken[seat] = taken.get(seat, 0) + 1
            facts.append(PlayFact(seat, counts, since))
    return facts


class OpponentModel:
    """Log-weights of sampled deals under the plan-gain model; see the module docstring."""

    def __init__(self, view: PlayerView, beta: float = BETA, recent: int = RECENT) -> None:
        self.plan: Planner = planner_for(generator_for(view.profile))
        self.beta = beta
        self.facts = play_facts(view, recent)

    def log_weight(self, hands: dict[int, int]) -> float:
        """``beta`` times the plan gain of every play read, for these hidden hands."""
        value = self.plan.value
        gain = 0.0
        for f in self.facts:
            after = hands[f.seat] + f.later
            gain += value(after) - value(after + f.counts)
        return self.beta * gain
