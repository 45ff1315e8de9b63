"""The default store of ``pdk serve``: one SQLite file in the data directory.

The standard library's ``sqlite3`` in WAL mode with ``synchronous=FULL``: a save returns
once its commit is on disk, so an acknowledged move survives ``kill -9`` and a power cut.
Every save is one statement whose ``WHERE`` names the version it replaces, so two
processes on one file can never both accept the same version (SQLite serialises writers;
``busy_timeout`` makes the second wait rather than fail). Any SQLite error (disk full,
read-only file, a lock held too long) is ``StoreUnavailable`` with its reason; the
statement that failed changed nothing.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pdk.app.store import Stored, StoreUnavailable, VersionConflict

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    updated REAL NOT NULL
)
"""
BUSY_MS = 10_000


class SqliteStore:
    """Tables in one SQLite file; one connection shared by the server's threads (SQLite
    runs one writer at a time anyway, and each statement is short)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000
            )
            self._db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"{path}: {_reason(exc)}") from None

    @contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise StoreUnavailable(_reason(exc)) from None

    def load(self, key: str) -> Stored | None:
        with self._sql() as db:
            row = db.execute("SELECT version, data FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else Stored(int(row[0]), str(row[1]))

    def version(self, key: str) -> int | None:
        """The stored version alone (cheap: what ``changes`` polls)."""
        with self._sql() as db:
            row = db.execute("SELECT version FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else int(row[0])

    def versions(self, keys: list[str]) -> dict[str, int]:
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        with self._sql() as db:
            rows = db.execute(f"SELECT key, version FROM tables WHERE key IN ({marks})", keys).fetchall()
        return {str(k): int(v) for k, v in rows}

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        now = time.time()
        with self._sql() as db:
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
            if cur.rowcount != 1:
                raise VersionConflict(key)

    def delete(self, key: str) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM tables WHERE key = ?", (key,))

    def keys(self) -> list[str]:
        with self._sql() as db:
            return [str(r[0]) for r in db.execute("SELECT key FROM tables ORDER BY key")]

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the tables nobody has changed for ``idle_seconds``; their keys."""
        cutoff = time.time() - idle_seconds
        with self._sql() as db:
            rows = db.execute("DELETE FROM tables WHERE updated < ? RETURNING key", (cutoff,)).fetchall()
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


__all__ = ["SqliteStore"]
