"""A position in one line of text (FEN-like): what ``pdk advise`` reads, what ``pdk moves
--position`` judges and what a 残局 puzzle is stored as. The format (docs/position.md):

    VARIANT TURN HANDS PLAYED BEAT [bombs:B0,B1,...]

* ``VARIANT``: the profile's name (``classic16``).
* ``TURN``: the seat to move, from 0.
* ``HANDS``: every seat's hand from seat 0, separated by ``/``: cards in the usual
  notation (``3s3h4d`` or unsuited ``334``) or ``#N`` for a hidden hand of N cards. The
  seat to move shows its cards; the others may be hidden (a seat's own view) or shown (an
  open-handed puzzle). ``#0`` is a seat that is out.
* ``PLAYED``: every card played before the play on the table, by anyone, or ``-``.
* ``BEAT``: ``-`` when the seat to move leads, else ``S:cards``: the play on the table and
  the seat that made it. The seats between that one and the seat to move passed.
* ``bombs:``: bombs each seat has already been paid for (optional; none if left out).

Cards written without suits take suits in turn (as ``pdk moves`` does); ``format`` writes
every card with its suit, so ``format(parse(t))`` is the canonical form of ``t``. Who has
played is read from the sizes (a seat holding fewer than a full hand has played), so
全关 is scored right; the first play of a deal (nothing played) must contain the lead
card when the profile says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pdk.engine import counts as C
from pdk.engine.cards import CardParseError, CardPlace, cards_of, format_cards, mask_of, parse_specs
from pdk.engine.combos import Move, classify, move_of, preferred_lead
from pdk.engine.deal import lead_order
from pdk.engine.position import Play, is_one_suit, resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import Action, PlayerView
from pdk.text.catalog import LocalizedError, excerpt

HIDDEN = "#"
NONE = "-"
BOMBS = "bombs:"


class PositionReason(Enum):
    """Why a position text cannot be read; values are message keys."""

    FIELDS = "pos_fields"
    TURN = "pos_turn"
    SEATS = "pos_seats"
    COUNT = "pos_count"
    CARDS = "pos_cards"
    SIZE = "pos_size"
    TOTAL = "pos_total"
    HIDDEN_TURN = "pos_hidden_turn"
    BEAT = "pos_beat"
    NOT_COMBO = "pos_not_combo"
    BEAT_SEAT = "pos_beat_seat"
    BOMBS = "pos_bombs"
    OVER = "pos_over"


class PositionError(LocalizedError, ValueError):
    """A position text that does not describe a position of its profile."""

    reason: PositionReason


@dataclass(frozen=True)
class TablePosition:
    """One position: whose turn, every hand (a card mask, or None when hidden), the sizes,
    the cards played before the play on the table, that play and its seat, bombs paid."""

    profile: Profile
    turn: int
    hands: tuple[int | None, ...]
    sizes: tuple[int, ...]
    played: int
    beat: tuple[int, ...] | None
    beat_seat: int | None
    bombs: tuple[int, ...]

    @property
    def prev(self) -> Move | None:
        return None if self.beat is None else beat_move(self.profile, self.beat, flush_ok=True)

    @property
    def hand(self) -> int:
        hand = self.hands[self.turn]
        assert hand is not None
        return hand

    def unseen_counts(self) -> int:
        """Rank counts of the cards the seat to move has not seen (other hands, set aside)."""
        deck = sum(n * C.ONE[r] for r, n in enumerate(self.profile.rank_totals))
        out = self.played | mask_of(self.beat or ())
        return deck - C.from_mask(self.hand) - C.from_cards(cards_of(out))

    def view(self) -> PlayerView:
        """The seat's view of this position. It has no history (the text holds none): the
        trick holds the play on the table and the passes after it, so the turn order of
        the trick is right; the caller counts unseen cards with ``unseen_counts``."""
        n = len(self.sizes)
        prev = self.prev
        trick: tuple[Action, ...] = ()
        if self.beat is not None and self.beat_seat is not None and prev is not None:
            play = Play(self.beat, prev.kind, prev.top, prev.units)
            passed = []
            s = (self.beat_seat + 1) % n
            while s != self.turn:
                if self.sizes[s]:
                    passed.append(Action(s, None))
                s = (s + 1) % n
            trick = (Action(self.beat_seat, play), *passed)
        played_any = tuple(self.sizes[s] < self.profile.hand_size or s == self.beat_seat for s in range(n))
        must = None
        if not self.played and self.beat is None and self.profile.lead.must_contain:
            must = next((c for c in lead_order(self.profile) if self.hand >> c & 1), None)
        return PlayerView(self.profile, self.turn, self.hand, self.sizes, (), trick, prev,
                          self.beat_seat, played_any, self.beat_seat if self.beat_seat is not None
                          else self.turn, must)  # fmt: skip

    def format(self) -> str:
        hands = "/".join(
            f"{HIDDEN}{size}" if hand is None else (format_cards(cards_of(hand), suits=True) or f"{HIDDEN}0")
            for hand, size in zip(self.hands, self.sizes, strict=True)
        )
        played = format_cards(cards_of(self.played), suits=True) or NONE
        beat = NONE if self.beat is None else f"{self.beat_seat}:{format_cards(self.beat, suits=True)}"
        parts = [self.profile.name, str(self.turn), hands, played, beat]
        if any(self.bombs):
            parts.append(BOMBS + ",".join(map(str, self.bombs)))
        return " ".join(parts)


def variant_of(text: str) -> str:
    """The profile name a position text starts with (the caller loads the profile)."""
    fields = text.split()
    if not fields:
        raise PositionError(PositionReason.FIELDS, text=excerpt(text))
    return fields[0]


def beat_move(profile: Profile, cards: tuple[int, ...], *, flush_ok: bool) -> Move | None:
    """The play on the table, read as a lead would be (D2); None when it is no play.
    ``flush_ok``: one-suit cards may read as a straight flush (their suits were given)."""
    flush = profile.combinations.straight_flush != "none" and flush_ok and is_one_suit(cards)
    counts = C.from_cards(cards)
    readings = classify(profile, counts, whole_hand=False, flush=flush)
    if not readings:
        return None
    return move_of(counts, preferred_lead(readings))


def parse(text: str, profile: Profile) -> TablePosition:
    """Read a position text (see the module docstring); ``PositionError`` says what is
    wrong in one line. ``format`` writes it back, and the seat to move's view plays on:

    >>> from pdk.variants.registry import load_profile
    >>> played = "3c3d4c4d5s5h5c6s6h6c7s7h8s8h8c9s9h9c9dThTdJsJcJdQsQhQcKsKhKcKdAhAcAd2s"
    >>> text = f"classic16 2 #7/#1/3s3h4s4h5d {played} -"
    >>> table = parse(text, load_profile("classic16"))
    >>> table.turn, table.sizes, table.format() == text
    (2, (7, 1, 5), True)
    >>> [m.notation() for m in table.view().position().legal_moves()]
    ['3', '4', '5', '33', '44', '3344']
    """
    fields = text.split()
    bombs: tuple[int, ...] = (0,) * profile.players
    if len(fields) == 6 and fields[5].startswith(BOMBS):
        bombs = _bombs(fields.pop()[len(BOMBS) :], profile.players)
    if len(fields) != 5:
        raise PositionError(PositionReason.FIELDS, text=excerpt(text))
    _, turn_text, hands_text, played_text, beat_text = fields
    n = profile.players
    if not turn_text.isdigit() or not 0 <= int(turn_text) < n:
        raise PositionError(PositionReason.TURN, value=excerpt(turn_text), last=n - 1)
    turn = int(turn_text)
    parts = hands_text.split("/")
    if len(parts) != n:
        raise PositionError(PositionReason.SEATS, got=len(parts), want=n)
    left = mask_of(profile.deck_cards)
    hands: list[int | None] = []
    sizes: list[int] = []
    for seat, part in enumerate(parts):
        if part.startswith(HIDDEN):
            count = part[len(HIDDEN) :]
            if not count.isdigit():
                raise PositionError(PositionReason.COUNT, seat=seat, value=excerpt(part))
            hands.append(None if int(count) else 0)
            sizes.append(int(count))
        else:
            cards = _cards(part, left, f"{seat}")
            left &= ~mask_of(cards)
            hands.append(mask_of(cards))
            sizes.append(len(cards))
        if sizes[-1] > profile.hand_size:
            raise PositionError(PositionReason.SIZE, seat=seat, n=sizes[-1], most=profile.hand_size)
    if not sizes[turn] or hands[turn] is None:
        raise PositionError(PositionReason.HIDDEN_TURN, seat=turn)
    beat: tuple[int, ...] | None = None
    beat_seat: int | None = None
    if beat_text != NONE:
        seat_text, colon, cards_text = beat_text.partition(":")
        if not colon or not seat_text.isdigit() or not 0 <= int(seat_text) < n:
            raise PositionError(PositionReason.BEAT, value=excerpt(beat_text))
        beat_seat = int(seat_text)
        if beat_seat == turn:
            raise PositionError(PositionReason.BEAT_SEAT, seat=turn)
        beat = _cards(cards_text, left, "beat")
        left &= ~mask_of(beat)
        suited = all(spec.suit is not None for spec in parse_specs(cards_text))
        if beat_move(profile, beat, flush_ok=suited) is None:
            raise PositionError(PositionReason.NOT_COMBO, cards=format_cards(beat))
    played = 0 if played_text == NONE else mask_of(_cards(played_text, left, "played"))
    out = len(cards_of(played)) + len(beat or ())
    if out != sum(profile.hand_size - s for s in sizes):
        raise PositionError(PositionReason.TOTAL, out=out, want=sum(profile.hand_size - s for s in sizes))
    if (profile.end == "first_out" and 0 in sizes) or sum(1 for s in sizes if s) < 2:
        raise PositionError(PositionReason.OVER)
    return TablePosition(profile, turn, tuple(hands), tuple(sizes), played, beat, beat_seat, bombs)


def _cards(text: str, available: int, where: str) -> tuple[int, ...]:
    try:
        return resolve_cards(text, available, CardPlace.DECK, spread=True)
    except CardParseError as exc:
        raise PositionError(PositionReason.CARDS, where=where, detail=exc) from None


def _bombs(text: str, n: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != n or not all(p.isdigit() and int(p) < 100 for p in parts):
        raise PositionError(PositionReason.BOMBS, value=excerpt(text))
    return tuple(int(p) for p in parts)


def of_view(view: PlayerView, bombs: tuple[int, ...] | None = None) -> TablePosition:
    """The position of a seat's view (other hands hidden), with the bombs paid so far when
    the caller knows them (a view does not say)."""
    played = 0
    for action in view.history:
        if action.play is not None:
            played |= mask_of(action.play.cards)
    hands = tuple(view.hand if s == view.seat else (None if view.hand_sizes[s] else 0)
                  for s in range(view.players))  # fmt: skip
    beat = None
    if view.prev is not None:
        top = next(a for a in reversed(view.trick) if a.play is not None)
        assert top.play is not None
        beat = tuple(top.play.cards)
        played &= ~mask_of(beat)
    return TablePosition(view.profile, view.seat, hands, tuple(view.hand_sizes), played, beat,
                         view.prev_seat, bombs or (0,) * view.players)  # fmt: skip
