"""Issue 37: a browser table's hints are searched when the page asks, in a thinking slot,
never while a snapshot of the table is built (the search's p99 was 3.1 s, and every poll,
step and play built one)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from pdk.bots import hints as hints_module
from pdk.bots.hints import HINT_BUDGET, first_choice
from pdk.table.session import HUMAN
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the hint searches made (``pdk.bots.hints`` calls the analysis's race for them)."""
    made: list[int] = []
    real = hints_module.race

    def counted(*args: Any, **kw: Any) -> Any:
        made.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(hints_module, "race", counted)
    return made


def at_my_turn(root: Path, difficulty: str) -> tuple[TableStore, TestClient, str, dict[str, Any]]:
    """A classic16 browser table of ``difficulty`` at the person's first turn."""
    store = TableStore(root, load_profile("classic16"), "classic16", seed=4, difficulty=difficulty)
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    table = client.get(f"/api/table/{token}").json()
    while table["bot_turn"]:
        table = client.post(f"/api/table/{token}/step", json={"seq": table["seq"]}).json()
    return store, client, token, table


def test_no_snapshot_waits_on_a_hint_search_the_page_asks(tmp_path: Path, searches: list[int]) -> None:
    store, client, token, table = at_my_turn(tmp_path, "normal")
    # Before: the snapshot of the seat's turn searched the hints (about 0.3 s, p99 3.1 s).
    assert searches == []
    assert table["model"]["hints_pending"] is True
    seq = table["seq"]
    got = client.post(f"/api/table/{token}/hints", json={"seq": seq})
    assert got.status_code == 200, got.text
    answer = got.json()
    assert len(searches) == 1 and answer["hint_seconds"] > 0
    model = answer["model"]
    assert model["hints_pending"] is False and 1 <= len(model["hints"]) == len(model["hint_reasons"]) <= 5
    live = store.get(token)
    assert live is not None
    move = first_choice(live.session.state.view(HUMAN), HINT_BUDGET)
    assert move is not None and model["hints"][0]["text"] == move.shown()
    # Searched once: the next snapshot carries them, and asking again searches nothing.
    again = client.get(f"/api/table/{token}").json()["model"]
    assert again["hints_pending"] is False and again["hints"] == model["hints"]
    assert client.post(f"/api/table/{token}/hints", json={"seq": seq}).json()["hint_seconds"] == 0
    assert len(searches) == 1
    # A stale move number is refused, as a play's is.
    stale = client.post(f"/api/table/{token}/hints", json={"seq": seq + 5})
    assert stale.status_code == 409 and stale.json()["error"]["key"] == "web_stale"


def test_an_easy_table_shows_the_planners_hints_at_once(tmp_path: Path, searches: list[int]) -> None:
    table = at_my_turn(tmp_path, "easy")[3]
    assert table["model"]["hints_pending"] is False and table["model"]["hints"]
    assert searches == []


def test_the_page_picks_the_level_tuo_guan_plays_at(tmp_path: Path) -> None:
    # Before: the settings took no level (422), and 托管 always played the table's.
    from dataclasses import replace

    from pdk.bots import make_bot
    from pdk.engine.deal import bot_seed
    from pdk.table import runner

    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=4, difficulty="easy")
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    url = f"/api/table/{token}"
    answer = client.post(f"{url}/settings", json={"auto_level": "normal"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["auto_level"] == "normal"
    live = store.get(token)
    assert live is not None and live.session.auto_level == "normal"
    # 托管 plays as the picked level's bot plays that seat, from what the seat may see.
    table = client.get(url).json()
    while table["bot_turn"]:
        table = client.post(f"{url}/step", json={"seq": table["seq"]}).json()
    seq = table["seq"]
    view = live.session.state.view(HUMAN)
    want = make_bot("normal", bot_seed(live.session.seed, HUMAN)).choose(view)
    client.post(f"{url}/auto", json={"seq": seq})
    played = live.session.state.history[seq].play
    assert (played.move if played else None) == want
    # Picked hard at an easy table, a 托管 move is a hard search and waits for a slot.
    shown = live.snapshot()
    assert not runner.hard_level(shown)
    assert runner.hard_level(replace(shown, auto_level="hard"))
    # "" is the table's level again.
    assert client.post(f"{url}/settings", json={"auto_level": ""}).json()["auto_level"] == ""
    assert client.post(f"{url}/settings", json={"auto_level": "expert"}).status_code == 422
