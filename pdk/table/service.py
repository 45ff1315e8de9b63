"""One table, run for one seat: the seat's commands in, what happened and what it sees out.

``pdk play`` and ``pdk serve`` are input and output over this service; neither drives the
game itself. A command (play typed text or chosen cards, pass, step the machine, next deal,
托管, auto-pass, counter, difficulty, hint) names the move number it answers (``seq``, the
length of the deal's history), so a command sent twice, or for a table another process
moved on, is refused and changes nothing.

The save is the one source of truth. Each change is computed on a copy of the session,
the deal is settled and archived (record, then history row) when it ends, the copy is
saved with the version it started from (``pdk.store.contract``), and only then is it swapped in
and the reply given. A failed write (``StoreUnavailable``) applies nothing and the next
command works once the disk is back; a version moved on (``VersionConflict``) reloads the
table from the store and refuses the command as stale. A deal is marked settled only in
the save written after its record and history row, so it is settled and archived once.

The machine's turns are the bots' seats, and the player's seat while 托管 is on or when
要不起 auto-pass applies: ``machine_turn`` says so, ``step`` plays one such move, each face
at its own pace. Bots are rebuilt for every move from a seed derived from the deal seed
and the seat, so a reloaded table continues exactly as it would have.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from pdk.bots import DIFFICULTIES
from pdk.bots.hints import Hint, advice, hint_list, known, table_budget
from pdk.engine.events import Event
from pdk.engine.notation import chosen_play, typed_play
from pdk.engine.position import Play
from pdk.engine.profile import Profile
from pdk.engine.record import AUTO, GameRecord, RecordError
from pdk.engine.state import PlayerView
from pdk.store.contract import Store, StoreUnavailable, VersionConflict, Write
from pdk.table.archive import archive_deal, record_path
from pdk.table.history import History
from pdk.table.session import HUMAN, SaveError, Session, save_text, session_from_text
from pdk.text.catalog import LocalizedError, Said
from pdk.view.table_model import PlayModel, TableModel, hint_reason, move_play, play_model, table_model


class TableReason(Enum):
    """Why a command is refused; values are message keys (pdk/text/messages/web.py)."""

    STALE = "web_stale"
    NOT_YOUR_TURN = "web_not_your_turn"
    NOT_BOTS_TURN = "web_not_bots_turn"
    NOT_OVER = "web_not_over"
    OVER = "web_over"


class TableRefused(LocalizedError, ValueError):
    reason: TableReason


@dataclass(frozen=True)
class SeatTable:
    """The seat's table at one version: everything a face shows, taken under the lock."""

    key: str
    version: int
    seq: int
    deal_no: int
    difficulty: str
    next_difficulty: str
    totals: tuple[int, ...]
    settled: bool
    bot_turn: bool  # a bot's seat is to move
    machine_turn: bool  # ``step`` would move now (a bot, 托管, or 要不起 auto-pass)
    auto_pass: bool
    counter: bool
    model: TableModel
    seat: int | None = HUMAN  # whose table this is (None: a spectator's)
    auto_seats: tuple[int, ...] = ()  # every seat in 托管 (shown to all)
    turn: int | None = None  # the seat to move (None once the deal is over)
    humans: tuple[int, ...] = (HUMAN,)  # the seats people play (the others are bots)
    deals_done: int = 0  # deals settled at this table
    record: Path | None = None  # where the deal's record is kept, once it is over (None: elsewhere)
    auto_level: str | None = None  # the level 托管 plays at (None: the table's difficulty)

    # Whether the deal is over and who is in 托管 are the model's to say (``TableModel``:
    # its task, its seats); these read it, so no second copy can disagree.
    @property
    def over(self) -> bool:
        return self.model.task.kind == "over"

    @property
    def auto(self) -> bool:
        """This seat is in 托管 (a spectator's table: never)."""
        return self.seat is not None and self.model.seat(self.seat).auto

    @property
    def session_total(self) -> int:
        return 0 if self.seat is None else self.totals[self.seat]


@dataclass(frozen=True)
class Reply:
    """What a command made happen (the engine's events, in order) and the table after it."""

    events: tuple[Event, ...]
    table: SeatTable


