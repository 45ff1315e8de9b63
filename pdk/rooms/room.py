"""Tables for friends: a room is one table service with a person in several seats.

A room has one seat per player of its profile (2 to 4). Seat 0 is the host's, who made
the room; every seat has its own secret key, and the link that carries it is the seat:
whoever opens it plays that seat (no sign-up), from any device, and a key grants that
seat only. A watch link (its own secret) shows the table with no hand at all. Seats
nobody has taken when the host deals are played by bots, and a person who takes one
later plays it from the next deal.

The game itself is the one table service (``pdk.table.service``): each seat's commands go
to it with the seat named, it settles and archives every deal once, and its save is the
truth. The room's own facts (who took which seat, their names, the turn time, whether it
is open) are saved beside it under their own key, through the same store and the same
version check: ``rm-<id>`` for the room, ``rt-<id>`` for its table (neither can be read as
a single-player table's token).

What no command asks for, the room does itself: ``due`` names it (``pdk.table.runner``, the
rule every face follows) and ``act`` does it (the web layer asks whenever the room changed
and when the time it names comes, a hard bot's search in one of the server's thinking
slots; ``tick`` is both at once): a bot's move, a 托管 seat's or 要不起's, at the room's pace
(an automatic pass waits at least ``PASS_PAUSE``); a person whose turn time ran out, or whose every
connection has been gone for ``away_after`` seconds, goes to 托管, shown to all; the
person takes the seat back on return (a returning connection ends the 托管 that being
away caused; the 托管 switch ends any). With several workers on one store, "connected"
means connected to any of them (``pdk.store.presence``), and a room is read back when
another worker moved it (``reload``, ``catch_up``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from pdk.bots import DIFFICULTIES
from pdk.engine.position import Play
from pdk.engine.profile import Profile, validate_profile
from pdk.store.contract import Store, StoreUnavailable, VersionConflict, Write
from pdk.store.presence import STALE, Beacon, Word
from pdk.store.tokens import TOKEN_PATTERN, new_token
from pdk.table import runner
from pdk.table.history import HistoryError, Person, Stats
from pdk.table.runner import Due
from pdk.table.service import Archive, SeatTable, TableRefused, TableService
from pdk.table.session import HUMAN, SaveError, new_session
from pdk.text.catalog import LocalizedError
from pdk.variants.registry import available_profiles

ROOM_ID_PATTERN = r"^[A-Za-z0-9_-]{16}$"
KEY_PATTERN = TOKEN_PATTERN  # a seat's or the watch key is made by new_token
CLIENT_PATTERN = r"^[A-Za-z0-9_-]{8,40}$"
PERSON_PATTERN = r"^[A-Za-z0-9_-]{32}$"
ROOM_ID = re.compile(ROOM_ID_PATTERN)
NUMBER = re.compile(r"[1-9][0-9]{5}")
# The quick phrases and emotes a seat may send the room: a fixed set, no free text (words in
# the catalogue, ``web_qp_<key>``). At most one every ``SAY_EVERY`` seconds per seat.
PHRASES = ("hello", "hurry", "nice", "oops", "again", "thanks", "smile", "wow", "cry", "thumbs")
SAY_EVERY = 3.0
SAID_KEPT = 8
KEY = re.compile(KEY_PATTERN)
NAME_CHARS = 24
TURN_TIMES = (0, 10, 15, 20, 30, 45, 60, 90, 120)  # seconds; 0 = no turn time
Phase = Literal["waiting", "playing", "closed"]


class RoomReason(Enum):
    """Why a room refuses; values are message keys (``pdk/text/messages/rooms.py``)."""

    NO_ROOM = "web_room_none"
    BAD_KEY = "web_room_bad_key"
    NOT_HOST = "web_room_not_host"
    NOT_PERSON = "web_room_not_person"
    NOT_BETWEEN = "web_room_not_between"
    CLOSED = "web_room_closed"
    FULL = "web_room_full"
    IN_USE = "web_room_in_use"
    NOT_STARTED = "web_room_not_started"
    STARTED = "web_room_started"
    TOO_FAST = "web_room_too_fast"
    BAD_VARIANT = "web_room_bad_variant"
    BAD_NAME = "web_room_bad_name"
    TOO_MANY = "web_room_too_many"
    MOVED = "web_room_moved"
    NO_PERSON = "web_room_no_person"
    MATCH_OVER = "web_room_match_over"
    BAD_PHRASE = "web_room_bad_phrase"
    BAD_SEAT = "web_room_bad_seat"
    MATCH_ON = "web_room_match_on"
    BOT_SEAT = "web_room_bot_seat"
    SEAT_TAKEN = "web_room_seat_taken"


class RoomRefused(LocalizedError, ValueError):
    reason: RoomReason


@functools.cache
def shipped_profiles() -> dict[str, Profile]:
    """The profiles a room may be made with: every shipped one (2 to 4 seats)."""
    return {p.name: p for p in available_profiles() if 2 <= p.players <= 4}


def clean_name(name: str) -> str:
    """A seat's name as shown to everyone: one line, no control characters, at most
    ``NAME_CHARS`` characters (``RoomRefused`` if nothing printable is left)."""
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())[:NAME_CHARS]
    if not text:
        raise RoomRefused(RoomReason.BAD_NAME)
    return text


def person_id(secret: str) -> str:
    """The public id of the person whose browser keeps ``secret``: what the history
    stores and ``pdk stats --person`` shows. Only its holder can ask for its record; the
    id cannot be turned back into the secret."""
    return hashlib.sha256(f"pdk-person:{secret}".encode()).hexdigest()[:16]


def seat_person(key: str) -> str:
    """The person of a seat whose holder named none (a terminal, an older page): the seat
    itself, so its deals are still kept under one id on the server."""
    return person_id(f"seat:{key}")


@dataclass
class SeatInfo:
    key: str  # the seat's secret (the link carries it)
    name: str  # as the person typed it ("" until the seat is taken)
    taken: bool = False
    person: str = ""  # the public id of whoever took the seat last (``person_id``)
    # Taken while a deal was on the table: the person plays it from the next deal, and until
    # then the seat's key shows what a spectator sees (the hand is 托管's or the bot's).
    waits: bool = False


@dataclass
class RoomInfo:
    """What a room is, apart from its game: saved under ``rm-<id>``."""

    id: str
    variant: str
    difficulty: str  # the bots' level
    turn_time: int  # seconds; 0: none
    watch: str  # the spectators' secret
    seats: list[SeatInfo]
    phase: Phase = "waiting"
    pace_ms: int = 700
    # The seats whose 托管 the room set because their person went away: a returning
    # connection, through any worker, ends it (托管 for a turn time that ran out ends with
    # the 托管 switch). Saved, so every worker serving the room knows why a seat is 托管.
    away: list[int] = field(default_factory=list)
    # House rules chosen when the room was made: the whole profile, so the room plays them
    # whatever the shipped files say later (None: the shipped profile ``variant``).
    profile: dict[str, Any] | None = None
    number: str = ""  # the short room number a phone types on /room ("": none)
    # A match: how many deals it is (0: open-ended), and each finished deal's scores, one
    # row per deal, kept as the host deals on (the last deal's row is the table's own).
    match: int = 0
    scores: list[list[int]] = field(default_factory=list)
    # The last quick phrases sent, each [number, seat, phrase] (numbers go up: a page shows
    # the ones newer than it has seen).
    said: list[list[Any]] = field(default_factory=list)
    host: int = 0  # the host's seat (the one who made the room, until they hand it on)
    # The people's seats ready for the next deal (bots always are): when every person
    # seated is, the deal starts; the host may start it sooner.
    ready: list[int] = field(default_factory=list)

    def rules(self) -> Profile:
        """The profile the room plays: its own house rules, or the shipped ``variant``."""
        if self.profile is not None:
            return validate_profile(self.profile, f"room {self.id}")
        return shipped_profiles()[self.variant]

    def to_json(self) -> str:
        own: dict[str, Any] = {} if self.profile is None else {"profile": self.profile}
        if self.number:
            own["number"] = self.number
        if self.said:
            own["said"] = self.said
        if self.match or self.scores:
            own["match"] = self.match
            own["scores"] = self.scores
        if self.host:
            own["host"] = self.host
        if self.ready:
            own["ready"] = self.ready
        return json.dumps(
            {
                "format": "pdk-room",
                "id": self.id,
                "variant": self.variant,
                **own,
                "difficulty": self.difficulty,
                "turn_time": self.turn_time,
                "watch": self.watch,
                "phase": self.phase,
                "pace_ms": self.pace_ms,
                "away": self.away,
                "seats": [
                    {"key": s.key, "name": s.name, "taken": s.taken, "person": s.person}
                    | ({"waits": True} if s.waits else {})
                    for s in self.seats
                ],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> RoomInfo:
        """The room saved as ``to_json`` wrote it; ``ValueError`` for anything else."""
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("format") != "pdk-room":
            raise ValueError("not a room")
        seats = d["seats"]
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
            raise ValueError("seats")
        info = cls(
            id=str(d["id"]),
            variant=str(d["variant"]),
            difficulty=str(d["difficulty"]),
            turn_time=int(d["turn_time"]),
            watch=str(d["watch"]),
            seats=[
                SeatInfo(
                    str(s["key"]),
                    str(s["name"]),
                    bool(s["taken"]),
                    str(s.get("person", "")),
                    bool(s.get("waits", False)),
                )
                for s in seats
            ],
            phase=d["phase"] if d["phase"] in ("waiting", "playing", "closed") else "closed",
            pace_ms=int(d["pace_ms"]),
            away=sorted({int(s) for s in d.get("away", []) if 0 <= int(s) < len(seats)}),
            profile=d["profile"] if isinstance(d.get("profile"), dict) else None,
            number=str(d.get("number", "")) if NUMBER.fullmatch(str(d.get("number", ""))) else "",
            match=int(d.get("match", 0)),
            said=[
                [int(n), int(s), str(p)]
                for n, s, p in d.get("said", [])
                if str(p) in PHRASES and 0 <= int(s) < len(seats)
            ],
            scores=[[int(x) for x in row] for row in d.get("scores", [])],
            host=int(d.get("host", 0)),
            ready=sorted({int(s) for s in d.get("ready", []) if 0 <= int(s) < len(seats)}),
        )
        if not (0 <= info.host < len(info.seats) and info.seats[info.host].taken):
            raise ValueError("host")
        if not all(KEY.fullmatch(k) for k in [info.watch, *(s.key for s in info.seats)]):
            raise ValueError("keys")
        return info


@dataclass
class Presence:
    """Who holds a seat now: the client (a page or a terminal) and its connections."""

    client: str | None = None
    streams: int = 0  # open live connections (server-sent events)
    polled: float = -1e9  # the last time a polling client asked (monotonic)
    left: float = 0.0  # when the last connection went (monotonic)


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    taken: bool  # a person holds the link (else a bot plays it)
    bot: bool  # a bot plays it this deal
    present: bool  # the person's page or terminal is connected
    auto: bool  # 托管
    total: int  # running total across the room's deals
    ready: bool = False  # a person's seat ready for the next deal (a bot's always is)
    letter: str = ""  # a computer's seat: A, B, C in seat order ("" for a person's)


@dataclass(frozen=True)
class RoomView:
    """The room as one seat (or a spectator) may see it."""

    id: str
    rev: int
    version: int  # the room's saved version (with the table's, orders the views sent)
    phase: Phase
    variant: str
    players: int
    difficulty: str
    turn_time: int
    deals: int
    seats: tuple[SeatView, ...]
    you: int | None  # the viewer's seat (None: a spectator)
    host: bool
    deadline: float | None  # seconds left of the seat to move's turn time
    table: SeatTable | None  # None until the host deals
    invites: tuple[tuple[int, str], ...] = ()  # the host's: each free seat and its key
    watch: str | None = None  # the host's: the spectators' key
    number: str = ""  # the host's: the short room number others may type
    match: int = 0  # deals in the match (0: open-ended)
    scores: tuple[tuple[int, ...], ...] = ()  # each finished deal's scores, by seat
    match_over: bool = False  # the match's last deal is settled: the final standings
    said: tuple[tuple[int, int, str], ...] = ()  # the last quick phrases: (number, seat, phrase)
    host_seat: int = 0  # whose seat the host's is (everyone sees it)
    # The viewer's plays this deal that 托管 made for them, in order (None: a pass): what a
    # person back from 托管 is told was played for them.
    auto_made: tuple[tuple[int, Play | None], ...] = ()


@dataclass
class Bucket:
    """A token bucket: ``rate`` commands a second, ``burst`` at once."""

    rate: float = 8.0
    burst: float = 16.0
    tokens: float = 16.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


Clock = Callable[[], float]
POLL_HOLD = 25.0  # a polling client holds its seat this long after it last asked


def _lazy(table: TableService | None) -> TableService | None:
    """A room's table draws only hints already searched (``hints_pending`` otherwise) and
    its seat asks for them (``Room.hints``): a room renders each kind of viewer in one
    task, and a hint searched in a render held every spectator's view behind it."""
    if table is not None:
        table.lazy_hints = True
    return table


