"""The HTTP side of ``pdk serve``: a FastAPI app over the table service (``pdk.table.service``).

Each endpoint is one seat command: the request names it, the service runs it, and the
answer is the events it made happen plus the human seat's table (``SeatTable``, its
``TableModel`` rendered in the page's language by ``pdk.text``), so the browser only ever
learns what that seat may see; the deal's full record (every hand face up) is served only
once it is over, for the replay view. The page sends cards as the player typed or tapped
them; the service reads them. Requests are strict pydantic models that refuse unknown
fields, bodies are capped at ``MAX_BODY`` bytes and every answer carries the headers of
``pdk.web.guard``, tokens are matched against a strict pattern before the store is asked,
a refused action (illegal, stale, out of turn) answers 409 with the reason and the
unchanged table, and a write the store could not make answers 503 with its reason in one
line, nothing applied. Opening tables is rate-limited per address, hard bots think in a
queue, and idle tables are cleared (``WebLimits``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from pdk.bots import DIFFICULTIES
from pdk.engine.cards import cards_of
from pdk.engine.events import BaoDan, BombStands, DealOver, Event, Passed, Played, PlayerOut, TrickWon
from pdk.engine.notation import one_card
from pdk.rooms.room import Rooms
from pdk.store.contract import StoreError
from pdk.store.tokens import TOKEN_PATTERN, valid_token
from pdk.table.service import Reply, SeatTable, TableService
from pdk.table.session import HUMAN
from pdk.table.tables import TableStore
from pdk.text.catalog import MESSAGES, Lang, LocalizedError, tr
from pdk.view.rules_in_words import sections
from pdk.view.table_model import card_name, play_model, seat_name, settlement_model
from pdk.web.forwarded import DEFAULT_TRUSTED, Trusted, forwarded
from pdk.web.guard import Busy, RateLimit, ThinkingQueue, guarded
from pdk.web.metrics import Metrics, MetricsAccess, mount_operator, observed
from pdk.web.puzzles_api import add_puzzle_routes
from pdk.web.review_api import add_review_routes

MAX_BODY = 4096
STATIC = files("pdk.web") / "static"
_log = logging.getLogger(__name__)
LangQ = Annotated[Literal["en", "zh"], Query()]
TokenP = Annotated[str, Path(pattern=TOKEN_PATTERN)]
CardStr = Annotated[str, Field(max_length=3), AfterValidator(one_card)]  # read by the service's notation


# What a request's field must be, by field name, for the one-line refusal.
_BAD_FIELD = {
    "cards": "web_bad_cards",
    "seq": "web_bad_seq",
    "difficulty": "web_bad_difficulty",
    "lang": "web_bad_lang",
}


def _difficulty(value: str) -> str:
    if value not in DIFFICULTIES:
        raise ValueError(f"one of {', '.join(DIFFICULTIES)}")
    return value


Difficulty = Annotated[str, AfterValidator(_difficulty)]


class _Body(BaseModel):
    # strict: a number is a JSON number ({"seq": true} and {"seq": "0"} are refused)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class OpenBody(_Body):
    token: Annotated[str, Field(max_length=64)] | None = None
    difficulty: Difficulty | None = None


class SeqBody(_Body):
    seq: Annotated[int, Field(ge=0, le=10_000)]


class PlayBody(SeqBody):
    """Cards tapped (``cards``) or a play typed (``text``, as the player wrote it)."""

    cards: Annotated[list[CardStr], Field(min_length=1, max_length=40)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=80)] | None = None

    @model_validator(mode="after")
    def _one_of(self) -> PlayBody:
        if (self.cards is None) == (self.text is None):
            raise ValueError("either cards or text")
        return self


class SettingsBody(_Body):
    """The seat's switches: 托管, 要不起 auto-pass, the card counter."""

    auto: bool | None = None
    auto_pass: bool | None = None
    counter: bool | None = None


class DifficultyBody(_Body):
    difficulty: Difficulty


# -- JSON -------------------------------------------------------------------------------------


def rendered(data: Any, lang: Lang) -> Any:
    """The model's JSON with every ``Said`` given its ``text`` in ``lang``."""
    if isinstance(data, dict):
        if data.keys() == {"key", "params"}:
            params = {k: _said_text(v, lang) for k, v in data["params"].items()}
            return {"key": data["key"], "params": data["params"], "text": tr(data["key"], lang, **params)}
        return {k: rendered(v, lang) for k, v in data.items()}
    if isinstance(data, list):
        return [rendered(v, lang) for v in data]
    return data


