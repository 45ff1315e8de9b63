"""Hard bots weighing the learned value's gain as a prior (``HardBot(prior=K)``), for paired
strength runs against ``hard-v2``, with a memo of searches shared in the process.

A prior changes only the last step of a decision (which candidate the means pick), never
the search: at the same position and seed every variant here rolls out the same deals.
So each search is kept, keyed by the position, and a bot reaching a position another has
searched reuses it; the plays are exactly those of the bots alone, only the time changes.
``bench_paired.py`` plays a deal's games in one process, so the memo spans A's and B's.

    python benchmarks/bench_paired.py --a benchmarks/experiments/prior.py:prior24 \\
        --b benchmarks/experiments/prior.py:hard_v2 --out /tmp/prior24.jsonl
"""

from __future__ import annotations

from pdk.bots.hard import HardBot
from pdk.bots.normal import Judge
from pdk.engine.combos import Move
from pdk.engine.state import PlayerView

Key = tuple[object, ...]
Found = tuple[tuple[list[float] | None, int | None, int], bool]
_MEMO: dict[Key, Found] = {}


def key(view: PlayerView) -> Key:
    plays = tuple((a.seat, None if a.play is None else tuple(a.play.cards)) for a in view.history)
    return (view.profile.name, view.seat, view.hand, plays)


class Memo(HardBot):
    """A hard bot whose searches are shared through ``_MEMO``. A search that did not use
    an exact belief is the sampled search's very computation (the same deals from the same
    random stream), so it is kept for the sampled bots too."""

    def search(
        self, view: PlayerView, judge: Judge, cands: list[Move | None], start: float
    ) -> tuple[list[float] | None, int | None, int]:
        sampled = (self.seed, self.candidates, *key(view))
        own = sampled if self.belief == "sampled" else (*sampled, self.belief, self.exact_cards)
        found = _MEMO.get(own)
        if found is None:
            if len(_MEMO) > 40_000:
                _MEMO.clear()
            found = _MEMO[own] = (super().search(view, judge, cands, start), self.last_exact)
            if not self.last_exact:
                _MEMO[sampled] = found
        searched, self.last_exact = found
        return searched


def hard_v2(seed: int = 0) -> HardBot:
    # Every knob pinned: HardBot's defaults are today's hard (exact belief and prior 8).
    return Memo(seed, belief="sampled", prior=0, name="hard-v2")


def prior8(seed: int = 0) -> HardBot:
    return Memo(seed, belief="sampled", prior=8, name="hard-prior8")


def prior24(seed: int = 0) -> HardBot:
    return Memo(seed, belief="sampled", prior=24, name="hard-prior24")


def exact_prior8(seed: int = 0) -> HardBot:
    return Memo(seed, belief="exact", exact_cards=18, prior=8, name="hard-exact-prior8")