@dataclass
class Room:
    """One room: its facts, its table, and who is connected (in memory only)."""

    store: Store
    archive: Archive
    info: RoomInfo
    version: int
    table: TableService | None = None
    away_after: float = 30.0
    clock: Clock = time.monotonic
    lock: threading.RLock = field(default_factory=threading.RLock)
    presence: dict[int, Presence] = field(default_factory=dict)
    buckets: dict[int, Bucket] = field(default_factory=dict)
    last_said: dict[int, float] = field(default_factory=dict)  # each seat's last quick phrase (clock)
    moved_at: float = 0.0  # when the table last changed (monotonic): paces bots, times turns
    _moved_version: int = -1
    # Who is connected through the other workers serving this room (``pdk.store.presence``),
    # as last heard, and when (this room's clock); no beacon: this process is alone.
    beacon: Beacon | None = None
    elsewhere: dict[int, list[Word]] = field(default_factory=dict)
    heard_at: float = 0.0
    seed: int | None = None  # the server's seed for the deals (None: drawn)

    def __post_init__(self) -> None:
        self.table = _lazy(self.table)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def rev(self) -> int:
        """Goes up with every change of the room's facts or its table: what a live
        connection compares to know it has something to send. Who is connected is not in
        it (``here_now`` is): a stream opening or closing must not make every stream of
        the room send the whole room again."""
        table = 0 if self.table is None else self.table.version
        return self.version + table

    def here_now(self) -> tuple[bool, ...]:
        """Which seats' people are connected now (the badges every viewer sees)."""
        with self.lock:
            return tuple(self.present(seat) for seat in range(len(self.info.seats)))

    # -- who is who -------------------------------------------------------------------------

    def seat_of(self, key: str) -> int:
        """The seat whose key this is; ``RoomRefused`` for any other string."""
        found = None
        for seat, s in enumerate(self.info.seats):
            if secrets.compare_digest(s.key.encode(), key.encode()):
                found = seat
        if found is None:
            raise RoomRefused(RoomReason.BAD_KEY)
        return found

    def watching(self, key: str) -> bool:
        return secrets.compare_digest(self.info.watch.encode(), key.encode())

    def viewer(self, key: str) -> int | None:
        """A seat for a seat's key, None for the watch key; ``RoomRefused`` otherwise."""
        if self.watching(key):
            return None
        return self.seat_of(key)

    def _polling(self, p: Presence) -> bool:
        return self.clock() - p.polled < POLL_HOLD

    def _connected(self, p: Presence) -> bool:
        return p.streams > 0 or self._polling(p)

    def _everywhere(self, seat: int) -> list[Presence]:
        """The seat's presence here and, as last heard, through the other workers (their
        ages turned into this room's clock; a worker silent for ``STALE`` seconds has had
        its streams end when it last spoke)."""
        now = self.clock()
        found = [self.presence[seat]] if seat in self.presence else []
        for word in self.elsewhere.get(seat, ()):
            said = word.said + (now - self.heard_at)
            silent = said >= STALE
            found.append(
                Presence(
                    client=word.client,
                    streams=0 if silent else word.streams,
                    polled=now - (word.polled + said),
                    left=now - (said if silent and word.streams else word.left + said),
                )
            )
        return found

    def _held_elsewhere(self, seat: int, client: str) -> bool:
        return any(p.client not in (None, client) and self._connected(p) for p in self._everywhere(seat))

    def present(self, seat: int) -> bool:
        """The person's page or terminal is connected, to this worker or another."""
        return any(self._connected(p) for p in self._everywhere(seat))

    def here(self) -> bool:
        """Someone is connected to this worker (what keeps its runner and its watch going)."""
        return any(self._connected(p) for p in self.presence.values())

    def _away(self, seat: int, now: float) -> float | None:
        """Seconds until ``seat`` counts as away (<= 0: it is), None while connected."""
        found = self._everywhere(seat)
        if not found:
            return self.away_after - (now - self.moved_at)
        if any(self._connected(p) for p in found):
            return None
        return self.away_after - (now - max(max(p.left, p.polled) for p in found))

    # -- across workers -----------------------------------------------------------------------

    def say(self) -> None:
        """Tell the other workers who is connected here (``StoreUnavailable`` if the board
        cannot be written)."""
        if self.beacon is None:
            return
        with self.lock:
            now = self.clock()
            seats = {
                seat: Word(p.client, p.streams, now - p.polled, now - p.left)
                for seat, p in self.presence.items()
            }
        self.beacon.say(self.id, seats)

    def hear(self) -> None:
        """Read who is connected through the other workers."""
        if self.beacon is None:
            return
        heard = self.beacon.hear(self.id)
        with self.lock:
            self.elsewhere, self.heard_at = heard, self.clock()

    def catch_up(self) -> None:
        """Read the room back if the store has it (or its table) at another version than
        this copy: asked by version alone, so a room nobody here watches costs one small
        query a request."""
        table_key = f"rt-{self.id}"
        stored = self.store.versions([f"rm-{self.id}", table_key])
        table = None if self.table is None else self.table.version
        if stored.get(f"rm-{self.id}", self.version) != self.version or stored.get(table_key) != table:
            self.reload()

    # -- the seat's side ----------------------------------------------------------------------

    def join(
        self, key: str, client: str, name: str | None, *, streaming: bool = False, person: str | None = None
    ) -> int:
        """The person with ``key`` takes its seat (named ``name`` if given) from ``client``:
        refused when the room is closed, the key is not a seat's, or the seat is open on
        another device right now. A seat held by 托管 because its person went away is
        theirs again. ``person`` is the secret their browser keeps: the deals they play
        from the next one dealt go into the history under its ``person_id``."""
        with self.lock:
            seat = self.seat_of(key)
            if self.info.phase == "closed":
                raise RoomRefused(RoomReason.CLOSED)
            if self._held_elsewhere(seat, client):
                raise RoomRefused(RoomReason.IN_USE)
            s = self.info.seats[seat]
            wanted = clean_name(name) if name is not None else s.name or f"P{seat + 1}"
            who = person_id(person) if person is not None else s.person or seat_person(s.key)
            # A seat a bot plays (dealt while nobody held it) is taken under a new key: the
            # old one was on offer (the host's invites, a QR code) and must not keep
            # reaching the seat once a person holds it.
            fresh = new_token() if not s.taken and self.table is not None else s.key
            if not s.taken or wanted != s.name or who != s.person:
                waits = s.waits or (not s.taken and self.table is not None)
                self._save_info(lambda info: _take(info, seat, wanted, who, fresh, waits))
            p = self.presence.setdefault(seat, Presence())
            p.client = client
            if streaming:
                p.streams += 1
            p.left = self.clock()  # a fresh contact: away only after ``away_after`` more
            self._welcome_back(seat)
            return seat

    def claim(self, key: str, client: str, name: str, person: str | None = None) -> str:
        """A spectator (``key`` is the watch key) takes the first free seat: its key, or
        ``RoomRefused(FULL)`` when every seat is taken."""
        with self.lock:
            if not self.watching(key):
                raise RoomRefused(RoomReason.BAD_KEY)
            if self.info.phase == "closed":
                raise RoomRefused(RoomReason.CLOSED)
            free = [i for i, s in enumerate(self.info.seats) if not s.taken]
            if not free:
                raise RoomRefused(RoomReason.FULL)
            seat = self.join(self.info.seats[free[0]].key, client, name, person=person)
            return self.info.seats[seat].key

    def leave(self, seat: int, client: str) -> None:
        """A live connection of ``client`` ended (a tab closed, a phone asleep)."""
        with self.lock:
            p = self.presence.get(seat)
            if p is None or p.client != client:
                return
            p.streams = max(0, p.streams - 1)
            p.left = self.clock()

    def touch(self, seat: int, client: str, *, polling: bool = True) -> None:
        """A polling client asked (``polling``), or a command came: refused if the seat is
        open on another device, else the seat is this client's."""
        with self.lock:
            if self._held_elsewhere(seat, client):
                raise RoomRefused(RoomReason.IN_USE)
            # A first contact counts from now: a command before any stream or poll is not
            # "away since the clock's zero" (that put a seat in 托管 at its first play).
            p = self.presence.setdefault(seat, Presence(left=self.clock()))
            if p.client != client:
                p.client = client
                self._welcome_back(seat)
            if polling and not p.streams:
                p.polled = self.clock()

    def _welcome_back(self, seat: int) -> None:
        if seat in self.info.away and self.table is not None:
            self.table.set_auto(False, seat=seat)
            self._not_away(seat)

    def _not_away(self, seat: int) -> None:
        if seat in self.info.away:
            self._save_info(lambda info: info.away.remove(seat))

    def command(self, key: str, client: str, run: Callable[[TableService, int], Any]) -> Any:
        """One of the seat's commands (play, pass, hint, 托管...) on the room's table:
        refused for a forged key, a closed or unstarted room, a seat open on another device,
        or too many commands too fast; nothing changes then."""
        with self.lock:
            table, seat = self._admitted(key, client)
            result = run(table, seat)
            self._moved()
            return result

    def _admitted(self, key: str, client: str) -> tuple[TableService, int]:
        """The table and seat a seat's command acts on, once admitted (the room's lock held)."""
        seat = self.seat_of(key)
        self._admit(seat)
        self.touch(seat, client, polling=False)
        if self.table is None:
            raise RoomRefused(RoomReason.NOT_STARTED)
        if not self.plays(seat):
            raise RoomRefused(RoomReason.BOT_SEAT)
        return self.table, seat

    def hints(self, key: str, client: str, seq: int) -> SeatTable:
        """The seat's hints searched (``TableService.search_hints``) and its table drawn
        with them: admitted as any command is, the search itself outside the room's lock,
        so the room's other seats, its runner and its streams never wait on it."""
        with self.lock:
            table, seat = self._admitted(key, client)
        reply, _ = table.search_hints(seq, seat)
        return reply.table

    def plays(self, seat: int) -> bool:
        """A person plays ``seat`` in the deal on the table: one seated when it was dealt
        and still seated. A seat taken mid-deal is the bot's (or 托管's, when the host freed
        it) until the next deal: its key reaches nothing of the hand it does not play."""
        table = self.table
        if table is None:
            return True
        s = self.info.seats[seat]
        return seat in table.humans and s.taken and not s.waits

    def plays_now(self, seat: int | None) -> bool:
        return seat is not None and self.plays(seat)

    def _admit(self, seat: int) -> None:
        if self.info.phase == "closed":
            raise RoomRefused(RoomReason.CLOSED)
        if not self.buckets.setdefault(seat, Bucket(at=self.clock())).take(self.clock()):
            raise RoomRefused(RoomReason.TOO_FAST)

    def set_auto(self, key: str, client: str, on: bool) -> SeatTable:
        """The person's own 托管 switch (ends whatever 托管 the room had set)."""

        def run(table: TableService, seat: int) -> SeatTable:
            shown = table.set_auto(on, seat=seat).table
            self._not_away(seat)
            return shown

        result: SeatTable = self.command(key, client, run)
        return result

    # -- the host's side ---------------------------------------------------------------------

    def _host(self, key: str) -> int:
        seat = self.seat_of(key)
        if seat != self.info.host:
            raise RoomRefused(RoomReason.NOT_HOST)
        if self.info.phase == "closed":
            raise RoomRefused(RoomReason.CLOSED)
        self._admit(seat)
        return seat

    def is_host(self, key: str) -> bool:
        """``key`` is the host's seat's (the QR codes of the invitations are theirs to ask)."""
        return self.seat_of(key) == self.info.host

    def hand_host(self, key: str, seat: int) -> None:
        """The host hands the host role on to another person seated (dealing, the
        invitations, freeing seats and closing are theirs from now)."""
        with self.lock:
            mine = self._host(key)
            if not 0 <= seat < len(self.info.seats) or seat == mine:
                raise RoomRefused(RoomReason.BAD_SEAT)
            if not self.info.seats[seat].taken:
                raise RoomRefused(RoomReason.NOT_PERSON)
            self._save_info(lambda info: setattr(info, "host", seat))

    def set_ready(self, key: str, client: str, on: bool) -> None:
        """A person's seat is ready for the next deal (or not any more). Asked only between
        deals (before the first, or once the last is settled); when every person seated is
        ready the deal starts, as if the host had dealt it."""
        with self.lock:
            seat = self.seat_of(key)
            self._admit(seat)
            self.touch(seat, client, polling=False)
            table = self.table
            if table is not None and not table.settled:
                raise RoomRefused(RoomReason.NOT_BETWEEN)
            if on == (seat in self.info.ready):
                return
            mark = sorted({*self.info.ready, seat}) if on else [s for s in self.info.ready if s != seat]
            self._save_info(lambda info: setattr(info, "ready", mark))
            if not self._all_ready():
                return
            if table is None:
                self._deal(None)
            elif not self._match_done():
                self._deal_next()

    def _all_ready(self) -> bool:
        people = self._humans()
        return bool(people) and all(seat in self.info.ready for seat in people)

    def _match_done(self) -> bool:
        return bool(self.info.match) and len(self._scores()) >= self.info.match

    def start(self, key: str, seed: int | None = None) -> None:
        """The host deals the first deal: the seats nobody has taken are bots."""
        with self.lock:
            self._host(key)
            if self.table is not None:
                raise RoomRefused(RoomReason.STARTED)
            self._deal(seed)

    def _deal(self, seed: int | None) -> None:
        """The first deal, as the host's Deal or the last person's 准备 asks."""
        with self.lock:
            seed = self.seed if seed is None else seed
            profile = self.info.rules()
            session = new_session(
                profile,
                self.info.variant,
                self.info.difficulty,
                seed,
                humans=self._humans(),
                names=self._names(),
                persons=self._persons(),
            )
            draft = RoomInfo.from_json(self.info.to_json())
            draft.phase = "playing"
            _dealt(draft, [])
            # The table and the room's phase in one write: killed between two writes, the
            # room said "waiting" over a dealt table, refused Deal and never moved again.
            phase = Write(f"rm-{self.id}", draft.to_json(), self.version + 1, self.version)
            try:
                table = TableService.create(
                    self.store, f"rt-{self.id}", self.archive, session, along=(phase,)
                )
            except VersionConflict:  # another server dealt it (or moved the room) first
                self.reload()
                if self.table is not None and self.info.phase == "playing":
                    return  # dealt there: the same deal for everyone
                raise RoomRefused(RoomReason.MOVED) from None
            self.info, self.version = draft, self.version + 1
            self.table = _lazy(table)
            self._moved()

    def next_deal(self, key: str) -> None:
        """The host deals again (whoever is ready or not); the seats taken by now are
        people from this deal on."""
        with self.lock:
            self._host(key)
            if self.table is None:
                raise RoomRefused(RoomReason.NOT_STARTED)
            if self._match_done():
                raise RoomRefused(RoomReason.MATCH_OVER, n=self.info.match)
            self._deal_next()

    def _deal_next(self) -> None:
        table = self.table
        assert table is not None
        rows = [list(r) for r in self._scores()]
        table.next_deal(table.seq, None, self._humans(), self._names(), self._persons())
        info = self.info
        if info.away or info.ready or rows != info.scores or any(s.waits for s in info.seats):
            self._save_info(functools.partial(_dealt, scores=rows))
        self._moved()

    def rematch(self, key: str) -> None:
        """The host starts the match again once its last deal is settled: the same seats,
        the same rules, the scores back to nothing."""
        with self.lock:
            self._host(key)
            if self.table is None:
                raise RoomRefused(RoomReason.NOT_STARTED)
            if not self.info.match or len(self._scores()) < self.info.match:
                raise RoomRefused(RoomReason.MATCH_ON)
            seq = self.table.seq
            self.table.next_deal(seq, None, self._humans(), self._names(), self._persons(), fresh=True)
            self._save_info(functools.partial(_dealt, scores=[]))
            self._moved()

    def free_seat(self, key: str, seat: int) -> None:
        """The host frees a person's seat: a computer plays it (at once, under 托管, for the
        rest of this deal; as a bot from the next), and its old link no longer opens it."""
        with self.lock:
            mine = self._host(key)
            if not 0 <= seat < len(self.info.seats) or seat == mine:
                raise RoomRefused(RoomReason.BAD_SEAT)
            fresh = new_token()

            def freed(info: RoomInfo) -> None:
                info.seats[seat] = SeatInfo(fresh, "")
                info.away = [s for s in info.away if s != seat]
                info.ready = [s for s in info.ready if s != seat]

            self._save_info(freed)
            self.presence.pop(seat, None)
            table = self.table
            if table is not None and table.in_play and seat in table.humans:
                table.set_auto(True, seat=seat)

    def send_phrase(self, key: str, client: str, phrase: str) -> None:
        """A seat sends one of the fixed quick phrases to the room (``PHRASES``): refused for
        any other, or sooner than ``SAY_EVERY`` seconds after that seat's last."""
        with self.lock:
            seat = self.seat_of(key)
            if phrase not in PHRASES:
                raise RoomRefused(RoomReason.BAD_PHRASE)
            self.touch(seat, client, polling=False)
            self._admit(seat)
            now = self.clock()
            if now - self.last_said.get(seat, -1e9) < SAY_EVERY:
                raise RoomRefused(RoomReason.TOO_FAST)
            self.last_said[seat] = now
            number = 1 + max((int(n) for n, _, _ in self.info.said), default=0)

            def said(info: RoomInfo) -> None:
                info.said = [*info.said, [number, seat, phrase]][-SAID_KEPT:]

            self._save_info(said)

    def _scores(self) -> tuple[tuple[int, ...], ...]:
        """Every finished deal's scores: those kept, and the deal on the table once settled."""
        kept = tuple(tuple(r) for r in self.info.scores)
        table = self.table
        if table is None or not table.settled or len(kept) >= table.deals_done:
            return kept
        return (*kept, table.deal_scores())

    def close(self, key: str) -> None:
        """The host closes the room: nothing more is played in it (its deals stay kept)."""
        with self.lock:
            self._host(key)
            self._save_info(lambda info: setattr(info, "phase", "closed"))

    def _humans(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.info.seats) if s.taken)

    def _names(self) -> tuple[str, ...]:
        return tuple(s.name if s.taken else f"bot:{self.info.difficulty}" for s in self.info.seats)

    def _persons(self) -> tuple[str, ...]:
        return tuple((s.person or seat_person(s.key)) if s.taken else "" for s in self.info.seats)

    def _save_info(self, change: Callable[[RoomInfo], None]) -> None:
        draft = RoomInfo.from_json(self.info.to_json())
        change(draft)
        try:
            self.store.save(f"rm-{self.id}", draft.to_json(), self.version + 1, self.version)
        except VersionConflict:
            self.reload()
            raise RoomRefused(RoomReason.MOVED) from None
        self.info, self.version = draft, self.version + 1

    def reload(self) -> None:
        """Read the room back from the store (another server moved it on, or dealt it):
        the store's copy replaces this one only when it is newer."""
        with self.lock:
            stored = self.store.load(f"rm-{self.id}")
            if stored is not None and stored.version > self.version:
                self.info, self.version = RoomInfo.from_json(stored.data), stored.version
            if self.table is not None:
                self.table.refresh()
            else:
                self.table = _lazy(TableService.open(self.store, f"rt-{self.id}", self.archive))
            self._moved()

    # -- what nobody asks for -----------------------------------------------------------------

    def _moved(self) -> None:
        version = -1 if self.table is None else self.table.version
        if version != self._moved_version:
            self._moved_version, self.moved_at = version, self.clock()

    def due(self) -> Due:
        """What the machine does next here, and when (``pdk.table.runner``: one machine
        move at the room's pace; 托管 for a seat whose turn time ran out or whose person is
        away)."""
        with self.lock:
            self._moved()
            table = self.table
            if table is None or self.info.phase != "playing":
                return Due(None)
            now = self.clock()
            t = table.snapshot(None)
            if t.over:
                return Due(None)
            away: dict[int, float | None] = {}
            for seat in t.humans:
                if seat in t.auto_seats:
                    continue
                left = self._away(seat, now)
                if left is not None and left <= 0 and self.elsewhere_now():
                    left = self._away(seat, now)  # connected through another worker after all?
                away[seat] = left
            still = now - self.moved_at
            pace = self.info.pace_ms / 1000
            return runner.due(t, pace=pace, still=still, turn_time=self.info.turn_time, away=away)

    def act(self, due: Due) -> float | None:
        """Carry out ``due`` if it is still what is due (nobody moved the table meanwhile,
        the person did not come back); say in how many seconds something next falls due
        (0: look again now; None: nothing will until someone acts). The web layer's runner
        decides with ``due`` and acts here, a hard bot's search in a thinking slot."""
        with self.lock:
            if due.move is not None and self.due() != due:
                return 0.0
            return self._act(due)

    def tick(self) -> float | None:
        """``act`` on what is due now, in one go (the runner's round without its slots)."""
        with self.lock:
            return self._act(self.due())

    def _act(self, due: Due) -> float | None:
        table = self.table
        if due.move is None or table is None:
            return due.wait
        seat = due.seat
        assert seat is not None
        if due.why == "away":
            return self._gone(table, seat)
        if due.move == "auto":  # the person is here but slow: the 托管 switch takes it back
            return self._machine(table, lambda: table.set_auto(True, seat=seat))
        return self._machine(table, lambda: table.step(due.seq, None))

    def _gone(self, table: TableService, seat: int) -> float:
        """``seat``'s person went away: 托管, and the room keeps why (any worker the
        person comes back through ends it)."""
        self._machine(table, lambda: table.set_auto(True, seat=seat))
        if seat in table.snapshot(None).auto_seats and seat not in self.info.away:
            with contextlib.suppress(RoomRefused):  # another worker saved the room first
                self._save_info(lambda info: info.away.append(seat))
        return 0.0

    def elsewhere_now(self) -> bool:
        """Hear the other workers again before a seat is put in 托管 for being away (what
        was heard may be a beat old); False when there are none to hear or the board cannot
        be read (what was heard last stands)."""
        if self.beacon is None:
            return False
        try:
            self.hear()
        except StoreUnavailable:
            return False
        return True

    def _machine(self, table: TableService, move: Callable[[], object]) -> float:
        """One move nobody asked for. Another worker may have moved the table first (its
        runner does the same rounds): the version check refused this one and the table was
        read back, so the next round looks again; a refusal with the table unmoved is a
        real one and is raised."""
        version = table.version
        try:
            move()
        except TableRefused:
            table.refresh()
            if table.version == version:
                raise
        self._moved()
        return 0.0

    # -- what each one sees --------------------------------------------------------------------

    def view(self, seat: int | None) -> RoomView:
        with self.lock:
            table = self.table
            # A seat a bot plays this deal is shown as a spectator sees the table.
            snap = None if table is None else table.snapshot(seat if self.plays_now(seat) else None)
            bots = [i for i, s in enumerate(self.info.seats) if not s.taken]
            seats = tuple(
                SeatView(
                    seat=i,
                    name=s.name,
                    taken=s.taken,
                    bot=snap is not None and i not in snap.humans,
                    present=self.present(i),
                    auto=snap is not None and snap.model.seat(i).auto,
                    total=0 if snap is None else snap.totals[i],
                    ready=not s.taken or i in self.info.ready,
                    letter="ABC"[bots.index(i)] if i in bots else "",
                )
                for i, s in enumerate(self.info.seats)
            )
            scores = self._scores()
            deadline = None
            if snap is not None and self.info.turn_time and not snap.over and not snap.machine_turn:
                deadline = max(0.0, self.info.turn_time - (self.clock() - self.moved_at))
            host = seat is not None and seat == self.info.host
            return RoomView(
                id=self.id,
                rev=self.rev,
                version=self.version,
                phase=self.info.phase,
                variant=self.info.variant,
                players=len(self.info.seats),
                difficulty=self.info.difficulty,
                turn_time=self.info.turn_time,
                deals=0 if snap is None else snap.deals_done,
                seats=seats,
                you=seat,
                host=host,
                deadline=deadline,
                table=snap,
                invites=tuple((i, s.key) for i, s in enumerate(self.info.seats) if host and not s.taken),
                watch=self.info.watch if host else None,
                number=self.info.number if host else "",
                match=self.info.match,
                scores=scores,
                match_over=bool(self.info.match) and len(scores) >= self.info.match,
                said=tuple((int(n), int(s), str(p)) for n, s, p in self.info.said),
                host_seat=self.info.host,
                auto_made=self._auto_made(seat) if snap is not None and self.plays_now(seat) else (),
            )

    def _auto_made(self, seat: int | None) -> tuple[tuple[int, Play | None], ...]:
        """``seat``'s plays of the deal on the table that 托管 made (play number, play)."""
        assert self.table is not None and seat is not None
        return self.table.auto_plays(seat)


