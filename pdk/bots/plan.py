"""Hand planning for the bots: how many plays a hand needs, and how good those plays are.

A hand of 16 cards is shed in *groups* (a straight, a pair, a trio with kickers...). The
fewer groups a hand splits into, and the higher their ranks, the sooner it goes out and the
more tricks it can win back. ``Planner.value(counts)`` scores the best split of a hand: each
group costs one play (-1) and earns a bonus for a high top rank (a control card such as ♠2
or an A wins a trick back); a bomb costs no play (it can be played at any moment) and is
worth a bonus of its own. Trios and planes absorb their kickers from the lowest singles and
pairs, which is how a trio "carries" loose cards out.

The split is searched exactly over the chains (straights, pair chains, planes), in order of
their lowest rank, with the rest counted directly; results are memoized on the packed rank
counts, so a game's worth of positions costs a few milliseconds. Everything is read from
the move generator's profile knobs, so every variant plans with its own catalogue.
"""

from __future__ import annotations

from collections.abc import Callable

from pdk.engine import counts as C
from pdk.engine.combos import ComboKind
from pdk.engine.generator import Generator
from pdk.engine.movegen import BOMB, PAIR, PAIR_CHAIN, PLANE, SINGLE, STRAIGHT, TRIO

# Values are counted in hundredths of a play, as integers: every constant is a whole number
# of hundredths, so a split's total is exact whatever order it is added in, and two splits
# worth the same are equal (floats would tell them apart by rounding noise).
PLAY_COST = 100
BOMB_VALUE = 100
_STEP = 12  # bonus per rank above the "control" threshold
_SHORT_KICKER = 20  # a kicker slot no loose card fills
_CACHE_LIMIT = 200_000
# A chain the split may take: its rank counts, the kicker slots it owes, its value.
_Chain = tuple[int, int, int]
# Bits of a split node's key below the counts: the start rank (4 bits), the demand (6 bits).
_KEY_SHIFT = 10
# A field of 4 or more cards: bits 2-4 of any 5-bit count.
_FOUR_UP = C.LOW_BITS << 2 | C.LOW_BITS << 3 | C.LOW_BITS << 4


