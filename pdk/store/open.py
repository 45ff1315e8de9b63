"""Opening the store ``pdk serve --store`` names: SQLite by default, or PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from pdk.store.contract import Store, StoreUnavailable
from pdk.store.files import FileStore
from pdk.store.migrate import import_json_saves

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(spec: str | None, data_dir: Path) -> Store:
    """The store ``spec`` names: None or ``sqlite`` is SQLite in ``data_dir``
    (``tables.sqlite3``, WAL), ``sqlite:PATH`` another file, ``postgresql://...`` a
    PostgreSQL database (the ``postgres`` extra). The web saves of earlier versions
    (``data_dir/web/*.json``) are moved into it once. ``StoreUnavailable`` (with the
    reason) when it cannot open."""
    store: Store
    if spec is not None and spec.startswith(POSTGRES_SCHEMES):
        from pdk.store.postgres import PostgresStore

        store = PostgresStore(spec)
    elif spec is None or spec == "sqlite" or spec.startswith("sqlite:"):
        from pdk.store.sqlite import SqliteStore

        path = data_dir / "tables.sqlite3" if spec in (None, "sqlite") else Path(spec.removeprefix("sqlite:"))
        store = SqliteStore(path)
    else:
        raise StoreUnavailable(f"unknown store {spec!r}: sqlite, sqlite:PATH or postgresql://...")
    import_json_saves(store, FileStore(data_dir / "web"))
    return store
