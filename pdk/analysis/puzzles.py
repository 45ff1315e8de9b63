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

from pdk.bots import make_bot
from pdk.bots.endgame import Endgame, OutOfNodes
from pdk.bots.hard import Solver
from pdk.bots.sim import Sim
from pdk.bots.valuation import Spot, sim_at
from pdk.engine.cards import cards_of, rank_of
from pdk.engine.combos import Move
from pdk.engine.deal import bot_seed, deal, deal_seed
from pdk.engine.position_text import TablePosition, of_view, parse, variant_of
from pdk.engine.state import GameState
from pdk.text.catalog import Lang, tr
from pdk.variants.registry import load_profile

FORMAT = "pdk-puzzles"
VERSION = 1
# Mining: positions with at most this many cards in all hands, solved within this budget.
MAX_CARDS = 28
NODES = 60_000
PROVE_NODES = 2_000_000
# Levels by the plays the proof needs: 2, 3, 4, 5 or more.
LEVELS = (2, 3, 4, 5)
GOALS = ("win", "sweep")


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
    goal: str = "win"  # or "sweep": go out before the seats yet to play play a card (全关)

    @property
    def level(self) -> int:
        return level_of(self.plays)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "position": self.position, "answer": self.answer, "kind": self.kind,
                "plays": self.plays, "level": self.level, "goal": self.goal}  # fmt: skip

    def table(self) -> TablePosition:
        return parse(self.position, load_profile(variant_of(self.position)))

    def is_answer(self, move: Move | None) -> bool:
        if move is None:
            return self.answer is None
        return self.answer is not None and move.notation() == self.answer and move.kind.label == self.kind


# What a puzzle is about, for a player to pick (message keys ``pz_theme_<name>``): a 全关,
# a rival on one card (报单), the seat's last bomb as the answer, one lone single to shed.
THEMES = ("sweep", "bao_dan", "last_bomb", "only_single")


def themes(p: Puzzle) -> tuple[str, ...]:
    """The puzzle's themes (``THEMES``), read from its position and answer."""
    pos = p.table()
    held = [_rank_counts(h or 0) for h in pos.hands]
    found = {
        "sweep": p.goal == "sweep",
        "bao_dan": any(size == 1 for s, size in enumerate(pos.sizes) if s != pos.turn),
        # One bomb left among every hand, and it is in play here.
        "last_bomb": sum(1 for h in held for n in h.values() if n == 4) == 1,
        "only_single": sum(1 for n in held[pos.turn].values() if n == 1) == 1,
    }
    return tuple(t for t in THEMES if found[t])


