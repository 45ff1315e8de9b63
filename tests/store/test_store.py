"""The table stores (``pdk.store.contract``): SQLite by default, PostgreSQL for several processes.

The contract is checked on every backend (files, SQLite, PostgreSQL): a version is accepted
once, by one writer only, even from two processes at once; a refused or failed save changes
nothing; a watcher hears every change made by another process; the workers on one store
share a presence board (or the backend says it needs none). Those checks run the same over
every backend, which is what lets a new backend be its own module: nothing outside
``pdk.store.open`` names one, nothing asks a store its type. The web saves of earlier
versions move in once, when ``pdk serve`` starts. PostgreSQL runs in a throw-away cluster
(``pg_cluster``), skipped with one line where none is installed.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pdk.store.contract import Store, Stored, StoreUnavailable, VersionConflict, Word
from pdk.store.counted import CountedStore
from pdk.store.files import FileStore
from pdk.store.migrate import import_json_saves
from pdk.store.open import open_store
from pdk.store.sqlite import SqliteStore
from pdk.store.tokens import new_token
from pdk.table.session import new_session, save_text
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from tests.support import ROOT
from tests.support.serving import Server

KEY = "k" * 32


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    from tests.support import pg_cluster

    with pg_cluster.running() as cluster:
        yield cluster.url


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:{tmp_path / 'tables.sqlite3'}"
        return
    yield emptied(request.getfixturevalue("pg"), tmp_path)


def emptied(url: str, tmp_path: Path) -> str:
    """The module's one cluster with no tables left: every test starts empty."""
    store = open_store(url, tmp_path)
    left = store.keys()  # a store's keys, not a dict's
    for key in left:
        store.delete(key)
    store.close()
    return url


BACKENDS = ["files", "sqlite", "postgresql"]
Opener = Callable[[], Store]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a new handle on one backend's storage each call: two handles are what two
    processes on one store are (no shared memory, only what the backend keeps)."""
    if request.param == "files":
        yield lambda: FileStore(tmp_path / "files")
        return
    if request.param == "sqlite":
        spec = f"sqlite:{tmp_path / 'tables.sqlite3'}"
    else:
        spec = emptied(request.getfixturevalue("pg"), tmp_path)
    yield lambda: open_store(spec, tmp_path)


@pytest.fixture
def clean_pg_board(request: pytest.FixtureRequest) -> None:
    """The module's cluster keeps its presence board between tests: start it empty."""
    if "postgresql" in request.node.name:
        import psycopg

        with psycopg.connect(request.getfixturevalue("pg"), autocommit=True) as db:
            db.execute("DROP TABLE IF EXISTS pdk_presence")


def test_the_contract(backend: Opener) -> None:
    store = backend()
    assert store.load(KEY) is None and store.keys() == []
    store.save(KEY, '{"a": 1}', 1, None)
    with pytest.raises(VersionConflict):
        store.save(KEY, '{"a": 2}', 1, None)  # a create over an existing key
    with pytest.raises(VersionConflict):
        store.save(KEY, '{"a": 2}', 3, 2)  # expects a version that is not there
    assert store.load(KEY) == Stored(1, '{"a": 1}')
    store.save(KEY, '{"a": 2}', 2, 1)
    with pytest.raises(VersionConflict):
        store.save(KEY, '{"a": 3}', 2, 1)  # the same move answered twice
    assert store.load(KEY) == Stored(2, '{"a": 2}') and store.keys() == [KEY]
    store.delete(KEY)
    assert store.load(KEY) is None
    with pytest.raises(VersionConflict):
        store.save(KEY, "{}", 2, 1)  # an update of a deleted table never recreates it
    store.close()


def test_idle_tables_expire(spec: str, tmp_path: Path) -> None:
    store = open_store(spec, tmp_path)
    store.save("old" + "x" * 29, "{}", 1, None)
    # Elapsed time is what is tested: idle for longer than the limit, kept as short as the
    # stores' clocks allow (fractions of a second).
    time.sleep(0.3)
    store.save("new" + "x" * 29, "{}", 1, None)
    assert store.expire(0.2) == ["old" + "x" * 29]  # type: ignore[attr-defined]
    assert store.keys() == ["new" + "x" * 29]
    store.close()