class Planner:
    """Hand values for one profile (build one per move generator with ``planner_for``)."""

    def __init__(self, gen: Generator) -> None:
        self.gen = gen
        profile = gen.profile
        totals = profile.rank_totals
        present = [r for r, n in enumerate(totals) if n]
        self.top_rank = max(present) if present else 12
        threshold = self.top_rank - 5
        self.bonus = [max(0, r - threshold) * _STEP for r in range(len(totals))]
        self.chain = list(gen.profile.combinations.chain_rank_indexes)
        self.chain_mask = sum(1 << r for r in self.chain)
        self.cache: dict[int, float] = {}
        self.base_cache: dict[int, int] = {}
        # The split's subproblems, shared by every hand this planner values: a position's
        # hand and the hands after each of its plays split into the same remainders, and
        # a pure function of (counts, start, demand) can be remembered across calls.
        self.split_cache: dict[int, int] = {}
        self.bomb_min = 4
        # Catalogue knobs, read from the profile (the generator's internals may change).
        combos = profile.combinations
        off = 99
        self.st_min = combos.straight.min_length if combos.straight.enabled else off
        self.pc_min = max(2, combos.pair_chain.min_length) if combos.pair_chain.enabled else off
        self.plane_min = combos.plane.min_length if combos.plane.enabled else off
        self.plane_k = combos.plane.kickers_per_trio
        self.trio_k = combos.trio.kickers
        self.four = profile.bombs.four
        # A single, pair or trio's value by its rank, and summed over a rank mask.
        ranks = range(len(C.ONE))
        self._single_v = [self.group_value(SINGLE, r, 1) for r in ranks]
        self._pair_v = [self.group_value(PAIR, r, 1) for r in ranks]
        self._trio_v = [self.group_value(TRIO, r, 1) for r in ranks]
        self._singles_sum = C.Table(self._summer(self._single_v))
        self._pairs_sum = C.Table(self._summer(self._pair_v))
        self._trios_sum = C.Table(self._summer(self._trio_v))
        # Chains by where they start and how long the run of ranks there is: for each
        # kind, ``runs[s][n]`` lists the chains starting at rank ``s`` that fit a run of
        # ``n`` consecutive ranks (with the kicker slots a plane owes), so a split looks
        # them up; and per rank mask, the ranks where a chain of minimum length can begin.
        self._kinds = [
            (width, self._runs_table(width, kind, min_len), C.Table(self._build_starts(min_len)))
            for width, kind, min_len in (
                (1, STRAIGHT, self.st_min),
                (2, PAIR_CHAIN, self.pc_min),
                (3, PLANE, self.plane_min),
            )
            if min_len <= 13
        ]
        # A split node's one look-up: the chain ranks held once, twice and three times
        # (packed 16 bits apart, ranks below the node's start cleared) -> the lowest rank
        # where a chain can begin and the chains that begin there, or None.
        self._next_chains: C.Table[tuple[int, list[_Chain]] | None] = C.Table(self._build_next)
        full = (1 << 16) - 1
        self._from = [((full >> s << s) & full) * (1 | 1 << 16 | 1 << 32) for s in range(17)]

    # -- group values ------------------------------------------------------------------------

    def group_value(self, kind: int, top: int, units: int) -> int:
        """What one group is worth while it is still in the hand, in hundredths of a play."""
        if kind == BOMB:
            return BOMB_VALUE + self.bonus[top] // 2
        if kind in (SINGLE, PAIR, TRIO):
            return -PLAY_COST + self.bonus[top]
        # Chains are hard to beat: a small bonus for length and for a high top.
        return -PLAY_COST + self.bonus[top] // 2 + 3 * units

    @staticmethod
    def _summer(values: list[int]) -> Callable[[int], int]:
        def total(mask: int) -> int:
            """The values of the ranks in ``mask``, summed."""
            return sum(values[r] for r in C.SET_BITS[mask])

        return total

    # -- the split ---------------------------------------------------------------------------

    def value(self, counts: int) -> float:
        """The best split's total value (higher is better; about minus the plays needed)."""
        v = self.cache.get(counts)
        if v is not None:
            return v
        if len(self.cache) > _CACHE_LIMIT:
            self.cache.clear()
        v = self._value(counts) / 100
        self.cache[counts] = v
        return v

    def _value(self, counts: int) -> int:
        if counts == 0:
            return 0
        total = 0
        free = counts
        if self.four and counts & _FOUR_UP:  # some rank is held four times or more
            for r, n in C.items(counts):
                if n >= self.bomb_min:
                    total += self.group_value(BOMB, r, 1)
                    free -= n * C.ONE[r]
        memo = self.split_cache
        if len(memo) > _CACHE_LIMIT:
            memo.clear()
        return total + self._split(free, 0, 0, memo)

    def _split(self, counts: int, start: int, demand: int, memo: dict[int, int]) -> int:
        """Best value of ``counts`` using chains whose lowest rank is >= ``start``;
        ``demand`` kicker slots are owed by planes already taken."""
        key = counts << _KEY_SHIFT | start << 6 | demand
        got = memo.get(key)
        if got is not None:
            return got
        m1, m2, m3 = C.rank_masks(counts)
        cm = self.chain_mask
        at = self._next_chains[((m1 & cm) | (m2 & cm) << 16 | (m3 & cm) << 32) & self._from[start]]
        if at is None:
            best = self._base_cached(counts, demand, m1, m2, m3)
        else:
            s, chains = at
            best = self._split(counts, s + 1, demand, memo)
            for chain, owed, v in chains:
                v += self._split(counts - chain, s, demand + owed, memo)
                if v > best:
                    best = v
        memo[key] = best
        return best

    def _build_next(self, packed: int) -> tuple[int, list[_Chain]] | None:
        low = (1 << 16) - 1
        masks = (packed & low, packed >> 16 & low, packed >> 32)
        starts = 0
        for width, _runs, starts_of in self._kinds:
            starts |= starts_of[masks[width - 1]]
        if not starts:
            return None
        s = (starts & -starts).bit_length() - 1
        chains: list[_Chain] = []
        for width, runs, _starts in self._kinds:
            x = masks[width - 1] >> s
            if x & 1:
                # The run of set bits from s: its length is the count of trailing ones.
                chains += runs[s][(~x & (x + 1)).bit_length() - 1]
        return s, chains

    def _runs_table(self, width: int, kind: ComboKind, min_len: int) -> list[list[list[_Chain]]]:
        ranks = len(C.ONE)
        table: list[list[list[_Chain]]] = []
        for s in range(ranks):
            by_run: list[list[_Chain]] = [[]]
            acc = 0
            for top in range(s, ranks):
                acc += width * C.ONE[top]
                length = top - s + 1
                chains = list(by_run[-1])
                if length >= min_len:
                    owed = self.plane_k * length if kind == PLANE else 0
                    chains.append((acc, owed, self.group_value(kind, top, length)))
                by_run.append(chains)
            table.append(by_run)
        return table

    @staticmethod
    def _build_starts(length: int) -> Callable[[int], int]:
        def starts(mask: int) -> int:
            """Ranks of ``mask`` where a run of ``length`` consecutive ranks begins."""
            run = mask
            for i in range(1, length):
                run &= mask >> i
            return run

        return starts

    def _base_cached(self, counts: int, demand: int, m1: int, m2: int, m3: int) -> int:
        if not counts & _FOUR_UP:
            return self._base_small(demand, m1, m2, m3)
        key = counts << 6 | demand
        v = self.base_cache.get(key)
        if v is None:
            if len(self.base_cache) > _CACHE_LIMIT:
                self.base_cache.clear()
            v = self._base(counts, demand)
            self.base_cache[key] = v
        return v

    def _base_small(self, demand: int, m1: int, m2: int, m3: int) -> int:
        """``_base`` for counts of at most three a rank (always so once bombs are set
        apart), read off the rank masks: singles, pairs and trios are bit sets."""
        singles, pairs = m1 & ~m2, m2 & ~m3
        total = self._singles_sum[singles] + self._pairs_sum[pairs] + self._trios_sum[m3]
        demand += self.trio_k * m3.bit_count()
        single_v, pair_v = self._single_v, self._pair_v
        # Kickers: the lowest singles first, then the lowest pairs (two slots each).
        while demand > 0:
            low_single = singles & -singles
            low_pair = pairs & -pairs
            if singles and (not pairs or low_single < low_pair or demand == 1):
                total -= single_v[low_single.bit_length() - 1]
                singles ^= low_single
                demand -= 1
            elif pairs:
                r = low_pair.bit_length() - 1
                total -= pair_v[r]
                if demand == 1:  # half a pair goes; the other card stays a single
                    total += single_v[r]
                pairs ^= low_pair
                demand -= 2
            else:
                # Not enough loose cards: the trio still goes out (short last hand or
                # kickers taken from elsewhere), at a small extra cost.
                total -= _SHORT_KICKER * demand
                break
        return total

    def _base(self, counts: int, demand: int) -> int:
        """Value of chain-free cards: singles, pairs, trios, with trios taking kickers."""
        singles: list[int] = []
        pairs: list[int] = []
        total = 0
        trio_k = self.trio_k
        single_v, pair_v, trio_v = self._single_v, self._pair_v, self._trio_v
        for r, n in C.items(counts):
            if n == 1:
                singles.append(r)
            elif n == 2:
                pairs.append(r)
            elif n == 3:
                total += trio_v[r]
                demand += trio_k
            else:  # several packs: treat a big group as a trio plus the rest as pairs
                total += trio_v[r]
                demand += trio_k
                rest = n - 3
                if rest % 2:
                    singles.append(r)
                pairs.extend([r] * (rest // 2))
        for r in singles:
            total += single_v[r]
        for r in pairs:
            total += pair_v[r]
        # Kickers: the lowest singles first, then the lowest pairs (two slots each).
        si = pi = 0
        while demand > 0:
            if si < len(singles) and (pi >= len(pairs) or singles[si] <= pairs[pi] or demand == 1):
                total -= single_v[singles[si]]
                si += 1
                demand -= 1
            elif pi < len(pairs):
                total -= pair_v[pairs[pi]]
                if demand == 1:  # half a pair goes; the other card stays a single
                    total += single_v[pairs[pi]]
                pi += 1
                demand -= 2
            else:
                total -= _SHORT_KICKER * demand
                break
        return total


_PLANNERS: dict[int, Planner] = {}
# Cards in a rank-count value: ``counts.total`` is a few integer operations, cheaper than
# the dict look-up that once memoised it.
size_of = C.total


def planner_for(gen: Generator) -> Planner:
    """One planner (and one value cache) per move generator, shared by every bot."""
    p = _PLANNERS.get(id(gen))
    if p is None or p.gen is not gen:
        p = Planner(gen)
        _PLANNERS[id(gen)] = p
    return p
