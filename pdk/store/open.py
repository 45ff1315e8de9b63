"""Opening the store ``pdk serve --store`` names: SQLite by default, or PostgreSQL.

The one place that picks a backend: everything after works through the ``Store`` contract
(``pdk.store.contract``), presence board and change feed included, so a new backend is its
own module and one more branch here.
"""

from __future__ import annotations

from pathlib import Path

from pdk.store.contract import Store, StoreUnavailable
from pdk.store.postgres import PostgresStore
from pdk.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(spec: str | None, data_dir: Path) -> Store:
    """The store ``spec`` names: None or ``sqlite`` is SQLite in ``data_dir``
    (``tables.sqlite3``, WAL), ``sqlite:PATH`` another file, ``postgresql://...`` a
    PostgreSQL database (the ``postgres`` extra). ``StoreUnavailable`` (with the reason)
    when it cannot open. The web saves of earlier versions are not looked at here: ``pdk
    serve`` moves them in once when it starts (``pdk.store.migrate``)."""
    path = sqlite_file(spec, data_dir)
    return PostgresStore(str(spec)) if path is None else SqliteStore(path)


def sqlite_file(spec: str | None, data_dir: Path) -> Path | None:
    """The SQLite file ``spec`` names (what ``pdk serve backup`` copies), None for a
    PostgreSQL database; ``StoreUnavailable`` for anything else."""
    if spec is not None and spec.startswith(POSTGRES_SCHEMES):
        return None
    if spec is None or spec == "sqlite" or spec.startswith("sqlite:"):
        return data_dir / "tables.sqlite3" if spec in (None, "sqlite") else Path(spec.removeprefix("sqlite:"))
    raise StoreUnavailable(f"unknown store {spec!r}: sqlite, sqlite:PATH or postgresql://...")


__all__ = ["POSTGRES_SCHEMES", "open_store", "sqlite_file"]
