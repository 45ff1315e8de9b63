"""The bots' fast paths answer exactly what the plain computations they replace answer.

* ``Generator.smallest_follow`` — "how few cards can beat this play, bombs aside?", asked
  of the pooled unseen cards every time a bot wonders whether a play is a sure winner — is
  the minimum over the generator's own follows, on every profile (the general generator
  judges candidates smallest first and stops at the first legal one).
* The planner's mask-based ``_base_small`` (counts of at most three a rank, which is every
  remainder once bombs are set apart) values a hand as the rank-by-rank ``_base`` does.
* Plan values are whole hundredths of a play, so equal splits compare equal.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots.plan import planner_for
from pdk.engine import counts as C
from pdk.engine.cards import NUM_RANKS
from pdk.engine.deal import Rng, deal
from pdk.engine.generator import generator_for
from pdk.engine.movegen import BOMB
from pdk.engine.profile import Profile
from pdk.variants.registry import available_profiles

PROFILES = available_profiles()


def capped(counts: int, cap: int = 3) -> int:
    return sum(min(n, cap) * C.ONE[r] for r, n in C.items(counts))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_smallest_follow_is_the_fewest_cards_of_a_non_bomb_follow(profile: Profile) -> None:
    gen = generator_for(profile)
    rng = Rng(15)
    asked = nones = 0
    for seed in range(12):
        hands = [C.from_mask(h) for h in deal(profile, seed).hands]
        # Pools as the card counter builds them (other hands pooled, three a rank at most),
        # and smaller ones, where nothing may beat or only a short last trio does.
        whole = capped(sum(hands[1:]))
        few = capped(hands[1]) & ((1 << (5 * (seed % 8 + 3))) - 1) | capped(hands[-1]) >> (5 * 9) << (5 * 9)
        for pool in (whole, capped(hands[1]), few):
            for prev in gen.leads(hands[0]):
                if prev.kind == BOMB or rng.below(3):
                    continue
                want = min(
                    (C.total(m.counts) for m in gen.follows(pool, prev) if m.kind != BOMB),
                    default=None,
                )
                assert gen.smallest_follow(pool, prev) == want, (prev, pool)
                asked += 1
                nones += want is None
    assert asked > 60
    assert nones > 0


counts_up_to_three = st.lists(st.integers(0, 3), min_size=NUM_RANKS, max_size=NUM_RANKS).map(
    lambda fields: sum(n * C.ONE[r] for r, n in enumerate(fields))
)


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=60, deadline=None)
@given(counts=counts_up_to_three, demand=st.integers(0, 12))
def test_the_mask_base_values_hands_as_the_rank_by_rank_base(
    profile: Profile, counts: int, demand: int
) -> None:
    plan = planner_for(generator_for(profile))
    m1, m2, m3 = C.rank_masks(counts)
    assert plan._base_small(demand, m1, m2, m3) == plan._base(counts, demand)


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_plan_values_are_whole_hundredths(profile: Profile) -> None:
    plan = planner_for(generator_for(profile))
    for seed in range(5):
        for hand in deal(profile, seed).hands:
            v = plan.value(C.from_mask(hand))
            assert abs(v * 100 - round(v * 100)) < 1e-9
