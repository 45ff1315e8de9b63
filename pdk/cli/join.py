"""``pdk play --join URL``: a seat of a table for friends, played from a terminal.

The room lives on the server that made it (``pdk serve``); this is one more face of it,
as the room page is: the seat's link (its key rides in the ``#k=`` part) takes the seat,
the server sends the seat's table model (its own hand only), and ``pdk play``'s own game
loop (``pdk.cli.game``) drives it as a ``RoomSeat`` — the same keys, help and screens as a
game in this process. Changes come by long polling (one request waits until the room
moves); the seat's commands are posted with the key. Bots, 托管 and turn times are the
server's; the terminal never moves for anyone. Each deal this seat finishes is added to
this machine's history (``pdk stats``, as "friends"), the record being kept by the server.
"""

from __future__ import annotations

import dataclasses
import json
import queue
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdk.cli.game import Game, Ui
from pdk.engine.events import Event
from pdk.rooms.room import KEY, ROOM_ID
from pdk.table.history import DealRow, History
from pdk.table.seat import Refused, SeatHint
from pdk.table.service import SeatTable
from pdk.text.catalog import Lang, excerpt, tr
from pdk.view.table_model import model_from_json


@dataclass(frozen=True)
class Link:
    base: str  # http://host:port/
    room: str
    key: str


