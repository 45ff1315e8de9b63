"""Issue 37: a position of a finished deal opens as a practice table that plays on from
there against the computers (the page's review offers it beside each of the person's plays)."""

from __future__ import annotations

import warnings
from pathlib import Path

from pdk.engine.cards import cards_of
from pdk.table.session import HUMAN
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.view.table_model import card_name
from pdk.web.server import create_app
from tests.web.test_review import finish

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_a_position_of_the_deal_plays_on_as_a_practice_table(tmp_path: Path) -> None:
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=5, difficulty="easy")
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    assert client.post(f"/api/table/{token}/practice/1").status_code == 409  # not over yet
    finish(store, token)
    table = store.get(token)
    assert table is not None
    record = table.finished()
    assert record is not None
    mine = [n for n, a in enumerate(record.actions, 1) if a.seat == HUMAN]
    number = mine[len(mine) // 2]
    before = list(record.states())[number - 1]
    got = client.post(f"/api/table/{token}/practice/{number}")
    assert got.status_code == 200, got.text
    new = got.json()["token"]
    assert new != token
    # The same hands before that play, the person to move, the first plays kept.
    shown = client.get(f"/api/table/{new}").json()
    assert shown["seq"] == number - 1 and not shown["bot_turn"]
    assert sorted(shown["model"]["hand"]) == sorted(card_name(c) for c in cards_of(before.hands[HUMAN]))
    practice = store.get(new)
    assert practice is not None
    assert practice.session.state.hands == before.hands
    # It plays on to its end against the computers, as any table does.
    finish(store, new)
    assert practice.session.state.over and practice.finished() is not None
    # A play of a computer's is no place to start a practice.
    theirs = next(n for n, a in enumerate(record.actions, 1) if a.seat != HUMAN)
    refused = client.post(f"/api/table/{token}/practice/{theirs}")
    assert refused.status_code == 409 and refused.json()["error"]["key"] == "web_rv_practice_not_yours"
