"""The HTTP side of ``pdk serve``: a FastAPI app over the table service (``pdk.app.service``).

Each endpoint is one seat command: the request names it, the service runs it, and the
answer is the events it made happen plus the human seat's table (``SeatTable``, its
``TableModel`` rendered in the page's language by ``pdk.text``), so the browser only ever
learns what that seat may see; the deal's full record (every hand face up) is served only
once it is over, for the replay view. The page sends cards as the player typed or tapped
them; the service reads them. Requests are pydantic models that refuse unknown fields,
bodies are capped at ``MAX_BODY`` bytes, tokens are matched against a strict pattern
before the store is asked, a refused action (illegal, stale, out of turn) answers 409 with
the reason and the unchanged table, and a write the store could not make answers 503 with
its reason in one line, nothing applied.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from pdk.app.notation import one_card
from pdk.app.rules_in_words import sections
from pdk.app.service import Reply, SeatTable, TableService
from pdk.app.session import HUMAN
from pdk.app.store import StoreUnavailable
from pdk.app.table_model import card_name, play_model, seat_name, settlement_model
from pdk.app.tables import TOKEN_PATTERN, TableStore
from pdk.bots import DIFFICULTIES
from pdk.engine.cards import cards_of
from pdk.engine.events import BaoDan, BombStands, DealOver, Event, Passed, Played, PlayerOut, TrickWon
from pdk.text.catalog import MESSAGES, Lang, LocalizedError, tr

MAX_BODY = 4096
STATIC = files("pdk.web") / "static"
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
    model_config = ConfigDict(extra="forbid", frozen=True)


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


def body_limit(app: Any, limit: int = MAX_BODY) -> Any:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413, whether it
    says its length or streams it."""

    async def guarded(
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send)
            return
        seen = 0

        async def counted() -> MutableMapping[str, Any]:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _TooLarge
            return message

        try:
            await app(scope, counted, send)
        except _TooLarge:
            await _too_large(send)

    return guarded


class _TooLarge(Exception):
    pass


async def _too_large(send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
    body = b'{"error":{"key":"web_too_large","text":"Request too large."}}'
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_app(store: TableStore, pace_ms: int = 700) -> Any:
    """The app for one store; ``pace_ms`` is how long the page shows each bot move."""
    app = FastAPI(title="pdk", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # phones on slow links: 32 KB -> 11 KB

    def refused(exc: LocalizedError, table: TableService, lang: Lang, status: int = 409) -> JSONResponse:
        err = {"key": exc.reason.value, "text": exc.message(lang)}
        now = table_json(table.snapshot(), lang, pace_ms)
        return JSONResponse({"error": err, "table": now}, status_code=status)

    def missing(lang: Lang) -> JSONResponse:
        return JSONResponse({"error": {"key": "web_no_table", "text": tr("web_no_table", lang)}}, 404)

    def acted(token: str, lang: Lang, command: Callable[[TableService], Reply]) -> Response:
        table = store.get(token)
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

    def unavailable(request: Request, detail: str) -> JSONResponse:
        # The server's own storage, not the request, is at fault (read-only, full, gone):
        # 503 with the reason in one line; nothing was applied.
        lang: Lang = "zh" if request.query_params.get("lang") == "zh" else "en"
        error = {"key": "web_storage", "text": tr("web_storage", lang, detail=" ".join(detail.split()))}
        return JSONResponse({"error": error}, 503)

    @app.exception_handler(OSError)
    async def storage(request: Request, exc: OSError) -> JSONResponse:
        return unavailable(request, exc.strerror or type(exc).__name__)

    @app.exception_handler(StoreUnavailable)
    async def store_down(request: Request, exc: StoreUnavailable) -> JSONResponse:
        return unavailable(request, exc.detail)

    @app.get("/", include_in_schema=False)
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
    def open_table(body: OpenBody, lang: LangQ = "en") -> Response:
        """Resume the table of ``token`` if there is one, else start a new one."""
        table = store.get(body.token) if body.token else None
        if table is None:
            table = store.create(body.difficulty)
        return JSONResponse(table_json(table.snapshot(), lang, pace_ms))

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

    @app.post("/api/table/{token}/pass")
    def pass_(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.pass_turn(body.seq))

    @app.post("/api/table/{token}/step")
    def step(token: TokenP, body: SeqBody, lang: LangQ = "en") -> Response:
        return acted(token, lang, lambda t: t.step(body.seq))

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

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return body_limit(app)


__all__ = ["MAX_BODY", "create_app", "labels", "rendered", "replay_json", "table_json"]
