"""Shared fixtures: the classic16 profile and a ``judge`` that builds positions from notation.

Tests speak in the notation players type (``"334455"``) so that a rule test reads like the
rule. Everything goes through the public API: ``resolve_cards``, ``Position``, ``check``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import traceback
from collections.abc import Iterator, Sequence

import pytest
from typer.testing import CliRunner

from pdk.cli.app import main
from pdk.engine import counts as C
from pdk.engine.cards import RANK_CHARS, mask_of
from pdk.engine.combos import Move, classify, move_of, preferred_lead
from pdk.engine.deal import Rng, deal, deal_from_hands
from pdk.engine.position import IllegalPlay, Play, Position, Reason, check, resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile

# A suite started in the background of a shell (``pytest &``, nohup) inherits Ctrl-C as
# ignored, and so would every ``pdk`` it spawns: the tests that press Ctrl-C in a terminal
# would then wait for a reaction that cannot come. A handler here is reset to the default
# at each ``exec``, so the children hear Ctrl-C as a person's terminal delivers it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pdk_env(columns: int = 200, **extra: str) -> dict[str, str]:
    """The environment the end-to-end tests run ``pdk`` in: no colour, a fixed width, and
    the C locale (English unless ``--lang`` says otherwise)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(columns), "LANG": "C.UTF-8", **extra}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    return env


def run_pdk(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60, stdin: str | None = ""
) -> subprocess.CompletedProcess[str]:
    """``pdk`` with these arguments, its output captured: in this process through the real
    entry point (``pdk.cli.app.main``: usage errors, exit codes and all) with Typer's
    ``CliRunner`` isolation, which saves a Python start per call. ``timeout`` is for the
    callers that need the installed binary (``run_pdk_binary``) and is unused here."""
    del timeout
    wanted = env or pdk_env()
    # The child gets exactly ``wanted``: variables it lacks are removed for the call.
    overrides: dict[str, str | None] = {k: None for k in os.environ if k not in wanted}
    overrides.update(wanted)
    runner = CliRunner()
    argv = sys.argv
    with runner.isolation(input=stdin, env=overrides) as (out, err, *_):
        sys.argv = ["pdk", *args]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:
            traceback.print_exc()
            code = 1
        finally:
            sys.argv = argv
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return subprocess.CompletedProcess(["pdk", *args], code, stdout, stderr)


