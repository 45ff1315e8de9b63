"""A deal on rank counts only: the transition the game state, the bots' search and mass
simulation share.

The rules of a trick never look at suits (classic16 and every profile without straight
flushes), so turns, passes, the end of a trick, 报单 (a hand size of 1), bombs scored
when their trick is won and the end of the deal on the first player out need nothing but
each seat's packed rank counts. ``Playout`` holds exactly that. ``GameState`` extends it
with the cards, the history and the variant rules; the hard bot's search runs on it
directly; and mass simulation (``benchmarks/bench_engine.py``, or your own: see the
README) plays whole deals on it without attaching suits to a single play.

``Playout.exact_for(profile)`` says when a playout settles a deal exactly as ``GameState``
would: the first player out ends the deal, bombs score when their trick is won, and
settlement is by cards left without 包赔, bomb doubling or 反春.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from pdk.engine import counts as C
from pdk.engine.cards import rank_of
from pdk.engine.combos import Move
from pdk.engine.deal import Deal
from pdk.engine.generator import Generator, generator_for
from pdk.engine.movegen import BOMB
from pdk.engine.profile import Profile
from pdk.engine.settlement import Settlement, settle


class Playout:
    """Seats' rank counts and the trick in progress; mutable for speed."""

    __slots__ = (
        "bomb_bonuses",
        "counts",
        "done",
        "first_need",
        "gen",
        "n",
        "passes",
        "pending_bomb",
        "played_any",
        "prev",
        "prev_seat",
        "profile",
        "sizes",
        "turn",
        "winner",
    )

    def __init__(
        self, profile: Profile, counts: list[int], leader: int, first_card: int | None = None
    ) -> None:
        """``counts`` per seat (it is kept, not copied); ``first_card`` is the card a first
        play must contain (``lead.must_contain``), if any."""
        self.profile = profile
        self.gen: Generator = generator_for(profile)
        self.n = len(counts)
        self.counts = counts
        self.sizes = [C.total(c) for c in counts]
        self.played_any = [False] * self.n
        self.bomb_bonuses = [0] * self.n
        self.turn = leader
        self.prev: Move | None = None
        self.prev_seat: int | None = None
        self.passes = 0
        self.pending_bomb: int | None = None
        self.winner: int | None = None
        self.done = False
        # The rank the first play must contain, as counts (0: none or already played).
        self.first_need = 0 if first_card is None else C.ONE[rank_of(first_card)]

    @classmethod
    def of_deal(cls, profile: Profile, deal: Deal) -> Playout:
        first = deal.lead_card if profile.lead.must_contain else None
        return cls(profile, [C.from_mask(h) for h in deal.hands], deal.leader, first)

    @staticmethod
    def has_its_transition(profile: Profile) -> bool:
        """Whether ``advance`` is the profile's transition: the first player out ends the
        deal, bombs score when their trick is won, and nothing else needs tracking (no
        包赔 offence, no bomb count for doubling, no finishing order for placement points,
        no suits for straight flushes)."""
        rules = profile.settlement
        return (
            profile.end == "first_out"
            and not profile.rules.bao_pei
            and rules.bomb_bonus_when == "trick_won"
            and not rules.bomb_doubling
            and rules.scheme == "cards_left"
            and profile.combinations.straight_flush == "none"
        )

    @staticmethod
    def exact_for(profile: Profile) -> bool:
        """Whether a playout settles a deal of ``profile`` exactly: its transition, and no
        反春, which needs the deal's history."""
        return Playout.has_its_transition(profile) and profile.settlement.reverse_spring_multiplier <= 1

    @property
    def over(self) -> bool:
        return self.done

    def moves(self) -> list[Move]:
        """The legal plays of the seat to move, as rank counts."""
        if self.done:
            return []
        turn = self.turn
        nxt = self.sizes[(turn + 1) % self.n] == 1
        prev = self.prev
        if prev is not None:
            return self.gen.follows(self.counts[turn], prev, nxt)
        moves = self.gen.leads(self.counts[turn], nxt)
        return self._with_first_card(moves) if self.first_need else moves

    def _with_first_card(self, moves: list[Move]) -> list[Move]:
        """The first play of the deal must contain the lead card: keep the plays holding
        its rank (its holder can always make such a play with that very card)."""
        need = self.first_need
        return [m for m in moves if C.contains(m.counts, need)]

    def can_pass(self, moves: Sequence[Move]) -> bool:
        return not self.done and self.gen.can_pass(self.prev, moves)

    def advance(self, move: Move | None) -> None:
        """Apply a legal play (or pass) of the seat to move: the one classic transition."""
        seat = self.turn
        if move is None:
            self.passes += 1
            if self.passes >= self.n - 1:
                self._end_trick()
            else:
                self.turn = (seat + 1) % self.n
            return
        self.first_need = 0
        counts = move.counts
        self.counts[seat] -= counts
        left = self.sizes[seat] = self.sizes[seat] - C.total(counts)
        self.played_any[seat] = True
        self.prev = move
        self.prev_seat = seat
        self.passes = 0
        # A bomb on top of the trick claims the bonus; a higher bomb takes the claim (D5).
        self.pending_bomb = seat if move.kind == BOMB else None
        if not left:
            self.winner = seat
            self.done = True
            if self.pending_bomb is not None:
                self.bomb_bonuses[seat] += 1
            return
        self.turn = (seat + 1) % self.n

    def _end_trick(self) -> None:
        """Everyone else passed: a bomb on top scores, and its player leads again."""
        if self.pending_bomb is not None:
            self.bomb_bonuses[self.pending_bomb] += 1
        self.pending_bomb = None
        assert self.prev_seat is not None
        self.turn = self.prev_seat
        self.prev = None
        self.prev_seat = None
        self.passes = 0

    def clone(self) -> Self:
        """An independent copy, for search (subclasses with state of their own override)."""
        o = object.__new__(type(self))
        o.profile = self.profile
        o.gen = self.gen
        o.n = self.n
        o.counts = self.counts.copy()
        o.sizes = self.sizes.copy()
        o.played_any = self.played_any.copy()
        o.bomb_bonuses = self.bomb_bonuses.copy()
        o.turn = self.turn
        o.prev = self.prev
        o.prev_seat = self.prev_seat
        o.passes = self.passes
        o.pending_bomb = self.pending_bomb
        o.winner = self.winner
        o.done = self.done
        o.first_need = self.first_need
        return o

    def settlement(self) -> Settlement:
        """The deal's settlement (exact when ``exact_for(profile)``)."""
        if not self.done or self.winner is None:
            raise ValueError("the deal is not over")
        return settle(self.profile, self.winner, self.sizes, self.played_any, self.bomb_bonuses)
