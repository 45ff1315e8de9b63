"""The fixed action space of a profile: one action per distinct rank-count play it allows.

An action is a ``(counts, kind)`` pair — which ranks, how many of each, read as which
combination — so two suits of the same play are one action, and cards that read two ways
(a straight that is also a straight flush bomb) are two. The table is built once per profile
by proposing candidate rank multisets by shape (same-rank groups, chains of singles, pairs
and trios, joker pairs, each with kicker sets of the sizes the profile's knobs allow, never
more cards than a hand holds) and asking the rule core (``pdk.engine.combos.classify``) how
each reads: the table holds exactly the readings the rules give, so it cannot disagree with
the engine. Two actions come first:

* ``0`` — **pass**;
* ``1`` — **the whole hand**: a last play the rules allow only because it is the player's
  whole remaining hand (the short last hand: a trio or plane with fewer kickers), which no
  fixed table can list for every hand. Any legal play not in the table is one of these.

Then the table, ordered by card count, then kind, then rank counts. classic16 has 51,429
actions in all.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pdk.engine import counts as C
from pdk.engine.cards import Rank
from pdk.engine.combos import Move, classify
from pdk.engine.movegen import kicker_sets
from pdk.engine.profile import Profile

PASS = 0
WHOLE_HAND = 1
FIRST_PLAY = 2


class ActionTable(NamedTuple):
    """``plays[i - FIRST_PLAY]`` is action ``i`` as (counts, kind); ``ids`` maps back."""

    plays: tuple[tuple[int, int], ...]
    ids: dict[tuple[int, int], int]

    @property
    def size(self) -> int:
        return FIRST_PLAY + len(self.plays)

    def action_of(self, move: Move) -> int:
        """The action of a legal move (``WHOLE_HAND`` for a play only a whole hand makes)."""
        return self.ids.get((move.counts, move.kind), WHOLE_HAND)  # a kind is an int (IntEnum)


def _deck(profile: Profile) -> list[tuple[int, int]]:
    return [(r, n) for r, n in enumerate(profile.rank_totals) if n]


def _kickers(rest: list[tuple[int, int]], sizes: range, pairs: bool) -> list[int]:
    out: list[int] = []
    for k in sizes:
        if pairs:
            if k % 2 == 0:
                out += [2 * s for s in kicker_sets([(r, n // 2) for r, n in rest if n >= 2], k // 2)]
        else:
            out += kicker_sets(rest, k)
    return out


def _candidates(profile: Profile) -> set[tuple[int, bool]]:
    """(rank counts, one suit) multisets worth classifying: a superset of every play."""
    combos = profile.combinations
    deck = _deck(profile)
    most = profile.hand_size
    trio, four, plane = combos.trio, combos.four_with, combos.plane
    out: set[tuple[int, bool]] = set()

    def rest_of(core: int) -> list[tuple[int, int]]:
        return [(r, n - C.count(core, r)) for r, n in deck if n - C.count(core, r) > 0]

    def add(core: int, sizes: range, pairs: bool, flush: bool = False) -> None:
        size = C.total(core)
        if size > most:
            return
        fit = range(sizes.start, min(sizes.stop, most - size + 1))
        for extra in _kickers(rest_of(core), fit, pairs) if len(fit) else [0]:
            out.add((core + extra, flush))

    for r, n in deck:
        for k in range(1, n + 1):
            core = k * C.ONE[r]
            if k == 3:
                add(core, range(0, max(trio.counts) + 1), trio.kicker_kind == "pairs")
            elif k == 4 and four.enabled:
                add(core, range(four.min_kickers, four.max_kickers + 1), four.kicker_kind == "pairs")
            add(core, range(0, 1), False)
    jokers = C.ONE[Rank.BLACK_JOKER] + C.ONE[Rank.RED_JOKER]
    for core in (jokers, 2 * jokers):
        if all(C.count(core, r) <= n for r, n in deck if r >= Rank.BLACK_JOKER) and C.contains(
            sum(n * C.ONE[r] for r, n in deck), core
        ):
            add(core, range(0, 1), False)
    suited = combos.straight_flush != "none"
    for window in combos.chain_windows:
        ones = sum(C.ONE[r] for r in range(Rank.BLACK_JOKER) if window >> r & 1)
        length = window.bit_count()
        for m in (1, 2):
            add(m * ones, range(0, 1), False)
            if m == 1 and suited:
                add(ones, range(0, 1), False, flush=True)
        if plane.enabled:
            high = plane.kickers_per_trio * length
            add(3 * ones, range(0, high + 1), plane.kicker_kind == "pairs")
    return out


@lru_cache(maxsize=32)
def action_table(profile: Profile) -> ActionTable:
    """The profile's action table (built once per profile and process)."""
    deck_counts = sum(n * C.ONE[r] for r, n in _deck(profile))
    plays: set[tuple[int, int]] = set()
    for cand, flush in _candidates(profile):
        if not C.contains(deck_counts, cand):
            continue
        for reading in classify(profile, cand, whole_hand=False, flush=flush):
            plays.add((cand, int(reading.kind)))
    ordered = tuple(sorted(plays, key=lambda p: (C.total(p[0]), p[1], p[0])))
    return ActionTable(ordered, {p: FIRST_PLAY + i for i, p in enumerate(ordered)})


__all__ = ["FIRST_PLAY", "PASS", "WHOLE_HAND", "ActionTable", "action_table"]
