"""The page's numbers: the 复盘 review of the deal just finished, and a candidate's numbers
for the hint (``pdk.analysis.review``, ``pdk.bots.valuation``), as two read-only endpoints.

They live beside the table's endpoints (``server.create_app`` adds them) and read a table
only under its lock; the search itself runs outside it. Only the human seat is valued: the
review of its plays after the deal, the numbers of its choices while it is to move; both
see only that seat's view, like every bot. A review is kept per table and deal (the last
``KEEP``), so opening it twice costs one search. Each search waits for one of the
server's thinking slots (``Machine.analyse``, the hard bots' slots), identical requests
arriving together share one search, and past ``ANALYSES_WAITING`` waiting the answer is
503 ``web_busy`` with a ``Retry-After``; meanwhile the page shows that it is thinking.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from pdk.analysis.review import retry, review, to_dict
from pdk.bots.hints import searched
from pdk.bots.valuation import same_play
from pdk.engine.cards import CardParseError, CardPlace, cards_of
from pdk.engine.combos import Move
from pdk.engine.notation import typed_play
from pdk.engine.position import IllegalPlay, check, resolve_cards
from pdk.engine.record import GameRecord
from pdk.engine.state import PlayerView
from pdk.store.tokens import TOKEN_PATTERN
from pdk.table.session import HUMAN
from pdk.table.tables import TableStore
from pdk.text.catalog import Lang, tr
from pdk.view.table_model import card_name
from pdk.web.guard import Busy
from pdk.web.machine import Machine

# The page's review of one seat in a few seconds; its numbers are the hint's own search
# (``pdk.bots.hints``: budget, candidates and seed), so the two never disagree.
REVIEW_BUDGET = 6000
KEEP = 64

LangQ = Annotated[Literal["en", "zh"], Query()]
TokenP = Annotated[str, Path(pattern=TOKEN_PATTERN)]
NumberP = Annotated[int, Path(ge=1, le=10_000)]
CardStr = Annotated[str, Field(pattern=r"^(?:[3-9TJQKA2][shcd]?|[BR])$")]


class RetryBody(BaseModel):
    """The play tried: its cards, or the terminal notation as typed (``text``); neither: pass."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    cards: Annotated[list[CardStr], Field(max_length=40)] | None = None
    text: Annotated[str, Field(max_length=80)] | None = None


def _cards(view: PlayerView, move: Move | None) -> list[str] | None:
    """The cards of ``move`` from the seat's hand (a better play is shown on the very cards
    the seat held)."""
    if move is None:
        return None
    play = view.position().play_for(move)
    return [card_name(c) for c in sorted(play.cards)]


