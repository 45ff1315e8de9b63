"""Who is connected to a room, across every worker that serves it.

A seat's page holds a live stream open to ONE worker (or polls whichever worker a load
balancer picks), but every worker that runs the room's timers must know whether the seat
is connected, or it would put a person who is plainly there in 托管 after ``--away``
seconds. So each worker says, now and then, what it knows of the seats it holds (per
seat: the client, its open streams, how long ago it polled, how long ago its last stream
ended), and reads what the others said. The game's saves are not touched: this is a small
board of its own (``Store.presence``, in each backend's module), written often and worth
nothing after a crash, so it is written cheaply (PostgreSQL: an ``UNLOGGED`` table; SQLite:
a file of its own beside the store, without ``fsync``; files: none, one process). A worker
that stops saying anything (killed) is believed for ``STALE`` seconds, then its streams
count as ended when it last spoke. This module is what every backend's board shares.

Times cross machines as ages (seconds before the moment written), and the board's own
clock (the database's ``now()``, or this machine's for SQLite) says how long ago that was,
so no two machines' clocks are compared and a room's monotonic (or test) clock is kept.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from typing import Any

from pdk.store.contract import Board, Store, StoreUnavailable, Word

BEAT = 5.0  # seconds between a worker's words on the seats it holds
STALE = 3 * BEAT  # a worker silent this long is believed no more
FORGET = 3600.0  # words older than this are deleted (looked for once a minute)
SWEEP = 60.0


class Sweep:
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


def words(rows: list[Any]) -> dict[int, list[Word]]:
    """The board's rows (seat, client, streams, polled, left, seconds since said) as words
    by seat: what every backend's ``hear`` returns."""
    heard: dict[int, list[Word]] = {}
    for seat, client, streams, polled, left, said in rows:
        word = Word(client, int(streams), float(polled), float(left), max(0.0, float(said)))
        heard.setdefault(int(seat), []).append(word)
    return heard


class Beacon:
    """This worker's side of the board: its id, and the board of its store, opened on
    first use (a server nobody opens a room on never creates it). No board (a store
    only one process serves): nothing to say."""

    def __init__(self, store: Store) -> None:
        self.worker = secrets.token_hex(8)
        self._store = store
        self._board: Board | None = None
        self._opened = False
        self._lock = threading.Lock()

    def board(self) -> Board | None:
        with self._lock:
            if not self._opened:
                self._board = self._store.presence()
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


__all__ = ["BEAT", "FORGET", "STALE", "Beacon", "Board", "Sweep", "Word", "words"]
