"""The default store of ``pdk serve``: one SQLite file in the data directory.

The standard library's ``sqlite3`` in WAL mode with ``synchronous=FULL``: a save returns
once its commit is on disk, so an acknowledged move survives ``kill -9`` and a power cut.
Every save is one statement whose ``WHERE`` names the version it replaces, so two
processes on one file can never both accept the same version (SQLite serialises writers;
``busy_timeout`` makes the second wait rather than fail). Any SQLite error (disk full,
read-only file, a lock held too long) is ``StoreUnavailable`` with its reason; the
transaction that failed changed nothing.

A commit costs an ``fsync`` (several milliseconds on most disks), so saves that arrive
while one is being committed wait and are committed together in the next transaction
(group commit): each still returns only once its own save is durable, and each is
accepted or refused on its own version, but a hundred tables moving at once cost a few
``fsync`` calls rather than a hundred. Reads use their own connection and never wait for
a commit (WAL lets readers go on beside the writer).

The processes sharing the file are on one machine: their presence board is a second SQLite
file beside it (``SqliteBoard``), and they hear each other's saves by polling the versions
(``pdk.store.changes``), SQLite having no notifications.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdk.store.changes import Changes
from pdk.store.contract import ChangeFeed, Stored, StoreError, StoreUnavailable, VersionConflict, Write
from pdk.store.presence import FORGET, Sweep, Word, words

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    updated REAL NOT NULL
)
"""
BUSY_MS = 10_000


@dataclass
class _Save:
    """One save waiting for the group commit, and what became of it."""

    key: str
    data: str
    version: int
    expected: int | None
    now: float
    done: bool = False
    error: StoreError | None = None


