"""Where tables are kept: one versioned save per key, written only if nobody moved it on.

The table service (``pdk.table.service``) keeps memory equal to the store: it computes a
table's next state on a copy, asks the store to ``save`` it with the version it started
from, and swaps the copy in only when the store says it is durable (it would survive a
``kill -9``). The version check is what lets two processes share a data directory or a
database: the second to answer the same move finds the version moved on
(``VersionConflict``) instead of overwriting the first.

Each backend is one module that carries all of it: the saves, the presence board of the
workers serving the same rooms (``Store.presence``) and the feed of changes made by other
processes (``Store.changes``). ``pdk.store.open`` picks one by ``pdk serve --store``: SQLite
in the data directory by default (``pdk.store.sqlite``, one machine), or PostgreSQL
(``postgresql://...``, ``pdk.store.postgres``) for several processes or machines serving
the same tables; ``pdk play`` keeps its saves as files (``pdk.store.files``). A new backend
is one more module implementing ``Store`` and one line in ``open_store``; nothing else
asks which backend it is talking to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Write:
    """One save of ``Store.save_all``: ``save``'s arguments."""

    key: str
    data: str
    version: int
    expected: int | None


@dataclass(frozen=True)
class Stored:
    version: int  # +1 on every acknowledged change of the table
    data: str  # the table's save as JSON text (``Session.to_dict``)


class StoreError(Exception):
    """A store could not do what it was asked; ``detail`` says why in one line."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class VersionConflict(StoreError):
    """The table moved on: the stored version is not the one the change started from."""


class StoreUnavailable(StoreError):
    """The store could not read or write durably (a full disk, a read-only folder, a
    database that is down)."""


@dataclass(frozen=True)
class Word:
    """What one worker says of one seat of a room on the presence board
    (``pdk.store.presence``): ages in seconds before ``said``."""

    client: str | None
    streams: int
    polled: float  # since its client last polled there
    left: float  # since its last stream there ended
    said: float = 0.0  # since it said this (filled in when read)


class Board(Protocol):
    """Where the workers serving one store say who is connected to the rooms they hold."""

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


ChangeCallback = Callable[[str, int], None]


class ChangeFeed(Protocol):
    """Changes of stored keys, whoever wrote them (``pdk.store.changes``)."""

    def watch(self, key: str, callback: ChangeCallback) -> Callable[[], None]:
        """Call ``callback(key, version)`` (on a background thread) on every change of
        ``key``; returns the function that stops it."""
        ...

    def close(self) -> None: ...


class Store(Protocol):
    def load(self, key: str) -> Stored | None: ...

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        """Durable when it returns. ``expected=None`` creates (``VersionConflict`` if the key
        exists); otherwise ``VersionConflict`` unless the stored version is ``expected``.
        A failed save leaves the previous copy intact (``StoreUnavailable``)."""
        ...

    def save_all(self, writes: list[Write]) -> None:
        """Several saves as one: all durable together or none of them (``VersionConflict``
        if any one's version check fails). What a room's Deal is (its table created and
        its phase set), so a crash between the two cannot leave a dealt table under a room
        that says "waiting"."""
        ...

    def delete(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...

    def versions(self, keys: list[str]) -> dict[str, int]:
        """The stored versions of those of ``keys`` that exist, without their saves (cheap:
        what a server sharing the store checks its cached tables against, and what
        ``pdk.store.changes`` polls)."""
        ...

    def saved_at(self, keys: list[str]) -> dict[str, float]:
        """When each of those of ``keys`` that exist was last saved, in seconds since the
        epoch (the clock ``expire`` ages by): how ``pdk serve rooms`` tells a room's last
        activity without reading its save."""
        ...

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the keys nobody saved for ``idle_seconds``; the keys deleted. A room's
        two keys (``rm-<id>``, ``rt-<id>``) age together: its facts are saved seldom and
        its table at every move, so a room is idle only when neither was saved."""
        ...

    def close(self) -> None: ...

    def set_aside(self, key: str) -> str | None:
        """Keep the save of ``key``, which cannot be read, out of the next game's way for
        someone to look at: a file store moves its file aside and says where; a database
        leaves the row where it is (None), for the operator to read with its own tools."""
        ...

    def presence(self) -> Board | None:
        """A new presence board shared by every process on this store (the caller closes
        it), or None where only one process serves the store, so there is nobody to tell."""
        ...

    def changes(self, interval: float = 1.0) -> ChangeFeed:
        """A new feed of this store's changes (the caller closes it); ``interval`` is how
        often it looks again: every poll where the backend cannot announce a change, or
        the wait before reconnecting where it can."""
        ...
