"""The player's record: every finished deal of ``pdk play`` in a local SQLite database.

Two games may run at once in two terminals and write the same database. Each deal has a
globally unique id (session id + deal number) and is written with ``INSERT OR IGNORE``
inside a transaction, so a deal re-submitted after a crash is never counted twice and a
concurrent writer waits (WAL journal, busy timeout) rather than losing a deal.

The title ladder (docs/variants.md, seed 004) turns the cumulative score into a title.

The same database keeps each person's 残局 puzzle results (``puzzles``), through the same
one write: a puzzle counts once per person, its first answer (an answer given after the
solution was shown proves nothing), and the rating and streaks are the results replayed in
order (``pdk.analysis.puzzles.Standing``), so nothing derived is stored to disagree.
"""

from __future__ import annotations

import errno
import math
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pdk.analysis.puzzles import Standing
from pdk.text.catalog import LocalizedError

SCHEMA = """
CREATE TABLE IF NOT EXISTS deals (
    id          TEXT PRIMARY KEY,
    finished_at REAL NOT NULL,
    difficulty  TEXT NOT NULL,
    variant     TEXT NOT NULL,
    seed        INTEGER,
    won         INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    cards_left  INTEGER NOT NULL,
    record_path TEXT
);
CREATE INDEX IF NOT EXISTS deals_by_kind ON deals (difficulty, variant);
CREATE TABLE IF NOT EXISTS puzzles (
    person      TEXT NOT NULL,
    puzzle      INTEGER NOT NULL,
    level       INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (person, puzzle)
);
"""

# Added with tables for friends: the person a row belongs to ('' = this machine's own
# player, as every row of ``pdk play`` is) and the name they played under. Every database
# gets them on first use, once, under a write lock (a database from before has only
# the machine's player's rows: they read as such).
PERSON_COLUMNS = (("person", "TEXT NOT NULL DEFAULT ''"), ("name", "TEXT NOT NULL DEFAULT ''"))

# (minimum cumulative score, 中文 title, English gloss), lowest first.
TITLES: tuple[tuple[int, str, str], ...] = (
    (-(10**18), "蜗牛", "Snail"),
    (60, "小马驹", "Foal"),
    (140, "三等马", "Third-class horse"),
    (300, "二等马", "Second-class horse"),
    (720, "一等马", "First-class horse"),
    (1400, "千里马", "Thousand-li horse"),
    (2000, "白鹤", "White Crane"),
    (3000, "紫骍", "Purple Steed"),
    (4500, "惊帆", "Startled Sail"),
    (6200, "爪黄飞电", "Yellow-Claw Lightning"),
    (8000, "乌云踏雪", "Black Cloud on Snow"),
    (12000, "照夜玉狮子", "Night-Shining Jade Lion"),
    (17000, "的卢", "Dilu"),
    (22000, "绝影", "Shadowless"),
    (28000, "赤兔", "Red Hare"),
    (40000, "乌骓", "Black Piebald"),
    (60000, "晨凫", "Morning Duck"),
    (90000, "铜爵", "Bronze Sparrow"),
    (140000, "飞翩", "Flying Wing"),
    (300000, "追电", "Lightning Chaser"),
    (450000, "蹑景", "Shadow Treader"),
    (600000, "白兔", "White Hare"),
    (1000000, "追风", "Wind Chaser"),
)


def _wal(con: sqlite3.Connection, wait: float = 30.0) -> None:
    """Put the database in WAL mode. Switching the journal needs the database to itself and,
    unlike a write, does not wait on ``busy_timeout``: writers opening a new database at
    once can each be refused, so the switch is retried until one of them has made it."""
    deadline = time.monotonic() + wait
    while con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            con.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class HistoryReason(Enum):
    """Why the history database cannot be believed; values are message keys."""

    VALUE = "hist_err_value"


class HistoryError(LocalizedError, ValueError):
    """A history database holding a value pdk never writes (a tampered or foreign file):
    text where a score belongs, a number beyond 64 bits, a name longer than any."""

    reason: HistoryReason


_MAX_TEXT = 200


