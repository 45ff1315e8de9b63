"""Hostile requests to ``pdk serve`` (issue 13): fuzzed bodies and tokens through FastAPI's
TestClient. No request may end in a server error (5xx) or a non-JSON answer, and a
refused request leaves every table file on disk as it was."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
ACTIONS = ["play", "pass", "step", "next", "difficulty"]
HOSTILE_BODIES = [
    b"",
    b"{",
    b"[" * 3000 + b"]" * 3000,
    b'{"seq": ' + b"9" * 4000 + b"}",
    b'{"seq": Infinity}',
    b'{"seq": NaN}',
    b'{"seq": -1}',
    b'{"seq": 1e999}',
    b'{"seq": 0, "cards": "3s"}',
    b'{"seq": 0, "cards": [' + b'"3s",' * 500 + b'"3s"]}',
    b'{"seq": 0, "cards": [null, {}, []]}',
    b'{"token": "../../etc/passwd"}',
    b'{"token": "' + b"a" * 5000 + b'"}',
    b"\xff\xfe\x00",
    b"null",
    b"[]",
    b'"x"',
]
HOSTILE_TOKENS = ["..", "%2e%2e", "a" * 5000, "../x", "x.json", "", " ", "\u202e", "名字", "0" * 64]


@pytest.fixture()
def site(tmp_path: Path) -> tuple[TableStore, TestClient, str]:
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=3, difficulty="easy")
    client = TestClient(create_app(store, pace_ms=0))
    token = client.post("/api/open", json={}).json()["token"]
    return store, client, token


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file() and "history" not in p.name}


def check(response: object) -> None:
    status = response.status_code  # type: ignore[attr-defined]
    assert status < 500, response.text  # type: ignore[attr-defined]
    json.loads(response.text)  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=lambda b: repr(b[:20]))
@pytest.mark.parametrize("action", ACTIONS)
def test_hostile_bodies_are_refused_and_change_nothing(
    site: tuple[TableStore, TestClient, str], tmp_path: Path, action: str, body: bytes
) -> None:
    _, client, token = site
    before = snapshot(tmp_path)
    r = client.post(
        f"/api/table/{token}/{action}", content=body, headers={"content-type": "application/json"}
    )
    check(r)
    if r.status_code >= 400:
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=lambda b: repr(b[:20]))
def test_hostile_open_bodies(site: tuple[TableStore, TestClient, str], tmp_path: Path, body: bytes) -> None:
    _, client, _ = site
    r = client.post("/api/open", content=body, headers={"content-type": "application/json"})
    check(r)
    assert all(Path(p).is_relative_to(tmp_path) for p in snapshot(tmp_path))


@pytest.mark.parametrize("token", HOSTILE_TOKENS)
def test_hostile_tokens(site: tuple[TableStore, TestClient, str], tmp_path: Path, token: str) -> None:
    _, client, _ = site
    before = snapshot(tmp_path)
    for r in (
        client.get(f"/api/table/{token}"),
        client.get(f"/api/table/{token}/replay"),
        client.post(f"/api/table/{token}/step", json={"seq": 0}),
    ):
        assert r.status_code < 500, r.text
    assert snapshot(tmp_path) == before


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["seq", "cards", "token", "difficulty", "x"]), inner, max_size=4)
    ),
    max_leaves=30,
)


@FUZZ
@given(action=st.sampled_from(ACTIONS), body=_json, raw=st.binary(max_size=64), use_raw=st.booleans())
def test_fuzz_request_bodies(
    site: tuple[TableStore, TestClient, str], action: str, body: object, raw: bytes, use_raw: bool
) -> None:
    _, client, token = site
    content = raw if use_raw else json.dumps(body).encode()
    r = client.post(
        f"/api/table/{token}/{action}", content=content, headers={"content-type": "application/json"}
    )
    check(r)


@FUZZ
@given(
    token=st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/?#"), max_size=80
    )
)
def test_fuzz_tokens(site: tuple[TableStore, TestClient, str], tmp_path: Path, token: str) -> None:
    _, client, _ = site
    r = client.get(f"/api/table/{quote(token, safe='')}")
    assert r.status_code < 500, r.text
    assert all(Path(p).is_relative_to(tmp_path) for p in snapshot(tmp_path))


def test_a_full_disk_is_a_503_with_its_reason_and_nothing_is_applied(
    site: tuple[TableStore, TestClient, str],
) -> None:
    store, client, token = site
    db = store.saves._writer  # type: ignore[attr-defined]  # the SQLite store's writing connection
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
    refused = client.post("/api/open", json={})
    table = client.get(f"/api/table/{token}").json()
    answer = None
    for _ in range(200):  # moves until one needs a page the "disk" no longer has
        kind = "step" if table["bot_turn"] else "pass" if table["model"]["task"]["kind"] == "none" else "play"
        body: dict[str, object] = {"seq": table["seq"]}
        if kind == "play":
            body["cards"] = table["model"]["hints"][0]["cards"]
        answer = client.post(f"/api/table/{token}/{kind}", json=body)
        if answer.status_code != 200 or answer.json()["model"]["settlement"] is not None:
            break
        table = answer.json()
    db.execute("PRAGMA max_page_count = 1073741823")
    # The server's disk is at fault, not the request: 503 and one line, never a 500.
    assert answer is not None
    for resp in (refused, answer):
        assert resp.status_code == 503, resp.text
        error = resp.json()["error"]
        assert error["key"] == "web_storage" and "\n" not in error["text"] and "full" in error["text"]
    after = client.get(f"/api/table/{token}").json()
    assert after["seq"] == table["seq"], "the refused move was applied"
