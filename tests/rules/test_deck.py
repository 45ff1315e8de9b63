"""docs/rules.md, "Deck and deal": the 48-card pack, three hands of 16, ♠3 leads, fixed turn order."""

from __future__ import annotations

from itertools import pairwise

from pdk.engine.cards import RANK_CHARS, Rank, card_id, cards_of, format_unicode
from pdk.engine.deal import deal
from pdk.engine.position import IllegalPlay, Reason
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from tests.support.positions import Judge

SPADE3 = card_id(Rank.THREE, 0)


def test_deck_has_48_cards(classic: Profile) -> None:
    assert len(classic.deck_cards) == 48
    assert len(set(classic.deck_cards)) == 48


def test_deck_ranks_four_of_3_to_k_three_aces_one_two(classic: Profile) -> None:
    totals = dict(zip(RANK_CHARS, classic.rank_totals, strict=True))
    for r in "3456789TJQK":
        assert totals[r] == 4, r
    assert totals["A"] == 3
    assert totals["2"] == 1
    assert totals["B"] == totals["R"] == 0


def test_deck_removes_three_twos_and_spade_ace(classic: Profile) -> None:
    shown = format_unicode(classic.deck_cards).split()
    for gone in ("♥2", "♦2", "♣2", "♠A", "小王", "大王"):
        assert gone not in shown
    for kept in ("♠2", "♥A", "♣A", "♦A", "♠3", "♦K"):
        assert kept in shown


def test_deal_gives_three_hands_of_16_and_no_kitty(classic: Profile) -> None:
    for seed in range(20):
        d = deal(classic, seed)
        assert len(d.hands) == 3
        assert [len(cards_of(h)) for h in d.hands] == [16, 16, 16]
        assert d.hands[0] & d.hands[1] == d.hands[0] & d.hands[2] == d.hands[1] & d.hands[2] == 0
        assert sorted(cards_of(d.hands[0] | d.hands[1] | d.hands[2])) == sorted(classic.deck_cards)
        assert d.set_aside == 0


def test_spade3_holder_leads(classic: Profile) -> None:
    leaders = set()
    for seed in range(30):
        d = deal(classic, seed)
        assert d.hands[d.leader] >> SPADE3 & 1
        state = GameState(classic, d)
        assert state.turn == d.leader
        leaders.add(d.leader)
    assert leaders == {0, 1, 2}  # the leader is whoever holds ♠3, not a fixed seat


def test_first_play_need_not_contain_spade3(classic: Profile) -> None:
    d = deal(classic, 3)
    state = GameState(classic, d)
    without = [m for m in state.legal_moves() if m.counts & 31 == 0]  # no 3 at all
    assert without, "the leader can lead something without a 3"
    state.step(without[0])
    assert state.hands[d.leader] >> SPADE3 & 1
    assert state.turn == (d.leader + 1) % 3


def test_turn_order_is_fixed_0_1_2(classic: Profile) -> None:
    d = deal(classic, 11)
    state = GameState(classic, d)
    seats = []
    for _ in range(6):
        seats.append(state.turn)
        moves = state.legal_moves()
        state.step(None if state.can_pass(moves) else moves[0])
        if state.prev is None:  # a trick ended: the last player leads again
            break
    assert seats[:3] == [(d.leader + i) % 3 for i in range(3)]


def test_suits_never_matter_for_comparison(judge: Judge) -> None:
    # ♥9 does not beat ♠9: same rank, whatever the suits.
    pos = judge.pos("9h Q", judge.move("9s"))
    try:
        judge.check(pos, "9h")
    except IllegalPlay as exc:
        assert exc.reason is Reason.DOES_NOT_BEAT
    else:
        raise AssertionError("♥9 beat ♠9")
    # ♠T beats ♥9, and plays that differ only in suit are generated once.
    pos = judge.pos("Ts Th Tc 5", "9h")
    assert judge.check(pos, "Ts") is not None
    assert sorted(judge.legal_cards(pos)) == ["T"]


def test_ranks_run_3_to_a_then_2(judge: Judge) -> None:
    order = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
    for low, high in pairwise(order):
        assert judge.check(judge.pos(high + " 3", low), high) is not None, (high, low)
        pos = judge.pos(low + " " + ("4" if low == "3" else "3"), high)
        try:
            judge.check(pos, low)
        except IllegalPlay as exc:
            assert exc.reason is Reason.DOES_NOT_BEAT
        else:
            raise AssertionError(f"{low} beat {high}")
    # ♠2 is the highest single: nothing but a bomb beats it.
    assert judge.legal_cards(judge.pos("A K Q 33", "2s")) == set()
