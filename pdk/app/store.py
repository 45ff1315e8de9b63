"""Where tables are kept: one versioned save per key, written only if nobody moved it on.

The table service (``pdk.app.service``) keeps memory equal to the store: it computes a
table's next state on a copy, asks the store to ``save`` it with the version it started
from, and swaps the copy in only when the store says it is durable (it would survive a
``kill -9``). The version check is what lets two processes share a data directory or a
database: the second to answer the same move finds the version moved on
(``VersionConflict``) instead of overwriting the first.

``open_store`` picks the store of ``pdk serve --store``: SQLite in the data directory by
default (``pdk.app.store_sqlite``, one process), or PostgreSQL (``postgresql://...``,
``pdk.app.store_postgres``) for several processes or machines serving the same tables.
``pdk play`` keeps its saves as files: ``FileStore`` keeps each key in ``<root>/<key>.json``
through the one ``atomic_write``; the version is the first field of the file (``{"rev":
12, ...``), so the save stays a plain ``pdk play`` save that ``load_save`` reads. Its
read-check-write runs under an advisory ``flock`` on ``<root>/.<key>.lock``, which holds
across threads and processes alike.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pdk.app.files import atomic_write
from pdk.app.limits import RECORD_BYTES, LimitError, read_bounded


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
        ``pdk.app.changes`` polls)."""
        ...

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the keys nobody saved for ``idle_seconds``; the keys deleted."""
        ...

    def close(self) -> None: ...


_REV = re.compile(r'\{"rev": (\d{1,18})(?:, |(?=\}))')  # a lone {"rev": 1} is the save {}
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _oserror(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


class FileStore:
    """One file per key in ``root``; see the module docstring."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):  # keys are checked before; never join a stranger's text
            raise ValueError("bad store key")
        return self.root / f"{key}.json"

    def load(self, key: str) -> Stored | None:
        # Files are replaced whole (``atomic_write``): a read without the lock sees the old
        # copy or the new one, never a mix.
        path = self.path(key)
        try:
            text = read_bounded(path, RECORD_BYTES)
        except FileNotFoundError:
            return None
        except (UnicodeDecodeError, LimitError):
            return Stored(0, "")  # not a save: the caller judges it (and moves it aside)
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        return _split(text)

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        if not data.startswith("{"):
            raise ValueError("a save is a JSON object")
        path = self.path(key)
        with self._locked(key):
            current = self._current(path)
            if expected is None and current is not None:
                raise VersionConflict(f"{key} exists at version {current}")
            if expected is not None and current != expected:
                raise VersionConflict(f"{key} is at version {current}, not {expected}")
            text = f'{{"rev": {version}, ' + data[1:] if data != "{}" else f'{{"rev": {version}}}'
            try:
                atomic_write(path, text)
            except OSError as exc:
                raise StoreUnavailable(_oserror(exc)) from None

    def delete(self, key: str) -> None:
        with self._locked(key), contextlib.suppress(FileNotFoundError):
            self.path(key).unlink()

    def keys(self) -> list[str]:
        try:
            return sorted(p.stem for p in self.root.glob("*.json") if _KEY.fullmatch(p.stem))
        except OSError:
            return []

    def versions(self, keys: list[str]) -> dict[str, int]:
        found = {key: self._current(self.path(key)) for key in keys}
        return {key: v for key, v in found.items() if v is not None}

    def expire(self, idle_seconds: float) -> list[str]:
        """The files not written for ``idle_seconds`` (their modification time) deleted."""
        cutoff = time.time() - idle_seconds
        gone = []
        for key in self.keys():
            with self._locked(key):  # looked at again under the lock: a save may just have landed
                path = self.path(key)
                try:
                    if path.stat().st_mtime >= cutoff:
                        continue
                    path.unlink()
                except FileNotFoundError:
                    continue
                except OSError as exc:
                    raise StoreUnavailable(_oserror(exc)) from None
            gone.append(key)
        return gone

    def close(self) -> None:
        return None

    def _current(self, path: Path) -> int | None:
        """The stored version (0 for a file written before versions), None if absent."""
        try:
            with open(path, "rb") as f:
                head = f.read(40).decode("utf-8", "replace")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        m = _REV.match(head)
        return int(m.group(1)) if m else 0

    @contextlib.contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            f = open(self.root / f".{key}.lock", "ab")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        try:
            try:
                import fcntl
            except ImportError:  # not POSIX: one process per data directory
                yield
                return
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        finally:
            f.close()


def _split(text: str) -> Stored:
    m = _REV.match(text)
    if m is None:
        return Stored(0, text)
    return Stored(int(m.group(1)), "{" + text[m.end() :])


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(spec: str | None, data_dir: Path) -> Store:
    """The store ``spec`` names: None or ``sqlite`` is SQLite in ``data_dir``
    (``tables.sqlite3``, WAL), ``sqlite:PATH`` another file, ``postgresql://...`` a
    PostgreSQL database (the ``postgres`` extra). The web saves of earlier versions
    (``data_dir/web/*.json``) are moved into it once. ``StoreUnavailable`` (with the
    reason) when it cannot open."""
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
    import_json_saves(store, FileStore(data_dir / "web"))
    return store


__all__ = [
    "POSTGRES_SCHEMES",
    "FileStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Stored",
    "VersionConflict",
    "open_store",
]
