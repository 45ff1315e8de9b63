"""Every message a player sees, in English and 中文, behind one lookup, and ``Said``, the
one value words travel as.

The engine raises reason codes with parameters; the faces turn them into words here, so no
message exists in one language only (a test walks the catalogue). Whatever has words for a
player — an error, a line of the table model, a combination's kind, a profile's title —
gives them as a ``Said`` (a message key plus its parameters), said in a language only by
``Said.text`` at the face, and sent to the page as the JSON ``Said`` itself defines.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Union

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

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


Param = Union[str, int, float, bool, None, "Said"]


@dataclass(frozen=True, slots=True)
class Said:
    """Words for a player as a value: a message key of the catalogue plus its parameters,
    a parameter being itself a ``Said`` where it is words too (a seat's name inside a
    line), said in the same language. Frozen and comparable, so a test asserts the words a
    face will show without choosing a language, and nothing is translated from English.

    Its JSON is ``{"key": …, "params": {…}}`` (``to_json``); a pydantic field typed
    ``Said`` reads and writes exactly that, so every JSON codec over values holding words
    (``pdk.view.table_model``) needs nothing of its own for them. The page's copy carries
    the words rendered as well (``rendered``)."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, key: str, /, **params: Param) -> Said:
        return cls(key, tuple(params.items()))

    @classmethod
    def own(cls, en: str, zh: str) -> Said:
        """Words that come with their data in both languages (a profile's title): still a
        ``Said``, so they are read like every other message."""
        return cls(OWN_WORDS, (("en", en), ("zh", zh)))

    def text(self, lang: Lang) -> str:
        return tr(self.key, lang, **{k: v.text(lang) if isinstance(v, Said) else v for k, v in self.params})

    def to_json(self) -> dict[str, Any]:
        params = {k: v.to_json() if isinstance(v, Said) else v for k, v in self.params}
        return {"key": self.key, "params": params}

    def rendered(self, lang: Lang) -> dict[str, Any]:
        """The JSON with the words said in ``lang`` beside it, for the page."""
        return self.to_json() | {"text": self.text(lang)}

    @classmethod
    def from_json(cls, data: Any) -> Said:
        """A ``Said`` from its JSON (``to_json`` or ``rendered``); ``ValueError`` otherwise."""
        key, params = (data.get("key"), data.get("params")) if isinstance(data, dict) else (None, None)
        if not isinstance(key, str) or not isinstance(params, dict):
            raise ValueError(f"not words: {excerpt(repr(data))}")
        return cls(key, tuple((str(k), cls._param(v)) for k, v in params.items()))

    @classmethod
    def _param(cls, value: Any) -> Param:
        if isinstance(value, dict):
            return cls.from_json(value)
        if value is None or isinstance(value, str | int | float):
            return value
        raise ValueError(f"not a parameter of words: {excerpt(repr(value))}")

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Read from ``to_json``'s form (or ``rendered``'s); written as ``to_json``, or as
        ``rendered`` when the serialisation's context names a language (``{"lang": "zh"}``)."""
        return core_schema.no_info_plain_validator_function(
            lambda v: v if isinstance(v, Said) else cls.from_json(v),
            serialization=core_schema.plain_serializer_function_ser_schema(_said_json, info_arg=True),
        )


def _said_json(said: Said, info: core_schema.SerializationInfo) -> dict[str, Any]:
    context = info.context
    lang = context.get("lang") if isinstance(context, dict) else None
    return said.to_json() if lang is None else said.rendered(lang)


# The key of words that carry their own text in both languages (``Said.own``).
OWN_WORDS = "said_own"
# A list said as one parameter: its parts with the language's separator (``words``).
_LIST_WORDS = "said_list"


def words(value: object) -> Param:
    """A parameter of a message as words where it has them: an error or anything with a
    ``said`` (a combination's kind, a profile's problem) by its ``Said``, a reason code
    (an ``Enum`` whose value is a message key) by its message, a tuple of such things as
    one list; numbers, strings and ``None`` as they are, anything else as its text."""
    said = getattr(value, "said", None)
    if isinstance(said, Said):
        return said
    if isinstance(value, Enum):
        return Said(value.value)
    if isinstance(value, tuple) and value:
        parts = [words(v) for v in value]
        if all(isinstance(p, Said) for p in parts):
            out = parts[-1]
            for part in reversed(parts[:-1]):
                out = Said.of(_LIST_WORDS, first=part, rest=out)
            return out
    if value is None or isinstance(value, str | int | float | Said):
        return value
    return str(value)


class LocalizedError(Exception):
    """An error a player reads: a reason (an ``Enum`` whose values are message keys) plus
    the facts its message needs. Its words are ``said`` (a ``Said``: a parameter that is
    itself an error, a kind or a reason is said in the same language, see ``words``);
    ``str()`` is the English line and ``message(lang)`` says it in either language.
    ``params`` keeps the facts as raised, for code that reads them.

    Errors raised in a worker process are pickled back to the parent, so they rebuild from
    their attributes rather than from their constructor's arguments.
    """

    def __init__(self, reason: Enum, /, **params: object) -> None:
        self.reason = reason
        self.params = params
        super().__init__(self.message("en"))

    @property
    def said(self) -> Said:
        return Said(self.reason.value, tuple((k, words(v)) for k, v in self.params.items()))

    def message(self, lang: Lang = "en") -> str:
        return self.said.text(lang)

    def __reduce__(self) -> tuple[Callable[..., LocalizedError], tuple[type[LocalizedError], dict[str, Any]]]:
        return _rebuild, (type(self), self.__dict__)


def _rebuild(cls: type[LocalizedError], state: dict[str, Any]) -> LocalizedError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    Exception.__init__(err, err.message("en"))
    return err
