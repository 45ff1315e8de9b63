"""The outside-engine protocol's messages: what a deal looks like as JSON lines.

An outside engine (a program in any language) plays through one JSON object a line over
its stdin/stdout; ``docs/protocol.md`` is the specification. This module holds every
message pdk sends and the one parser of what an engine answers, and nothing that does
I/O, so the process bot (``pdk.bots.external``), the conformance runner and a later
event-driven table all speak the same messages.

``Narrator`` is the one place that says the engine's events of a deal (``GameState.act``,
or ``seen_events`` over what a seat may see) as event messages: a play with its cards and
reading, a pass, a trick won, 报单 (``bao_dan``, the name the page's JSON and the rules
use), a player out, the deal over.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from pdk.engine import counts as C
from pdk.engine.cards import SUIT_CHARS, CardParseError, cards_of, format_cards, parse_specs, rank_label
from pdk.engine.combos import BOMB, Move, counts_notation
from pdk.engine.events import BaoDan, Event, Passed, Played, PlayerOut, TrickWon
from pdk.engine.profile import Profile
from pdk.engine.state import PlayerView
from pdk.text.catalog import LocalizedError

PROTOCOL_VERSION = 1
# The longest line pdk reads from an engine: a hello with options or an answer with a
# debug note fits in far less; a longer line is a fault, never a reason to grow memory.
MAX_LINE = 1 << 20
Message = dict[str, Any]


class Fault(Enum):
    """How an engine broke the protocol; values are message keys (``pdk.text``)."""

    NO_COMMAND = "eng_empty_command"
    NO_START = "eng_no_start"
    NO_HELLO = "eng_no_hello"
    BAD_HELLO = "eng_bad_hello"
    VERSION = "eng_version"
    CRASHED = "eng_crashed"
    TIMEOUT = "eng_timeout"
    GARBAGE = "eng_garbage"
    TOO_LONG = "eng_too_long"
    ILLEGAL = "eng_illegal"
    ILLEGAL_PASS = "eng_illegal_pass"
    OPTION = "eng_option"


class ProtocolError(LocalizedError, ValueError):
    """An engine that broke the protocol: the fault and the facts its one line needs."""

    reason: Fault


@dataclass(frozen=True, slots=True)
class Option:
    """One option an engine declares in its hello (UCI's ``option``): a name, a type
    (``int``, ``float``, ``bool``, ``string``) and its default."""

    name: str
    type: str
    default: Any = None


@dataclass(frozen=True, slots=True)
class Hello:
    """What an engine says of itself before it plays."""

    name: str
    author: str
    version: int
    options: tuple[Option, ...] = ()


def encode(msg: Message) -> str:
    """A message as the one line pdk sends: compact JSON, ``type`` its first key."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def hello_request(pdk_version: str) -> Message:
    return {"type": "hello", "protocol_version": PROTOCOL_VERSION, "pdk_version": pdk_version}


def parse_hello(line: str) -> Hello:
    """The engine's hello, or ``ProtocolError`` (not JSON, not a hello, another version)."""
    data = _decode(line)
    if data.get("type") != "hello":
        raise ProtocolError(Fault.BAD_HELLO, line=_excerpt(line))
    version = data.get("protocol_version")
    if version != PROTOCOL_VERSION:
        raise ProtocolError(Fault.VERSION, got=repr(version), want=str(PROTOCOL_VERSION))
    name, author = data.get("name"), data.get("author", "")
    if not isinstance(name, str) or not name.strip() or not isinstance(author, str):
        raise ProtocolError(Fault.BAD_HELLO, line=_excerpt(line))
    options = []
    for item in data.get("options") or ():
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ProtocolError(Fault.BAD_HELLO, line=_excerpt(line))
        options.append(Option(item["name"], str(item.get("type", "string")), item.get("default")))
    return Hello(name.strip()[:60], author.strip()[:60], version, tuple(options))


def option_message(name: str, value: Any) -> Message:
    return {"type": "setoption", "name": name, "value": value}


@lru_cache(maxsize=32)
def _profile_json(profile: Profile) -> str:
    # A profile is frozen: its JSON is built once per process, not once per deal.
    return json.dumps(profile.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def deal_message(view: PlayerView, seed: int | None, deal_id: str) -> str:
    """The start of a deal for ``view.seat``, as the line to send (the profile's JSON is
    spliced in from a cache rather than encoded every deal)."""
    head = {
        "type": "deal",
        "deal_id": deal_id,
        "profile_name": view.profile.name,
        "players": view.players,
        "seat": view.seat,
        "hand": format_cards(cards_of(_hand_at_start(view)), suits=True),
        "leader": _first_leader(view),
        "seed": seed,
    }
    text = encode(head)
    return text[:-1] + ',"profile":' + _profile_json(view.profile) + "}"


def _hand_at_start(view: PlayerView) -> int:
    mask = view.hand
    for action in view.history:
        if action.seat == view.seat and action.play is not None:
            for cid in action.play.cards:
                mask |= 1 << cid
    return mask


def _first_leader(view: PlayerView) -> int:
    return view.history[0].seat if view.history else view.leader


def play_entry(index: int, move: Move) -> Message:
    """One legal play. A straight flush is bound to its suit (the same ranks in another suit
    are another play), so its entry says the suit and its cards are written with it."""
    entry: Message = {
        "index": index,
        "cards": counts_notation(move.counts),
        "kind": move.kind.label,
        "top": rank_label(move.top),
        "size": C.total(move.counts),
    }
    if move.suit >= 0:
        suit = SUIT_CHARS[move.suit]
        entry["suit"] = suit
        entry["cards"] = "".join(r + suit for r in counts_notation(move.counts))
    return entry


def act_message(view: PlayerView, legal: Sequence[Move], can_pass: bool, move_no: int, time_ms: int) -> str:
    """The request to act: the legal plays by index and in notation, and the time left."""
    msg = {
        "type": "act",
        "move": move_no,
        "seat": view.seat,
        "hand": format_cards(cards_of(view.hand), suits=True),
        "lead": view.prev is None,
        "can_pass": can_pass,
        "time_left_ms": time_ms,
        "legal": [play_entry(i, m) for i, m in enumerate(legal)],
    }
    return encode(msg)


@dataclass(frozen=True, slots=True)
class Answer:
    """An engine's answer: the move (``None`` = pass) and its ``debug`` note, if any."""

    move: Move | None
    debug: str | None = None


def parse_answer(line: str, legal: Sequence[Move], can_pass: bool) -> Answer:
    """``{"play": index | "notation"}`` or ``{"pass": true}``, checked against the legal
    plays; ``ProtocolError`` for anything else (the message quotes the answer)."""
    data = _decode(line)
    debug = data.get("debug")
    note = debug if isinstance(debug, str) else None
    if data.get("pass") is True and "play" not in data:
        if not can_pass:
            raise ProtocolError(Fault.ILLEGAL_PASS, n=str(len(legal)))
        return Answer(None, note)
    if "play" not in data:
        raise ProtocolError(Fault.GARBAGE, line=_excerpt(line))
    play = data["play"]
    if isinstance(play, int) and not isinstance(play, bool):
        if 0 <= play < len(legal):
            return Answer(legal[play], note)
        raise ProtocolError(Fault.ILLEGAL, move=str(play), n=str(len(legal)))
    if isinstance(play, str):
        counts, suits = _counts_of(play)
        found = [m for m in legal if m.counts == counts]
        if len(found) > 1:  # straight flushes of several suits: the one whose suit was written
            found = [m for m in found if m.suit >= 0 and suits == {m.suit}]
        if len(found) == 1:
            return Answer(found[0], note)
        raise ProtocolError(Fault.ILLEGAL, move=_excerpt(play), n=str(len(legal)))
    raise ProtocolError(Fault.GARBAGE, line=_excerpt(line))


def _counts_of(text: str) -> tuple[int | None, set[int | None]]:
    """The ranks a notation names, and the suits written (pdk picks the suits of every play
    but a straight flush, which is bound to the suit written)."""
    try:
        specs = parse_specs(text)
    except CardParseError:
        return None, set()
    if not specs:
        return None, set()
    return sum(C.ONE[spec.rank] for spec in specs), {spec.suit for spec in specs}


def _decode(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError(Fault.GARBAGE, line=_excerpt(line)) from None
    if not isinstance(data, dict):
        raise ProtocolError(Fault.GARBAGE, line=_excerpt(line))
    return data


def _excerpt(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(slots=True)
class Narrator:
    """The protocol's event messages for the engine's events (``pdk.engine.events``), fed
    one action's events at a time: the rules (when a trick ends, 报单, the finishing
    order) are the engine's, said once there, and this only puts them in the protocol's
    words. It counts each seat's cards for a play's ``left``.

    A bomb's bonus is not an event of its own on the wire (``trick`` says a bomb stood),
    and the deal's end is said with its totals by ``over``, from the table's settlement.
    """

    sizes: list[int]

    @classmethod
    def of(cls, profile: Profile) -> Narrator:
        return cls([profile.hand_size] * profile.players)

    def feed(self, events: Sequence[Event]) -> list[Message]:
        """The messages one action's events make, in order."""
        msgs: list[Message] = []
        for e in events:
            if isinstance(e, Played):
                play = e.play
                left = self.sizes[e.seat] = self.sizes[e.seat] - len(play.cards)
                msgs.append(
                    {
                        "type": "play",
                        "seat": e.seat,
                        "cards": format_cards(play.cards, suits=True),
                        "kind": play.kind.label,
                        "top": rank_label(play.top),
                        "left": left,
                    }
                )
            elif isinstance(e, Passed):
                msgs.append({"type": "pass", "seat": e.seat})
            elif isinstance(e, TrickWon):
                msgs.append({"type": "trick", "winner": e.seat, "bomb": e.play.kind == BOMB})
            elif isinstance(e, BaoDan):
                msgs.append({"type": "bao_dan", "seat": e.seat})
            elif isinstance(e, PlayerOut):
                msgs.append({"type": "out", "seat": e.seat, "place": e.place})
        return msgs

    @staticmethod
    def over(winner: int, totals: Sequence[int]) -> Message:
        return {"type": "deal_over", "winner": winner, "totals": list(totals)}


__all__ = [
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "Answer",
    "Fault",
    "Hello",
    "Narrator",
    "Option",
    "ProtocolError",
    "act_message",
    "deal_message",
    "encode",
    "hello_request",
    "option_message",
    "parse_answer",
    "parse_hello",
]
