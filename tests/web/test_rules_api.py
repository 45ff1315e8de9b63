"""House rules through the HTTP API (``pdk.web.rules_api``): the options of a base, a mix
checked, a single table started under it that plays by it (必压 off: a pass is accepted
where classic16 refuses it; 红桃10扎鸟: the settlement says who held ♥10), and its rules
in words and as a profile file that reads back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from pdk.engine.record import loads
from pdk.variants.registry import profile_from_dict
from pdk.view.rules_in_words import explain
from tests.rooms.test_rooms import play_deal, site
from tests.web.test_api import human_turn, make_client


def test_options_list_every_house_rule_of_the_base(tmp_path: Path) -> None:
    _, client = make_client(tmp_path)
    got = client.get("/api/rules/options", params={"lang": "zh"}).json()
    assert got["base"] == "classic16" and "classic15" in {b["name"] for b in got["bases"]}
    rules = {r["key"]: r for r in got["rules"]}
    assert rules["must_beat"]["label"] == "有牌必压" and rules["must_beat"]["current"] == "on"
    assert rules["zha_niao"]["fields"] == ["settlement.zha_niao"]
    assert got["words"]["text"] == explain(load("classic16"), "zh")
    assert client.get("/api/rules/options", params={"base": "nope"}).status_code == 404


def load(name: str) -> Any:
    from pdk.variants.registry import load_profile

    return load_profile(name)


def test_an_impossible_mix_comes_back_with_the_field(tmp_path: Path) -> None:
    _, client = make_client(tmp_path)
    r = client.post("/api/rules/check", json={"base": "classic16", "rules": {"bao_pei": "on"}})
    assert r.status_code == 200 and r.json()["ok"] is False
    assert [p["field"] for p in r.json()["problems"]] == ["rules.bao_pei"]
    r = client.post("/api/rules/table", json={"rules": {"bao_pei": "on"}})
    assert r.status_code == 422 and r.json()["problems"][0]["field"] == "rules.bao_pei"
    r = client.post("/api/rules/check", json={"rules": {"players": "7"}})
    assert r.json()["ok"] is False and r.json()["problems"][0]["field"] == "players"
    good = client.post("/api/rules/check", json={"rules": {"bao_pei": "on", "bao_dan": "off"}}).json()
    assert good["ok"] and good["changes"] == [
        "报单: highest single before a one-card player: off",
        "放走包赔: who lets a 报单 player out pays all: on",
    ]


def _play_until(client: Any, token: str, wanted: Any) -> dict[str, Any] | None:
    """Play the hints for the human until ``wanted(table)``; None if the deal ends first."""
    table = human_turn(client, token)
    for _ in range(60):
        if wanted(table):
            return table
        if table["model"]["settlement"] is not None:
            return None
        cards = table["model"]["hints"][0]["cards"] if table["model"]["hints"] else None
        body: dict[str, Any] = {"seq": table["seq"]} | ({"cards": cards} if cards else {})
        client.post(f"/api/table/{token}/{'play' if cards else 'pass'}", json=body)
        table = human_turn(client, token)
    return None


def _can_beat(table: dict[str, Any]) -> bool:
    return table["model"]["task"]["kind"] == "beat" and bool(table["model"]["hints"])


def test_a_table_without_must_beat_accepts_a_pass_classic16_refuses(tmp_path: Path) -> None:
    store, client = make_client(tmp_path)
    for seed in range(3, 30):
        store.seed = seed
        plain = client.post("/api/open", json={}).json()["token"]
        house = client.post("/api/rules/table", json={"rules": {"must_beat": "off"}}).json()["token"]
        a, b = _play_until(client, plain, _can_beat), _play_until(client, house, _can_beat)
        if a is None or b is None:
            continue
        r = client.post(f"/api/table/{plain}/pass", json={"seq": a["seq"]})
        assert r.status_code == 409 and r.json()["error"]["key"] == "must_beat"
        assert b["model"]["task"]["can_pass"]
        r = client.post(f"/api/table/{house}/pass", json={"seq": b["seq"]})
        assert r.status_code == 200, r.json()
        words = client.get(f"/api/table/{house}/rules", params={"lang": "zh"}).json()
        assert "随时可以不要，即使压得过" in words["text"]
        return
    raise AssertionError("no deal gave the human a play to beat")


def test_a_zha_niao_table_settles_double_and_keeps_its_rules_in_the_record(tmp_path: Path) -> None:
    store, client = make_client(tmp_path)
    for seed in range(3, 40):
        store.seed = seed
        token = client.post("/api/rules/table", json={"rules": {"zha_niao": "2"}}).json()["token"]
        table = store.get(token)
        assert table is not None
        bird = [s for s, h in enumerate(table.session.state.deal.hands) if h >> 29 & 1]  # ♥10 = 7 * 4 + 1
        end = _play_until(client, token, lambda t: t["model"]["settlement"] is not None)
        if end is None or not bird:
            continue
        rows = end["model"]["settlement"]["rows"]
        said = " ".join(line["text"] for r in rows for line in r["lines"])
        assert "扎鸟" in said
        table = store.get(token)
        assert table is not None
        record = loads(store.archive.path(table.session).read_text(encoding="utf-8").splitlines()[-1])
        assert record.profile.settlement.zha_niao is not None
        replayed = record.replay().settlement()  # the record replays under its own rules
        assert [s.bird for s in replayed.seats].index(True) == bird[0]
        assert list(replayed.totals) == [r["total"] for r in sorted(rows, key=lambda r: r["seat"])]
        text = client.get(f"/api/table/{token}/rules.yaml").text
        assert profile_from_dict(yaml.safe_load(text)) == record.profile
        return
    raise AssertionError("no deal was played to its end")


def test_a_rule_set_downloads_as_a_profile_file(tmp_path: Path) -> None:
    _, client = make_client(tmp_path)
    r = client.post("/api/rules/yaml", json={"rules": {"must_beat": "off", "zha_niao": "3"}})
    assert r.status_code == 200 and 'filename="classic16-house.yaml"' in r.headers["content-disposition"]
    data = yaml.safe_load(r.text)
    assert data["base"] == "classic16" and data["rules"] == {"must_beat": False}
    assert profile_from_dict(data).settlement.zha_niao.factor == 3  # type: ignore[union-attr]
    assert json.dumps(data, ensure_ascii=False).count("zha_niao") == 1


def test_a_room_with_house_rules_keeps_them_deals_them_and_says_them(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    chosen = {"must_beat": "off", "zha_niao": "2"}
    refused = c.post("/api/rooms", json={"name": "Ann", "rules": {"bao_pei": "on"}})
    assert refused.status_code == 422 and refused.json()["problems"][0]["field"] == "rules.bao_pei"
    r = c.post("/api/rooms", json={"name": "Ann", "difficulty": "easy", "rules": chosen})
    assert r.status_code == 200, r.text
    rid, host = r.json()["room"], r.json()["key"]
    view = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()
    assert view["variant"] == "classic16-house"
    watch = view["watch"].split("#w=")[1]
    said = c.get(f"/api/room/{rid}/rules", params={"lang": "zh"}, headers={"X-PDK-Key": watch}).json()
    assert "随时可以不要，即使压得过" in said["text"] and "♥10扎鸟" in said["text"]
    assert c.get(f"/api/room/{rid}/rules", headers={"X-PDK-Key": "x" * 32}).status_code == 403
    assert c.get(f"/api/room/{rid}/rules").status_code == 403  # no key, no rules
    again, _c2 = site(tmp_path)  # the rules are saved with the room
    assert again.get(rid).info.rules() == rooms.get(rid).info.rules()
    c.post(f"/api/room/{rid}/start", json={"key": host, "client": "host-cccc"})
    room = rooms.get(rid)
    assert room.table is not None
    profile = room.table.session.profile
    assert not profile.rules.must_beat and profile.settlement.zha_niao is not None
    text = c.get(f"/api/room/{rid}/rules.yaml", headers={"X-PDK-Key": host}).text
    assert profile_from_dict(yaml.safe_load(text)) == profile
    end = play_deal(c, rooms, rid, {0: host}, watch)
    record = loads(rooms.archive.path(room.table.session).read_text(encoding="utf-8").splitlines()[-1])
    assert record.profile == profile  # every record carries the room's rules
    assert [
        r["total"] for r in sorted(end["table"]["model"]["settlement"]["rows"], key=lambda r: r["seat"])
    ] == list(record.replay().settlement().totals)


def test_a_match_of_two_deals_ends_in_standings_and_a_rematch_starts_again(tmp_path: Path) -> None:
    rooms, c = site(tmp_path)
    r = c.post(
        "/api/rooms", json={"name": "Ann", "difficulty": "easy", "match": 2, "rules": {"zha_niao": "2"}}
    )
    rid, host = r.json()["room"], r.json()["key"]
    hc = {"key": host, "client": "host-cccc"}
    watch = c.get(f"/api/room/{rid}", headers={"X-PDK-Key": host}).json()["watch"].split("#w=")[1]
    c.post(f"/api/room/{rid}/start", json=hc)
    first = play_deal(c, rooms, rid, {0: host}, watch)
    assert first["match"] == 2 and len(first["scores"]) == 1 and not first["match_over"]
    assert c.post(f"/api/room/{rid}/rematch", json=hc).status_code == 409  # not over yet
    assert c.post(f"/api/room/{rid}/next", json=hc).status_code == 200
    second = play_deal(c, rooms, rid, {0: host}, watch)
    scores = second["scores"]
    assert len(scores) == 2 and second["match_over"]
    assert [s["total"] for s in second["seats"]] == [sum(col) for col in zip(*scores, strict=True)]
    refused = c.post(f"/api/room/{rid}/next", json=hc)
    assert refused.status_code == 409 and refused.json()["error"]["key"] == "web_room_match_over"
    again = c.post(f"/api/room/{rid}/rematch", json=hc).json()
    assert again["scores"] == [] and not again["match_over"]
    assert [s["total"] for s in again["seats"]] == [0, 0, 0]
    assert again["variant"] == "classic16-house"
    assert rooms.get(rid).table.session.profile.settlement.zha_niao is not None  # type: ignore[union-attr]
