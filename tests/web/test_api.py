"""The HTTP API of ``pdk serve``, through FastAPI's TestClient.

A whole deal is played through the API while every response is searched for a card of
another seat's unplayed hand; refused actions (illegal, stale, out of turn, for a finished
deal) must change nothing; requests are validated, tokens checked, bodies bounded.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from pdk.engine.cards import cards_of
from pdk.engine.record import loads
from pdk.table.history import History
from pdk.table.service import TableReason, TableRefused
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.view.table_model import card_name
from pdk.web.server import MAX_BODY, create_app

with warnings.catch_warnings():  # starlette's note that it would rather have httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SEAT_KEYS = frozenset({"counter"})


def make_client(root: Path, variant: str = "classic16", **kw: Any) -> tuple[TableStore, TestClient]:
    store = TableStore(root, load_profile(variant), variant, seed=kw.pop("seed", 3), difficulty="easy", **kw)
    return store, TestClient(create_app(store, pace_ms=0))


def strings(data: Any) -> set[str]:
    """Every string in a JSON answer (the counter's rank letters left out)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in SEAT_KEYS:
                out |= strings(v)
    elif isinstance(data, list):
        for v in data:
            out |= strings(v)
    elif isinstance(data, str):
        out.add(data)
    return out


def hidden_cards(store: TableStore, token: str) -> set[str]:
    table = store.get(token)
    assert table is not None
    state = table.session.state
    if state.over:
        return set()
    return {card_name(c) for seat in range(1, state.players) for c in cards_of(state.hands[seat])}


def play_deal(store: TableStore, client: TestClient, token: str, lang: str = "en") -> list[dict[str, Any]]:
    """Play one deal to its settlement (hint, play, pass; bots stepped), checking that no
    answer carries another seat's unplayed card; returns every answer."""
    answers = []
    table = client.get(f"/api/table/{token}", params={"lang": lang}).json()
    for _ in range(400):
        answers.append(table)
        assert not (hidden_cards(store, token) & strings(table)), "another seat's card was sent"
        model = table["model"]
        if model["settlement"] is not None:
            return answers
        url = f"/api/table/{token}"
        if table["bot_turn"]:
            r = client.post(f"{url}/step", json={"seq": table["seq"]}, params={"lang": lang})
        elif model["task"]["kind"] == "none":
            r = client.post(f"{url}/pass", json={"seq": table["seq"]}, params={"lang": lang})
        else:
            cards = model["hints"][0]["cards"]
            r = client.post(f"{url}/play", json={"seq": table["seq"], "cards": cards}, params={"lang": lang})
        assert r.status_code == 200, r.text
        assert not (hidden_cards(store, token) & strings(r.json()))
        table = r.json()
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("variant", ["classic16", "jokers17"])
def test_a_whole_deal_never_shows_another_seats_cards_and_is_archived(tmp_path: Path, variant: str) -> None:
    store, client = make_client(tmp_path, variant)
    opened = client.post("/api/open", json={}).json()
    token = opened["token"]
    # Before the deal is over the replay (every hand face up) is refused.
    assert client.get(f"/api/table/{token}/replay").status_code == 409
    answers = play_deal(store, client, token)
    final = answers[-1]["model"]
    assert final["task"]["kind"] == "over"
    rows = {r["seat"]: r for r in final["settlement"]["rows"]}
    assert answers[-1]["session_total"] == rows[0]["total"] == rows[0]["session"]
    # The record opens with pdk replay's reader, and the history counts the deal once.
    records = list((tmp_path / "records").glob("*.json"))
    assert len(records) == 1
    record = loads(records[0].read_text(encoding="utf-8"))
    assert record.settlement is not None
    assert History(tmp_path / "history.sqlite3").stats().games == 1
    replay = client.get(f"/api/table/{token}/replay").json()
    assert len(replay["frames"]) == len(record.actions) + 1
    assert all(len(h) == 16 if variant == "classic16" else True for h in replay["frames"][0]["hands"])
    # A play for the finished deal is refused and changes nothing.
    seq = answers[-1]["seq"]
    r = client.post(f"/api/table/{token}/play", json={"seq": seq, "cards": ["3s"]})
    assert r.status_code == 409 and r.json()["error"]["key"] == "web_over"
    # The next deal is dealt; settling again does not count the deal twice.
    r = client.post(f"/api/table/{token}/next", json={"seq": seq})
    assert r.status_code == 200 and r.json()["model"]["deal_no"] == 2 and r.json()["seq"] == 0
    assert History(tmp_path / "history.sqlite3").stats().games == 1


def human_turn(client: TestClient, token: str) -> dict[str, Any]:
    table = client.get(f"/api/table/{token}").json()
    while table["bot_turn"]:
        table = client.post(f"/api/table/{token}/step", json={"seq": table["seq"]}).json()
    return table


def test_refused_actions_say_why_and_change_nothing(tmp_path: Path) -> None:
    store, client = make_client(tmp_path)
    token = client.post("/api/open", json={}).json()["token"]
    table = human_turn(client, token)
    url = f"/api/table/{token}"
    seq, hand = table["seq"], table["model"]["hand"]
    before = json.dumps(store.get(token).session.to_dict())  # type: ignore[union-attr]
    if table["model"]["task"]["kind"] == "lead":
        r = client.post(f"{url}/pass", json={"seq": seq})
        assert r.status_code == 409 and r.json()["error"]["key"] == "leader_cannot_pass"
    # Two cards of different ranks are no combination.
    pair = [hand[0], next(c for c in hand if c[0] != hand[0][0])]
    r = client.post(f"{url}/play", json={"seq": seq, "cards": pair})
    assert r.status_code == 409
    assert r.json()["error"]["key"] in ("not_a_combination", "does_not_beat", "must_contain_lead")
    assert r.json()["table"]["seq"] == seq
    assert not (hidden_cards(store, token) & strings(r.json()["table"])), "a refusal showed a hidden card"
    # A card that is not in the hand.
    other = next(
        card_name(c) for c in range(64) if card_name(c) not in hand and not card_name(c).startswith("B")
    )
    r = client.post(f"{url}/play", json={"seq": seq, "cards": [other]}, params={"lang": "zh"})
    assert r.status_code == 409 and r.json()["error"]["key"] == "card_not_available"
    assert json.dumps(store.get(token).session.to_dict()) == before  # type: ignore[union-attr]
    # A play sent twice: the second answers a move already made.
    hint = table["model"]["hints"][0]["cards"]
    assert client.post(f"{url}/play", json={"seq": seq, "cards": hint}).status_code == 200
    r = client.post(f"{url}/play", json={"seq": seq, "cards": hint})
    assert r.status_code == 409 and r.json()["error"]["key"] == "web_stale"
    # Stepping a bot on the human's turn (or the human playing on a bot's) is refused too.
    now = client.get(url).json()
    if now["bot_turn"]:
        r = client.post(f"{url}/play", json={"seq": now["seq"], "cards": hint})
        assert r.json()["error"]["key"] == "web_not_your_turn"


def test_a_refused_play_marked_verdict_answers_its_reason_in_one_reply(tmp_path: Path) -> None:
    # The page sends a play once, marked verdict: a refusal comes back as an answer (200),
    # so the browser logs no failed request, with the reason and the table unchanged.
    store, client = make_client(tmp_path)
    token = client.post("/api/open", json={}).json()["token"]
    table = human_turn(client, token)
    url = f"/api/table/{token}"
    seq, hand = table["seq"], table["model"]["hand"]
    before = json.dumps(store.get(token).session.to_dict())  # type: ignore[union-attr]
    pair = [hand[0], next(c for c in hand if c[0] != hand[0][0])]
    r = client.post(f"{url}/play", json={"seq": seq, "cards": pair, "verdict": True})
    assert r.status_code == 200  # the rules' answer, not an error
    assert r.json()["error"]["key"] in ("not_a_combination", "does_not_beat", "must_contain_lead")
    assert r.json()["table"]["seq"] == seq
    r = client.post(f"{url}/play", json={"seq": seq, "text": "3-", "verdict": True}, params={"lang": "zh"})
    assert r.status_code == 200 and r.json()["error"]["text"] and r.json()["table"]["seq"] == seq
    r = client.post(f"{url}/play", json={"seq": seq + 1, "cards": pair, "verdict": True})
    assert r.status_code == 200 and r.json()["error"]["key"] == "web_stale"
    assert json.dumps(store.get(token).session.to_dict()) == before  # type: ignore[union-attr]
    hint = table["model"]["hints"][0]["cards"]
    r = client.post(f"{url}/play", json={"seq": seq, "cards": hint, "verdict": True})
    assert r.status_code == 200 and "error" not in r.json() and r.json()["seq"] == seq + 1
    assert client.post(f"{url}/judge", json={"seq": seq, "cards": hint}).status_code == 404  # gone


def test_a_must_beat_pass_is_refused_with_the_reason(tmp_path: Path) -> None:
    store, client = make_client(tmp_path)
    for _ in range(20):  # find a position where the human must beat
        token = client.post("/api/open", json={}).json()["token"]
        table = human_turn(client, token)
        for _ in range(40):
            task = table["model"]["task"]
            if task["kind"] == "beat" and not task["can_pass"]:
                r = client.post(f"/api/table/{token}/pass", json={"seq": table["seq"]})
                assert r.status_code == 409 and r.json()["error"]["key"] == "must_beat"
                assert task["pass_refused"]["key"] == "must_beat"
                return
            if table["model"]["settlement"] is not None:
                break
            cards = table["model"]["hints"][0]["cards"] if table["model"]["hints"] else None
            path = "play" if cards else "pass"
            body: dict[str, Any] = {"seq": table["seq"]} | ({"cards": cards} if cards else {})
            client.post(f"/api/table/{token}/{path}", json=body)
            table = human_turn(client, token)
        store.seed = (store.seed or 0) + 1
    raise AssertionError("no must-beat position found")


def test_requests_are_validated_tokens_checked_bodies_bounded(tmp_path: Path) -> None:
    _, client = make_client(tmp_path)
    token = client.post("/api/open", json={}).json()["token"]
    url = f"/api/table/{token}"
    assert client.post(f"{url}/pass", json={"seq": 0, "extra": 1}).status_code == 422
    assert client.post(f"{url}/play", json={"seq": 0, "cards": ["3x"]}).status_code == 422
    assert client.post(f"{url}/play", json={"seq": 0, "cards": "3s"}).status_code == 422
    assert client.post("/api/open", json={"difficulty": "godlike"}).status_code == 422
    assert client.get(f"{url}", params={"lang": "fr"}).status_code == 422
    big = {"seq": 0, "cards": ["3s"] * 10, "pad": "x" * MAX_BODY}
    r = client.post(f"{url}/play", content=json.dumps(big), headers={"content-type": "application/json"})
    assert r.status_code == 413
    for bad in ("..%2F..%2Fetc%2Fpasswd", "a" * 31, "a" * 33, "a" * 31 + "."):
        assert client.get(f"/api/table/{bad}").status_code in (404, 422)
    assert client.get(f"/api/table/{'a' * 32}").status_code == 404
    # A malformed token in the body is never joined to a path: a new table is opened.
    r = client.post("/api/open", json={"token": "../../../../tmp/x"})
    assert r.status_code == 200 and r.json()["token"] != "../../../../tmp/x"
    stores = {"tables.sqlite3", "tables.sqlite3-wal", "tables.sqlite3-shm"}
    assert {p.name for p in tmp_path.iterdir()} <= {"records", "history.sqlite3", *stores}


def test_tables_survive_eviction_and_a_restart(tmp_path: Path) -> None:
    store, client = make_client(tmp_path, max_live=2)
    tokens = [client.post("/api/open", json={}).json()["token"] for _ in range(3)]
    first = human_turn(client, tokens[0])
    for t in tokens[1:]:
        human_turn(client, t)
    assert store.live() == 2
    again = client.post("/api/open", json={"token": tokens[0]}).json()
    assert again["model"]["hand"] == first["model"]["hand"] and again["seq"] == first["seq"]
    _, restarted = make_client(tmp_path)
    resumed = restarted.get(f"/api/table/{tokens[0]}").json()
    assert resumed["model"]["hand"] == first["model"]["hand"] and resumed["seq"] == first["seq"]


def test_difficulty_applies_now_until_a_bot_moved_then_from_the_next_deal(tmp_path: Path) -> None:
    # Before any computer player has moved, nothing was played at the old level: the
    # choice applies to this deal at once (it once waited for deal 2 with nothing said).
    _, client = make_client(tmp_path)
    token = client.post("/api/open", json={}).json()["token"]
    r = client.post(f"/api/table/{token}/difficulty", json={"difficulty": "normal"})
    assert r.json()["difficulty"] == "normal" and r.json()["next_difficulty"] == "normal"
    table = r.json()
    while (
        all(a["seat"] == 0 for a in table["model"]["trick"]["actions"]) and not table["model"]["settlement"]
    ):
        if table["bot_turn"]:
            table = client.post(f"/api/table/{token}/step", json={"seq": table["seq"]}).json()
        else:
            table = client.post(f"/api/table/{token}/auto", json={"seq": table["seq"]}).json()
    r = client.post(f"/api/table/{token}/difficulty", json={"difficulty": "hard"}, params={"lang": "zh"})
    body = r.json()
    assert body["difficulty"] == "normal" and body["next_difficulty"] == "hard"
    assert (
        "等待" in body["model"]["task"]["message"]["text"]
        or "轮到" in body["model"]["task"]["message"]["text"]
    )
    labels = client.get("/api/labels", params={"lang": "zh"}).json()
    assert labels["play"] == "出牌" and labels["pass"] == "不出"
    assert client.get("/api/labels", params={"lang": "en"}).json()["hint"] == "Hint"


def test_the_page_and_its_modules_are_served(tmp_path: Path) -> None:
    _, client = make_client(tmp_path)
    page = client.get("/")
    assert page.status_code == 200 and 'data-testid="hand"' in page.text
    for name in ("app.js", "cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../server.py").status_code == 404


def test_an_evicted_table_in_use_never_acts_twice(tmp_path: Path) -> None:
    store, client = make_client(tmp_path, max_live=1)
    token = client.post("/api/open", json={}).json()["token"]
    held = store.get(token)
    assert held is not None
    with held.lock:  # an action in progress: the table is not evicted under it
        client.post("/api/open", json={})
        assert store.get(token) is held
    client.post("/api/open", json={})  # now it is: in the store only
    assert store.live() == 1
    # The evicted copy acts through the store's version check: the copy read back has it.
    held.set_difficulty("hard")
    live = store.get(token)
    assert live is not None and live is not held
    assert live.snapshot().next_difficulty == "hard"
    # The live copy moves on; the evicted one is refused as stale and reads the store.
    live.set_difficulty("normal")
    with pytest.raises(TableRefused) as exc:
        held.set_difficulty("easy")
    assert exc.value.reason is TableReason.STALE
    assert held.snapshot().next_difficulty == "normal" and held.version == live.version


def test_tuo_guan_plays_the_players_seat_as_pdk_play_does_and_only_on_its_turn(tmp_path: Path) -> None:
    store, client = make_client(tmp_path)
    token = client.post("/api/open", json={}).json()["token"]
    url = f"/api/table/{token}"
    table = client.get(url).json()
    moved = 0
    for _ in range(400):
        if table["model"]["settlement"] is not None:
            break
        seq = table["seq"]
        if table["bot_turn"]:
            # 托管 moves the player's seat only: on a bot's turn it is refused, nothing changed.
            r = client.post(f"{url}/auto", json={"seq": seq})
            assert r.status_code == 409 and r.json()["error"]["key"] == "web_not_your_turn"
            table = client.post(f"{url}/step", json={"seq": seq}).json()
            continue
        live = store.get(token)
        assert live is not None
        want = live.session.auto_move()  # what 托管 in the terminal would play here
        r = client.post(f"{url}/auto", json={"seq": seq})
        assert r.status_code == 200, r.text
        assert not (hidden_cards(store, token) & strings(r.json()))
        played = live.session.state.history[seq].play
        assert (played.move if played else None) == want
        moved += 1
        # Sent twice (a double tap), the second answers a move already made.
        again = client.post(f"{url}/auto", json={"seq": seq})
        assert again.status_code == 409 and again.json()["error"]["key"] == "web_stale"
        table = r.json()
    assert table["model"]["settlement"] is not None and moved > 0
    # The deal is over: 托管 has nothing to play.
    r = client.post(f"{url}/auto", json={"seq": table["seq"]})
    assert r.status_code == 409 and r.json()["error"]["key"] == "web_over"
    assert History(tmp_path / "history.sqlite3").stats().games == 1


def test_ranks_alone_are_accepted_and_played_as_pdk_play_takes_them(tmp_path: Path) -> None:
    # The page sends a play typed without suits as ranks ("3"); the server picks the suits
    # (Position.cards_for: a plain straight before a straight flush, tested with the rules).
    from pdk.engine.cards import RANK_CHARS, rank_of

    for seed in range(40):
        store, client = make_client(tmp_path / str(seed), seed=seed)
        data = client.post("/api/open", json={}).json()
        if data["model"]["task"]["kind"] != "lead":
            continue
        low = data["model"]["hand"][0][0]  # the lowest card's rank letter
        r = client.post(f"/api/table/{data['token']}/play", json={"seq": data["seq"], "cards": [low]})
        assert r.status_code == 200, r.text
        table = store.get(data["token"])
        assert table is not None
        played = table.session.state.history[-1].play
        assert played is not None and [RANK_CHARS[rank_of(c)] for c in played.cards] == [low]
        bad = client.post(f"/api/table/{data['token']}/play", json={"seq": 0, "cards": ["3x"]})
        assert bad.status_code == 422
        return
    raise AssertionError("no deal in 40 where the human leads")


def test_bad_requests_are_said_in_words_not_validator_text(tmp_path: Path) -> None:
    # A malformed token once answered "path.token: String should match pattern ...".
    _, client = make_client(tmp_path)
    for lang, words in (("en", "not a table's address"), ("zh", "不是牌桌的地址")):
        r = client.get("/api/table/not-a-token", params={"lang": lang})
        assert r.status_code == 422 and words in r.json()["error"]["text"]
        assert "pattern" not in r.json()["error"]["text"]
    token = client.post("/api/open", json={}).json()["token"]
    text = client.post(f"/api/table/{token}/play", json={"seq": 0, "cards": ["3x"]}).json()["error"]["text"]
    assert "pdk notation" in text and "should match" not in text


def test_rules_manifest_and_worker_are_served(tmp_path: Path) -> None:
    from pdk.view.rules_in_words import sections

    _, client = make_client(tmp_path)
    for lang in ("en", "zh"):
        rules = client.get("/api/rules", params={"lang": lang}).json()
        expected = [{"title": t, "rules": r} for t, r in sections(load_profile("classic16"), lang)]
        assert rules["sections"] == expected  # the words of `pdk variants show`
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    for icon in manifest.json()["icons"]:
        assert client.get(icon["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
