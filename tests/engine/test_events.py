"""The engine's events: what ``GameState.act`` says a turn did agrees with the state itself,
on random deals of every profile, and a record replays into the same events."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine.deal import Rng, deal
from pdk.engine.events import BaoDan, BombStands, DealOver, Event, Passed, Played, PlayerOut, TrickWon
from pdk.engine.record import GameRecord
from pdk.engine.state import GameState
from pdk.variants.registry import available_profiles, load_profile
from tests.support.positions import random_game

PROFILES = [p.name for p in available_profiles()]


def acted_game(name: str, seed: int) -> tuple[GameState, list[tuple[Event, ...]]]:
    """A random deal played through ``act_move``, with the events of every turn."""
    profile = load_profile(name)
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed ^ 0x5EED)
    said: list[tuple[Event, ...]] = []
    while not state.over:
        moves = state.legal_moves()
        i = rng.below(len(moves) + state.can_pass(moves))
        said.append(state.act_move(moves[i] if i < len(moves) else None)[1])
    return state, said


@pytest.mark.parametrize("name", PROFILES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_events_agree_with_the_state(name: str, seed: int) -> None:
    state, said = acted_game(name, seed)
    # Acting is stepping: the same deal as the fast path plays.
    assert state.history == random_game(load_profile(name), seed).history
    flat = [e for turn in said for e in turn]
    assert len(said) == len(state.history)
    for action, turn in zip(state.history, said, strict=True):
        first = turn[0]
        assert first == (Passed(action.seat) if action.play is None else Played(action.seat, action.play))
    over = [e for e in flat if isinstance(e, DealOver)]
    assert len(over) == 1 and flat[-1] == over[0]
    st_ = over[0].settlement
    assert st_ == state.settlement()
    # Every bomb bonus the settlement pays was said when it stood.
    for seat in range(state.players):
        stood = sum(e.collects for e in flat if isinstance(e, BombStands) and e.seat == seat)
        paid = sum(e.each for e in flat if isinstance(e, BombStands) and e.seat != seat)
        assert stood - paid == st_.seats[seat].bomb_income
    # Places in the order the seats went out; the winner first.
    outs = [e for e in flat if isinstance(e, PlayerOut)]
    assert outs[0].seat == st_.winner and [e.place for e in outs] == list(range(1, len(outs) + 1))
    # Tricks are won by the seat whose play stood; 报单 when a seat came down to one card.
    for turn in said:
        for e in turn:
            if isinstance(e, TrickWon):
                assert any(isinstance(p, Played) and p.seat == e.seat and p.play == e.play for p in flat)
            if isinstance(e, BaoDan):
                assert isinstance(turn[0], Played) and turn[0].seat == e.seat


@pytest.mark.parametrize("name", PROFILES)
def test_a_record_replays_into_the_same_events(name: str) -> None:
    state, said = acted_game(name, 7)
    assert list(GameRecord.of(state).events()) == said


def test_bao_pei_share_is_in_the_settlement() -> None:
    """包赔: the liable seat's payment is every loser's share, each named for its seat."""
    for name in PROFILES:
        profile = load_profile(name)
        if not profile.rules.bao_pei:
            continue
        for seed in range(400):
            state = random_game(profile, seed)
            st_ = state.settlement()
            liable = next((r.seat for r in st_.seats if r.liable), None)
            if liable is None:
                continue
            shares = [s for s in st_.shares if s.kind == "bao_pei"]
            assert shares and all(s.payer == liable and s.payee == st_.winner for s in shares)
            assert sum(s.amount for s in shares) == -st_.seats[liable].card_payment
            return
    pytest.skip("no shipped profile dealt a 包赔 in 400 random deals")