def add_review_routes(app: FastAPI, store: TableStore, machine: Machine) -> None:
    kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def error(key: str, lang: Lang, status: int) -> JSONResponse:
        return JSONResponse({"error": {"key": key, "text": tr(key, lang)}}, status)

    def busy(lang: Lang) -> JSONResponse:
        return JSONResponse(
            {"error": {"key": "web_busy", "text": tr("web_busy", lang)}}, 503, headers={"Retry-After": "2"}
        )

    async def finished(token: str, lang: Lang) -> GameRecord | JSONResponse:
        """The table's finished deal, or the error to answer with."""
        table = await run_in_threadpool(store.get, token)
        if table is None:
            return error("web_no_table", lang, 404)
        record = await run_in_threadpool(table.finished)
        return error("web_not_over", lang, 409) if record is None else record

    @app.get("/api/table/{token}/review")
    async def review_deal(token: TokenP, lang: LangQ = "en") -> Response:
        record = await finished(token, lang)
        if isinstance(record, JSONResponse):
            return record
        key = (token, int(record.meta["deal"]))
        data = kept.get(key)
        if data is None:
            try:
                data = await machine.analyse(("review", key), lambda: reviewed(key, record))
            except Busy:
                return busy(lang)
        return JSONResponse(data)

    def reviewed(key: tuple[str, int], record: Any) -> dict[str, Any]:
        data = kept.get(key)
        if data is None:
            data = to_dict(review(record, seats={HUMAN}, budget=REVIEW_BUDGET, seed=record.seed or 0))
            states = list(record.states())
            for entry in data["plays"]:
                n, seat = entry["n"], entry["seat"]
                action = record.actions[n - 1]
                before = states[n - 1]
                played = None if action.play is None else sorted(action.play.cards)
                entry["played_cards"] = None if played is None else [card_name(c) for c in played]
                options = [*before.view(seat).legal_moves(), None]
                best = next((m for m in options if _notation(m) == entry["best"]), None)
                same = same_play(best, action.play.move if action.play else None)
                entry["best_cards"] = None if same else _cards(before.view(seat), best)
                entry["hand"] = [card_name(c) for c in cards_of(before.hands[seat])]
            kept[key] = data
            while len(kept) > KEEP:
                kept.popitem(last=False)
        return data

    @app.post("/api/table/{token}/retry/{number}")
    async def retry_play(token: TokenP, number: NumberP, body: RetryBody, lang: LangQ = "en") -> Response:
        """A marked play tried again (``analysis.review.retry``): the same position and hands."""
        record = await finished(token, lang)
        if isinstance(record, JSONResponse):
            return record
        if number > len(record.actions) or record.actions[number - 1].seat != HUMAN:
            return error("web_rv_not_your_turn", lang, 409)
        state = next(st for i, st in enumerate(record.states(), 1) if i == number)
        position = state.view(HUMAN).position()
        try:
            if body.text is not None:  # an empty line passes
                played = check(position, typed_play(body.text, position) if body.text.strip() else None)
            else:
                text = "".join(body.cards or ())
                played = check(position, resolve_cards(text, position.hand, CardPlace.HAND) if text else None)
        except (IllegalPlay, CardParseError) as exc:
            said = tr("pz_illegal", lang, reason=exc.message(lang))
            return JSONResponse({"error": {"key": "pz_illegal", "text": said}}, 422)
        tried = None if played is None else played.move
        try:
            got = await machine.analyse(
                ("retry", token, number, _notation(tried)),
                lambda: retry(record, number, tried, budget=REVIEW_BUDGET, seed=record.seed or 0),
            )
        except Busy:
            return busy(lang)
        verdict = "rv_retry_better" if got.better else "rv_retry_worse" if got.worse else "rv_retry_even"
        text = tr(verdict, lang, tried=_said(got.tried, lang), played=_said(got.played, lang),
                  gain=got.gain.mean, low=got.gain.low, high=got.gain.high)  # fmt: skip
        real = tr("rv_retry_real", lang, tried=got.real[1], played=got.real[0])
        gain = [round(got.gain.mean, 2), round(got.gain.low, 2), round(got.gain.high, 2)]
        points = [round(x, 2) for x in got.real]
        return JSONResponse({"n": number, "better": got.better, "worse": got.worse, "text": text,
                             "gain": gain, "real": points, "real_text": real})  # fmt: skip

    @app.post("/api/table/{token}/practice/{number}")
    async def practice(token: TokenP, number: NumberP, lang: LangQ = "en") -> Response:
        """A practice table from a position of the finished deal: the same hands before the
        person's play ``number``, the computers playing on from there at the table's level.
        Answers the new table's token (the page opens it as its own table)."""
        record = await finished(token, lang)
        if isinstance(record, JSONResponse):
            return record
        table = await run_in_threadpool(store.get, token)
        if table is None:
            return error("web_no_table", lang, 404)
        try:
            made = await run_in_threadpool(store.practice, record, number, table.session.difficulty)
        except ValueError:
            return error("web_rv_practice_not_yours", lang, 409)
        return JSONResponse({"token": made.key, "seq": made.seq})

    @app.get("/api/table/{token}/numbers")
    async def numbers(token: TokenP, lang: LangQ = "en") -> Response:
        table = await run_in_threadpool(store.get, token)
        if table is None:
            return error("web_no_table", lang, 404)
        turn = await run_in_threadpool(table.turn_view, HUMAN)
        if turn is None:
            return error("web_rv_not_your_turn", lang, 409)
        seq, view, _ = turn
        try:
            a = await machine.analyse(
                ("numbers", token, seq),
                lambda: searched(view),
            )
        except Busy:
            return busy(lang)
        plays = [
            {
                "cards": _cards(view, p.move),
                "text": tr("adv_pass", lang) if p.move is None else p.move.shown(),
                "points": [round(p.points.mean, 2), round(p.points.low, 2), round(p.points.high, 2)],
                "win": [round(p.win.mean, 3), round(p.win.low, 3), round(p.win.high, 3)],
                "proof": None if p.proof is None else p.proof.value,
            }
            for p in a.plays
        ]
        return JSONResponse({"seq": seq, "deals": a.deals, "plays": plays})


def _said(move: Move | None, lang: Lang) -> str:
    return tr("adv_pass", lang) if move is None else f"{move.shown()} {move.said.text(lang)}"


def _notation(move: Move | None) -> str | None:
    return None if move is None else move.notation()
