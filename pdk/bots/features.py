"""What the learned value reads: one seat's view and one of its choices, as numbers.

The network scores (view, choice) pairs, as DouZero's Deep Monte-Carlo network does: the
choice is part of the input, so one forward pass over every legal choice ranks them all.
Everything is read from a ``PlayerView`` (never another hand), relative to the seat that
chooses, so that one network serves every seat, and on rank counts (suits decide no
combination), so that every profile of three or four players has the same input size:

* the hand, the choice, the hand the choice leaves, the unseen cards (the deck minus the
  hand minus every play), the play to beat: 15 rank counts each, a count scaled by 1/4;
* what each other seat has played, in seat order from the chooser's 下家 (up to three
  seats; a four-seat row for a three-player table stays zero);
* each other seat's size (scaled by the profile's hand size), whether it is on one or two
  cards (报单 decides what may be led), whether it is out;
* the choice's kind, its top rank, its size, whether it passes, goes out, or is a bomb;
  whether the chooser leads, and which seat's play is on the table;
* ``normal``'s judgement of the choice: whether it is normal's first, among its first
  three, its place in normal's order. A hand-written judgement as an input lets a small
  network trained for an hour start from normal's play and learn where normal is wrong,
  instead of learning the game from nothing.

``VERSION`` names this layout; weights trained on another layout are refused
(``value_net``). Change ``VERSION`` whenever the layout changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from pdk.bots.knowledge import deck_counts
from pdk.engine import counts as C
from pdk.engine.cards import NUM_RANKS
from pdk.engine.combos import ComboKind, Move
from pdk.engine.movegen import BOMB
from pdk.engine.profile import Profile
from pdk.engine.state import PlayerView

VERSION = 1
SEATS = 4  # the most seats a profile may have
KINDS = len(ComboKind)
_OTHERS = SEATS - 1
# Offsets of the blocks, in order (see the module docstring).
_RANK_BLOCKS = 5 + _OTHERS  # hand, choice, left, unseen, to beat, played by each other seat
_SEAT_BLOCK = 4  # size, one card, two cards, out
_CHOICE = KINDS + 5  # kind, top, size, pass, out, bomb
_TABLE = 1 + _OTHERS  # leading, whose play is on the table
_NORMAL = 3  # first, among the first three, place
SIZE = _RANK_BLOCKS * NUM_RANKS + _OTHERS * _SEAT_BLOCK + _CHOICE + _TABLE + _NORMAL


def rank_row(counts: int) -> NDArray[np.float32]:
    return np.array([C.count(counts, r) / 4.0 for r in range(NUM_RANKS)], dtype=np.float32)


def played_by(view: PlayerView) -> list[int]:
    """Rank counts of what each seat has played so far (public)."""
    out = [0] * view.players
    for action in view.history:
        if action.play is not None:
            out[action.seat] += C.from_cards(action.play.cards)
    return out


class Encoder:
    """The features of one view's choices: the part every choice shares is built once."""

    def __init__(self, view: PlayerView) -> None:
        self._build(view.profile, view.seat, C.from_mask(view.hand), played_by(view), view.hand_sizes,
                    view.prev, view.prev_seat)  # fmt: skip

    @classmethod
    def at(
        cls,
        profile: Profile,
        seat: int,
        hand: int,
        played_by: Sequence[int],
        sizes: Sequence[int],
        prev: Move | None,
        prev_seat: int | None,
    ) -> Encoder:
        """The same features from a table's parts instead of a view: a deal on rank counts
        (the hard bot's sampled deals, training's rollouts) has no history to read, only
        what each seat has played (``played_by``, rank counts) and the trick. Given the parts
        a view holds, the rows are the view's own (tests check it)."""
        enc = object.__new__(cls)
        enc._build(profile, seat, hand, played_by, sizes, prev, prev_seat)
        return enc

    def _build(
        self,
        profile: Profile,
        me: int,
        hand: int,
        played_by: Sequence[int],
        sizes: Sequence[int],
        prev: Move | None,
        prev_seat: int | None,
    ) -> None:
        n = len(sizes)
        self.hand = hand
        unseen = deck_counts(profile) - hand - sum(played_by)
        size = float(profile.hand_size)
        shared = np.zeros(SIZE, dtype=np.float32)
        shared[0:NUM_RANKS] = rank_row(hand)
        shared[3 * NUM_RANKS : 4 * NUM_RANKS] = rank_row(unseen)
        if prev is not None:
            shared[4 * NUM_RANKS : 5 * NUM_RANKS] = rank_row(prev.counts)
        seats = _RANK_BLOCKS * NUM_RANKS
        for k in range(1, n):
            s = (me + k) % n
            at = (4 + k) * NUM_RANKS
            shared[at : at + NUM_RANKS] = rank_row(played_by[s])
            left = sizes[s]
            row = seats + (k - 1) * _SEAT_BLOCK
            shared[row : row + _SEAT_BLOCK] = (left / size, left == 1, left == 2, left == 0)
        self.choice_at = seats + _OTHERS * _SEAT_BLOCK
        table = self.choice_at + _CHOICE
        shared[table] = prev is None
        if prev_seat is not None and prev_seat != me:
            shared[table + (prev_seat - me) % n] = 1.0
        self.normal_at = table + _TABLE
        self.shared = shared
        self.size = size

    def encode(self, choices: list[Move | None], normal_order: list[Move | None]) -> NDArray[np.float32]:
        """One row per choice (``None`` = pass); ``normal_order`` is normal's ranking of the
        choices, best first (choices it does not list count as its last)."""
        out = np.repeat(self.shared[None, :], len(choices), axis=0)
        place = {m: i for i, m in enumerate(normal_order)}
        last = max(len(normal_order), 1)
        for row, m in zip(out, choices, strict=True):
            counts = 0 if m is None else m.counts
            row[NUM_RANKS : 2 * NUM_RANKS] = rank_row(counts)
            row[2 * NUM_RANKS : 3 * NUM_RANKS] = rank_row(self.hand - counts)
            at = self.choice_at
            if m is None:
                row[at + KINDS + 2] = 1.0
            else:
                row[at + int(m.kind)] = 1.0
                row[at + KINDS] = (m.top + 1) / NUM_RANKS
                row[at + KINDS + 1] = C.total(counts) / self.size
                row[at + KINDS + 3] = counts == self.hand
                row[at + KINDS + 4] = m.kind == BOMB
            i = place.get(m, last)
            row[self.normal_at : self.normal_at + _NORMAL] = (i == 0, i < 3, i / last)
        return out
