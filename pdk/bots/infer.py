"""Inference for the hard bot: deals of the hidden cards consistent with everything public.

Only a ``PlayerView`` is read. The hidden cards are the card counter's unseen ranks; they
lie in the other hands (whose sizes are public) and, in variants that set cards aside, in
an undealt pile. Public play constrains them:

* under must-beat (有牌必压) a pass *proves* the passer could not beat the play on the
  table: their hand at that moment (today's hand plus what they played since) held no
  beating play. After a pass over a single ``t`` they hold no card above ``t``; over a
  pair, no pair above it; over any non-bomb, no bomb at all. Those become per-rank caps
  that the sampler honours directly; every other pass is checked on the sampled hand with
  the move generator, and deals that break it are rejected.

Hands are sampled on rank counts (suits do not decide combinations).
"""

from __future__ import annotations

from dataclasses import dataclass

from pdk.bots.knowledge import unseen_counts
from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng
from pdk.engine.generator import Generator, generator_for
from pdk.engine.movegen import BOMB, PAIR, SINGLE
from pdk.engine.state import PlayerView

_NO_CAP = 99


@dataclass(frozen=True, slots=True)
class PassFact:
    """Seat ``seat`` passed over ``prev`` (with 报单 on its 下家 or not); ``later`` is the
    rank counts it has played since, so its hand then was today's hand plus ``later``."""

    seat: int
    prev: Move
    next_has_one: bool
    later: int


def pass_facts(view: PlayerView) -> list[PassFact]:
    """Every informative pass in the public history (none when passing is optional)."""
    profile = view.profile
    if not profile.rules.must_beat:
        return []
    n = view.players
    sizes = [profile.hand_size] * n
    raw: list[tuple[int, Move, bool, int]] = []  # seat, prev, next_has_one, history index
    prev: Move | None = None
    passes = 0
    for i, action in enumerate(view.history):
        seat = action.seat
        if action.play is None:
            if prev is not None:
                raw.append((seat, prev, sizes[(seat + 1) % n] == 1, i))
            passes += 1
            if passes >= n - 1:
                prev = None
                passes = 0
            continue
        prev = action.play.move
        passes = 0
        sizes[seat] -= len(action.play.cards)
    facts = []
    for seat, mv, nxt, idx in raw:
        later = 0
        for action in view.history[idx + 1 :]:
            if action.seat == seat and action.play is not None:
                later += C.from_cards(action.play.cards)
        facts.append(PassFact(seat, mv, nxt, later))
    return facts