def parse_link(url: str) -> Link | None:
    """A seat's link as the room page shows it (``http://host:port/room/<id>#k=<key>``)."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return None
    path = parts.path.rstrip("/").split("/")
    frag = urllib.parse.parse_qs(parts.fragment)
    key = (frag.get("k") or [""])[0]
    if parts.scheme not in ("http", "https") or not parts.netloc or len(path) < 2 or path[-2] != "room":
        return None
    if not ROOM_ID.fullmatch(path[-1]) or not KEY.fullmatch(key):
        return None
    prefix = "/".join(path[:-2])
    return Link(f"{parts.scheme}://{parts.netloc}{prefix}/", path[-1], key)


class Unreachable(Exception):
    """The server could not be asked (refused, gone, timed out): ``detail`` says why."""


@dataclass
class RoomClient:
    """The room's HTTP API, for one seat."""

    link: Link
    lang: Lang
    client: str = field(default_factory=lambda: secrets.token_hex(8))

    def call(
        self, path: str, body: dict[str, Any] | None = None, timeout: float = 10.0, **query: Any
    ) -> tuple[int, Any]:
        params = urllib.parse.urlencode({"lang": self.lang, **query})
        url = f"{self.link.base}api/room/{self.link.room}{path}?{params}"
        data = None
        headers = {"X-PDK-Key": self.link.key}  # never in the URL, which proxies log
        if body is not None:
            data = json.dumps({"key": self.link.key, "client": self.client, **body}).encode()
            headers["content-type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read())
            except ValueError:
                return exc.code, {"error": {"text": str(exc.reason)}}
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise Unreachable(str(reason)) from None


@dataclass
class RoomSeat:
    """A room's seat on a server, as a ``pdk.table.seat.Seat``: the room is polled in the
    background (``poll``), every answer kept if it is newer than the one on show; the
    seat's commands are posted with its key. Each deal this seat sees settled is added to
    this machine's history, once."""

    api: RoomClient
    history: History
    lang: Lang
    room: dict[str, Any] | None = None
    table: SeatTable | None = None  # the room's table as this seat sees it (None: not dealt)
    counter: bool = False  # the card counter is this terminal's (the room keeps none per seat)
    cycle: tuple[tuple[int, int], int] = ((-1, -1), -1)  # (deal, seq) and index of the hint on show
    settled: set[int] = field(default_factory=set)  # deals already added to the history
    said: list[str] = field(default_factory=list)
    updates: queue.Queue[dict[str, Any] | str] = field(default_factory=queue.Queue)
    stop: threading.Event = field(default_factory=threading.Event)

    # -- the connection -------------------------------------------------------------------

    def enter(self, name: str | None) -> str | None:
        """Take the seat; None, or why it cannot be taken."""
        try:
            status, data = self.api.call("")
            if status != 200:
                return str(data["error"]["text"])
            body: dict[str, Any] = {}
            me = data["seats"][data["you"]] if data.get("you") is not None else None
            if me is None:
                return tr("join_not_a_seat", self.lang)
            if not me["taken"] or name:
                body["name"] = name or tr("web_room_seat", self.lang, n=data["you"] + 1)
            status, data = self.api.call("/join", body)
        except Unreachable as exc:
            return tr("join_unreachable", self.lang, url=self.api.link.base, detail=exc)
        if status != 200:
            return str(data["error"]["text"])
        if data.get("key"):  # a seat a bot was playing is taken under a new key
            self.api.link = dataclasses.replace(self.api.link, key=str(data["key"]))
        self.keep(data)
        return None

    def start(self) -> None:
        threading.Thread(target=self.poll, daemon=True).start()

    def close(self) -> None:
        self.stop.set()

    def poll(self) -> None:
        """Long-poll the room in the background; every answer goes to ``updates``."""
        rev = -1 if self.room is None else self.room["rev"]
        while not self.stop.is_set():
            try:
                status, data = self.api.call("/poll", timeout=30.0, client=self.api.client, since=rev)
            except Unreachable as exc:
                self.updates.put(tr("join_lost", self.lang, detail=exc))
                self.stop.wait(2.0)
                continue
            if status == 200:
                rev = data["rev"]
                self.updates.put(data)
            else:
                self.updates.put(str(data.get("error", {}).get("text", status)))
                self.stop.wait(2.0)

    def keep(self, room: dict[str, Any]) -> bool:
        """Show ``room`` unless the one on show is newer (a command's answer can arrive
        after a poll already brought a later table); whether it was kept."""
        if self.room is not None and tuple(room["versions"]) < tuple(self.room["versions"]):
            return False
        self.room = room
        self.table = _seat_table(room, self.counter)
        self.keep_settled()
        return True

    def keep_settled(self) -> None:
        """The seat's result of each deal it saw settled, once, in this machine's history."""
        t, room = self.table, self.room
        if t is None or room is None:
            return
        model, settlement = t.model, t.model.settlement
        if settlement is None or model.deal_no in self.settled:
            return
        self.settled.add(model.deal_no)
        row = next(r for r in settlement.rows if r.seat == room["you"])
        try:
            self.history.add(
                DealRow(
                    id=f"room-{room['room']}-{model.deal_no}-{room['you']}",
                    difficulty="friends",
                    variant=model.variant,
                    seed=None,
                    won=row.winner,
                    score=row.total,
                    cards_left=row.cards_left,
                    record_path=None,
                )
            )
        except Exception as exc:  # a history that cannot be written loses no game
            self.said.append(tr("join_history_failed", self.lang, detail=excerpt(str(exc))))

    def send(self, path: str, body: dict[str, Any]) -> tuple[Event, ...]:
        """One command posted; the room it answers with is kept. ``Refused`` says why a
        command was not taken: the server's own words (a room's rule, or "the server is
        busy", as a sentence of its own), or that the server cannot be reached."""
        try:
            status, data = self.api.call(path, body)
        except Unreachable as exc:
            raise Refused(tr("join_lost", self.lang, detail=exc), plain=True) from None
        if status == 200:
            self.keep(data)
            return ()
        err = data.get("error", {})
        key = str(err.get("key", ""))
        if "room" in data:
            self.keep(data["room"])
        plain = key.startswith("web_room_") or key == "web_bad_request" or status == 503
        raise Refused(str(err.get("text", status)), plain=plain)

    # -- the seat ---------------------------------------------------------------------------

    @property
    def runs_machine(self) -> bool:
        return False  # the room's runner moves the bots, 托管 and 要不起

    def snapshot(self) -> SeatTable | None:
        return self.table

    def moved(self) -> bool:
        """Whether a poll answered since the last look: every answer is drawn again, even
        one that brings the room unchanged (a poll that waited its time out), so a screen
        that scrolled or was drawn over is redrawn within a poll's wait."""
        answered = False
        while True:
            try:
                item = self.updates.get_nowait()
            except queue.Empty:
                return answered
            if isinstance(item, str):
                self.said.append(item)
            elif self.room is None or item["rev"] != self.room["rev"]:
                self.keep(item)
            answered = True

    def news(self) -> list[str]:
        said, self.said = self.said, []
        return said

    def gone(self) -> str | None:
        closed = self.room is not None and self.room["phase"] == "closed"
        return tr("web_room_closed", self.lang) if closed else None

    def company(self) -> str | None:
        room = self.room
        assert room is not None
        return " · ".join(
            f"{s['name'] or tr('web_room_free', self.lang)}{'*' if s['seat'] == room['you'] else ''}"
            f" {s['total']:+d}{' ' + tr('web_auto', self.lang) if s['auto'] else ''}"
            for s in room["seats"]
        )

    def deals_next(self) -> bool:
        return self.room is not None and bool(self.room["host"])

    def play_text(self, seq: int, text: str) -> tuple[Event, ...]:
        return self.send("/play", {"seq": seq, "text": text})

    def play_cards(self, seq: int, cards: Sequence[str]) -> tuple[Event, ...]:
        return self.send("/play", {"seq": seq, "cards": list(cards)})

    def pass_turn(self, seq: int) -> tuple[Event, ...]:
        return self.send("/pass", {"seq": seq})

    def step(self, seq: int) -> tuple[Event, ...]:
        """A seat cannot ask the room for the machine's move: its runner makes them."""
        raise Refused(tr("web_not_bots_turn", self.lang))

    def next_deal(self, seq: int) -> tuple[Event, ...]:
        return self.send("/next", {})

    def set_auto(self, on: bool) -> tuple[Event, ...]:
        return self.send("/auto", {"on": on})

    def set_auto_pass(self, on: bool) -> tuple[Event, ...]:
        return self.send("/auto_pass", {"on": on})

    def set_auto_level(self, level: str | None) -> tuple[Event, ...]:
        """A room's 托管 plays at the room's level: a seat does not choose it."""
        raise Refused(tr("auto_level_room", self.lang), plain=True)

    def set_counter(self, on: bool) -> tuple[Event, ...]:
        self.counter = on
        if self.room is not None:
            self.table = _seat_table(self.room, on)
        return ()

    def hint(self, seq: int) -> SeatHint | None:
        """The model's hints, best first; again for the next (as ``pdk play``). A room's
        view carries only hints already searched: the first press asks the room for the
        search (``hints_pending``), and shows hint 1 of its answer."""
        t = self.table
        if t is None:
            return None
        if t.model.hints_pending and t.seq == seq:
            self.send("/hints", {"seq": seq})
            t = self.table
            if t is None:
                return None
        model = t.model
        if model.task.kind not in ("lead", "beat", "none") or not model.hints:
            return None
        at, index = self.cycle
        index = (index + 1) % len(model.hints) if at == (t.deal_no, seq) else 0
        self.cycle = ((t.deal_no, seq), index)
        play = model.hints[index]
        why = model.hint_reasons[index].text(self.lang) if index < len(model.hint_reasons) else ""
        return SeatHint(index, len(model.hints), play, play.cards, play.kind_name.text(self.lang), why)


def _seat_table(room: dict[str, Any], counter: bool) -> SeatTable | None:
    """The room's table as its seat's snapshot (what the table service's ``snapshot`` gives
    a face in this process), read back from the room's JSON."""
    table = room.get("table")
    if table is None:
        return None
    model = model_from_json(table["model"])
    seats = room["seats"]
    return SeatTable(
        key=room["room"],
        version=table["version"],
        seq=table["seq"],
        deal_no=model.deal_no,
        difficulty=table["difficulty"],
        next_difficulty=table["next_difficulty"],
        totals=tuple(s["total"] for s in seats),
        settled=model.settlement is not None,
        bot_turn=table["bot_turn"],
        machine_turn=table["machine_turn"],
        auto_pass=table["auto_pass"],
        counter=counter,
        model=model,
        seat=room["you"],
        auto_seats=tuple(s["seat"] for s in seats if s["auto"]),
        turn=model.task.seat,
        humans=tuple(s["seat"] for s in seats if not s["bot"]),
        deals_done=room["deals"],
    )


def join(url: str, name: str | None, base: Path, lang: Lang) -> str | None:
    """Play the seat of ``url`` until the player quits; None, or why it could not start."""
    link = parse_link(url)
    if link is None:
        return tr("join_bad_link", lang, url=excerpt(url))
    seat = RoomSeat(RoomClient(link, lang), History(base / "history.sqlite3"), lang)
    why = seat.enter(name)
    if why is not None:
        return why
    seat.start()
    try:
        Game(seat, Ui(lang, 0.0)).run()
    finally:
        seat.close()
    return None


__all__ = ["Link", "RoomClient", "RoomSeat", "join", "parse_link"]
