"""Tables in PostgreSQL, for several ``pdk serve`` processes (or machines) at once.

``pdk serve --store postgresql://...`` (the ``postgres`` extra: psycopg 3). Each save is
one statement in its own transaction whose ``WHERE`` names the version it replaces, so of
two workers answering the same move only one is accepted; it returns once PostgreSQL has
committed it (durable with the server's default ``synchronous_commit``). The same
statement announces the change (``pg_notify`` on ``CHANNEL``, ``key:version``), which is
how a worker learns that another one moved a table or room on (``PostgresChanges``, which
``LISTEN``s). The presence board of the workers is an ``UNLOGGED`` table in the same
database (``PostgresBoard``).

Connections are kept in a small pool; one that fails is thrown away, so when the database
stops every request is ``StoreUnavailable`` (the server answers 503 with the reason) and
when it is back the next request connects again, with nothing to restart.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pdk.store.changes import Changes
from pdk.store.contract import ChangeFeed, Stored, StoreError, StoreUnavailable, VersionConflict, Write
from pdk.store.presence import FORGET, Sweep, Word, words

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

    def saved_at(self, keys: list[str]) -> dict[str, float]:
        if not keys:
            return {}
        with self._sql() as db:
            rows = db.execute(
                "SELECT key, extract(epoch FROM updated) FROM pdk_tables WHERE key = ANY(%s)", (keys,)
            ).fetchall()
        return {str(k): float(at) for k, at in rows}

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        with self._sql() as db:
            written = db.execute(*_save_sql(key, data, version, expected)).fetchall()
        if len(written) != 1:
            raise VersionConflict(key)

    def save_all(self, writes: list[Write]) -> None:
        """One transaction; the first failed check rolls it back (nothing announced)."""
        conflict = None
        with self._sql() as db, db.transaction() as tx:
            for w in writes:
                if len(db.execute(*_save_sql(w.key, w.data, w.version, w.expected)).fetchall()) != 1:
                    conflict = w.key
                    raise self._pg.Rollback(tx)
        if conflict is not None:
            raise VersionConflict(conflict)

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
                "WITH cut AS (SELECT now() - make_interval(secs => %s) AS at)"
                " DELETE FROM pdk_tables USING cut WHERE updated < cut.at"
                " AND NOT (substr(key, 1, 3) IN ('rm-', 'rt-') AND EXISTS (SELECT 1 FROM pdk_tables AS t"
                " WHERE t.updated >= cut.at AND t.key ="
                " (CASE substr(pdk_tables.key, 1, 3) WHEN 'rm-' THEN 'rt-' ELSE 'rm-' END)"
                " || substr(pdk_tables.key, 4)))"
                " RETURNING key",
                (idle_seconds,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def set_aside(self, key: str) -> None:
        return None  # the row stays, for the operator's own tools

    def presence(self) -> PostgresBoard:
        return PostgresBoard(self)

    def changes(self, interval: float = 1.0) -> ChangeFeed:
        return PostgresChanges(self, interval)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


class PostgresChanges(Changes):
    """``LISTEN`` on the stores' channel; a lost connection is opened again and the watched
    versions compared, so nothing said while it was down is missed."""

    def __init__(self, store: PostgresStore, interval: float = 1.0) -> None:
        self._pg_store = store
        super().__init__(store, interval)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                db = self._pg_store.connect()
            except StoreError:
                self._stop.wait(self._interval)
                continue
            try:
                db.execute(f"LISTEN {CHANNEL}")
                self._compare()
                while not self._stop.is_set():
                    for note in db.notifies(timeout=self._interval):
                        key, _, version = note.payload.rpartition(":")
                        self._heard(key, int(version))
            except Exception:  # the connection broke: open it again, then compare
                self._stop.wait(self._interval)
            finally:
                db.close()


PRESENCE_SCHEMA = """
CREATE UNLOGGED TABLE IF NOT EXISTS pdk_presence (
    room text NOT NULL,
    seat int NOT NULL,
    worker text NOT NULL,
    client text,
    streams int NOT NULL,
    polled double precision NOT NULL,
    left_ago double precision NOT NULL,
    said timestamptz NOT NULL DEFAULT now(),
    backend int,
    PRIMARY KEY (room, seat, worker)
);
ALTER TABLE pdk_presence ADD COLUMN IF NOT EXISTS backend int
"""
_PRESENCE_SCHEMA_LOCK = 0x70646C  # one worker creates the table while the others wait


class PostgresBoard:
    """The board as an ``UNLOGGED`` table in the store's database (no WAL: a crash loses
    it, which costs nothing, since every worker says it all again within ``BEAT``)."""

    def __init__(self, store: PostgresStore) -> None:
        self._pg = _psycopg()
        self._store = store
        self._db: Any = None
        self._lock = threading.Lock()
        self._sweep = Sweep()
        with self._sql() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_PRESENCE_SCHEMA_LOCK,))
            db.execute(PRESENCE_SCHEMA)

    @contextlib.contextmanager
    def _sql(self) -> Iterator[Any]:
        with self._lock:
            if self._db is None or self._db.closed:
                self._db = self._store.connect()  # StoreUnavailable when the database is down
            try:
                yield self._db
            except self._pg.Error as exc:
                self._db.close()  # a broken connection is opened again next time
                text = str(exc).strip()
                raise StoreUnavailable(text.splitlines()[0] if text else "presence") from None

    def say(self, room: str, worker: str, seats: dict[int, Word]) -> None:
        rows = [(room, seat, worker, w.client, w.streams, w.polled, w.left) for seat, w in seats.items()]
        with self._sql() as db, db.transaction():
            db.execute("DELETE FROM pdk_presence WHERE room = %s AND worker = %s", (room, worker))
            if rows:
                with db.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO pdk_presence (room, seat, worker, client, streams, polled, left_ago,"
                        " backend) VALUES (%s, %s, %s, %s, %s, %s, %s, pg_backend_pid())",
                        rows,
                    )
            if self._sweep.due():
                forget = "DELETE FROM pdk_presence WHERE said < now() - make_interval(secs => %s)"
                db.execute(forget, [FORGET])

    def hear(self, room: str, worker: str) -> dict[int, list[Word]]:
        """What the other workers said, the words of a worker whose board connection is
        gone left out (``pg_stat_activity``): a ``kill -9``'s connections close with it, so
        its streams end now, not ``STALE`` seconds later."""
        with self._sql() as db:
            rows = db.execute(
                "SELECT seat, client, streams, polled, left_ago, extract(epoch FROM now() - said)::float8"
                " FROM pdk_presence WHERE room = %s AND worker <> %s"
                " AND (backend IS NULL OR backend IN (SELECT pid FROM pg_stat_activity))",
                (room, worker),
            ).fetchall()
        return words(rows)

    def quit(self, worker: str) -> None:
        with self._sql() as db:
            db.execute(
                "UPDATE pdk_presence SET streams = 0, left_ago = 0, said = now()"
                " WHERE worker = %s AND streams > 0",
                (worker,),
            )

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()


def _save_sql(key: str, data: str, version: int, expected: int | None) -> tuple[str, tuple[Any, ...]]:
    """The statement of one save: written only over the version it names, and announced
    (``pg_notify``, delivered at the commit) in the same statement."""
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
    return sql + f" SELECT pg_notify('{CHANNEL}', w.key || ':' || w.version) FROM w", args


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


__all__ = ["CHANNEL", "PostgresBoard", "PostgresChanges", "PostgresStore"]
