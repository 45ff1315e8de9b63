"""The tournament harness behind ``pdk selfplay``: bot against bot, at scale, reproducibly.

A *deal* is one shuffle (its seed derives from the run's seed and the deal's index only, so
deal 7 is the same deal whatever ``games`` or ``workers`` is). A *game* is that deal played
by one seat arrangement of the bots; ``duplicate`` plays every deal in every distinct
arrangement, so luck of the cards cancels out and a bot's pooled score measures its play.

Statistics are computed in the parent from small ``GameResult`` values that carry the game's
index, so they do not depend on which worker finished first. The module does no terminal
I/O; the CLI drives ``iter_games`` and renders the ``Summary``.

A bot is named by a level or a plug-in spec (``pdk.bots.make_bot``); tasks carry only that
name, so every worker builds its own bots. The built-in bots are trusted; a plug-in's every
answer is checked against the legal moves, and an illegal move or an exception in its
``choose`` stops the match with a ``MatchError`` naming the bot, the game and the deal.
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext, redirect_stdout
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from pdk.bots import BotSpecError, is_plugin, make_bot, one_line
from pdk.bots.base import Bot
from pdk.bots.checked import AnswerFault, BadAnswer, checked_choice, named
from pdk.bots.external import EngineError, ExternalBot
from pdk.engine import record as R
from pdk.engine.combos import Move
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.engine.movegen import BOMB
from pdk.engine.profile import Profile
from pdk.engine.state import GameState, PlayerView
from pdk.match.ratings import Duel, SprtSpec
from pdk.text.catalog import LocalizedError

if TYPE_CHECKING:
    from multiprocessing.pool import Pool


def arrangements(players: Sequence[str], duplicate: bool) -> list[tuple[str, ...]]:
    """The seat arrangements each deal is played in: the given one first, then (with
    ``duplicate``) every other distinct permutation, in a fixed order."""
    given = tuple(players)
    if not duplicate:
        return [given]
    out = [given]
    for perm in itertools.permutations(given):
        if perm not in out:
            out.append(perm)
    return out


class GameTask(NamedTuple):
    """Everything a worker needs to play one game; small, immutable and picklable. A named
    tuple, as ``GameResult``: a frozen dataclass sets each field through
    ``object.__setattr__``, and the two cost 1.5% of a random-bot match."""

    index: int  # type: ignore[assignment]  # the game's number; shadows tuple.index, which nothing calls
    deal_index: int
    arrangement_index: int
    seed: int
    bots: tuple[str, ...]
    keep_record: bool
    # Seconds a plug-in may think over one move (None: no limit); built-in bots are trusted.
    move_timeout: float | None = None
    # Seconds the hard bot's search may take over one move (None: its work budget alone).
    time_cap: float | None = None


class GameResult(NamedTuple):
    """One finished game, reduced to what the statistics need (plus the record, if kept)."""

    index: int  # type: ignore[assignment]  # as GameTask.index
    deal_index: int
    arrangement_index: int
    seed: int
    bots: tuple[str, ...]
    winner: int
    totals: tuple[int, ...]
    bombs: tuple[int, ...]
    shut_out: tuple[bool, ...]
    plays: tuple[int, ...]
    turns: int
    record: str | None = None


class MatchFault(Enum):
    """Why a match stopped; values are message keys."""

    GAME_FAILED = "match_game_failed"
    BOT_RAISED = "match_bot_raised"
    BOT_ILLEGAL = "match_bot_illegal"
    BOT_ILLEGAL_PASS = "match_bot_illegal_pass"
    BOT_BROKEN = "match_bot_broken"
    BOT_TIMEOUT = "match_bot_timeout"
    ENGINE = "match_engine"


class MatchError(LocalizedError, RuntimeError):
    """A game that could not be played or recorded (a bot or engine fault), named by its
    number and deal seed so it can be reproduced; the message is one line. ``cause`` is a
    plug-in's ``BotSpecError`` when its factory failed in the middle of a match."""

    reason: MatchFault

    def __init__(self, reason: MatchFault, cause: BotSpecError | None = None, /, **params: object) -> None:
        self.cause = cause
        super().__init__(reason, cause="" if cause is None else cause, **params)


