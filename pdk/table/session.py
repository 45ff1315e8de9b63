"""A play session: deal after deal against two bots, with a save that survives ``kill -9``.

This is the game a table service (``pdk.table.service``) runs, for ``pdk play`` and ``pdk
serve`` alike; it does no printing. A session is the current deal (a ``GameState``, stored
as a ``pdk.engine.record`` game record so a save is re-checked play by play when it is read
back) plus what lives across deals: the difficulty, the variant, the running totals, the
seed of the next deal, a unique session id, and the seat's settings as typed fields.

Saves go through a store (``pdk.store.contract``) that writes them atomically (temporary file,
``fsync``, ``rename``, ``fsync`` of the directory), so a crash at any instant leaves either
the previous save or the new one.
A save slot is held with an advisory lock so that two terminals never write the same
save: the second terminal takes the next free slot and plays its own game.

Bots are rebuilt for every move from a seed derived from the deal seed, the seat and the
move number, so a resumed deal continues exactly as it would have without the interruption.
"""

from __future__ import annotations

import json
import re
import secrets
import uuid
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import IO, Any

from pdk.bots import DIFFICULTIES, make_bot
from pdk.engine.combos import Move
from pdk.engine.deal import bot_seed, deal, deal_seed, next_leader
from pdk.engine.events import Event
from pdk.engine.profile import Profile
from pdk.engine.record import AUTO, AUTO_PASS, MADE_BY, GameRecord, RecordError, from_dict
from pdk.engine.settlement import Settlement
from pdk.engine.state import GameState
from pdk.files.atomic import atomic_write, move_aside, remove_stale_temps
from pdk.files.limits import RECORD_BYTES, LimitError, check_length, loads_json, read_bounded
from pdk.text.catalog import LocalizedError

SAVE_FORMAT = "pdk-save"
SAVE_VERSION = 1
HUMAN = 0
HUMAN_NAME = "you"  # the human seat's player in a record (the replay names seats from it)
_SEED_MASK = (1 << 63) - 1
MAX_SLOTS = 9
# A session id names record files (``records/<id>-<deal>.json``): read from a save, it must
# be a plain name, never a path (``../x``, ``/etc/x``). New ids are 12 hex digits.
_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_DEALS = 10**9


class SaveReason(Enum):
    """Why a save cannot be read back or written; values are message keys in ``pdk.text.catalog``."""

    CANNOT_READ = "save_err_cannot_read"
    JSON = "save_err_json"
    NOT_SAVE = "save_err_not_save"
    VERSION = "save_err_version"
    SESSION_MISSING = "save_err_session_missing"
    FIELD = "save_err_field"
    DEAL = "save_err_deal"
    TOTALS = "save_err_totals"
    SLOTS_BUSY = "save_err_slots_busy"
    ID = "save_err_id"
    RANGE = "save_err_range"


class SaveError(LocalizedError, ValueError):
    """A save that cannot be read back (or no free slot to write one); a broken saved deal
    carries its ``RecordError``."""

    reason: SaveReason