def _said_text(value: Any, lang: Lang) -> Any:
    if isinstance(value, dict) and value.keys() == {"key", "params"}:
        return rendered(value, lang)["text"]
    return value


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
        "difficulty": t.difficulty,
        "next_difficulty": t.next_difficulty,
        "session_total": t.session_total,
        "bot_turn": t.bot_turn,
        "machine_turn": t.machine_turn,
        "auto": t.auto,
        "auto_pass": t.auto_pass,
        "events": [event_json(e) for e in events],
        "model": rendered(t.model.to_json(), lang),
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


def replay_json(table: TableService, lang: Lang) -> dict[str, Any]:
    """The finished deal play by play, every hand face up (only once it is over): each
    frame says who acted, with what (and its kind), and the play it had to beat (None on a
    lead); the deal's end says who won and each seat's total with its reasons."""
    s = table.session
    n = s.state.players
    names = [seat_name([1] * n, HUMAN, seat).text(lang) for seat in range(n)]
    frames = []
    record = s.record()
    top: dict[str, Any] | None = None  # the play on the table: what the next seat must beat
    for i, state in enumerate(record.states()):
        action = record.actions[i - 1] if i else None
        play = None if action is None else action.play
        frames.append(
            {
                "hands": [[card_name(c) for c in cards_of(h)] for h in state.hands],
                "seat": None if action is None else action.seat,
                "cards": None if play is None else [card_name(c) for c in sorted(play.cards)],
                "kind": None if play is None else play.kind.said(lang),
                "beat": None if action is None else top,
            }
        )
        if play is not None and action is not None:
            top = {"seat": action.seat, "cards": frames[-1]["cards"], "kind": frames[-1]["kind"]}
        if state.prev is None:  # the trick was won (or not begun): the next seat leads
            top = None
    st = s.state.settlement()
    model = settlement_model(s.profile, st, HUMAN, None)
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


# -- the app ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WebLimits:
    """The bounds of one server (``pdk serve``'s options; see ``pdk.web.guard``)."""

    max_body: int = MAX_BODY
    hosts: frozenset[str] | None = None  # Host names accepted (None: any; loopback: its names)
    opens_per_minute: float = 30  # new tables per client address (0: no limit)
    hard_slots: int = 1  # hard bots thinking at once in this process
    idle_seconds: float = 14 * 86400  # a table nobody moved for this long is cleared (0: never)
    forwarded: str = DEFAULT_TRUSTED  # whose X-Forwarded-* headers are believed (pdk.web.forwarded)
    metrics: MetricsAccess = "local"  # who may read /metrics (pdk.web.metrics)


def idle_text(seconds: float, lang: Lang) -> str:
    """How long a table may stay idle, in the page's words (``--idle-hours``)."""
    days, hours = seconds / 86400, seconds / 3600
    if days >= 1:
        return tr("web_age_day" if days == 1 else "web_age_days", lang, n=f"{days:g}")
    if hours >= 1:
        return tr("web_age_hour" if hours == 1 else "web_age_hours", lang, n=f"{hours:g}")
    return tr("web_age_seconds", lang, n=f"{seconds:g}")


