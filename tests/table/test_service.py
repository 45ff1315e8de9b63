"""The table service: random command streams, failed writes at each point, two services
racing on one directory, and the browser tables' cache over the store."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdk.engine.events import DealOver, Event
from pdk.engine.record import GameRecord
from pdk.store.contract import Stored, StoreUnavailable, VersionConflict
from pdk.store.files import FileStore
from pdk.table.history import History
from pdk.table.service import Archive, TableReason, TableRefused, TableService
from pdk.table.session import HUMAN, new_session, save_text, session_from_dict, session_from_text
from pdk.table.tables import TableStore
from pdk.text.catalog import LocalizedError
from pdk.variants.registry import load_profile
from tests.support.tooling import until

PROFILE = load_profile("classic16")


def service(root: Path, seed: int = 5, store: Any = None) -> TableService:
    archive = Archive(root / "records", History(root / "history.sqlite3"))
    session = new_session(PROFILE, "classic16", "easy", seed=seed)
    return TableService.create(store or FileStore(root / "web"), "t" * 32, archive, session)


def on_disk(table: TableService) -> dict[str, Any]:
    stored = table.store.load(table.key)
    assert stored is not None and stored.version == table.version
    return session_from_dict(json.loads(stored.data)).to_dict()


def typed(cards: tuple[str, ...]) -> str:
    """A hint's cards as a player types them: ranks alone, a run as a range."""
    ranks = "".join(c[0] for c in cards)
    chain = "3456789TJQKA"
    if len(ranks) >= 5 and ranks in chain:
        return f"{ranks[0]}-{ranks[-1]}"
    return ranks


# The machine's moves and 托管 weighted up, so that streams reach the ends of deals.
COMMANDS = [
    *["step"] * 6,
    *["auto_on"] * 2,
    "type_hint",
    "tap_hint",
    "pass",
    "step",
    "auto_move",
    "auto_on",
    "auto_off",
    "auto_pass",
    "counter",
    "difficulty",
    "next",
    "hint",
    "garbage",
    "stale",
]