@dataclass
class Session:
    """Everything ``pdk play`` must remember between two runs."""

    id: str
    difficulty: str
    variant: str
    seed_base: int
    deal_no: int
    state: GameState
    totals: list[int]
    deals_done: int = 0
    # The seat's settings, kept with the game so that every face and every process sees
    # the same ones: the bots of the next deal, 记牌器 shown, 托管 and 要不起 auto-pass on.
    next_difficulty: str | None = None
    counter: bool = False
    # The seats in 托管, and those whose 要不起 auto-pass is off (a table for friends has a
    # person in several seats; ``pdk play`` has one, ``HUMAN``, read through ``auto``).
    auto_seats: frozenset[int] = frozenset()
    no_auto_pass: frozenset[int] = frozenset()
    # The finished deal is in the totals, its record and its history row written.
    settled: bool = False
    # The seats people play (the others are bots) and the name each seat has in the
    # record; a table for friends sets both, ``pdk play`` keeps the defaults.
    humans: tuple[int, ...] = (HUMAN,)
    names: tuple[str, ...] = ()
    # A table for friends: each seat's person (a public id, '' for a bot), so that each
    # person's deals go into the server's history under them.
    persons: tuple[str, ...] = ()
    # The deal's plays a person did not make (play number -> record.AUTO / AUTO_PASS), kept
    # in the deal's record so that its review holds 托管's plays against nobody; and the
    # level 托管 plays at (None: the table's difficulty).
    made_by: dict[int, str] = field(default_factory=dict)
    auto_level: str | None = None

    @property
    def auto(self) -> bool:
        """托管 of the ``pdk play`` seat."""
        return HUMAN in self.auto_seats

    @auto.setter
    def auto(self, on: bool) -> None:
        self.set_auto(HUMAN, on)

    @property
    def auto_pass(self) -> bool:
        return HUMAN not in self.no_auto_pass

    @auto_pass.setter
    def auto_pass(self, on: bool) -> None:
        self.set_auto_pass(HUMAN, on)

    def set_auto(self, seat: int, on: bool) -> None:
        self.auto_seats = self.auto_seats | {seat} if on else self.auto_seats - {seat}

    def set_auto_pass(self, seat: int, on: bool) -> None:
        self.no_auto_pass = self.no_auto_pass - {seat} if on else self.no_auto_pass | {seat}

    def copy(self) -> Session:
        """A copy to change: the table service computes an action on it and keeps it only
        once it is saved (memory never runs ahead of disk)."""
        return replace(self, state=self.state.clone(), totals=list(self.totals), made_by=dict(self.made_by))

    # -- deals -----------------------------------------------------------------------------

    @property
    def profile(self) -> Profile:
        return self.state.profile

    @property
    def seed(self) -> int:
        """The seed of the current deal: deal k of ``--seed N`` is ``deal_seed(N, k)``, the
        same deal ``pdk selfplay --seed N`` plays as its k-th."""
        return deal_seed(self.seed_base, self.deal_no - 1)

    @property
    def deal_id(self) -> str:
        """Unique across every session and machine: the history's primary key."""
        return f"{self.id}-{self.deal_no}"

    def next_deal(self) -> None:
        """Deal the next hand: the lead card's holder leads (♠3 in classic16), or the last
        deal's winner where the profile has the winner-leads match rule."""
        leader = next_leader(self.profile, self.state.winner)
        self.deal_no += 1
        self.state = GameState(self.profile, deal(self.profile, self.seed, leader))
        self.settled = False
        self.auto_seats = frozenset()  # 托管 ends with the deal, as it always has on every face
        self.made_by = {}
        if self.next_difficulty is not None:
            self.difficulty, self.next_difficulty = self.next_difficulty, None

    def record(self) -> GameRecord:
        return GameRecord.of(
            self.state,
            self.seed,
            session=self.id,
            deal=self.deal_no,
            difficulty=self.difficulty,
            variant=self.variant,
            players=list(self.names) or [HUMAN_NAME] + [self.difficulty] * (self.state.players - 1),
            **self._made_by_meta(),
        )

    def _made_by_meta(self) -> dict[str, Any]:
        """The record's ``made_by`` (absent when a person made every play, as before)."""
        if not self.made_by:
            return {}
        made = {who: sorted(n for n, w in self.made_by.items() if w == who) for who in (AUTO, AUTO_PASS)}
        return {MADE_BY: made}

    # -- moves -----------------------------------------------------------------------------

    def bot_move(self) -> Move | None:
        """The bot in the seat to move chooses from what that seat may see."""
        seat = self.state.turn
        bot = make_bot(self.difficulty, bot_seed(self.seed, seat))
        return bot.choose(self.state.view(seat))

    def auto_move(self) -> Move | None:
        """托管: the person's seat played as the table's bots play (``auto_level``, else the
        table's difficulty), from what that seat may see."""
        seat = self.state.turn
        bot = make_bot(self.auto_level or self.difficulty, bot_seed(self.seed, seat))
        return bot.choose(self.state.view(seat))

    def play_auto(self) -> tuple[Event, ...]:
        """One 托管 move, marked as 托管's in the deal's record."""
        self.made_by[len(self.state.history) + 1] = AUTO
        return self.state.act_move(self.auto_move())[1]

    def pass_auto(self) -> tuple[Event, ...]:
        """要不起 auto-pass, marked as such in the deal's record."""
        self.made_by[len(self.state.history) + 1] = AUTO_PASS
        return self.state.act(None)[1]

    def settle(self) -> Settlement:
        """Add the finished deal to the running totals and mark it settled (the table
        service calls it once per deal, on the copy it saves after the deal is archived)."""
        st = self.state.settlement()
        for seat, total in enumerate(st.totals):
            self.totals[seat] += total
        self.deals_done += 1
        self.settled = True
        return st

    # -- persistence -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "session": {
                "id": self.id,
                "difficulty": self.difficulty,
                "variant": self.variant,
                "seed_base": self.seed_base,
                "deal_no": self.deal_no,
                "totals": list(self.totals),
                "deals_done": self.deals_done,
                "next_difficulty": self.next_difficulty,
                "counter": self.counter,
                "auto": self.auto,
                "auto_pass": self.auto_pass,
                "settled": self.settled,
                **({"auto_level": self.auto_level} if self.auto_level else {}),
                **self._seats_dict(),
            },
            "record": self.record().to_dict(),
        }

    def _seats_dict(self) -> dict[str, Any]:
        """A table for friends keeps who plays each seat; a ``pdk play`` save is unchanged."""
        if self.humans == (HUMAN,) and not self.names and self.auto_seats <= {HUMAN}:
            return {}
        return {
            "seats": {
                "humans": list(self.humans),
                "names": list(self.names),
                "persons": list(self.persons),
                "auto": sorted(self.auto_seats),
                "no_auto_pass": sorted(self.no_auto_pass),
            }
        }


