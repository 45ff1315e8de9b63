"""The hard bots for paired strength runs, with a shared memo that spares ``hard-v2`` the
searches ``hard`` has already made. (Written when the hard bot still had a 2.5 s
wall-clock cap by default; these bots never had one, so a busy machine did not cut their
searches short. Since issue 22 the cap is off unless asked for.)

``hard`` and ``hard-v2`` differ only where the exact belief holds (late in a deal); anywhere
else their searches are the same computation (same deals drawn from the same random
stream, same rollouts). ``hard`` records each choice it made without an exact belief, keyed
by the position; ``hard-v2`` at the same position plays it without searching again. The
plays are exactly those of the two bots alone; only the time changes.
``bench_paired.py`` plays a deal's games in one process, so the memo is per deal.

    python benchmarks/bench_paired.py --a benchmarks/experiments/uncapped.py:hard \
        --b benchmarks/experiments/uncapped.py:hard_v2 --out /tmp/stage1.jsonl
"""

from __future__ import annotations

from pdk.bots.hard import HardBot
from pdk.engine.combos import Move
from pdk.engine.deal import Rng
from pdk.engine.state import PlayerView

Key = tuple[object, ...]
_MEMO: dict[Key, Move | None] = {}


def key(view: PlayerView) -> Key:
    plays = tuple((a.seat, None if a.play is None else tuple(a.play.cards)) for a in view.history)
    return (view.profile.name, view.seat, view.hand, plays)


class Recording(HardBot):
    """``hard``, recording the choices it made without an exact belief."""

    exact = False

    def deals(self, view: PlayerView, rng: Rng, count: int) -> list[dict[int, int]]:
        found = super().deals(view, rng, count)
        self.exact = self.last_exact
        return found

    def choose(self, view: PlayerView) -> Move | None:
        self.exact = False
        move = super().choose(view)
        if not self.exact:
            if len(_MEMO) > 20_000:
                _MEMO.clear()
            _MEMO[(self.seed, *key(view))] = move
        return move


class Reading(HardBot):
    """``hard-v2``, playing ``hard``'s recorded choice where there is one."""

    def choose(self, view: PlayerView) -> Move | None:
        k = (self.seed, *key(view))
        if k in _MEMO:
            return _MEMO[k]
        return super().choose(view)


def hard(seed: int = 0) -> HardBot:
    return Recording(seed, belief="exact", exact_cards=14, name="hard")


def hard18(seed: int = 0) -> HardBot:
    """``hard`` with exact beliefs from 18 hidden cards on (instead of 14)."""
    return Recording(seed, belief="exact", exact_cards=18, name="hard-exact18")


def hard_v2(seed: int = 0) -> HardBot:
    return Reading(seed, belief="sampled", name="hard-v2")
