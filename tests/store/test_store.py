"""The table stores (``pdk.store.contract``): SQLite by default, PostgreSQL for several processes.

The contract is checked on both: a version is accepted once, by one writer only, even from
two processes at once; a refused or failed save changes nothing; the web saves of earlier
versions move in once; a watcher hears every change made by another process. PostgreSQL
runs in a throw-away cluster (``pg_cluster``), skipped with one line where none is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pdk.store.changes import changes
from pdk.store.contract import Stored, StoreUnavailable, VersionConflict
from pdk.store.files import FileStore
from pdk.store.open import open_store
from pdk.store.sqlite import SqliteStore
from pdk.store.tokens import new_token
from pdk.table.session import new_session, save_text
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from tests.support import ROOT

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
    url: str = request.getfixturevalue("pg")
    store = open_store(url, tmp_path)
    left = store.keys()
    for key in left:  # one cluster for the module: every test starts empty
        store.delete(key)
    store.close()
    yield url


def test_the_contract(spec: str, tmp_path: Path) -> None:
    store = open_store(spec, tmp_path)
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
    time.sleep(1.2)
    store.save("new" + "x" * 29, "{}", 1, None)
    assert store.expire(1.0) == ["old" + "x" * 29]  # type: ignore[attr-defined]
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

    watch = changes(store, interval=0.2)
    stop = watch.watch(KEY, seen)
    time.sleep(0.5)
    writer = "from pathlib import Path; from pdk.store.contract import open_store\n"
    writer += "s = open_store({!r}, Path({!r}))\ns.save({!r}, '{{}}', 2, 1)\ns.save({!r}, '{{}}', 3, 2)"
    subprocess.run([sys.executable, "-c", writer.format(spec, str(tmp_path), KEY, KEY)], check=True, cwd=ROOT)
    assert done.wait(10), heard
    assert heard[-1] == 3 and heard == sorted(set(heard))
    stop()
    watch.close()
    store.close()


def test_old_web_saves_move_into_the_store_once(tmp_path: Path) -> None:
    profile = load_profile("classic16")
    token = new_token()
    web = tmp_path / "web"
    web.mkdir()
    session = new_session(profile, "classic16", "easy", seed=5)
    (web / f"{token}.json").write_text(save_text(session))
    (web / "notes.json").write_text("{}")  # not a table's save: left alone
    tables = TableStore(tmp_path, profile, "classic16")
    table = tables.get(token)
    assert table is not None and table.version == 1
    assert table.session.state.hands == session.state.hands
    assert not (web / f"{token}.json").exists() and (web / "notes.json").exists()
    tables.saves.close()
    again = TableStore(tmp_path, profile, "classic16")  # a second start moves nothing again
    assert again.saves.keys() == [token]


def test_versioned_web_saves_move_in_at_their_version_and_play_saves_stay(tmp_path: Path) -> None:
    """A table the file store kept (``{"rev": 5, ...``) keeps its version in the database;
    ``pdk play``'s saves in the same data directory are its own and are not touched."""
    profile = load_profile("classic16")
    token = new_token()
    session = new_session(profile, "classic16", "easy", seed=5)
    FileStore(tmp_path / "web").save(token, save_text(session), 5, None)
    FileStore(tmp_path).save("save", save_text(session), 3, None)  # as pdk play writes it
    store = open_store(None, tmp_path)
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
