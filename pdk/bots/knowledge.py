"""What a seat can deduce from public information (card counting, 记牌).

Everything here reads a ``PlayerView`` only: the seat's own hand, the hand sizes and the
public history. ``unseen`` is the card counter — per rank, the cards neither in this hand
nor played yet (they are in the other hands, or set aside). ``Knowledge.beatable`` asks
whether the other players, pooled together, could beat a play; a pooled answer is an
over-estimate, which is the safe side for "is this play a sure winner?".
"""

from __future__ import annotations

from pdk.bots.plan import size_of
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.generator import Generator, generator_for
from pdk.engine.movegen import BOMB
from pdk.engine.profile import Profile
from pdk.engine.state import PlayerView


def played_counts(view: PlayerView) -> int:
    """Rank counts of every card played so far, by anyone."""
    total = 0
    for action in view.history:
        if action.play is not None:
            total += C.from_cards(action.play.cards)
    return total


def deck_counts(profile: Profile) -> int:
    """Rank counts of the whole deck the profile deals."""
    deck = 0
    for r, n in enumerate(profile.rank_totals):
        deck += n * C.ONE[r]
    return deck


def unseen_counts(view: PlayerView) -> int:
    """Rank counts of the cards this seat has not seen: the deck minus its hand minus plays."""
    return deck_counts(view.profile) - C.from_mask(view.hand) - played_counts(view)


class Knowledge:
    """The card counter for one decision, with a cache of "can anyone beat this?"."""

    def __init__(
        self,
        view: PlayerView,
        *,
        hand: int | None = None,
        unseen: int | None = None,
    ) -> None:
        """``hand`` and ``unseen`` (rank counts) override what is read from the view: a
        search that plays on inside a sampled deal knows them without a history."""
        self.view = view
        self.gen: Generator = generator_for(view.profile)
        self.hand = C.from_mask(view.hand) if hand is None else hand
        if unseen is None:
            unseen = deck_counts(view.profile) - self.hand - played_counts(view)
        self.unseen = unseen
        seat = view.seat
        self.opponents = [s for s in range(view.players) if s != seat]
        self.opp_sizes = [view.hand_sizes[s] for s in self.opponents]
        self.max_opp = max(self.opp_sizes) if self.opp_sizes else 0
        self.min_opp = min(self.opp_sizes) if self.opp_sizes else 99
        self._beat: dict[tuple[int, int, int, int], bool] = {}
        self._cap: int | None = None
        self._bomb: int | None = None

    def _top_bomb(self) -> int:
        """The highest rank of which four or more are unseen (a possible bomb), or -1."""
        if self._bomb is None:
            self._bomb = max((r for r, k in C.items(self.unseen) if k >= 4), default=-1)
        return self._bomb

    def _capped(self) -> int:
        if self._cap is None:
            cap = 0
            for r, k in C.items(self.unseen):
                cap += min(k, 3) * C.ONE[r]
            self._cap = cap
        return self._cap

    def beatable(self, move: Move, max_size: int | None = None) -> bool:
        """Could some other player beat ``move``, judging by the unseen cards and hand sizes?"""
        n = size_of(move.counts)
        size = self.max_opp if max_size is None else max_size
        key = (move.kind, move.top, move.units, n * 100 + size)
        got = self._beat.get(key)
        if got is not None:
            return got
        result = False
        if size > 0:
            if move.kind != BOMB:
                # Cap the pool at 3 a rank: four pooled cards may sit in two hands, and a
                # possible bomb is judged separately below.
                fewest = self.gen.smallest_follow(self._capped(), move)
                result = fewest is not None and fewest <= size
            if not result and size >= 4 and self.view.profile.bombs.four:
                above = move.top if move.kind == BOMB else -1
                result = self._top_bomb() > above
        self._beat[key] = result
        return result

    def safe(self, move: Move) -> bool:
        """Nobody else can beat ``move``: playing it wins the trick back."""
        return not self.beatable(move)
