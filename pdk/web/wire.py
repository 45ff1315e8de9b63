"""What a table looks like on the wire: the JSON both the single table's API
(``pdk.web.server``) and the rooms' (``pdk.web.rooms_api``) answer with, and the pieces of a
request both read. Its own module so that neither of the two imports the other.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import Header, Path, Query
from fastapi.responses import StreamingResponse
from pydantic import AfterValidator, Field
from starlette.types import Send

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


# The server's own ``send``, put in the scope by the outermost layer (``pdk.web.metrics``).
DIRECT_SEND = "pdk.direct_send"


class EventStream(StreamingResponse):
    """Server-sent events whose messages skip the layers between the app and the server.

    A room's change is one message on each of its streams, a thousand for a crowded room,
    and each layer (gzip, the errors', the guard's headers, the metrics) is a coroutine a
    message passes through, a fifth of the server's time for that fan-out. None of them
    changes a stream's body: gzip leaves ``text/event-stream`` as it is, the guard and the
    metrics read the response's start only, which still goes through all of them. So the
    start takes the usual way, and the messages go straight to the server's send when the
    scope has it (``DIRECT_SEND``)."""

    direct: Send | None = None

    async def __call__(self, scope: Any, receive: Any, send: Send) -> None:
        self.direct = scope.get(DIRECT_SEND)
        await super().__call__(scope, receive, send)

    async def stream_response(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        body = self.direct or send
        async for chunk in self.body_iterator:
            data = chunk if isinstance(chunk, bytes | memoryview) else chunk.encode(self.charset)
            await body({"type": "http.response.body", "body": data, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


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