def _int(value: object, column: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2**63:
        raise HistoryError(HistoryReason.VALUE, column=column)
    return value


def _text(value: object, column: str, optional: bool = False) -> str | None:
    if optional and value is None:
        return None
    if not isinstance(value, str) or len(value) > (4096 if optional else _MAX_TEXT):
        raise HistoryError(HistoryReason.VALUE, column=column)
    return value


def _time(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise HistoryError(HistoryReason.VALUE, column="finished_at")
    return float(value)


def title_for(score: int) -> tuple[str, str, int | None]:
    """The title for a cumulative score: (中文, English, score of the next title or None)."""
    current = TITLES[0]
    nxt: int | None = None
    for i, t in enumerate(TITLES):
        if score >= t[0]:
            current = t
            nxt = TITLES[i + 1][0] if i + 1 < len(TITLES) else None
    return current[1], current[2], nxt


@dataclass(frozen=True, slots=True)
class DealRow:
    """One finished deal, from the human player's seat."""

    id: str
    difficulty: str
    variant: str
    seed: int | None
    won: bool
    score: int
    cards_left: int
    record_path: str | None
    finished_at: float = 0.0
    person: str = ""  # '' for this machine's player; a room's person id otherwise
    name: str = ""


@dataclass(frozen=True, slots=True)
class Group:
    """Totals for one difficulty and variant."""

    difficulty: str
    variant: str
    games: int
    wins: int
    total: int

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Person:
    """One person of a server's rooms: their public id, the name they last played under,
    and their totals."""

    person: str
    name: str
    games: int
    wins: int
    total: int


@dataclass(frozen=True, slots=True)
class Stats:
    games: int
    wins: int
    total: int
    groups: tuple[Group, ...]
    best: DealRow | None
    worst: DealRow | None

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0


class History:
    """The database file; every call opens its own short connection (safe across processes)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        try:
            con.execute("PRAGMA busy_timeout = 30000")
            _wal(con)
            con.executescript(SCHEMA)
            if not self._has_persons(con):
                con.execute("BEGIN IMMEDIATE")  # one writer adds them; the others then see them
                try:
                    if not self._has_persons(con):
                        for column, kind in PERSON_COLUMNS:
                            con.execute(f"ALTER TABLE deals ADD COLUMN {column} {kind}")
                    con.execute("COMMIT")
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
            con.execute("CREATE INDEX IF NOT EXISTS deals_by_person ON deals (person)")
            yield con
        finally:
            con.close()

    @staticmethod
    def _has_persons(con: sqlite3.Connection) -> bool:
        return "person" in {r[1] for r in con.execute("PRAGMA table_info(deals)")}

    def _write(self, sql: str, params: tuple[object, ...]) -> bool:
        """The one durable write: one ``INSERT OR IGNORE`` in its own immediate transaction
        (a concurrent writer waits); False if the row's key was already there."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                cur = con.execute(sql, params)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            return cur.rowcount == 1

    def add(self, row: DealRow) -> bool:
        """Record a deal; False if that deal id was already there (never counted twice)."""
        return self._write(
            "INSERT OR IGNORE INTO deals (id, finished_at, difficulty, variant, seed, won,"
            " score, cards_left, record_path, person, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.finished_at or time.time(),
                row.difficulty,
                row.variant,
                row.seed,
                int(row.won),
                row.score,
                row.cards_left,
                row.record_path,
                row.person,
                row.name,
            ),
        )

    def add_puzzle(self, person: str, puzzle: int, level: int, solved: bool) -> tuple[Standing, int | None]:
        """Record a person's answer to a puzzle (``''``: this machine's player): their
        standing after it and the change of their shown rating, None when it did not count
        (that puzzle was answered before: the standing is unchanged)."""
        before = self.puzzle_standing(person)
        counted = self._write(
            "INSERT OR IGNORE INTO puzzles (person, puzzle, level, solved, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (person, puzzle, level, int(solved), time.time()),
        )
        after = self.puzzle_standing(person)
        return after, after.shown - before.shown if counted else None

    def puzzle_standing(self, person: str = "") -> Standing:
        """A person's puzzle rating and streaks: their results replayed in the order given."""
        standing = Standing()
        if self._absent():
            return standing
        with self._connect() as con:
            for level, solved in con.execute(
                "SELECT level, solved FROM puzzles WHERE person = ? ORDER BY finished_at, rowid", (person,)
            ):
                lv = _int(level, "level")
                if not 1 <= lv <= 4:
                    raise HistoryError(HistoryReason.VALUE, column="level")
                standing = standing.after(lv, bool(_int(solved, "solved")))
        return standing

    def _absent(self) -> bool:
        """No database yet (no games); a data dir that is a file is an ``OSError``."""
        if self.path.exists():
            return False
        folder = self.path.parent
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
        return True

    def persons(self) -> tuple[Person, ...]:
        """Every person of the server's rooms, most games first, each under the name of
        their latest deal."""
        if self._absent():
            return ()
        with self._connect() as con:
            rows = con.execute(
                "SELECT person, COUNT(*), SUM(won), SUM(score), MAX(finished_at) FROM deals"
                " WHERE person != '' GROUP BY person ORDER BY COUNT(*) DESC, person"
            ).fetchall()
            out = []
            for person, games, won, score, at in rows:
                (name,) = con.execute(
                    "SELECT name FROM deals WHERE person = ? AND finished_at = ? LIMIT 1", (person, at)
                ).fetchone()
                out.append(
                    Person(
                        str(_text(person, "person")),
                        str(_text(name, "name")),
                        _int(games, "games"),
                        _int(won or 0, "won"),
                        _int(score or 0, "score"),
                    )
                )
        return tuple(out)

    def find_person(self, name_or_id: str) -> tuple[Person, ...]:
        """The persons whose id is ``name_or_id``, else those who last played under that
        name (several people may share a name)."""
        everyone = self.persons()
        by_id = tuple(p for p in everyone if p.person == name_or_id)
        return by_id or tuple(p for p in everyone if p.name == name_or_id)

    def stats(self, person: str = "") -> Stats:
        """The totals of one person (``''``: this machine's own player); no database yet
        is no games, but a data dir that is a file (or a database that is not one) is an
        ``OSError`` / ``sqlite3.Error`` for the caller."""
        if self._absent():
            return Stats(0, 0, 0, (), None, None)
        with self._connect() as con:
            groups = tuple(
                Group(
                    str(_text(d, "difficulty")),
                    str(_text(v, "variant")),
                    _int(g, "games"),
                    _int(w or 0, "won"),
                    _int(t or 0, "score"),
                )
                for d, v, g, w, t in con.execute(
                    "SELECT difficulty, variant, COUNT(*), SUM(won), SUM(score) FROM deals"
                    " WHERE person = ? GROUP BY difficulty, variant ORDER BY difficulty, variant",
                    (person,),
                )
            )
            best = self._one(con, person, "ORDER BY score DESC, finished_at ASC")
            worst = self._one(con, person, "ORDER BY score ASC, finished_at ASC")
        return Stats(
            games=sum(g.games for g in groups),
            wins=sum(g.wins for g in groups),
            total=sum(g.total for g in groups),
            groups=groups,
            best=best,
            worst=worst,
        )

    @staticmethod
    def _one(con: sqlite3.Connection, person: str, order: str) -> DealRow | None:
        row = con.execute(
            "SELECT id, difficulty, variant, seed, won, score, cards_left, record_path, finished_at"
            f" FROM deals WHERE person = ? {order} LIMIT 1",
            (person,),
        ).fetchone()
        if row is None:
            return None
        i, d, v, seed, won, score, left, path, at = row
        return DealRow(
            str(_text(i, "id")),
            str(_text(d, "difficulty")),
            str(_text(v, "variant")),
            None if seed is None else _int(seed, "seed"),
            bool(_int(won, "won")),
            _int(score, "score"),
            _int(left, "cards_left"),
            _text(path, "record_path", optional=True),
            _time(at),
            person,
        )


__all__ = ["TITLES", "DealRow", "Group", "History", "HistoryError", "Person", "Stats", "title_for"]
