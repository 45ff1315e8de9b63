"""A sampled deal for the hard bot's search: the engine's own transition and settlement on
rank counts, started from one seat's view with the hidden hands filled in.

``Sim`` is the engine's ``RankState`` (the state a ``GameState`` keeps on rank counts, with
every variant rule, and no cards or record to leave unfilled): ``Sim.from_view`` gives every
seat its hand at the start of the deal (today's sampled or own hand plus everything it has played)
and replays the public history through the engine's transition, so the variant state a
deal carries (the finishing order of play-to-the-last profiles, bombs played for doubling,
the 包赔 offence and liable seat, bombs scored when played or when their trick is won) is
exactly what the engine would hold for that deal. The search then plays on with
``advance`` and scores a finished deal with ``score``: ``RankState.settlement``, i.e. the
engine's one ``settle``, read from the searching seat.

Where the search approximates (said here, once):

* straight flushes (two-deck) need suits; a sampled deal has rank counts only, so the
  search never plays one (the bot itself still may: its candidates come from its real hand);
* 反春 needs the deal's whole record; no shipped profile scores it, and ``Sim`` scores as if
  no 反春 happened.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from pdk.bots.knowledge import Knowledge
from pdk.bots.normal import Judge
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import lead_order
from pdk.engine.movegen import BOMB
from pdk.engine.playout import Playout
from pdk.engine.settlement import settle
from pdk.engine.state import PlayerView, RankState


class Sim(RankState):
    """A deal on rank counts with the profile's own rules; see the module docstring."""

    __slots__ = ()

    @classmethod
    def from_view(cls, view: PlayerView, hands: dict[int, int]) -> Sim:
        """The deal as it stands, given the hidden hands (seat -> rank counts now)."""
        *_, now = cls.replay(view, hands)
        return now

    @classmethod
    def replay(cls, view: PlayerView, hands: dict[int, int]) -> Iterator[Sim]:
        """The deal before each action of the public history, then as it stands: one
        ``Sim``, advanced in place between yields (clone one to keep it). The opponent
        model reads each decision's table this way: the trick, the sizes and 报单 as the
        engine had them."""
        n = view.players
        start = [C.from_mask(view.hand) if s == view.seat else hands.get(s, 0) for s in range(n)]
        for action in view.history:
            if action.play is not None:
                start[action.seat] += C.from_cards(action.play.cards)
        leader = view.history[0].seat if view.history else view.seat
        sim = cls._blank(view, start, leader, _first_card(view))
        for action in view.history:
            yield sim
            sim.advance(None if action.play is None else action.play.move)
        yield sim

    def table_view(self, seat: int) -> PlayerView:
        """What the normal bot's judgement reads of this table from ``seat``: sizes, the
        trick and who has played, with no cards and no history (a sampled deal has
        neither; the caller gives the judgement the hand and the unseen counts)."""
        return PlayerView(self.profile, seat, 0, tuple(self.sizes), (), (), self.prev, self.prev_seat,
                          tuple(self.played_any), 0, None)  # fmt: skip

    def judgement(self, moves: list[Move], can_pass: bool) -> list[tuple[float, Move | None]]:
        """The ``normal`` bot's ranking of the choices of the seat to move (its card counter
        sees the other hands pooled, as it would by counting): what every rollout policy
        that plays normal's judgement, or starts from it, reads."""
        t = self.turn
        view = self.table_view(t)
        know = Knowledge(view, hand=self.counts[t], unseen=sum(self.counts) - self.counts[t])
        return Judge(view, know).rank(moves, can_pass)

    @classmethod
    def legacy_from_view(cls, view: PlayerView, hands: dict[int, int]) -> Sim:
        """``hard-v1``'s deal: the first-out transition from the view's fields, no replay (the
        pinned baseline's search, kept only so that it can be measured against)."""
        n = view.players
        counts = [C.from_mask(view.hand) if s == view.seat else hands.get(s, 0) for s in range(n)]
        sim = cls._blank(view, counts, view.seat, view.must_contain)
        sim.simple = True
        sim.sizes = list(view.hand_sizes)
        sim.played_any = list(view.played_any)
        sim.prev = view.prev
        sim.prev_seat = view.prev_seat
        passes = 0
        for action in reversed(view.trick):
            if action.play is not None:
                break
            passes += 1
        sim.passes = passes
        sim.pending_bomb = view.prev_seat if view.prev is not None and view.prev.kind == BOMB else None
        return sim

    @classmethod
    def _blank(cls, view: PlayerView, counts: list[int], leader: int, first_card: int | None) -> Sim:
        profile = view.profile
        sim = object.__new__(cls)
        RankState.__init__(sim, profile, counts, leader, first_card)
        return sim

    # -- the transition: the engine's, on rank counts ------------------------------------------

    def moves(self) -> list[Move]:
        """The legal plays of the seat to move (the 下家 is the next seat still in)."""
        if self.simple:
            return Playout.moves(self)
        return [] if self.done else self._legal_general(0)  # no suits: see the module docstring

    def advance(self, move: Move | None) -> None:
        if self.simple:
            Playout.advance(self, move)
        else:
            self._advance_general(move)

    def clone(self) -> Sim:
        # The playout core's copy, then the variant state, field by field (the search
        # clones at every rollout: a loop over the slot names costs more).
        o = Playout.clone(self)
        o.first_card = self.first_card
        o.leader = self.leader
        o.order = self.order.copy()
        o.active = self.active
        o.bombs_played = self.bombs_played
        o.offence = self.offence
        o.liable = self.liable
        o.first_out_sweep = self.first_out_sweep
        o.simple = self.simple
        return o

    # -- scores -------------------------------------------------------------------------------

    def score(self, me: int) -> float:
        """What the finished deal pays ``me``: the engine's settlement of the profile."""
        return float(self.settlement().seats[me].total)

    def out_now(self, me: int) -> float:
        """What ``me`` would be paid by going out now, the others keeping today's cards (the
        value of a proven first-out win whose rollout went wrong; first-out profiles only)."""
        sizes = self.sizes.copy()
        sizes[me] = 0
        played = self.played_any.copy()
        played[me] = True
        s = settle(self.profile, me, sizes, played, self.bomb_bonuses, bombs_played=self.bombs_played,
                   liable=self.liable)  # fmt: skip
        return float(s.seats[me].total)

    def legacy_score(self, me: int) -> float:
        """``hard-v1``'s score: classic first-out card payment with 全关 and bomb bonuses,
        whatever the profile's scheme (kept only for the pinned baseline)."""
        s = self.profile.settlement
        n = self.n

        def pays(o: int) -> int:
            return self.sizes[o] * s.per_card * (1 if self.played_any[o] else s.shut_out_multiplier)

        total = 0.0
        w = self.winner
        if w is not None:
            total = float(sum(pays(o) for o in range(n) if o != me)) if w == me else -float(pays(me))
        for o in range(n):
            bonus = self.bomb_bonuses[o] * s.bomb_bonus
            total += bonus * (n - 1) if o == me else -bonus
        return total

    def legacy_out_now(self, me: int) -> float:
        s = self.profile.settlement
        return float(
            sum(self.sizes[o] * s.per_card * (1 if self.played_any[o] else s.shut_out_multiplier)
                for o in range(self.n) if o != me)
        )  # fmt: skip


class Policy(Protocol):
    """A rollout policy given as an object (``hard.rollout`` also takes the names of its
    built-in ones): the choice of the seat to move, among ``moves`` (and a pass, if
    ``can_pass``). It is called once per turn, in order, and the move it returns is the
    one played, so a policy may keep its own record of the deal (the learned policy's
    features count what each seat has played)."""

    def __call__(self, sim: Sim, moves: list[Move], can_pass: bool) -> Move | None: ...


def _first_card(view: PlayerView) -> int | None:
    """The card the deal's first play had to contain (``lead.must_contain``), if any: the
    view's own while nothing is played, else the first card of the lead order the first
    play holds (every card before it in that order was not dealt, or it would have led)."""
    if not view.history:
        return view.must_contain
    play = view.history[0].play
    if not view.profile.lead.must_contain or play is None:
        return None
    cards = {c % 64 for c in play.cards}  # either pack's copy
    return next((c for c in lead_order(view.profile) if c in cards), None)