def new_session(
    profile: Profile,
    variant: str,
    difficulty: str,
    seed: int | None = None,
    *,
    humans: tuple[int, ...] = (HUMAN,),
    names: tuple[str, ...] = (),
    persons: tuple[str, ...] = (),
) -> Session:
    """A fresh session; without ``seed`` the deals are drawn at random. ``humans``,
    ``names`` and ``persons``: who plays which seat (a table for friends; see ``Session``)."""
    base = secrets.randbits(62) if seed is None else seed & _SEED_MASK
    return Session(
        id=uuid.uuid4().hex[:12],
        difficulty=difficulty,
        variant=variant,
        seed_base=base,
        deal_no=1,
        state=GameState(profile, deal(profile, deal_seed(base, 0))),
        totals=[0] * profile.players,
        humans=humans,
        names=names,
        persons=persons,
    )


def practice_session(record: GameRecord, number: int, variant: str, difficulty: str) -> Session:
    """A practice table from a finished deal's position: the deal as it stood before play
    ``number`` (its first plays kept, the same hands), ``HUMAN``'s turn, the computers at
    ``difficulty`` playing on from there. ``ValueError`` when play ``number`` is not
    ``HUMAN``'s (a practice starts where the person chose). Its next deal is a fresh one."""
    if not 1 <= number <= len(record.actions) or record.actions[number - 1].seat != HUMAN:
        raise ValueError("not a play of the person's")
    state = GameState(record.profile, record.deal)
    for action in record.actions[: number - 1]:
        state.play(action.play.cards if action.play else None)
    fresh = new_session(record.profile, variant, difficulty)
    made = {n: w for n, w in record.made_by().items() if n < number}
    return replace(fresh, state=state, made_by=made)


