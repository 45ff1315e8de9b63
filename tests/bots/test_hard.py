"""The hard bot: it sees only a ``PlayerView``, plays legally, is reproducible from its seed,
and finds the forced win in hand-built endgames. Budgets are kept tiny so the tests are fast.
"""

from __future__ import annotations

import dataclasses
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots import make_bot
from pdk.bots.hard import HardBot
from pdk.bots.infer import Sampler, pass_facts
from pdk.engine import counts as C
from pdk.engine.cards import mask_of
from pdk.engine.combos import Move
from pdk.engine.deal import Deal, Rng, deal
from pdk.engine.position import resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState, PlayerView
from pdk.variants.registry import load_profile
from tests.bots.test_bots import PROFILES, assert_legal, random_position


def small_hard(seed: int = 0) -> HardBot:
    return HardBot(seed, determinizations=6, candidates=4)


def hand(text: str, profile: Profile) -> int:
    deck = mask_of(profile.deck_cards)
    return mask_of(resolve_cards(text, deck))


def endgame(profile: Profile, hands: tuple[str, ...], leader: int) -> GameState:
    masks = tuple(hand(h, profile) for h in hands)
    return GameState(profile, Deal(masks, 0, leader))


def forced_win(state: GameState, me: int) -> bool:
    """Exhaustive: can ``me`` go out first whatever the others do? (Independent of the bot.)"""
    if state.over:
        return state.winner == me
    moves: list[Move | None] = list(state.legal_moves())
    if state.can_pass(moves):  # type: ignore[arg-type]
        moves.append(None)
    results = []
    for m in moves:
        child = state.clone()
        child.step(m)
        results.append(forced_win(child, me))
    return any(results) if state.turn == me else all(results)


def after(state: GameState, move: Move | None) -> GameState:
    child = state.clone()
    child.step(move)
    return child


# -- what it may see ----------------------------------------------------------------------


def test_input_type_is_a_player_view_which_holds_no_other_hand() -> None:
    hints = typing.get_type_hints(HardBot.choose)
    assert hints["view"] is PlayerView
    # A dataclass or a named tuple: either way, its fields.
    named = getattr(PlayerView, "_fields", None)
    fields = set(named) if named else {f.name for f in dataclasses.fields(PlayerView)}
    assert "hands" not in fields and "deal" not in fields
    assert all("hand" not in f or f in {"hand", "hand_sizes"} for f in fields)


def test_refuses_a_game_state(classic: Profile) -> None:
    state = GameState(classic, deal(classic, 3))
    with pytest.raises(TypeError):
        small_hard().choose(state)  # type: ignore[arg-type]


def test_sampled_hands_respect_sizes_and_hidden_cards(classic: Profile) -> None:
    state = GameState(classic, deal(classic, 5))
    bots = [make_bot("normal") for _ in range(3)]
    for _ in range(25):
        state.step(bots[state.turn].choose(state.view(state.turn)))
    view = state.view(state.turn)
    sampler = Sampler(view)
    rng = Rng(1)
    for _ in range(20):
        hands = sampler.sample(rng)
        assert sorted(hands) == [s for s in range(3) if s != view.seat]
        for seat, counts in hands.items():
            assert sum(n for _, n in _items(counts)) == view.hand_sizes[seat]
        assert sum(hands.values()) == sampler.unseen  # exactly the unseen cards, no more
        assert sampler.consistent(hands)


