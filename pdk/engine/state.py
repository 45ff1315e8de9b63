"""The game as a state machine: turns, tricks, 报单, the end of a deal, and per-seat views.

``GameState`` holds the whole truth (every hand). It does no I/O. ``position()`` builds
the ``Position`` that ``position.check`` judges, ``play()`` checks and applies, and
``step()`` applies a generated move without re-checking it (the bots' and the
benchmarks' fast path). Bots never see a ``GameState``: they get a ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple, Self, overload

from pdk.engine import counts as C
from pdk.engine.cards import mask_of
from pdk.engine.combos import Move
from pdk.engine.deal import Deal
from pdk.engine.events import Before, Event, said_events
from pdk.engine.generator import generator_for
from pdk.engine.movegen import BOMB, SINGLE
from pdk.engine.playout import Playout
from pdk.engine.position import (
    IllegalPlay,
    Play,
    Position,
    Reason,
    check,
    choose_cards,
    highest_single,
    pick_cards,
    plain_straight,
)
from pdk.engine.profile import Profile
from pdk.engine.settlement import Settlement, settle

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


class Actions(Sequence[Action]):
    """The first ``stop`` actions of a deal from ``start`` on, read from the deal's own
    history list without copying it: the history only ever grows, so the prefix a view was
    given never changes under it. Indexing, slicing, iteration and ``==`` behave as a tuple's."""

    __slots__ = ("_items", "_start", "_stop")

    def __init__(self, items: list[Action], start: int, stop: int) -> None:
        self._items = items
        self._start = start
        self._stop = stop

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(i, slice):
            return tuple(self._items[self._start : self._stop][i])
        n = self._stop - self._start
        if not -n <= i < n:
            raise IndexError("action index out of range")
        return self._items[self._start + i if i >= 0 else self._stop + i]

    def __iter__(self) -> Iterator[Action]:
        return islice(self._items, self._start, self._stop)

    def __reversed__(self) -> Iterator[Action]:
        items = self._items
        return (items[i] for i in range(self._stop - 1, self._start - 1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Actions | tuple | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Actions({tuple(self)!r})"


class PlayerView(NamedTuple):
    """What one seat may know: its own hand and everything public, never another hand.

    A named tuple, built once per turn in O(1): ``history`` and ``trick`` read the deal's
    history in place (``Actions``) instead of copying it. ``legal`` holds the plays the
    engine generated for the seat to move, so the harness generates them once a turn and
    ``position().legal_moves()`` hands them over; a view built by hand (``legal`` None)
    generates them when asked."""

    profile: Profile
    seat: int
    hand: int
    hand_sizes: tuple[int, ...]
    history: Sequence[Action]
    trick: Sequence[Action]
    prev: Move | None
    prev_seat: int | None
    played_any: tuple[bool, ...]
    leader: int
    must_contain: int | None
    legal: Sequence[Move] | None = None
    # The seats out so far, in the order they went out (the first is 头游): public, and the
    # engine's own count, so no face rebuilds it from the history.
    out: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def next_seat(self) -> int:
        """The 下家: the next seat still holding cards (all seats, unless the profile plays
        on after the first player is out)."""
        return next_holding(self.hand_sizes, self.seat)

    def legal_moves(self) -> list[Move]:
        """The seat's legal plays (a fresh list): those the engine handed over, else generated."""
        legal = self.legal
        return list(legal) if legal is not None else self.position().legal_moves()

    def can_pass(self, moves: Sequence[Move]) -> bool:
        """Whether the seat may pass, given its legal plays ``moves``."""
        return generator_for(self.profile).can_pass(self.prev, moves)

    def position(self) -> Position:
        next_has_one = self.hand_sizes[self.next_seat] == 1
        if self.legal is None:
            return Position(self.profile, self.hand, self.prev, next_has_one, self.must_contain)
        return DealtPosition.of(self, next_has_one)


@dataclass(frozen=True, slots=True)
class DealtPosition(Position):
    """A ``Position`` whose legal plays the engine already generated (``PlayerView.legal``):
    ``legal_moves`` returns a fresh list of them instead of generating them again."""

    known: Sequence[Move] = ()

    @classmethod
    def of(cls, view: PlayerView, next_has_one: bool) -> DealtPosition:
        # Fields set directly: the dataclass __init__ and its __post_init__ (which looks up
        # the generator and normalises ``prev``) cost more than the rest of a random turn.
        pos = object.__new__(cls)
        put = object.__setattr__
        put(pos, "profile", view.profile)
        put(pos, "hand", view.hand)
        put(pos, "prev", view.prev)
        put(pos, "next_has_one", next_has_one)
        put(pos, "must_contain", view.must_contain)
        put(pos, "gen", generator_for(view.profile))
        put(pos, "known", view.legal)
        return pos

    def legal_moves(self) -> list[Move]:
        return list(self.known)


class RankState(Playout):
    """A deal on rank counts with every variant rule of its profile: the ``Playout`` core
    plus the finishing order, the seats still in, the bombs played, the 包赔 offence and
    the liable seat, and the lead. No cards, no history: ``GameState`` adds those for a
    real deal, and the hard bot's search plays sampled deals on this directly (``Sim``),
    so neither has fields it cannot fill."""

    __slots__ = (
        "active",
        "bombs_played",
        "first_card",
        "first_out_sweep",
        "leader",
        "liable",
        "offence",
        "order",
        "simple",
    )

    def __init__(self, profile: Profile, counts: list[int], leader: int, first_card: int | None) -> None:
        super().__init__(profile, counts, leader, first_card)
        # The card a first play must contain: the one that made its holder the leader.
        self.first_card = first_card
        self.leader = leader
        # Variant state (``_advance_general``): finishing order, seats still in, bombs
        # played, 包赔 offence (offender, 报单 seat) and the liable seat.
        self.order: list[int] = []
        self.active = profile.players
        self.bombs_played = 0
        self.offence: tuple[int, int] | None = None
        self.liable: int | None = None
        self.first_out_sweep = False
        # Whether the playout transition is this profile's (else ``_advance_general``).
        self.simple = Playout.has_its_transition(profile)

    @property
    def players(self) -> int:
        return self.n

    def next_seat(self, seat: int) -> int:
        """The next seat still holding cards (the 下家 of ``seat``)."""
        return next_holding(self.sizes, seat)

    def _legal_general(self, hand_mask: int) -> list[Move]:
        """``Position.legal_moves`` for variant profiles, without building a Position
        (``hand_mask``: the cards, where straight flushes need suits; 0 on counts alone)."""
        turn = self.turn
        nxt = self.sizes[self.next_seat(turn)] == 1
        moves = self.gen.moves(self.counts[turn], self.prev, nxt, hand_mask=hand_mask)
        card = self.first_card
        if not self.first_need or card is None:
            return moves
        # The first play holds the lead card: its rank, and a straight flush its suit too.
        return [m for m in moves if m.can_hold(card)]

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
                self.order.extend(s for s in range(self.n) if self.sizes[s])
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
        """反春 needs the deal's history: none on counts alone (``GameState`` has it)."""
        return None

    def clone(self) -> Self:
        other = object.__new__(type(self))
        for name in _RANK_SLOTS:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other


class GameState(RankState):
    """One deal in progress: the ``RankState`` of its rank counts plus the cards and the
    history. Mutable for speed; ``clone()`` for search."""

    __slots__ = (
        "deal",
        "hands",
        "history",
        "plain_cards",
        "suited",
        "trick_start",
    )

    def __init__(self, profile: Profile, deal: Deal) -> None:
        first_card = deal.lead_card if profile.lead.must_contain else None
        super().__init__(profile, [C.from_mask(h) for h in deal.hands], deal.leader, first_card)
        self.deal = deal
        self.hands = list(deal.hands)
        self.history: list[Action] = []
        self.trick_start = 0
        self.suited = profile.combinations.straight_flush != "none"
        # Plays take the lowest suits of each rank unless a flush or a lead card decides.
        self.plain_cards = profile.deck.packs == 1 and not self.suited

    # -- queries ---------------------------------------------------------------------------

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
        return [] if self.done else self._legal_general(self.hands[self.turn])

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view, in O(1): the history is shared, not copied. For the seat to move
        it carries the legal plays, generated here once for the bot and the harness."""
        history = self.history
        n = len(history)
        # The generated list is the view's own (generation builds a fresh one each call).
        legal = self.legal_moves() if seat == self.turn and not self.done else None
        return _new(
            PlayerView,
            (
                self.profile,
                seat,
                self.hands[seat],
                tuple(self.sizes),
                Actions(history, 0, n),
                Actions(history, self.trick_start, n),
                self.prev,
                self.prev_seat,
                tuple(self.played_any),
                self.leader,
                None if n else self.first_card,
                legal,
                self.out_order(),
            ),
        )

    def out_order(self) -> tuple[int, ...]:
        """The seats out so far, first out first (``PlayerView.out``)."""
        order = self.order
        if not order:  # the playout transition keeps no order: only the winner goes out
            return () if self.winner is None else (self.winner,)
        return tuple(s for s in order if not self.sizes[s])

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
        counts, kind, top, units, suit = move  # one unpacking: this is every turn's hot path
        if self.plain_cards and (self.history or self.first_card is None):
            mask, cards = pick_cards(hand, counts)
        else:
            lead = None if self.history else self.first_card
            plain = self.suited and plain_straight(self.profile, kind)
            cards = choose_cards(hand, counts, 0 if lead is None else 1 << lead, suit=suit, plain=plain)
            mask = 0
        # tuple.__new__ builds the named tuple without its Python-level __new__ (a third
        # of the cost of a turn's bookkeeping); the fields are the same.
        return self._apply(_new(Play, (cards, kind, top, units)), move, mask)

    def act(self, cards: Sequence[int] | None) -> tuple[Action, tuple[Event, ...]]:
        """``play``, and what it made happen (``pdk.engine.events``): for the faces, never
        the simulations, so the hot paths stay as they are.

        The first play of a seeded deal (seat 0 holds ♠3, which must lead):

        >>> from pdk.engine.deal import deal
        >>> from pdk.engine.position import resolve_cards
        >>> from pdk.variants.registry import load_profile
        >>> profile = load_profile("classic16")
        >>> state = GameState(profile, deal(profile, 1))
        >>> action, events = state.act(resolve_cards("3s", state.hands[0]))
        >>> action.seat, action.play.cards, [type(e).__name__ for e in events], state.turn
        (0, (0,), ['Played'], 1)
        """
        before = self._before()
        action = self.play(cards)
        return action, self._events(before, action)

    def act_move(self, move: Move | None) -> tuple[Action, tuple[Event, ...]]:
        """``step`` (a generated move, suits chosen as the simulations choose them), and
        what it made happen."""
        before = self._before()
        action = self.step(move)
        return action, self._events(before, action)

    def _before(self) -> Before:
        history = self.history
        top: Play | None = None
        for i in range(len(history) - 1, self.trick_start - 1, -1):
            top = history[i].play
            if top is not None:
                break
        out = len(self.order) if self.order else (0 if self.winner is None else 1)
        return Before(self.turn, tuple(self.bomb_bonuses), self.trick_start, top, self.prev_seat, out)

    def _events(self, before: Before, action: Action, settled: bool = True) -> tuple[Event, ...]:
        rules = self.profile.settlement
        return said_events(
            before,
            action.play,
            self.sizes,
            self.bomb_bonuses,
            self.trick_start,
            len(self.history),
            self.order,
            rules.bomb_bonus,
            rules.bomb_bonus_paid_by == "each_other",
            self.settlement() if self.done and settled else None,
        )

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

    def _end_trick(self) -> None:
        super()._end_trick()
        self.trick_start = len(self.history)

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


_RANK_SLOTS = Playout.__slots__ + RankState.__slots__
_STATE_SLOTS = _RANK_SLOTS + GameState.__slots__


def seen_events(view: PlayerView) -> list[tuple[Event, ...]]:
    """What each action of ``view``'s deal so far made happen (``GameState.act``'s events,
    one tuple per action of ``view.history``), from what that seat may see alone.

    The actions are replayed as played, unchecked, on a deal that holds the seat's own
    hand and, for every other seat, the cards it has played plus as many unseen cards as
    it still holds: the ends of tricks, 报单, bombs scoring and the finishing order follow
    from public facts only, so they are the deal's own. ``DealOver`` is left out: 包赔's
    liability turns on whether the offender held a higher single, which no seat sees (the
    settlement comes from the table that holds the deal). An outside engine is told its
    deal this way (``pdk.bots.protocol.Narrator``), since a bot gets nothing but its view."""
    profile, history = view.profile, view.history
    played = [0] * view.players
    for action in history:
        if action.play is not None:
            played[action.seat] |= mask_of(action.play.cards)
    own = view.hand | played[view.seat]
    unseen = mask_of(profile.deck_cards) & ~own
    for mask in played:
        unseen &= ~mask
    hands = []
    for seat, mask in enumerate(played):
        if seat == view.seat:
            hands.append(own)
            continue
        fill = 0
        for _ in range(view.hand_sizes[seat]):
            low = unseen & -unseen
            fill |= low
            unseen ^= low
        hands.append(mask | fill)
    leader = history[0].seat if history else view.leader
    state = GameState(profile, Deal(tuple(hands), unseen, leader, view.must_contain))
    out = []
    for action in history:
        before = state._before()
        state._apply(action.play)
        out.append(state._events(before, action, settled=False))
    return out
