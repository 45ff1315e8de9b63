"""Backing up the SQLite store while ``pdk serve`` runs, and putting a backup back.

``backup`` uses SQLite's online backup (``sqlite3.Connection.backup``): it reads the store
in one read transaction, so the copy is the store as it stood at one instant, every
acknowledged move in it, while the server goes on writing beside it (WAL lets a reader
and the writer work at once). The copy is written beside its target and renamed into
place when whole (``pdk.files.atomic``), and it is checked as ``restore`` would check it
before it counts as made.

``restore`` refuses while a ``pdk serve`` holds the store: each server holds a shared lock
on ``<store>-serving`` for as long as it runs (``serving``), which the kernel drops when it
ends, ``kill -9`` included, and a restore needs that lock alone. A server swapped under
its feet would keep tables and rooms in memory that the store no longer has, and answer
moves against them. The file must be a pdk store (SQLite, intact, with the ``tables``
table of ``pdk.store.sqlite``) before anything is touched; the store it replaces is first
backed up beside itself, so a restore can be undone.

PostgreSQL has its own tools for both (``pg_dump``, ``pg_restore``); ``pdk serve backup``
says so rather than half-doing them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pdk.files.atomic import atomic_replace
from pdk.store.contract import StoreError, StoreUnavailable

COLUMNS = ("key", "version", "data", "updated")  # pdk.store.sqlite's ``tables``


class NotAStore(StoreError):
    """The file is not a pdk store (not SQLite, damaged, or another program's database)."""


class StoreBusy(StoreError):
    """A ``pdk serve`` holds the store (or a restore is putting one back)."""


@dataclass(frozen=True)
class Contents:
    """What a store holds, counted by the kind of its keys."""

    tables: int  # single-player tables (a browser's token)
    rooms: int  # rooms (``rm-<id>``; each with its table ``rt-<id>``)
    size: int  # bytes of the file

    @property
    def summary(self) -> dict[str, int]:
        return {"tables": self.tables, "rooms": self.rooms, "bytes": self.size}


def contents(path: Path) -> Contents:
    """The pdk store in ``path``, checked (``quick_check``) and counted, read-only;
    ``NotAStore`` with the reason otherwise."""
    if not path.is_file():
        raise NotAStore(f"{path}: no such file")
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise NotAStore(f"{path}: damaged ({check[0] if check else 'no answer'})")
            columns = tuple(row[1] for row in db.execute("PRAGMA table_info(tables)"))
            if columns != COLUMNS:
                raise NotAStore(f"{path}: an SQLite database, but not a pdk store")
            rooms, others = db.execute(
                "SELECT count(*) FILTER (WHERE key LIKE 'rm-%'),"
                " count(*) FILTER (WHERE key NOT LIKE 'rm-%' AND key NOT LIKE 'rt-%') FROM tables"
            ).fetchone()
    except sqlite3.DatabaseError as exc:
        raise NotAStore(f"{path}: {exc}") from None
    return Contents(tables=int(others), rooms=int(rooms), size=path.stat().st_size)


def backup(store: Path, target: Path) -> Contents:
    """Copy the SQLite store ``store`` to ``target`` (replaced whole if it exists), safe
    while servers write to it; what the copy holds. ``StoreUnavailable`` if the store
    cannot be read or the copy written, ``NotAStore`` if ``store`` is not one."""
    contents(store)  # a typo'd --store or --save-dir is said before a file is written
    try:
        with atomic_replace(target) as tmp:
            _copy(store, tmp)
            made = contents(tmp)
    except (sqlite3.Error, OSError) as exc:
        raise StoreUnavailable(f"{target}: {exc}") from None
    return Contents(made.tables, made.rooms, target.stat().st_size)


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new database file ``target``, written
    as one file (no WAL beside it)."""
    with (
        contextlib.closing(sqlite3.connect(source, timeout=30)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")


def serving_lock(store: Path) -> Path:
    return store.with_name(store.name + "-serving")


@contextlib.contextmanager
def serving(store: Path) -> Iterator[None]:
    """Held by a ``pdk serve`` on the SQLite store ``store`` while it runs (several
    servers may hold it at once); ``StoreBusy`` while a restore is under way."""
    with _locked(store, exclusive=False):
        yield


@contextlib.contextmanager
def _locked(store: Path, exclusive: bool) -> Iterator[None]:
    import fcntl

    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(serving_lock(store), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreUnavailable(f"{serving_lock(store)}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            held = "a pdk serve is using it: stop it first" if exclusive else "a restore is under way"
            raise StoreBusy(f"{store}: {held}") from None
        yield
    finally:
        os.close(fd)  # closing drops the lock


@dataclass(frozen=True)
class Restored:
    contents: Contents  # what the store now holds
    kept: Path | None  # the store it replaced, backed up beside it (None: there was none)


def restore(source: Path, store: Path) -> Restored:
    """Put the backup ``source`` in place of the SQLite store ``store``, once no server
    holds it; the store it replaces is kept beside it first. ``NotAStore`` before anything
    is touched if ``source`` is not a pdk store, ``StoreBusy`` while a server runs."""
    contents(source)
    with _locked(store, exclusive=True):
        kept = None
        if store.exists():
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            kept = store.with_name(f"{store.name}.before-restore-{stamp}")
            backup(store, kept)
        try:
            with (
                contextlib.closing(sqlite3.connect(source)) as src,
                contextlib.closing(sqlite3.connect(store, timeout=30)) as dst,
            ):
                src.backup(dst)  # through the store's own pager: its WAL is dealt with too
                dst.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"{store}: {exc}") from None
        return Restored(contents(store), kept)


__all__ = ["Contents", "NotAStore", "Restored", "StoreBusy", "backup", "contents", "restore", "serving"]
