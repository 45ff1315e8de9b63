"""The conformance session behind ``pdk engine check``: does an engine speak the protocol?

It runs the engine through a scripted session and lists every mistake, each with the check
it broke and where (the deal and move), rather than stopping at the first:

* the hello: in time, the protocol version, a name, well-formed options;
* ``setoption`` for every declared option, and a message of an unknown type, both taken
  without a word back (the next line must be the answer to the next request);
* whole deals of several profiles against random players, the engine in each seat in
  turn, until every kind of position has been asked at least once: a lead, a follow, a
  pass forced by a hand that cannot beat, must-beat (a follow it may not pass), a 报单
  follow (the next player holds one card), and the move after a trick was won;
* a request with a short time (it must answer within it); ``quit`` (it must exit).

Each mistake restarts the engine, so one fault does not hide the others.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum

from pdk.bots.external import EngineError, EngineProcess, EngineSpec
from pdk.bots.protocol import encode
from pdk.bots.simple import RandomBot
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.engine.events import TrickWon
from pdk.engine.state import GameState, PlayerView
from pdk.variants.registry import load_profile

PROFILES = ("classic16", "classic15", "jokers17", "four-player")
SHORT_MS = 200


class Check(Enum):
    """The checks of a session, in order; values are message keys."""

    HELLO = "ec_hello"
    OPTIONS = "ec_options"
    UNKNOWN = "ec_unknown"
    LEAD = "ec_lead"
    FOLLOW = "ec_follow"
    FORCED_PASS = "ec_forced_pass"
    MUST_BEAT = "ec_must_beat"
    BAO_DAN = "ec_bao_dan"
    AFTER_TRICK = "ec_after_trick"
    PROFILES = "ec_profiles"
    SHORT_TIME = "ec_short_time"
    QUIT = "ec_quit"


@dataclass(slots=True)
class Outcome:
    """One check: how many times it was exercised and the mistakes it found."""

    check: Check
    asked: int = 0
    mistakes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.asked > 0 and not self.mistakes


@dataclass(slots=True)
class Report:
    engine: str = ""
    author: str = ""
    deals: int = 0
    decisions: int = 0
    slowest_ms: float = 0.0
    outcomes: dict[Check, Outcome] = field(default_factory=lambda: {c: Outcome(c) for c in Check})

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes.values())

    def fault(self, check: Check, text: str) -> None:
        self.outcomes[check].asked += 1
        if len(self.outcomes[check].mistakes) < 20:
            self.outcomes[check].mistakes.append(text)


def run_check(spec: EngineSpec, deals: int = 24) -> Report:
    """The whole session; never raises for an engine's fault (each is a mistake listed)."""
    report = Report()
    proc = _start(spec, report)
    if proc is None:
        return report
    report.engine, report.author = proc.hello.name, proc.hello.author
    proc = _options(spec, proc, report)
    for profile_name, d, seat in _schedule(deals):
        proc = proc if proc is not None and proc.proc.poll() is None else _start(spec, report, quiet=True)
        if proc is None:
            return report
        proc = _one_deal(spec, proc, report, profile_name, d, seat)
    if proc is not None:
        proc = _short_time(spec, proc, report)
    if proc is not None:
        _quit(proc, report)
    return report


def _start(spec: EngineSpec, report: Report, quiet: bool = False) -> EngineProcess | None:
    try:
        proc = EngineProcess(spec)
    except EngineError as exc:
        report.fault(Check.HELLO, exc.detail().message())
        return None
    if not quiet:
        report.outcomes[Check.HELLO].asked += 1
    return proc


def _schedule(deals: int) -> Iterator[tuple[str, int, int]]:
    for d in range(deals):
        profile_name = PROFILES[d % len(PROFILES)]
        yield profile_name, d, d % 3


