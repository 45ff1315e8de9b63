"""The text record: a deal as a person reads it and ``diff`` compares it, and back.

A tag-pair header, as chess's PGN has, then one action a line::

    [Format "pdk-text 1"]
    [Event "selfplay"]
    [Date "????.??.??"]
    [Profile "classic16"]
    [Seed "8351…"]
    [Seat0 "normal"]
    [Seat1 "hard"]
    [Seat2 "random"]
    [Hand0 "3s4h5c…"]
    …
    [Leader "0"]
    [Result "1: +26, 0: -12, 2: -14"]
    [Meta "{\"game\":1,…}"]

    1. S0 3s4h5c6d7s straight
    2. S1 pass
    3. S2 8h9sTcJdQh straight {a comment}

Cards are in pdk's notation with suits; the reading after the cards is checked when the
record is read back. ``{…}`` after a move is a comment (review marks, a note by hand); it is
kept in the record's ``meta["comments"]`` by move number. ``Event``, ``Date`` and the
``Seat`` tags are for the reader: what the record's programs attached is in ``Meta``,
word for word, so reading the text back gives the identical record. ``ProfileData`` holds
the whole profile only when it is not the shipped profile of its name.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pdk.engine.cards import cards_of, format_cards
from pdk.engine.profile import ProfileError
from pdk.engine.record import FORMAT, VERSION, GameRecord, RecordError, RecordReason, from_dict
from pdk.variants.registry import load_profile

TEXT_FORMAT = "pdk-text 1"
_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+S(\d+)\s+(pass|\S+)(?:\s+([a-z_]+))?\s*(?:\{(.*)\})?$")


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def is_text_record(text: str) -> bool:
    """A text record starts with its ``Format`` tag pair; a JSON record with ``{``."""
    return text.lstrip().startswith('[Format "')


def dumps_text(record: GameRecord) -> str:
    meta = dict(record.meta)
    comments = meta.pop("comments", None)
    notes = comments if isinstance(comments, dict) else {}
    if comments is not None and not isinstance(comments, dict):
        meta["comments"] = comments  # not ours to reinterpret: kept in Meta as it was
    seats = meta.get("bots") or meta.get("players") or []
    tags: list[tuple[str, str]] = [
        ("Format", TEXT_FORMAT),
        ("Event", str(meta.get("source", meta.get("event", "pdk")))),
        ("Date", str(meta.get("date", "????.??.??"))),
        ("Profile", record.profile.name),
        ("Seed", "?" if record.seed is None else str(record.seed)),
    ]
    for i in range(record.profile.players):
        tags.append((f"Seat{i}", str(seats[i]) if i < len(seats) else "?"))
    for i, hand in enumerate(record.deal.hands):
        tags.append((f"Hand{i}", format_cards(cards_of(hand), suits=True)))
    tags.append(("SetAside", format_cards(cards_of(record.deal.set_aside), suits=True)))
    tags.append(("Leader", str(record.deal.leader)))
    st = record.settlement
    if st is None:
        tags.append(("Result", "*"))
    else:
        order = sorted(st.seats, key=lambda s: -s.total)
        tags.append(("Result", ", ".join(f"{s.seat}: {s.total:+d}" for s in order)))
    tags.append(("Meta", json.dumps(meta, ensure_ascii=False, separators=(",", ":"))))
    if not _is_shipped(record):
        dumped = json.dumps(record.profile.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
        tags.append(("ProfileData", dumped))
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    lines.append("")
    for n, action in enumerate(record.actions, 1):
        play = action.play
        move = "pass" if play is None else f"{format_cards(play.cards, suits=True)} {play.kind.label}"
        note = notes.get(str(n))
        lines.append(f"{n}. S{action.seat} {move}" + (f" {{{note}}}" if note else ""))
    return "\n".join(lines) + "\n"


def _is_shipped(record: GameRecord) -> bool:
    try:
        return load_profile(record.profile.name) == record.profile
    except ProfileError:
        return False


def loads_text(text: str) -> GameRecord:
    """The record a text record holds, replayed and checked as a JSON record is."""
    tags: dict[str, str] = {}
    plays: list[dict[str, Any]] = []
    comments: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        tag = _TAG.match(line)
        if tag is not None:
            tags[tag.group(1)] = _unquote(tag.group(2))
            continue
        move = _MOVE.match(line)
        if move is None or int(move.group(1)) != len(plays) + 1:
            raise RecordError(RecordReason.MALFORMED, n=len(plays) + 1)
        seat = int(move.group(2))
        if move.group(3) == "pass":
            plays.append({"seat": seat, "pass": True})
        else:
            entry: dict[str, Any] = {"seat": seat, "cards": move.group(3)}
            if move.group(4):
                entry["kind"] = move.group(4)
            plays.append(entry)
        if move.group(5):
            comments[move.group(1)] = move.group(5).strip()
        del number
    if tags.get("Format") != TEXT_FORMAT:
        raise RecordError(RecordReason.NOT_RECORD)
    try:
        meta = json.loads(tags.get("Meta", "{}"))
    except ValueError:
        raise RecordError(RecordReason.NOT_RECORD) from None
    if not isinstance(meta, dict):
        raise RecordError(RecordReason.NOT_RECORD)
    if comments:
        meta["comments"] = comments
    if "ProfileData" in tags:
        try:
            profile_data: Any = json.loads(tags["ProfileData"])
        except ValueError:
            raise RecordError(RecordReason.NOT_RECORD) from None
    else:
        try:
            profile_data = load_profile(tags.get("Profile", "")).model_dump(mode="json")
        except ProfileError as exc:
            raise RecordError(RecordReason.PROFILE, detail=exc) from None
    players = profile_data.get("players", 0) if isinstance(profile_data, dict) else 0
    seed_text = tags.get("Seed", "?")
    leader_text = tags.get("Leader", "")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "profile": profile_data,
        "seed": int(seed_text) if seed_text.isdigit() else None,
        "deal": {
            "hands": [tags.get(f"Hand{i}", "") for i in range(players if isinstance(players, int) else 0)],
            "set_aside": tags.get("SetAside", ""),
            "leader": int(leader_text) if leader_text.isdigit() else None,
        },
        "plays": plays,
        "result": _result(tags.get("Result", "*")),
        "meta": meta,
    }
    if data["deal"]["leader"] is None:
        del data["deal"]["leader"]
    return from_dict(data)


def _result(text: str) -> dict[str, Any] | None:
    """``Result`` as the seats' totals in seat order, for ``from_dict`` to check."""
    if text.strip() == "*":
        return None
    totals: dict[int, int] = {}
    for part in text.split(","):
        seat, _, total = part.partition(":")
        try:
            totals[int(seat)] = int(total)
        except ValueError:
            raise RecordError(RecordReason.SETTLEMENT, got=text, want="?") from None
    return {"seats": [{"seat": s, "total": totals[s]} for s in sorted(totals)]}


__all__ = ["TEXT_FORMAT", "dumps_text", "is_text_record", "loads_text"]