def create_app(
    store: TableStore,
    pace_ms: int = 700,
    limits: WebLimits | None = None,
    rooms: Rooms | None = None,
    metrics: Metrics | None = None,
) -> Any:
    """The app for one store; ``pace_ms`` is how long the page shows each bot move.
    ``rooms`` are the tables for friends (by default kept in the same store); ``metrics``
    the counters ``/metrics`` shows (given when the store counts its errors into them)."""
    from pdk.web.rooms_api import mount_rooms  # it renders tables with this module's JSON

    bounds = limits or WebLimits()
    opens = RateLimit(bounds.opens_per_minute)
    thinking = ThinkingQueue(bounds.hard_slots)

    closing: list[Callable[[], None]] = []  # what to close when the server stops

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(_sweep(store, bounds.idle_seconds)) if bounds.idle_seconds else None
        yield
        if sweeper is not None:
            sweeper.cancel()
        for close in closing:
            await run_in_threadpool(close)

    app = FastAPI(title="pdk", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # phones on slow links: 32 KB -> 11 KB

    def refused(exc: LocalizedError, table: TableService, lang: Lang, status: int = 409) -> JSONResponse:
        err = {"key": exc.reason.value, "text": exc.message(lang)}
        now = table_json(table.snapshot(), lang, pace_ms)
        return JSONResponse({"error": err, "table": now}, status_code=status)

    def missing(lang: Lang) -> JSONResponse:
        return JSONResponse({"error": {"key": "web_no_table", "text": tr("web_no_table", lang)}}, 404)

    def acted(
        token: str, lang: Lang, command: Callable[[TableService], Reply], found: TableService | None = None
    ) -> Response:
        table = found or store.get(token)
        if table is None:
            return missing(lang)
        try:
            reply = command(table)
        except LocalizedError as exc:  # IllegalPlay, CardParseError, InputError, TableRefused
            return refused(exc, table, lang)
        return JSONResponse(table_json(reply.table, lang, pace_ms, reply.events))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Said in the player's words: which part of the request is wrong, never pydantic's
        # own text ("path.token: String should match pattern ...").
        first = exc.errors()[0] if exc.errors() else {}
        loc = tuple(str(p) for p in first.get("loc", ()))
        lang: Lang = "zh" if request.query_params.get("lang") == "zh" else "en"
        if loc[:2] == ("path", "token"):
            return JSONResponse({"error": {"key": "web_bad_token", "text": tr("web_bad_token", lang)}}, 422)
        field = loc[1] if len(loc) > 1 else (loc[0] if loc else "?")
        detail = tr(_BAD_FIELD.get(field, "web_bad_field"), lang, field=field)
        return JSONResponse(
            {"error": {"key": "web_bad_request", "text": tr("web_bad_request", lang, detail=detail)}}, 422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        lang: Lang = "zh" if request.query_params.get("lang") == "zh" else "en"
        key = {404: "web_not_found", 405: "web_method"}.get(exc.status_code)
        text = tr(key, lang) if key else tr("web_bad_request", lang, detail=str(exc.detail))
        error = {"key": key or "web_bad_request", "text": text}
        return JSONResponse({"error": error}, exc.status_code, headers=exc.headers)

    @app.exception_handler(OSError)
    @app.exception_handler(StoreError)
    async def storage(request: Request, exc: Exception) -> JSONResponse:
        # The server's own folder or database, not the request, is at fault (read-only,
        # full, stopped): 503 with the reason in one line, and the stored table untouched.
        lang: Lang = "zh" if request.query_params.get("lang") == "zh" else "en"
        detail = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
        error = {"key": "web_storage", "text": tr("web_storage", lang, detail=detail.splitlines()[0])}
        return JSONResponse({"error": error}, 503, headers={"Retry-After": "5"})

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})

    # The installable shell: the manifest and the service worker live at the root, since a
    # worker only controls pages under its own path (it caches the shell, never the API).
    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest() -> FileResponse:
        return FileResponse(str(STATIC / "manifest.webmanifest"), media_type="application/manifest+json")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        return FileResponse(
            str(STATIC / "sw.js"), media_type="text/javascript", headers={"Cache-Control": "no-cache"}
        )

    @app.get("/api/rules")
    def get_rules(lang: LangQ = "en") -> dict[str, Any]:
        """The rules of the profile this server deals, as ``pdk variants show`` says them."""
        profile = store.profile
        return {
            "title": profile.title.said(lang),
            "sections": [{"title": t, "rules": lines} for t, lines in sections(profile, lang)],
        }

    @app.get("/api/labels")
    def get_labels(lang: LangQ = "en") -> dict[str, str]:
        return labels(lang)

    @app.post("/api/open")
    def open_table(request: Request, body: OpenBody, lang: LangQ = "en") -> Response:
        """Resume the table of ``token`` if there is one, else start a new one (at most
        ``opens_per_minute`` per client address); a token that names no table any more was
        cleared as idle, and the player is told so."""
        table = store.get(body.token) if body.token else None
        if table is not None:
            return JSONResponse(table_json(table.snapshot(), lang, pace_ms))
        wait = opens.wait(request.client.host if request.client else "-")
        if wait:
            s = max(1, round(wait))
            err = {"key": "web_slow_down", "text": tr("web_slow_down", lang, s=s)}
            return JSONResponse({"error": err}, 429, headers={"Retry-After": str(s)})
        answer = table_json(store.create(body.difficulty).snapshot(), lang, pace_ms)
        if body.token and valid_token(body.token) and bounds.idle_seconds:
            age = idle_text(bounds.idle_seconds, lang)
            answer["notice"] = {"key": "web_expired", "text": tr("web_expired", lang, age=age)}
        return JSONResponse(answer)

    @app.get("/api/table/{token}")
    def get_table(token: TokenP, lang: LangQ = "en") -> Response:
        table = store.get(token)
        return missing(lang) if table is None else JSONResponse(table_json(table.snapshot(), lang, pace_ms))

    @app.post("/api/table/{token}/play")
    def play(token: TokenP, body: PlayBody, lang: LangQ = "en") -> Response:
        if body.text is not None:
            text = body.text
            return acted(token, lang, lambda t: t.play_text(body.seq, text))
        cards = list(body.cards or ())
        return acted(token, lang, lambda t: t.play_cards(body.seq, cards))

    @app.post("/api/table/{token}/judge")
    def judge(token: TokenP, body: PlayBody, lang: LangQ = "en") -> Response:
        """The verdict on a play without making it: 200 either way (a refused play is the
        rules' answer, not a failed request, so the browser logs no error for it)."""
        table = store.get(token)
        if table is None:
            return missing(lang)
        try:
            table.judge(body.seq, cards=body.cards, text=body.text)
        except LocalizedError as exc:  # IllegalPlay, CardParseError, InputError, TableRefused
            err = {"key": exc.reason.value, "text": exc.message(lang)}
            return JSONResponse({"legal": False, "error": err})
        return JSONResponse({"legal": True})

    @app.post("/api/table/{token}/pass")
    def pass_(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.pass_turn(body.seq))

    @app.post("/api/table/{token}/step")
    async def step(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        """A move of the machine; hard bots wait for a thinking slot (off the threads) first.
        Other bots move in the same trip to a thread that finds the table (most requests
        are these steps, and each trip costs)."""

        def at_once() -> Response | TableService:
            table = store.get(token)
            if table is None:
                return missing(lang)
            if table.session.difficulty == "hard":
                return table
            return acted(token, lang, lambda t: t.step(body.seq), table)

        found = await run_in_threadpool(at_once)
        if not isinstance(found, TableService):
            return found

        async def move() -> Response:
            return await run_in_threadpool(acted, token, lang, lambda t: t.step(body.seq), found)

        try:
            return await thinking.run(move)
        except Busy:
            err = {"key": "web_busy", "text": tr("web_busy", lang)}
            return JSONResponse({"error": err}, 503, headers={"Retry-After": "2"})

    @app.post("/api/table/{token}/auto")
    def auto(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.auto_move(body.seq))

    @app.post("/api/table/{token}/next")
    def next_deal(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.next_deal(body.seq))

    @app.post("/api/table/{token}/difficulty")
    def difficulty(token: TokenP, body: DifficultyBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.set_difficulty(body.difficulty))

    @app.post("/api/table/{token}/settings")
    def settings(token: TokenP, body: SettingsBody, lang: LangQ = "en") -> Response:
        def change(t: TableService) -> Reply:
            reply = t.reply()
            if body.auto is not None:
                reply = t.set_auto(body.auto)
            if body.auto_pass is not None:
                reply = t.set_auto_pass(body.auto_pass)
            if body.counter is not None:
                reply = t.set_counter(body.counter)
            return reply

        return acted(token, lang, change)

    @app.get("/api/table/{token}/replay")
    def replay(token: TokenP, lang: LangQ = "en") -> Response:
        table = store.get(token)
        if table is None:
            return missing(lang)
        with table.lock:
            table.refresh()
            if not table.session.state.over:
                err = {"key": "web_not_over", "text": tr("web_not_over", lang)}
                return JSONResponse({"error": err}, 409)
            return JSONResponse(replay_json(table, lang))

    add_review_routes(app, store)
    add_puzzle_routes(app)
    if rooms is None:
        rooms = Rooms(store.saves, store.archive, pace_ms=pace_ms, seed=store.seed)
    closing.append(mount_rooms(app, rooms).close)
    counters = metrics or Metrics()
    mount_operator(app, counters, store, rooms, thinking, bounds.metrics)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    inner = forwarded(app, Trusted(bounds.forwarded))
    return observed(guarded(inner, bounds.max_body, bounds.hosts), app, counters)


async def _sweep(store: TableStore, idle_seconds: float) -> None:
    """Clear the idle tables now and then (every tenth of the age, at most hourly)."""
    every = min(3600.0, max(1.0, idle_seconds / 10))
    while True:
        try:
            gone = await run_in_threadpool(store.expire, idle_seconds)
        except StoreError as exc:
            _log.warning("idle tables not cleared: %s", exc)
        else:
            if gone:
                _log.info("%d idle tables cleared", len(gone))
        await asyncio.sleep(every)


__all__ = ["MAX_BODY", "WebLimits", "create_app", "labels", "rendered", "replay_json", "table_json"]
