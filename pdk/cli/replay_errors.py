"""Why a record cannot be replayed, in the player's language.

``pdk.record`` raises ``RecordError`` with one English line. For ``--lang zh`` this module
recognises those lines and says them in 中文; for an illegal play it re-plays the record up
to that move and asks the rules for the reason in the chosen language. A line it does not
recognise is shown as it is (English), never dropped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pdk.cards import CardParseError
from pdk.i18n import Lang, register, tr
from pdk.record import RecordError, from_dict
from pdk.rules import IllegalPlay, resolve_cards

register(
    {
        "rpe_no_file": ("no such file", "文件不存在"),
        "rpe_no_game": ("no game {k} (the file holds {n})", "没有第 {k} 局（文件共 {n} 局）"),
        "rpe_json": ("invalid JSON at line {line} column {col}", "JSON 格式错误（第 {line} 行第 {col} 列）"),
        "rpe_not_record": ("not a pdk game record", "不是 pdk 牌谱"),
        "rpe_version": (
            "unsupported record version {v} (this pdk reads {r})",
            "不支持的牌谱版本 {v}（本程序读取版本 {r}）",
        ),
        "rpe_deal_missing": ("the deal is missing", "缺少发牌信息"),
        "rpe_plays_missing": ("the plays are missing", "缺少出牌记录"),
        "rpe_deal_bad": ("deal: {detail}", "发牌信息有误：{detail}"),
        "rpe_over": ("move {n}: the deal was already over", "第 {n} 手：本局已经结束"),
        "rpe_turn": (
            "move {n}: seat {seat} played out of turn (seat {turn} to move)",
            "第 {n} 手：座位 {seat} 不该出牌（应由座位 {turn} 出牌）",
        ),
        "rpe_illegal": ("move {n}: illegal: {reason}", "第 {n} 手不合法：{reason}"),
        "rpe_move_bad": ("move {n}: {detail}", "第 {n} 手：{detail}"),
        "rpe_malformed": ("move {n}: malformed entry", "第 {n} 手：记录格式错误"),
        "rpe_unfinished": (
            "record ends after move {n} but the deal is not over",
            "牌谱在第 {n} 手后结束，但本局尚未结束",
        ),
        "rpe_settlement": (
            "the settlement {got} does not match the plays (it is {want})",
            "结算 {got} 与出牌记录不符（应为 {want}）",
        ),
    }
)

_SIMPLE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"no such file"), "rpe_no_file"),
    (re.compile(r"no game (?P<k>\d+) \(the file holds (?P<n>\d+)\)"), "rpe_no_game"),
    (re.compile(r"invalid JSON at line (?P<line>\d+) column (?P<col>\d+)"), "rpe_json"),
    (re.compile(r"not a pdk game record"), "rpe_not_record"),
    (re.compile(r"unsupported record version (?P<v>.+) \(this pdk reads (?P<r>\d+)\)"), "rpe_version"),
    (re.compile(r"the deal is missing"), "rpe_deal_missing"),
    (re.compile(r"the plays are missing"), "rpe_plays_missing"),
    (re.compile(r"deal: (?P<detail>.+)"), "rpe_deal_bad"),
    (re.compile(r"move (?P<n>\d+): the deal was already over"), "rpe_over"),
    (re.compile(r"move (?P<n>\d+): malformed entry"), "rpe_malformed"),
    (
        re.compile(r"move (?P<n>\d+): seat (?P<seat>\d+) played out of turn \(seat (?P<turn>\d+) to move\)"),
        "rpe_turn",
    ),
    (re.compile(r"record ends after move (?P<n>\d+) but the deal is not over"), "rpe_unfinished"),
    (
        re.compile(r"the settlement (?P<got>.+) does not match the plays \(it is (?P<want>.+)\)"),
        "rpe_settlement",
    ),
]
_ILLEGAL = re.compile(r"move (?P<n>\d+): illegal: .+")
_MOVE = re.compile(r"move (?P<n>\d+): (?P<detail>.+)")


def localize(message: str, path: Path, lang: Lang, data: Any = None) -> str:
    """``message`` (a ``RecordError`` line, usually prefixed by the path) in ``lang``.

    ``data`` is the decoded record, needed only to restate an illegal play's reason.
    """
    if lang == "en":
        return message
    prefix = f"{path}: "
    body = message[len(prefix) :] if message.startswith(prefix) else message
    lead = prefix if message.startswith(prefix) else ""
    m = _ILLEGAL.fullmatch(body)
    if m:
        reason = illegal_reason(data, int(m["n"]), lang)
        if reason is not None:
            return lead + tr("rpe_illegal", lang, n=m["n"], reason=reason)
    for pattern, key in _SIMPLE:
        m = pattern.fullmatch(body)
        if m:
            return lead + tr(key, lang, **m.groupdict())
    m = _MOVE.fullmatch(body)
    if m:
        return lead + tr("rpe_move_bad", lang, **m.groupdict())
    return message


def illegal_reason(data: Any, number: int, lang: Lang) -> str | None:
    """Re-play the record up to move ``number`` and ask the rules why that move is refused."""
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        return None
    plays = data["plays"]
    if not 1 <= number <= len(plays):
        return None
    head = {**data, "plays": plays[: number - 1], "result": None}
    try:
        state = from_dict(head).replay()
        entry = plays[number - 1]
        cards = (
            None if entry.get("pass") else resolve_cards(str(entry.get("cards", "")), state.hands[state.turn])
        )
        state.play(cards)
    except IllegalPlay as exc:
        return exc.message(lang)
    except (RecordError, CardParseError, AttributeError, TypeError, ValueError):
        return None
    return None


def decoded(path: Path, game: int | None) -> Any:
    """The record's JSON, read again for ``illegal_reason`` (None when it cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8")
        if game is not None:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            text = lines[game - 1]
        return json.loads(text)
    except (OSError, UnicodeDecodeError, IndexError, json.JSONDecodeError):
        return None
