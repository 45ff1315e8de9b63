"""The game as a state machine: turns, tricks, 报单, the end of a deal, and per-seat views.

``GameState`` holds the whole truth (every hand). It does no I/O. ``position()`` builds
the ``Position`` that ``rules.check`` judges, ``play()`` checks and applies, and
``step()`` applies a generated move without re-checking it (the bots' and the
benchmarks' fast path). Bots never see a ``GameState``: they get a ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Self

from pdk.engine import counts as C
from pdk.engine.cards import mask_of
from pdk.engine.combos import ComboKind, Move
from pdk.engine.deal import Deal
from pdk.engine.movegen import BOMB, SINGLE
from pdk.engine.playout import Playout
from pdk.engine.profile import Profile
from pdk.engine.rules import (
    IllegalPlay,
    Play,
    Position,
    Reason,
    check,
    choose_cards,
    highest_single,
    pick_cards,
    suited_for,
)
from pdk.engine.settlement import Settlement, settle

_KINDS = list(ComboKind)
_new = tuple.__new__


class Action(NamedTuple):
    """One turn: a play, or a pass (``play is None``)."""

    seat: int
    play: Play | None


def next_holding(sizes: Sequence[int], seat: int) -> int:
    """The first seat after ``seat`` that still holds cards (``seat`` if none does)."""
    n = len(sizes)
    s = (seat + 1) % n
    while sizes[s] == 0 and s != seat:
        s = (s + 1) % n
    return s


# A pass is immutable, so each seat (profiles seat 2-4 players) shares one.
_PASSES = [Action(seat, None) for seat in range(4)]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know: its own hand and everything public, never another hand."""

    profile: Profile
    seat: int
    hand: int
    hand_sizes: tuple[int, ...]
    history: tuple[Action, ...]
    trick: tuple[Action, ...]
    prev: Move | None
    prev_seat: int | None
    played_any: tuple[bool, ...]
    leader: int
    must_contain: int | None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def next_seat(self) -> int:
        """The 下家: the next seat still holding cards (all seats, unless the profile plays
        on after the first player is out)."""
        return next_holding(self.hand_sizes, self.seat)

    def position(self) -> Position:
        return Position(
            self.profile,
            self.hand,
            self.prev,
            self.hand_sizes[self.next_seat] == 1,
            self.must_contain,
        )