def run_command(t: TableService, name: str, draw: Any) -> tuple[Event, ...] | None:
    seq = t.seq
    snap = t.snapshot()
    hints = snap.model.hints
    if name == "type_hint" and hints:
        return t.play_text(seq, typed(hints[0].cards)).events
    if name == "tap_hint" and hints:
        return t.play_cards(seq, list(hints[-1].cards)).events
    if name == "pass":
        return t.pass_turn(seq).events
    if name == "step":
        return t.step(seq).events
    if name == "auto_move":
        return t.auto_move(seq).events
    if name in ("auto_on", "auto_off"):
        return t.set_auto(name == "auto_on", seq).events
    if name == "auto_pass":
        return t.set_auto_pass(draw(st.booleans())).events
    if name == "counter":
        return t.set_counter(draw(st.booleans())).events
    if name == "difficulty":
        return t.set_difficulty(draw(st.sampled_from(["easy", "normal"]))).events
    if name == "next":
        return t.next_deal(seq).events
    if name == "hint":
        t.hint(seq)
        return None
    if name == "garbage":
        return t.play_text(seq, draw(st.sampled_from(["xyz", "3-3", "2-5", "BR", "33-5", "10 J Q"]))).events
    return t.pass_turn(seq + 1).events  # "stale": answers a move not made yet


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_command_streams_keep_save_table_and_record_in_agreement(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    root = tmp_path_factory.mktemp("svc")
    t = service(root, seed=data.draw(st.integers(0, 2**20)))
    said: list[Event] = []
    deals = applied = 0
    for _ in range(data.draw(st.integers(20, 120))):
        name = data.draw(st.sampled_from(COMMANDS))
        before = (t.version, json.dumps(t.session.to_dict()))
        deal_no = t.session.deal_no
        try:
            events = run_command(t, name, data.draw)
        except LocalizedError:  # refused (illegal, unreadable, stale, out of turn): nothing changed
            assert (t.version, json.dumps(t.session.to_dict())) == before
            continue
        if events is None:
            continue
        applied += 1
        if t.session.deal_no != deal_no:
            said, deals = [], deals + 1
        said.extend(events)
        # The save is the table: what is on disk is what is live.
        assert on_disk(t) == t.session.to_dict()
        # The events said so far are the record's, replayed.
        record = t.session.record()
        assert [e for turn in record.events() for e in turn] == said
        if t.session.state.over:
            assert t.session.settled and isinstance(said[-1], DealOver)
            assert said[-1].settlement == record.settlement
    assert t.version == 1 + applied  # one version per acknowledged change, none for a refusal
    # Every finished deal was archived once: a record and one history row each.
    finished = deals + (1 if t.session.state.over else 0)
    assert History(root / "history.sqlite3").stats().games == finished
    assert len(list((root / "records").glob("*.json"))) == finished


def play_to_last_turn(t: TableService) -> None:
    """Under 托管, up to the move that ends the deal (not made)."""
    t.set_auto(True)
    while True:
        trial = t.session.copy()
        if trial.state.turn == HUMAN:
            trial.state.step(trial.auto_move())
        else:
            trial.state.step(trial.bot_move())
        if trial.state.over:
            return
        t.step(t.seq)


class FailingStore(FileStore):
    """A file store whose writes fail while ``full`` is set (a full disk)."""

    full = False

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        if self.full:
            raise StoreUnavailable("No space left on device")
        super().save(key, data, version, expected)


@pytest.mark.parametrize("point", ["record", "history", "save"])
def test_a_failed_write_at_each_point_applies_nothing_and_loses_no_record(tmp_path: Path, point: str) -> None:
    store = FailingStore(tmp_path / "web")
    t = service(tmp_path, store=store)
    play_to_last_turn(t)
    before = (t.version, t.session.to_dict())
    records = tmp_path / "records"
    history = tmp_path / "history.sqlite3"
    if point == "record":
        records.rmdir() if records.exists() else None
        records.write_text("a file where the folder should be")
    elif point == "history":
        history.unlink(missing_ok=True)
        history.mkdir()  # sqlite cannot open a folder
    else:
        store.full = True
    for _ in range(2):  # and again: still nothing applied
        with pytest.raises(StoreUnavailable):
            t.step(t.seq)
        assert (t.version, t.session.to_dict()) == before
        assert on_disk(t) == t.session.to_dict()
        assert not t.session.settled
    # Space is back: the same move goes through, settles once, and is archived once.
    if point == "record":
        records.unlink()
    elif point == "history":
        history.rmdir()
    else:
        store.full = False
    reply = t.step(t.seq)
    assert t.session.state.over and t.session.settled
    assert isinstance(reply.events[-1], DealOver)
    assert on_disk(t) == t.session.to_dict()
    assert History(history).stats().games == 1
    (path,) = records.glob("*.json")
    assert GameRecord.of(t.session.state).actions == tuple(t.session.state.history)
    assert path.name.endswith("-001.json")
    total = sum(t.session.totals)
    # Settled exactly once: the next deal does not count it again.
    t.next_deal(t.seq)
    assert sum(t.session.totals) == total and History(history).stats().games == 1


def test_two_workers_opening_a_finished_unsettled_deal_at_once_settle_it_once(tmp_path: Path) -> None:
    """A save whose deal ended before it was archived, read by two processes at once: the
    first settles it, the second finds the table moved on and reads the settled copy back
    (not an error on opening, and not a second settlement)."""
    store = FileStore(tmp_path / "web")
    t = service(tmp_path, store=store)
    play_to_last_turn(t)
    ended = t.session.copy()
    ended.state.step(ended.auto_move() if ended.state.turn == HUMAN else ended.bot_move())
    assert ended.state.over and not ended.settled
    store.save(t.key, save_text(ended), t.version + 1, t.version)  # saved, not yet archived
    stored = store.load(t.key)
    assert stored is not None
    one, two = (
        TableService(store, t.key, t.archive, session_from_text(stored.data), stored.version) for _ in "12"
    )
    one.settle_pending()
    two.settle_pending()
    assert one.session.settled and two.session.settled
    assert one.version == two.version == stored.version + 1
    assert one.session.totals == two.session.totals
    assert History(tmp_path / "history.sqlite3").stats().games == 1


def test_two_services_on_one_directory_never_both_accept_a_move(tmp_path: Path) -> None:
    first = TableStore(tmp_path, PROFILE, "classic16", seed=3, difficulty="easy")
    second = TableStore(tmp_path, PROFILE, "classic16", seed=3, difficulty="easy")
    token = first.create().key
    a, b = first.get(token), second.get(token)
    assert a is not None and b is not None and a is not b
    while a.session.state.turn != HUMAN:
        a.step(a.seq)
    b.refresh()
    seq = a.seq
    accepted: list[str] = []
    refused: list[str] = []

    def attempt(t: TableService, who: str) -> None:
        try:
            t.pass_turn(seq) if t.snapshot().model.task.can_pass else t.play_cards(
                seq, list(t.snapshot().model.hints[0].cards)
            )
            accepted.append(who)
        except TableRefused as exc:
            assert exc.reason is TableReason.STALE
            refused.append(who)

    threads = [threading.Thread(target=attempt, args=(t, w)) for t, w in ((a, "a"), (b, "b"))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(accepted) == 1 and len(refused) == 1
    # The one refused read the table that moved on: both now agree with the store.
    assert a.version == b.version and a.session.to_dict() == b.session.to_dict() == on_disk(a)


def _race(root: str, start: int, wins: Any) -> None:
    store = FileStore(Path(root))
    won = 0
    for v in range(start, start + 200):
        try:
            store.save("k" * 32, json.dumps({"v": v}), v + 1, v)
            won += 1
        except VersionConflict:
            pass
    wins.put(won)


def test_two_processes_race_on_one_key_and_every_version_is_written_once(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.save("k" * 32, "{}", 0, None)
    ctx = multiprocessing.get_context("fork")
    wins = ctx.Queue()
    procs = [ctx.Process(target=_race, args=(str(tmp_path), 0, wins)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    total = wins.get(timeout=5) + wins.get(timeout=5)
    stored = store.load("k" * 32)
    assert stored is not None and stored.version == total <= 200
    assert json.loads(stored.data) == {"v": stored.version - 1}


def test_the_store_contract(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    assert store.load("a") is None
    store.save("a", '{"x": 1}', 1, None)
    with pytest.raises(VersionConflict):
        store.save("a", '{"x": 2}', 1, None)  # create over an existing key
    with pytest.raises(VersionConflict):
        store.save("a", '{"x": 2}', 3, 2)  # not the stored version
    store.save("a", '{"x": 2}', 2, 1)
    assert store.load("a") == Stored(2, '{"x": 2}')
    assert store.keys() == ["a"]
    store.delete("a")
    assert store.load("a") is None and store.keys() == []


class CountingStore(FileStore):
    loads = 0

    def load(self, key: str) -> Stored | None:
        self.loads += 1
        return super().load(key)


def test_the_table_just_loaded_is_never_evicted_and_an_older_copy_never_comes_back(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "web")
    tables = TableStore(tmp_path, PROFILE, "classic16", seed=3, difficulty="easy", max_live=1, store=store)
    a, b = tables.create().key, tables.create().key
    for _ in range(6):  # two players taking turns at one table in memory
        for token in (a, b):
            t = tables.get(token)
            assert t is not None and tables.get(token) is t  # kept: not read back at once
            if t.snapshot().machine_turn:
                t.step(t.seq)
    assert store.loads <= 12  # once per switch, never a loop of reloads
    # A copy read back before a newer one was saved and evicted is read again.
    stale = TableService.open(store, a, tables.archive)
    assert stale is not None
    live = tables.get(a)
    assert live is not None
    live.set_counter(not live.session.counter)
    tables.get(b)  # a is evicted at its new version
    kept = tables._keep(stale)
    assert kept.version == live.version and kept.session.counter == live.session.counter


def web(root: Path, store: Any = None, max_live: int = 256) -> tuple[TableStore, Any]:
    import warnings

    from pdk.web.server import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    tables = TableStore(root, PROFILE, "classic16", seed=3, difficulty="easy", store=store, max_live=max_live)
    return tables, TestClient(create_app(tables, pace_ms=0))


def test_a_full_disk_is_a_503_that_changes_nothing_and_the_move_works_once_space_is_back(
    tmp_path: Path,
) -> None:
    store = FailingStore(tmp_path / "web")
    tables, client = web(tmp_path, store)
    data = client.post("/api/open", json={}).json()
    url = f"/api/table/{data['token']}"
    while data["bot_turn"]:
        data = client.post(f"{url}/step", json={"seq": data["seq"]}).json()
    body = {"seq": data["seq"], "cards": data["model"]["hints"][0]["cards"]}
    store.full = True
    for _ in range(3):
        r = client.post(f"{url}/play", json=body)
        assert r.status_code == 503 and r.json()["error"]["key"] == "web_storage"
        assert "\n" not in r.json()["error"]["text"] and "No space" in r.json()["error"]["text"]
        now = client.get(url).json()
        assert (now["seq"], now["version"]) == (data["seq"], data["version"])  # memory == disk
    live = tables.get(data["token"])
    assert live is not None and on_disk(live) == live.session.to_dict()
    store.full = False
    r = client.post(f"{url}/play", json=body)
    assert r.status_code == 200 and r.json()["seq"] == data["seq"] + 1
    assert r.json()["events"][0]["kind"] == "played"


def test_every_get_is_one_consistent_snapshot(tmp_path: Path) -> None:
    tables, client = web(tmp_path)
    data = client.post("/api/open", json={}).json()
    url = f"/api/table/{data['token']}"
    seen: list[dict[str, Any]] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            seen.append(client.get(url).json())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        t = tables.get(data["token"])
        assert t is not None
        t.set_auto(True)
        while not t.session.state.over:
            t.step(t.seq)
            read_so_far = len(seen)
            # the reader gets its turn between moves, however slow it runs
            with contextlib.suppress(TimeoutError):
                until(lambda n=read_so_far: len(seen) > n, 2, every=0.001)
    finally:
        stop.set()
        reader.join()
    assert len(seen) > 5
    for got in seen:
        task = got["model"]["task"]["kind"]
        assert got["bot_turn"] == (task == "wait"), got["seq"]
        if got["bot_turn"]:
            assert not got["model"]["hints"]


def test_two_pdk_serve_processes_on_one_save_dir_never_both_accept_a_move(tmp_path: Path) -> None:
    """The real program, twice: the same move sent to both servers is accepted by one, and
    the other answers that the table moved on, showing where it now is."""
    import socket
    import subprocess
    import sys

    import httpx

    def serve() -> tuple[subprocess.Popen[bytes], str]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--port", str(port)]
        cmd += ["--save-dir", str(tmp_path), "--seed", "3", "--difficulty", "easy"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                httpx.get(base + "/api/labels", timeout=1)
                return True
            except httpx.HTTPError:
                return False

        try:
            until(answers, 30, "pdk serve answers", every=0.1)
        except TimeoutError:
            proc.kill()
            raise
        return proc, base

    (a, url_a), (b, url_b) = serve(), serve()
    try:
        table = httpx.post(url_a + "/api/open", json={}).json()
        token = table["token"]
        while table["bot_turn"]:
            table = httpx.post(f"{url_a}/api/table/{token}/step", json={"seq": table["seq"]}).json()
        seen_b = httpx.get(f"{url_b}/api/table/{token}").json()
        assert seen_b["seq"] == table["seq"]  # B reads the table A saved
        body = {"seq": table["seq"], "cards": table["model"]["hints"][0]["cards"]}
        first = httpx.post(f"{url_a}/api/table/{token}/play", json=body)
        second = httpx.post(f"{url_b}/api/table/{token}/play", json=body)
        assert first.status_code == 200
        assert second.status_code == 409 and second.json()["error"]["key"] == "web_stale"
        assert second.json()["table"]["seq"] == first.json()["seq"]  # B now shows A's move
        assert second.json()["table"]["version"] == first.json()["version"]
    finally:
        for proc in (a, b):
            proc.terminate()
            proc.wait(10)