@dataclass(frozen=True)
class HintShown:
    """The hint a press of 'hint' shows: the ``index``-th of ``count`` (cycling), its cards
    (``cards``, in notation, to send back as a play) and why it is offered."""

    index: int
    count: int
    hint: Hint
    play: PlayModel
    cards: tuple[str, ...]
    reason: Said


@dataclass(frozen=True)
class Archive:
    """Where finished deals are kept: the records folder and the history ``pdk stats`` reads."""

    records: Path
    history: History

    def keep(self, session: Session) -> Path:
        """The deal's record, then its history row; ``StoreUnavailable`` if either fails
        (both are fixed by the deal, so writing them again after a failure is harmless)."""
        try:
            return archive_deal(session, session.state.settlement(), self.records, self.history)
        except (OSError, sqlite3.Error) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise StoreUnavailable(detail) from None
        except RecordError as exc:
            raise StoreUnavailable(exc.message()) from None

    def path(self, session: Session) -> Path:
        return record_path(session, self.records)


Change = Callable[[Session], tuple[Event, ...]]


@dataclass
class TableService:
    """One table kept under ``key`` in ``store``, played from the human seat."""

    store: Store
    key: str
    archive: Archive
    session: Session
    version: int
    hints: bool = True  # the model carries the ranked hints (the page shows them)
    # The model carries only hints already searched (``hints_pending`` otherwise) and the
    # face asks for them with ``search_hints``: the browser table, where a build of the
    # snapshot must never wait on a search (a hint's p99 was 3.1 s; issue 37).
    lazy_hints: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    # The hints on show: for which (version, seq), the index shown, the list.
    _hint: tuple[tuple[int, int], int, list[Hint]] = field(default=((-1, -1), -1, []))
    # The table last shown, and for which (version, seat): a face asking again before
    # anything moved (the page's ``/step`` on the answer it just had) is not built twice.
    _shown: tuple[tuple[int, int | None], SeatTable] | None = None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        key: str,
        archive: Archive,
        session: Session,
        *,
        hints: bool = True,
        along: tuple[Write, ...] = (),
    ) -> TableService:
        """A new table, saved before it is handed out (``VersionConflict`` if ``key`` exists);
        ``along``: saves made in the same write (a room's phase, which must never say
        "waiting" over a dealt table)."""
        if along:
            store.save_all([Write(key, save_text(session), 1, None), *along])
        else:
            store.save(key, save_text(session), 1, None)
        return cls(store, key, archive, session, 1, hints)

    @classmethod
    def open(cls, store: Store, key: str, archive: Archive, *, hints: bool = True) -> TableService | None:
        """The table saved under ``key``, or None. ``SaveError`` when the save does not read
        back (every play of its deal is re-checked); ``StoreUnavailable`` when the store
        cannot be read."""
        stored = store.load(key)
        if stored is None:
            return None
        table = cls(store, key, archive, session_from_text(stored.data), stored.version, hints)
        table.settle_pending()
        return table

    @classmethod
    def adopt(
        cls, store: Store, key: str, archive: Archive, session: Session, *, hints: bool = True
    ) -> tuple[TableService, str | None]:
        """``session`` as the table under ``key`` from now on, whatever was saved there (a
        game resumed, or a new one over an old save): the table, and why it could not be
        written if it could not (the table then acts only once the store is back)."""
        try:
            stored = store.load(key)
        except StoreUnavailable as exc:
            return cls(store, key, archive, session, 0, hints), exc.detail
        current = None if stored is None else stored.version
        table = cls(store, key, archive, session, current or 0, hints)
        try:
            store.save(key, save_text(session), (current or 0) + 1, current)
        except StoreUnavailable as exc:
            return table, exc.detail
        table.version = (current or 0) + 1
        try:
            table.settle_pending()
        except StoreUnavailable as exc:
            return table, exc.detail
        return table, None

    def settle_pending(self) -> None:
        """A deal that ended in a save written before the archive was (a save of an older
        pdk, or a crash between the two): archived and settled now, once. If another
        process saved the table first (several workers opening it at once), its copy is
        the one read back (its record and history row are the same facts, counted once)."""
        with self.lock:
            if self.session.state.over and not self.session.settled:
                with contextlib.suppress(TableRefused):
                    self._commit(None, lambda s: ())

    # -- reading ---------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.session.state.history)

    # What a room (a service above the table) asks of the deal on it, so that no caller
    # outside this package reads the session itself.

    @property
    def profile(self) -> Profile:
        """The rules this table plays (its own house rules, or the server's)."""
        return self.session.profile

    @property
    def humans(self) -> frozenset[int]:
        """The seats people play this deal (the rest are computers)."""
        return frozenset(self.session.humans)

    @property
    def in_play(self) -> bool:
        """The deal on the table is still being played."""
        return not self.session.state.over

    @property
    def settled(self) -> bool:
        """The deal on the table is over and its scores are counted."""
        return self.session.settled

    @property
    def deals_done(self) -> int:
        """How many deals this table has settled."""
        return self.session.deals_done

    def deal_scores(self) -> tuple[int, ...]:
        """Each seat's points in the deal on the table (it must be over)."""
        return tuple(self.session.state.settlement().totals)

    def auto_plays(self, seat: int) -> tuple[tuple[int, Play | None], ...]:
        """``seat``'s plays of this deal that 托管 made for it (play number, play; None a
        pass): what a person coming back is told was played in their name."""
        with self.lock:
            history = self.session.state.history
            return tuple(
                (n, history[n - 1].play)
                for n, by in sorted(self.session.made_by.items())
                if by == AUTO and n <= len(history) and history[n - 1].seat == seat
            )

    def snapshot(self, seat: int | None = HUMAN) -> SeatTable:
        """The seat's table now (a consistent snapshot: built under the table's lock);
        ``seat=None`` is a spectator's, with no hand."""
        with self.lock:
            if self._shown is not None and self._shown[0] == (self.version, seat):
                return self._shown[1]
            return self._seat_table(self.session, self.version, seat)

    def finished(self) -> GameRecord | None:
        """The deal's record once it is over (every hand face up, so a face may show it only
        then), None while it is played."""
        with self.lock:
            return self.session.record() if self.session.state.over else None

    def turn_view(self, seat: int = HUMAN) -> tuple[int, PlayerView, int] | None:
        """What ``seat`` may see on its turn, with the move number and the deal's seed (what
        an analysis of its options needs); None when it is not that seat's turn."""
        with self.lock:
            state = self.session.state
            if state.over or state.turn != seat:
                return None
            return self.seq, state.view(seat), self.session.seed

    def reply(self, seat: int = HUMAN) -> Reply:
        return Reply((), self.snapshot(seat))

    def refresh(self) -> None:
        """Read the table back from the store if another process moved it on."""
        with self.lock:
            stored = self.store.load(self.key)
            if stored is not None and stored.version != self.version:
                self.session, self.version = session_from_text(stored.data), stored.version

    # -- the seat's commands ---------------------------------------------------------------

    def play_text(self, seq: int, text: str, seat: int = HUMAN) -> Reply:
        """A play as the player typed it (``334455``, ``3-7``, ``10 J Q``, ``3s``):
        ``InputError`` when it cannot be read, ``IllegalPlay`` when the rules refuse it."""

        def change(s: Session) -> tuple[Event, ...]:
            _human_turn(s, seat)
            return s.state.act(typed_play(text, s.state.position()))[1]

        return self._commit(seq, change, seat)

    def play_cards(self, seq: int, cards: Sequence[str], seat: int = HUMAN) -> Reply:
        """A play as the cards the player picked (``["3s", "4h"]``, or ranks alone)."""

        def change(s: Session) -> tuple[Event, ...]:
            _human_turn(s, seat)
            return s.state.act(chosen_play(cards, s.state.position()))[1]

        return self._commit(seq, change, seat)

    def pass_turn(self, seq: int, seat: int = HUMAN) -> Reply:
        def change(s: Session) -> tuple[Event, ...]:
            _human_turn(s, seat)
            return s.state.act(None)[1]

        return self._commit(seq, change, seat)

    def step(self, seq: int, seat: int | None = HUMAN) -> Reply:
        """One move of the machine: the bot to move, or a person's seat under 托管, or
        要不起 (nothing beats and auto-pass is on). Refused when it is a person's to make.
        The reply is ``seat``'s table."""

        def change(s: Session) -> tuple[Event, ...]:
            if s.state.over:
                raise TableRefused(TableReason.OVER)
            turn = s.state.turn
            if turn not in s.humans:
                return s.state.act_move(s.bot_move())[1]
            if turn in s.auto_seats:
                return s.play_auto()
            if _nothing_beats(s):
                return s.pass_auto()
            raise TableRefused(TableReason.NOT_BOTS_TURN)

        return self._commit(seq, change, seat)

    def auto_move(self, seq: int, seat: int = HUMAN) -> Reply:
        """托管 for one move: the player's seat played as the table's bots would."""

        def change(s: Session) -> tuple[Event, ...]:
            _human_turn(s, seat)
            return s.play_auto()

        return self._commit(seq, change, seat)

    def next_deal(
        self,
        seq: int,
        seat: int | None = HUMAN,
        humans: tuple[int, ...] | None = None,
        names: tuple[str, ...] | None = None,
        persons: tuple[str, ...] | None = None,
        fresh: bool = False,
    ) -> Reply:
        """The next deal; ``humans``, ``names`` and ``persons`` change who plays which seat
        from it on (a table for friends: the seats taken by then, under the names they have
        now, by the persons who hold them). ``fresh``: a rematch, the totals from nothing."""

        def change(s: Session) -> tuple[Event, ...]:
            if not s.state.over:
                raise TableRefused(TableReason.NOT_OVER)
            s.next_deal()
            if fresh:
                s.totals = [0] * len(s.totals)
                s.deals_done = 0
            if humans is not None:
                s.humans = humans
            if names is not None:
                s.names = names
            if persons is not None:
                s.persons = persons
            return ()

        return self._commit(seq, change, seat)

    def set_auto(self, on: bool, seq: int | None = None, seat: int = HUMAN) -> Reply:
        """托管 on or off (it ends with the deal)."""

        def change(s: Session) -> tuple[Event, ...]:
            s.set_auto(seat, on and not s.state.over)
            return ()

        return self._commit(seq, change, seat)

    def set_auto_pass(self, on: bool, seq: int | None = None, seat: int = HUMAN) -> Reply:
        def change(s: Session) -> tuple[Event, ...]:
            s.set_auto_pass(seat, on)
            return ()

        return self._commit(seq, change, seat)

    def set_counter(self, on: bool, seq: int | None = None) -> Reply:
        def change(s: Session) -> tuple[Event, ...]:
            s.counter = on
            return ()

        return self._commit(seq, change)

    def set_difficulty(self, difficulty: str, seq: int | None = None) -> Reply:
        """The bots' level: for this deal while no computer player has moved in it yet
        (nothing they did is then played at another level), else from the next deal on (a
        deal's bots never change once they have moved, so its record and history row name
        the bots that played it)."""
        if difficulty not in DIFFICULTIES:
            raise ValueError(difficulty)

        def change(s: Session) -> tuple[Event, ...]:
            state = s.state
            if not state.over and all(a.seat in s.humans for a in state.history):
                s.difficulty, s.next_difficulty = difficulty, None
            else:
                s.next_difficulty = difficulty
            return ()

        return self._commit(seq, change)

    def set_auto_level(self, level: str | None, seq: int | None = None) -> Reply:
        """The level 托管 plays at (None: the table's difficulty)."""
        if level is not None and level not in DIFFICULTIES:
            raise ValueError(level)

        def change(s: Session) -> tuple[Event, ...]:
            s.auto_level = level
            return ()

        return self._commit(seq, change)

    def hint(self, seq: int, seat: int = HUMAN) -> HintShown | None:
        """The next of the seat's hints, best first (``pdk.bots.hints``; repeated presses cycle);
        None when nothing can be played. Changes nothing."""
        with self.lock:
            if seq != self.seq:
                raise TableRefused(TableReason.STALE, seq=seq, now=self.seq)
            _human_turn(self.session, seat)
            view = self.session.state.view(seat)
            at, index, moves = self._hint
            if at != (self.version, seq):
                budget = table_budget(self.session.difficulty)
                at, index, moves = (self.version, seq), -1, hint_list(view, budget)
            if not moves:
                self._hint = (at, index, moves)
                return None
            index = (index + 1) % len(moves)
            self._hint = (at, index, moves)
            h = moves[index]
            play = move_play(view, h.move)
            model = play_model(play)
            return HintShown(index, len(moves), h, model, model.cards, hint_reason(h))

    def search_hints(self, seq: int, seat: int = HUMAN) -> tuple[Reply, float]:
        """The seat's hints searched (``pdk.bots.hints.advice`` at the table's budget), and
        the table drawn again with them, with the search's process seconds (0 when they
        were known). The search runs outside the table's lock: moves of other seats (a
        spectator's poll, a bot's step) are never held up by it. ``TableRefused`` (STALE)
        when the table moved past ``seq``."""
        with self.lock:
            if seq != self.seq:
                raise TableRefused(TableReason.STALE, seq=seq, now=self.seq)
            _human_turn(self.session, seat)
            view = self.session.state.view(seat)
            budget = table_budget(self.session.difficulty)
        took = 0.0
        if known(view, budget) is None:
            start = time.process_time()
            advice(view, budget)
            took = time.process_time() - start
        with self.lock:
            self._shown = None  # drawn before the search: without the hints
            return self.reply(seat), took

    # -- the one way a table changes -------------------------------------------------------

    def _commit(self, seq: int | None, change: Change, seat: int | None = HUMAN) -> Reply:
        with self.lock:
            if seq is not None and seq != self.seq:
                raise TableRefused(TableReason.STALE, seq=seq, now=self.seq)
            draft = self.session.copy()
            events = change(draft)  # IllegalPlay, InputError, TableRefused: nothing changed
            if draft.state.over and not draft.settled:
                self.archive.keep(draft)
                draft.settle()
                draft.auto_seats = frozenset()
            try:
                self.store.save(self.key, save_text(draft), self.version + 1, self.version)
            except VersionConflict:
                self._reload()
                raise TableRefused(TableReason.STALE, seq=-1 if seq is None else seq, now=self.seq) from None
            self.session, self.version = draft, self.version + 1
            return Reply(events, self._seat_table(draft, self.version, seat))

    def _reload(self) -> None:
        stored = self.store.load(self.key)
        if stored is None:
            return
        try:
            self.session, self.version = session_from_text(stored.data), stored.version
        except SaveError as exc:
            raise StoreUnavailable(exc.message()) from None

    def _seat_table(self, s: Session, version: int, seat: int | None) -> SeatTable:
        shown = self._build(s, version, seat)
        if s is self.session and version == self.version:
            self._shown = ((version, seat), shown)
        return shown

    def _build(self, s: Session, version: int, seat: int | None) -> SeatTable:
        state = s.state
        over = state.over
        model = table_model(
            state.view(HUMAN if seat is None else seat),
            None if over else state.turn,
            settlement=state.settlement() if over else None,
            totals=s.totals if over else None,
            auto=s.auto_seats,
            hints_for_viewer=self.hints,
            hint_budget=table_budget(s.difficulty),
            lazy_hints=self.lazy_hints,
            deal_no=s.deal_no,
            difficulty=s.difficulty,
            variant=s.variant,
            hands=state.hands if over else None,  # every seat's, face up once the deal is over
            watching=seat is None,
        )
        bot = not over and state.turn not in s.humans
        return SeatTable(
            key=self.key,
            version=version,
            seq=len(state.history),
            deal_no=s.deal_no,
            difficulty=s.difficulty,
            next_difficulty=s.next_difficulty if s.next_difficulty in DIFFICULTIES else s.difficulty,
            totals=tuple(s.totals),
            settled=s.settled,
            bot_turn=bot,
            machine_turn=bot or (not over and (state.turn in s.auto_seats or _nothing_beats(s))),
            auto_pass=seat not in s.no_auto_pass,
            counter=s.counter,
            model=model,
            seat=seat,
            auto_seats=tuple(sorted(s.auto_seats)),
            turn=None if over else state.turn,
            auto_level=s.auto_level,
            humans=s.humans,
            deals_done=s.deals_done,
            record=self.archive.path(s) if over else None,
        )


def _human_turn(s: Session, seat: int) -> None:
    if s.state.over:
        raise TableRefused(TableReason.OVER)
    if s.state.turn != seat or seat not in s.humans:
        raise TableRefused(TableReason.NOT_YOUR_TURN)


def _nothing_beats(s: Session) -> bool:
    """要不起 with auto-pass on: a person's turn, a play to beat, and no legal play."""
    st = s.state
    turn = st.turn
    return turn in s.humans and turn not in s.no_auto_pass and st.prev is not None and not st.legal_moves()


__all__ = [
    "Archive",
    "HintShown",
    "Reply",
    "SeatTable",
    "TableReason",
    "TableRefused",
    "TableService",
]