class SqliteStore:
    """Tables in one SQLite file: a writing connection (saves are group-committed) and a
    reading one, each used by one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()  # the reading connection
        self._write_lock = threading.Lock()  # the writing connection
        self._queue_lock = threading.Condition()
        self._queue: list[_Save] = []
        self._committing = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = self._connect(path)
            self._writer.execute("PRAGMA journal_mode=WAL")
            self._writer.execute(SCHEMA)
            self._db = self._connect(path)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"{path}: {_reason(exc)}") from None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000)
        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        db.execute("PRAGMA synchronous=FULL")
        return db

    @contextmanager
    def _sql(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        with self._write_lock if write else self._lock:
            db = self._writer if write else self._db
            try:
                yield db
            except sqlite3.Error as exc:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise StoreUnavailable(_reason(exc)) from None

    def load(self, key: str) -> Stored | None:
        with self._sql() as db:
            row = db.execute("SELECT version, data FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else Stored(int(row[0]), str(row[1]))

    def versions(self, keys: list[str]) -> dict[str, int]:
        return {str(k): int(v) for k, v in self._column("version", keys)}

    def saved_at(self, keys: list[str]) -> dict[str, float]:
        return {str(k): float(at) for k, at in self._column("updated", keys)}

    def _column(self, column: str, keys: list[str]) -> list[tuple[Any, Any]]:
        """(key, ``column``) of those of ``keys`` that exist (``column`` is this module's own)."""
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        with self._sql() as db:
            return db.execute(f"SELECT key, {column} FROM tables WHERE key IN ({marks})", keys).fetchall()

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        mine = _Save(key, data, version, expected, time.time())
        with self._queue_lock:
            self._queue.append(mine)
            while not mine.done:
                if self._committing:  # another thread is committing: ours goes in the next
                    self._queue_lock.wait()
                    continue
                self._committing = True
                batch, self._queue = self._queue, []
                self._queue_lock.release()
                try:
                    self._commit(batch)
                finally:
                    self._queue_lock.acquire()
                    self._committing = False
                    self._queue_lock.notify_all()
        if mine.error is not None:
            raise mine.error

    def _commit(self, batch: list[_Save]) -> None:
        """One transaction for ``batch``: each save checked against its own version; all
        durable at the COMMIT, or none (``StoreUnavailable`` for every one)."""
        try:
            with self._sql(write=True) as db:
                db.execute("BEGIN IMMEDIATE")
                for s in batch:
                    if not _written(db, s.key, s.data, s.version, s.expected, s.now):
                        s.error = VersionConflict(s.key)
                db.execute("COMMIT")
        except StoreUnavailable as exc:
            for s in batch:
                s.error = exc
        except BaseException:
            for s in batch:
                s.error = StoreUnavailable("interrupted")
            raise
        finally:
            for s in batch:
                s.done = True

    def save_all(self, writes: list[Write]) -> None:
        """One transaction of its own (not the group commit's: one failed check there
        fails that save alone, here it fails them all)."""
        now = time.time()
        with self._sql(write=True) as db:
            db.execute("BEGIN IMMEDIATE")
            for w in writes:
                if not _written(db, w.key, w.data, w.version, w.expected, now):
                    db.execute("ROLLBACK")
                    raise VersionConflict(w.key)
            db.execute("COMMIT")

    def delete(self, key: str) -> None:
        with self._sql(write=True) as db:
            db.execute("DELETE FROM tables WHERE key = ?", (key,))

    def keys(self) -> list[str]:
        with self._sql() as db:
            return [str(r[0]) for r in db.execute("SELECT key FROM tables ORDER BY key")]

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the tables nobody has changed for ``idle_seconds``; their keys."""
        cutoff = time.time() - idle_seconds
        with self._sql(write=True) as db:
            rows = db.execute(
                "DELETE FROM tables WHERE updated < ?1 AND NOT (substr(key, 1, 3) IN ('rm-', 'rt-')"
                " AND EXISTS (SELECT 1 FROM tables AS t WHERE t.updated >= ?1 AND t.key ="
                " (CASE substr(tables.key, 1, 3) WHEN 'rm-' THEN 'rt-' ELSE 'rm-' END)"
                " || substr(tables.key, 4)))"
                " RETURNING key",
                (cutoff,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def set_aside(self, key: str) -> None:
        return None  # the row stays, for the operator's own tools

    def presence(self) -> SqliteBoard:
        return SqliteBoard(self.path.with_name(self.path.name + "-presence"))

    def changes(self, interval: float = 1.0) -> ChangeFeed:
        return Changes(self, interval)

    def close(self) -> None:
        with self._lock, self._write_lock:
            self._db.close()
            self._writer.close()


PRESENCE_SCHEMA = """
CREATE TABLE IF NOT EXISTS presence (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    worker TEXT NOT NULL,
    client TEXT,
    streams INTEGER NOT NULL,
    polled REAL NOT NULL,
    left_ago REAL NOT NULL,
    said REAL NOT NULL,
    pid INTEGER,
    PRIMARY KEY (room, seat, worker)
)
"""


class SqliteBoard:
    """The board in its own SQLite file beside the store's (``<store file>-presence``):
    the processes sharing a store file are on one machine, so its clock is theirs; written
    with ``synchronous=OFF`` (no ``fsync``) and never in the store's transactions."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._sweep = Sweep()
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=OFF")
            self._db.execute(PRESENCE_SCHEMA)
            with contextlib.suppress(sqlite3.OperationalError):  # a board file of an older pdk
                self._db.execute("ALTER TABLE presence ADD COLUMN pid INTEGER")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"{path}: {exc}") from None

    @contextlib.contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise StoreUnavailable(f"presence: {exc}") from None

    def say(self, room: str, worker: str, seats: dict[int, Word]) -> None:
        now = time.time()
        pid = os.getpid()
        rows = [
            (room, seat, worker, w.client, w.streams, w.polled, w.left, now, pid) for seat, w in seats.items()
        ]
        with self._sql() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM presence WHERE room = ? AND worker = ?", (room, worker))
            db.executemany("INSERT INTO presence VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if self._sweep.due():
                db.execute("DELETE FROM presence WHERE said < ?", (now - FORGET,))
            db.execute("COMMIT")

    def hear(self, room: str, worker: str) -> dict[int, list[Word]]:
        """What the other processes said, the words of a process that no longer runs left
        out: the processes sharing a store file share this machine, so a ``kill -9``'s
        connections are gone at once, not ``STALE`` seconds later (a new device was refused
        the seat meanwhile)."""
        with self._sql() as db:
            rows = db.execute(
                "SELECT seat, client, streams, polled, left_ago, ? - said, pid FROM presence"
                " WHERE room = ? AND worker <> ?",
                (time.time(), room, worker),
            ).fetchall()
        return words([row[:6] for row in rows if row[6] is None or _running(int(row[6]))])

    def quit(self, worker: str) -> None:
        with self._sql() as db:
            db.execute(
                "UPDATE presence SET streams = 0, left_ago = 0, said = ? WHERE worker = ? AND streams > 0",
                (time.time(), worker),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _written(
    db: sqlite3.Connection, key: str, data: str, version: int, expected: int | None, now: float
) -> bool:
    """One save inside the caller's transaction; False when its version check fails."""
    if expected is None:
        cur = db.execute(
            "INSERT INTO tables (key, version, data, updated) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (key) DO NOTHING",
            (key, version, data, now),
        )
    else:
        cur = db.execute(
            "UPDATE tables SET version = ?, data = ?, updated = ? WHERE key = ? AND version = ?",
            (version, data, now, key, expected),
        )
    return cur.rowcount == 1


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: running
        return True
    return True


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


__all__ = ["SqliteBoard", "SqliteStore"]