RACER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from pdk.store.contract import VersionConflict
    from pdk.store.open import open_store
    store = open_store(sys.argv[1], Path(sys.argv[2]))
    won = []
    for _ in range(int(sys.argv[3])):
        current = store.load(sys.argv[4])
        try:
            store.save(sys.argv[4], json.dumps({"by": sys.argv[5]}), current.version + 1, current.version)
            won.append(current.version + 1)
        except VersionConflict:
            pass
    print(json.dumps(won))
    """
)


def test_two_processes_never_both_accept_one_version(spec: str, tmp_path: Path) -> None:
    store = open_store(spec, tmp_path)
    store.save(KEY, "{}", 1, None)
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, spec, str(tmp_path), "300", KEY, name],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for name in ("a", "b")
    ]
    won = [json.loads(p.communicate(timeout=240)[0]) for p in racers]
    assert all(p.returncode == 0 for p in racers)
    accepted = won[0] + won[1]
    assert len(accepted) == len(set(accepted)), "one version accepted twice"
    stored = store.load(KEY)
    assert stored is not None and stored.version == 1 + len(accepted)
    assert won[0] and won[1], "both processes wrote (the race was real)"
    store.close()


def test_a_watcher_hears_changes_made_by_another_process(spec: str, tmp_path: Path) -> None:
    store = open_store(spec, tmp_path)
    store.save(KEY, "{}", 1, None)
    heard: list[int] = []
    done = threading.Event()

    def seen(key: str, version: int) -> None:
        heard.append(version)
        if version == 3:
            done.set()

    watch = store.changes(interval=0.2)
    stop = watch.watch(KEY, seen)  # takes the version it starts from: any later save is heard
    writer = "from pathlib import Path; from pdk.store.open import open_store\n"
    writer += "s = open_store({!r}, Path({!r}))\ns.save({!r}, '{{}}', 2, 1)\ns.save({!r}, '{{}}', 3, 2)"
    subprocess.run([sys.executable, "-c", writer.format(spec, str(tmp_path), KEY, KEY)], check=True, cwd=ROOT)
    assert done.wait(10), heard
    assert heard[-1] == 3 and heard == sorted(set(heard))
    stop()
    watch.close()
    store.close()


def test_every_backend_feeds_the_changes_another_handle_makes(backend: Opener) -> None:
    """Heard on every backend, in order, each version once; a stopped watch hears no more."""
    store, other = backend(), backend()
    store.save(KEY, "{}", 1, None)
    heard: list[int] = []
    done = threading.Event()

    def seen(key: str, version: int) -> None:
        assert key == KEY
        heard.append(version)
        if version == 3:
            done.set()

    feed = store.changes(interval=0.1)
    stop = feed.watch(KEY, seen)
    other.save(KEY, "{}", 2, 1)
    other.save(KEY, "{}", 3, 2)
    assert done.wait(10), heard
    assert heard == sorted(set(heard)) and heard[-1] == 3
    stop()
    other.save(KEY, "{}", 4, 3)
    time.sleep(0.3)  # elapsed time is the point: three polls, and a stopped watch stays silent through them
    assert heard[-1] == 3
    feed.close()
    store.close()
    other.close()


def test_every_backend_shares_a_presence_board_or_needs_none(backend: Opener, clean_pg_board: None) -> None:
    """What one worker says of a room is heard by the others (not by itself), replaces
    what it said before, and ends its streams when it quits; a backend only one process
    serves (files) has no board, and a room's beacon then says nothing."""
    store, other = backend(), backend()
    one, two = store.presence(), other.presence()
    if isinstance(store, FileStore):  # the one backend that serves a single process
        assert one is None and two is None
        return
    assert one is not None and two is not None
    one.say("r1", "w1", {0: Word("c0", 2, 1.5, 9.0), 2: Word(None, 0, 30.0, 4.0)})
    one.say("r2", "w1", {1: Word("c1", 1, 0.0, 0.0)})
    assert one.hear("r1", "w1") == {}  # a worker does not hear itself
    heard = two.hear("r1", "w2")
    assert sorted(heard) == [0, 2] and [len(w) for w in heard.values()] == [1, 1]
    word = heard[0][0]
    assert (word.client, word.streams, word.polled, word.left) == ("c0", 2, 1.5, 9.0)
    assert 0.0 <= word.said < 5.0  # an age on the board's own clock
    one.say("r1", "w1", {0: Word("c0", 1, 0.5, 0.0)})  # replaces the seats it said before
    assert {s: [w.streams for w in ws] for s, ws in two.hear("r1", "w2").items()} == {0: [1]}
    two.say("r1", "w2", {0: Word("c9", 1, 0.0, 0.0)})
    assert [w.client for w in one.hear("r1", "w1")[0]] == ["c9"]
    one.quit("w1")
    assert [(w.streams, w.left) for w in two.hear("r2", "w2")[1]] == [(0, 0.0)]
    for board, handle in ((one, store), (two, other)):
        board.close()
        handle.close()


