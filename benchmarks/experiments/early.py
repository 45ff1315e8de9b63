"""Hard bots that spend more rollouts early in the deal, where no exact belief can hold:
the issue's idea of moving the work the exact belief saves late (a few listed splits
instead of a weighted sample) to the positions where the sample is all there is.

While the opponents hold more hidden cards than the exact belief lists (18), the search's
work budget is ``early`` rollout-cards instead of 3,600 and at least ``least`` deals are
searched; from there on it is today's ``hard``.

    python benchmarks/bench_paired.py --a benchmarks/experiments/early.py:early5400 \\
        --b hard --deals 300 --out /tmp/early.jsonl
"""

from __future__ import annotations

from pdk.bots.hard import HardBot
from pdk.bots.infer import Sampler
from pdk.bots.normal import Judge
from pdk.engine.combos import Move
from pdk.engine.state import PlayerView


class EarlyHard(HardBot):
    def __init__(self, seed: int, early: int, least: int, name: str) -> None:
        super().__init__(seed, name=name)
        self.early = early
        self.least = least

    def search(
        self, view: PlayerView, judge: Judge, cands: list[Move | None], start: float
    ) -> tuple[list[float] | None, int | None, int]:
        # The hidden cards counted as the exact belief counts them (a set-aside pile too).
        if sum(Sampler(view).sizes) <= self.exact_cards:
            return super().search(view, judge, cands, start)
        work, least = self.work, self.min_determinizations
        self.work, self.min_determinizations = self.early, self.least
        try:
            return super().search(view, judge, cands, start)
        finally:
            self.work, self.min_determinizations = work, least


def early5400(seed: int = 0) -> HardBot:
    return EarlyHard(seed, 5400, 9, "hard-early5400")