def run_pdk_binary(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The installed ``pdk`` program in a process of its own, run as a user would."""
    return subprocess.run(
        ["pdk", *args], capture_output=True, text=True, timeout=timeout, env=env or pdk_env()
    )


def deck_mask(profile: Profile) -> int:
    return mask_of(profile.deck_cards)


class Judge:
    """Positions and verdicts for one profile, written in card notation."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.deck = deck_mask(profile)

    def cards(self, text: str, available: int | None = None) -> tuple[int, ...]:
        return resolve_cards(text, self.deck if available is None else available)

    def cards_mask(self, text: str, available: int | None = None) -> int:
        return sum(1 << c for c in self.cards(text, available))

    def move(self, text: str) -> Move:
        """A play to beat, read as a lead would read it (D2); its cards come from the deck."""
        counts = C.from_cards(self.cards(text))
        readings = classify(self.profile, counts, whole_hand=False)
        assert readings, f"{text} is not a combination"
        r = preferred_lead(readings)
        return move_of(counts, r)

    def pos(self, hand: str, beat: str | Move | None = None, next_one: bool = False) -> Position:
        mask = sum(1 << c for c in self.cards(hand))
        prev = self.move(beat) if isinstance(beat, str) else beat
        return Position(self.profile, mask, prev, next_one)

    def check(self, pos: Position, play: str | None) -> Play | None:
        """``check`` on cards named in notation (``None`` is a pass)."""
        cards: Sequence[int] | None = None if play is None else resolve_cards(play, pos.hand)
        return check(pos, cards)

    def legal(self, pos: Position) -> set[tuple[str, str]]:
        """The generated plays as (notation, kind label) pairs."""
        return {(m.notation(), m.kind.label) for m in pos.legal_moves()}

    def legal_cards(self, pos: Position) -> set[str]:
        return {m.notation() for m in pos.legal_moves()}


def game(judge: Judge, *hands: str, leader: int | None = None) -> GameState:
    """A deal of hand-picked hands; cards without a suit take any suit not yet dealt, and
    what nobody holds is set aside."""
    left = judge.deck
    masks = []
    for h in hands:
        masks.append(sum(1 << c for c in judge.cards(h, left)))
        left &= ~masks[-1]
    return GameState(judge.profile, deal_from_hands(judge.profile, tuple(masks), left, leader))


def run(judge: Judge, state: GameState, *plays: str | None) -> None:
    """Play each of ``plays`` (None = pass) for the seat to move, checked."""
    for p in plays:
        state.play(None if p is None else judge.cards(p, state.hands[state.turn]))


def rank(ch: str) -> int:
    """A rank index from its notation character (``"T"`` → 7)."""
    return RANK_CHARS.index(ch)


def refused(
    judge: Judge, hand: str, play: str | None, beat: str | Move | None = None, next_one: bool = False
) -> Reason:
    """The reason ``check`` gives for refusing ``play`` (None = pass); fails if it is legal."""
    with pytest.raises(IllegalPlay) as info:
        judge.check(judge.pos(hand, beat, next_one), play)
    return info.value.reason


def played_mask(state: GameState) -> int:
    """Every card played so far, asserting that none was played twice."""
    mask = 0
    for action in state.history:
        if action.play is not None:
            for c in action.play.cards:
                assert not mask >> c & 1, "a card was played twice"
                mask |= 1 << c
    return mask


def with_knobs(name: str, new_name: str | None = None, **sections: dict[str, object]) -> Profile:
    """A shipped profile with some knobs changed (and optionally renamed), validated like
    a user's YAML."""
    data = load_profile(name).model_dump()
    if new_name is not None:
        data["name"] = new_name
    for section, values in sections.items():
        data[section].update(values)
    return Profile.model_validate(data)


def random_game(profile: Profile, seed: int, stop: int | None = None) -> GameState:
    """Uniform random play (a pass counts as one choice when allowed), to the end or to
    ``stop`` turns; asserts that a seat always has a choice and that the deal ends."""
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed ^ 0x5EED)
    limit = len(profile.deck_cards) * profile.players * 2
    while not state.over and (stop is None or len(state.history) < stop):
        moves = state.legal_moves()
        n = len(moves) + state.can_pass(moves)
        assert n > 0, "a seat to move always has a choice"
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
        assert len(state.history) <= limit, "the deal does not end"
    return state


@pytest.fixture(scope="session", autouse=True)
def own_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every ``pdk`` the tests start, in this process or as a child, keeps its default data
    (saves, history, engine logs) under this session's temporary directory rather than the
    user's ``~/.local/share/pdk``: the suite runs in parallel workers (pytest-xdist), and two
    workers (or a tester's own games) must never share a save or a history file. Tests
    that need a data directory of their own still pass ``--save-dir``/``PDK_DATA_DIR``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
        yield


@pytest.fixture(autouse=True)
def same_environment() -> Iterator[None]:
    """Each test ends with the environment it began with. ``run_pdk`` runs ``pdk`` inside
    this process, and some commands set variables for their own children (``pdk engine``
    its log folder, ``pdk serve`` its workers' settings); left behind, they would reach the
    ``pdk`` a later test starts (wider columns, logs elsewhere), so a test's result would
    depend on which tests ran before it in the same worker."""
    saved = dict(os.environ)
    yield
    for key in set(os.environ) - set(saved) - {"PYTEST_CURRENT_TEST"}:
        del os.environ[key]
    for key, value in saved.items():
        if os.environ.get(key) != value and key != "PYTEST_CURRENT_TEST":
            os.environ[key] = value


@pytest.fixture(scope="session")
def classic() -> Profile:
    return load_profile()


@pytest.fixture(scope="session")
def judge(classic: Profile) -> Judge:
    return Judge(classic)
