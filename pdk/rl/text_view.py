"""One seat's view as a short text and as JSON, for language-model players.

What a model needs to choose a play, and nothing it may not know: its own hand (with
suits), every seat's card count, who is on 报单 (one card left), the trick so far and the
play to beat, the seats out, and the legal plays listed with their notation (the entries
of the engine protocol's ``act`` request, ``pdk.bots.protocol.play_entry``, so an answer
by index or by cards means what it means there).

    from pdk.rl.text_view import SeatView
    print(SeatView.of(state.view(seat)).text())    # a PlayerView inside pdk
    seat = ProtocolSeat(); seat.feed(message) ...  # or the protocol's messages, outside it

``SeatView.of`` reads a ``PlayerView``; ``ProtocolSeat`` rebuilds the same view from the
messages an engine receives (``docs/protocol.md``), so a program outside pdk reads the same
text. ``examples/engines/text_view_bot.py`` is such an engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from pdk.bots.protocol import play_entry
from pdk.engine.cards import cards_of, format_cards
from pdk.engine.state import PlayerView, next_holding


@dataclass(frozen=True)
class TrickPlay:
    """One action of the trick: ``cards`` (with suits) and ``kind``, or a pass (both None)."""

    seat: int
    cards: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` sees, as plain values (``to_json`` is ``asdict``)."""

    variant: str
    players: int
    seat: int
    hand: str
    sizes: tuple[int, ...]
    to_move: int | None
    trick: tuple[TrickPlay, ...] = ()
    out: tuple[int, ...] = ()
    legal: tuple[Mapping[str, Any], ...] = ()
    can_pass: bool = False

    @classmethod
    def of(cls, view: PlayerView) -> SeatView:
        """The view of a ``PlayerView`` (the legal plays when it is the seat's turn)."""
        trick = tuple(
            TrickPlay(a.seat)
            if a.play is None
            else TrickPlay(a.seat, format_cards(a.play.cards, suits=True), a.play.kind.label)
            for a in view.trick
        )
        mine = view.legal is not None
        moves = view.legal_moves() if mine else []
        return cls(
            variant=view.profile.name,
            players=view.players,
            seat=view.seat,
            hand=format_cards(cards_of(view.hand), suits=True),
            sizes=tuple(view.hand_sizes),
            to_move=view.seat if mine else _to_move(view),
            trick=trick,
            out=tuple(view.out),
            legal=tuple(play_entry(i, m) for i, m in enumerate(moves)),
            can_pass=mine and view.can_pass(moves),
        )

    @property
    def bao_dan(self) -> tuple[int, ...]:
        """The seats with one card left (报单)."""
        return tuple(s for s, n in enumerate(self.sizes) if n == 1)

    @property
    def to_beat(self) -> TrickPlay | None:
        """The play on top of the trick, or ``None`` when the seat to move leads."""
        for play in reversed(self.trick):
            if play.cards is not None:
                return play
        return None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["legal"] = [dict(e) for e in self.legal]
        out["bao_dan"] = list(self.bao_dan)
        top = self.to_beat
        out["to_beat"] = None if top is None else asdict(top)
        return out

    def json(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def text(self) -> str:
        """The view in a few lines of plain English (card notation as in pdk)."""
        me = self.seat

        def who(s: int) -> str:
            return "you" if s == me else f"seat {s}"

        lines = [f"跑得快 ({self.variant}), {self.players} players. You are seat {me}."]
        n = self.sizes[me]
        lines.append(f"Your hand ({n} card{'s' if n != 1 else ''}): {_spaced(self.hand) or '-'}")
        counts = []
        for s, k in enumerate(self.sizes):
            tag = " (报单: one card left)" if k == 1 else (" (out)" if s in self.out else "")
            counts.append(f"{who(s)} {k}{tag}")
        lines.append("Cards left: " + ", ".join(counts) + ".")
        if self.trick:
            said = [
                f"{who(p.seat)} passed" if p.cards is None else f"{who(p.seat)} played {p.cards} ({p.kind})"
                for p in self.trick
            ]
            lines.append("This trick: " + "; ".join(said) + ".")
        top = self.to_beat
        if self.to_move is None:
            lines.append("The deal is over.")
            return "\n".join(lines)
        if self.to_move != me:
            lines.append(f"It is not your turn: seat {self.to_move} to move.")
            return "\n".join(lines)
        if top is None:
            lines.append("You lead: play any legal combination.")
        else:
            lines.append(f"To beat: {top.cards} ({top.kind}) from {who(top.seat)}.")
        if self.legal:
            lines.append("Legal plays:")
            lines += [f"  {e['index']}: {e['cards']} ({e['kind']})" for e in self.legal]
        else:
            lines.append("Nothing you hold beats it.")
        if self.can_pass:
            lines.append("  pass")
        lines.append("Answer with the number of one legal play" + (', or "pass".' if self.can_pass else "."))
        return "\n".join(lines)


def _to_move(view: PlayerView) -> int | None:
    """The seat to move, read from what is public (``None`` once the deal is over)."""
    holding = sum(1 for n in view.hand_sizes if n)
    if holding <= 1 or (view.out and view.profile.end == "first_out"):
        return None
    if view.trick:
        return next_holding(view.hand_sizes, view.trick[-1].seat)
    return view.leader


def _spaced(cards: str) -> str:
    """``3s3h4c`` -> ``3s 3h 4c`` (jokers ``B``/``R`` have no suit)."""
    out: list[str] = []
    for ch in cards:
        if ch in "shcd" and out:
            out[-1] += ch
        else:
            out.append(ch)
    return " ".join(out)


class ProtocolSeat:
    """The ``SeatView`` of an engine, rebuilt from the protocol messages it receives:
    ``feed`` every message (``deal``, the events, ``act``); ``view()`` after an ``act``
    is what that request asks about (before any request: the view with nobody to move)."""

    def __init__(self) -> None:
        self.variant = ""
        self.seat = 0
        self.hand = ""
        self.sizes: list[int] = []
        self.trick: list[TrickPlay] = []
        self.out: list[int] = []
        self.act: Mapping[str, Any] | None = None

    def feed(self, msg: Mapping[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "deal":
            players = int(msg["players"])
            size = int(msg.get("profile", {}).get("hand_size", len(_spaced(str(msg["hand"])).split())))
            self.variant = str(msg.get("profile_name", ""))
            self.seat = int(msg["seat"])
            self.hand = str(msg["hand"])
            self.sizes = [size] * players
            self.trick, self.out, self.act = [], [], None
        elif kind == "play":
            seat = int(msg["seat"])
            self.trick.append(TrickPlay(seat, str(msg["cards"]), str(msg["kind"])))
            self.sizes[seat] = int(msg["left"])
        elif kind == "pass":
            self.trick.append(TrickPlay(int(msg["seat"])))
        elif kind == "trick":
            self.trick = []
        elif kind == "out":
            self.out.append(int(msg["seat"]))
        elif kind == "act":
            self.act = msg
            self.hand = str(msg["hand"])
        if kind in ("play", "pass"):
            self.act = None  # the request has been answered

    def view(self) -> SeatView:
        act = self.act
        return SeatView(
            variant=self.variant,
            players=len(self.sizes),
            seat=self.seat,
            hand=self.hand,
            sizes=tuple(self.sizes),
            to_move=self.seat if act is not None else None,
            trick=tuple(self.trick),
            out=tuple(self.out),
            legal=tuple(act["legal"]) if act is not None else (),
            can_pass=bool(act["can_pass"]) if act is not None else False,
        )


def answer_for(reply: str, view: SeatView) -> dict[str, Any]:
    """A model's free-text reply as the protocol's answer: the first legal index or
    ``pass`` it names (``ValueError`` if it names neither)."""
    words = reply.replace(",", " ").replace(".", " ").split()
    indexes = {str(e["index"]): int(e["index"]) for e in view.legal}
    for w in words:
        if w.strip('"').lower() == "pass" and view.can_pass:
            return {"pass": True}
        if w in indexes:
            return {"play": indexes[w]}
    raise ValueError(f"the reply names no legal play: {reply[:60]!r}")


__all__ = ["ProtocolSeat", "SeatView", "TrickPlay", "answer_for"]
