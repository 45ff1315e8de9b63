"""Hearing that a table or room changed in another process: the hook rooms build on.

With several workers a seat may be connected to one process while another process moves
its room on. ``store.changes()`` gives the store's ``ChangeFeed`` (``pdk.store.contract``):
``watch(key, callback)`` calls ``callback(key, version)`` (on a background thread) whenever
the stored version of ``key`` moves on, whoever wrote it. ``Changes`` here is the part
every backend shares: the watched keys, their last known versions, and polling them
(``Store.versions``), which is all a backend without notifications needs (SQLite, files).
A backend that can announce its saves hears them instead (``pdk.store.postgres``: ``LISTEN``)
and compares again after every gap. Either way a missed moment is never a missed change:
after a reconnect (or at every poll) the versions are compared again. A room held by a
worker is watched this way (its keeper in ``pdk.web.rooms_api``), so a move made through
another worker reaches its streams.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

from pdk.store.contract import ChangeCallback, Store, StoreError

_log = logging.getLogger(__name__)


class Changes:
    """Watched keys and their last known versions, polled every ``interval`` seconds; a
    backend that hears its changes overrides ``_run`` and calls ``_heard``."""

    def __init__(self, store: Store, interval: float) -> None:
        self._store = store
        self._interval = interval
        self._lock = threading.Lock()
        self._watch: dict[str, list[ChangeCallback]] = {}
        self._seen: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pdk-changes", daemon=True)
        self._thread.start()

    def watch(self, key: str, callback: ChangeCallback) -> Callable[[], None]:
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


__all__ = ["Changes"]
