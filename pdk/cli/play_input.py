"""What the player types at the ``pdk play`` prompt: a command or a play.

Plays use the notation of ``pdk moves`` (``334455``, ``T``/``10``, suits optional) plus
ranges: ``3-7`` is the straight 34567, ``33-55`` the pair chain 334455, ``333-444`` the
trios of a plane (kickers follow: ``333-444 59``). Suits are picked from the hand.

Commands exist in English and Chinese. Two single letters are also ranks: lowercase
``a`` and ``q`` are the 托管 and quit commands, uppercase ``A`` and ``Q`` are cards (a
single ace or queen); every other spelling of a card is case-insensitive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from pdk.engine.cards import RANK_CHARS, CardParseError, CardPlace, format_cards, parse_specs
from pdk.engine.position import resolve_cards


class Cmd(Enum):
    PLAY = "play"
    PASS = "pass"
    HINT = "hint"
    COUNTER = "counter"
    HELP = "help"
    QUIT = "quit"
    AUTO = "auto"
    AUTO_PASS = "auto_pass"
    EMPTY = "empty"


@dataclass(frozen=True, slots=True)
class Command:
    kind: Cmd
    text: str = ""


_WORDS: dict[str, Cmd] = {
    "p": Cmd.PASS,
    "pass": Cmd.PASS,
    "不出": Cmd.PASS,
    "过": Cmd.PASS,
    "要不起": Cmd.PASS,
    "h": Cmd.HINT,
    "hint": Cmd.HINT,
    "提示": Cmd.HINT,
    "c": Cmd.COUNTER,
    "counter": Cmd.COUNTER,
    "记牌": Cmd.COUNTER,
    "记牌器": Cmd.COUNTER,
    "?": Cmd.HELP,
    "？": Cmd.HELP,
    "help": Cmd.HELP,
    "帮助": Cmd.HELP,
    "quit": Cmd.QUIT,
    "exit": Cmd.QUIT,
    "退出": Cmd.QUIT,
    "auto": Cmd.AUTO,
    "托管": Cmd.AUTO,
    "x": Cmd.AUTO_PASS,
    "autopass": Cmd.AUTO_PASS,
    "auto-pass": Cmd.AUTO_PASS,
    "自动不出": Cmd.AUTO_PASS,
}
# Case-sensitive: ``A`` and ``Q`` are cards.
_EXACT: dict[str, Cmd] = {"q": Cmd.QUIT, "a": Cmd.AUTO}
# The one list of words that mean "pass", for every command that reads a play.
PASS_WORDS = frozenset(word for word, cmd in _WORDS.items() if cmd is Cmd.PASS)


def parse_command(raw: str) -> Command:
    """Classify one line of input; anything that is not a command is a play to judge."""
    text = raw.strip()
    if not text:
        return Command(Cmd.EMPTY)
    if text in _EXACT:
        return Command(_EXACT[text])
    kind = _WORDS.get(text.lower())
    if kind is not None:
        return Command(kind)
    return Command(Cmd.PLAY, text)


class InputError(ValueError):
    """A play that cannot be read or is not in the hand: a message key and its params."""

    def __init__(self, key: str, **params: str) -> None:
        self.key = key
        self.params = params
        super().__init__(key)


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
            raise InputError("input_bad_range", text=m.group(0))
        i, j = _CHAIN.index(lo), _CHAIN.index(hi)
        if j <= i:
            raise InputError("input_bad_range", text=m.group(0))
        return "".join(c * len(left) for c in _CHAIN[i : j + 1])

    out = _RANGE.sub(repl, text)
    if "-" in out:
        raise InputError("input_bad_range", text=text)
    return out


def names_suits(text: str) -> bool:
    """Whether a typed play names any suit (``3s``): then its cards are the ones written."""
    try:
        return any(spec.suit is not None for spec in parse_specs(expand_ranges(text)))
    except (CardParseError, InputError):
        return False


def resolve_input(text: str, hand: int) -> tuple[int, ...]:
    """The physical cards a typed play means, taken from ``hand`` (a card bitmask)."""
    expanded = expand_ranges(text)
    try:
        specs = parse_specs(expanded)
    except CardParseError:
        raise InputError("input_unreadable", text=text) from None
    if not specs:
        raise InputError("input_unreadable", text=text)
    try:
        return resolve_cards(expanded, hand, CardPlace.HAND)
    except CardParseError:
        shown = "".join(RANK_CHARS[s.rank] + ("shcd"[s.suit] if s.suit is not None else "") for s in specs)
        raise InputError("not_in_hand", cards=shown) from None


__all__ = [
    "Cmd",
    "Command",
    "InputError",
    "expand_ranges",
    "format_cards",
    "names_suits",
    "parse_command",
    "resolve_input",
]
