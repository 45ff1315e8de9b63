"""The browser tables: one ``pdk.app.session`` game per token, saved after every change.

``pdk serve`` keeps each browser's game keyed by an unguessable token the page holds.
Tables are written in ``pdk play``'s save format (``Session.to_dict``, read back with
``session_from_text``, every play re-checked) to a ``pdk.app.store.Store`` (SQLite in the
data directory, or PostgreSQL), so a reload, a closed tab or a restarted server continues
the same position. Each save names the version it replaces: an action is acknowledged
only once its save is durable, and when another process moved the table on first the
action is refused as stale and the table read again. Only ``max_live`` tables stay in
memory (least recently used first out); with ``shared`` (several processes on one
store) a cached table is used only while its version is still the stored one.

A token is checked against ``TOKEN`` before it is ever joined to a path. Every action
names the move number it answers (``seq``, the length of the deal's history): a play sent
twice, or for a deal already over, is refused with a reason and changes nothing.

Finished deals are settled once, written as game records (``pdk.app.files.dump``) and
added to the history ``pdk stats`` reads (``archive_deal``); the table then shows the
settlement until the player asks for the next deal.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from pdk.app.archive import archive_deal
from pdk.app.history import History
from pdk.app.session import HUMAN, SaveError, Session, new_session, save_text, session_from_text
from pdk.app.store import Store, StoreError, VersionConflict, open_store
from pdk.bots import DIFFICULTIES
from pdk.engine import counts as C
from pdk.engine.cards import CardPlace
from pdk.engine.combos import Move
from pdk.engine.profile import Profile
from pdk.engine.rules import resolve_cards
from pdk.text.catalog import LocalizedError

# 24 random bytes in URL-safe base64 (``secrets.token_urlsafe(24)``): 32 characters.
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{32}$"
TOKEN = re.compile(TOKEN_PATTERN)
# The difficulty chosen for the next deal (a deal's bots never change mid-deal, so its
# record and history row name the bots that played it).
NEXT_DIFFICULTY = "next_difficulty"
SETTLED = "settled_deal"
_log = logging.getLogger(__name__)


class TableReason(Enum):
    """Why an action is refused; values are message keys (pdk/text/messages/web.py)."""

    STALE = "web_stale"
    NOT_YOUR_TURN = "web_not_your_turn"
    NOT_BOTS_TURN = "web_not_bots_turn"
    NOT_OVER = "web_not_over"
    OVER = "web_over"


class TableRefused(LocalizedError, ValueError):
    reason: TableReason


def new_token() -> str:
    return secrets.token_urlsafe(24)


def valid_token(token: str) -> bool:
    return TOKEN.fullmatch(token) is not None


@dataclass
class Table:
    """One browser's game and the lock its actions take."""

    token: str
    session: Session
    version: int = 0  # the store's version of this copy (0: not saved yet)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def seq(self) -> int:
        return len(self.session.state.history)

    @property
    def settled(self) -> bool:
        return self.session.ui.get(SETTLED) == self.session.deal_no

    @property
    def next_difficulty(self) -> str:
        value = self.session.ui.get(NEXT_DIFFICULTY)
        return value if isinstance(value, str) and value in DIFFICULTIES else self.session.difficulty


