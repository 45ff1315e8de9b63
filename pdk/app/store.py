"""Where the tables of ``pdk serve`` are kept: the one contract every store implements.

A table is saved as its JSON text with a version, a per-table counter that grows by one on
every acknowledged change. Every write names the version it replaces, so two processes (or
two threads) that both answer move 12 can never both be accepted: the second one is told
the table moved on (``VersionConflict``) and reloads. A save is durable when it returns,
so an action is acknowledged only once it would survive a ``kill -9``.

``open_store`` picks the store from ``pdk serve --store``: SQLite in the data directory by
default (one process), or PostgreSQL (``postgresql://...``) for several processes or
machines serving the same tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class Stored:
    version: int  # the table's version: a per-table counter, +1 on every acknowledged change
    data: str  # the table's save as JSON text (the session save format, Session.to_dict)


class StoreError(Exception):
    """Base of what a store raises; the message is one line for the server's answer."""


class VersionConflict(StoreError):
    """The table moved on: the stored version is not the one the write expected."""


class StoreUnavailable(StoreError):
    """Nothing could be read or written durably (disk full, read-only, database down)."""


class Store(Protocol):
    def load(self, key: str) -> Stored | None: ...

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        """Durable when it returns. expected=None: create (VersionConflict if the key exists);
        otherwise VersionConflict unless the stored version == expected. Atomic: a failed save
        leaves the previous copy intact. Raises StoreUnavailable when it cannot write."""
        ...

    def delete(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...

    def close(self) -> None: ...


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(spec: str | None, data_dir: Path) -> Store:
    """The store ``spec`` names: None or ``sqlite`` is SQLite in ``data_dir`` (WAL), a
    ``sqlite:PATH`` another file, ``postgresql://...`` a PostgreSQL database (the
    ``postgres`` extra). The web saves of older versions (``data_dir/web/*.json``) are
    moved into it once. Raises ``StoreUnavailable`` (with the reason) when it cannot open."""
    from pdk.app.store_migrate import import_json_saves

    store: Store
    if spec is not None and spec.startswith(POSTGRES_SCHEMES):
        from pdk.app.store_postgres import PostgresStore

        store = PostgresStore(spec)
    elif spec is None or spec == "sqlite" or spec.startswith("sqlite:"):
        from pdk.app.store_sqlite import SqliteStore

        path = data_dir / "tables.sqlite3" if spec in (None, "sqlite") else Path(spec.removeprefix("sqlite:"))
        store = SqliteStore(path)
    else:
        raise StoreUnavailable(f"unknown store {spec!r}: sqlite, sqlite:PATH or postgresql://...")
    import_json_saves(store, data_dir / "web")
    return store


__all__ = ["Store", "StoreError", "StoreUnavailable", "Stored", "VersionConflict", "open_store"]
