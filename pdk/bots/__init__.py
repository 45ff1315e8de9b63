"""AI players. A bot sees only a ``PlayerView`` and returns a generated move or a pass.

``make_bot(name, seed)`` builds any level by name; every bot is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pdk.combos import Move
from pdk.state import PlayerView


class Bot(Protocol):
    """A player: given what its seat may see, pick a legal move (``None`` = pass)."""

    name: str

    def choose(self, view: PlayerView) -> Move | None: ...


BotFactory = Callable[[int], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    def deco(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def bot_names() -> list[str]:
    _load_all()
    return list(_REGISTRY)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by level name (random, easy, normal, hard)."""
    _load_all()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(_REGISTRY)})") from None
    return factory(seed)


def _load_all() -> None:
    # Importing the modules registers their bots; done lazily so importing pdk.bots is cheap.
    from pdk.bots import hard, normal, simple  # noqa: F401
