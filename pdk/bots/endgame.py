"""Exact open-handed endgames for 残局 puzzles: how many plays a forced win needs, and the
lines that show it.

With every hand known, ``plays_to_win`` answers "can the seat to move go out before every
rival, whatever they do, and in how few of its own plays?" (with ``shut``: and before the
rivals who have not played yet play a card, a 全关) by minimax on the engine's
transition (``Sim``): the seat takes the quickest forced win, the rivals (playing together,
as ``hard.Solver`` assumes) the longest resistance or a refutation. ``None`` means the
rivals can stop it. The count is the puzzle's difficulty (the plays the proof needs).

``line`` plays the proof out: after the right first play, the quickest win against the
longest defence; after a wrong one, the rivals' refutation (a rival goes out first).

``hard.Solver`` is the independent check: the shipped puzzles are re-proved with it, not
with this search (tests/analysis/test_puzzles.py, benchmarks/bench_review.py puzzles).
"""

from __future__ import annotations

from pdk.bots.sim import Sim
from pdk.engine.combos import Move

Key = tuple[object, ...]


class OutOfNodes(Exception):
    """The node budget ran out before the answer was known."""


class Endgame:
    """Minimax with a transposition table for one open-handed position's seat ``me``."""

    def __init__(self, me: int, rivals: list[int], nodes: int = 200_000, shut: tuple[int, ...] = ()) -> None:
        """``shut``: rivals that must not play a card before ``me`` is out (a 全关 of them)."""
        self.me = me
        self.rivals = rivals
        self.shut = shut
        self.nodes = nodes
        self.memo: dict[Key, int | None] = {}

    def options(self, sim: Sim) -> list[Move | None]:
        moves: list[Move | None] = list(sim.moves())
        if sim.can_pass(sim.moves()) or not moves:
            moves.append(None)
        return moves

    def plays_to_win(self, sim: Sim) -> int | None:
        """``me``'s plays (passes not counted) to go out first against the best defence,
        or None when the rivals can stop it; ``OutOfNodes`` past the budget."""
        if any(sim.played_any[o] for o in self.shut):
            return None
        if not sim.sizes[self.me]:
            return 0
        if sim.done or any(not sim.sizes[o] for o in self.rivals):
            return None
        key: Key = (tuple(sim.counts), sim.turn, sim.prev, sim.prev_seat, sim.passes)
        if key in self.memo:
            return self.memo[key]
        self.nodes -= 1
        if self.nodes < 0:
            raise OutOfNodes
        mine = sim.turn == self.me
        best: int | None = None
        for m in self.options(sim):
            child = sim.clone()
            child.advance(m)
            got = self.plays_to_win(child)
            if mine:
                if got is not None:
                    got += m is not None
                    best = got if best is None else min(best, got)
            else:
                if got is None:
                    best = None
                    break
                best = got if best is None else max(best, got)
        self.memo[key] = best
        return best

    def line(self, sim: Sim, limit: int = 200) -> list[tuple[int, Move | None]]:
        """The game played out from ``sim`` (a clone is advanced): ``me`` wins as fast as
        it can if it can, else plays its first choice; the rivals refute when they can,
        else resist longest. Ends when someone is out."""
        sim = sim.clone()
        out: list[tuple[int, Move | None]] = []
        while len(out) < limit and sim.sizes[self.me] and not sim.done:
            if any(not sim.sizes[o] for o in self.rivals) or any(sim.played_any[o] for o in self.shut):
                break
            mine = sim.turn == self.me
            pick: Move | None = None
            pick_value: int | None = None
            first = True
            for m in self.options(sim):
                child = sim.clone()
                child.advance(m)
                got = self.plays_to_win(child)
                if first:
                    pick, pick_value, first = m, got, False
                    continue
                if (mine and got is not None and (pick_value is None or got < pick_value)) or (
                    not mine and pick_value is not None and (got is None or got > pick_value)
                ):
                    pick, pick_value = m, got
            out.append((sim.turn, pick))
            sim.advance(pick)
        return out
