"""docs/rules.md, "End and settlement": first out ends the deal; card payment, 全关, bomb bonus."""

from __future__ import annotations

import pytest

from pdk.engine.position import IllegalPlay, Reason
from pdk.engine.profile import Profile
from pdk.engine.settlement import settle
from tests.support.positions import Judge, game, run


def test_first_out_ends_the_deal_at_once(judge: Judge) -> None:
    state = game(judge, "3s 9 Q", "4 55", "6 7 8")
    run(judge, state, "3s", "4", "8", "9", None, None)
    assert not state.over and state.turn == 0
    with pytest.raises(ValueError):
        state.settlement()
    run(judge, state, "Q")  # seat 0 is out: nobody else moves again
    assert state.over and state.winner == 0
    assert state.legal_moves() == []
    assert state.sizes == [0, 2, 2]
    with pytest.raises(IllegalPlay) as info:
        state.play(None)
    assert info.value.reason is Reason.GAME_OVER
    assert state.settlement().totals == (4, -2, -2)


def test_card_payment_one_point_per_card_left(classic: Profile) -> None:
    s = settle(classic, 0, [0, 1, 7], [True, True, True], [0, 0, 0])
    assert s.totals == (8, -1, -7)
    assert [x.card_payment for x in s.seats] == [8, -1, -7]


def test_shut_out_pays_double(classic: Profile) -> None:
    s = settle(classic, 2, [16, 3, 0], [False, True, True], [0, 0, 0])
    assert s.totals == (-32, -3, 35)
    assert [x.shut_out for x in s.seats] == [True, False, False]


def test_bomb_bonus_ten_from_each_other_player(classic: Profile) -> None:
    s = settle(classic, 0, [0, 4, 5], [True, True, True], [0, 0, 2])
    assert [x.bomb_income for x in s.seats] == [-20, -20, 40]
    assert s.totals == (9 - 20, -4 - 20, -5 + 40)


def test_worked_settlement_example(classic: Profile) -> None:
    # A wins; B holds 5 and played; C holds 16 and never played; B ended a trick on a bomb.
    s = settle(classic, 0, [0, 5, 16], [True, True, False], [0, 1, 0])
    assert s.totals == (27, 15, -42)
    a, b, c = s.seats
    assert (a.card_payment, b.card_payment, c.card_payment) == (37, -5, -32)
    assert (a.bomb_income, b.bomb_income, c.bomb_income) == (-10, 20, -10)
    assert (c.cards_left, c.shut_out, b.shut_out) == (16, True, False)
    assert sum(s.totals) == 0


def test_worked_settlement_example_played_out(judge: Judge) -> None:
    """The same figures from a deal played card by card through ``GameState``."""
    # A = seat 0 (holds ♠3), C = seat 1 (never plays), B = seat 2 (the bomber).
    a = "3s 456789 56789TJ AA"
    c = "333 44 56789 JJJ QQ A"
    b = "KKKK 456789T TT QQ 2"
    state = game(judge, a, c, b)
    run(judge, state, "3456789", None, "KKKK", None, None)  # B's bomb ends the trick unbeaten
    assert state.turn == 2 and state.bomb_bonuses == [0, 0, 1]
    run(judge, state, "456789T", "56789TJ", None, None, "AA")  # A beats it and goes out
    assert state.over and state.winner == 0
    s = state.settlement()
    assert s.totals == (27, -42, 15)
    assert [x.cards_left for x in s.seats] == [0, 16, 5]
    assert [x.shut_out for x in s.seats] == [False, True, False]
    assert [x.bomb_income for x in s.seats] == [-10, -10, 20]


@pytest.mark.parametrize("winner", [0, 1, 2])
def test_settlement_always_sums_to_zero(classic: Profile, winner: int) -> None:
    for left in ([0, 3, 16], [16, 0, 1], [2, 9, 0], [5, 5, 5]):
        cards = [0 if seat == winner else n or 1 for seat, n in enumerate(left)]
        for played in ([True] * 3, [False, True, False], [True, False, False]):
            for bombs in ([0, 0, 0], [1, 0, 2], [0, 3, 0]):
                assert sum(settle(classic, winner, cards, played, bombs).totals) == 0


def test_no_cap_on_payments(classic: Profile) -> None:
    s = settle(classic, 0, [0, 16, 16], [True, False, False], [5, 0, 0])
    assert s.totals == (64 + 100, -32 - 50, -32 - 50)
