"""What a table looks like on the wire: the JSON both the single table's API
(``pdk.web.server``) and the rooms' (``pdk.web.rooms_api``) answer with, and the pieces of a
request both read. Its own module so that neither of the two imports the other.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import Header, Path, Query
from pydantic import AfterValidator, Field

from pdk.engine.cards import cards_of
from pdk.engine.events import BaoDan, BombStands, DealOver, Event, Passed, Played, PlayerOut, TrickWon
from pdk.engine.notation import one_card
from pdk.engine.record import GameRecord
from pdk.rooms.room import KEY_PATTERN, ROOM_ID_PATTERN
from pdk.store.tokens import TOKEN_PATTERN
from pdk.table import runner
from pdk.table.service import SeatTable
from pdk.table.session import HUMAN
from pdk.text.catalog import MESSAGES, Lang
from pdk.view.table_model import card_name, play_model, seat_name, settlement_model

STATIC = files("pdk.web") / "static"
LangQ = Annotated[Literal["en", "zh"], Query()]
TokenP = Annotated[str, Path(pattern=TOKEN_PATTERN)]
RoomP = Annotated[str, Path(pattern=ROOM_ID_PATTERN)]
KeyH = Annotated[str | None, Header(alias="X-PDK-Key", pattern=KEY_PATTERN)]  # a key never rides in a URL
CardStr = Annotated[str, Field(max_length=3), AfterValidator(one_card)]  # read by the service's notation


def labels(lang: Lang) -> dict[str, str]:
    """The page's own words (templates such as ``Deal {n}`` are filled in by the page)."""
    i = 1 if lang == "zh" else 0
    words = {k.removeprefix("web_"): v[i] for k, v in MESSAGES.items() if k.startswith("web_")}
    return words | {k: v[i] for k, v in MESSAGES.items() if k.startswith("diff_")}


def table_json(t: SeatTable, lang: Lang, pace_ms: int, events: tuple[Event, ...] = ()) -> dict[str, Any]:
    return {
        "token": t.key,
        "seq": t.seq,
        "version": t.version,
        "lang": lang,
        "pace_ms": pace_ms,
        "pass_pause_ms": round(runner.PASS_PAUSE * 1000),  # the least pause before 要不起's pass
        "difficulty": t.difficulty,
        "next_difficulty": t.next_difficulty,
        "session_total": t.session_total,
        "bot_turn": t.bot_turn,
        "machine_turn": t.machine_turn,
        "auto": t.auto,
        "auto_pass": t.auto_pass,
        "auto_level": t.auto_level or "",  # "": 托管 plays at the table's difficulty
        "events": [event_json(e) for e in events],
        "model": t.model.to_json(lang),
    }


def event_json(e: Event) -> dict[str, Any]:
    """One engine event for the page (cards in notation, as the model gives them)."""
    if isinstance(e, Played):
        return {"kind": "played", "seat": e.seat, "cards": list(play_model(e.play).cards)}
    if isinstance(e, TrickWon):
        return {"kind": "trick_won", "seat": e.seat, "cards": list(play_model(e.play).cards)}
    if isinstance(e, BombStands):
        return {"kind": "bomb_stands", "seat": e.seat, "collects": e.collects}
    if isinstance(e, PlayerOut):
        return {"kind": "out", "seat": e.seat, "place": e.place}
    if isinstance(e, DealOver):
        return {"kind": "deal_over", "winner": e.settlement.winner, "totals": list(e.settlement.totals)}
    kind = "passed" if isinstance(e, Passed) else "bao_dan"
    assert isinstance(e, Passed | BaoDan)
    return {"kind": kind, "seat": e.seat}


def replay_json(record: GameRecord, lang: Lang) -> dict[str, Any]:
    """The finished deal play by play, every hand face up (only once it is over, see
    ``TableService.finished``): each frame says who acted, with what (and its kind), and
    the play it had to beat (None on a lead); the deal's end says who won and each seat's
    total with its reasons."""
    n = record.profile.players
    names = [seat_name([1] * n, HUMAN, seat).text(lang) for seat in range(n)]
    frames = []
    top: dict[str, Any] | None = None  # the play on the table: what the next seat must beat
    for i, state in enumerate(record.states()):
        action = record.actions[i - 1] if i else None
        play = None if action is None else action.play
        frames.append(
            {
                "hands": [[card_name(c) for c in cards_of(h)] for h in state.hands],
                "seat": None if action is None else action.seat,
                "cards": None if play is None else [card_name(c) for c in sorted(play.cards)],
                "kind": None if play is None else play.kind.said.text(lang),
                "beat": None if action is None else top,
            }
        )
        if play is not None and action is not None:
            top = {"seat": action.seat, "cards": frames[-1]["cards"], "kind": frames[-1]["kind"]}
        if state.prev is None:  # the trick was won (or not begun): the next seat leads
            top = None
    st = record.settlement
    assert st is not None, "a deal still played has no replay"
    model = settlement_model(record.profile, st, HUMAN, None)
    result = [
        {
            "seat": r.seat,
            "total": r.total,
            "winner": r.winner,
            "lines": [line.text(lang) for line in r.lines[:-1]],
        }
        for r in model.rows
    ]
    return {"names": names, "frames": frames, "winner": st.winner, "result": result}


__all__ = ["STATIC", "CardStr", "LangQ", "event_json", "labels", "replay_json", "table_json"]
