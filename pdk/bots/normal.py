"""The ``normal`` bot: a solid club player built on hand planning and card counting.

Every legal play is scored by what it leaves behind (``Planner.value`` of the rest: fewest
plays, high cards kept as control), plus a few judgements a good player makes:

* a play nobody can beat (by the card counter) wins the trick back — worth a tempo;
* when leading, if the hand can go out by a run of sure winners ending in one last play,
  play that run (the unbeatable card first, then the rest);
* a bomb nobody can top collects the bomb bonus, so it is played; one that might be topped
  is kept for when it is needed;
* 报单: with an opponent on one or two cards, do not hand them a play they can beat to go
  out — lead combinations, or sure winners, instead;
* passing (only when the rules allow it) keeps strength but gives the trick away, and is
  never done when the trick's owner is about to go out.

Scores are in "plays" (about one unit per group in the hand). It is deterministic: the
seed is accepted for the common bot interface only.
"""

from __future__ import annotations

from pdk.bots.knowledge import Knowledge
from pdk.bots.plan import Planner, planner_for, size_of
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.generator import Generator, generator_for
from pdk.engine.movegen import BOMB, PLANE, SINGLE, TRIO
from pdk.engine.state import PlayerView

TEMPO = 0.5  # winning the trick back (the lead is worth about half a play)
SAFE_BOMB = 2.5  # a bomb that collects its bonus: 10 from each other player
DANGER = 4.0  # handing an opponent the play that takes them out
PASS_COST = 0.3


class NormalBot:
    """Plans its hand into the fewest plays and keeps control; see the module docstring."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Move | None:
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        if not moves:
            return None
        if len(moves) == 1 and not can_pass:
            return moves[0]
        return Judge(view).rank(moves, can_pass)[0][1]


# A judgement at or above this is a certain win: going out now, or a run of winners.
SURE = 1e6


class Judge:
    """One decision's worth of context: planner, card counter, the table's danger."""

    def __init__(self, view: PlayerView, know: Knowledge | None = None) -> None:
        self.view = view
        self.gen: Generator = generator_for(view.profile)
        self.plan: Planner = planner_for(self.gen)
        self.know = know if know is not None else Knowledge(view)
        self.hand = self.know.hand
        self.size = size_of(self.hand)
        self._out_memo: dict[tuple[int, int], bool] = {}

    def rank(self, moves: list[Move], can_pass: bool, trim: bool = True) -> list[tuple[float, Move | None]]:
        """Every choice (``None`` = pass, when allowed) with its score, best first."""
        view = self.view
        leading = view.prev is None
        if leading:
            win = self.winning_lead(moves)
            if win is not None:
                rest = [(self.score(m, leading), m) for m in moves if m is not win]
                rest.sort(key=_key, reverse=True)
                return [(1e9, win), *rest]
        out: list[tuple[float, Move | None]] = [
            (self.score(m, leading), m) for m in (self._trim(moves) if trim else moves)
        ]
        if can_pass:
            out.append((self.pass_score(), None))
        out.sort(key=_key, reverse=True)
        return out

    def _trim(self, moves: list[Move]) -> list[Move]:
        """Trios and planes differ only in kickers: keep the few kicker choices worth
        scoring (the planner values the rest), so big hands stay fast."""
        if len(moves) <= 40:
            return moves
        keep: list[Move] = []
        by_body: dict[tuple[int, int, int], list[Move]] = {}
        for m in moves:
            if m.kind in (TRIO, PLANE):
                by_body.setdefault((m.kind, m.top, m.units), []).append(m)
            else:
                keep.append(m)
        for group in by_body.values():
            group.sort(key=lambda m: _kicker_weight(m))
            keep.extend(group[:4])
        return keep

    # -- scoring -----------------------------------------------------------------------------

    def score(self, move: Move, leading: bool) -> float:
        know = self.know
        counts = move.counts
        if counts == self.hand:
            return SURE + (100.0 if move.kind == BOMB else 0.0)  # going out wins the deal
        rest = self.hand - counts
        s = self.plan.value(rest)
        safe = know.safe(move)
        if move.kind == BOMB:
            s += SAFE_BOMB if safe else 0.3
        if safe:
            s += TEMPO
        s -= self.danger(move, safe, leading)
        if not leading:
            # Beating with a play that a sure winner could replace is fine; keep the planner's
            # view, but a follow that strips a control card when nobody threatens costs a bit.
            pass
        # The last card (报单 for us): keep the one the others can least beat.
        if size_of(rest) == 1:
            (r,) = [r for r, _ in C.items(rest)]
            if not know.beatable(Move(rest, SINGLE, r, 1)):
                s += 1.5
        return s

    def danger(self, move: Move, safe: bool, leading: bool) -> float:
        """Penalty for a play an opponent on few cards could beat and then go out with."""
        if safe:
            return 0.0
        know = self.know
        n = size_of(move.counts)
        penalty = 0.0
        for size in know.opp_sizes:
            if size > 3:
                continue
            if move.kind != BOMB and size >= n and know.beatable(move, size):
                if size == n:
                    penalty = max(penalty, DANGER)  # they beat it and are out
                elif size <= 2:
                    penalty = max(penalty, DANGER * 0.4)  # they beat it and lead their last
            if leading and move.kind == SINGLE and size == 1:
                penalty = max(penalty, DANGER * 0.5)
        return penalty

    def pass_score(self) -> float:
        view = self.view
        s = self.plan.value(self.hand) - PASS_COST
        owner = view.prev_seat
        if owner is not None and owner != view.seat:
            owner_size = view.hand_sizes[owner]
            if owner_size <= 2:
                s -= DANGER  # they keep the lead and are about to go out
        return s

    # -- going out by sure winners ------------------------------------------------------------

    def winning_lead(self, moves: list[Move]) -> Move | None:
        """A lead that starts a run of unbeatable plays ending with the hand empty."""
        if self.plan.value(self.hand) < -4.5:
            return None
        nxt = self.view.hand_sizes[self.view.next_seat] == 1
        for m in moves:
            if m.counts == self.hand:
                return m
        best: Move | None = None
        for m in sorted(moves, key=lambda m: m.kind != BOMB):
            if self.know.safe(m) and self._goes_out(self.hand - m.counts, nxt, 3):
                best = m
                break
        return best

    def _goes_out(self, hand: int, nxt: bool, depth: int) -> bool:
        key = (hand, depth)
        got = self._out_memo.get(key)
        if got is not None:
            return got
        leads = self.gen.leads(hand, nxt)
        if any(m.counts == hand for m in leads):
            result = True
        elif depth == 0:
            result = False
        else:
            result = any(self.know.safe(m) and self._goes_out(hand - m.counts, nxt, depth - 1) for m in leads)
        self._out_memo[key] = result
        return result


def _key(item: tuple[float, Move | None]) -> float:
    return item[0]


def _kicker_weight(move: Move) -> int:
    """How much a trio's or plane's kickers cost: low ranks are cheap to give away."""
    body_ranks = 0
    w = 0
    for r, n in C.items(move.counts):
        if n >= 3:
            body_ranks += 1
            continue
        w += n * (r + 1)
    return w