def play_game(profile: Profile, task: GameTask) -> GameResult:
    """Play one game to the end: each bot chooses from its own seat's view only."""
    try:
        return _play(profile, task)
    except MatchError:
        raise
    except Exception as exc:
        # Crossing a process boundary and reaching the user as one line: keep it simple.
        raise MatchError(
            MatchFault.GAME_FAILED,
            game=str(task.index + 1),
            seed=str(task.seed),
            bots=",".join(task.bots),
            error=one_line(exc),
        ) from None


def _play(profile: Profile, task: GameTask) -> GameResult:
    state = GameState(profile, deal(profile, task.seed))
    plugins = [is_plugin(name) for name in task.bots]
    view, step = state.view, state.step
    # A plug-in's prints (built or playing) go to stderr: stdout is the --json summary's.
    with redirect_stdout(sys.stderr) if any(plugins) else nullcontext():
        bots = [_build(task, seat, name) for seat, name in enumerate(task.bots)]
        choosers = [
            _checked(bot, task) if plugin else bot.choose for bot, plugin in zip(bots, plugins, strict=True)
        ]
        # A built-in bot that decides from the legal plays alone gets them without a view.
        among = [
            None if plugin else getattr(bot, "choose_among", None)
            for bot, plugin in zip(bots, plugins, strict=True)
        ]
        legal_moves, can_pass = state.legal_moves, state.can_pass
        while not state.done:
            seat = state.turn
            fast = among[seat]
            if fast is not None:
                moves = legal_moves()
                step(fast(moves, can_pass(moves)))
            else:
                # The view carries the legal plays, generated once for the bot and the check.
                step(choosers[seat](view(seat)))
        if any(plugins):
            _tell_deal_over(state, bots, task)
    n = profile.players
    bombs = [0] * n
    plays = [0] * n
    for seat, play in state.history:
        if play is not None:
            plays[seat] += 1
            if play[1] == BOMB:  # its kind
                bombs[seat] += 1
    st = state.settlement()
    text = None
    if task.keep_record:
        rec = R.GameRecord.of(
            state,
            task.seed,
            source="selfplay",
            bots=list(task.bots),
            game=task.index + 1,
            deal=task.deal_index + 1,
            arrangement=task.arrangement_index + 1,
            **({} if task.time_cap is None else {"time_cap": task.time_cap}),
        )
        text = R.dumps(rec)
    return GameResult(
        index=task.index,
        deal_index=task.deal_index,
        arrangement_index=task.arrangement_index,
        seed=task.seed,
        bots=task.bots,
        winner=st.winner,
        totals=st.totals,
        bombs=tuple(bombs),
        shut_out=tuple(s.shut_out for s in st.seats),
        plays=tuple(plays),
        turns=len(state.history),
        record=text,
    )


def _tell_deal_over(state: GameState, bots: Sequence[Bot], task: GameTask) -> None:
    """An outside engine hears the deal's last actions and its result (``deal_over``)."""
    st = state.settlement()
    for seat, bot in enumerate(bots):
        if isinstance(bot, ExternalBot):
            try:
                bot.deal_over(state.view(seat), st.winner, st.totals)
            except EngineError as exc:
                raise _engine_failed(exc, task, seat, len(state.history)) from None


def _engine_failed(exc: EngineError, task: GameTask, seat: int, move: int) -> MatchError:
    return MatchError(
        MatchFault.ENGINE,
        bot=exc.engine,
        game=str(task.index + 1),
        deal=str(task.deal_index + 1),
        seed=str(task.seed),
        seat=str(seat),
        move=str(move),
        error=exc.detail(),
    )


def _build(task: GameTask, seat: int, name: str) -> Bot:
    try:
        return make_bot(name, bot_seed(task.seed, seat), task.time_cap)
    except BotSpecError as exc:
        raise MatchError(
            MatchFault.BOT_BROKEN, exc, game=str(task.index + 1), seed=str(task.seed), seat=str(seat)
        ) from None


_FAULTS = {
    AnswerFault.RAISED: MatchFault.BOT_RAISED,
    AnswerFault.ILLEGAL: MatchFault.BOT_ILLEGAL,
    AnswerFault.ILLEGAL_PASS: MatchFault.BOT_ILLEGAL_PASS,
    AnswerFault.TIMEOUT: MatchFault.BOT_TIMEOUT,
}