def session_from_dict(data: Any) -> Session:
    """Rebuild a session; every play of the saved deal is re-checked (via the record)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(SaveReason.NOT_SAVE)
    if data.get("version") != SAVE_VERSION:
        raise SaveError(SaveReason.VERSION, v=repr(data.get("version")))
    s = data.get("session")
    if not isinstance(s, dict):
        raise SaveError(SaveReason.SESSION_MISSING)
    sid = _typed(s, "id", str)
    if not _SESSION_ID.fullmatch(sid):
        raise SaveError(SaveReason.ID)
    try:
        record = from_dict(data.get("record"))
        state = record.replay()
    except RecordError as exc:
        raise SaveError(SaveReason.DEAL, detail=exc) from None
    totals = _typed(s, "totals", list)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in totals):
        raise SaveError(SaveReason.FIELD, field="totals", kind="list") from None
    sess = Session(
        id=sid,
        difficulty=_typed(s, "difficulty", str),
        variant=_typed(s, "variant", str),
        seed_base=_typed(s, "seed_base", int),
        deal_no=_typed(s, "deal_no", int),
        state=state,
        totals=totals,
        deals_done=_typed(s, "deals_done", int),
        made_by=record.made_by(),
        **_settings(s),
    )
    if sess.settled and not sess.state.over:
        raise SaveError(SaveReason.FIELD, field="settled", kind="bool")
    if len(sess.totals) != sess.state.players:
        raise SaveError(SaveReason.TOTALS)
    n = sess.state.players
    if (
        (sess.names and len(sess.names) != n)
        or (sess.persons and len(sess.persons) != n)
        or any(x >= n for x in sess.humans)
    ):
        raise SaveError(SaveReason.FIELD, field="seats", kind="dict")
    for name, value, low, high in (
        ("seed_base", sess.seed_base, 0, _SEED_MASK),
        ("deal_no", sess.deal_no, 1, MAX_DEALS),
        ("deals_done", sess.deals_done, 0, MAX_DEALS),
    ):
        if not low <= value <= high:
            raise SaveError(SaveReason.RANGE, field=name)
    return sess


def _settings(s: dict[str, Any]) -> dict[str, Any]:
    """The seat's settings; a save from before they were typed fields kept them in a
    ``ui`` mapping, read once here."""
    old = s.get("ui")
    if isinstance(old, dict) and "counter" not in s:
        s = {
            "counter": old.get("counter") is True,
            "auto_pass": old.get("auto_pass") is not False,
            "next_difficulty": old.get("next_difficulty"),
            "settled": old.get("settled_deal") == s.get("deal_no"),
        }
    out: dict[str, Any] = {}
    for name, default in (("counter", False), ("auto", False), ("auto_pass", True), ("settled", False)):
        value = s.get(name, default)
        if not isinstance(value, bool):
            raise SaveError(SaveReason.FIELD, field=name, kind="bool")
        out[name] = value
    nd = s.get("next_difficulty")
    if nd is not None and not isinstance(nd, str):
        raise SaveError(SaveReason.FIELD, field="next_difficulty", kind="str")
    out["next_difficulty"] = nd
    level = s.get("auto_level")  # absent: 托管 at the table's difficulty
    if level is not None and level not in DIFFICULTIES:
        raise SaveError(SaveReason.FIELD, field="auto_level", kind="str")
    out["auto_level"] = level
    auto, auto_pass = out.pop("auto"), out.pop("auto_pass")
    out["auto_seats"] = frozenset({HUMAN} if auto else ())
    out["no_auto_pass"] = frozenset(() if auto_pass else {HUMAN})
    seats = s.get("seats")
    if seats is not None:
        out.update(_seats(seats))
    return out


def _seats(seats: Any) -> dict[str, Any]:
    """Who plays each seat of a table for friends (checked against the deal's size later)."""

    def numbers(name: str) -> list[int]:
        value = seats.get(name)
        if not isinstance(value, list) or not all(type(x) is int and 0 <= x < 4 for x in value):
            raise SaveError(SaveReason.FIELD, field=f"seats.{name}", kind="list")
        return value

    if not isinstance(seats, dict):
        raise SaveError(SaveReason.FIELD, field="seats", kind="dict")
    names = seats.get("names")
    if not isinstance(names, list) or not all(isinstance(x, str) and len(x) <= 64 for x in names):
        raise SaveError(SaveReason.FIELD, field="seats.names", kind="list")
    persons = seats.get("persons", [])  # absent in a save from before persons were kept
    if not isinstance(persons, list) or not all(isinstance(x, str) and len(x) <= 64 for x in persons):
        raise SaveError(SaveReason.FIELD, field="seats.persons", kind="list")
    return {
        "humans": tuple(sorted(set(numbers("humans")))),
        "names": tuple(names),
        "persons": tuple(persons),
        "auto_seats": frozenset(numbers("auto")),
        "no_auto_pass": frozenset(numbers("no_auto_pass")),
    }


def _typed(d: dict[str, Any], key: str, kind: type) -> Any:
    value = d.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(SaveReason.FIELD, field=key, kind=kind.__name__)
    return value


# -- files -----------------------------------------------------------------------------------


def load_save(path: Path) -> Session:
    """Read a save back, within bounds (``pdk.files.limits``): a save that is not a regular
    file, too big, too deeply nested or holding absurd numbers is a ``SaveError`` like any
    other unreadable save."""
    try:
        text = read_bounded(path, RECORD_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SaveError(SaveReason.CANNOT_READ, detail=detail) from None
    except LimitError as exc:
        raise SaveError(SaveReason.CANNOT_READ, detail=exc) from None
    return session_from_text(text)


def session_from_text(text: str) -> Session:
    """A save's JSON text (from a file or a store) read back within the same bounds."""
    try:
        check_length(text, RECORD_BYTES)
        data = loads_json(text)
    except LimitError as exc:
        raise SaveError(SaveReason.CANNOT_READ, detail=exc) from None
    except json.JSONDecodeError as exc:
        raise SaveError(SaveReason.JSON, line=exc.lineno, col=exc.colno) from None
    return session_from_dict(data)


def save_text(session: Session) -> str:
    """The one way a session becomes its save's text (files and stores alike)."""
    return json.dumps(session.to_dict(), ensure_ascii=False) + "\n"


@dataclass
class Slot:
    """One save file held for the life of the process (an advisory ``flock``)."""

    number: int
    path: Path
    _lock: IO[bytes] | None = None

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None


def save_path(data_dir: Path, number: int) -> Path:
    return data_dir / ("save.json" if number == 1 else f"save-{number}.json")


def claim_slot(data_dir: Path) -> Slot:
    """The first save slot no other running ``pdk play`` holds (slot 1 normally).

    Raises ``SaveError`` when every slot is busy.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    for number in range(1, MAX_SLOTS + 1):
        path = save_path(data_dir, number)
        lock = open(path.with_name(path.name + ".lock"), "ab")  # noqa: SIM115 (held open)
        if _try_lock(lock):
            # Temporary files of processes killed mid-write (records are cleared too).
            remove_stale_temps(data_dir)
            remove_stale_temps(data_dir / "records")
            return Slot(number, path, lock)
        lock.close()
    raise SaveError(SaveReason.SLOTS_BUSY, n=MAX_SLOTS, path=data_dir)


def _try_lock(f: IO[bytes]) -> bool:
    try:
        import fcntl
    except ImportError:  # not POSIX: no locking, slot 1 always
        return True
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


__all__ = [
    "HUMAN",
    "HUMAN_NAME",
    "SaveError",
    "SaveReason",
    "Session",
    "Slot",
    "atomic_write",
    "claim_slot",
    "load_save",
    "move_aside",
    "new_session",
    "save_text",
    "session_from_dict",
    "session_from_text",
]
