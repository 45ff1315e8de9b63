"""Where tables are kept: one versioned save per key, written only if nobody moved it on.

The table service (``pdk.app.service``) keeps memory equal to disk: it computes a table's
next state on a copy, asks the store to ``save`` it with the version it started from, and
swaps the copy in only when the store says it is durable. The version check is what lets
two processes share a data directory: the second to answer the same move finds the
version moved on (``VersionConflict``) instead of overwriting the first.

``FileStore`` keeps each key in ``<root>/<key>.json`` through the one ``atomic_write``; the
version is the first field of the file (``{"rev": 12, ...``), so the save stays a plain
``pdk play`` save that ``load_save`` reads. Its read-check-write runs under an advisory
``flock`` on ``<root>/.<key>.lock``, which holds across threads and processes alike.
``open_store`` picks the store for a ``--store`` spec (the file store for now).
"""

from __future__ import annotations

import contextlib
import re
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
    """The store could not read or write durably (a full disk, a read-only folder)."""


class Store(Protocol):
    def load(self, key: str) -> Stored | None: ...

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        """Durable when it returns. ``expected=None`` creates (``VersionConflict`` if the key
        exists); otherwise ``VersionConflict`` unless the stored version is ``expected``.
        A failed save leaves the previous copy intact (``StoreUnavailable``)."""
        ...

    def delete(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...

    def close(self) -> None: ...


_REV = re.compile(r'\{"rev": (\d{1,18}), ')
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

    def version(self, key: str) -> int | None:
        stored = self.load(key)
        return None if stored is None else stored.version

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


def open_store(spec: str | None, data_dir: Path) -> Store:
    """The store for ``--store`` (``None``: files in ``data_dir/web``)."""
    del spec  # one kind of store so far: the files
    return FileStore(data_dir / "web")


__all__ = [
    "FileStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Stored",
    "VersionConflict",
    "open_store",
]
