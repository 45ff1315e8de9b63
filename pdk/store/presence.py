"""Who is connected to a room, across every worker that serves it.

A seat's page holds a live stream open to ONE worker (or polls whichever worker a load
balancer picks), but every worker that runs the room's timers must know whether the seat
is connected, or it would put a person who is plainly there in 托管 after ``--away``
seconds. So each worker says, now and then, what it knows of the seats it holds (per
seat: the client, its open streams, how long ago it polled, how long ago its last stream
ended), and reads what the others said. The game's saves are not touched: this is a small
board of its own, written often and worth nothing after a crash, so it is written cheaply
(PostgreSQL: an ``UNLOGGED`` table; SQLite: a file of its own beside the store, without
``fsync``). A worker that stops saying anything (killed) is believed for ``STALE`` seconds,
then its streams count as ended when it last spoke.

Times cross machines as ages (seconds before the moment written), and the board's own
clock (the database's ``now()``, or this machine's for SQLite) says how long ago that was,
so no two machines' clocks are compared and a room's monotonic (or test) clock is kept.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pdk.store.contract import Store, StoreUnavailable

BEAT = 5.0  # seconds between a worker's words on the seats it holds
STALE = 3 * BEAT  # a worker silent this long is believed no more
FORGET = 3600.0  # words older than this are deleted (looked for once a minute)
SWEEP = 60.0


@dataclass(frozen=True)
class Word:
    """What one worker says of one seat of a room: ages in seconds before ``said``."""

    client: str | None
    streams: int
    polled: float  # since its client last polled there
    left: float  # since its last stream there ended
    said: float = 0.0  # since it said this (filled in when read)


class Board(Protocol):
    def say(self, room: str, worker: str, seats: dict[int, Word]) -> None:
        """``worker``'s word on ``room``'s seats, replacing what it said before."""
        ...

    def hear(self, room: str, worker: str) -> dict[int, list[Word]]:
        """What every other worker said of ``room``'s seats."""
        ...

    def quit(self, worker: str) -> None:
        """``worker`` is stopping: its streams end now."""
        ...

    def close(self) -> None: ...


class _Sweep:
    """When to delete the words nobody repeated for ``FORGET`` seconds (workers that
    stopped long ago): at most once every ``SWEEP`` seconds, not at every word."""

    def __init__(self) -> None:
        self._at = -SWEEP

    def due(self) -> bool:
        now = time.monotonic()
        if now - self._at < SWEEP:
            return False
        self._at = now
        return True


PG_SCHEMA = """
CREATE UNLOGGED TABLE IF NOT EXISTS pdk_presence (
    room text NOT NULL,
    seat int NOT NULL,
    worker text NOT NULL,
    client text,
    streams int NOT NULL,
    polled double precision NOT NULL,
    left_ago double precision NOT NULL,
    said timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (room, seat, worker)
)
"""
_PG_SCHEMA_LOCK = 0x70646C  # one worker creates the table while the others wait


class PostgresBoard:
    """The board as an ``UNLOGGED`` table in the store's database (no WAL: a crash loses
    it, which costs nothing, since every worker says it all again within ``BEAT``)."""

    def __init__(self, store: Any) -> None:
        import psycopg

        self._pg = psycopg
        self._store = store
        self._db: Any = None
        self._lock = threading.Lock()
        self._sweep = _Sweep()
        with self._sql() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_SCHEMA_LOCK,))
            db.execute(PG_SCHEMA)

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
                        "INSERT INTO pdk_presence (room, seat, worker, client, streams, polled, left_ago)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        rows,
                    )
            if self._sweep.due():
                forget = "DELETE FROM pdk_presence WHERE said < now() - make_interval(secs => %s)"
                db.execute(forget, [FORGET])

    def hear(self, room: str, worker: str) -> dict[int, list[Word]]:
        with self._sql() as db:
            rows = db.execute(
                "SELECT seat, client, streams, polled, left_ago, extract(epoch FROM now() - said)::float8"
                " FROM pdk_presence WHERE room = %s AND worker <> %s",
                (room, worker),
            ).fetchall()
        return _words(rows)

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


SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS presence (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    worker TEXT NOT NULL,
    client TEXT,
    streams INTEGER NOT NULL,
    polled REAL NOT NULL,
    left_ago REAL NOT NULL,
    said REAL NOT NULL,
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
        self._sweep = _Sweep()
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=OFF")
            self._db.execute(SQLITE_SCHEMA)
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
        rows = [(room, seat, worker, w.client, w.streams, w.polled, w.left, now) for seat, w in seats.items()]
        with self._sql() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM presence WHERE room = ? AND worker = ?", (room, worker))
            db.executemany("INSERT INTO presence VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if self._sweep.due():
                db.execute("DELETE FROM presence WHERE said < ?", (now - FORGET,))
            db.execute("COMMIT")

    def hear(self, room: str, worker: str) -> dict[int, list[Word]]:
        with self._sql() as db:
            rows = db.execute(
                "SELECT seat, client, streams, polled, left_ago, ? - said FROM presence"
                " WHERE room = ? AND worker <> ?",
                (time.time(), room, worker),
            ).fetchall()
        return _words(rows)

    def quit(self, worker: str) -> None:
        with self._sql() as db:
            db.execute(
                "UPDATE presence SET streams = 0, left_ago = 0, said = ? WHERE worker = ? AND streams > 0",
                (time.time(), worker),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _words(rows: list[Any]) -> dict[int, list[Word]]:
    heard: dict[int, list[Word]] = {}
    for seat, client, streams, polled, left, said in rows:
        word = Word(client, int(streams), float(polled), float(left), max(0.0, float(said)))
        heard.setdefault(int(seat), []).append(word)
    return heard


class Beacon:
    """This worker's side of the board: its id, and the board of its store, opened on
    first use (a server nobody opens a room on never creates it). No board (a store
    that is neither SQLite nor PostgreSQL): one process, nothing to say."""

    def __init__(self, store: Store) -> None:
        self.worker = secrets.token_hex(8)
        self._store = store
        self._board: Board | None = None
        self._opened = False
        self._lock = threading.Lock()

    def board(self) -> Board | None:
        with self._lock:
            if not self._opened:
                self._board = _board_for(self._store)
                self._opened = True
            return self._board

    def say(self, room: str, seats: dict[int, Word]) -> None:
        board = self.board()
        if board is not None:
            board.say(room, self.worker, seats)

    def hear(self, room: str) -> dict[int, list[Word]]:
        board = self.board()
        return {} if board is None else board.hear(room, self.worker)

    def close(self) -> None:
        with self._lock:
            board, self._board, self._opened = self._board, None, True
        if board is not None:
            with contextlib.suppress(StoreUnavailable):
                board.quit(self.worker)
            board.close()


def _board_for(store: Store) -> Board | None:
    from pdk.store.postgres import PostgresStore
    from pdk.store.sqlite import SqliteStore

    if isinstance(store, PostgresStore):
        return PostgresBoard(store)
    if isinstance(store, SqliteStore):
        return SqliteBoard(store.path.with_name(store.path.name + "-presence"))
    return None


__all__ = ["BEAT", "STALE", "Beacon", "Board", "PostgresBoard", "SqliteBoard", "Word"]
