"""Where tables are kept: one versioned save per key, written only if nobody moved it on.

The table service (``pdk.table.service``) keeps memory equal to the store: it computes a
table's next state on a copy, asks the store to ``save`` it with the version it started
from, and swaps the copy in only when the store says it is durable (it would survive a
``kill -9``). The version check is what lets two processes share a data directory or a
database: the second to answer the same move finds the version moved on
(``VersionConflict``) instead of overwriting the first.

``open_store`` picks the store of ``pdk serve --store``: SQLite in the data directory by
default (``pdk.store.sqlite``, one process), or PostgreSQL (``postgresql://...``,
``pdk.store.postgres``) for several processes or machines serving the same tables.
``pdk play`` keeps its saves as files: ``FileStore`` keeps each key in ``<root>/<key>.json``
through the one ``atomic_write``; the version is the first field of the file (``{"rev":
12, ...``), so the save stays a plain ``pdk play`` save that ``load_save`` reads. Its
read-check-write runs under an advisory ``flock`` on ``<root>/.<key>.lock``, which holds
across threads and processes alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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


class Store(Protocol):
    def load(self, key: str) -> Stored | None: ...

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        """Durable when it returns. ``expected=None`` creates (``VersionConflict`` if the key
        exists); otherwise ``VersionConflict`` unless the stored version is ``expected``.
        A failed save leaves the previous copy intact (``StoreUnavailable``)."""
        ...

    def delete(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...

    def versions(self, keys: list[str]) -> dict[str, int]:
        """The stored versions of those of ``keys`` that exist, without their saves (cheap:
        what a server sharing the store checks its cached tables against, and what
        ``pdk.store.changes`` polls)."""
        ...

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the keys nobody saved for ``idle_seconds``; the keys deleted."""
        ...

    def close(self) -> None: ...
