"""A store that tells someone every time it fails: the count behind ``pdk_store_errors_total``.

``pdk serve``'s operator wants to know how often the database or the disk refused, whoever
asked (a move, a room's stream, the idle sweep, the change feed), not only the failures
that reached a page as a 503. So the store ``pdk serve`` opens is wrapped once, here, and
every ``StoreUnavailable`` a caller meets is counted on its way out (the change feed's
background polling aside). A version conflict
is the contract working (two workers answered one move), not a failure, and is not
counted. Everything else is the wrapped store's own behaviour, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pdk.store.contract import Board, ChangeFeed, Store, Stored, StoreUnavailable, Write


class CountedStore:
    """``store`` with ``failed()`` called on each ``StoreUnavailable`` it raises."""

    def __init__(self, store: Store, failed: Callable[[], None]) -> None:
        self.inner = store
        self._failed = failed

    @contextmanager
    def _counted(self) -> Iterator[None]:
        try:
            yield
        except StoreUnavailable:
            self._failed()
            raise

    def load(self, key: str) -> Stored | None:
        with self._counted():
            return self.inner.load(key)

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        with self._counted():
            self.inner.save(key, data, version, expected)

    def save_all(self, writes: list[Write]) -> None:
        with self._counted():
            self.inner.save_all(writes)

    def delete(self, key: str) -> None:
        with self._counted():
            self.inner.delete(key)

    def keys(self) -> list[str]:
        with self._counted():
            return self.inner.keys()

    def versions(self, keys: list[str]) -> dict[str, int]:
        with self._counted():
            return self.inner.versions(keys)

    def saved_at(self, keys: list[str]) -> dict[str, float]:
        with self._counted():
            return self.inner.saved_at(keys)

    def expire(self, idle_seconds: float) -> list[str]:
        with self._counted():
            return self.inner.expire(idle_seconds)

    def close(self) -> None:
        self.inner.close()

    def set_aside(self, key: str) -> str | None:
        with self._counted():
            return self.inner.set_aside(key)

    def presence(self) -> Board | None:
        with self._counted():
            return self.inner.presence()

    def changes(self, interval: float = 1.0) -> ChangeFeed:
        # The feed's own background reads go to the wrapped store: they retry and log on
        # their own, and a store that is down is counted by the requests meanwhile.
        with self._counted():
            return self.inner.changes(interval)


__all__ = ["CountedStore"]