@dataclass
class TableStore:
    """The tables of one server: a bounded in-memory cache over a ``Store``."""

    root: Path
    profile: Profile
    variant: str
    seed: int | None = None
    max_live: int = 256
    difficulty: str = "normal"
    store: Store | None = None  # None: SQLite in ``root`` (``open_store``)
    shared: bool = False  # other processes write the same store: check versions on every get
    _live: OrderedDict[str, Table] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.store is None:
            self.store = open_store(None, self.root)

    @property
    def saves(self) -> Store:
        assert self.store is not None  # set in __post_init__
        return self.store

    @property
    def records(self) -> Path:
        return self.root / "records"

    @property
    def history(self) -> History:
        return History(self.root / "history.sqlite3")

    # -- finding tables --------------------------------------------------------------------

    def create(self, difficulty: str | None = None) -> Table:
        diff = difficulty if difficulty in DIFFICULTIES else self.difficulty
        table = Table(new_token(), new_session(self.profile, self.variant, diff, self.seed))
        self.saves.save(table.token, save_text(table.session), 1, None)
        table.version = 1
        self._keep(table)
        return table

    def get(self, token: str) -> Table | None:
        """The table of ``token`` from memory or the store; None if there is none (or the
        token is malformed, or its save cannot be read: it is left in the store as it is).
        ``StoreUnavailable`` when the store cannot be read."""
        if not valid_token(token):
            return None
        with self._lock:
            table = self._live.get(token)
            if table is not None:
                self._live.move_to_end(token)
                if not self.shared:
                    return table
        if table is not None and self._current(token, table.version):
            return table
        stored = self.saves.load(token)
        if stored is None:
            self._forget(token)
            return None
        if table is not None and table.version == stored.version:
            return table
        try:
            session = session_from_text(stored.data)
        except SaveError as exc:
            _log.warning("table %s: its save cannot be read (%s)", token, exc)
            return None
        return self._keep(Table(token, session, stored.version))

    def _current(self, token: str, version: int) -> bool:
        """Whether ``version`` is still the stored one, asked without reading the save
        (a store that cannot tell its versions alone is read in full instead)."""
        versions = getattr(self.saves, "versions", None)
        return versions is not None and versions([token]).get(token) == version

    def cached(self, token: str) -> Table | None:
        """The copy in memory, as it is (the one an action just saved)."""
        with self._lock:
            return self._live.get(token)

    def _forget(self, token: str, table: Table | None = None) -> None:
        """Drop the cached copy (``table`` only, if given): the store has the truth."""
        with self._lock:
            if table is None or self._live.get(token) is table:
                self._live.pop(token, None)

    def _keep(self, table: Table) -> Table:
        with self._lock:
            kept = self._live.get(table.token)
            if kept is None or kept.version < table.version:  # never an older copy
                self._live[table.token] = kept = table
            self._live.move_to_end(table.token)
            # Saved after every change, so an evicted table is in the store. A table in use (its
            # lock held) stays until its action is done: the bound is exceeded meanwhile.
            for token in list(self._live):
                if len(self._live) <= self.max_live:
                    break
                old = self._live[token]
                if old.lock.acquire(blocking=False):
                    del self._live[token]
                    old.lock.release()
            return kept

    def live(self) -> int:
        return len(self._live)

    def save(self, table: Table) -> None:
        """The changed table into the store, replacing the version it was read at. If the
        store refuses (another process moved it on) or fails, the changed copy is dropped
        from memory, so nothing unacknowledged is ever served."""
        try:
            self.saves.save(table.token, save_text(table.session), table.version + 1, table.version)
        except StoreError:
            self._forget(table.token, table)
            raise
        table.version += 1

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the tables idle for ``idle_seconds`` (if the store can tell); their tokens."""
        sweep = getattr(self.saves, "expire", None)
        gone: list[str] = [] if sweep is None else sweep(idle_seconds)
        for token in gone:
            self._forget(token)
        return gone

    # -- actions ---------------------------------------------------------------------------

    @contextmanager
    def holding(self, table: Table) -> Iterator[Table]:
        """Hold the live copy of ``table`` (if it was evicted while this request waited,
        the copy read back from the store, so no two copies of one table ever act); save it
        afterwards."""
        while True:
            with table.lock:
                if self._live.get(table.token) is table:
                    seq = table.seq
                    yield table
                    try:
                        self.save(table)
                    except VersionConflict:
                        fresh = self.get(table.token)
                        now = -1 if fresh is None else fresh.seq
                        raise TableRefused(TableReason.STALE, seq=seq, now=now) from None
                    return
            again = self.get(table.token)
            if again is None:
                raise TableRefused(TableReason.STALE, seq=-1, now=table.seq)
            table = again

    @contextmanager
    def acting(self, table: Table, seq: int) -> Iterator[Session]:
        """Hold the table for one action answering move number ``seq``; save afterwards."""
        with self.holding(table) as held:
            if seq != held.seq:
                raise TableRefused(TableReason.STALE, seq=seq, now=held.seq)
            yield held.session

    def play(self, table: Table, seq: int, cards: list[str] | None) -> None:
        """The human's play (``None`` passes), judged by the engine (``IllegalPlay`` or
        ``CardParseError`` when refused, the table unchanged)."""
        with self.acting(table, seq) as s:
            self._human_turn(s)
            hand = s.state.hands[HUMAN]
            chosen = None if cards is None else resolve_cards("".join(cards), hand, CardPlace.HAND)
            if cards is not None and chosen is not None and all(len(c) == 1 for c in cards):
                # Ranks alone (typed on the page): the suits that make the play legal, a
                # plain straight before a straight flush, as pdk play takes them.
                chosen = s.state.position().cards_for(C.from_cards(chosen)) or chosen
            s.state.play(chosen)
            self._settle_if_over(s)

    def step(self, table: Table, seq: int) -> None:
        """One bot move (the page calls this at its own pace, one move at a time)."""
        with self.acting(table, seq) as s:
            if s.state.over:
                raise TableRefused(TableReason.OVER)
            if s.state.turn == HUMAN:
                raise TableRefused(TableReason.NOT_BOTS_TURN)
            move: Move | None = s.bot_move()
            s.state.step(move)
            self._settle_if_over(s)

    def auto(self, table: Table, seq: int) -> None:
        """托管: the human seat's move chosen for the player (``Session.auto_move``, as in
        ``pdk play``); the page asks for one move at a time while 托管 is on."""
        with self.acting(table, seq) as s:
            self._human_turn(s)
            s.state.step(s.auto_move())
            self._settle_if_over(s)

    def next_deal(self, table: Table, seq: int) -> None:
        with self.acting(table, seq) as s:
            if not s.state.over:
                raise TableRefused(TableReason.NOT_OVER)
            self._settle_if_over(s)
            s.difficulty = table.next_difficulty
            s.ui.pop(NEXT_DIFFICULTY, None)
            s.next_deal()

    def choose_difficulty(self, table: Table, difficulty: str) -> None:
        """Kept for the next deal (and every one after it)."""
        with self.holding(table) as held:
            held.session.ui[NEXT_DIFFICULTY] = difficulty

    @staticmethod
    def _human_turn(s: Session) -> None:
        if s.state.over:
            raise TableRefused(TableReason.OVER)
        if s.state.turn != HUMAN:
            raise TableRefused(TableReason.NOT_YOUR_TURN)

    def _settle_if_over(self, s: Session) -> None:
        """Once per deal: the totals, the record and the history row."""
        if not s.state.over or s.ui.get(SETTLED) == s.deal_no:
            return
        st = s.settle()
        s.ui[SETTLED] = s.deal_no
        try:
            archive_deal(s, st, self.records, self.history)
        except Exception:  # OSError, RecordError, sqlite3.Error: never lose the game over stats
            _log.exception("deal %s: the record or the history row could not be written", s.deal_id)


__all__ = [
    "TOKEN",
    "TOKEN_PATTERN",
    "Table",
    "TableReason",
    "TableRefused",
    "TableStore",
    "new_token",
    "valid_token",
]