def _checked(bot: Bot, task: GameTask) -> Callable[[PlayerView], Move | None]:
    """A plug-in's ``choose`` through the one checked path (``pdk.bots.checked``): its
    exceptions, illegal moves and overtime stop the match before reaching the game state."""

    def choose(view: PlayerView) -> Move | None:
        try:
            return checked_choice(bot, view, task.move_timeout)
        except EngineError as exc:
            raise _engine_failed(exc, task, view.seat, len(view.history) + 1) from None
        except BadAnswer as bad:
            raise MatchError(
                _FAULTS[bad.fault],
                bot=named(bot, task.bots[view.seat]),
                game=str(task.index + 1),
                deal=str(task.deal_index + 1),
                seed=str(task.seed),
                seat=str(view.seat),
                # The move refused, or for overtime which move of the deal it was.
                move=bad.detail if bad.fault is AnswerFault.ILLEGAL else str(len(view.history) + 1),
                error=bad.detail,
                n=str(bad.legal),
                limit=f"{task.move_timeout:g}" if task.move_timeout else "",
            ) from None

    return choose


def iter_tasks(
    players: Sequence[str],
    games: int,
    seed: int,
    duplicate: bool = False,
    keep_records: bool = False,
    move_timeout: float | None = None,
    time_cap: float | None = None,
) -> Iterator[GameTask]:
    """Games in a fixed order: deal by deal, each deal's arrangements together. Lazy, so a
    run of a million deals costs no memory up front."""
    arr = arrangements(players, duplicate)
    index = 0
    for d in range(games):
        s = deal_seed(seed, d)
        for a, bots in enumerate(arr):
            yield GameTask(index, d, a, s, bots, keep_records, move_timeout, time_cap)
            index += 1


def make_tasks(
    players: Sequence[str], games: int, seed: int, duplicate: bool = False, keep_records: bool = False
) -> list[GameTask]:
    return list(iter_tasks(players, games, seed, duplicate, keep_records))


# -- running, in-process or over a pool ------------------------------------------------------

_worker_profile: Profile | None = None


def _init_worker(profile: Profile) -> None:
    # Ctrl-C is the parent's to handle: workers ignore it so they never print tracebacks;
    # the parent terminates them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_profile
    _worker_profile = profile


def _run_task(task: GameTask) -> GameResult:
    assert _worker_profile is not None
    return play_game(_worker_profile, task)


def default_workers() -> int:
    return os.cpu_count() or 1


def iter_games(
    profile: Profile, tasks: Iterable[GameTask], workers: int = 1
) -> Generator[GameResult, None, None]:
    """Yield results as games finish (not necessarily in index order when ``workers > 1``).

    The worker processes start here, before the caller starts any thread of its own (a
    progress bar), since forking a process that runs threads is unsafe. Closing the
    generator early (or a KeyboardInterrupt in the consumer) terminates the pool.
    """
    if workers <= 1:
        return (play_game(profile, task) for task in tasks)
    import multiprocessing  # here: every pdk command would pay for the import otherwise

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    pool = ctx.Pool(workers, initializer=_init_worker, initargs=(profile,))
    return _pooled(pool, tasks)


