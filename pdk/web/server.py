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
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from pdk.bots import DIFFICULTIES
from pdk.rooms.room import Rooms
from pdk.store.contract import StoreError
from pdk.store.tokens import TOKEN_PATTERN, valid_token
from pdk.table import runner
from pdk.table.service import Reply, SeatTable, TableService
from pdk.table.tables import TableStore
from pdk.text.catalog import Lang, LocalizedError, tr
from pdk.view.rules_in_words import sections
from pdk.web.address import Links
from pdk.web.forwarded import DEFAULT_TRUSTED, Trusted, forwarded
from pdk.web.guard import Busy, RateLimit, guarded
from pdk.web.machine import Machine
from pdk.web.metrics import Metrics, MetricsAccess, Shared, mount_operator, observed
from pdk.web.puzzles_api import add_puzzle_routes
from pdk.web.review_api import add_review_routes
from pdk.web.rooms_api import RoomLimits, mount_rooms
from pdk.web.rules_api import add_rules_routes
from pdk.web.wire import STATIC, CardStr, LangQ, labels, replay_json, table_json

MAX_BODY = 4096
_log = logging.getLogger(__name__)
TokenP = Annotated[str, Path(pattern=TOKEN_PATTERN)]


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
    """Cards tapped (``cards``) or a play typed (``text``, as the player wrote it).
    ``verdict``: a refused play is answered 200 with its reason and the table unchanged,
    as the verdict on it rather than a failed request, so the page sends a play once and
    the browser logs no error for one the rules refuse (left out: 409, as every refusal)."""

    cards: Annotated[list[CardStr], Field(min_length=1, max_length=40)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    verdict: bool = False

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
    auto_level: Literal["", "easy", "normal", "hard"] | None = None  # "": the table's level


class DifficultyBody(_Body):
    difficulty: Difficulty


# -- the app ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WebLimits:
    """The bounds of one server (``pdk serve``'s options; see ``pdk.web.guard``)."""

    max_body: int = MAX_BODY
    hosts: frozenset[str] | None = None  # Host names accepted (None: any; loopback: its names)
    opens_per_minute: float = 30  # new tables per client address (0: no limit)
    hard_slots: int = 1  # hard bots thinking at once in this process
    idle_seconds: float = 14 * 86400  # a table nobody moved for this long is cleared (0: never)
    rooms: RoomLimits = field(default_factory=RoomLimits)  # per-client room budgets
    forwarded: str = DEFAULT_TRUSTED  # whose X-Forwarded-* headers are believed (pdk.web.forwarded)
    metrics: MetricsAccess = "local"  # who may read /metrics (pdk.web.metrics)


def room_limits(creates: float, streams: float, polls: float) -> RoomLimits:
    """The rooms' per-client budgets at these rates a minute (``pdk serve``'s
    ``--rooms-per-minute``, ``--streams-per-minute``, ``--polls-per-minute``; 0: no limit),
    each bucket as deep as the defaults' (half a minute's rooms and streams at once, a
    sixth of a minute's polls). A client is its address, or behind a trusted proxy the
    address the proxy forwarded (``pdk.web.forwarded``)."""
    d = RoomLimits()
    return RoomLimits(
        creates_per_minute=creates,
        creates_burst=max(1, round(creates * d.creates_burst / d.creates_per_minute)),
        streams_per_minute=streams,
        streams_burst=max(1, round(streams * d.streams_burst / d.streams_per_minute)),
        polls_per_minute=polls,
        polls_burst=max(1, round(polls * d.polls_burst / d.polls_per_minute)),
    )


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
    links: Links | None = None,
    shared: Shared | None = None,
) -> Any:
    """The app for one store; ``pace_ms`` is how long the page shows each bot move.
    ``rooms`` are the tables for friends (by default kept in the same store); ``metrics``
    the counters ``/metrics`` shows (given when the store counts its errors into them);
    ``links`` how rooms' invitations are addressed (by default, as the page was opened);
    ``shared`` the folder where the workers of one server sum their metrics (``--workers``)."""
    bounds = limits or WebLimits()
    opens = RateLimit(bounds.opens_per_minute)
    machine = Machine(bounds.hard_slots)  # every machine move of this process, rooms' too

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
        token: str,
        lang: Lang,
        command: Callable[[TableService], Reply],
        found: TableService | None = None,
        refusal: int = 409,
    ) -> Response:
        table = found or store.get(token)
        if table is None:
            return missing(lang)
        try:
            reply = command(table)
        except LocalizedError as exc:  # IllegalPlay, CardParseError, InputError, TableRefused
            return refused(exc, table, lang, refusal)
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
            "title": profile.title.said.text(lang),
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
        refusal = 200 if body.verdict else 409
        if body.text is not None:
            text = body.text
            return acted(token, lang, lambda t: t.play_text(body.seq, text), refusal=refusal)
        cards = list(body.cards or ())
        return acted(token, lang, lambda t: t.play_cards(body.seq, cards), refusal=refusal)

    @app.post("/api/table/{token}/pass")
    def pass_(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.pass_turn(body.seq))

    async def machine_move(
        token: str, lang: Lang, move: Callable[[TableService], Reply], hard: Callable[[SeatTable], bool]
    ) -> Response:
        """A machine move on a table: a hard bot's search (``hard`` says whether this one
        is) waits for a thinking slot (off the threads) first. Other moves are made in the
        same trip to a thread that finds the table (most requests are these, and each trip
        costs)."""

        def at_once() -> Response | TableService:
            table = store.get(token)
            if table is None:
                return missing(lang)
            if hard(table.snapshot()):
                return table
            return acted(token, lang, move, table)

        found = await run_in_threadpool(at_once)
        if not isinstance(found, TableService):
            return found
        try:
            return await machine.hard(lambda: acted(token, lang, move, found))
        except Busy:
            err = {"key": "web_busy", "text": tr("web_busy", lang)}
            return JSONResponse({"error": err}, 503, headers={"Retry-After": "2"})

    @app.post("/api/table/{token}/step")
    async def step(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        """A move of the machine (``pdk.table.runner``)."""
        return await machine_move(token, lang, lambda t: t.step(body.seq), runner.hard)

    @app.post("/api/table/{token}/auto")
    async def auto(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        """托管 for one move: the table's level plays the seat, so at a hard table it is a
        search and waits for a slot as the bots' do."""
        return await machine_move(token, lang, lambda t: t.auto_move(body.seq), runner.hard_level)

    @app.post("/api/table/{token}/hints")
    async def hints(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        """The seat's hints, searched in a thinking slot (a snapshot carries only hints
        already searched, ``hints_pending`` otherwise: ``TableService.search_hints``); the
        table drawn with them, and the search's process seconds (``hint_seconds``)."""

        def search() -> Response:
            table = store.get(token)
            if table is None:
                return missing(lang)
            try:
                reply, took = table.search_hints(body.seq)
            except LocalizedError as exc:  # TableRefused: moved on, or not the seat's turn
                return refused(exc, table, lang, 409)
            return JSONResponse({**table_json(reply.table, lang, pace_ms), "hint_seconds": round(took, 3)})

        try:
            return await machine.analyse(("hints", token, body.seq, lang), search)
        except Busy:
            err = {"key": "web_busy", "text": tr("web_busy", lang)}
            return JSONResponse({"error": err}, 503, headers={"Retry-After": "2"})

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
            if body.auto_level is not None:
                reply = t.set_auto_level(body.auto_level or None)
            return reply

        return acted(token, lang, change)

    @app.get("/api/table/{token}/replay")
    def replay(token: TokenP, lang: LangQ = "en") -> Response:
        table = store.get(token)
        if table is None:
            return missing(lang)
        with table.lock:
            table.refresh()
            record = table.finished()
        if record is None:
            err = {"key": "web_not_over", "text": tr("web_not_over", lang)}
            return JSONResponse({"error": err}, 409)
        return JSONResponse(replay_json(record, lang))

    add_review_routes(app, store, machine)
    add_puzzle_routes(app, store.archive.history)
    if rooms is None:
        rooms = Rooms(store.saves, store.archive, pace_ms=pace_ms, seed=store.seed)
    closing.append(mount_rooms(app, rooms, machine, bounds.rooms, links or Links()).close)
    add_rules_routes(app, store, opens, rooms)
    counters = metrics or Metrics()
    mount_operator(app, counters, store, rooms, machine.thinking, bounds.metrics, shared)
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


__all__ = ["MAX_BODY", "WebLimits", "create_app", "room_limits"]
