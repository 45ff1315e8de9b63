"""Outside engines as bots: a program in any language, spoken to over ``pdk.bots.protocol``.

``cmd:./mybot --flag`` (or a named engine from the engines file, ``engine:NAME``) is a bot
like any level: ``make_bot`` gives an ``ExternalBot`` for it. The bot itself is light and
made per game; the engine process behind it is started once per process and seat and kept
for every later deal (a selfplay worker starts each engine once, not once per deal), and
told of each deal from its start: the deal, every action as an event, the request to act.

Everything the engine does wrong (it cannot start, sends no hello, speaks another
version, exits, hangs past its time, writes garbage or a line over ``MAX_LINE``, answers an
illegal play) raises ``EngineError`` naming the engine; the caller adds the game and move.
A broken engine process is killed and forgotten, so the next deal starts a fresh one.
Its stderr and every answer's ``debug`` note go to its log file, never to pdk's output.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pdk import __version__
from pdk.bots.protocol import (
    MAX_LINE,
    Fault,
    Hello,
    Narrator,
    ProtocolError,
    act_message,
    deal_message,
    encode,
    hello_request,
    option_message,
    parse_answer,
    parse_hello,
)
from pdk.engine.combos import Move
from pdk.engine.state import Action, PlayerView, seen_events
from pdk.text.catalog import LocalizedError, Said

CMD_PREFIX = "cmd:"
ENGINE_PREFIX = "engine:"
DEFAULT_MOVE_TIME = 5.0
DEFAULT_START_TIME = 10.0
# Grace for the pipe itself: an answer sent at the last millisecond is not late.
_GRACE = 0.05


def is_engine(name: str) -> bool:
    return name.startswith((CMD_PREFIX, ENGINE_PREFIX))


@dataclass(frozen=True)
class EngineSpec:
    """How to run one engine: its command line, the options to set, its time per move and
    start-up, and where its log goes. Frozen and small, so a Ray worker gets it pickled."""

    label: str
    argv: tuple[str, ...]
    # (name, value) pairs, values scalars: a spec is hashable, a key of the running engines.
    options: tuple[tuple[str, Any], ...] = ()
    move_time: float = DEFAULT_MOVE_TIME
    start_time: float = DEFAULT_START_TIME
    cwd: str | None = None
    log: str | None = None

    @classmethod
    def of_command(cls, spec: str) -> EngineSpec:
        """``cmd:COMMAND`` as typed: the command split as a shell would, run directly."""
        text = spec[len(CMD_PREFIX) :].strip()
        try:
            argv = tuple(shlex.split(text))
        except ValueError:
            argv = ()
        if not argv:
            raise EngineError(Fault.NO_COMMAND, engine=spec)
        return cls(spec, argv)

    def __call__(self, seed: int) -> ExternalBot:
        """The spec is the engine's bot factory (picklable: a Ray worker gets it shipped)."""
        return ExternalBot(self, seed)

    def log_path(self) -> Path:
        if self.log is not None:
            return Path(self.log)
        folder = Path(os.environ.get("PDK_ENGINE_LOGS") or Path(tempfile.gettempdir()) / "pdk-engines")
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.label)[:80]
        return folder / f"{safe}.log"


class EngineError(LocalizedError, RuntimeError):
    """An engine that broke the protocol, named: ``engine`` is its label, ``fault`` what."""

    def __init__(self, fault: Fault, /, *, engine: str, **params: object) -> None:
        self.fault = fault
        self.engine = engine
        super().__init__(fault, **params)

    @property
    def said(self) -> Said:
        return Said.of("eng_named", engine=self.engine, error=super().said)

    def detail(self) -> ProtocolError:
        """What went wrong, without the engine's name (for messages that name it already)."""
        return ProtocolError(self.fault, **self.params)


# -- one engine process -----------------------------------------------------------------------


