"""Tables in PostgreSQL, for several ``pdk serve`` processes (or machines) at once.

``pdk serve --store postgresql://...`` (the ``postgres`` extra: psycopg 3). Each save is
one statement in its own transaction whose ``WHERE`` names the version it replaces, so of
two workers answering the same move only one is accepted; it returns once PostgreSQL has
committed it (durable with the server's default ``synchronous_commit``). The same
statement announces the change (``pg_notify`` on ``CHANNEL``, ``key:version``), which is
how a worker learns that another one moved a table or room on (``pdk.store.changes``).

Connections are kept in a small pool; one that fails is thrown away, so when the database
stops every request is ``StoreUnavailable`` (the server answers 503 with the reason) and
when it is back the next request connects again, with nothing to restart.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pdk.store.contract import Stored, StoreUnavailable, VersionConflict

CHANNEL = "pdk_changes"
CONNECT_TIMEOUT = 3
SCHEMA = """
CREATE TABLE IF NOT EXISTS pdk_tables (
    key text PRIMARY KEY,
    version bigint NOT NULL,
    data text NOT NULL,
    updated timestamptz NOT NULL DEFAULT now()
)
"""
_SCHEMA_LOCK = 0x70646B  # one worker creates the table while the others wait


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable("PostgreSQL needs psycopg: pip install 'pdk[postgres]'") from None
    return psycopg


class PostgresStore:
    """Tables in one PostgreSQL database, named by a libpq URL."""

    def __init__(self, url: str, pool: int = 8) -> None:
        self.url = url
        self._pg = _psycopg()
        self._idle: list[Any] = []
        self._max_idle = pool
        self._lock = threading.Lock()
        with self._sql() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            db.execute(SCHEMA)

    def connect(self) -> Any:
        """A new autocommit connection (``StoreUnavailable`` if the database is down)."""
        try:
            return self._pg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except self._pg.Error as exc:
            raise StoreUnavailable(_reason(exc)) from None

    @contextmanager
    def _sql(self) -> Iterator[Any]:
        with self._lock:
            db = self._idle.pop() if self._idle else None
        if db is None:
            db = self.connect()
        try:
            yield db
        except self._pg.Error as exc:
            db.close()  # a broken connection is never reused; the next call connects again
            raise StoreUnavailable(_reason(exc)) from None
        except BaseException:
            db.close()
            raise
        with self._lock:
            if len(self._idle) < self._max_idle and not db.closed:
                self._idle.append(db)
                return
        db.close()

    def load(self, key: str) -> Stored | None:
        with self._sql() as db:
            row = db.execute("SELECT version, data FROM pdk_tables WHERE key = %s", (key,)).fetchone()
        return None if row is None else Stored(int(row[0]), str(row[1]))

    def versions(self, keys: list[str]) -> dict[str, int]:
        if not keys:
            return {}
        with self._sql() as db:
            rows = db.execute("SELECT key, version FROM pdk_tables WHERE key = ANY(%s)", (keys,)).fetchall()
        return {str(k): int(v) for k, v in rows}

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        if expected is None:
            sql = (
                "WITH w AS (INSERT INTO pdk_tables (key, version, data) VALUES (%s, %s, %s)"
                " ON CONFLICT (key) DO NOTHING RETURNING key, version)"
            )
            args: tuple[Any, ...] = (key, version, data)
        else:
            sql = (
                "WITH w AS (UPDATE pdk_tables SET version = %s, data = %s, updated = now()"
                " WHERE key = %s AND version = %s RETURNING key, version)"
            )
            args = (version, data, key, expected)
        sql += f" SELECT pg_notify('{CHANNEL}', w.key || ':' || w.version) FROM w"
        with self._sql() as db:
            written = db.execute(sql, args).fetchall()
        if len(written) != 1:
            raise VersionConflict(key)

    def delete(self, key: str) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM pdk_tables WHERE key = %s", (key,))

    def keys(self) -> list[str]:
        with self._sql() as db:
            return [str(r[0]) for r in db.execute("SELECT key FROM pdk_tables ORDER BY key").fetchall()]

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the tables nobody has changed for ``idle_seconds``; their keys."""
        with self._sql() as db:
            rows = db.execute(
                "DELETE FROM pdk_tables WHERE updated < now() - make_interval(secs => %s) RETURNING key",
                (idle_seconds,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


__all__ = ["CHANNEL", "PostgresStore"]
