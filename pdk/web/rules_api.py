"""House rules on the page: the options a shipped profile offers, a mix checked as a YAML
profile is, a single table or a room started under it, and any table's rules in words or
as a profile file to download.

The page never builds a profile itself: it sends a base name and its choices (house-rule
key -> choice, ``pdk.variants.options``), and the server builds and validates the profile
with the same model as ``pdk variants check``. A mix that cannot be played comes back with
every field and reason, 200 either way from ``check`` (the rules' answer, not a failed
request). The words are ``pdk variants show``'s (``pdk.view.rules_in_words``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from pdk.engine.profile import Profile, ProfileError
from pdk.rooms.room import RoomReason, RoomRefused, Rooms, shipped_profiles
from pdk.table.tables import TableStore
from pdk.text.catalog import Lang, tr
from pdk.variants.options import (
    OptionError,
    build,
    changes,
    chosen_fields,
    house_rules,
    house_yaml,
    profile_yaml,
)
from pdk.view.rules_in_words import explain, sections
from pdk.web.guard import RateLimit
from pdk.web.wire import KeyH, LangQ, RoomP, TokenP

BaseName = Annotated[str, Field(max_length=40)]
Chosen = Annotated[
    dict[Annotated[str, Field(max_length=24)], Annotated[str, Field(max_length=12)]], Field(max_length=24)
]


class RulesBody(BaseModel):
    """A rule set as the page sends it: a shipped base and the house rules switched on it."""

    model_config = ConfigDict(extra="forbid")
    base: BaseName = "classic16"
    rules: Chosen = {}


class TableBody(RulesBody):
    difficulty: Annotated[str, Field(max_length=16)] | None = None  # unknown: the server's own


def words(profile: Profile, lang: Lang) -> dict[str, Any]:
    """A profile's rules as ``pdk variants show`` says them, plus its name and title."""
    return {
        "name": profile.name,
        "title": profile.title.said.text(lang),
        "description": profile.description.said.text(lang),
        "sections": [{"title": t, "rules": lines} for t, lines in sections(profile, lang)],
        "text": explain(profile, lang),
    }