def test_no_module_but_the_opener_names_a_database_backend() -> None:
    """A third backend is its own module plus one branch in ``pdk.store.open``: no other
    module imports the SQLite or PostgreSQL store or asks whether a store is one, and no
    module asks whether a store is a ``FileStore`` either (what a backend does with a save
    it cannot read is the contract's ``set_aside``). (``pdk play`` and the migration name
    ``FileStore``: files are what ``pdk play`` keeps.)"""
    backends = {"pdk.store.sqlite", "pdk.store.postgres"}
    database = {"SqliteStore", "PostgresStore", "SqliteBoard", "PostgresBoard", "PostgresChanges"}
    found = []
    for path in sorted((ROOT / "pdk").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        asked = database | {"FileStore"}
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in backends:
                named = node.module
            elif isinstance(node, ast.Import) and any(a.name in backends for a in node.names):
                named = next(a.name for a in node.names if a.name in backends)
            elif isinstance(node, ast.Call) and _asks_type(node, asked):
                named = "a store's type asked"
            else:
                continue
            if module not in ("pdk.store.open", named):
                found.append(f"{module}:{node.lineno}: {named}")
    assert not found, "a backend named outside pdk.store.open:\n" + "\n".join(found)


def test_a_save_that_cannot_be_read_is_set_aside_through_the_contract(tmp_path: Path) -> None:
    """The table cache asked ``isinstance(store, FileStore)``, so a file store wrapped as
    ``pdk serve`` wraps every store (``CountedStore``, for /metrics) left a broken save in
    the way; now each backend says what it does (``set_aside``): files move it aside."""
    files = FileStore(tmp_path / "web")
    tables = TableStore(
        tmp_path, load_profile("classic16"), "classic16", store=CountedStore(files, lambda: None)
    )
    token = new_token()
    files.save(token, "{not json", 1, None)
    assert tables.get(token) is None
    assert not files.path(token).exists() and list((tmp_path / "web").glob(f"{token}.json.corrupt-*"))
    for spec in (f"sqlite:{tmp_path / 't.sqlite3'}",):
        db = open_store(spec, tmp_path)
        db.save(token, "{not json", 1, None)
        assert TableStore(tmp_path, load_profile("classic16"), "classic16", store=db).get(token) is None
        assert db.load(token) == Stored(1, "{not json")  # the row stays for the operator
        db.close()


def _asks_type(call: ast.Call, classes: set[str]) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id in ("isinstance", "issubclass", "type")
        and any(isinstance(n, ast.Name) and n.id in classes for arg in call.args for n in ast.walk(arg))
    )


def test_old_web_saves_move_into_the_store_when_pdk_serve_starts(tmp_path: Path) -> None:
    """Once, at ``pdk serve``'s start: opening the store (as the tests, benchmarks and every
    worker do) leaves them where they are."""
    profile = load_profile("classic16")
    token = new_token()
    web = tmp_path / "web"
    web.mkdir()
    session = new_session(profile, "classic16", "easy", seed=5)
    (web / f"{token}.json").write_text(save_text(session))
    (web / "notes.json").write_text("{}")  # not a table's save: left alone
    opened = TableStore(tmp_path, profile, "classic16")
    assert opened.saves.keys() == [] and (web / f"{token}.json").exists()
    opened.saves.close()
    server = Server(tmp_path).start()
    try:
        served = server_table(server, token)
    finally:
        server.stop()
    assert served["token"] == token and served["version"] == 1  # the moved table, served
    tables = TableStore(tmp_path, profile, "classic16")
    table = tables.get(token)
    assert table is not None and table.version == 1
    assert table.session.state.hands == session.state.hands
    assert not (web / f"{token}.json").exists() and (web / "notes.json").exists()
    assert import_json_saves(tables.saves, FileStore(web)) == 0  # a second start moves nothing
    assert tables.saves.keys() == [token]
    tables.saves.close()


def server_table(server: Server, token: str) -> dict[str, object]:
    import httpx

    r = httpx.get(f"{server.base}/api/table/{token}", timeout=30)
    assert r.status_code == 200, r.text
    table: dict[str, object] = r.json()
    return table


