"""``pdk play --join URL``: a seat of a table for friends, played from a terminal.

The room lives on the server that made it (``pdk serve``); this is one more face of it,
as the room page is: the seat's link (its key rides in the ``#k=`` part) takes the seat,
the server sends the seat's table model (its own hand only) and this draws it with the
very code ``pdk play`` uses (``pdk.cli.table``), with the same keys and help. Changes come
by long polling (one request waits until the room moves); the seat's commands are posted
with the key. Bots, 托管 and turn times are the server's; the terminal never moves for
anyone. Each deal this seat finishes is added to this machine's history (``pdk stats``,
as "friends"), the record being kept by the server.
"""

from __future__ import annotations

import contextlib
import json
import queue
import secrets
import select
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group

from pdk.cli.play import make_console
from pdk.cli.play_input import Cmd, parse_command
from pdk.cli.prose import Prose
from pdk.cli.table import Frame, play_text, render_over, render_settlement, render_table
from pdk.rooms.room import KEY, ROOM_ID
from pdk.table.history import DealRow, History
from pdk.text.catalog import Lang, excerpt, tr
from pdk.view.table_model import TableModel, model_from_json


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
        params = urllib.parse.urlencode({"key": self.link.key, "lang": self.lang, **query})
        url = f"{self.link.base}api/room/{self.link.room}{path}?{params}"
        data = None
        headers = {}
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
class Remote:
    """Keys in, frames out, over a room's seat on a server."""

    api: RoomClient
    history: History
    lang: Lang
    console: Any = field(default_factory=make_console)
    room: dict[str, Any] | None = None
    messages: list[str] = field(default_factory=list)
    counter: bool = False
    hint_at: tuple[int, int] = (-1, -1)  # (seq, index) of the hint on show
    settled: set[int] = field(default_factory=set)  # deals already shown settled
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
        self.room = data
        return None

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

    def command(self, path: str, body: dict[str, Any]) -> bool:
        try:
            status, data = self.api.call(path, body)
        except Unreachable as exc:
            self.messages.append(tr("join_lost", self.lang, detail=exc))
            return False
        if status == 200:
            self.keep(data)
            return True
        err = data.get("error", {})
        text = str(err.get("text", status))
        key = str(err.get("key", ""))
        plain = key.startswith("web_room_") or key == "web_bad_request" or status == 503
        self.messages.append(text if plain else tr("refused", self.lang, reason=text))
        if "room" in data:
            self.keep(data["room"])
        return False

    def keep(self, room: dict[str, Any]) -> bool:
        """Show ``room`` unless the one on show is newer (a command's answer can arrive
        after a poll already brought a later table); whether it was kept."""
        if self.room is not None and tuple(room["versions"]) < tuple(self.room["versions"]):
            return False
        self.room = room
        return True

    # -- drawing --------------------------------------------------------------------------

    @property
    def model(self) -> TableModel | None:
        table = None if self.room is None else self.room.get("table")
        return None if table is None else model_from_json(table["model"])

    def draw(self) -> None:
        room = self.room
        assert room is not None
        if self.console.is_terminal:
            self.console.clear()
        names = " · ".join(
            f"{s['name'] or tr('web_room_free', self.lang)}{'*' if s['seat'] == room['you'] else ''}"
            f" {s['total']:+d}{' ' + tr('web_auto', self.lang) if s['auto'] else ''}"
            for s in room["seats"]
        )
        model = self.model
        if model is None:
            waiting = tr("web_room_waiting", self.lang)
            self.console.print(
                Group(Prose(names, style="bold"), Prose(waiting), *(Prose(m) for m in self.messages))
            )
            self.messages = []
            return
        table = room["table"]
        if model.settlement is not None:
            frame = Frame(model, self.lang, session_total=table["session_total"])
            self.console.print(render_over(frame, self.console.width))
            if self.messages:
                self.console.print(Group(*(Prose(m, style="yellow") for m in self.messages)))
            title = tr("settle_title", self.lang, n=model.deal_no)
            self.console.print(render_settlement(model.settlement, title, self.lang, self.console.width))
            self.console.print(Prose(names))
            self.console.print(
                tr("next_prompt", self.lang) if room["host"] else tr("web_room_next_host", self.lang)
            )
            self.messages = []
            return
        frame = Frame(
            model,
            self.lang,
            session_total=table["session_total"],
            auto=table["auto"],
            counter=self.counter,
            messages=tuple(self.messages),
        )
        self.messages = []
        self.console.print(render_table(frame, self.console.width))
        self.console.print(Prose(names))
        self.console.print(tr("prompt", self.lang), end="")

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> None:
        """Draw on every change, act on every line; Ctrl-C ends 托管, or quits otherwise."""
        threading.Thread(target=self.poll, daemon=True).start()
        self.draw()
        try:
            while True:
                try:
                    if not self.step():
                        return
                except KeyboardInterrupt:
                    table = None if self.room is None else self.room.get("table")
                    if table is None or not table["auto"]:
                        return
                    self.command("/auto", {"on": False})
                    self.messages.append(tr("auto_off", self.lang))
                    self.draw()
        finally:
            self.stop.set()

    def step(self) -> bool:
        if self.drain():
            if self.room is not None and self.room["phase"] == "closed":
                self.draw()
                self.console.print(tr("web_room_closed", self.lang))
                return False
            self.keep_settled()
            self.draw()
        line = self.read_line(0.25)
        if line is None:
            return True
        if not self.handle(line):
            return False
        self.draw()
        return True

    def drain(self) -> bool:
        changed = False
        while True:
            try:
                item = self.updates.get_nowait()
            except queue.Empty:
                return changed
            if isinstance(item, str):
                self.messages.append(item)
            elif self.room is None or item["rev"] != self.room["rev"]:
                self.keep(item)
            changed = True

    def read_line(self, timeout: float) -> str | None:
        if sys.stdin.isatty() or _selectable():
            ready, _, _ = select.select([sys.stdin], [], [], timeout)
            if not ready:
                return None
        line = sys.stdin.readline()
        if line == "":
            raise EOFError
        return line

    def keep_settled(self) -> None:
        """The seat's result of each deal it saw settled, once, in this machine's history."""
        model = self.model
        room = self.room
        if model is None or model.settlement is None or room is None or model.deal_no in self.settled:
            return
        self.settled.add(model.deal_no)
        row = next(r for r in model.settlement.rows if r.seat == room["you"])
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
            self.messages.append(tr("join_history_failed", self.lang, detail=excerpt(str(exc))))

    def handle(self, line: str) -> bool:
        """One line typed; False means quit."""
        lang = self.lang
        room = self.room
        cmd = parse_command(line)
        if cmd.kind is Cmd.QUIT:
            return False
        table = None if room is None else room.get("table")
        model = self.model
        if cmd.kind is Cmd.HELP:
            self.messages.append(tr("help", lang))
            return True
        if table is None or model is None:
            self.messages.append(tr("web_room_not_started", lang))
            return True
        seq = table["seq"]
        if model.settlement is not None:
            if cmd.kind is Cmd.EMPTY and room is not None and room["host"]:
                self.command("/next", {})
            return True
        if cmd.kind is Cmd.COUNTER:
            self.counter = not self.counter
            self.messages.append(tr("counter_on" if self.counter else "counter_off", lang))
        elif cmd.kind is Cmd.AUTO:
            on = not table["auto"]
            if self.command("/auto", {"on": on}):
                self.messages.append(tr("auto_on" if on else "auto_off", lang))
        elif cmd.kind is Cmd.AUTO_PASS:
            on = not table["auto_pass"]
            if self.command("/auto_pass", {"on": on}):
                self.messages.append(tr("auto_pass_on" if on else "auto_pass_off", lang))
        elif cmd.kind is Cmd.HINT:
            self.hint(model, seq)
        elif cmd.kind is Cmd.EMPTY:
            at, index = self.hint_at
            if at == seq and 0 <= index < len(model.hints):
                self.command("/play", {"seq": seq, "cards": list(model.hints[index].cards)})
            elif model.task.kind == "none":
                self.command("/pass", {"seq": seq})
        elif cmd.kind is Cmd.PASS:
            self.command("/pass", {"seq": seq})
        else:
            self.command("/play", {"seq": seq, "text": cmd.text})
        return True

    def hint(self, model: TableModel, seq: int) -> None:
        """The model's hints, best first (at most five); again for the next (as ``pdk play``)."""
        lang = self.lang
        if model.task.kind not in ("lead", "beat", "none") or not model.hints:
            self.messages.append(tr("hint_none", lang))
            return
        at, index = self.hint_at
        index = (index + 1) % len(model.hints) if at == seq else 0
        self.hint_at = (seq, index)
        play = model.hints[index]
        why = model.hint_reasons[index].text(lang) if index < len(model.hint_reasons) else ""
        cards = play_text(play, self.console.width).plain
        self.messages.append(
            tr(
                "hint_show",
                lang,
                i=index + 1,
                n=len(model.hints),
                cards=cards,
                kind=play.kind_name.text(lang),
                why=why,
            )
        )


def _selectable() -> bool:
    try:
        sys.stdin.fileno()
    except (OSError, ValueError):
        return False
    return True


def join(url: str, name: str | None, base: Path, lang: Lang) -> str | None:
    """Play the seat of ``url`` until the player quits; None, or why it could not start."""
    link = parse_link(url)
    if link is None:
        return tr("join_bad_link", lang, url=excerpt(url))
    remote = Remote(RoomClient(link, lang), History(base / "history.sqlite3"), lang)
    why = remote.enter(name)
    if why is not None:
        return why
    with contextlib.suppress(EOFError):
        remote.run()
    return None


__all__ = ["Link", "Remote", "RoomClient", "join", "parse_link"]
