"""The page's 残局 puzzles (``pdk.analysis.puzzles``): the puzzle page at ``/puzzles`` and its
endpoints. A puzzle is open-handed, so showing every hand reveals nothing; an answer is
judged by the engine (an illegal one is refused with its reason) and answered with the
line that proves it: the winning line after the right play, the refutation after a wrong
one, and the answer's own line."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from pdk.analysis.puzzles import THEMES, Puzzle, line, load, themes
from pdk.engine import counts as C
from pdk.engine.cards import CardParseError, CardPlace, cards_of, rank_of
from pdk.engine.combos import Move
from pdk.engine.position import IllegalPlay, check, resolve_cards
from pdk.engine.position_text import TablePosition
from pdk.text.catalog import Lang, tr
from pdk.view.table_model import card_name, seat_names

STATIC = FilePath(__file__).parent / "static"
LangQ = Annotated[Literal["en", "zh"], Query()]
IdP = Annotated[int, Path(ge=1, le=1_000_000)]
CardStr = Annotated[str, Field(pattern=r"^(?:[3-9TJQKA2][shcd]?|[BR])$")]


class AnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    cards: Annotated[list[CardStr], Field(max_length=40)] | None = None  # None: pass


def _line(pos: TablePosition, first: Move | None, goal: str) -> list[dict[str, Any]]:
    """A line as the page shows it: each play on the cards its seat held."""
    out = []
    hands = [h or 0 for h in pos.hands]
    for seat, move in line(pos, first, goal):
        cards = None
        if move is not None:
            picked = _pick(cards_of(hands[seat]), move)
            hands[seat] &= ~sum(1 << c for c in picked)
            cards = [card_name(c) for c in picked]
        out.append({"seat": seat, "cards": cards})
    return out


def _pick(held: list[int], move: Move) -> list[int]:
    """The lowest cards of each rank the move needs (open hands: any suits do)."""
    need = {r: n for r, n in C.items(move.counts)}
    out = []
    for c in sorted(held):
        r = rank_of(c)
        if need.get(r, 0):
            need[r] -= 1
            out.append(c)
    return out


def add_puzzle_routes(app: FastAPI) -> None:
    shipped: list[Puzzle] = load()
    by_id = {p.id: p for p in shipped}

    def no_puzzle(lang: Lang) -> JSONResponse:
        return JSONResponse({"error": {"key": "pz_none", "text": tr("pz_none", lang, level="-")}}, 404)

    @app.get("/puzzles", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(str(STATIC / "puzzles.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/api/puzzles")
    def puzzle_list(lang: LangQ = "en") -> dict[str, Any]:
        return {"puzzles": [{"id": p.id, "level": p.level, "themes": list(themes(p))} for p in shipped],
                "themes": list(THEMES),
                "theme_names": {t: tr(f"pz_theme_{t}", lang) for t in THEMES}}  # fmt: skip

    @app.get("/api/puzzles/{number}")
    def puzzle(number: IdP, lang: LangQ = "en") -> Response:
        p = by_id.get(number)
        if p is None:
            return no_puzzle(lang)
        pos = p.table()
        names = seat_names(pos.sizes, pos.turn, lang)  # 你 / 下家 / 上家: who plays after whom
        level = tr(f"pz_level_{p.level}", lang)
        goal = tr(f"pz_goal_{p.goal}", lang, who=names[pos.turn])
        return JSONResponse(
            {
                "id": p.id,
                "level": p.level,
                "level_name": level,
                "title": tr("pz_title", lang, id=p.id, level=level, goal=goal),
                "turn": pos.turn,
                "names": names,
                "hands": [[card_name(c) for c in cards_of(h or 0)] for h in pos.hands],
                "beat": None
                if pos.beat is None
                else {"seat": pos.beat_seat, "cards": [card_name(c) for c in pos.beat]},
                "position": p.position,
                "themes": [{"key": t, "text": tr(f"pz_theme_{t}", lang)} for t in themes(p)],
            }
        )

    @app.post("/api/puzzles/{number}/answer")
    def answer(number: IdP, body: AnswerBody, lang: LangQ = "en") -> Response:
        p = by_id.get(number)
        if p is None:
            return no_puzzle(lang)
        pos = p.table()
        position = pos.view().position()
        try:
            text = "".join(body.cards or ())
            cards = resolve_cards(text, position.hand, CardPlace.HAND) if text else None
            played = check(position, cards)
        except (IllegalPlay, CardParseError) as exc:
            said = tr("pz_illegal", lang, reason=exc.message(lang))
            return JSONResponse({"error": {"key": "pz_illegal", "text": said}}, 422)
        move = None if played is None else played.move
        right = p.is_answer(move)
        solution = next((m for m in [*position.legal_moves(), None] if p.is_answer(m)), None)
        return JSONResponse(
            {
                "right": right,
                "line": _line(pos, move, p.goal),
                "answer_line": None if right else _line(pos, solution, p.goal),
            }
        )