def _pooled(pool: Pool, tasks: Iterable[GameTask]) -> Generator[GameResult, None, None]:
    try:
        # Small chunks: results stream back steadily for the progress bar and --out, and an
        # interruption loses little work.
        yield from pool.imap_unordered(_run_task, tasks, chunksize=2)
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def run_match(
    profile: Profile,
    players: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    duplicate: bool = False,
    workers: int = 1,
    keep_records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play a whole match and return the results in game order."""
    tasks = make_tasks(players, games, seed, duplicate, keep_records)
    results = []
    for res in iter_games(profile, tasks, workers):
        results.append(res)
        if on_result is not None:
            on_result(res)
    results.sort(key=lambda r: r.index)
    return results


# -- statistics ----------------------------------------------------------------------------


def t_quantile_975(df: int) -> float:
    """Two-sided 95% Student-t critical value (Cornish-Fisher expansion about 1.96; within
    0.1% of the exact value for df >= 3, and exact table values below)."""
    small = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}
    if df in small:
        return small[df]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean and its 95% confidence interval (Student t); no interval below 2 samples."""
    n = len(values)
    if n == 0:
        return 0.0, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, _ci95(mean, var, n)


def _ci95(mean: float, var: float, n: int) -> tuple[float, float]:
    """The 95% interval of a mean of ``n >= 2`` samples with sample variance ``var``."""
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return mean - half, mean + half


@dataclass(slots=True)
class _Unit:
    """One deal's contribution to a line while its games are still arriving."""

    total: float = 0.0
    values: int = 0
    games: int = 0


@dataclass(slots=True)
class Line:
    """One row of the summary: a seat of the given arrangement, or a bot pooled over seats.

    Scores are sampled once per *deal*: the mean over this bot's seats in every arrangement
    of it. Samples from the same deal are correlated, so pooling them into one is what makes
    the duplicate interval honest. ``games_per_deal`` says when a deal's sample is complete;
    complete samples are folded into a running mean and variance (Welford), so memory does
    not grow with the number of deals.
    """

    bot: str
    seat: int | None
    games_per_deal: int = 1
    spec: str | None = None  # a plug-in's spec in ``--players``, when ``bot`` is its name
    deals: int = 0
    wins: int = 0
    bombs: int = 0
    shut_outs: int = 0
    plays: int = 0
    score_mean: float = 0.0
    ci95: tuple[float, float] | None = None
    _pending: dict[int, _Unit] = field(default_factory=dict, repr=False)
    _n: int = 0
    _mean: float = 0.0
    _m2: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def plays_per_deal(self) -> float:
        return self.plays / self.deals if self.deals else 0.0

    def add(self, res: GameResult, seats: Sequence[int]) -> None:
        """Count one game in which this line's bot sat in ``seats``."""
        total = 0
        for seat in seats:
            self.deals += 1
            self.wins += res.winner == seat
            self.bombs += res.bombs[seat]
            self.shut_outs += res.shut_out[seat]
            self.plays += res.plays[seat]
            total += res.totals[seat]
        if self.games_per_deal == 1:  # the deal is complete: no pending unit to keep
            if seats:
                self._fold_value(total / len(seats))
            return
        unit = self._pending.setdefault(res.deal_index, _Unit())
        unit.total += total
        unit.values += len(seats)
        unit.games += 1
        if unit.games >= self.games_per_deal:
            self._fold(self._pending.pop(res.deal_index))

    def _fold(self, unit: _Unit) -> None:
        if unit.values:
            self._fold_value(unit.total / unit.values)

    def _fold_value(self, x: float) -> None:
        self._n += 1
        delta = x - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (x - self._mean)

    def finish(self) -> None:
        """Fold the deals cut short by an interruption and compute mean and interval."""
        for key in sorted(self._pending):
            self._fold(self._pending.pop(key))
        self.score_mean = self._mean if self._n else 0.0
        if self._n < 2:
            self.ci95 = None
            return
        self.ci95 = _ci95(self._mean, self._m2 / (self._n - 1), self._n)

    def to_json(self) -> dict[str, Any]:
        ci = [round(self.ci95[0], 4), round(self.ci95[1], 4)] if self.ci95 else None
        out: dict[str, Any] = {}
        if self.seat is not None:
            out["seat"] = self.seat
        out["bot"] = self.bot
        if self.spec is not None:
            out["spec"] = self.spec
        out.update(
            deals=self.deals,
            wins=self.wins,
            win_rate=round(self.win_rate, 4),
            score_mean=round(self.score_mean, 4),
            ci95=ci,
            bombs=self.bombs,
            shut_outs=self.shut_outs,
            plays_per_deal=round(self.plays_per_deal, 3),
        )
        return out


@dataclass(slots=True)
class Summary:
    """What a match showed: per seat of the given arrangement, and pooled per bot."""

    players: tuple[str, ...]
    games_planned: int
    games: int
    deals: int
    arrangements: int
    seats: list[Line]
    bots: list[Line]
    seconds: float = 0.0
    interrupted: bool = False
    # Two bots: the first's Elo against the second (and the SPRT, if one was asked for).
    duel: Duel | None = None

    @property
    def deals_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` summary. ``games`` counts deals, as ``--games`` does; with
        ``--duplicate`` each was played ``arrangements`` times, ``games_played`` in all."""
        return {
            "games": self.deals,
            "games_planned": self.games_planned // max(1, self.arrangements),
            "arrangements": self.arrangements,
            "games_played": self.games,
            "interrupted": self.interrupted,
            "players": [line.to_json() for line in self.seats],
            "bots": [line.to_json() for line in self.bots],
            "deals_per_s": round(self.deals_per_s, 2),
            "seconds": round(self.seconds, 3),
            **({"elo": self.duel.to_json()} if self.duel is not None else {}),
        }


class Tally:
    """Statistics accumulated game by game, in any order of arrival: per-seat lines count
    only the games played in the arrangement given (the first); pooled bot lines count every
    seat a bot sat in. ``labels`` maps a plug-in spec to the name to show for it."""

    def __init__(
        self,
        players: Sequence[str],
        duplicate: bool = False,
        labels: Mapping[str, str] | None = None,
        sprt: SprtSpec | None = None,
    ) -> None:
        self.players = tuple(players)
        self.arrangements = len(arrangements(players, duplicate))
        names = list(dict.fromkeys(self.players))
        self.duel = Duel(names[0], names[1], self.arrangements, sprt) if len(names) == 2 else None
        shown = _labels(self.players, labels or {})
        self.seats = [Line(shown[name][0], i, spec=shown[name][1]) for i, name in enumerate(self.players)]
        self.pooled: dict[str, Line] = {}
        for name in self.players:
            bot, spec = shown[name]
            self.pooled.setdefault(name, Line(bot, None, games_per_deal=self.arrangements, spec=spec))
        self.games = 0
        self.deals = 0
        self._open: dict[int, int] = {}  # deal index -> games still to come

    def add(self, res: GameResult) -> None:
        self.games += 1
        if self.arrangements == 1:  # every game is a deal of its own
            self.deals += 1
        else:
            if res.deal_index not in self._open:
                self.deals += 1
                self._open[res.deal_index] = self.arrangements
            self._open[res.deal_index] -= 1
            if not self._open[res.deal_index]:
                del self._open[res.deal_index]
        if res.arrangement_index == 0:
            for seat, line in enumerate(self.seats):
                line.add(res, [seat])
        for name, line in self.pooled.items():
            line.add(res, [seat for seat, bot in enumerate(res.bots) if bot == name])
        if self.duel is not None:
            self.duel.add(res.deal_index, res.bots, res.totals)

    def summary(
        self, *, games_planned: int | None = None, seconds: float = 0.0, interrupted: bool = False
    ) -> Summary:
        for line in [*self.seats, *self.pooled.values()]:
            line.finish()
        return Summary(
            players=self.players,
            games_planned=games_planned if games_planned is not None else self.games,
            games=self.games,
            deals=self.deals,
            arrangements=self.arrangements,
            seats=self.seats,
            bots=list(self.pooled.values()),
            seconds=seconds,
            interrupted=interrupted,
            duel=self.duel,
        )


def _labels(players: Sequence[str], labels: Mapping[str, str]) -> dict[str, tuple[str, str | None]]:
    """(bot, spec) of each player's lines: a plug-in shows by its label where that names one
    player; two plug-ins both called "greedy", or one called "normal", show as
    ``greedy (spec)``."""
    out: dict[str, tuple[str, str | None]] = {}
    names = set(players)
    for name in names:
        label = labels.get(name, name)
        if label == name:
            out[name] = (name, None)
            continue
        clash = label in names or any(labels.get(o, o) == label for o in names - {name})
        out[name] = (f"{label} ({name})" if clash else label, name)
    return out


def summarize(
    players: Sequence[str],
    results: Iterable[GameResult],
    *,
    duplicate: bool | None = None,
    games_planned: int | None = None,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> Summary:
    """Statistics over finished games (see ``Tally``)."""
    results = list(results)
    if duplicate is None:
        duplicate = any(r.arrangement_index for r in results)
    tally = Tally(players, duplicate)
    for res in results:
        tally.add(res)
    return tally.summary(games_planned=games_planned, seconds=seconds, interrupted=interrupted)


__all__ = [
    "GameResult",
    "GameTask",
    "Line",
    "MatchError",
    "MatchFault",
    "Summary",
    "Tally",
    "arrangements",
    "default_workers",
    "iter_games",
    "iter_tasks",
    "make_tasks",
    "mean_ci",
    "play_game",
    "run_match",
    "summarize",
]
