"""Hypothesis properties over random games of every shipped profile.

Per profile: every game ends, cards are conserved, the settlement follows the profile's
scheme (zero-sum where the scheme is), records round-trip, and the move generator agrees
with ``check`` — every generated play is legal with the same reading, and random subsets
of the hand that ``check`` accepts are generated.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine import counts as C
from pdk.engine.cards import cards_of, format_cards
from pdk.engine.position import IllegalPlay, Position, check
from pdk.engine.profile import Profile
from pdk.engine.record import GameRecord, dumps, loads
from pdk.variants.registry import available_profiles
from tests.support.positions import played_mask, random_game, with_knobs

# Knobs no shipped profile turns on get their own random games too.
KNOBBED = [
    with_knobs(
        "two-deck",
        "two-deck-flush-bomb",
        combinations={"straight_flush": "bomb"},
        bombs={"order": ("same_rank", "straight_flush", "four_jokers"), "unbreakable": False},
    ),
    with_knobs("classic16", "classic16-table-options", bombs={"three_aces": True},
             settlement={"reverse_spring_multiplier": 2}),
    with_knobs("hearts3", "hearts3-pairs", combinations={"trio": {"kickers": 2, "min_kickers": 0,
             "kicker_kind": "pairs", "follow_same_kickers": False}}, rules={"must_beat": False}),
]  # fmt: skip
PROFILES = available_profiles() + KNOBBED
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_random_games_end_conserve_cards_and_settle_by_scheme(profile: Profile, seed: int) -> None:
    state = random_game(profile, seed)
    assert state.over
    deck = sum(1 << c for c in profile.deck_cards)
    held = 0
    for h in state.hands:
        assert not held & h
        held |= h
    played = played_mask(state)
    assert not played & held and not state.deal.set_aside & (played | held)
    assert played | held | state.deal.set_aside == deck
    s = state.settlement()
    rules = profile.settlement
    if rules.zero_sum:
        assert sum(s.totals) == 0
    left = [C.total(C.from_mask(h)) for h in state.hands]
    if rules.scheme == "placement":
        assert sorted(x.place for x in s.seats if x.place is not None) == list(range(1, profile.players + 1))
        assert sum(1 for n in left if n) == 1  # played on until one player holds cards
        points = sum(rules.placement_points) * s.doubling
        bonus = rules.first_out_bonus * s.doubling if rules.first_out_bonus_if == "always" else None
        if bonus is not None:
            bombs = sum(x.bombs for x in s.seats) * rules.bomb_bonus
            credit = bombs if rules.bomb_bonus_paid_by == "nobody" else 0
            assert sum(s.totals) == points + bonus + credit
        assert s.seats[s.winner].place == 1
    else:
        assert left[s.winner] == 0 and all(left[i] for i in range(profile.players) if i != s.winner)
        liable = [x.seat for x in s.seats if x.liable]
        for x in s.seats:
            if x.seat == s.winner or liable:
                continue
            due = 0 if x.exempt else x.cards_left * rules.per_card * x.multiplier * s.doubling
            assert x.card_payment == -due
        assert sum(x.card_payment for x in s.seats) == 0


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=6, deadline=None)
@given(seed=seeds)
def test_records_round_trip(profile: Profile, seed: int) -> None:
    state = random_game(profile, seed)
    record = loads(dumps(GameRecord.of(state, seed)))
    again = record.replay()
    assert again.settlement().totals == state.settlement().totals
    # Two packs hold two copies of a card, written alike: compare the notation.
    assert [format_cards(a.play.cards, suits=True) if a.play else None for a in again.history] == [
        format_cards(a.play.cards, suits=True) if a.play else None for a in state.history
    ]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=12, deadline=None)
@given(seed=seeds, stop=st.integers(0, 80), picks=st.lists(st.integers(0, 2**20), min_size=6, max_size=6))
def test_generator_agrees_with_check(profile: Profile, seed: int, stop: int, picks: list[int]) -> None:
    state = random_game(profile, seed, stop)
    if state.over:
        return
    pos = state.position()
    moves = pos.legal_moves()
    assert len(set(moves)) == len(moves), "a play is generated twice"
    for move in moves:
        play = pos.play_for(move)
        judged = check(pos, play.cards)
        assert judged is not None
        assert judged.move == move  # the reading, and a straight flush's suit, as generated
    try:
        check(pos, None)
        assert pos.can_pass(moves)
    except IllegalPlay:
        assert not pos.can_pass(moves)
    # Random subsets of the hand: whatever check accepts was generated.
    hand = cards_of(pos.hand)
    generated = {(m.counts, m.kind) for m in moves}
    for pick in picks:
        subset = tuple(c for i, c in enumerate(hand) if pick >> (i % 20) & 1)
        if not subset:
            continue
        _agrees(pos, subset, generated)
    for move in moves[:: max(1, len(moves) // 8)]:
        _agrees(pos, pos.play_for(move).cards[1:], generated)


def _agrees(pos: Position, cards: tuple[int, ...], generated: set[tuple[int, int]]) -> None:
    if not cards:
        return
    try:
        judged = check(pos, cards)
    except IllegalPlay:
        return
    assert judged is not None
    assert (judged.counts, int(judged.kind)) in generated, (
        f"{judged.notation} passes check but is not generated"
    )
