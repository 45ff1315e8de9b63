"""The HTTP side of tables for friends (``pdk.rooms.room``): the room page, its commands,
and the live stream each seat and spectator reads.

How a change reaches every seat: a command (or the room's own move: a bot, 托管, a turn
time running out) is applied by the table service and saved; the endpoint then wakes the
room (``Live.changed``). Every open stream of that room is waiting on that wake-up; each
renders the room again for its own viewer (``Room.view``: that seat's hand only, a
spectator's with none) and sends it as one server-sent event. A client that cannot hold a
stream open asks ``/poll``, which answers at once when the room moved past what it saw, or
waits for the next wake-up. The same wake-up runs the room's runner, which does what
nobody asks for (``Room.due``, then ``Room.act`` through the server's ``Machine``, whose
thinking slots the single tables' hard bots share) and sleeps until the time it names.

A dropped connection: the stream's end is seen at once (``Room.leave``), the seat stays
the person's, and the runner puts it in 托管 after ``away_after`` seconds without a
connection (everyone sees the badge); a connection that comes back, from any device with
the seat's link, takes the seat back.

Several workers serving one store (``--workers``, or machines behind a load balancer):
while a room is held here (a stream or poll of it open, or its runner running) its keeper
watches the room's saves (``pdk.store.changes``), so a move made through another worker is
read back and wakes this worker's streams as a local one would, and it says and hears who
is connected (``pdk.store.presence``), so no worker counts a seat connected elsewhere as
away.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple

import segno
from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from pdk.bots import DIFFICULTIES
from pdk.engine.position import Play
from pdk.rooms.room import (
    CLIENT_PATTERN,
    KEY_PATTERN,
    PERSON_PATTERN,
    PHRASES,
    TURN_TIMES,
    Room,
    RoomReason,
    RoomRefused,
    Rooms,
    RoomView,
    shipped_profiles,
)
from pdk.store.contract import ChangeFeed, StoreUnavailable
from pdk.store.presence import BEAT as PRESENCE_BEAT
from pdk.table.history import title_for
from pdk.table.service import TableService
from pdk.text.catalog import Lang, LocalizedError, tr
from pdk.view.table_model import play_model
from pdk.web.address import Links
from pdk.web.guard import Busy, RateLimit
from pdk.web.machine import Machine
from pdk.web.protocol import when_stopping
from pdk.web.rules_api import Chosen, RulesBody, RuleSet
from pdk.web.wire import STATIC, CardStr, EventStream, LangQ, RoomP, replay_json, table_json

# A key travels in the ``X-PDK-Key`` header (a GET's) or the body (a POST's), never in a
# request line a proxy logs: a ``?key=`` is not read at all (docs/rooms.md).
KeyH = Annotated[str | None, Header(alias="X-PDK-Key", pattern=KEY_PATTERN)]
ClientQ = Annotated[str, Query(pattern=CLIENT_PATTERN)]
Key = Annotated[str, Field(pattern=KEY_PATTERN)]
Client = Annotated[str, Field(pattern=CLIENT_PATTERN)]
log = logging.getLogger("pdk.rooms")
POLL_WAIT = 15.0  # seconds a poll waits for a change before it answers "no change"
BEAT = 10.0  # seconds between a quiet stream's keep-alive comments
HERE_FOR = 0.05  # seconds one look at who is connected serves a wake-up's streams
WAKE_BATCH = 50  # waiters woken per turn of the event loop
SHOWN_FOR = 0.5  # seconds one render of the room serves every viewer of its kind
PRESENCE_EVERY = 1.0  # a stream sends who is connected at most this often (changes coalesced)
BEAT_ELSEWHERE = PRESENCE_BEAT  # seconds between this worker's words on who is connected here
CHANGES_EVERY = 0.5  # seconds between two looks at the store where it cannot notify (SQLite)
_STATUS = {
    RoomReason.NO_ROOM: 404,
    RoomReason.BAD_KEY: 403,
    RoomReason.NOT_HOST: 403,
    RoomReason.TOO_FAST: 429,
    RoomReason.CLOSED: 410,
    RoomReason.TOO_MANY: 503,
    RoomReason.NO_PERSON: 404,
}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class CreateBody(_Body):
    variant: Annotated[str, Field(max_length=40)] = "classic16"
    difficulty: Literal[DIFFICULTIES] = "normal"  # type: ignore[valid-type]
    turn_time: Annotated[int, Field(ge=0, le=120)] = 0
    name: Annotated[str, Field(min_length=1, max_length=40)] = "Host"
    person: Annotated[str, Field(pattern=PERSON_PATTERN)] | None = None
    rules: Chosen | None = None  # house rules on ``variant`` (``pdk.web.rules_api``)
    match: Annotated[int, Field(ge=0, le=50)] = 0  # deals in the match (0: open-ended)


class SeatBody(_Body):
    key: Key
    client: Client


class FreeBody(SeatBody):
    seat: Annotated[int, Field(ge=0, le=3)]


class ReadyBody(SeatBody):
    on: bool = True


class SayBody(SeatBody):
    phrase: Annotated[str, Field(max_length=16)]


Person = Annotated[str, Field(pattern=PERSON_PATTERN)]


class JoinBody(SeatBody):
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    person: Person | None = None


class ClaimBody(SeatBody):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    person: Person | None = None


class RecordBody(_Body):
    person: Person


class SeqBody(SeatBody):
    seq: Annotated[int, Field(ge=0, le=10_000)]


class PlayBody(SeqBody):
    """As the single table's: ``verdict`` answers a refused play 200, with its reason."""

    cards: Annotated[list[CardStr], Field(min_length=1, max_length=40)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    verdict: bool = False


class SwitchBody(SeatBody):
    on: bool


@dataclass(frozen=True)
class RoomLimits:
    """Per client address (a token bucket each, ``pdk.web.guard.RateLimit``; 0: no limit):
    rooms made, live streams opened, polls asked."""

    creates_per_minute: float = 20
    creates_burst: int = 10
    # A household behind one address: a few seats and spectators, reconnecting now and then.
    streams_per_minute: float = 120
    streams_burst: int = 60
    # A poll answers at a change (or after ``POLL_WAIT``): about one per move and viewer.
    polls_per_minute: float = 1200
    polls_burst: int = 200


class Shown(NamedTuple):
    """The room for one kind of viewer: its JSON, the same as a server-sent event, and who
    it shows connected (a stream tells a later change of that alone, ``Live.presence``)."""

    text: str
    frame: bytes
    here: tuple[bool, ...]


Viewer = tuple[int | None, Lang, str]  # a stream's seat (None: a spectator), language, links' base


class Live:
    """Wake-ups per room, the runner that does each room's own moves, and the keeper that
    links a room held here to the other workers serving it."""

    def __init__(self, rooms: Rooms, machine: Machine) -> None:
        self._rooms = rooms
        self._machine = machine
        self._events: dict[str, list[asyncio.Future[None]]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._keepers: dict[str, asyncio.Task[None]] = {}
        self._nudges: dict[str, asyncio.Event] = {}
        self._reloading: dict[str, bool] = {}  # a reload runs; True: another was asked meanwhile
        self._open: dict[str, int] = {}  # streams (a spectator's too) and waiting polls, per room
        self._changes: ChangeFeed | None = None
        self._changes_lock = threading.Lock()
        # The room as each kind of viewer sees it, rendered once per (rev, viewer): a
        # thousand spectators of one room cost one render and one JSON encoding a change.
        self._shown: dict[str, dict[Viewer, tuple[int, Any, float, asyncio.Future[Shown]]]] = {}
        self._here: dict[str, tuple[int, float, tuple[bool, ...]]] = {}
        # The kinds of viewer whose streams are open, per room: a change is rendered for
        # each before its streams are woken, so no woken stream waits on a render.
        self._viewers: dict[str, dict[Viewer, int]] = {}
        self._rooms_here: dict[str, Room] = {}
        self._fanning: dict[str, bool] = {}  # a fan-out runs; True: the room moved again meanwhile
        self._drawing: set[asyncio.Task[list[Shown]]] = set()  # renders under way (held: not collected)
        self.stopping = False

    def stop(self) -> None:
        """The server is shutting down: every stream ends now (a service manager's SIGTERM
        must not wait on spectators' open connections)."""
        self.stopping = True
        for room_id in list(self._events):
            self._release_all(room_id)

    async def shown(self, room: Room, seat: int | None, lang: Lang, base: str) -> tuple[int, Shown]:
        """The room for ``seat``'s viewer as JSON text, with the revision it shows; the same
        text for every viewer of the same kind meanwhile (for at most ``SHOWN_FOR`` seconds:
        the turn time's countdown in it goes on)."""
        loop = asyncio.get_running_loop()
        rev, viewer = room.rev, (seat, lang, base)
        made = self._fresh(room.id, rev, viewer, loop)
        if made is None:
            made = self._render(room, rev, [viewer], loop)[0]
        return rev, made.result() if made.done() else await asyncio.shield(made)

    def _fresh(
        self, room_id: str, rev: int, viewer: Viewer, loop: asyncio.AbstractEventLoop
    ) -> asyncio.Future[Shown] | None:
        found = self._shown.get(room_id, {}).get(viewer)
        if found is None or found[0] != rev or found[1] is not loop or loop.time() - found[2] >= SHOWN_FOR:
            return None
        return found[3]

    def _render(
        self, room: Room, rev: int, viewers: list[Viewer], loop: asyncio.AbstractEventLoop
    ) -> list[asyncio.Future[Shown]]:
        """Render the room for ``viewers`` in one trip to a thread (each seat's view once,
        each viewer's JSON once); the futures are kept for every stream that asks
        meanwhile. The render runs as its own task: a stream that ends while it waits does
        not cancel it for the others."""
        kept = self._shown.setdefault(room.id, {})
        for old in [v for v, entry in kept.items() if entry[0] != rev or entry[1] is not loop]:
            del kept[old]
        made = [loop.create_future() for _ in viewers]
        now = loop.time()
        for viewer, fut in zip(viewers, made, strict=True):
            kept[viewer] = (rev, loop, now, fut)
        drawing = loop.create_task(run_in_threadpool(self._draw, room, viewers))

        def drawn(task: asyncio.Task[list[Shown]]) -> None:
            exc = task.exception() if not task.cancelled() else RuntimeError("render cancelled")
            for viewer, fut in zip(viewers, made, strict=True):
                if exc is not None:
                    if kept.get(viewer, (0, None, 0.0, None))[3] is fut:
                        del kept[viewer]
                    fut.set_exception(exc)
                    fut.exception()  # retrieved: a failed render is each caller's to report
            if exc is None:
                for fut, data in zip(made, task.result(), strict=True):
                    fut.set_result(data)

        self._drawing.add(drawing)
        drawing.add_done_callback(self._drawing.discard)
        drawing.add_done_callback(drawn)
        return made

    def _draw(self, room: Room, viewers: list[Viewer]) -> list[Shown]:
        views: dict[int | None, RoomView] = {}
        out = []
        for seat, lang, base in viewers:
            view = views[seat] if seat in views else views.setdefault(seat, room.view(seat))
            text = json.dumps(room_json(view, lang, base, self._rooms.pace_ms), ensure_ascii=False)
            here = tuple(s.present for s in view.seats)
            out.append(Shown(text, f"data: {text}\n\n".encode(), here))
        return out

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def presence(here: tuple[bool, ...]) -> bytes:
        """Who is connected, as its own small event (``event: presence``): a badge changing
        is not a change of the room, so it is neither a new revision nor the whole room."""
        return f"event: presence\ndata: {json.dumps({'present': list(here)})}\n\n".encode()

    def state(self, room: Room) -> tuple[int, tuple[bool, ...]]:
        """The room's revision and who is connected, the latter looked up once for all
        the streams a wake-up runs (``HERE_FOR`` seconds) unless a connection changed."""
        rev, now = room.rev, time.monotonic()
        kept = self._here.get(room.id)
        if kept is not None and kept[0] == rev and now - kept[1] < HERE_FOR:
            return rev, kept[2]
        here = room.here_now()
        self._here[room.id] = (rev, now, here)
        return rev, here

    def changed(self, room: Room) -> None:
        """The room moved: wake its streams, polls and runner."""
        self._wake(room.id)
        self.ensure(room)

    def nudge(self, room: Room) -> None:
        """A seat's connection here began or ended: the other workers are told now, not at
        the next beat; the streams look (they send who is here, coalesced, not the room's
        revision) and the runner looks (an away timer may start or stop)."""
        event = self._nudges.get(room.id)
        if event is not None:
            event.set()
        self._here.pop(room.id, None)
        self.changed(room)

    def ensure(self, room: Room) -> None:
        """The room's runner and keeper, started again if they are not running (the runner
        stops when nothing is due and nobody is connected here, the keeper once neither
        holds the room; each stream's keep-alive checks on them too)."""
        loop = asyncio.get_running_loop()
        task = self._tasks.get(room.id)
        if task is None or task.done():
            self._tasks[room.id] = loop.create_task(self._run(room))
        keeper = self._keepers.get(room.id)
        if keeper is None or keeper.done():
            self._keepers[room.id] = loop.create_task(self._keep(room))

    def hold(self, room: Room, viewer: Viewer | None = None) -> None:
        """A stream (a seat's or a spectator's, whose ``viewer`` is rendered for at each
        change) or a waiting poll of the room is open here: its changes must be heard here
        until ``release``."""
        self._open[room.id] = self._open.get(room.id, 0) + 1
        if viewer is not None:
            kinds = self._viewers.setdefault(room.id, {})
            kinds[viewer] = kinds.get(viewer, 0) + 1
            self._rooms_here[room.id] = room
        self.ensure(room)

    def release(self, room: Room, viewer: Viewer | None = None) -> None:
        left = self._open.get(room.id, 0) - 1
        if left > 0:
            self._open[room.id] = left
        else:
            self._open.pop(room.id, None)
        kinds = self._viewers.get(room.id)
        if viewer is not None and kinds is not None:
            if kinds.get(viewer, 0) > 1:
                kinds[viewer] -= 1
            else:
                kinds.pop(viewer, None)
            if not kinds:
                del self._viewers[room.id]
                self._rooms_here.pop(room.id, None)

    def watching(self, room_id: str) -> bool:
        """This worker hears the room's changes as they are saved (its keeper runs)."""
        keeper = self._keepers.get(room_id)
        return keeper is not None and not keeper.done()

    def _held(self, room: Room) -> bool:
        runner = self._tasks.get(room.id)
        return room.id in self._open or room.here() or (runner is not None and not runner.done())

    async def _keep(self, room: Room) -> None:
        """While the room is held here (a stream or a poll of it open, a seat connected, or
        its runner running): watch its saves for changes made by other workers, and say and
        hear who is connected (every ``BEAT`` seconds, and at once when a connection here
        begins or ends)."""
        loop = asyncio.get_running_loop()
        nudge = self._nudges.setdefault(room.id, asyncio.Event())
        unwatch: Callable[[], None] | None = None
        try:
            unwatch = await run_in_threadpool(self._watch, room, loop)
            rev = room.rev
            await run_in_threadpool(room.catch_up)  # what moved before the watch began
            while True:
                nudge.clear()
                seen = room.here_now()
                try:
                    await run_in_threadpool(room.say)
                    await run_in_threadpool(room.hear)
                except StoreUnavailable as exc:
                    log.warning("room %s: presence not shared: %s", room.id, exc.detail)
                if room.rev != rev:
                    self._wake(room.id)
                elif room.here_now() != seen:  # a seat came or went through another worker:
                    self._here.pop(room.id, None)  # the streams here say so (and the runner looks)
                    self._release_all(room.id)
                if not self._held(room):
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(nudge.wait(), BEAT_ELSEWHERE)
                rev = room.rev
        except StoreUnavailable as exc:
            log.warning("room %s: not watched: %s", room.id, exc.detail)
        except Exception:  # the next change or connection starts it again
            log.exception("room %s: its keeper failed", room.id)
        finally:
            if unwatch is not None:
                unwatch()
            if self._nudges.get(room.id) is nudge:
                del self._nudges[room.id]

    def _watch(self, room: Room, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
        """Hear the saves of the room and of its table (``pdk.store.changes``); what is heard
        goes to the event loop's thread. Returns the function that stops it."""
        with self._changes_lock:
            if self._changes is None:
                self._changes = self._rooms.store.changes(CHANGES_EVERY)
            watcher = self._changes

        def heard(key: str, version: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server stops
                loop.call_soon_threadsafe(self._heard, room, key, version)

        stops = [watcher.watch(f"{kind}-{room.id}", heard) for kind in ("rm", "rt")]

        def unwatch() -> None:
            for stop in stops:
                stop()

        return unwatch

    def _heard(self, room: Room, key: str, version: int) -> None:
        """A save of the room (or its table) at ``version``: read back unless this copy
        already has it (its own saves are heard too), one reload at a time per room."""
        table = room.table
        have = room.version if key.startswith("rm-") else (0 if table is None else table.version)
        if version <= have:
            return
        if room.id in self._reloading:
            self._reloading[room.id] = True
            return
        self._reloading[room.id] = False
        asyncio.get_running_loop().create_task(self._reload(room))

    async def _reload(self, room: Room) -> None:
        try:
            while True:
                try:
                    await run_in_threadpool(room.reload)
                except (StoreUnavailable, LocalizedError) as exc:
                    log.warning("room %s: not read back: %s", room.id, exc)
                self.changed(room)
                if not self._reloading.get(room.id):
                    return
                self._reloading[room.id] = False
        finally:
            self._reloading.pop(room.id, None)

    def close(self) -> None:
        """The server stops: stop hearing changes, and tell the other workers that the
        connections here are gone."""
        with self._changes_lock:
            watcher, self._changes = self._changes, None
        if watcher is not None:
            watcher.close()
        if self._rooms.beacon is not None:
            self._rooms.beacon.close()

    def _wake(self, room_id: str) -> None:
        """The room moved: render it once for each kind of viewer whose stream is open
        here, then wake the room's waiters (``_fan_out``); a move meanwhile is taken in the
        same fan-out's next round, so a burst of moves costs no more fan-outs than there
        are renders."""
        if room_id in self._fanning:
            self._fanning[room_id] = True
            return
        room = self._rooms_here.get(room_id)
        if room is None or self.stopping:
            self._release_all(room_id)
            return
        self._fanning[room_id] = False
        asyncio.get_running_loop().create_task(self._fan_out(room))

    async def _fan_out(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                rev = room.rev
                due = [
                    v for v in self._viewers.get(room.id, {}) if self._fresh(room.id, rev, v, loop) is None
                ]
                if due:
                    # a failed render is the streams' to meet (each asks again, and reports it)
                    await asyncio.wait(self._render(room, rev, due, loop))
                self._release_all(room.id)
                if not self._fanning.get(room.id):
                    return
                self._fanning[room.id] = False
        finally:
            self._fanning.pop(room.id, None)

    def _release_all(self, room_id: str) -> None:
        """Wake the room's waiters, ``WAKE_BATCH`` at a time with the loop let go between
        (a thousand streams woken at once would hold every player's request behind them)."""
        waiting = self._events.pop(room_id, None)
        if not waiting:
            return
        first, rest = waiting[:WAKE_BATCH], waiting[WAKE_BATCH:]
        _release(first)
        if rest:
            asyncio.get_running_loop().create_task(_release_later(rest))

    async def wait(self, room_id: str, timeout: float) -> None:
        """Until the room's next wake-up, or ``timeout`` seconds (a timer on the loop, not
        ``asyncio.wait_for``'s task and futures: a thousand streams wait at each change)."""
        loop = asyncio.get_running_loop()
        mine: asyncio.Future[None] = loop.create_future()
        waiting = self._events.setdefault(room_id, [])
        waiting.append(mine)
        timer = loop.call_later(timeout, _done, mine)
        try:
            await mine
        finally:
            timer.cancel()
            if self._events.get(room_id) is waiting:  # not woken: the list is still the room's
                with contextlib.suppress(ValueError):
                    waiting.remove(mine)

    async def _run(self, room: Room) -> None:
        """The room's runner: what is due (``Room.due``, ``pdk.table.runner``), carried out
        by the server's machine (a hard bot's search in a thinking slot, as the single
        table's), then asleep until the next thing falls due or the room is woken."""
        while room.info.phase != "closed":
            rev = room.rev
            try:
                due = await run_in_threadpool(room.due)
                move = functools.partial(room.act, due)
                delay = due.wait if due.move is None else await self._machine.run(due, move)
            except (StoreUnavailable, LocalizedError, Busy):
                delay = 2.0  # the store is down, another server moved first, or too many wait
            except Exception:  # never let one bad turn stop the room for good
                log.exception("room %s: the runner's move failed", room.id)
                delay = 2.0
            if room.rev != rev:
                self._wake(room.id)
            if delay == 0:
                continue
            if delay is None and not room.here():
                return  # nothing due and nobody here: the next command starts it again
            await self.wait(room.id, 30.0 if delay is None else delay)


def _release(waiting: list[asyncio.Future[None]]) -> None:
    here = asyncio.get_running_loop()
    for fut in waiting:
        loop = fut.get_loop()
        if loop is here:
            _done(fut)
        else:  # a waiter of another loop (a test client's): woken on its own thread
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_done, fut)


def _done(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


async def _release_later(waiting: list[asyncio.Future[None]]) -> None:
    for at in range(0, len(waiting), WAKE_BATCH):
        await asyncio.sleep(0)
        _release(waiting[at : at + WAKE_BATCH])


def room_json(
    view: RoomView, lang: Lang, base: str, pace_ms: int, events: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """The room for one viewer; the table part is the single-player page's table JSON."""
    names = seat_labels(view, lang)
    return {
        "room": view.id,
        "rev": view.rev,
        # The room's and the table's saved versions: a client keeps the newest view it has
        # (a command's answer can arrive after the stream already sent a later one).
        "versions": [view.version, 0 if view.table is None else view.table.version],
        "phase": view.phase,
        "variant": view.variant,
        "players": view.players,
        "difficulty": view.difficulty,
        "turn_time": view.turn_time,
        "deals": view.deals,
        "you": view.you,
        "host": view.host,
        "deadline": None if view.deadline is None else round(view.deadline, 1),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "taken": s.taken,
                "bot": s.bot,
                "present": s.present,
                "auto": s.auto,
                "total": s.total,
                "ready": s.ready,
                "letter": s.letter or None,
                "label": names[s.seat],
            }
            for s in view.seats
        ],
        "host_seat": view.host_seat,
        # What 托管 played for this seat this deal, in words (told on its return).
        "auto_made": [{"n": n, "text": play_words(play, lang)} for n, play in view.auto_made],
        "invites": [{"seat": seat, "url": invite_url(base, view.id, key)} for seat, key in view.invites],
        "watch": None if view.watch is None else watch_url(base, view.id, view.watch),
        "number": view.number or None,
        "match": view.match,
        "scores": [list(row) for row in view.scores],
        "match_over": view.match_over,
        "said": [{"n": n, "seat": seat, "phrase": phrase} for n, seat, phrase in view.said],
        "table": None if view.table is None else table_json(view.table, lang, pace_ms, events),
    }


def seat_labels(view: RoomView, lang: Lang) -> list[str]:
    """Each seat as everyone reads it, in the seat, the trick rows, the scores and the
    replay: a person's name; a computer's 电脑 A, 电脑 B (its letter, once there are two);
    a seat nobody took before the first deal, free."""
    level = tr(f"diff_{view.difficulty}", lang)
    computers = sum(1 for s in view.seats if s.letter)
    out = []
    for s in view.seats:
        if s.taken:
            out.append(s.name)
        elif view.table is None:
            out.append(tr("web_room_free", lang))
        elif computers > 1:
            out.append(tr("web_room_bot_n", lang, letter=s.letter, level=level))
        else:
            out.append(tr("web_room_bot", lang, level=level))
    return out


def play_words(play: Play | None, lang: Lang) -> str:
    """One play in words, as a trick row says it: its kind and its cards (a pass: 不出)."""
    if play is None:
        return tr("web_pass", lang)
    shown = play_model(play)
    return f"{shown.kind_name.text(lang)} {shown.text}"


def invite_url(base: str, room_id: str, key: str) -> str:
    """The seat's link: the key rides in the fragment, which browsers never send to a
    server (nor to a proxy's log); the page reads it and keeps it."""
    return f"{base}room/{room_id}#k={key}"


def watch_url(base: str, room_id: str, key: str) -> str:
    return f"{base}room/{room_id}#w={key}"


def qr_svg(text: str) -> bytes:
    """A QR code drawn here (segno), never by an outside service."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return out.getvalue()


def mount_rooms(
    app: FastAPI, rooms: Rooms, machine: Machine, limits: RoomLimits | None = None, links: Links | None = None
) -> Live:
    """Add the room page and its API to ``app``; ``machine`` makes the rooms' machine moves
    (the server's, shared with its single tables); ``links`` how invitations are addressed."""
    addressed = links or Links()
    numbers = RateLimit(per_minute=20, burst=10)  # room numbers typed, per client address
    live = Live(rooms, machine)
    when_stopping(live.stop)
    bounds = limits or RoomLimits()
    made = RateLimit(bounds.creates_per_minute, bounds.creates_burst)
    opened = RateLimit(bounds.streams_per_minute, bounds.streams_burst)
    polled = RateLimit(bounds.polls_per_minute, bounds.polls_burst)
    pace_ms = rooms.pace_ms

    def address(request: Request) -> str:
        return request.client.host if request.client else "-"

    def slow_down(request: Request, wait: float) -> Response:
        s = max(1, round(wait))
        err = RoomRefused(RoomReason.TOO_FAST)
        body = {"error": {"key": err.reason.value, "text": err.message(lang_of(request))}}
        return JSONResponse(body, 429, headers={"Retry-After": str(s)})

    def key_of(header: str | None) -> str:
        """The key a GET carries, in its header only: a key in the query is not looked at,
        so a link or a proxy's log that has one opens nothing."""
        key = header
        if key is None:
            raise RoomRefused(RoomReason.BAD_KEY)
        return key

    def lang_of(request: Request) -> Lang:
        return "zh" if request.query_params.get("lang") == "zh" else "en"

    def base_of(request: Request) -> str:
        # Bound to every interface, the links carry the address other devices reach, even
        # when the host's page was opened at 127.0.0.1.
        return addressed.base or str(request.base_url)

    @app.get("/api/rooms/number/{number}")
    async def by_number(number: Annotated[str, Path(pattern=r"^[0-9]{6}$")], request: Request) -> Response:
        """The room a typed 6-digit number names: its watch link, from which the person takes
        a free or computer seat. Counted per address, so numbers cannot be tried in bulk."""
        wait = numbers.wait(request.client.host if request.client else "-")
        if wait:
            return refused(RoomRefused(RoomReason.TOO_FAST), request)
        try:
            room = await run_in_threadpool(rooms.by_number, number)
        except LocalizedError as exc:
            return refused(exc, request)
        return JSONResponse({"room": room.id, "watch": watch_url(base_of(request), room.id, room.info.watch)})

    @app.get("/api/rooms/links")
    def links_info(request: Request) -> dict[str, Any]:
        """Where this server's links lead: the base they carry, and whether they open on
        this computer only (a server bound to loopback)."""
        return {"base": base_of(request), "local_only": addressed.local_only}

    def refused(
        exc: LocalizedError,
        request: Request,
        room: Room | None = None,
        seat: int | None = None,
        verdict: bool = False,
    ) -> Response:
        lang = lang_of(request)
        status = _STATUS.get(exc.reason, 409) if isinstance(exc, RoomRefused) else 409
        body: dict[str, Any] = {"error": {"key": exc.reason.value, "text": exc.message(lang)}}
        if room is not None and status == 409:
            body["room"] = room_json(room.view(seat), lang, base_of(request), pace_ms)
        return JSONResponse(body, 200 if verdict and status == 409 else status)

    def found_room(room_id: str) -> Room:
        room = rooms.get(room_id)
        if not live.watching(room.id):  # another worker may have moved it on meanwhile
            room.catch_up()
        return room

    async def find(room_id: str) -> Room:
        return await run_in_threadpool(found_room, room_id)

    async def viewed(room: Room, key: str) -> int | None:
        return await run_in_threadpool(room.viewer, key)

    async def seat_command(
        room_id: str,
        body: SeatBody,
        request: Request,
        run: Callable[[TableService, int], Any],
        verdict: bool = False,
    ) -> Response:
        found: list[Any] = [None, None]  # the room and the seat, once known
        lang, base = lang_of(request), base_of(request)

        def at_once() -> dict[str, Any]:
            # One trip to a thread for the whole command: each trip waits its turn on the
            # event loop, which a crowded room's streams keep busy.
            room = found[0] = found_room(room_id)
            seat = found[1] = room.seat_of(body.key)
            result = room.command(body.key, body.client, run)
            events = getattr(result, "events", ())
            return room_json(room.view(seat), lang, base, pace_ms, events)

        try:
            answer = await run_in_threadpool(at_once)
        except LocalizedError as exc:
            if found[0] is not None:
                live.changed(found[0])
            return refused(exc, request, found[0], found[1], verdict)
        live.changed(found[0])
        return JSONResponse(answer)

    async def host_command(
        room_id: str, body: SeatBody, request: Request, run: Callable[[Room], None]
    ) -> Response:
        """A command of the room itself (the host's, or a seat's own: ready, a quick
        phrase), answered with the view of the seat that sent it (the host's seat is
        whichever holds the role)."""
        room = None
        seat = None
        try:
            room = await find(room_id)
            seat = await run_in_threadpool(room.seat_of, body.key)
            await run_in_threadpool(run, room)
        except LocalizedError as exc:
            return refused(exc, request, room, seat)
        live.changed(room)
        view = await run_in_threadpool(room.view, seat)
        return JSONResponse(room_json(view, lang_of(request), base_of(request), pace_ms))

    @app.get("/room", include_in_schema=False)
    def room_form() -> FileResponse:
        return FileResponse(str(STATIC / "room.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/room/{room_id}", include_in_schema=False)
    def room_page(room_id: RoomP) -> FileResponse:
        return FileResponse(str(STATIC / "room.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/api/rooms/choices")
    def choices(lang: LangQ = "en") -> dict[str, Any]:
        """What the room form offers: the shipped variants and the turn times a room may
        have (``TURN_TIMES``, the ones ``create`` takes)."""
        variants = [
            {"name": p.name, "players": p.players, "title": p.title.zh if lang == "zh" else p.title.en}
            for p in shipped_profiles().values()
        ]
        return {"variants": variants, "turn_times": list(TURN_TIMES), "phrases": list(PHRASES)}

    @app.post("/api/rooms")
    async def create(body: CreateBody, request: Request) -> Response:
        if body.turn_time not in TURN_TIMES:
            err = {
                "key": "web_bad_request",
                "text": tr("web_bad_request", lang_of(request), detail="turn_time"),
            }
            return JSONResponse({"error": err}, 422)
        house = None
        if body.rules is not None:
            chosen = RuleSet(RulesBody(base=body.variant, rules=body.rules), lang_of(request))
            if chosen.profile is None:
                return chosen.refused(lang_of(request))
            house = chosen.profile
        wait = made.wait(address(request))
        if wait:
            return slow_down(request, wait)
        try:
            room, key = await run_in_threadpool(
                functools.partial(
                    rooms.create,
                    body.variant,
                    body.difficulty,
                    body.turn_time,
                    body.name,
                    body.person,
                    house,
                    body.match,
                )
            )
        except LocalizedError as exc:
            return refused(exc, request)
        return JSONResponse({"room": room.id, "key": key, "url": invite_url(base_of(request), room.id, key)})

    @app.post("/api/rooms/record")
    async def record(body: RecordBody, request: Request) -> Response:
        """The record of the person whose secret the body carries (a POST, so the secret is
        in no URL or log line): the numbers ``pdk stats --person`` shows, and that person's
        only."""
        lang = lang_of(request)
        try:
            person, st = await run_in_threadpool(rooms.record, body.person)
        except LocalizedError as exc:
            return refused(exc, request)
        zh, en, nxt = title_for(st.total)
        return JSONResponse(
            {
                "name": person.name,
                "games": st.games,
                "wins": st.wins,
                "total": st.total,
                "average": st.average,
                "title": {"zh": zh, "en": en, "next_at": nxt},
                "text": tr(
                    "web_room_record", lang, games=st.games, wins=st.wins, total=st.total, zh=zh, en=en
                ),
            }
        )

    @app.get("/api/room/{room_id}")
    async def get_room(room_id: RoomP, request: Request, x_pdk_key: KeyH = None) -> Response:
        try:
            key = key_of(x_pdk_key)
            room = await find(room_id)
            seat = await viewed(room, key)
        except LocalizedError as exc:
            return refused(exc, request)
        view = await run_in_threadpool(room.view, seat)
        return JSONResponse(room_json(view, lang_of(request), base_of(request), pace_ms))

    @app.post("/api/room/{room_id}/join")
    async def join(room_id: RoomP, body: JoinBody, request: Request) -> Response:
        room = None
        joining = None
        try:
            room = await find(room_id)
            joining = functools.partial(room.join, body.key, body.client, body.name, person=body.person)
            seat = await run_in_threadpool(joining)
        except RoomRefused as exc:
            if exc.reason is not RoomReason.IN_USE or room is None or joining is None:
                return refused(exc, request)
            # Held elsewhere, by what this worker last heard (up to a beat old): asked again
            # before the new device is refused, so a worker killed meanwhile holds no seat.
            try:
                await run_in_threadpool(room.hear)
                seat = await run_in_threadpool(joining)
            except (LocalizedError, StoreUnavailable) as again:
                return refused(again if isinstance(again, LocalizedError) else exc, request)
        except LocalizedError as exc:
            return refused(exc, request)
        live.changed(room)
        view = await run_in_threadpool(room.view, seat)
        answer = room_json(view, lang_of(request), base_of(request), pace_ms)
        answer["key"] = room.info.seats[seat].key  # a bot's seat is taken under a new key
        return JSONResponse(answer)

    @app.post("/api/room/{room_id}/claim")
    async def claim(room_id: RoomP, body: ClaimBody, request: Request) -> Response:
        """The watch link's "take a free seat": the seat's key, for the page to keep."""
        try:
            room = await find(room_id)
            key = await run_in_threadpool(room.claim, body.key, body.client, body.name, body.person)
        except LocalizedError as exc:
            return refused(exc, request)
        live.changed(room)
        return JSONResponse({"key": key})

    @app.get("/api/room/{room_id}/live")
    async def stream(room_id: RoomP, client: ClientQ, request: Request, x_pdk_key: KeyH = None) -> Response:
        """Server-sent events: the room for this viewer each time it changes (a change
        arriving while one is sent is coalesced into the next), who is connected at most
        once every ``PRESENCE_EVERY`` seconds, a keep-alive after ``BEAT`` quiet seconds."""
        wait = opened.wait(address(request))
        if wait:
            return slow_down(request, wait)
        try:
            key = key_of(x_pdk_key)
            room = await find(room_id)
            seat = await viewed(room, key)
            if seat is not None:
                await run_in_threadpool(functools.partial(room.join, key, client, None, streaming=True))
        except LocalizedError as exc:
            return refused(exc, request)
        if seat is not None:
            live.nudge(room)
        else:
            live.ensure(room)
        lang, base = lang_of(request), base_of(request)
        loop = asyncio.get_running_loop()

        async def events() -> AsyncIterator[bytes]:
            sent: int | None = None  # the revision this stream last sent
            told: tuple[bool, ...] = ()  # who it last said is connected
            wrote = said = loop.time()
            viewer: Viewer = (seat, lang, base)
            live.hold(room, viewer)
            try:
                while not live.stopping:
                    now = loop.time()
                    rev, here = live.state(room)
                    if rev != sent:
                        sent, data = await live.shown(room, seat, lang, base)
                        yield data.frame
                        told, wrote = data.here, loop.time()
                        continue
                    if here != told and now - said >= PRESENCE_EVERY:
                        yield live.presence(here)
                        told = here
                        wrote = said = loop.time()
                        continue
                    if here != told:
                        pause = PRESENCE_EVERY - (now - said)
                    else:
                        pause = BEAT - (now - wrote)
                        if pause <= 0:
                            live.ensure(room)
                            yield b": still here\n\n"
                            wrote = loop.time()
                            continue
                    await live.wait(room.id, max(0.05, pause))
            finally:
                live.release(room, viewer)
                if seat is not None:
                    room.leave(seat, client)
                    live.nudge(room)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return EventStream(events(), media_type="text/event-stream", headers=headers)

    @app.get("/api/room/{room_id}/poll")
    async def poll(
        room_id: RoomP,
        client: ClientQ,
        request: Request,
        since: Annotated[int, Query(ge=-1)] = -1,
        x_pdk_key: KeyH = None,
    ) -> Response:
        """The fallback of a client without a stream: the room once it differs from
        ``since`` (at once if it already does), else after ``POLL_WAIT`` seconds. A poll
        wakes nobody unless it changed who is here."""
        wait = polled.wait(address(request))
        if wait:
            return slow_down(request, wait)
        try:
            key = key_of(x_pdk_key)
            room = await find(room_id)
            seat = await viewed(room, key)
            if seat is not None:
                was = room.present(seat)
                await run_in_threadpool(room.touch, seat, client)
                if not was:
                    live.nudge(room)
        except LocalizedError as exc:
            return refused(exc, request)
        live.ensure(room)
        if room.rev == since and not live.stopping:
            live.hold(room)
            try:
                await live.wait(room.id, POLL_WAIT)
            finally:
                live.release(room)
        _, data = await live.shown(room, seat, lang_of(request), base_of(request))
        return Response(data.text, media_type="application/json")

    @app.post("/api/room/{room_id}/play")
    async def play(room_id: RoomP, body: PlayBody, request: Request) -> Response:
        if (body.cards is None) == (body.text is None):
            err = {
                "key": "web_bad_request",
                "text": tr("web_bad_request", lang_of(request), detail="cards or text"),
            }
            return JSONResponse({"error": err}, 422)
        if body.text is not None:
            text = body.text
            return await seat_command(
                room_id, body, request, lambda t, s: t.play_text(body.seq, text, s), body.verdict
            )
        cards = list(body.cards or ())
        return await seat_command(
            room_id, body, request, lambda t, s: t.play_cards(body.seq, cards, s), body.verdict
        )

    @app.post("/api/room/{room_id}/hints")
    async def hints(room_id: RoomP, body: SeqBody, request: Request) -> Response:
        """The seat's hints, searched in a thinking slot shared with the hard bots and the
        single tables' hints (a room's view carries only hints already searched)."""
        lang, base = lang_of(request), base_of(request)
        try:
            room = await find(room_id)
            seat = await run_in_threadpool(room.seat_of, body.key)
        except LocalizedError as exc:
            return refused(exc, request)

        def search() -> dict[str, Any]:
            room.hints(body.key, body.client, body.seq)
            return room_json(room.view(seat), lang, base, pace_ms)

        try:
            answer = await machine.analyse(("room-hints", room_id, seat, body.seq, lang), search)
        except Busy:
            err = {"key": "web_busy", "text": tr("web_busy", lang)}
            return JSONResponse({"error": err}, 503, headers={"Retry-After": "2"})
        except LocalizedError as exc:
            return refused(exc, request, room, seat)
        return JSONResponse(answer)

    @app.post("/api/room/{room_id}/pass")
    async def pass_(room_id: RoomP, body: SeqBody, request: Request) -> Response:
        return await seat_command(room_id, body, request, lambda t, s: t.pass_turn(body.seq, s))

    @app.post("/api/room/{room_id}/auto")
    async def auto(room_id: RoomP, body: SwitchBody, request: Request) -> Response:
        """The seat's 托管 switch."""
        room = None
        try:
            room = await find(room_id)
            seat = await run_in_threadpool(room.seat_of, body.key)
            await run_in_threadpool(room.set_auto, body.key, body.client, body.on)
        except LocalizedError as exc:
            return refused(exc, request)
        live.changed(room)
        view = await run_in_threadpool(room.view, seat)
        return JSONResponse(room_json(view, lang_of(request), base_of(request), pace_ms))

    @app.post("/api/room/{room_id}/auto_pass")
    async def auto_pass(room_id: RoomP, body: SwitchBody, request: Request) -> Response:
        return await seat_command(room_id, body, request, lambda t, s: t.set_auto_pass(body.on, seat=s))

    @app.post("/api/room/{room_id}/start")
    async def start(room_id: RoomP, body: SeatBody, request: Request) -> Response:
        return await host_command(room_id, body, request, lambda r: r.start(body.key, rooms.seed))

    @app.post("/api/room/{room_id}/next")
    async def next_deal(room_id: RoomP, body: SeatBody, request: Request) -> Response:
        return await host_command(room_id, body, request, lambda r: r.next_deal(body.key))

    @app.post("/api/room/{room_id}/say")
    async def say(room_id: RoomP, body: SayBody, request: Request) -> Response:
        """A quick phrase or emote from a seat, shown to the whole room (a fixed set)."""
        send = functools.partial(Room.send_phrase, key=body.key, client=body.client, phrase=body.phrase)
        return await host_command(room_id, body, request, send)

    @app.post("/api/room/{room_id}/free")
    async def free_seat(room_id: RoomP, body: FreeBody, request: Request) -> Response:
        """The host frees a seat: a computer plays it, its old link opens it no more."""
        return await host_command(room_id, body, request, lambda r: r.free_seat(body.key, body.seat))

    @app.post("/api/room/{room_id}/ready")
    async def ready(room_id: RoomP, body: ReadyBody, request: Request) -> Response:
        """A person's seat is ready for the next deal (``on``: false takes it back); the last
        one ready deals it."""
        mark = functools.partial(Room.set_ready, key=body.key, client=body.client, on=body.on)
        return await host_command(room_id, body, request, mark)

    @app.post("/api/room/{room_id}/host")
    async def hand_host(room_id: RoomP, body: FreeBody, request: Request) -> Response:
        """The host hands the host role on to the person in ``seat``."""
        return await host_command(room_id, body, request, lambda r: r.hand_host(body.key, body.seat))

    @app.post("/api/room/{room_id}/rematch")
    async def rematch(room_id: RoomP, body: SeatBody, request: Request) -> Response:
        """The host plays the match again: the same seats and rules, the scores from nothing."""
        return await host_command(room_id, body, request, lambda r: r.rematch(body.key))

    @app.post("/api/room/{room_id}/close")
    async def close(room_id: RoomP, body: SeatBody, request: Request) -> Response:
        return await host_command(room_id, body, request, lambda r: r.close(body.key))

    @app.get("/api/room/{room_id}/replay")
    async def replay(room_id: RoomP, request: Request, x_pdk_key: KeyH = None) -> Response:
        """The finished deal with every hand face up: only once it is over."""
        try:
            key = key_of(x_pdk_key)
            room = await find(room_id)
            await viewed(room, key)
        except LocalizedError as exc:
            return refused(exc, request)
        table = room.table
        lang = lang_of(request)
        record = None if table is None else await run_in_threadpool(table.finished)
        if record is None:
            return JSONResponse({"error": {"key": "web_not_over", "text": tr("web_not_over", lang)}}, 409)
        data = await run_in_threadpool(replay_json, record, lang)
        data["names"] = seat_labels(await run_in_threadpool(room.view, None), lang)
        return JSONResponse(data)

    async def host_room(room_id: str, x_pdk_key: str | None) -> Room:
        room = await find(room_id)
        if not room.is_host(key_of(x_pdk_key)):
            raise RoomRefused(RoomReason.NOT_HOST)
        return room

    @app.get("/api/room/{room_id}/qr/watch")
    async def qr_watch(room_id: RoomP, request: Request, x_pdk_key: KeyH = None) -> Response:
        """The QR code of the watch link (the host's key asks)."""
        try:
            room = await host_room(room_id, x_pdk_key)
        except LocalizedError as exc:
            return refused(exc, request)
        return Response(
            qr_svg(watch_url(base_of(request), room.id, room.info.watch)), media_type="image/svg+xml"
        )

    @app.get("/api/room/{room_id}/qr/{seat}")
    async def qr(
        room_id: RoomP,
        seat: Annotated[int, Path(ge=0, le=3)],
        request: Request,
        x_pdk_key: KeyH = None,
    ) -> Response:
        """The QR code of a free seat's link (the host's key asks); a seat taken meanwhile
        is refused, its link no longer on offer. Seat 0 while taken stands for the watch
        link, as it did before ``/qr/watch`` (seat 0 can be free now the host role moves).
        Never cached (the guard's ``no-store``): a seat's key changes when a person takes a
        bot's seat."""
        try:
            room = await host_room(room_id, x_pdk_key)
        except LocalizedError as exc:
            return refused(exc, request)
        if seat >= len(room.info.seats):
            return refused(RoomRefused(RoomReason.NO_ROOM), request)
        base = base_of(request)
        if seat == 0 and room.info.seats[0].taken:
            return Response(qr_svg(watch_url(base, room.id, room.info.watch)), media_type="image/svg+xml")
        if room.info.seats[seat].taken:
            return refused(RoomRefused(RoomReason.SEAT_TAKEN), request)
        return Response(
            qr_svg(invite_url(base, room.id, room.info.seats[seat].key)), media_type="image/svg+xml"
        )

    return live


__all__ = ["Live", "RoomLimits", "invite_url", "mount_rooms", "qr_svg", "room_json", "watch_url"]
