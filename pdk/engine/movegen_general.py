"""Legal-play generation for the knobs the fast generator does not cover.

``pdk.engine.movegen`` is tuned for the classic catalogue (any-card kickers of one fixed count,
four-card bombs, one pack). Variants add pair kickers, bare trios and trio chains,
kicker ranges with exact following, four-with-kickers, bombs of 4-8 cards, joker bombs,
A/2 low in chains and straight flushes. This generator covers all of them in one way:
it enumerates candidate rank multisets by shape and asks ``rules.judge`` — the rule core
``check`` uses — for each one's legal reading, so generation and checking cannot
disagree. Only straight flushes need suits; that path runs only when the profile has them
(``suited``), with the hand's card bitmask passed in, and yields one move per suit that
makes the flush (``Move.suit``).
"""

from __future__ import annotations

from pdk.engine import counts as C
from pdk.engine.cards import Rank
from pdk.engine.combos import ComboKind, Move, Reading, beats, classify, plane_reading, trio_kind
from pdk.engine.judge import judge, locked_ranks
from pdk.engine.movegen import MoveGenerator, kicker_sets
from pdk.engine.profile import Profile

ONE = C.ONE
_JOKERS = ONE[Rank.BLACK_JOKER] + ONE[Rank.RED_JOKER]

# Which candidate shapes can beat a play of each kind (bombs always can).
_SHAPES_FOR: dict[int, frozenset[str]] = {
    ComboKind.SINGLE: frozenset({"single"}),
    ComboKind.PAIR: frozenset({"pair"}),
    ComboKind.PAIR_CHAIN: frozenset({"pair_chain"}),
    ComboKind.STRAIGHT: frozenset({"straight", "flush"}),
    ComboKind.STRAIGHT_FLUSH: frozenset({"flush"}),
    ComboKind.TRIO: frozenset({"trio"}),
    ComboKind.TRIO_WITH_ONE: frozenset({"trio"}),
    ComboKind.TRIO_WITH_TWO: frozenset({"trio"}),
    ComboKind.PLANE: frozenset({"plane"}),
    ComboKind.TRIO_CHAIN: frozenset({"plane"}),
    ComboKind.FOUR_WITH: frozenset({"four_with"}),
    ComboKind.BOMB: frozenset(),
}
# Plays beaten only by their own shape at their own size: cards per rank of that shape.
_SAME_SIZE: dict[int, int] = {
    ComboKind.SINGLE: 1,
    ComboKind.PAIR: 2,
    ComboKind.STRAIGHT: 1,
    ComboKind.PAIR_CHAIN: 2,
}
# The kinds a one-suit straight reads as (a bomb only where the profile makes it one).
_FLUSH_KINDS = (ComboKind.STRAIGHT_FLUSH, ComboKind.BOMB)
_ALL = frozenset({"single", "pair", "pair_chain", "straight", "flush", "trio", "plane", "four_with"})


def _lowest_set(its: list[tuple[int, int]], k: int) -> list[int]:
    """The one multiset of ``k`` cards from ``its`` that takes the lowest ranks first (none
    when there are fewer than ``k``): a member of ``kicker_sets(its, k)``."""
    acc = 0
    for r, n in its:
        if k <= 0:
            break
        take = min(n, k)
        acc += take * ONE[r]
        k -= take
    return [acc] if k <= 0 else []


class _Proposals:
    """Candidates proposed by trio, four-with and plane shapes, each batch under the one
    reading those cards get (a trio of t with k kickers, ...). A batch whose reading the rule
    core (``beats``) says cannot beat the play is *hopeless*; a candidate is hopeless only
    if every proposal of it was, and no earlier shape proposed it (``others``)."""

    __slots__ = ("hopeful", "others", "plain", "sample", "sampled", "suspect")

    def __init__(self, plain: set[int], others: set[int], sample: bool = False) -> None:
        self.plain = plain
        self.others = others
        self.hopeful: set[int] = set()
        self.suspect: set[int] = set()
        # With ``sample``, a body is proposed with one kicker set (its lowest) standing for
        # all of them; ``sampled`` holds those stand-ins.
        self.sample = sample
        self.sampled: set[int] = set()

    def add(self, cands: list[int], hopeless: bool) -> None:
        self.plain.update(cands)  # always: the set's order is the plays' order
        (self.suspect if hopeless else self.hopeful).update(cands)
        if self.sample:
            self.sampled.update(cands)

    def hopeless(self) -> set[int]:
        return self.suspect - self.hopeful - self.others


