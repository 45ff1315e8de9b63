"""The browser tables: one table service (``pdk.table.service``) per token, kept in a store.

``pdk serve`` keeps each browser's game under an unguessable token the page holds. The
store (``pdk.store.contract``: SQLite in the data directory by default, or PostgreSQL) is the
truth: every change is written there, with its version, before it is acknowledged, so a
reload, a closed tab, a restarted server or a second server on the same store continues
the same position, and two servers never both accept one move. Only ``max_live`` tables
stay in memory (least recently used first out, never the one just asked for); the others
live in the store only, and a table read back is always the store's newest copy. With
``shared`` (several processes serving one store, ``pdk serve --workers``) a cached table
is checked against the stored version (its number alone) whenever it is asked for, so a
page is never shown a table another worker has moved on. Tables nobody moved for a while
are cleared (``expire``).

A token is checked against ``TOKEN`` before it is ever given to the store.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from pdk.bots import DIFFICULTIES
from pdk.engine.profile import Profile
from pdk.engine.record import GameRecord
from pdk.store.contract import Store
from pdk.store.open import open_store
from pdk.store.tokens import new_token, valid_token
from pdk.table.history import History
from pdk.table.service import Archive, TableService
from pdk.table.session import SaveError, new_session, practice_session

_log = logging.getLogger(__name__)


@dataclass
class TableStore:
    """The tables of one server: a bounded in-memory cache of table services over a store."""

    root: Path
    profile: Profile
    variant: str
    seed: int | None = None
    max_live: int = 256
    difficulty: str = "normal"
    store: Store | None = None  # None: SQLite in ``root`` (``open_store``)
    shared: bool = False  # other processes write the same store: check versions on every get
    _live: OrderedDict[str, TableService] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    # The version each evicted table had: a copy read from the store before that version
    # was saved is older than what this server already acknowledged, and is read again.
    _evicted: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.store is None:
            self.store = open_store(None, self.root)
        self.archive = Archive(self.root / "records", History(self.root / "history.sqlite3"))

    @property
    def saves(self) -> Store:
        """The store the tables are kept in (rooms keep theirs there too, under their own keys)."""
        assert self.store is not None  # set in __post_init__
        return self.store

    # -- finding tables --------------------------------------------------------------------

    def create(self, difficulty: str | None = None, profile: Profile | None = None) -> TableService:
        """A new table of the server's profile, or of ``profile`` (house rules chosen on the
        page: the table's save and records carry it, so it plays on under its own rules)."""
        diff = difficulty if difficulty in DIFFICULTIES else self.difficulty
        chosen = profile or self.profile
        session = new_session(chosen, self.variant if profile is None else profile.name, diff, self.seed)
        table = TableService.create(self.saves, new_token(), self.archive, session)
        return self._keep(table)

    def practice(self, record: GameRecord, number: int, difficulty: str) -> TableService:
        """A new table playing on from play ``number`` of ``record`` (``practice_session``:
        the same hands, the person to move, the computers at ``difficulty``)."""
        diff = difficulty if difficulty in DIFFICULTIES else self.difficulty
        variant = str(record.meta.get("variant") or record.profile.name)
        session = practice_session(record, number, variant, diff)
        table = TableService.create(self.saves, new_token(), self.archive, session)
        return self._keep(table)

    def get(self, token: str) -> TableService | None:
        """The table of ``token``: the live one (``shared``: once checked against the stored
        version), else the store's newest copy; None if there is none (or the token is
        malformed, or its save cannot be read: a file save is then moved aside, a database
        row left as it is). ``StoreUnavailable`` when the store cannot be read."""
        if not valid_token(token):
            return None
        with self._lock:
            table = self._live.get(token)
            if table is not None:
                self._live.move_to_end(token)
        try:
            if table is not None:
                return table if not self.shared else self._current(table)
            table = TableService.open(self.saves, token, self.archive)
        except SaveError as exc:
            self._forget([token])
            where = self.saves.set_aside(token)
            _log.warning(
                "table %s: its save cannot be read (%s)%s", token, exc, f"; kept as {where}" if where else ""
            )
            return None
        return None if table is None else self._keep(table)

    def _current(self, table: TableService) -> TableService | None:
        """The cached ``table`` as the store has it now: read again only if another process
        moved it on (asked by version alone), None if it was cleared meanwhile."""
        stored = self.saves.versions([table.key]).get(table.key)
        if stored is None:
            self._forget([table.key])
            return None
        if stored != table.version:
            table.refresh()
        return table

    def expire(self, idle_seconds: float) -> list[str]:
        """Clear the tables nobody moved for ``idle_seconds``; their tokens. A page that
        comes back with one of them is told so and given a new table."""
        gone = self.saves.expire(idle_seconds)
        self._forget(gone)
        return gone

    def _forget(self, tokens: list[str]) -> None:
        with self._lock:
            for token in tokens:
                self._live.pop(token, None)
                self._evicted.pop(token, None)

    def _keep(self, table: TableService) -> TableService:
        """Cache ``table`` (or the copy another request cached first: both act through the
        store's version check, so neither can undo the other). Tables in use (their lock
        held) stay until their command is done; the table just kept is never evicted. A
        browser table's hints are searched when the page asks (``lazy_hints``)."""
        table.lazy_hints = True
        if table.version < self._evicted.get(table.key, 0):
            table.refresh()
        with self._lock:
            kept = self._live.setdefault(table.key, table)
            self._live.move_to_end(table.key)
            for token in list(self._live):
                if len(self._live) <= self.max_live:
                    break
                old = self._live[token]
                if old is kept:
                    continue
                if old.lock.acquire(blocking=False):
                    del self._live[token]
                    self._evicted[token] = old.version
                    old.lock.release()
            return kept

    def live(self) -> int:
        return len(self._live)


__all__ = ["TableStore"]