def _options(spec: EngineSpec, proc: EngineProcess, report: Report) -> EngineProcess | None:
    """Every declared option set to its default, then a message of an unknown type: the
    engine must stay quiet, so the next line it writes must answer the next request."""
    out = report.outcomes
    try:
        for option in proc.hello.options:
            proc.send(encode({"type": "setoption", "name": option.name, "value": option.default}))
        out[Check.OPTIONS].asked += 1
        proc.send(encode({"type": "x-later-version", "note": "engines ignore types they do not know"}))
        out[Check.UNKNOWN].asked += 1
    except EngineError as exc:
        report.fault(Check.OPTIONS, exc.detail().message())
        proc.kill()
        return None
    return proc


def _kinds(view: PlayerView, state: GameState, told_trick: bool) -> list[Check]:
    legal = view.legal_moves()
    kinds = []
    if view.prev is None:
        kinds.append(Check.LEAD)
        if told_trick:
            kinds.append(Check.AFTER_TRICK)
    else:
        kinds.append(Check.FOLLOW)
        if not legal:
            kinds.append(Check.FORCED_PASS)
        elif not view.can_pass(legal):
            kinds.append(Check.MUST_BEAT)
    if state.sizes[state.next_seat(view.seat)] == 1:
        kinds.append(Check.BAO_DAN)
    return kinds


def _one_deal(
    spec: EngineSpec, proc: EngineProcess, report: Report, profile_name: str, d: int, seat: int
) -> EngineProcess | None:
    profile = load_profile(profile_name)
    seed = deal_seed(2026, d)
    state = GameState(profile, deal(profile, seed))
    seat = seat % profile.players
    others = [RandomBot(bot_seed(seed, s)) for s in range(profile.players)]
    told_trick = False
    report.deals += 1
    report.outcomes[Check.PROFILES].asked += 1
    while not state.done:
        turn = state.turn
        view = state.view(turn)
        if turn != seat:
            _, events = state.act_move(others[turn].choose(view))
            told_trick = told_trick or any(isinstance(e, TrickWon) for e in events)
            continue
        kinds = _kinds(view, state, told_trick)
        where = f"{profile_name} deal {d + 1} (seed {seed}), seat {seat}, move {len(state.history) + 1}"
        started = time.perf_counter()
        try:
            move = proc.ask(view, seed)
        except EngineError as exc:
            for kind in kinds:
                report.fault(kind, f"{where}: {exc.detail().message()}")
            proc.kill()
            return None
        report.slowest_ms = max(report.slowest_ms, 1000 * (time.perf_counter() - started))
        report.decisions += 1
        for kind in kinds:
            report.outcomes[kind].asked += 1
        _, events = state.act_move(move)
        told_trick = any(isinstance(e, TrickWon) for e in events)
    st = state.settlement()
    try:
        proc.deal_over(state.view(seat), seed, st.winner, st.totals)
    except EngineError as exc:
        report.fault(Check.PROFILES, f"{profile_name} deal {d + 1}: {exc.detail().message()}")
        proc.kill()
        return None
    return proc


def _short_time(spec: EngineSpec, proc: EngineProcess, report: Report) -> EngineProcess | None:
    """A request with ``SHORT_MS`` to think: the answer must come within it."""
    profile = load_profile("classic16")
    seed = deal_seed(2026, 999)
    state = GameState(profile, deal(profile, seed))
    view = state.view(state.turn)
    proc.spec = replace(spec, move_time=SHORT_MS / 1000)
    try:
        proc.ask(view, seed)
        report.outcomes[Check.SHORT_TIME].asked += 1
    except EngineError as exc:
        report.fault(Check.SHORT_TIME, exc.detail().message())
        proc.kill()
        return None
    finally:
        proc.spec = spec
    return proc


def _quit(proc: EngineProcess, report: Report) -> None:
    """``quit``: the engine must exit within two seconds."""
    try:
        proc.send(encode({"type": "quit"}))
        proc.proc.wait(timeout=2.0)
        report.outcomes[Check.QUIT].asked += 1
    except (EngineError, subprocess.TimeoutExpired):
        report.fault(Check.QUIT, "still running 2 s after quit")
    proc.kill()
