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

Lang = Literal["en", "zh"]

MESSAGES: dict[str, tuple[str, str]] = {
    # Why a play is refused (rules.Reason values).
    "not_in_hand": ("you do not hold {cards}", "你手里没有 {cards}"),
    "not_a_combination": (
        "{cards} is not a combination",
        "{cards} 不成牌型",
    ),
    "bare_trio": (
        "a trio or plane needs its full kickers unless it is your whole hand",
        "三张或飞机必须带满牌，除非这是你最后一手",
    ),
    "does_not_beat": ("{cards} does not beat {prev}", "{cards} 压不过 {prev}"),
    "must_beat": (
        "you must beat it: you hold a play that beats {prev} (e.g. {example})",
        "有牌必压：你手里有能压过 {prev} 的牌（例如 {example}）",
    ),
    "leader_cannot_pass": ("you lead this trick: you cannot pass", "你是首家出牌，不能不出"),
    "highest_single": (
        "your 下家 has 报单 (one card): a single must be your highest, {high}",
        "下家报单：出单张必须出最大的 {high}",
    ),
    "no_single_under_bao_dan": (
        "your 下家 has 报单 and your highest single {high} does not beat {prev}",
        "下家报单：你最大的单张 {high} 压不过 {prev}，不能出单张",
    ),
    "breaks_bomb": (
        "{cards} breaks your bomb {bomb}: a bomb goes out only as a whole",
        "{cards} 拆了炸弹 {bomb}：炸弹不能拆",
    ),
    "must_contain_lead": (
        "the first play must contain {card}",
        "第一手必须包含 {card}",
    ),
    "game_over": ("the deal is over", "本局已结束"),
    # Combination names (combos.ComboKind labels).
    "kind_single": ("single", "单张"),
    "kind_pair": ("pair", "对子"),
    "kind_pair_chain": ("pair chain", "连对"),
    "kind_straight": ("straight", "顺子"),
    "kind_trio_with_two": ("trio with two", "三带二"),
    "kind_plane": ("plane with wings", "飞机带翅膀"),
    "kind_bomb": ("bomb", "炸弹"),
    # pdk moves
    "moves_title": ("{n} legal plays", "共 {n} 种合法出牌"),
    "moves_can_pass": ("passing is allowed", "可以不出"),
    "moves_cannot_pass_lead": ("you lead: passing is not allowed", "你是首家：不能不出"),
    "moves_cannot_pass_beat": (
        "passing is not allowed: you hold a play that beats it (有牌必压)",
        "不能不出：你有能压过的牌（有牌必压）",
    ),
    "moves_none": ("no play beats it: you must pass", "没有能压过的牌：只能不出"),
    "moves_legal": ("legal: {cards} as {kind}", "合法：{cards}，牌型 {kind}"),
    "moves_illegal": ("illegal: {reason}", "不合法：{reason}"),
    "moves_pass_legal": ("legal: pass", "合法：不出"),
    "col_kind": ("kind", "牌型"),
    "col_cards": ("cards", "出牌"),
}


def register(messages: dict[str, tuple[str, str]]) -> None:
    """Add a feature's messages (each an (English, 中文) pair); keys must be new."""
    clash = MESSAGES.keys() & messages.keys()
    if clash:
        raise ValueError(f"message keys defined twice: {sorted(clash)}")
    MESSAGES.update(messages)


def default_lang() -> Lang:
    """Chinese when the locale says so, English otherwise."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    loc = locale.getlocale()[0] or ""
    return "zh" if loc.lower().startswith("zh") else "en"


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
    if isinstance(value, Enum):
        return tr(value.value, lang)
    return value


def _rebuild(cls: type[LocalizedError], state: dict[str, Any]) -> LocalizedError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    Exception.__init__(err, err.message("en"))
    return err