def _rank_counts(hand: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in cards_of(hand):
        out[rank_of(c)] = out.get(rank_of(c), 0) + 1
    return out


# The puzzle rating (Elo, as chess sites rate their puzzles): a player starts at
# ``START_RATING``; a puzzle of level L is an opponent rated ``level_rating(L)``; a solved
# puzzle scores 1, a failed one (a wrong play, or giving up) 0, and the rating moves by
# ``K * (score - expected)``. Kept as a float, shown rounded, so the order of the results
# alone decides it and replaying them gives it back exactly.
START_RATING = 1200.0
K = 32.0


def level_rating(level: int) -> float:
    """A puzzle's rating: easy 1000, medium 1200, hard 1400, expert 1600."""
    return 800.0 + 200.0 * level


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's puzzle record: the rating, the solved puzzles in a row now and at best."""

    rating: float = START_RATING
    streak: int = 0
    best: int = 0
    solved: int = 0
    tried: int = 0

    def after(self, level: int, solved: bool) -> Standing:
        """The standing after one more puzzle of ``level``, solved or not (the Elo step)."""
        expected = 1.0 / (1.0 + 10.0 ** ((level_rating(level) - self.rating) / 400.0))
        streak = self.streak + 1 if solved else 0
        return Standing(self.rating + K * (float(solved) - expected), streak, max(self.best, streak),
                        self.solved + solved, self.tried + 1)  # fmt: skip

    @property
    def shown(self) -> int:
        return round(self.rating)

    def said(self, lang: Lang, delta: int | None = 0) -> str:
        """The standing in words, for the terminal and the page alike; after an answer
        with its change of rating (``delta``), or None: the puzzle counted before."""
        said = tr("pz_standing", lang, rating=self.shown, streak=self.streak, best=self.best,
                  solved=self.solved, tried=self.tried)  # fmt: skip
        if delta is None:
            return tr("pz_standing_again", lang, standing=said)
        return tr("pz_standing_moved", lang, standing=said, delta=delta) if delta else said


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
            goal = str(entry.get("goal", "win"))
            if goal not in GOALS:
                raise ValueError(goal)
            out.append(Puzzle(int(entry["id"]), str(entry["position"]), answer, str(entry["kind"]),
                              int(entry["plays"]), goal))  # fmt: skip
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


def shut_seats(sim: Sim, me: int) -> tuple[int, ...]:
    """The rivals who have not played a card yet (a 全关 keeps them so)."""
    return tuple(o for o in range(sim.n) if o != me and sim.sizes[o] and not sim.played_any[o])


def solve(pos: TablePosition, nodes: int = NODES, goal: str = "win") -> tuple[Move | None, int] | None:
    """The position's unique winning play and the plays its proof needs, when exactly one
    choice forces going out first (``goal="sweep"``: with the seats yet to play shut out)
    and every other is refuted; None otherwise (or when the budget runs out)."""
    sim = open_sim(pos)
    me = pos.turn
    shut = shut_seats(sim, me) if goal == "sweep" else ()
    if goal == "sweep" and not shut:
        return None
    eg = Endgame(me, [o for o in range(sim.n) if o != me and sim.sizes[o]], nodes, shut)
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


def line(pos: TablePosition, first: Move | None, goal: str = "win") -> list[tuple[int, Move | None]]:
    """The game after ``first``: the quickest win after the answer, the refutation after
    any other play (``bots.endgame.Endgame.line``)."""
    sim = open_sim(pos)
    me = pos.turn
    shut = shut_seats(sim, me) if goal == "sweep" else ()
    eg = Endgame(me, [o for o in range(sim.n) if o != me and sim.sizes[o]], PROVE_NODES, shut)
    sim.advance(first)
    return [(me, first), *eg.line(sim)]


def prove(p: Puzzle, nodes: int = PROVE_NODES) -> bool:
    """Re-prove a puzzle with the hard bot's solver (a 全关 puzzle: with ``_sweeps``): the
    answer forces the goal and every other legal choice does not (an exhausted budget is
    no proof)."""
    pos = p.table()
    sim = open_sim(pos)
    me = pos.turn
    rivals = [o for o in range(sim.n) if o != me and sim.sizes[o]]
    shut = shut_seats(sim, me)
    if p.goal == "sweep" and not shut:
        return False
    found = False
    for m in choices(sim):
        child = sim.clone()
        child.advance(m)
        won: bool | None
        if p.goal == "sweep":
            try:
                won = _sweeps(child, me, rivals, shut, [nodes])
            except OutOfNodes:
                won = None
        else:
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


def _sweeps(sim: Sim, me: int, rivals: list[int], shut: tuple[int, ...], budget: list[int]) -> bool:
    """The re-proof of a 全关 puzzle: plain AND/OR search without a transposition table (a
    separate search from ``Endgame``'s): ``me`` goes out before any rival does and before
    any seat of ``shut`` plays a card, whatever they do."""
    if any(sim.played_any[o] for o in shut):
        return False
    if not sim.sizes[me]:
        return True
    if sim.done or any(not sim.sizes[o] for o in rivals):
        return False
    budget[0] -= 1
    if budget[0] < 0:
        raise OutOfNodes
    mine = sim.turn == me
    for m in choices(sim):
        child = sim.clone()
        child.advance(m)
        if _sweeps(child, me, rivals, shut, budget) == mine:
            return mine
    return not mine


def open_position(state: GameState) -> TablePosition:
    """The position of ``state`` with every hand shown."""
    view = state.view(state.turn)
    pos = of_view(view, tuple(state.bomb_bonuses))
    return TablePosition(pos.profile, pos.turn, tuple(state.hands), pos.sizes, pos.played, pos.beat,
                         pos.beat_seat, pos.bombs)  # fmt: skip


def mine(variant: str, games: int, seed: int, bots: tuple[str, ...] = ("normal", "normal", "normal"),
         progress: Callable[[int, int], None] | None = None,
         goals: tuple[str, ...] = ("sweep", "win")) -> Iterator[Puzzle]:  # fmt: skip
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
                    for goal in goals:  # by default a 全关 first: the rarer find
                        got = solve(pos, goal=goal)
                        if got is not None and got[1] >= LEVELS[0]:
                            move, plays = got
                            answer = None if move is None else move.notation()
                            found += 1
                            kind = "pass" if move is None else move.kind.label
                            yield Puzzle(found, text, answer, kind, plays, goal)
                            break
            state.step(players[state.turn].choose(state.view(state.turn)))
        if progress is not None:
            progress(g + 1, games)
