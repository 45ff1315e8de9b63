"""Game records: a versioned JSON document that replays a deal exactly.

A record holds the full profile (so it stays valid if a profile file changes), the seed,
the explicit deal, every turn (seat, cards in notation with suits, reading) and the
settlement. ``loads`` re-plays every turn through ``position.check``: a tampered or truncated
record is rejected with the move number and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import Any

from pdk.engine.cards import CardParseError, CardPlace, cards_of, format_cards, mask_of, rank_label
from pdk.engine.combos import ComboKind
from pdk.engine.deal import Deal, deal_from_hands, give_lead_copy
from pdk.engine.events import Event
from pdk.engine.position import IllegalPlay, resolve_cards
from pdk.engine.profile import Profile, ProfileError, validate_profile
from pdk.engine.settlement import Settlement
from pdk.engine.state import Action, GameState
from pdk.text.catalog import LocalizedError, Said

FORMAT = "pdk-record"
VERSION = 1
# Who made a play, where it was not the seat's own player (a person's seat under 托管, or
# 要不起 auto-pass): ``meta["made_by"]`` maps each to the play numbers (1 = the first play).
# A record without it (every older one) has every play made by its seat's player.
MADE_BY = "made_by"
AUTO = "auto"
AUTO_PASS = "auto_pass"


class RecordReason(Enum):
    """Why a record cannot be read or does not replay; values are message keys in ``pdk.text.catalog``."""

    NO_FILE = "rpe_no_file"
    CANNOT_READ = "rpe_cannot_read"
    NO_GAME = "rpe_no_game"
    JSON = "rpe_json"
    NOT_RECORD = "rpe_not_record"
    VERSION = "rpe_version"
    PROFILE = "rpe_profile"
    DEAL_MISSING = "rpe_deal_missing"
    DEAL_HAND = "rpe_deal_hand"
    DEAL_CARDS = "rpe_deal_bad"
    DEAL_SIZES = "rpe_deal_sizes"
    DEAL_LEADER = "rpe_deal_leader"
    PLAYS_MISSING = "rpe_plays_missing"
    MALFORMED = "rpe_malformed"
    MOVE_CARDS = "rpe_move_bad"
    OVER = "rpe_over"
    TURN = "rpe_turn"
    ILLEGAL = "rpe_illegal"
    KIND = "rpe_kind"
    UNFINISHED = "rpe_unfinished"
    SETTLEMENT = "rpe_settlement"


class RecordError(LocalizedError, ValueError):
    """A record that cannot be read or does not replay: a reason code plus the facts its
    message needs, and the file it came from if known. ``str()`` is the English line.

    A parameter may itself be an error (the rules' ``IllegalPlay`` for an illegal move, a
    ``CardParseError`` for unreadable cards): its words are said in the same language, so
    no message is ever translated from English text.
    """

    reason: RecordReason

    def __init__(self, reason: RecordReason, /, *, path: str | None = None, **params: object) -> None:
        self.path = path
        super().__init__(reason, **params)

    @property
    def said(self) -> Said:
        said = super().said
        return said if self.path is None else Said.of("rpe_in_file", path=self.path, detail=said)

    def in_file(self, path: Path | str) -> RecordError:
        """The same error, naming the file it came from."""
        return RecordError(self.reason, path=str(path), **self.params)


@dataclass(frozen=True)
class GameRecord:
    """One deal as it was played: the full profile, the explicit deal, every action and
    what the players' programs attached (``meta``). Frozen: a record is a fact; the final
    state and its settlement are worked out once, when first asked for."""

    profile: Profile
    deal: Deal
    seed: int | None = None
    actions: tuple[Action, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, state: GameState, seed: int | None = None, **meta: Any) -> GameRecord:
        record = cls(state.profile, state.deal, seed, tuple(state.history), dict(meta))
        # The state played is the replay's end: its settlement is known without replaying
        # the deal again (a table saved after every move would otherwise replay it each time).
        record.__dict__["settlement"] = state.settlement() if state.over else None
        return record

    def made_by(self) -> dict[int, str]:
        """The plays not made by their seat's player (play number -> ``AUTO`` or
        ``AUTO_PASS``), read defensively: anything malformed in ``meta`` is skipped."""
        data = self.meta.get(MADE_BY)
        out: dict[int, str] = {}
        if not isinstance(data, dict):
            return out
        for who in (AUTO, AUTO_PASS):
            numbers = data.get(who)
            if isinstance(numbers, list):
                out.update((n, who) for n in numbers if type(n) is int and 1 <= n <= len(self.actions))
        return out

    @cached_property
    def _final(self) -> GameState:
        return self.replay()

    def replay(self) -> GameState:
        """The final state, every turn re-checked."""
        state = GameState(self.profile, self.deal)
        for i, action in enumerate(self.actions, 1):
            _replay_one(state, i, action.seat, action.play.cards if action.play else None)
        return state

    def states(self) -> Iterator[GameState]:
        """The state before the first turn and after each turn (for stepping through).

        Each turn is applied with its recorded cards (``play``), not re-picked from the move
        (``step`` chooses its own suits), so every state shows the very cards played."""
        state = GameState(self.profile, self.deal)
        yield state.clone()
        for action in self.actions:
            state.play(action.play.cards if action.play else None)
            yield state.clone()

    def events(self) -> Iterator[tuple[Event, ...]]:
        """What each turn made happen, turn by turn: the events the table said as it was
        played (``GameState.act``), since they follow from the actions alone."""
        state = GameState(self.profile, self.deal)
        for action in self.actions:
            yield state.act(action.play.cards if action.play else None)[1]

    @cached_property
    def settlement(self) -> Settlement | None:
        state = self._final
        return state.settlement() if state.over else None

    def to_dict(self) -> dict[str, Any]:
        st = self.settlement
        plays: list[dict[str, Any]] = []
        for a in self.actions:
            if a.play is None:
                plays.append({"seat": a.seat, "pass": True})
            else:
                plays.append(
                    {
                        "seat": a.seat,
                        "cards": format_cards(a.play.cards, suits=True),
                        "kind": a.play.kind.label,
                        "top": rank_label(a.play.top),
                        "units": a.play.units,
                    }
                )
        result = None
        if st is not None:
            result = {
                "winner": st.winner,
                "seats": [
                    {
                        "seat": s.seat,
                        "cards_left": s.cards_left,
                        "shut_out": s.shut_out,
                        "card_payment": s.card_payment,
                        "bombs": s.bombs,
                        "bomb_income": s.bomb_income,
                        "total": s.total,
                    }
                    for s in st.seats
                ],
            }
        return {
            "format": FORMAT,
            "version": VERSION,
            "profile": self.profile.model_dump(mode="json"),
            "seed": self.seed,
            "deal": {
                "hands": [format_cards(cards_of(h), suits=True) for h in self.deal.hands],
                "set_aside": format_cards(cards_of(self.deal.set_aside), suits=True),
                "leader": self.deal.leader,
            },
            "plays": plays,
            "result": result,
            "meta": self.meta,
        }


def _replay_one(state: GameState, number: int, seat: int, cards: tuple[int, ...] | None) -> None:
    if state.over:
        raise RecordError(RecordReason.OVER, n=number)
    if seat != state.turn:
        raise RecordError(RecordReason.TURN, n=number, seat=seat, turn=state.turn)
    try:
        state.play(cards)
    except IllegalPlay as exc:
        raise RecordError(RecordReason.ILLEGAL, n=number, reason=exc) from None


def dumps(record: GameRecord) -> str:
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def from_dict(data: Any) -> GameRecord:
    """Validate and replay a decoded record; RecordError says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(RecordReason.NOT_RECORD)
    if data.get("version") != VERSION:
        raise RecordError(RecordReason.VERSION, v=repr(data.get("version")), r=VERSION)
    try:
        profile = validate_profile(data.get("profile"), "record profile")
    except ProfileError as exc:
        raise RecordError(RecordReason.PROFILE, detail=exc) from None
    deal_data = data.get("deal")
    if not isinstance(deal_data, dict) or not isinstance(deal_data.get("hands"), list):
        raise RecordError(RecordReason.DEAL_MISSING)
    hands: list[int] = []
    left = mask_of(profile.deck_cards)
    for i, text in enumerate(deal_data["hands"]):
        try:
            cards = resolve_cards(str(text), left, CardPlace.DECK)
        except CardParseError as exc:
            raise RecordError(RecordReason.DEAL_HAND, hand=i, detail=exc) from None
        hands.append(mask_of(cards))
        left &= ~hands[-1]
    aside_text = str(deal_data.get("set_aside") or "")
    try:
        aside = mask_of(resolve_cards(aside_text, left, CardPlace.DECK)) if aside_text else 0
    except CardParseError as exc:
        raise RecordError(RecordReason.DEAL_CARDS, detail=exc) from None
    if len(hands) != profile.players or any(len(cards_of(h)) != profile.hand_size for h in hands):
        raise RecordError(RecordReason.DEAL_SIZES)
    recorded = deal_data.get("leader")
    if isinstance(recorded, int) and not isinstance(recorded, bool):
        hands = list(give_lead_copy(profile, tuple(hands), recorded))
    deal = deal_from_hands(profile, tuple(hands), aside)
    recorded = deal_data.get("leader", deal.leader)
    if profile.lead.winner_leads and isinstance(recorded, int) and 0 <= recorded < profile.players:
        # Match rule (seed 003): a later deal is led by the last deal's winner, not the card.
        deal = deal_from_hands(profile, tuple(hands), aside, leader=recorded)
    if deal_data.get("leader", deal.leader) != deal.leader:
        raise RecordError(RecordReason.DEAL_LEADER, seat=deal_data.get("leader"), leader=deal.leader)
    seed = data.get("seed")
    meta = data.get("meta")
    plays = data.get("plays")
    if not isinstance(plays, list):
        raise RecordError(RecordReason.PLAYS_MISSING)
    state = GameState(profile, deal)
    for number, entry in enumerate(plays, 1):
        _load_action(state, number, entry)
    record = GameRecord(
        profile,
        deal,
        seed if isinstance(seed, int) else None,
        tuple(state.history),
        meta if isinstance(meta, dict) else {},
    )
    result = data.get("result")
    if result is not None:
        if not state.over:
            raise RecordError(RecordReason.UNFINISHED, n=len(plays))
        expected = list(state.settlement().totals)
        seats = result.get("seats") if isinstance(result, dict) else None
        got = None
        if isinstance(seats, list):
            got = [s.get("total") if isinstance(s, dict) else None for s in seats]
        if got != expected:
            raise RecordError(RecordReason.SETTLEMENT, got=got, want=expected)
    return record


