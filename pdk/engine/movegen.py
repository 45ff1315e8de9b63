"""Legal-play generation on packed rank counts (detect → generate → filter).

Suits never decide a classic combination, so plays are generated as rank multisets
(``counts``) — plays that differ only in suit count once — and suits are attached when a
play is made. The generator reads only profile knobs. Must-beat, 报单 and the
unbreakable-bomb rule are applied here in one place; ``position.check`` judges a single play
independently, and a property test holds the two in exact agreement.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import partial
from operator import attrgetter
from typing import NamedTuple

from pdk.engine import counts as C
from pdk.engine.combos import ComboKind, Move
from pdk.engine.profile import Profile

SINGLE = ComboKind.SINGLE
PAIR = ComboKind.PAIR
PAIR_CHAIN = ComboKind.PAIR_CHAIN
STRAIGHT = ComboKind.STRAIGHT
TRIO = ComboKind.TRIO_WITH_TWO
PLANE = ComboKind.PLANE
BOMB = ComboKind.BOMB

ONE = C.ONE


# The hand memo is emptied when it reaches this many entries, so a long self-play run keeps
# a bounded footprint (the other tables are bounded by the number of rank masks, 2**15).
_MEMO_LIMIT = 50_000


_BITS = C.SET_BITS  # set bit indexes of a rank mask, lowest first
_COMPACT = C.COMPACT


def kicker_sets(its: list[tuple[int, int]], k: int) -> list[int]:
    """Every multiset of exactly ``k`` cards drawn from ``its`` ((rank, count) pairs).

    Built size by size, one rank at a time (largest size first, so a rank joins each set
    once), in list comprehensions: planes of an opening hand enumerate hundreds."""
    by_size: list[list[int]] = [[0]] + [[] for _ in range(k)]
    for r, n in its:
        one = ONE[r]
        for size in range(k, 0, -1):
            for take in range(1, min(n, size) + 1):
                add = one * take
                by_size[size] += [acc + add for acc in by_size[size - take]]
    return by_size[k]


class Hand(NamedTuple):
    """What the generator needs to know about a hand: its free (not bomb-locked) counts,
    the locked bomb ranks, and which ranks it holds at least 1, 2 or 3 of."""

    counts: int
    free: int
    locked: list[int]
    m1: int
    m2: int
    m3: int


class Hands(dict[int, Hand]):
    """counts -> ``Hand``, analysed on a miss (search and self-play meet the same hands
    again) and emptied at ``_MEMO_LIMIT`` entries. The analysis lives in ``__missing__``
    itself: a new hand costs one Python call, and every seat's hand changes each turn it
    plays."""

    __slots__ = ("one_pack", "unbreakable")

    def __init__(self, unbreakable: bool, one_pack: bool) -> None:
        super().__init__()
        self.unbreakable = unbreakable
        self.one_pack = one_pack

    def __missing__(self, counts: int) -> Hand:
        if len(self) > _MEMO_LIMIT:
            self.clear()
        free = counts
        locked: list[int] = []
        if self.unbreakable:
            if self.one_pack:
                # No count exceeds 4, so the fours are exactly the fields with bit 2 set.
                fours = (counts >> 2) & C.LOW_BITS
                if fours:
                    locked = _BITS[_COMPACT[fours]]
                    free = counts - (fours << 2)
            else:
                for r, n in C.items(counts):
                    if n >= 4:
                        locked.append(r)
                        free -= n << (5 * r)
        hand = self[counts] = _new(Hand, (counts, free, locked, *C.rank_masks(free)))
        return hand


_new = tuple.__new__
_TOP = attrgetter("top")


class MoveGenerator:
    """Legal plays for one profile. Build once per profile with ``generator_for``."""

    suited = False  # straight flushes need the cards, not just rank counts (general generator)

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        combos = profile.combinations
        chain = combos.chain_rank_indexes
        self.chain_lo = chain[0]
        self.chain_hi = chain[-1]
        self.chain_mask = sum(1 << r for r in chain)
        self.pc_min = combos.pair_chain.min_length if combos.pair_chain.enabled else 99
        self.st_min = combos.straight.min_length if combos.straight.enabled else 99
        self.trio_k = combos.trio.kickers
        self.trio_bare = combos.trio.bare
        self.plane_min = combos.plane.min_length if combos.plane.enabled else 99
        self.plane_k = combos.plane.kickers_per_trio
        self.four = profile.bombs.four
        self.unbreakable = profile.bombs.unbreakable and profile.bombs.four
        self.loose_bombs = self.four and not self.unbreakable  # fours found in the counts
        self.short = profile.rules.short_last_hand
        self.must_beat = profile.rules.must_beat
        self.bao = profile.rules.bao_dan_highest_single
        self.one_pack = profile.deck.packs == 1
        ranks = range(len(ONE))
        self.singles = [_new(Move, (ONE[r], SINGLE, r, 1)) for r in ranks]
        self.pairs = [_new(Move, (2 * ONE[r], PAIR, r, 1)) for r in ranks]
        self.fours = [_new(Move, (4 * ONE[r], BOMB, r, 1)) for r in ranks]
        self._two_cards = [[ONE[a] + ONE[b] for b in ranks] for a in ranks]
        self._hands = Hands(self.unbreakable, self.one_pack)
        # Tables on rank masks (at most 2**15 keys each, so they need no bound). Entries
        # are shared: callers copy before extending.
        # - what a leader can make of the ranks held once (singles, straights) and twice
        #   (pairs, pair chains);
        self._lead1: C.Table[list[Move]] = C.Table(self._build_lead1)
        self._lead2: C.Table[list[Move]] = C.Table(self._build_lead2)
        # - the singles and pairs of the ranks in a mask (a follower's mask is cut above
        #   the rank to beat);
        self._singles: C.Table[list[Move]] = C.Table(self._build_singles)
        self._pairs: C.Table[list[Move]] = C.Table(self._build_pairs)
        # - trio kickers: two cards of two different ranks, or a pair of one rank;
        self._two_ranks: C.Table[list[int]] = C.Table(self._build_two_ranks)
        self._pair_counts: C.Table[list[int]] = C.Table(self._build_pair_counts)
        # - the trio-with-two moves of each trio rank, by kicker counts (at most 120 keys
        #   a rank), so that a lead looks its moves up instead of building them: a Move
        #   costs four times a plain tuple to make.
        self._trio_with: list[C.Table[Move]] = [C.Table(partial(self._trio_move, t)) for t in ranks]
        # - chains of each length, by width (1 straights, 2 pair chains); a follower's
        #   list is keyed by mask and length.
        self._chain_runs: dict[tuple[int, int, int], list[Move]] = {}

    # -- bombs -----------------------------------------------------------------------------

    def _bombs(self, h: Hand, above: int) -> list[Move]:
        out: list[Move] = []
        if not self.four:
            return out
        fours = self.fours
        if self.unbreakable:
            return [fours[r] for r in h.locked if r > above]
        return [fours[r] for r, n in C.items(h.counts) if n == 4 and r > above]

    # -- chains ----------------------------------------------------------------------------

    def _all_chains(self, mask: int, width: int, kind: int, min_len: int) -> list[Move]:
        """Every run of ranks in ``mask`` of length >= min_len, ``width`` cards per rank."""
        mask &= self.chain_mask
        lo, hi = self.chain_lo, self.chain_hi
        out: list[Move] = []
        for start in range(lo, hi + 1):
            if not mask >> start & 1:
                continue
            acc = 0
            for top in range(start, hi + 1):
                if not mask >> top & 1:
                    break
                acc += width * ONE[top]
                length = top - start + 1
                if length >= min_len:
                    out.append(_new(Move, (acc, kind, top, length)))
        return out

    def _chains_of(self, mask: int, width: int, kind: int, length: int, above: int) -> list[Move]:
        """Runs of exactly ``length`` ranks in ``mask`` whose top is above ``above``."""
        mask &= self.chain_mask
        key = (mask, width, length)
        cached = self._chain_runs.get(key)
        if cached is None:
            cached = self._chain_runs[key] = self._runs(mask, width, kind, length)
        # Runs are built lowest top first: the ones above ``above`` are a tail.
        return cached[bisect_right(cached, above, key=_TOP) :]

    def _runs(self, mask: int, width: int, kind: int, length: int) -> list[Move]:
        out: list[Move] = []
        run = (1 << length) - 1
        for top in range(self.chain_lo + length - 1, self.chain_hi + 1):
            start = top - length + 1
            if (mask >> start) & run == run:
                acc = 0
                for r in range(start, top + 1):
                    acc += width * ONE[r]
                out.append(_new(Move, (acc, kind, top, length)))
        return out

    # -- trios and planes ------------------------------------------------------------------

    def _trios(self, h: Hand, above: int, out: list[Move]) -> None:
        k = self.trio_k
        free = h.free
        short = self.short and h.free == h.counts
        m1, m2 = h.m1, h.m2
        if k == 2 and not self.trio_bare:
            # The common case (classic16), on the hot path of every lead: the kickers of a
            # trio are any two cards of the other ranks, so they come from two tables on
            # rank masks (two different ranks; a pair of one rank); a trio with no kicker
            # left over is a short last hand.
            two_ranks, pair_counts, trio_with = self._two_ranks, self._pair_counts, self._trio_with
            for t in _BITS[h.m3 >> (above + 1) << (above + 1)]:
                keep = ~(1 << t)
                twos = two_ranks[m1 & keep]
                pairs = pair_counts[m2 & keep]
                if twos or pairs:
                    with_kickers = trio_with[t].__getitem__
                    out += map(with_kickers, twos)
                    out += map(with_kickers, pairs)
                elif short and C.count(free, t) == 3:
                    out.append(_new(Move, (h.counts, TRIO, t, 1)))
            return
        its = C.items(free)
        for t in _BITS[h.m3 >> (above + 1) << (above + 1)]:
            body = 3 * ONE[t]
            rest_its = [(r, n) for r, n in its if r != t]
            if self.trio_bare or k == 0:
                out.append(_new(Move, (body, TRIO, t, 1)))
            if k:
                rest_n = sum(n for _, n in rest_its)
                if rest_n >= k:
                    out.extend(_new(Move, (body + kk, TRIO, t, 1)) for kk in kicker_sets(rest_its, k))
                elif short and C.count(free, t) == 3 and (rest_n > 0 or not self.trio_bare):
                    out.append(_new(Move, (h.counts, TRIO, t, 1)))

    def _trio_move(self, t: int, kickers: int) -> Move:
        return _new(Move, (3 * ONE[t] + kickers, TRIO, t, 1))

    def _build_two_ranks(self, mask: int) -> list[int]:
        ranks = _BITS[mask]
        two = self._two_cards
        return [two[a][b] for i, a in enumerate(ranks) for b in ranks[i + 1 :]]

    def _build_pair_counts(self, mask: int) -> list[int]:
        return [self.pairs[r][0] for r in _BITS[mask]]

    def _planes(self, h: Hand, above: int, length: int | None, out: list[Move]) -> None:
        """Planes (all lengths, or one length when following), deduplicated by cards.

        Different readings of the same cards (D2) collapse to the one with the most trios,
        then the highest top rank; the follower's path only asks for one length, so there
        the reading that beats is the one kept.
        """
        m3 = h.m3 & self.chain_mask
        if not m3 & (m3 >> 1) or self.plane_min > 13:
            return  # no two consecutive trios: no plane
        free = h.free
        short = self.short and h.free == h.counts
        found: dict[int, Move] = {}
        kpt = self.plane_k
        for start in _BITS[m3]:
            body = 0
            field_mask = 0
            for top in range(start, self.chain_hi + 1):
                if not m3 >> top & 1:
                    break
                body += 3 * ONE[top]
                field_mask |= 31 << (5 * top)
                n = top - start + 1
                if n < self.plane_min or top <= above or (length is not None and n != length):
                    continue
                rest = free & ~field_mask
                rest_n = C.total(rest)
                want = kpt * n
                if rest_n >= want:
                    for kk in kicker_sets(C.items(rest), want):
                        _keep(found, body + kk, top, n)
                elif short:
                    _keep(found, h.counts, top, n)
        out.extend(found.values())

    # -- the public entry points -----------------------------------------------------------

    def _build_singles(self, mask: int) -> list[Move]:
        singles = self.singles
        return [singles[r] for r in _BITS[mask]]

    def _build_pairs(self, mask: int) -> list[Move]:
        pairs = self.pairs
        return [pairs[r] for r in _BITS[mask]]

    def _build_lead1(self, mask: int) -> list[Move]:
        return self._singles[mask] + self._all_chains(mask, 1, STRAIGHT, self.st_min)

    def _build_lead2(self, mask: int) -> list[Move]:
        return self._pairs[mask] + self._all_chains(mask, 2, PAIR_CHAIN, self.pc_min)

    def leads(self, counts: int, next_has_one: bool = False) -> list[Move]:
        """Every legal play when leading a trick (passing is never allowed then)."""
        h = self._hands[counts]
        m1 = h.m1
        out = self._bombs(h, -1) if h.locked or self.loose_bombs else []
        if next_has_one and self.bao and m1:
            # 报单: of the singles only the highest; straights are unaffected.
            out.append(self.singles[m1.bit_length() - 1])
            out.extend(self._lead1[m1][m1.bit_count() :])
        else:
            out.extend(self._lead1[m1])
        out.extend(self._lead2[h.m2])
        m3 = h.m3
        if m3:
            self._trios(h, -1, out)
            if m3 & (m3 >> 1):  # two trios in a row: maybe a plane
                self._planes(h, -1, None, out)
        return out

    def follows(self, counts: int, prev: Move, next_has_one: bool = False) -> list[Move]:
        """Every legal play that beats ``prev`` (passing is decided by ``can_pass``)."""
        _, kind, top, units = prev
        h = self._hands[counts]
        if kind == BOMB:
            return self._bombs(h, top)
        if kind == SINGLE:
            if next_has_one and self.bao:
                high = h.m1.bit_length() - 1
                out = [self.singles[high]] if high > top else []
            else:
                out = [*self._singles[h.m1 >> (top + 1) << (top + 1)]]
        elif kind == PAIR:
            out = [*self._pairs[h.m2 >> (top + 1) << (top + 1)]]
        elif kind == PAIR_CHAIN:
            out = self._chains_of(h.m2, 2, PAIR_CHAIN, units, top)
        elif kind == STRAIGHT:
            out = self._chains_of(h.m1, 1, STRAIGHT, units, top)
        else:
            out = []
            if kind == TRIO:
                self._trios(h, top, out)
            elif kind == PLANE:
                self._planes(h, top, units, out)
        if h.locked or self.loose_bombs:
            out.extend(self._bombs(h, -1))
        return out

    def smallest_follow(self, counts: int, prev: Move) -> int | None:
        """The fewest cards of a play other than a bomb that beats ``prev`` from
        ``counts`` (``None``: there is none). The bots' card counter asks it of the pooled
        unseen cards ("could anyone beat this?"), where only existence and size matter."""
        _, kind, top, units = prev
        if kind == BOMB:
            return None  # only a bomb beats a bomb
        h = self._hands[counts]
        # A single, a pair or a chain of the same length that beats is always the same
        # size: whether one exists is read off the rank masks (what ``follows`` lists).
        if kind == SINGLE:
            return 1 if h.m1 >> (top + 1) else None
        if kind == PAIR:
            return 2 if h.m2 >> (top + 1) else None
        if kind == STRAIGHT:
            return units if self._chains_of(h.m1, 1, STRAIGHT, units, top) else None
        if kind == PAIR_CHAIN:
            return 2 * units if self._chains_of(h.m2, 2, PAIR_CHAIN, units, top) else None
        out: list[Move] = []
        if kind == TRIO:
            self._trios(h, top, out)
        elif kind == PLANE:
            self._planes(h, top, units, out)
        return min(map(C.total, [m.counts for m in out]), default=None)

    def moves(
        self, counts: int, prev: Move | None, next_has_one: bool = False, hand_mask: int = 0
    ) -> list[Move]:
        """Leads or follows. ``hand_mask`` (the cards) matters only to a suit-aware generator."""
        return self.leads(counts, next_has_one) if prev is None else self.follows(counts, prev, next_has_one)

    def can_pass(self, prev: Move | None, moves: list[Move]) -> bool:
        """The leader never passes; a follower passes only if must-beat allows it."""
        if prev is None:
            return False
        return not (self.must_beat and moves)


def _keep(found: dict[int, Move], counts: int, top: int, trios: int) -> None:
    """Keep the plane reading of ``counts`` with the most trios, then the highest top (D2);
    the Move is made only for a reading that is kept."""
    old = found.get(counts)
    if old is None or (trios, top) > (old.units, old.top):
        found[counts] = _new(Move, (counts, PLANE, top, trios))