class Sampler:
    """Draws the hidden hands (rank counts per seat) consistent with the public facts."""

    def __init__(
        self, view: PlayerView, *, unseen: int | None = None, holders: list[int] | None = None
    ) -> None:
        """``unseen`` and ``holders`` override what is read from the view: a position
        text has no history to count, and an open hand is no longer hidden."""
        self.view = view
        profile = view.profile
        self.gen: Generator = generator_for(profile)
        self.unseen = unseen_counts(view) if unseen is None else unseen
        self.ranks = C.ranks_list(self.unseen)
        others = [s for s in range(view.players) if s != view.seat]
        self.holders = others if holders is None else list(holders)
        self.sizes = [view.hand_sizes[s] for s in self.holders]
        aside = len(self.ranks) - sum(self.sizes)
        if aside > 0:  # an undealt pile (set-aside cards): a holder nobody plays from
            self.holders.append(-1)
            self.sizes.append(aside)
        self.facts = [f for f in pass_facts(view) if f.seat in self.holders]
        self.caps = self._caps()

    def _caps(self) -> list[list[int]]:
        """Per holder, per rank: the most cards of that rank the holder can hold now."""
        nr = len(self.view.profile.rank_totals)
        caps = [[_NO_CAP] * nr for _ in self.holders]
        four = self.view.profile.bombs.four
        for f in self.facts:
            cap = caps[self.holders.index(f.seat)]
            kind, top = f.prev.kind, f.prev.top
            limits: list[tuple[int, int]] = []  # (rank, max count in the hand then)
            if kind == BOMB:
                limits = [(r, 3) for r in range(top + 1, nr)]
            else:
                if four:
                    limits = [(r, 3) for r in range(nr)]
                if kind == SINGLE:
                    limits += [(r, 0) for r in range(top + 1, nr)]
                elif kind == PAIR:
                    limits += [(r, 1) for r in range(top + 1, nr)]
            for r, most in limits:
                now = max(0, most - C.count(f.later, r))
                if now < cap[r]:
                    cap[r] = now
        bombs = self.view.profile.bombs
        if bombs.four and bombs.unbreakable:
            # A held bomb cannot be broken: whoever played part of a rank outside a bomb held
            # at most three of it then, so at most three minus what it has played since.
            acc: dict[int, int] = {}
            for action in reversed(self.view.history):
                play = action.play
                if play is None or action.seat not in self.holders:
                    continue
                counts = C.from_cards(play.cards)
                seat_acc = acc.get(action.seat, 0) + counts
                acc[action.seat] = seat_acc
                if play.kind == BOMB:
                    continue
                cap = caps[self.holders.index(action.seat)]
                for r, _ in C.items(counts):
                    now = max(0, 3 - C.count(seat_acc, r))
                    if now < cap[r]:
                        cap[r] = now
        return caps

    def consistent(self, hands: dict[int, int]) -> bool:
        """Every pass in the history was forced for the sampled hands."""
        gen = self.gen
        for f in self.facts:
            then = hands[f.seat] + f.later
            if gen.follows(then, f.prev, f.next_has_one):
                return False
        return True

    def swap(self, hands: dict[int, int], rng: Rng) -> dict[int, int] | None:
        """A neighbouring deal for the hard bot's Metropolis steps: one card of one holder
        (the undealt pile included) traded for a card of another rank of another holder,
        or ``None`` when the trade breaks a cap or a pass. Sizes never change, so every
        deal it reaches is drawn from the same consistent deals as ``sample``'s."""
        k = len(self.holders)
        if k < 2:
            return None
        counts = [hands[h] if h >= 0 else 0 for h in self.holders]
        if self.holders[-1] < 0:
            counts[-1] = self.unseen - sum(counts[:-1])
        a = rng.below(k)
        b = (a + 1 + rng.below(k - 1)) % k
        ra, rb = C.ranks_list(counts[a]), C.ranks_list(counts[b])
        if not ra or not rb:
            return None
        x, y = ra[rng.below(len(ra))], rb[rng.below(len(rb))]
        if x == y:
            return None
        counts[a] += C.ONE[y] - C.ONE[x]
        counts[b] += C.ONE[x] - C.ONE[y]
        caps = self.caps
        if C.count(counts[a], y) > caps[a][y] or C.count(counts[b], x) > caps[b][x]:
            return None
        new = {h: counts[i] for i, h in enumerate(self.holders) if h >= 0}
        return new if self.consistent(new) else None

    def sample(self, rng: Rng, tries: int = 30) -> dict[int, int]:
        """One deal of the hidden cards: seat -> rank counts (the set-aside pile is dropped)."""
        fallback: dict[int, int] | None = None
        for attempt in range(tries):
            hands = self._draw(rng, use_caps=attempt < tries - 1)
            if hands is None:
                continue
            if self.consistent(hands):
                return hands
            if fallback is None:
                fallback = hands
        if fallback is None:
            fallback = self._draw(rng, use_caps=False)
            assert fallback is not None
        return fallback

    def _draw(self, rng: Rng, use_caps: bool) -> dict[int, int] | None:
        ranks = list(self.ranks)
        rng.shuffle(ranks)
        k = len(self.holders)
        room = list(self.sizes)
        held = [[0] * len(self.caps[0]) for _ in range(k)] if self.caps else [[0] * 16 for _ in range(k)]
        counts = [0] * k
        caps = self.caps
        # The most constrained cards first: those fewest holders may take.
        if use_caps:
            ranks.sort(key=lambda r: sum(1 for h in range(k) if caps[h][r] > 0))
        for r in ranks:
            total = 0
            for h in range(k):
                if room[h] and (not use_caps or held[h][r] < caps[h][r]):
                    total += room[h]
            if total == 0:
                return None
            pick = rng.below(total)
            for h in range(k):
                if room[h] and (not use_caps or held[h][r] < caps[h][r]):
                    if pick < room[h]:
                        break
                    pick -= room[h]
            room[h] -= 1
            held[h][r] += 1
            counts[h] += C.ONE[r]
        return {self.holders[h]: counts[h] for h in range(k) if self.holders[h] >= 0}