def _load_action(state: GameState, number: int, entry: Any) -> None:
    if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
        raise RecordError(RecordReason.MALFORMED, n=number)
    if entry.get("pass"):
        _replay_one(state, number, entry["seat"], None)
        return
    try:
        cards = resolve_cards(str(entry.get("cards", "")), state.hands[state.turn], CardPlace.HAND)
    except CardParseError as exc:
        raise RecordError(RecordReason.MOVE_CARDS, n=number, detail=exc) from None
    _replay_one(state, number, entry["seat"], cards)
    played = state.history[-1].play
    assert played is not None
    kind = entry.get("kind")
    if kind is not None and kind != played.kind.label:
        raise RecordError(RecordReason.KIND, n=number, kind=kind, actual=played.kind.label)


def loads(text: str, decode: Callable[[str], Any] = json.loads) -> GameRecord:
    """A record from its JSON text; ``decode`` is the JSON parser (the app passes one that
    bounds depth and numbers, ``pdk.files.limits.loads_json``)."""
    try:
        data = decode(text)
    except json.JSONDecodeError as exc:
        raise RecordError(RecordReason.JSON, line=exc.lineno, col=exc.colno) from None
    return from_dict(data)


__all__ = ["ComboKind", "GameRecord", "RecordError", "RecordReason", "dumps", "loads"]
