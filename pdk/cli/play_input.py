"""What the player types at the ``pdk play`` prompt: a command or a play.

A play is passed on as typed: the table service reads it (``pdk.engine.notation``, the one
reading of cards for every face).

Commands exist in English and Chinese. Two single letters are also ranks: lowercase
``a`` and ``q`` are the 托管 and quit commands, uppercase ``A`` and ``Q`` are cards (a
single ace or queen); every other spelling of a card is case-insensitive.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Cmd(Enum):
    PLAY = "play"
    PASS = "pass"
    HINT = "hint"
    COUNTER = "counter"
    HELP = "help"
    QUIT = "quit"
    AUTO = "auto"
    AUTO_PASS = "auto_pass"
    AUTO_LEVEL = "auto_level"
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
    "l": Cmd.AUTO_LEVEL,
    "level": Cmd.AUTO_LEVEL,
    "托管难度": Cmd.AUTO_LEVEL,
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


__all__ = [
    "PASS_WORDS",
    "Cmd",
    "Command",
    "parse_command",
]