def _dealt(info: RoomInfo, scores: list[list[int]]) -> None:
    """A new deal is on the table: nobody is away or ready any more, every person seated
    plays it, the match's scores are these."""
    info.away.clear()
    info.ready.clear()
    for s in info.seats:
        s.waits = False
    info.scores = scores


def _take(info: RoomInfo, seat: int, name: str, person: str, key: str, waits: bool) -> None:
    info.seats[seat] = SeatInfo(key, name, True, person, waits)


def new_room_id() -> str:
    """A room's id: 12 random bytes in URL-safe base64 (16 characters), never beginning with
    ``-``, since a host types it after ``pdk serve rooms close``, where a leading ``-`` reads
    as an option ("No such option: -A")."""
    while (rid := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return rid


@dataclass
class Rooms:
    """The rooms of one server, over a store: made, found (the live one, else the store's
    copy), at most ``max_rooms`` open in memory."""

    store: Store
    archive: Archive
    pace_ms: int = 700
    away_after: float = 30.0
    max_rooms: int = 500
    seed: int | None = None
    clock: Clock = time.monotonic
    _live: OrderedDict[str, Room] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    beacon: Beacon | None = None  # this worker on the presence board (None: made from the store)

    def __post_init__(self) -> None:
        if self.beacon is None:
            self.beacon = Beacon(self.store)

    def create(
        self,
        variant: str,
        difficulty: str,
        turn_time: int,
        name: str,
        person: str | None = None,
        profile: Profile | None = None,
        match: int = 0,
    ) -> tuple[Room, str]:
        """A new room and its host's key (seat 0, taken by the host, named ``name``), playing
        the shipped ``variant`` or ``profile`` (house rules, saved with the room)."""
        own = profile
        profile = own or shipped_profiles().get(variant)
        if profile is None:
            raise RoomRefused(RoomReason.BAD_VARIANT, name=variant[:40])
        if difficulty not in DIFFICULTIES or turn_time not in TURN_TIMES:
            raise ValueError("difficulty or turn time")
        with self._lock:
            if len(self._live) >= self.max_rooms and not self._evict():
                raise RoomRefused(RoomReason.TOO_MANY)
        seats = [SeatInfo(new_token(), "") for _ in range(profile.players)]
        host = seats[HUMAN].key
        who = person_id(person) if person else seat_person(host)
        seats[HUMAN] = SeatInfo(host, clean_name(name), True, who)
        info = RoomInfo(
            id=new_room_id(),
            variant=profile.name,
            difficulty=difficulty,
            turn_time=turn_time,
            watch=new_token(),
            seats=seats,
            pace_ms=self.pace_ms,
            profile=None if own is None else own.model_dump(mode="json"),
            match=match,
        )
        info.number = self._number(info.id)
        self.store.save(f"rm-{info.id}", info.to_json(), 1, None)
        room = self._room(info, 1, None)
        with self._lock:
            self._live[info.id] = room
        return room, seats[HUMAN].key

    def _number(self, room_id: str) -> str:
        """A free 6-digit room number for ``room_id``, kept in the store (every worker finds
        it); "" if none is free after a few draws (the room still has its links)."""
        for _ in range(20):
            number = f"{secrets.randbelow(900_000) + 100_000}"
            try:
                self.store.save(f"rn-{number}", json.dumps({"room": room_id}), 1, None)
            except VersionConflict:
                continue
            return number
        return ""

    def by_number(self, number: str) -> Room:
        """The open room whose number is ``number``; ``RoomRefused(NO_ROOM)`` otherwise."""
        stored = self.store.load(f"rn-{number}") if NUMBER.fullmatch(number) else None
        if stored is None:
            raise RoomRefused(RoomReason.NO_ROOM)
        try:
            room_id = str(json.loads(stored.data)["room"])
        except (ValueError, KeyError, TypeError):
            raise RoomRefused(RoomReason.NO_ROOM) from None
        room = self.get(room_id)
        if room.info.phase == "closed" or room.info.number != number:
            raise RoomRefused(RoomReason.NO_ROOM)
        return room

    def get(self, room_id: str) -> Room:
        """The room ``room_id``; ``RoomRefused(NO_ROOM)`` if there is none (or the id is
        malformed), ``StoreUnavailable`` when the store cannot be read."""
        if not ROOM_ID.fullmatch(room_id):
            raise RoomRefused(RoomReason.NO_ROOM)
        with self._lock:
            room = self._live.get(room_id)
            if room is not None:
                self._live.move_to_end(room_id)
                return room
        stored = self.store.load(f"rm-{room_id}")
        if stored is None:
            raise RoomRefused(RoomReason.NO_ROOM)
        try:
            info = RoomInfo.from_json(stored.data)
            table = TableService.open(self.store, f"rt-{room_id}", self.archive)
        except (ValueError, KeyError, TypeError, SaveError):
            raise StoreUnavailable(f"room {room_id} cannot be read back") from None
        room = self._room(info, stored.version, table)
        with self._lock:
            return self._live.setdefault(room_id, room)

    def record(self, secret: str) -> tuple[Person, Stats]:
        """The record of the person whose browser keeps ``secret`` (the same numbers as
        ``pdk stats --person``), and theirs only: the public id is derived from the secret,
        so nobody reads another person's record without holding their secret.
        ``RoomRefused(NO_PERSON)`` when no deal of that person is kept here (a forged or
        mistyped secret, or someone whose first deal has not ended)."""
        pid = person_id(secret)
        try:
            found = self.archive.history.find_person(pid)
            if not found or found[0].person != pid:
                raise RoomRefused(RoomReason.NO_PERSON)
            return found[0], self.archive.history.stats(pid)
        except (sqlite3.Error, OSError, HistoryError) as exc:
            raise StoreUnavailable(f"history: {exc}") from None

    def _room(self, info: RoomInfo, version: int, table: TableService | None) -> Room:
        room = Room(self.store, self.archive, info, version, table, self.away_after, self.clock)
        room.beacon, room.seed = self.beacon, self.seed
        return room

    def _evict(self) -> bool:
        """Drop the least recently used room nobody is connected to here (it stays in the
        store)."""
        for rid, room in self._live.items():
            if not any(p.streams for p in room.presence.values()):
                del self._live[rid]
                return True
        return False

    def live(self) -> list[Room]:
        with self._lock:
            return list(self._live.values())


__all__ = [
    "CLIENT_PATTERN",
    "KEY_PATTERN",
    "NAME_CHARS",
    "ROOM_ID_PATTERN",
    "TURN_TIMES",
    "Room",
    "RoomInfo",
    "RoomReason",
    "RoomRefused",
    "RoomView",
    "Rooms",
    "SeatView",
    "clean_name",
    "shipped_profiles",
]