@pytest.mark.parametrize("name", ["classic16", "draw4", "two-player"])  # no pile, 4 aside, 16 aside
def test_card_trades_keep_every_fact_the_sampler_honours(name: str) -> None:
    # The hard bot's Metropolis steps walk by Sampler.swap: every deal reached has the
    # same sizes and hidden cards, respects the passes' caps and replays every pass; with
    # an undealt pile, trades with the pile too.
    profile = load_profile(name)
    state = GameState(profile, deal(profile, 5))
    bots = [make_bot("normal") for _ in range(profile.players)]
    for _ in range(8 * profile.players):
        if state.over:
            break
        state.step(bots[state.turn].choose(state.view(state.turn)))
    view = state.view(state.turn)
    sampler = Sampler(view)
    rng = Rng(4)
    hands = sampler.sample(rng)
    moved = 0
    piles = set()
    for _ in range(300):
        new = sampler.swap(hands, rng)
        if new is None:
            continue
        moved += new != hands
        assert sorted(new) == sorted(hands)
        for seat, counts in new.items():
            assert sum(n for _, n in _items(counts)) == view.hand_sizes[seat]
            cap = sampler.caps[sampler.holders.index(seat)]
            assert all(n <= cap[r] for r, n in _items(counts))
        assert C.contains(sampler.unseen, sum(new.values()))  # the rest is the pile, if any
        piles.add(sampler.unseen - sum(new.values()))
        assert sampler.consistent(new)
        hands = new
    assert moved > 50
    assert (len(piles) > 1) == (-1 in sampler.holders)  # the pile is traded with


def _items(counts: int) -> list[tuple[int, int]]:
    return C.items(counts)


def test_a_pass_under_must_beat_caps_the_passers_hand(classic: Profile) -> None:
    # Seat 1 passes over a single K: it cannot hold an A, the 2, or any bomb.
    state = endgame(classic, ("K 5 5 6", "3 4 8 9 T", "7 7 J Q 6"), leader=0)
    state.step(next(m for m in state.legal_moves() if m.notation() == "K"))
    assert state.can_pass(state.legal_moves())
    state.step(None)  # seat 1: nothing beats K
    view = state.view(2)
    facts = pass_facts(view)
    assert [(f.seat, f.prev.notation()) for f in facts] == [(1, "K")]
    sampler = Sampler(view)
    rng = Rng(2)
    for _ in range(30):
        hands = sampler.sample(rng)
        assert hands[1] >> (5 * 11) == 0  # no A or 2 (ranks above K) in seat 1's hand


# -- legal and reproducible -----------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 50))
def test_hard_plays_legally(profile: Profile, seed: int, steps: int) -> None:
    state = random_position(profile, seed, steps)
    assert_legal(state, small_hard(seed).choose(state.view(state.turn)))


def test_same_seed_same_choices(classic: Profile) -> None:
    for seed in (1, 2):
        state = GameState(classic, deal(classic, seed))
        normal = make_bot("normal")
        for _ in range(12):
            view = state.view(state.turn)
            a = small_hard(seed).choose(view)
            b = small_hard(seed).choose(view)
            assert a == b
            state.step(a if state.turn == 0 else normal.choose(view))


# -- forced wins ---------------------------------------------------------------------------

ENDGAMES = [
    # (hands for seats 0, 1, 2, who leads, the seat to move: the hard bot)
    pytest.param(("2s 5 5", "6 6 9", "7 7 8"), 0, id="lead-spade2-then-the-pair"),
    pytest.param(("2s 3 3", "4 4", "5 6 7"), 0, id="lead-spade2-not-the-pair"),
    pytest.param(("K K 3", "A", "2s"), 0, id="pair-nobody-can-answer-then-the-single"),
    pytest.param(("8 9 T J Q 2s 4", "5 5 6 6", "7 7 K K"), 0, id="straight-and-2-then-the-four"),
]


@pytest.mark.parametrize(("hands", "leader"), ENDGAMES)
def test_hard_finds_the_forced_win(classic: Profile, hands: tuple[str, ...], leader: int) -> None:
    state = endgame(classic, hands, leader)
    me = state.turn
    assert forced_win(state, me)
    moves = state.legal_moves()
    # The position is a real test: some legal first play throws the win away.
    assert not all(forced_win(after(state, m), me) for m in moves)
    bot = small_hard(7)
    while not state.over:
        if state.turn == me:
            move = bot.choose(state.view(me))
            assert forced_win(after(state, move), me), move.notation() if move else "pass"
        else:
            move = make_bot("normal").choose(state.view(state.turn))
        state.step(move)
    assert state.winner == me
