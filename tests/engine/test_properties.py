"""Hypothesis properties over random seeded games of the default profile.

Every game ends, cards are conserved, settlement is zero-sum, a record round-trips, and the
generator agrees exactly with ``check`` at positions as they occur in play — leading and
following, with and without 报单 — on every generated play, on a pass, on random card
subsets, and on near misses (a generated play with one card more or one card less).
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine import counts as C
from pdk.engine.cards import cards_of
from pdk.engine.combos import ComboKind
from pdk.engine.deal import Rng, deal
from pdk.engine.position import IllegalPlay, Position, check
from pdk.engine.profile import Profile
from pdk.engine.record import GameRecord, dumps, loads
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile
from tests.support.positions import played_mask, random_game

PROFILE: Profile = load_profile()
DECK = sum(1 << c for c in PROFILE.deck_cards)
seeds = st.integers(min_value=0, max_value=2**63 - 1)
MAX_TURNS = 48 * 3 * 3  # every trick sheds at least one card; at most two passes per play


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_every_game_ends_conserves_cards_and_settles_to_zero(seed: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    rng = Rng(seed)
    while not state.over:
        moves = state.legal_moves()
        n = len(moves) + state.can_pass(moves)
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
        assert len(state.history) <= MAX_TURNS
        hands = state.hands
        assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
        played = played_mask(state)
        assert (hands[0] | hands[1] | hands[2]) & played == 0
        assert hands[0] | hands[1] | hands[2] | played == DECK
        assert state.sizes == [len(cards_of(h)) for h in hands]
    assert state.sizes[state.winner] == 0 if state.winner is not None else False
    s = state.settlement()
    assert sum(s.totals) == 0
    assert s.winner == state.winner
    for x in s.seats:
        assert x.cards_left == state.sizes[x.seat]


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_record_round_trip_replays_identically(seed: int) -> None:
    state = random_game(PROFILE, seed)
    record = GameRecord.of(state, seed=seed, note="property")
    text = dumps(record)
    back = loads(text)
    assert back.seed == seed
    assert back.deal == state.deal
    assert back.actions == tuple(state.history)
    assert back.settlement == state.settlement()
    assert dumps(back) == text


def _agree(pos: Position, rng: Rng) -> None:
    """The generator and ``check`` agree on every play they are asked about in ``pos``."""
    moves = pos.legal_moves()
    generated: dict[int, tuple[int, int, int]] = {}
    for m in moves:
        assert m.counts not in generated, "a play was generated twice"
        generated[m.counts] = (m.kind, m.top, m.units)
        play = check(pos, pos.play_for(m).cards)
        assert play is not None
        assert (int(play.kind), play.top, play.units) == (m.kind, m.top, m.units)
    # A pass passes check exactly when can_pass says so.
    try:
        passed = check(pos, None) is None
    except IllegalPlay:
        passed = False
    assert passed == pos.can_pass(moves)
    hand = cards_of(pos.hand)
    candidates: list[list[int]] = []
    # Random subsets, small ones more often (that is where most combinations are).
    for _ in range(40):
        k = min(len(hand), 1 + rng.below(min(len(hand), 6)) if rng.below(3) else 1 + rng.below(len(hand)))
        pool = hand[:]
        rng.shuffle(pool)
        candidates.append(pool[:k])
    # Near misses: a generated play with one card taken out or one more card added.
    for m in moves[:25]:
        cards = list(pos.play_for(m).cards)
        if len(cards) > 1:
            cards_less = cards[:]
            cards_less.pop(rng.below(len(cards_less)))
            candidates.append(cards_less)
        extra = [c for c in hand if c not in cards]
        if extra:
            candidates.append([*cards, extra[rng.below(len(extra))]])
    for cards in candidates:
        _agree_on(pos, cards, generated)


def _agree_on(pos: Position, cards: list[int], generated: dict[int, tuple[int, int, int]]) -> None:
    counts = C.from_cards(cards)
    try:
        play = check(pos, cards)
    except IllegalPlay:
        assert counts not in generated, f"generated but refused by check: {cards}"
        return
    assert play is not None
    assert counts in generated, f"check accepts a play the generator misses: {cards}"
    assert generated[counts] == (int(play.kind), play.top, play.units)


def _all_sub_multisets(pos: Position) -> list[list[int]]:
    """Every distinct play by ranks (one card choice per rank multiset)."""
    by_rank: dict[int, list[int]] = {}
    for c in cards_of(pos.hand):
        by_rank.setdefault((c & 63) >> 2, []).append(c)
    groups = list(by_rank.values())
    out = []
    for takes in product(*[range(len(g) + 1) for g in groups]):
        cards = [c for g, t in zip(groups, takes, strict=True) for c in g[:t]]
        if cards:
            out.append(cards)
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seeds)
def test_generator_agrees_with_check_in_real_games(seed: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    rng = Rng(seed + 1)
    turn = 0
    while not state.over:
        real = state.position()
        # The real position, and the same one with 报单 switched the other way.
        for next_one in (real.next_has_one, not real.next_has_one):
            pos = Position(PROFILE, real.hand, real.prev, next_one)
            if turn % 4 == 0 or next_one or len(cards_of(pos.hand)) <= 6:
                _agree(pos, rng)
            if len(cards_of(pos.hand)) <= 7:
                generated = {m.counts: (m.kind, m.top, m.units) for m in pos.legal_moves()}
                for cards in _all_sub_multisets(pos):
                    _agree_on(pos, cards, generated)
        moves = state.legal_moves()
        assert sorted(moves) == sorted(real.legal_moves())
        n = len(moves) + state.can_pass(moves)
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
        turn += 1


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(seeds)
def test_generator_agrees_with_check_on_every_sub_play_of_an_opening_hand(seed: int) -> None:
    """Exhaustive at one leading position and one following position per example."""
    d = deal(PROFILE, seed)
    hand = d.hands[d.leader]
    rng = Rng(seed)
    for next_one in (False, True):
        pos = Position(PROFILE, hand, None, next_one)
        generated = {m.counts: (m.kind, m.top, m.units) for m in pos.legal_moves()}
        subs = _all_sub_multisets(pos)
        for cards in subs:
            _agree_on(pos, cards, generated)
        # Follow the other seat's lead: a random play of the next hand, in its leading reading.
        other = Position(PROFILE, d.hands[(d.leader + 1) % 3])
        lead = other.legal_moves()[rng.below(len(other.legal_moves()))]
        follow = Position(PROFILE, hand, lead, next_one)
        generated = {m.counts: (m.kind, m.top, m.units) for m in follow.legal_moves()}
        for cards in subs:
            _agree_on(follow, cards, generated)
        assert all(m.kind == ComboKind.BOMB or m.kind == lead[1] for m in follow.legal_moves())


PUBLIC_FIELDS = {
    "out",  # the seats out, in the order they went out: everyone saw them go
    "hand_sizes",
    "history",
    "trick",
    "prev",
    "prev_seat",
    "played_any",
    "leader",
    "must_contain",
}


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_a_player_view_holds_only_the_own_hand_and_public_facts(seed: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    rng = Rng(seed)
    while not state.over:
        public = played_mask(state)
        for seat in range(3):
            view = state.view(seat)
            fields = set(view._fields)
            # ``legal``: the seat's own legal plays, a function of its hand and public facts.
            assert fields - {"profile", "seat", "hand", "legal"} <= PUBLIC_FIELDS, fields
            if view.legal is not None:  # the plays handed over are the rule core's, in its order
                nho = view.hand_sizes[view.next_seat] == 1
                pos = Position(PROFILE, view.hand, view.prev, nho, view.must_contain)
                assert list(view.legal) == pos.legal_moves()
            assert view.hand == state.hands[seat]
            assert view.hand_sizes == tuple(state.sizes)
            assert set(view.out) == {s for s in range(3) if not state.sizes[s]}
            seen = 0
            for action in view.history:
                if action.play is not None:
                    seen |= sum(1 << c for c in action.play.cards)
            assert seen == public  # the history shows played cards, nothing else
        moves = state.legal_moves()
        n = len(moves) + state.can_pass(moves)
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)


def expected_totals(state: GameState) -> list[int]:
    """docs/rules.md settlement recomputed from the public history alone: walk the tricks, find
    the bombs left on top when a trick ended (or the deal ended on one), count cards."""
    bombs = [0, 0, 0]
    played = [False, False, False]
    top: tuple[int, ComboKind] | None = None  # (seat, kind) of the play on top of the trick
    passes = 0
    for action in state.history:
        if action.play is None:
            passes += 1
            if passes == 2:  # both others passed: the trick ends on ``top``
                assert top is not None
                if top[1] is ComboKind.BOMB:
                    bombs[top[0]] += 1
                top, passes = None, 0
            continue
        played[action.seat] = True
        top, passes = (action.seat, action.play.kind), 0
    assert top is not None and top[0] == state.winner  # the deal ended on the winner's play
    if top[1] is ComboKind.BOMB:
        bombs[top[0]] += 1
    totals = [0, 0, 0]
    for seat in range(3):
        if seat != state.winner:
            pay = state.sizes[seat] * (1 if played[seat] else 2)
            totals[seat] -= pay
            totals[state.winner] += pay
        for other in range(3):
            if other != seat:
                totals[seat] += 10 * bombs[seat]
                totals[other] -= 10 * bombs[seat]
    return totals


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_settlement_matches_the_rules_recomputed_from_the_history(seed: int) -> None:
    state = random_game(PROFILE, seed)
    assert list(state.settlement().totals) == expected_totals(state)


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(0, 60))
def test_a_clone_plays_on_without_touching_the_original(seed: int, at: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    rng = Rng(seed)
    for _ in range(at):
        if state.over:
            break
        moves = state.legal_moves()
        i = rng.below(len(moves) + state.can_pass(moves))
        state.step(moves[i] if i < len(moves) else None)
    before = (list(state.hands), list(state.sizes), list(state.history), state.turn, state.prev)
    clone = state.clone()
    while not clone.over:
        moves = clone.legal_moves()
        i = rng.below(len(moves) + clone.can_pass(moves))
        clone.step(moves[i] if i < len(moves) else None)
    assert (list(state.hands), list(state.sizes), list(state.history), state.turn, state.prev) == before
