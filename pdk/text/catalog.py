"""Every message a player sees, in English and 中文, behind one lookup.

The engine raises reason codes with parameters; the CLI turns them into words here, so no
message exists in one language only (a test walks the catalogue).
"""

from __future__ import annotations

import locale
import os
from collections.abc import Callable
from enum import Enum
from typing import Any, Literal

from pdk.text.messages import (
    analysis,
    bots,
    cards,
    combos,
    common,
    engines,
    hints,
    hostile,
    ladder,
    match,
    play,
    profile,
    record,
    replay,
    replay_view,
    rooms,
    rules,
    scale,
    selfplay,
    session,
    table_model,
    train,
    usage,
    variants,
    web,
)

Lang = Literal["en", "zh"]


def _catalogue() -> dict[str, tuple[str, str]]:
    """Every part's messages in one table; a key defined twice is a bug caught at import."""
    out: dict[str, tuple[str, str]] = {}
    for part in _PARTS:
        clash = out.keys() & part.keys()
        if clash:
            raise ValueError(f"message keys defined twice: {sorted(clash)}")
        out.update(part)
    return out


_PARTS = (
    bots.MESSAGES,
    cards.MESSAGES,
    combos.MESSAGES,
    profile.MESSAGES,
    record.MESSAGES,
    rules.MESSAGES,
    match.MESSAGES,
    scale.MESSAGES,
    session.MESSAGES,
    common.MESSAGES,
    engines.MESSAGES,
    hostile.MESSAGES,
    ladder.MESSAGES,
    usage.MESSAGES,
    replay.MESSAGES,
    replay_view.MESSAGES,
    selfplay.MESSAGES,
    variants.MESSAGES,
    play.MESSAGES,
    hints.MESSAGES,
    table_model.MESSAGES,
    train.MESSAGES,
    web.MESSAGES,
    analysis.MESSAGES,
    rooms.MESSAGES,
)
MESSAGES: dict[str, tuple[str, str]] = _catalogue()


def default_lang() -> Lang:
    """Chinese when the locale says so, English otherwise."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    loc = locale.getlocale()[0] or ""
    return "zh" if loc.lower().startswith("zh") else "en"


def excerpt(text: str, limit: int = 60) -> str:
    """At most ``limit`` characters of what a user typed or a file held, for a message:
    a 40,000-character card string is quoted by its start, not echoed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tr(key: str, lang: Lang, **params: object) -> str:
    en, zh = MESSAGES[key]
    return (zh if lang == "zh" else en).format(**params)


class LocalizedError(Exception):
    """An error a player reads: a reason (an ``Enum`` whose values are message keys) plus
    the facts its message needs. ``str()`` is the English line and ``message(lang)`` says
    it in either language, so nothing is ever translated from English text.

    A parameter that is itself a ``LocalizedError`` (the rules' reason inside a record
    error, say) is said in the same language; one that is an ``Enum`` names a message.
    Errors raised in a worker process are pickled back to the parent, so they rebuild from
    their attributes rather than from their constructor's arguments.
    """

    def __init__(self, reason: Enum, /, **params: object) -> None:
        self.reason = reason
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: Lang = "en") -> str:
        return tr(self.reason.value, lang, **{k: _said(v, lang) for k, v in self.params.items()})

    def __reduce__(self) -> tuple[Callable[..., LocalizedError], tuple[type[LocalizedError], dict[str, Any]]]:
        return _rebuild, (type(self), self.__dict__)


def _said(value: object, lang: Lang) -> object:
    if isinstance(value, LocalizedError):
        return value.message(lang)
    said = getattr(value, "said", None)  # a thing that names itself (a combination kind)
    if callable(said):
        return said(lang)
    if isinstance(value, Enum):
        return tr(value.value, lang)
    return value


def _rebuild(cls: type[LocalizedError], state: dict[str, Any]) -> LocalizedError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    Exception.__init__(err, err.message("en"))
    return err
