"""The fast deal, random-number and rank-count code agrees with the plain versions.

Seeds are part of the contract (docs/rules.md D6): records, duplicate-deal statistics and the
seeded bots depend on ``deal(profile, seed)`` and ``Rng(seed)`` giving the same results
forever. So the straightforward implementations they replaced live on here, card by
card and word by word, and hypothesis compares the two over many seeds, list lengths,
hands and masks (one pack and two, jokers included).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine import counts as C
from pdk.engine.cards import NUM_RANKS, mask_of
from pdk.engine.deal import Deal, Rng, deal, deal_from_hands, find_lead, lead_order, splitmix64
from pdk.engine.profile import Profile, card_from_name
from pdk.variants.registry import available_profiles, load_profile

MASK64 = (1 << 64) - 1
PROFILES = available_profiles()
seeds = st.integers(min_value=-(2**70), max_value=2**70)


# --- the reference implementations -------------------------------------------------------


def ref_splitmix64(seed: int) -> Iterator[int]:
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


class RefRng:
    def __init__(self, seed: int) -> None:
        self.words = ref_splitmix64(seed)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = next(self.words)
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        # One word of the stream seeds the shuffle's own SplitMix64 stream.
        shuffle_words = ref_splitmix64(next(self.words))
        for i in range(len(items) - 1, 0, -1):
            j = (next(shuffle_words) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]


def ref_lead_order(profile: Profile) -> list[int]:
    lead = card_from_name(profile.lead.card)
    order = [lead]
    if profile.lead.fallback:
        suit, rank = lead & 3, (lead & 63) >> 2
        for s in [suit] + [s for s in range(4) if s != suit]:
            order.extend(r * 4 + s for r in range(rank + 1 if s == suit else 0, 13))
    return order


def ref_find_lead(profile: Profile, hands: tuple[int, ...]) -> tuple[int, int | None]:
    for base in ref_lead_order(profile):
        for cid in (base, base + 64):
            for seat, hand in enumerate(hands):
                if hand >> cid & 1:
                    return seat, cid
    return 0, None


def ref_deal(profile: Profile, seed: int) -> Deal:
    cards = list(profile.deck_cards)
    RefRng(seed).shuffle(cards)
    size = profile.hand_size
    hands = tuple(ref_mask_of(cards[i * size : (i + 1) * size]) for i in range(profile.players))
    aside = ref_mask_of(cards[profile.players * size :])
    seat, card = ref_find_lead(profile, hands)
    return Deal(hands, aside, seat, card)


def ref_mask_of(cards: list[int]) -> int:
    mask = 0
    for cid in cards:
        mask |= 1 << cid
    return mask


def ref_from_mask(mask: int) -> int:
    cards = [cid for cid in range(mask.bit_length()) if mask >> cid & 1]
    return sum(1 << (C.BITS * ((cid & 63) >> 2)) for cid in cards)


def ref_total(counts: int) -> int:
    return sum(C.count(counts, r) for r in range(NUM_RANKS))


# --- strategies ----------------------------------------------------------------------------

ONE_PACK = [rank * 4 + suit for rank in range(NUM_RANKS) for suit in range(4)]
TWO_PACKS = ONE_PACK + [64 + cid for cid in ONE_PACK]
one_pack_masks = st.sets(st.sampled_from(ONE_PACK)).map(mask_of)
two_pack_masks = st.sets(st.sampled_from(TWO_PACKS)).map(mask_of)
sizes = st.one_of(st.integers(1, 300), st.sampled_from([2, 3, 2**32, 2**32 + 1, 2**63 + 1, 2**64 - 1, 2**64]))


# --- the comparisons -----------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(seed=seeds, ns=st.lists(sizes, max_size=150))
def test_rng_below_draws_the_reference_sequence(seed: int, ns: list[int]) -> None:
    fast, ref = Rng(seed), RefRng(seed)
    assert [fast.below(n) for n in ns] == [ref.below(n) for n in ns]


def test_rng_below_rejects_like_the_reference() -> None:
    # With n just above 2**63 nearly half the words are rejected: the slow path runs often.
    for seed in range(200):
        fast, ref = Rng(seed), RefRng(seed)
        for n in (2**63 + 1, 3 * 2**62, 2**64 - 1, 2**33 + 7, 5):
            assert fast.below(n) == ref.below(n)


def test_rng_below_accepts_exactly_the_words_under_the_limit() -> None:
    # Words this close to 2**64 come once in billions of draws, so feed them in directly.
    top = 1 << 64
    # 8589803522 (just under 2**33) leaves 2**64 % n above 2**32: a long rejected range.
    for n in (3, 10, 2**32 - 1, 2**32, 2**32 + 1, 8589803522, 2**63 + 1, 2**64 - 1, 2**64):
        limit = top - top % n
        for z in {0, n - 1, limit - 1, limit, top - 2**32 - 1, top - 2**32, top - 2**33, top - 1}:
            if not 0 <= z < top:
                continue
            fast, ref = Rng(7), RefRng(7)
            follow = next(ref_splitmix64(99))
            fast._ahead = [follow, z]  # the buffer pops from the end: z is drawn first
            ref.words = iter([z, follow])
            assert fast.below(n) == ref.below(n), (n, z)


def test_shuffle_indexes_wider_than_a_byte() -> None:
    # From 257 items the first swap index may be 256: past the one-byte fast path.
    for length, count in ((255, 20), (256, 20), (257, 1500), (258, 20)):
        for seed in range(count):
            fast, ref = list(range(length)), list(range(length))
            Rng(seed).shuffle(fast)
            RefRng(seed).shuffle(ref)
            assert fast == ref, (length, seed)


def test_rng_long_runs_cross_every_buffer_refill() -> None:
    for seed in range(20):
        fast, ref = Rng(seed), RefRng(seed)
        assert [fast.below(1 + i % 40) for i in range(500)] == [ref.below(1 + i % 40) for i in range(500)]


@pytest.mark.parametrize("first", [1, 2, 16, 24, 63, 64, 100])
def test_rng_first_block_of_any_size_draws_the_same_words(first: int) -> None:
    # The random bot buffers 24 words first: a block's size changes no draw, before or
    # after a shuffle.
    for seed in range(20):
        fast, ref = Rng(seed, first=first), RefRng(seed)
        assert [fast.below(1 + i % 40) for i in range(90)] == [ref.below(1 + i % 40) for i in range(90)]
        a, b = list(range(52)), list(range(52))
        fast.shuffle(a)
        ref.shuffle(b)
        assert a == b
        assert [fast.below(97) for _ in range(30)] == [ref.below(97) for _ in range(30)]


@settings(max_examples=200, deadline=None)
@given(seed=seeds, length=st.integers(0, 300), before=st.integers(0, 70), after=st.integers(1, 70))
def test_rng_shuffle_makes_the_reference_permutation(seed: int, length: int, before: int, after: int) -> None:
    # Draws before and after: the shuffle's word may come from ``below``'s buffer or not.
    fast, ref = Rng(seed), RefRng(seed)
    assert [fast.below(10) for _ in range(before)] == [ref.below(10) for _ in range(before)]
    a, b = list(range(length)), list(range(length))
    fast.shuffle(a)
    ref.shuffle(b)
    assert a == b
    # The stream goes on from the same place after a shuffle.
    assert [fast.below(97) for _ in range(after)] == [ref.below(97) for _ in range(after)]


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_deal_matches_the_reference_deal_for_every_profile(seed: int) -> None:
    for profile in PROFILES:
        assert deal(profile, seed) == ref_deal(profile, seed), profile.name


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_lead_order_matches_the_reference(profile: Profile) -> None:
    assert lead_order(profile) == ref_lead_order(profile)


@settings(max_examples=200, deadline=None)
@given(
    profile=st.sampled_from(PROFILES),
    cards=st.permutations(TWO_PACKS),
    cuts=st.lists(st.integers(0, len(TWO_PACKS)), min_size=3, max_size=3),
)
def test_find_lead_matches_the_reference(profile: Profile, cards: list[int], cuts: list[int]) -> None:
    # Arbitrary hands from either pack, the lead card possibly held by nobody.
    a, b, c = sorted(cuts)
    hands = (mask_of(cards[:a]), mask_of(cards[a:b]), mask_of(cards[b:c]))
    assert find_lead(profile, hands) == ref_find_lead(profile, hands)
    assert deal_from_hands(profile, hands).leader == ref_find_lead(profile, hands)[0]


@settings(max_examples=500, deadline=None)
@given(mask=st.one_of(one_pack_masks, two_pack_masks))
def test_from_mask_counts_like_the_reference(mask: int) -> None:
    assert C.from_mask(mask) == ref_from_mask(mask)


def test_from_mask_counts_a_third_pack_too() -> None:
    everything = mask_of(TWO_PACKS) | mask_of(128 + cid for cid in ONE_PACK)
    assert C.from_mask(everything) == ref_from_mask(everything)
    assert C.from_mask(0) == 0


@settings(max_examples=500, deadline=None)
@given(fields=st.lists(st.integers(0, C.FIELD), min_size=NUM_RANKS, max_size=NUM_RANKS))
def test_total_sums_every_field(fields: list[int]) -> None:
    counts = sum(n << (C.BITS * r) for r, n in enumerate(fields))
    assert C.total(counts) == ref_total(counts) == sum(fields)


@settings(max_examples=500, deadline=None)
@given(fields=st.lists(st.integers(0, C.FIELD), min_size=NUM_RANKS, max_size=NUM_RANKS))
def test_rank_masks_mark_the_ranks_held_once_twice_three_times(fields: list[int]) -> None:
    counts = sum(n << (C.BITS * r) for r, n in enumerate(fields))
    at_least = [sum(1 << r for r, n in enumerate(fields) if n >= k) for k in (1, 2, 3)]
    assert list(C.rank_masks(counts)) == at_least


def test_splitmix64_is_the_reference_stream() -> None:
    for seed in (0, 1, 2026, -1, 2**64 + 5):
        fast, ref = splitmix64(seed), ref_splitmix64(seed)
        assert [next(fast) for _ in range(20)] == [next(ref) for _ in range(20)]


def test_the_default_profile_is_among_those_compared() -> None:
    assert load_profile().name in {p.name for p in PROFILES}
