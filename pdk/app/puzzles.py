"""残局 puzzles: open-handed endgames where exactly one play forces going out first.

A puzzle is a position text with every hand shown (``pdk.engine.position_text``), the one
play that wins whatever the others do (proven by ``bots.endgame``: every other choice lets
the rivals, playing together, stop the seat), and its difficulty: the plays the proof
needs (``plays``), graded into ``LEVELS``. ``mine`` finds them in bot games; the shipped
set lives in the package (``pdk/data/puzzles.json``) and ``prove`` re-proves one with the
hard bot's own solver (``hard.Solver``), independent of the search that found it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pdk.app.registry import load_profile
from pdk.bots import make_bot
from pdk.bots.analysis import Spot, sim_at
from pdk.bots.endgame import Endgame, OutOfNodes
from pdk.bots.hard import Solver
from pdk.bots.sim import Sim
from pdk.engine.combos import Move
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.engine.position_text import TablePosition, of_view, parse, variant_of
from pdk.engine.state import GameState

FORMAT = "pdk-puzzles"
VERSION = 1
# Mining: positions with at most this many cards in all hands, solved within this budget.
MAX_CARDS = 28
NODES = 60_000
PROVE_NODES = 2_000_000
# Levels by the plays the proof needs: 2, 3, 4, 5 or more.
LEVELS = (2, 3, 4, 5)


def level_of(plays: int) -> int:
    """1 (easy) to 4 (expert)."""
    return max(1, min(4, plays - 1))


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: int
    position: str
    answer: str | None  # the winning play's rank notation; None: pass
    kind: str
    plays: int

    @property
    def level(self) -> int:
        return level_of(self.plays)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "position": self.position, "answer": self.answer, "kind": self.kind,
                "plays": self.plays, "level": self.level}  # fmt: skip

    def table(self) -> TablePosition:
        return parse(self.position, load_profile(variant_of(self.position)))

    def is_answer(self, move: Move | None) -> bool:
        if move is None:
            return self.answer is None
        return self.answer is not None and move.notation() == self.answer and move.kind.label == self.kind


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read (the message names what is wrong)."""


def shipped_path() -> Path:
    return Path(str(resources.files("pdk") / "data" / "puzzles.json"))


def load(path: Path | None = None) -> list[Puzzle]:
    """The puzzles of ``path`` (default: the shipped set)."""
    path = path or shipped_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PuzzleFileError(str(exc).splitlines()[0][:200]) from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("puzzles"), list)
    ):
        raise PuzzleFileError(f"format is not {FORMAT}")
    out = []
    for entry in data["puzzles"]:
        try:
            answer = entry["answer"]
            answer = None if answer is None else str(answer)
            out.append(
                Puzzle(
                    int(entry["id"]), str(entry["position"]), answer, str(entry["kind"]), int(entry["plays"])
                )
            )
        except (KeyError, TypeError, ValueError):
            raise PuzzleFileError(f"puzzle entry {str(entry)[:60]} is malformed") from None
    return out


def dumps(puzzles: list[Puzzle]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "puzzles": [p.to_dict() for p in puzzles]},
                      ensure_ascii=False, indent=0)  # fmt: skip


def open_sim(pos: TablePosition) -> Sim:
    spot = Spot.of_position(pos)
    return sim_at(spot, spot.open_hands)


def choices(sim: Sim) -> list[Move | None]:
    moves: list[Move | None] = list(sim.moves())
    if sim.can_pass(sim.moves()) or not moves:
        moves.append(None)
    return moves


def solve(pos: TablePosition, nodes: int = NODES) -> tuple[Move | None, int] | None:
    """The position's unique winning play and the plays its proof needs, when exactly one
    choice forces going out first and every other is refuted; None otherwise (or when the
    budget runs out)."""
    sim = open_sim(pos)
    me = pos.turn
    eg = Endgame(me, [o for o in range(sim.n) if o != me and sim.sizes[o]], nodes)
    winner: tuple[Move | None, int] | None = None
    options = choices(sim)
    if len(options) < 2:
        return None
    try:
        for m in options:
            child = sim.clone()
            child.advance(m)
            got = eg.plays_to_win(child)
            if got is None:
                continue
            if winner is not None:
                return None
            winner = (m, got + (m is not None))
    except OutOfNodes:
        return None
    return winner


def line(pos: TablePosition, first: Move | None) -> list[tuple[int, Move | None]]:
    """The game after ``first``: the quickest win after the answer, the refutation after
    any other play (``bots.endgame.Endgame.line``)."""
    sim = open_sim(pos)
    me = pos.turn
    eg = Endgame(me, [o for o in range(sim.n) if o != me and sim.sizes[o]], PROVE_NODES)
    sim.advance(first)
    return [(me, first), *eg.line(sim)]


def prove(p: Puzzle, nodes: int = PROVE_NODES) -> bool:
    """Re-prove a puzzle with the hard bot's solver: the answer forces going out first and
    every other legal choice does not (an exhausted budget is no proof)."""
    pos = p.table()
    sim = open_sim(pos)
    me = pos.turn
    rivals = [o for o in range(sim.n) if o != me and sim.sizes[o]]
    found = False
    for m in choices(sim):
        child = sim.clone()
        child.advance(m)
        won = Solver(me, rivals).wins(child, nodes)
        if won is None:
            return False
        if p.is_answer(m):
            found = won
            if not won:
                return False
        elif won:
            return False
    return found


def open_position(state: GameState) -> TablePosition:
    """The position of ``state`` with every hand shown."""
    view = state.view(state.turn)
    pos = of_view(view, tuple(state.bomb_bonuses))
    return TablePosition(pos.profile, pos.turn, tuple(state.hands), pos.sizes, pos.played, pos.beat,
                         pos.beat_seat, pos.bombs)  # fmt: skip


def mine(variant: str, games: int, seed: int, bots: tuple[str, ...] = ("normal", "normal", "normal"),
         progress: Callable[[int, int], None] | None = None) -> Iterator[Puzzle]:  # fmt: skip
    """Puzzles from ``games`` bot games of ``variant`` (first-out profiles), in the order
    found, without repeats; ids from 1."""
    profile = load_profile(variant)
    seen: set[str] = set()
    found = 0
    for g in range(games):
        s = deal_seed(seed, g)
        state = GameState(profile, deal(profile, s))
        players = [make_bot(b, bot_seed(s, seat)) for seat, b in enumerate(bots)]
        while not state.over:
            if sum(state.sizes) <= MAX_CARDS and state.history:
                pos = open_position(state)
                text = pos.format()
                if text not in seen:
                    seen.add(text)
                    got = solve(pos)
                    if got is not None and got[1] >= LEVELS[0]:
                        move, plays = got
                        found += 1
                        yield Puzzle(found, text, None if move is None else move.notation(),
                                     "pass" if move is None else move.kind.label, plays)  # fmt: skip
            state.step(players[state.turn].choose(state.view(state.turn)))
        if progress is not None:
            progress(g + 1, games)