class EngineProcess:
    """A running engine: started, greeted and configured once, then dealt deal after deal."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self._buf = bytearray()
        self._log: IO[str] | None = None
        self.deal_key: tuple[Any, ...] | None = None
        self.narrator: Narrator | None = None
        self.seen: list[Action] = []  # the current deal's actions already sent as events
        # One conversation at a time: the web server's tables share the process's engines
        # and are served from several threads.
        self.lock = threading.Lock()
        path = spec.log_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._log = path.open("a", encoding="utf-8")
        except OSError:
            self._log = None
        try:
            self.proc = subprocess.Popen(
                spec.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log if self._log is not None else subprocess.DEVNULL,
                cwd=spec.cwd,
                bufsize=0,
                start_new_session=True,  # a Ctrl-C at the terminal is pdk's, not the engine's
            )
        except OSError as exc:
            self._close_log()
            reason = exc.strerror or str(exc)
            raise self.error(Fault.NO_START, command=shlex.join(spec.argv), reason=reason) from None
        try:
            self.send(encode(hello_request(__version__)))
            try:
                line = self.read_line(spec.start_time)
            except EngineError as exc:
                if exc.fault is Fault.TIMEOUT:
                    raise self.error(Fault.NO_HELLO, limit=f"{spec.start_time:g}") from None
                raise
            try:
                self.hello: Hello = parse_hello(line)
            except ProtocolError as exc:
                raise self.error(exc.reason, **exc.params) from None
            declared = {o.name for o in self.hello.options}
            for name, value in spec.options:
                if name not in declared:
                    raise self.error(Fault.OPTION, name=name, known=", ".join(sorted(declared)) or "—")
                self.send(encode(option_message(name, value)))
        except BaseException:
            self.kill()
            raise

    def error(self, fault: Fault, **params: object) -> EngineError:
        hello: Hello | None = getattr(self, "hello", None)
        label = self.spec.label if hello is None else f"{hello.name} ({self.spec.label})"
        return EngineError(fault, engine=label, **params)

    def log(self, text: str) -> None:
        if self._log is not None:
            try:
                self._log.write(text.rstrip("\n") + "\n")
                self._log.flush()
            except OSError:
                pass

    def send(self, line: str) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\n")
        except (BrokenPipeError, OSError):
            raise self._crashed() from None

    def _crashed(self) -> EngineError:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self.kill()
        return self.error(Fault.CRASHED, code="?" if code is None else str(code))

    def read_line(self, seconds: float) -> str:
        """The engine's next non-blank line within ``seconds``."""
        deadline = time.monotonic() + seconds + _GRACE
        stdout = self.proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        while True:
            nl = self._buf.find(b"\n")
            while nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                if raw.strip():
                    try:
                        return raw.decode()
                    except UnicodeDecodeError:
                        raise self.error(Fault.GARBAGE, line=repr(raw[:40])) from None
                nl = self._buf.find(b"\n")
            if len(self._buf) > MAX_LINE:
                self.kill()
                raise self.error(Fault.TOO_LONG, limit=str(MAX_LINE))
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.kill()
                raise self.error(Fault.TIMEOUT, limit=f"{seconds:g}")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._crashed()
            self._buf += chunk

    def kill(self) -> None:
        """End the process now (a broken engine, or pdk exiting)."""
        if self.proc.poll() is None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=2.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._close_log()

    def quit(self) -> None:
        """Ask the engine to stop, and make sure it has."""
        if self.proc.poll() is None:
            try:
                self.send(encode({"type": "quit"}))
                self.proc.wait(timeout=1.0)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def _close_log(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None

    # -- a deal, event by event ---------------------------------------------------------------

    def deal_over(self, view: PlayerView, seed: int | None, winner: int, totals: Sequence[int]) -> None:
        """The deal's last events and its result, in one write."""
        lines = self.news(view, seed)
        lines.append(encode(Narrator.over(winner, totals)))
        self.send("\n".join(lines))

    def news(self, view: PlayerView, seed: int | None) -> list[str]:
        """The lines the engine has not had of the deal ``view`` belongs to: the deal's
        start if this is another deal than the one it was told of, then each action since
        as events. Another deal is one with another seed or seat, or whose actions do not
        begin with those already told (a deal replayed in another seat arrangement)."""
        history = view.history
        key = (seed, view.seat, view.profile)
        seen = self.seen
        lines = []
        if key != self.deal_key or len(history) < len(seen) or tuple(history[: len(seen)]) != tuple(seen):
            self.deal_key = key
            self.narrator = Narrator.of(view.profile)
            seen = self.seen = []
            lines.append(deal_message(view, seed, f"{seed}-{view.seat}"))
        narrator = self.narrator
        assert narrator is not None
        if len(history) > len(seen):
            events = seen_events(view)
            for i in range(len(seen), len(history)):
                seen.append(history[i])
                lines.extend(encode(m) for m in narrator.feed(events[i]))
        return lines

    def ask(self, view: PlayerView, seed: int | None) -> Move | None:
        """The engine's move: what it has not seen of the deal and the request to act in
        one write (one wake-up of the engine per decision), then its answer, checked."""
        legal = view.legal_moves()
        can_pass = view.can_pass(legal)
        ms = int(self.spec.move_time * 1000)
        lines = self.news(view, seed)
        lines.append(act_message(view, legal, can_pass, len(view.history) + 1, ms))
        self.send("\n".join(lines))
        line = self.read_line(self.spec.move_time)
        try:
            answer = parse_answer(line, legal, can_pass)
        except ProtocolError as exc:
            raise self.error(exc.reason, **exc.params) from None
        if answer.debug:
            self.log(f"[debug] move {len(view.history) + 1}: {answer.debug[:2000]}")
        return answer.move


# -- the processes of this process ------------------------------------------------------------

# (spec, seat) -> the engine playing that seat for this process; see ``ExternalBot``.
_RUNNING: dict[tuple[EngineSpec, int], EngineProcess] = {}
_STARTING = threading.Lock()


def engine_for(spec: EngineSpec, seat: int) -> EngineProcess:
    """The running engine for ``spec`` in ``seat``, started (and greeted) on first use."""
    with _STARTING:
        proc = _RUNNING.get((spec, seat))
        if proc is None or proc.proc.poll() is not None:
            proc = _RUNNING[(spec, seat)] = EngineProcess(spec)
        return proc


def forget(spec: EngineSpec, seat: int) -> None:
    proc = _RUNNING.pop((spec, seat), None)
    if proc is not None:
        proc.kill()


def running() -> Iterator[EngineProcess]:
    return iter(list(_RUNNING.values()))


@atexit.register
def stop_all() -> None:
    """Every engine this process started, asked to quit (at exit, or after a match)."""
    while _RUNNING:
        _, proc = _RUNNING.popitem()
        proc.quit()


def _forget_inherited() -> None:
    """In a forked child (a selfplay worker), the parent's engines are the parent's: close
    this copy of their pipes and start the child's own on first use."""
    for proc in _RUNNING.values():
        for pipe in (proc.proc.stdin, proc.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    _RUNNING.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_inherited)


# -- named engines ----------------------------------------------------------------------------

# ``engine:NAME`` -> its spec, registered by the app from the engines file before any game.
_NAMED: dict[str, EngineSpec] = {}


def register_engines(specs: Mapping[str, EngineSpec]) -> None:
    _NAMED.update(specs)


def named_engines() -> dict[str, EngineSpec]:
    return dict(_NAMED)


def spec_of(name: str) -> EngineSpec | None:
    """The engine a ``cmd:`` or ``engine:`` name runs (``None``: an unknown engine name)."""
    if name.startswith(CMD_PREFIX):
        return EngineSpec.of_command(name)
    return _NAMED.get(name[len(ENGINE_PREFIX) :])


# -- the bot ----------------------------------------------------------------------------------


class ExternalBot:
    """A bot whose moves an outside engine makes. Made per game (cheaply: no process);
    the seat's engine process is found or started at its first move."""

    def __init__(self, spec: EngineSpec, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self._name: str | None = None

    @property
    def name(self) -> str:
        """The engine's own name from its hello (starting it if nothing has yet)."""
        if self._name is None:
            running = [p for (spec, _), p in _RUNNING.items() if spec == self.spec]
            self._name = (running[0] if running else engine_for(self.spec, 0)).hello.name
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    def choose(self, view: PlayerView) -> Move | None:
        proc = engine_for(self.spec, view.seat)
        try:
            with proc.lock:
                return proc.ask(view, self.seed)
        except BaseException:
            # A fault (or an interruption mid-answer) leaves the conversation undefined.
            forget(self.spec, view.seat)
            raise

    def deal_over(self, view: PlayerView, winner: int, totals: tuple[int, ...]) -> None:
        """Tell the engine the deal's last actions and its result (its only chance to learn
        them: it is not asked to act again in this deal)."""
        proc = _RUNNING.get((self.spec, view.seat))
        if proc is None:
            return
        try:
            with proc.lock:
                proc.deal_over(view, self.seed, winner, totals)
        except EngineError:
            forget(self.spec, view.seat)
            raise


__all__ = [
    "CMD_PREFIX",
    "ENGINE_PREFIX",
    "EngineError",
    "EngineProcess",
    "EngineSpec",
    "ExternalBot",
    "engine_for",
    "is_engine",
    "named_engines",
    "register_engines",
    "spec_of",
    "stop_all",
]