def test_versioned_web_saves_move_in_at_their_version_and_play_saves_stay(tmp_path: Path) -> None:
    """A table the file store kept (``{"rev": 5, ...``) keeps its version in the database;
    ``pdk play``'s saves in the same data directory are its own and are not touched."""
    profile = load_profile("classic16")
    token = new_token()
    session = new_session(profile, "classic16", "easy", seed=5)
    FileStore(tmp_path / "web").save(token, save_text(session), 5, None)
    FileStore(tmp_path).save("save", save_text(session), 3, None)  # as pdk play writes it
    store = open_store(None, tmp_path)
    assert import_json_saves(store, FileStore(tmp_path / "web")) == 1
    stored = store.load(token)
    assert stored is not None and stored.version == 5 and '"rev"' not in stored.data
    assert not (tmp_path / "web" / f"{token}.json").exists()
    assert store.keys() == [token]
    assert FileStore(tmp_path).load("save") == Stored(3, save_text(session))
    store.close()


def test_the_file_store_tells_versions_and_clears_idle_files(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    old, absent = "o" * 32, "n" * 32
    store.save(KEY, '{"a": 1}', 1, None)
    store.save(KEY, '{"a": 2}', 2, 1)
    store.save(old, "{}", 1, None)
    an_hour_ago = time.time() - 3600
    os.utime(store.path(old), (an_hour_ago, an_hour_ago))
    assert store.versions([KEY, old, absent]) == {KEY: 2, old: 1}
    assert store.expire(600) == [old]
    assert store.keys() == [KEY] and store.load(old) is None
    with pytest.raises(VersionConflict):
        store.save(old, "{}", 2, 1)  # a cleared table is never written back by a stale copy


def test_a_store_that_cannot_open_says_why(tmp_path: Path) -> None:
    (tmp_path / "tables.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnavailable, match="not a database"):
        open_store(None, tmp_path)
    with pytest.raises(StoreUnavailable, match="unknown store"):
        open_store("mysql://x", tmp_path)


def test_a_second_server_on_one_store_is_told_the_table_moved_on(spec: str, tmp_path: Path) -> None:
    """Two processes' table services over one store (``shared``): each acts on the stored
    version, and a move made from a stale copy is refused, never applied twice."""
    profile = load_profile("classic16")
    one = TableStore(tmp_path, profile, "classic16", seed=1, store=open_store(spec, tmp_path), shared=True)
    two = TableStore(tmp_path, profile, "classic16", seed=1, store=open_store(spec, tmp_path), shared=True)
    table = one.create("easy")
    mine, theirs = one.get(table.key), two.get(table.key)
    assert mine is not None and theirs is not None
    seq = mine.seq
    if mine.session.state.turn == 0:
        mine.auto_move(seq)
    else:
        mine.step(seq)
    fresh = two.get(table.key)  # the other server sees the move, not its cached copy
    assert fresh is not None and fresh.seq == seq + 1 and fresh.version == 2
    for store in (one, two):
        store.saves.close()


def test_an_unwritable_sqlite_store_is_unavailable(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.sqlite3")
    store.save(KEY, "{}", 1, None)
    store._writer.execute("PRAGMA query_only = 1")  # as a read-only file would
    with pytest.raises(StoreUnavailable):
        store.save(KEY, "{}", 2, 1)
    assert store.load(KEY) == Stored(1, "{}")
    store.close()


def test_group_commits_keep_each_save_to_its_own_version(spec: str, tmp_path: Path) -> None:
    """Threads saving at once (committed together on SQLite): each save is accepted or
    refused on its own version, and every accepted one is there afterwards."""
    store = open_store(spec, tmp_path)
    keys = [f"{i:032d}" for i in range(4)]
    for key in keys:
        store.save(key, "{}", 1, None)
    won: list[tuple[str, int]] = []
    lock = threading.Lock()

    def racer(key: str) -> None:
        for _ in range(40):
            current = store.load(key)
            assert current is not None
            try:
                store.save(key, json.dumps({"v": current.version + 1}), current.version + 1, current.version)
            except VersionConflict:
                continue
            with lock:
                won.append((key, current.version + 1))

    threads = [threading.Thread(target=racer, args=(k,)) for k in keys for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(won) == len(set(won)), "one version accepted twice"
    for key in keys:
        stored = store.load(key)
        mine = sorted(v for k, v in won if k == key)
        assert stored is not None and mine == list(range(2, stored.version + 1))
        assert json.loads(stored.data) == {"v": stored.version}
    store.close()