class GameState(Playout):
    """One deal in progress: the ``Playout`` core plus the cards, the history and the
    variant rules. Mutable for speed; ``clone()`` for search."""

    __slots__ = (
        "active",
        "bombs_played",
        "deal",
        "first_card",
        "first_out_sweep",
        "hands",
        "history",
        "leader",
        "liable",
        "offence",
        "order",
        "plain_cards",
        "simple",
        "suited",
        "trick_start",
    )

    def __init__(self, profile: Profile, deal: Deal) -> None:
        # The card a first play must contain: the one that made its holder the leader.
        self.first_card = deal.lead_card if profile.lead.must_contain else None
        super().__init__(profile, [C.from_mask(h) for h in deal.hands], deal.leader, self.first_card)
        self.deal = deal
        self.hands = list(deal.hands)
        self.leader = deal.leader
        self.history: list[Action] = []
        self.trick_start = 0
        # Variant state (``_advance_general``): finishing order, seats still in, bombs
        # played, 包赔 offence (offender, 报单 seat) and the liable seat.
        self.order: list[int] = []
        self.active = profile.players
        self.bombs_played = 0
        self.offence: tuple[int, int] | None = None
        self.liable: int | None = None
        self.first_out_sweep = False
        self.suited = profile.combinations.straight_flush != "none"
        # Plays take the lowest suits of each rank unless a flush or a lead card decides.
        self.plain_cards = profile.deck.packs == 1 and not self.suited
        # Whether the playout transition is this profile's (else ``_advance_general``).
        self.simple = Playout.has_its_transition(profile)

    # -- queries ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands)

    def next_seat(self, seat: int) -> int:
        """The next seat still holding cards (the 下家 of ``seat``)."""
        return next_holding(self.sizes, seat)

    def _must_contain(self) -> int | None:
        if self.history:
            return None
        return self.first_card

    def position(self) -> Position:
        nxt = self.next_seat(self.turn)
        return Position(
            self.profile,
            self.hands[self.turn],
            self.prev,
            self.sizes[nxt] == 1,
            self._must_contain(),
        )

    def legal_moves(self) -> list[Move]:
        """The fast path for bots: generated plays for the seat to move."""
        if self.simple:
            return self.moves()
        return [] if self.done else self._legal_general()

    def _legal_general(self) -> list[Move]:
        """``Position.legal_moves`` for variant profiles, without building a Position."""
        turn = self.turn
        nxt = self.sizes[self.next_seat(turn)] == 1
        moves = self.gen.moves(self.counts[turn], self.prev, nxt, hand_mask=self.hands[turn])
        return self._with_first_card(moves) if self.first_need else moves

    def view(self, seat: int) -> PlayerView:
        return PlayerView(
            profile=self.profile,
            seat=seat,
            hand=self.hands[seat],
            hand_sizes=tuple(self.sizes),
            history=tuple(self.history),
            trick=tuple(self.history[self.trick_start :]),
            prev=self.prev,
            prev_seat=self.prev_seat,
            played_any=tuple(self.played_any),
            leader=self.leader,
            must_contain=self._must_contain(),
        )

    # -- transitions -----------------------------------------------------------------------

    def play(self, cards: Sequence[int] | None) -> Action:
        """Check a play (or pass) for the seat to move and apply it."""
        if self.done:
            raise IllegalPlay(Reason.GAME_OVER)
        return self._apply(check(self.position(), cards))

    def step(self, move: Move | None) -> Action:
        """Apply a generated move (or pass) without re-checking it."""
        if move is None:
            return self._apply(None)
        hand = self.hands[self.turn]
        if self.plain_cards and (self.history or self.first_card is None):
            mask, cards = pick_cards(hand, move.counts)
        else:
            lead = None if self.history else self.first_card
            suited = suited_for(self.profile, move.kind) if self.suited else 0
            cards = choose_cards(hand, move.counts, 0 if lead is None else 1 << lead, suited=suited)
            mask = 0
        # tuple.__new__ builds the named tuple without its Python-level __new__ (a third
        # of the cost of a turn's bookkeeping); the fields are the same.
        return self._apply(_new(Play, (cards, _KINDS[move.kind], move.top, move.units)), move, mask)

    def _apply(self, play: Play | None, move: Move | None = None, mask: int = 0) -> Action:
        """Record the action, take the cards from the hand, and advance: by the playout's
        transition when it is this profile's, else by ``_advance_general``."""
        seat = self.turn
        if play is None:
            action = _PASSES[seat]
        else:
            action = _new(Action, (seat, play))
            self.hands[seat] &= ~(mask or mask_of(play.cards))
            if move is None:
                move = play.move
        self.history.append(action)
        if self.simple:
            self.advance(move)
        else:
            self._advance_general(move)
        return action

    def _advance_general(self, move: Move | None) -> None:
        """The transition for variant knobs: play on after the first player is out
        (placement), bombs scored when played or doubling the deal, 包赔 offences."""
        seat = self.turn
        if move is None:
            self.passes += 1
            assert self.prev_seat is not None
            # Everyone still in, except the player on top of the trick, must pass.
            needed = self.active - (1 if self.sizes[self.prev_seat] else 0)
            if self.passes >= needed:
                self._end_trick()
            else:
                self.turn = self.next_seat(seat)
            return
        profile = self.profile
        target = self.next_seat(seat)
        if profile.rules.bao_pei:
            if self.offence is not None and self.offence[0] == seat:
                self.offence = None  # the offender has played again: the chance has passed
            if (
                move.kind == SINGLE
                and self.sizes[target] == 1
                and move.top != highest_single(profile, self.counts[seat])
            ):
                self.offence = (seat, target)
        self.first_need = 0
        self.counts[seat] -= move.counts
        self.sizes[seat] -= C.total(move.counts)
        self.played_any[seat] = True
        self.prev = move
        self.prev_seat = seat
        self.passes = 0
        is_bomb = move.kind == BOMB
        if is_bomb:
            self.bombs_played += 1
        if profile.settlement.bomb_bonus_when == "played":
            if is_bomb:
                self.bomb_bonuses[seat] += 1
            self.pending_bomb = None
        else:
            self.pending_bomb = seat if is_bomb else None
        if self.sizes[seat] == 0:
            if self.winner is None:
                self.winner = seat
                self.first_out_sweep = not any(p for s, p in enumerate(self.played_any) if s != seat)
                if self.offence is not None and self.offence[1] == seat:
                    self.liable = self.offence[0]
            self.order.append(seat)
            self.active -= 1
            if profile.end == "first_out" or self.active <= 1:
                if self.pending_bomb is not None:
                    self.bomb_bonuses[self.pending_bomb] += 1
                    self.pending_bomb = None
                self.order.extend(s for s in range(len(self.hands)) if self.sizes[s])
                self.done = True
                return
        self.turn = self.next_seat(seat)

    def _end_trick(self) -> None:
        top = self.prev_seat
        assert top is not None
        super()._end_trick()
        if not self.sizes[top]:
            self.turn = self.next_seat(top)  # the player on top is out: the next one still in leads
        self.leader = self.turn
        self.trick_start = len(self.history)

    def settlement(self) -> Settlement:
        if not self.done or self.winner is None:
            raise ValueError("the deal is not over")
        return settle(
            self.profile,
            self.winner,
            self.sizes,
            self.played_any,
            self.bomb_bonuses,
            order=self.order,
            bombs_played=self.bombs_played,
            liable=self.liable,
            first_out_sweep=self.first_out_sweep,
            spring_seat=self._spring_seat()
            if self.profile.settlement.reverse_spring_multiplier > 1
            else None,
        )

    def _spring_seat(self) -> int | None:
        """反春: the first leader, if every play they made was in the opening trick."""
        leader = self.deal.leader
        passes = 0
        end = len(self.history)
        for i, action in enumerate(self.history):
            if action.play is not None:
                passes = 0
                continue
            passes += 1
            if passes >= len(self.hands) - 1:
                end = i
                break
        if any(a.seat == leader and a.play is not None for a in self.history[end + 1 :]):
            return None
        return leader

    def clone(self) -> Self:
        other = object.__new__(type(self))
        for name in _STATE_SLOTS:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other


_STATE_SLOTS = Playout.__slots__ + GameState.__slots__
