"""Hearing that a table or room changed in another process: the hook rooms build on.

With several workers a seat may be connected to one process while another process moves
its room on. ``changes(store)`` gives a ``Changes`` for the store in use: ``watch(key,
callback)`` calls ``callback(key, version)`` (on a background thread) whenever the stored
version of ``key`` moves on, whoever wrote it. On PostgreSQL every save already announces
itself (``pg_notify`` in the save's own statement) and a ``LISTEN`` connection hears it at
once; on SQLite, which has no notifications, the watched keys' versions are polled.
Either way a missed moment is never a missed change: after a reconnect (or at every poll)
the versions are compared again. A room held by a worker is watched this way (its keeper
in ``pdk.web.rooms_api``), so a move made through another worker reaches its streams.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from pdk.store.contract import Store, StoreError

Callback = Callable[[str, int], None]
_log = logging.getLogger(__name__)


class Changes:
    """Watched keys and their last known versions; subclasses say how changes are heard."""

    def __init__(self, store: Store, interval: float) -> None:
        self._store = store
        self._interval = interval
        self._lock = threading.Lock()
        self._watch: dict[str, list[Callback]] = {}
        self._seen: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pdk-changes", daemon=True)
        self._thread.start()

    def watch(self, key: str, callback: Callback) -> Callable[[], None]:
        """Call ``callback(key, version)`` on every change of ``key``; returns the function
        that stops it."""
        with self._lock:
            self._watch.setdefault(key, []).append(callback)
        with contextlib.suppress(StoreError):
            self._seen.setdefault(key, self._store.versions([key]).get(key, 0))

        def stop() -> None:
            with self._lock:
                left = [c for c in self._watch.get(key, []) if c is not callback]
                if left:
                    self._watch[key] = left
                else:
                    self._watch.pop(key, None)
                    self._seen.pop(key, None)

        return stop

    def _heard(self, key: str, version: int) -> None:
        with self._lock:
            if version <= self._seen.get(key, 0) or key not in self._watch:
                return
            self._seen[key] = version
            callbacks = list(self._watch[key])
        for callback in callbacks:
            try:
                callback(key, version)
            except Exception:  # one seat's broken callback must not silence the others
                _log.exception("change of %s: a watcher failed", key)

    def _compare(self) -> None:
        """Every watched key against the store (what polling is, and what follows a gap)."""
        with self._lock:
            keys = list(self._watch)
        for key, version in self._store.versions(keys).items():
            self._heard(key, version)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            with contextlib.suppress(StoreError):
                self._compare()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


class PostgresChanges(Changes):
    """``LISTEN`` on the stores' channel; a lost connection is opened again and the watched
    versions compared, so nothing said while it was down is missed."""

    def __init__(self, store: Any, interval: float = 1.0) -> None:
        self._pg_store = store
        super().__init__(store, interval)

    def _run(self) -> None:
        from pdk.store.postgres import CHANNEL

        while not self._stop.is_set():
            try:
                db = self._pg_store.connect()
            except StoreError:
                self._stop.wait(self._interval)
                continue
            try:
                db.execute(f"LISTEN {CHANNEL}")
                self._compare()
                while not self._stop.is_set():
                    for note in db.notifies(timeout=self._interval):
                        key, _, version = note.payload.rpartition(":")
                        self._heard(key, int(version))
            except Exception:  # the connection broke: open it again, then compare
                self._stop.wait(self._interval)
            finally:
                db.close()


def changes(store: Store, interval: float = 1.0) -> Changes:
    """The ``Changes`` of ``store``: notifications on PostgreSQL, polling (every
    ``interval`` seconds) on SQLite or files."""
    from pdk.store.postgres import PostgresStore

    if isinstance(store, PostgresStore):
        return PostgresChanges(store, interval)
    return Changes(store, interval)


__all__ = ["Changes", "PostgresChanges", "changes"]