def yaml_response(profile: Profile, base: str | None = None) -> Response:
    """A rule set as a profile file the browser saves as NAME.yaml (``--variant NAME.yaml``):
    on its shipped ``base`` and what differs, or whole where the base is not known."""
    start = shipped_profiles().get(base or "")
    text = profile_yaml(profile) if base is None or start is None else house_yaml(base, start, profile)
    filename = f"{profile.name}.yaml"
    return Response(
        text,
        media_type="application/x-yaml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


class RuleSet:
    """The outcome of building a chosen rule set: the profile, or every problem said."""

    def __init__(self, body: RulesBody, lang: Lang) -> None:
        self.base = shipped_profiles().get(body.base)
        self.profile: Profile | None = None
        self.problems: list[dict[str, str]] = []
        if self.base is None:
            self.problems.append({"field": "base", "text": tr("web_rules_bad_base", lang, name=body.base)})
            return
        try:
            self.profile = build(self.base, chosen_fields(self.base, body.rules))
        except ProfileError as exc:
            found = exc.problems or ()
            self.problems = [{"field": p.field, "text": p.message(lang)} for p in found]
            if not self.problems:
                self.problems.append({"field": "", "text": exc.message(lang)})
        except OptionError as exc:
            self.problems.append({"field": str(exc.params.get("option", "")), "text": exc.message(lang)})

    def refused(self, lang: Lang) -> JSONResponse:
        text = "; ".join(p["text"] for p in self.problems)
        error = {"key": "web_rules_refused", "text": tr("web_rules_refused", lang, detail=text)}
        return JSONResponse({"error": error, "problems": self.problems}, 422)

    def answer(self, lang: Lang) -> dict[str, Any]:
        if self.profile is None or self.base is None:
            return {"ok": False, "problems": self.problems}
        said = [s.text(lang) for s in changes(self.base, self.profile)]
        return {"ok": True, "changes": said, "rules": words(self.profile, lang)}


def add_rules_routes(app: FastAPI, store: TableStore, opens: RateLimit, rooms: Rooms) -> None:
    """The house-rules endpoints of one server (``server.create_app`` adds them)."""

    def room_rules(room_id: str, key: str, lang: Lang) -> Profile | JSONResponse:
        """The rules a room plays, for a viewer holding one of its keys."""
        try:
            room = rooms.get(room_id)
            room.viewer(key)
        except RoomRefused as exc:
            status = 404 if exc.reason is RoomReason.NO_ROOM else 403
            return JSONResponse({"error": {"key": exc.reason.value, "text": exc.message(lang)}}, status)
        return room.info.rules()

    @app.get("/api/room/{room_id}/rules")
    async def get_room_rules(room_id: RoomP, key: KeyH = None, lang: LangQ = "en") -> Response:
        """A room's rules in words, as ``pdk variants show`` says them (the menu, the lobby);
        the viewer's key in the ``X-PDK-Key`` header, never in the URL."""
        found = await run_in_threadpool(room_rules, room_id, key or "", lang)
        return found if isinstance(found, JSONResponse) else JSONResponse(words(found, lang))

    @app.get("/api/room/{room_id}/rules.yaml")
    async def get_room_rules_file(room_id: RoomP, key: KeyH = None, lang: LangQ = "en") -> Response:
        """A room's rules as a whole profile file (``--variant FILE`` in the terminal)."""
        found = await run_in_threadpool(room_rules, room_id, key or "", lang)
        return found if isinstance(found, JSONResponse) else yaml_response(found)

    @app.get("/api/rules/options")
    def options(base: Annotated[str, Query(max_length=40)] = "", lang: LangQ = "en") -> Response:
        """The bases a table may start from and the house rules ``base`` offers (the server's
        own profile when it is shipped, else classic16), each choice said in ``lang``."""
        known = shipped_profiles()
        name = base or (store.profile.name if store.profile.name in known else "classic16")
        start = known.get(name)
        if start is None:
            error = {"key": "web_rules_bad_base", "text": tr("web_rules_bad_base", lang, name=name)}
            return JSONResponse({"error": error}, 404)
        rules = []
        for r in house_rules(start):
            choices = [
                {"value": c.value, "label": c.label.text(lang), "sets": dict(c.sets)} for c in r.choices
            ]
            rules.append(
                {
                    "key": r.key,
                    "label": r.label.text(lang),
                    "fields": list(r.fields),
                    "choices": choices,
                    "current": r.current,
                }
            )
        listed = [
            {"name": p.name, "title": p.title.said.text(lang), "players": p.players} for p in known.values()
        ]
        return JSONResponse({"base": name, "bases": listed, "rules": rules, "words": words(start, lang)})

    @app.post("/api/rules/check")
    def check(body: RulesBody, lang: LangQ = "en") -> dict[str, Any]:
        """The rule set built and validated: its rules in words, or every field refused."""
        return RuleSet(body, lang).answer(lang)

    @app.post("/api/rules/yaml")
    def download(body: RulesBody, lang: LangQ = "en") -> Response:
        made = RuleSet(body, lang)
        if made.profile is None:
            return made.refused(lang)
        return yaml_response(made.profile, body.base)

    @app.post("/api/rules/table")
    def new_table(body: TableBody, request: Request, lang: LangQ = "en") -> Response:
        """A single table under the chosen rules: its token, which the page opens as any
        other (``/api/open``). Counted against the same opens a minute as a new table."""
        made = RuleSet(body, lang)
        if made.profile is None:
            return made.refused(lang)
        wait = opens.wait(request.client.host if request.client else "-")
        if wait:
            s = max(1, round(wait))
            err = {"key": "web_slow_down", "text": tr("web_slow_down", lang, s=s)}
            return JSONResponse({"error": err}, 429, headers={"Retry-After": str(s)})
        table = store.create(body.difficulty, made.profile)
        return JSONResponse({"token": table.key, "rules": words(made.profile, lang)})

    @app.get("/api/table/{token}/rules")
    def table_rules(token: TokenP, lang: LangQ = "en") -> Response:
        """The rules this table plays (its own house rules or the server's), in words."""
        table = store.get(token)
        if table is None:
            return JSONResponse({"error": {"key": "web_no_table", "text": tr("web_no_table", lang)}}, 404)
        return JSONResponse(words(table.profile, lang))

    @app.get("/api/table/{token}/rules.yaml")
    def table_rules_file(token: TokenP, lang: LangQ = "en") -> Response:
        """This table's rules as a whole profile file."""
        table = store.get(token)
        if table is None:
            return JSONResponse({"error": {"key": "web_no_table", "text": tr("web_no_table", lang)}}, 404)
        return yaml_response(table.profile)


__all__ = ["Chosen", "RuleSet", "RulesBody", "add_rules_routes", "words", "yaml_response"]
