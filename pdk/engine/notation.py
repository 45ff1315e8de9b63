"""What a player's cards mean: the one reading of a typed or tapped play, for every face.

The terminal sends what was typed, the page what was typed or tapped; both come here, so
``3-7`` plays the same everywhere. Plays use the notation of ``pdk moves`` (``334455``,
``T``/``10``, suits optional) plus ranges: ``3-7`` is the straight 34567, ``33-55`` the pair
chain 334455, ``333-444`` the trios of a plane (kickers follow: ``333-444 59``). Ranks written
without suits take the suits that make the play legal, a plain straight before a straight
flush (``Position.cards_for``), and where only straight flushes of several suits fit, the
player is asked to write the suit; written suits are taken as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from pdk.engine import counts as C
from pdk.engine.cards import RANK_CHARS, CardParseError, CardPlace, parse_specs
from pdk.engine.position import Position, resolve_cards
from pdk.text.catalog import LocalizedError, excerpt


class InputReason(Enum):
    """Why typed cards cannot be read; values are message keys."""

    UNREADABLE = "input_unreadable"
    BAD_RANGE = "input_bad_range"
    NOT_IN_HAND = "not_in_hand"


class InputError(LocalizedError, ValueError):
    """A play that cannot be read or is not in the hand."""

    reason: InputReason

    @property
    def key(self) -> str:
        return self.reason.value


_CHAIN = "3456789TJQKA"
_RANGE = re.compile(r"(([3-9TJQKA2])\2*)-(([3-9TJQKA2])\4*)", re.IGNORECASE)


def expand_ranges(text: str) -> str:
    """``3-7`` → ``34567``; ``33-55`` → ``334455``; ``10`` is read as ``T`` first.

    >>> expand_ranges("3-7")
    '34567'
    >>> expand_ranges("99-jj")
    '99TTJJ'
    """
    text = text.replace("10", "T")

    def repl(m: re.Match[str]) -> str:
        left, right = m.group(1).upper(), m.group(3).upper()
        lo, hi = left[0], right[0]
        if len(left) != len(right) or lo not in _CHAIN or hi not in _CHAIN:
            raise InputError(InputReason.BAD_RANGE, text=excerpt(m.group(0)))
        i, j = _CHAIN.index(lo), _CHAIN.index(hi)
        if j <= i:
            raise InputError(InputReason.BAD_RANGE, text=excerpt(m.group(0)))
        return "".join(c * len(left) for c in _CHAIN[i : j + 1])

    out = _RANGE.sub(repl, text)
    if "-" in out:
        raise InputError(InputReason.BAD_RANGE, text=excerpt(text))
    return out


def names_suits(text: str) -> bool:
    """Whether a typed play names any suit (``3s``): then its cards are the ones written."""
    try:
        return any(spec.suit is not None for spec in parse_specs(expand_ranges(text)))
    except (CardParseError, InputError):
        return False


def resolve_input(text: str, hand: int) -> tuple[int, ...]:
    """The physical cards a typed play names, taken from ``hand`` (a card bitmask)."""
    expanded = expand_ranges(text)
    try:
        specs = parse_specs(expanded)
    except CardParseError:
        raise InputError(InputReason.UNREADABLE, text=excerpt(text)) from None
    if not specs:
        raise InputError(InputReason.UNREADABLE, text=excerpt(text))
    try:
        return resolve_cards(expanded, hand, CardPlace.HAND)
    except CardParseError:
        shown = "".join(RANK_CHARS[s.rank] + ("shcd"[s.suit] if s.suit is not None else "") for s in specs)
        raise InputError(InputReason.NOT_IN_HAND, cards=shown) from None


def typed_play(text: str, pos: Position) -> tuple[int, ...]:
    """What a typed play means from ``pos`` (ranks alone: the suits that make it legal)."""
    cards = resolve_input(text, pos.hand)
    if names_suits(text):
        return cards
    return pos.cards_for(C.from_cards(cards)) or cards


def chosen_play(cards: Sequence[str], pos: Position) -> tuple[int, ...]:
    """The cards a player picked (tapped, or a hint taken), each in notation; a card given
    by its rank alone takes its suit as a typed rank does. ``CardParseError`` when a card
    is unreadable or not in the hand."""
    text = "".join(cards)
    chosen = resolve_cards(text, pos.hand, CardPlace.HAND)
    if all(len(c) == 1 for c in cards):
        return pos.cards_for(C.from_cards(chosen)) or chosen
    return chosen


def one_card(text: str) -> str:
    """A card in notation (``3s``, ``T``, ``B``), as the page may send one; ``ValueError``
    otherwise (the request's validation)."""
    try:
        specs = parse_specs(text)
    except CardParseError as exc:
        raise ValueError(str(exc)) from None
    if len(specs) != 1:
        raise ValueError("one card")
    return text


__all__ = [
    "InputError",
    "InputReason",
    "chosen_play",
    "expand_ranges",
    "names_suits",
    "one_card",
    "resolve_input",
    "typed_play",
]