class GeneralGenerator(MoveGenerator):
    """Legal plays for any profile; ``generator_for`` picks it when a knob needs it."""

    def __init__(self, profile: Profile) -> None:
        super().__init__(profile)
        combos = profile.combinations
        self.suited = combos.straight_flush != "none"
        # A straight flush that is a bomb can answer any play, at any length.
        self.flush_bomb = combos.straight_flush == "bomb"
        if self.suited or profile.deck.packs > 1:
            self.one_pack = False
        # Chain windows as (rank mask, length, one card of each rank as counts).
        self.windows = [
            (mask, mask.bit_count(), sum(ONE[r] for r in range(Rank.BLACK_JOKER) if mask >> r & 1))
            for mask, _top in sorted(combos.chain_windows.items(), key=lambda w: (w[0].bit_count(), w[1]))
        ]
        # classify() is a pure function of the cards: memoised, since candidates recur.
        self._readings: dict[tuple[int, bool, bool], list[Reading]] = {}
        # Whole answers too: search and self-play meet the same positions again.
        self._answers: dict[tuple[int, Move | None, bool, int], list[Move]] = {}
        # smallest_follow's answers by (counts, kind, top, units): what beating reads of a play.
        self._smallest: dict[tuple[int, int, int, int], int | None] = {}

    # -- the public entry points (same as MoveGenerator's, plus the hand for flushes) ----

    def leads(self, counts: int, next_has_one: bool = False, hand_mask: int = 0) -> list[Move]:
        return self._legal(counts, None, next_has_one, hand_mask)

    def follows(self, counts: int, prev: Move, next_has_one: bool = False, hand_mask: int = 0) -> list[Move]:
        return self._legal(counts, prev, next_has_one, hand_mask)

    def moves(
        self, counts: int, prev: Move | None, next_has_one: bool = False, hand_mask: int = 0
    ) -> list[Move]:
        return self._legal(counts, prev, next_has_one, hand_mask)

    def forget_positions(self) -> None:
        """Drop the memoised answers (benchmarks time generation, not the memo)."""
        self._answers.clear()
        self._smallest.clear()

    # -- generation ----------------------------------------------------------------------

    def _legal(self, counts: int, prev: Move | None, next_has_one: bool, hand_mask: int) -> list[Move]:
        key = (counts, prev, next_has_one, hand_mask if self.suited else 0)
        answer = self._answers.get(key)
        if answer is None:
            if len(self._answers) > 100_000:
                self._answers.clear()
            answer = self._answers[key] = self._generate(counts, prev, next_has_one, hand_mask)
        return list(answer)

    def _generate(self, counts: int, prev: Move | None, next_has_one: bool, hand_mask: int) -> list[Move]:
        shapes = _ALL if prev is None else _SHAPES_FOR[prev.kind]
        if self.flush_bomb:
            shapes = shapes | {"flush"}
        locked = locked_ranks(self.profile, counts)
        plain, flushes, hopeless, _ = self._candidates(counts, locked, shapes, hand_mask, prev)
        out: list[Move] = []
        seen: set[tuple[int, int, int]] = set()
        # Flush bodies in their set's order (the order seeded games meet them in), each once
        # per suit that makes it: 34567 in ♥ and in ♠ are two moves.
        cands = [(c, -1) for c in plain] + [(c, s) for c in set(flushes) for s in flushes[c]]
        for cand, suit in cands:
            flush = suit >= 0
            if cand in hopeless and not flush:
                continue
            verdict = self._judged(counts, cand, prev, next_has_one, flush, locked)
            if verdict is not None:
                if verdict.kind == ComboKind.STRAIGHT and self.suited and _one_suit_only(cand, hand_mask):
                    continue  # 同花顺 is a straight of one suit: these cards are only ever a flush
                if verdict.kind not in _FLUSH_KINDS:
                    suit = -1  # one suit's cards read as a plain play here: any suits do
                key = (cand, int(verdict.kind), suit)
                if key not in seen:
                    seen.add(key)
                    out.append(Move(cand, verdict.kind, verdict.top, verdict.units, suit))
        return out

    def smallest_follow(self, counts: int, prev: Move) -> int | None:
        """As ``MoveGenerator.smallest_follow``, without listing every play: the candidates
        are judged smallest first and the first legal one answers. Kicker choices multiply
        the follows of a trio or a four-with many times over, and the question is asked of
        the pooled unseen cards several times a decision; the pool changes only now and then,
        so the answers are remembered."""
        key = (counts, prev.kind, prev.top, prev.units)
        memo = self._smallest
        if key in memo:
            return memo[key]
        if len(memo) > 100_000:
            memo.clear()
        memo[key] = answer = self._smallest_follow(counts, prev)
        return answer

    def _smallest_follow(self, counts: int, prev: Move) -> int | None:
        shapes = _SHAPES_FOR[prev.kind]  # bombs answer anything, and are not asked about
        locked = locked_ranks(self.profile, counts)
        width = _SAME_SIZE.get(prev.kind)
        if width is not None:
            return self._same_size_follow(counts, prev, locked, width)
        # First with one kicker set per body: every kicker set of a body has the same size,
        # so the stand-in answers for the body unless the rule core turns it down; only
        # then are the bodies' other kicker sets worth judging (the full candidate set).
        answer, sure = self._fewest(counts, locked, shapes, prev, sample=True)
        if not sure:
            answer, sure = self._fewest(counts, locked, shapes, prev, sample=False)
        return answer

    def _same_size_follow(self, counts: int, prev: Move, locked: list[int], width: int) -> int | None:
        """``_smallest_follow`` for a play that only its own shape, at its own size, beats
        (a single, a pair, a straight, a pair chain; bombs are not asked about): the size
        of ``prev`` if the rule core passes one candidate of that shape, highest first,
        else None. Building every shape's candidates to sort them cost twenty times more."""
        free = counts
        for r in locked:
            free -= C.count(counts, r) * ONE[r]
        if prev.kind in (ComboKind.SINGLE, ComboKind.PAIR):
            cands = [width * ONE[r] for r, n in reversed(C.items(free)) if n >= width]
        else:
            held = C.rank_masks(free)[width - 1]
            fits = [body for window, n, body in self.windows if n == prev.units and window & held == window]
            cands = sorted((width * body for body in fits), reverse=True)
        for cand in cands:
            verdict = self._judged(counts, cand, prev, False, False, locked)
            if verdict is not None and verdict.kind != ComboKind.BOMB:
                return C.total(cand)
        return None

    def _fewest(
        self, counts: int, locked: list[int], shapes: frozenset[str], prev: Move, sample: bool
    ) -> tuple[int | None, bool]:
        """The smallest legal non-bomb follow's size among the candidates, and whether that
        is sure: not when a stand-in for other kicker sets, smaller, was turned down."""
        plain, _flushes, hopeless, sampled = self._candidates(counts, locked, shapes, 0, prev, sample)
        # Smallest first; within a size the highest ranks first (packed counts grow with
        # their top rank), as those are the likeliest to beat: any legal one answers.
        for cand in sorted(plain - hopeless, key=lambda c: (C.total(c), -c)):
            verdict = self._judged(counts, cand, prev, False, False, locked)
            if verdict is None:
                if cand in sampled:
                    return None, False
            elif verdict.kind != ComboKind.BOMB:
                return C.total(cand), True
        return None, True

    def _judged(
        self, counts: int, cand: int, prev: Move | None, next_has_one: bool, flush: bool, locked: list[int]
    ) -> Reading | None:
        """The rule core's legal reading of playing ``cand`` from ``counts``, or None."""
        whole = cand == counts
        memo = self._readings
        readings = memo.get((cand, whole, flush))
        if readings is None:
            if len(memo) > 200_000:
                memo.clear()
            readings = memo[cand, whole, flush] = classify(self.profile, cand, whole_hand=whole, flush=flush)
        if not readings:
            return None
        if prev is not None and not any(beats(r.kind, r.top, r.units, *prev[1:4]) for r in readings):
            return None
        verdict = judge(
            self.profile, counts, cand, prev, next_has_one, flush, locked=locked, readings=readings
        )
        return verdict if isinstance(verdict, Reading) else None

    def _candidates(
        self,
        counts: int,
        locked: list[int],
        shapes: frozenset[str],
        hand_mask: int,
        prev: Move | None,
        sample: bool = False,
    ) -> tuple[set[int], dict[int, list[int]], set[int], set[int]]:
        """Rank multisets worth judging: (plain candidates, one-suit straight candidates
        with the suits that make each, plain candidates that cannot beat ``prev``). ``locked``
        are the ranks held as unbreakable bombs. Hopeless candidates stay in the plain set,
        whose iteration order is the order of the plays returned (seeded games depend on
        it): they are only marked, so that judging skips them. With ``sample`` a trio, four
        or plane body comes with its lowest kicker set only, and the fourth set holds those
        stand-ins."""
        profile = self.profile
        combos = profile.combinations
        free = counts
        for r in locked:
            free -= C.count(counts, r) * ONE[r]
        its = C.items(free)
        m1, m2, m3 = C.rank_masks(free)
        plain: set[int] = set()
        flushes: dict[int, list[int]] = {}
        plain.update(self._bombs_of(counts, locked))
        # The whole hand is always worth asking about: it is where short last hands live.
        plain.add(counts)
        want_len = -1
        if prev is not None and prev.kind in (
            ComboKind.PAIR_CHAIN,
            ComboKind.STRAIGHT,
            ComboKind.STRAIGHT_FLUSH,
        ):
            want_len = prev.units
        if "single" in shapes:
            plain.update(ONE[r] for r, _ in its)
        if "pair" in shapes:
            plain.update(2 * ONE[r] for r, n in its if n >= 2)
        if shapes & {"pair_chain", "straight", "flush"}:
            suit_masks = self._suit_masks(hand_mask, locked) if "flush" in shapes and self.suited else []
            pc, st = combos.pair_chain, combos.straight
            for window, length, body in self.windows:
                if want_len >= 0 and length != want_len and not self.flush_bomb:
                    continue
                if (
                    "pair_chain" in shapes
                    and pc.enabled
                    and length >= pc.min_length
                    and window & m2 == window
                ):
                    plain.add(2 * body)
                if st.enabled and length >= st.min_length and window & m1 == window:
                    if "straight" in shapes and (want_len < 0 or length == want_len):
                        plain.add(body)
                    suits = [s for s, sm in enumerate(suit_masks) if window & sm == window]
                    if suits:
                        flushes[body] = suits
        # Trios, fours and planes come last: a candidate only they propose, under a reading
        # the rule core says cannot beat ``prev``, is hopeless (``_Proposals``).
        proposals = _Proposals(plain, set(plain) if prev is not None else set(), sample)
        if "trio" in shapes:
            self._gen_trios(its, prev, proposals)
        if "four_with" in shapes and combos.four_with.enabled:
            self._gen_fours(counts, its, prev, proposals)
        if "plane" in shapes and combos.plane.enabled:
            self._gen_planes(its, m3, prev, proposals)
        return plain, flushes, proposals.hopeless(), proposals.sampled

    def _bombs_of(self, counts: int, locked: list[int]) -> list[int]:
        bombs = self.profile.bombs
        out: list[int] = []
        if bombs.four:
            for r, n in C.items(counts):
                if r >= Rank.BLACK_JOKER or n < bombs.min_size:
                    continue
                if r in locked:
                    out.append(n * ONE[r])
                else:
                    out.extend(k * ONE[r] for k in range(bombs.min_size, min(n, bombs.max_size) + 1))
        if bombs.three_aces and C.count(counts, Rank.ACE) >= 3:
            out.append(3 * ONE[Rank.ACE])
        b = C.count(counts, Rank.BLACK_JOKER)
        red = C.count(counts, Rank.RED_JOKER)
        if bombs.joker_pair and b and red:
            out.append(_JOKERS)
        if bombs.four_jokers and b >= 2 and red >= 2:
            out.append(2 * _JOKERS)
        return out

    def _suit_masks(self, hand_mask: int, locked: list[int]) -> list[int]:
        """For each suit, the ranks the hand holds in that suit (bomb-locked ranks left out)."""
        out = []
        for s in range(4):
            m = 0
            for r in range(Rank.BLACK_JOKER):
                if r in locked:
                    continue
                if hand_mask >> (r * 4 + s) & 1 or hand_mask >> (64 + r * 4 + s) & 1:
                    m |= 1 << r
            out.append(m)
        return out

    def _kickers(self, rest: list[tuple[int, int]], n: int, kind: str, lowest: bool = False) -> list[int]:
        """The kicker sets of ``n`` cards (``kind``: any cards, or whole pairs) drawn from
        ``rest``; with ``lowest``, only the one made of the lowest cards (if any)."""
        if kind == "pairs":
            if n % 2:
                return []
            units = [(r, k // 2) for r, k in rest if k >= 2]
            return [2 * k for k in (_lowest_set(units, n // 2) if lowest else kicker_sets(units, n // 2))]
        return _lowest_set(rest, n) if lowest else kicker_sets(rest, n)

    def _gen_trios(self, its: list[tuple[int, int]], prev: Move | None, out: _Proposals) -> None:
        profile = self.profile
        trio = profile.combinations.trio
        for t, n in its:
            if n < 3 or t >= Rank.BLACK_JOKER:
                continue
            body = 3 * ONE[t]
            rest = [(r, k) for r, k in its if r != t]
            for k in trio.counts:
                # A trio with k kickers reads as trio_kind(k) topped by t (the whole hand's
                # short reading is judged as the whole-hand candidate): if the rule core says
                # that cannot beat the play, none of its kicker sets can.
                hopeless = prev is not None and not beats(trio_kind(profile, k), t, 1, *prev[1:4])
                out.add([body + kk for kk in self._kickers(rest, k, trio.kicker_kind, out.sample)], hopeless)

    def _gen_fours(self, counts: int, its: list[tuple[int, int]], prev: Move | None, out: _Proposals) -> None:
        four = self.profile.combinations.four_with
        for r, n in C.items(counts):
            if n != 4 or r >= Rank.BLACK_JOKER:
                continue
            rest = [(q, k) for q, k in its if q != r]
            for k in range(four.min_kickers, four.max_kickers + 1):
                units = k if four.follow_same_kickers else 1  # as classify reads it
                hopeless = prev is not None and not beats(ComboKind.FOUR_WITH, r, units, *prev[1:4])
                kickers = self._kickers(rest, k, four.kicker_kind, out.sample)
                out.add([4 * ONE[r] + kk for kk in kickers], hopeless)

    def _gen_planes(self, its: list[tuple[int, int]], m3: int, prev: Move | None, out: _Proposals) -> None:
        plane = self.profile.combinations.plane
        want = -1
        if prev is not None:
            want = prev.trios
        for window, length, ones in self.windows:
            if length < plane.min_length or window & m3 != window or (want >= 0 and length != want):
                continue
            body = 3 * ones
            rest = [(r, k) for r, k in its if not window >> r & 1]
            counts_ok = set(range(plane.low * length, plane.kickers_per_trio * length + 1))
            if plane.bare:
                counts_ok.add(0)
            top = self.profile.combinations.chain_windows[window]
            for k in sorted(counts_ok):
                hopeless = False
                if prev is not None:
                    reading = plane_reading(self.profile, top, length, k)
                    hopeless = not beats(reading.kind, reading.top, reading.units, *prev[1:4])
                out.add([body + kk for kk in self._kickers(rest, k, plane.kicker_kind, out.sample)], hopeless)


def _one_suit_only(cand: int, hand_mask: int) -> bool:
    """Whether the hand holds every rank of ``cand`` in one suit only, the same for all
    (both packs' copies of a card count as its suit): then no choice of its cards is a
    plain straight. False without a hand mask (play on rank counts, as the bots search)."""
    suits = 0
    for r, _ in C.items(cand):
        suits |= (hand_mask >> (r * 4) | hand_mask >> (64 + r * 4)) & 15
    return suits != 0 and suits & (suits - 1) == 0
