"""Every rule in which a shipped profile differs from classic16, one scenario each.

Profiles are loaded by name exactly as ``--variant NAME`` does; positions are written in
card notation through the same ``Judge`` the classic rule tests use.
"""

from __future__ import annotations

import pytest

from pdk.engine import counts as C
from pdk.engine.cards import Rank, card_id
from pdk.engine.combos import ComboKind
from pdk.engine.deal import deal, next_leader
from pdk.engine.position import IllegalPlay, Reason
from pdk.engine.profile import Profile
from pdk.engine.settlement import settle
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile
from tests.support.positions import Judge, game, refused, run, with_knobs


def J(name: str) -> Judge:
    return Judge(load_profile(name))


def kind_of(judge: Judge, hand: str, play: str, beat: str | None = None) -> str:
    result = judge.check(judge.pos(hand, beat), play)
    assert result is not None
    return result.kind.label


def rank_count(profile: Profile, rank: int) -> int:
    return profile.rank_totals[rank]


# -- classic15 -----------------------------------------------------------------------------


def test_classic15_deck_is_45_cards_one_2_one_ace_three_kings() -> None:
    p = load_profile("classic15")
    assert len(p.deck_cards) == 45
    assert (rank_count(p, Rank.TWO), rank_count(p, Rank.ACE), rank_count(p, Rank.KING)) == (1, 1, 3)
    assert card_id(Rank.TWO, 0) in p.deck_cards and card_id(Rank.ACE, 1) in p.deck_cards
    assert card_id(Rank.KING, 0) not in p.deck_cards
    d = deal(p, 5)
    assert [C.total(C.from_mask(h)) for h in d.hands] == [15, 15, 15] and d.set_aside == 0


def test_classic15_one_card_loser_pays_nothing() -> None:
    p = load_profile("classic15")
    s = settle(p, 0, [0, 1, 6], [True, True, True], [0, 0, 0])
    assert s.totals == (6, 0, -6) and s.seats[1].exempt


# -- draw4 ---------------------------------------------------------------------------------


def test_draw4_sets_four_cards_aside() -> None:
    p = load_profile("draw4")
    d = deal(p, 11)
    assert len(p.deck_cards) == 52
    assert [C.total(C.from_mask(h)) for h in d.hands] == [16, 16, 16]
    assert bin(d.set_aside).count("1") == 4


def test_draw4_lowest_spade_leads_when_spade3_is_set_aside() -> None:
    judge = J("draw4")
    # ♠3 is among the set-aside cards: ♠4's holder (seat 2) leads.
    state = game(judge, "5s 6", "4h 3h", "4s 7")
    assert state.deal.leader == 2 and state.deal.lead_card == card_id(Rank.FOUR, 0)


# -- two-player ----------------------------------------------------------------------------


def test_two_player_deals_three_classic_hands_and_hides_the_third() -> None:
    two, classic = load_profile("two-player"), load_profile("classic16")
    d2, d3 = deal(two, 42), deal(classic, 42)
    assert d2.hands == d3.hands[:2]
    assert d2.set_aside == d3.hands[2]


def test_two_player_trick_ends_after_one_pass() -> None:
    judge = J("two-player")
    state = game(judge, "3s 5 9", "6 K 44")
    run(judge, state, "3s", "K")
    state.play(None)
    assert state.prev is None and state.turn == 1


def test_two_player_bao_dan_applies_to_the_only_opponent() -> None:
    judge = J("two-player")
    state = game(judge, "3s 5 9 Q", "6 K")
    run(judge, state, "3s", "6")  # seat 1 is left with one card
    singles = {m.top for m in state.legal_moves()}
    assert singles == {Rank.QUEEN}


# -- four-player ---------------------------------------------------------------------------


def test_four_player_deal_is_four_by_thirteen() -> None:
    p = load_profile("four-player")
    d = deal(p, 3)
    assert len(d.hands) == 4 and all(C.total(C.from_mask(h)) == 13 for h in d.hands)


def test_four_player_graded_settlement() -> None:
    p = load_profile("four-player")
    # Losers played 0 (x4), 3 of 13 (< 1/4: x3), 6 (< 1/2: x2), 7 (x1 would be seat... )
    s = settle(p, 0, [0, 13, 10, 7], [True, False, True, True], [0, 0, 0, 0])
    assert [x.multiplier for x in s.seats[1:]] == [4, 3, 2]
    assert s.totals == (13 * 4 + 10 * 3 + 7 * 2, -52, -30, -14)
    s = settle(p, 0, [0, 6, 2, 1], [True, True, True, True], [0, 0, 0, 0])
    assert [x.multiplier for x in s.seats[1:]] == [1, 1, 1]


def test_four_player_trick_needs_three_passes() -> None:
    judge = J("four-player")
    state = game(judge, "3s 5 9", "6 44", "7 8 8", "J QQ")
    run(judge, state, "3s", "6", "7", "J", None, None)
    assert state.prev is not None and state.turn == 2
    state.play(None)
    assert state.prev is None and state.turn == 3


# -- two-deck ------------------------------------------------------------------------------


def test_two_deck_is_108_cards_four_by_27() -> None:
    p = load_profile("two-deck")
    assert len(p.deck_cards) == 108
    assert all(C.total(C.from_mask(h)) == 27 for h in deal(p, 1).hands)


def test_two_deck_ace_and_two_sit_low_only_when_joined_to_three() -> None:
    judge = J("two-deck")
    hand = "Ah 2s 3c 4s 5s 6s 9h Ts Js Qs Ks Ad 2d"
    assert kind_of(judge, hand, "Ah 2s 3c 4s 5s") == "straight"
    assert kind_of(judge, hand, "9h Ts Js Qs Ks Ad 2d") == "straight"
    assert refused(judge, hand, "Js Qs Ks Ad 2d 3c") is Reason.NOT_A_COMBINATION
    a2345 = judge.check(judge.pos(hand), "Ah 2s 3c 4s 5s")
    s23456 = judge.check(judge.pos(hand), "2s 3c 4s 5s 6s")
    assert a2345 is not None and s23456 is not None and a2345.top < s23456.top
    assert kind_of(judge, "AA 22 33 QQ", "AA2233") == "pair_chain"
    assert kind_of(judge, "AAA 222 333", "AAA222333") == "trio_chain"


def test_two_deck_straight_flush_beats_any_plain_straight_of_its_length() -> None:
    judge = J("two-deck")
    hand = "3h 4h 5h 6h 7h 9"
    result = judge.check(judge.pos(hand, "TJQKA"), "3h4h5h6h7h")
    assert result is not None and result.kind is ComboKind.STRAIGHT_FLUSH
    assert refused(judge, hand, "3h4h5h6h7h", "89TJQK") is Reason.DOES_NOT_BEAT
    kinds = judge.legal(judge.pos(hand, "TJQKA"))
    assert kinds == {("34567", "straight_flush")}


def test_two_deck_bombs_more_cards_beat_fewer_and_four_jokers_top() -> None:
    judge = J("two-deck")
    five_threes = judge.move("33333")
    assert judge.check(judge.pos("444444 9", five_threes), "444444") is not None
    assert refused(judge, "AAAA 9", "AAAA", "33333") is Reason.DOES_NOT_BEAT
    assert judge.check(judge.pos("BBRR 9", "22222222"), "BBRR") is not None


def test_two_deck_trio_needs_a_pair_and_jokers_pair() -> None:
    judge = J("two-deck")
    assert kind_of(judge, "555 77 9", "55577") == "trio_with_two"
    assert kind_of(judge, "555 77 9", "555") == "trio"
    assert refused(judge, "555 7 9 Q", "55579") is Reason.NOT_A_COMBINATION
    assert kind_of(judge, "BB 9", "BB") == "pair"
    # 3+N following: a bare trio does not beat a trio with a pair.
    assert refused(judge, "666 9 J", "666", "55577") is Reason.DOES_NOT_BEAT
    assert kind_of(judge, "555666777 99 JJ KK", "555666777 99JJKK") == "plane"


# -- hearts3 -------------------------------------------------------------------------------


def test_hearts3_heart3_leads() -> None:
    judge = J("hearts3")
    state = game(judge, "3s 5", "3h 6", "3c 7")
    assert state.turn == 1


def test_hearts3_trio_carries_zero_to_two_and_followers_match() -> None:
    judge = J("hearts3")
    hand = "888 5 6 Q"
    assert kind_of(judge, hand, "888") == "trio"
    assert kind_of(judge, hand, "8885") == "trio_with_one"
    assert kind_of(judge, hand, "88856") == "trio_with_two"
    assert kind_of(judge, hand, "8885", "7773") == "trio_with_one"
    assert refused(judge, hand, "88856", "7773") is Reason.DOES_NOT_BEAT
    assert {c for c, _ in judge.legal(judge.pos(hand, "7773"))} == {"5888", "6888", "888Q"}


def test_hearts3_plane_carries_n_to_2n() -> None:
    judge = J("hearts3")
    hand = "888999 3 4 5 6 Q"
    assert refused(judge, hand, "888999 3") is Reason.BARE_TRIO  # short wings only as a last hand
    for wings in ("34", "345", "3456"):
        assert kind_of(judge, hand, "888999" + wings) == "plane"
    assert refused(judge, hand, "888999 3 4 5 6 Q") is Reason.NOT_A_COMBINATION
    # A follower carries as many wings.
    assert refused(judge, hand, "888999 3 4", "555666 7 8 9") is Reason.DOES_NOT_BEAT
    assert judge.check(judge.pos(hand, "555666 7 8 9"), "888999 3 4 5") is not None


def test_hearts3_four_with_kickers_is_not_a_bomb() -> None:
    judge = J("hearts3")
    hand = "7777 3 4 5 K"
    assert kind_of(judge, hand, "77773") == "four_with"
    assert kind_of(judge, hand, "7777345") == "four_with"
    assert kind_of(judge, hand, "7777") == "bomb"
    assert refused(judge, hand, "777734", "33334") is Reason.DOES_NOT_BEAT  # 4+2 does not follow 4+1
    assert refused(judge, hand, "77773", "K") is Reason.DOES_NOT_BEAT  # not a bomb


def test_hearts3_bao_pei_lower_single_is_allowed() -> None:
    judge = J("hearts3")
    # The 报单 rule is not forced: a lower single is legal before a one-card 下家.
    assert judge.check(judge.pos("5 9 K", "4", next_one=True), "5") is not None
    assert {m.top for m in judge.pos("5 9 K", "4", next_one=True).legal_moves()} == {
        Rank.FIVE,
        Rank.NINE,
        Rank.KING,
    }


def test_hearts3_bao_pei_offender_pays_every_losers_share() -> None:
    judge = J("hearts3")
    # Seat 0 leads ♥3, not its highest single K, while its 下家 holds one card: 放走.
    state = game(judge, "3h 4 K", "9", "5 5 6 6 7")
    run(judge, state, "3h", "9")
    assert state.over and state.winner == 1
    s = state.settlement()
    assert s.seats[0].liable
    # Seat 0 owes its own 2 cards and seat 2's 全关 5 x 2.
    assert s.totals == (-12, 12, 0)


def test_hearts3_no_bao_pei_when_the_highest_single_was_played() -> None:
    judge = J("hearts3")
    state = game(judge, "3h K", "A", "5 5 6 6 7")
    run(judge, state, "K", "A")
    assert state.over and state.winner == 1
    s = state.settlement()
    assert not any(x.liable for x in s.seats)
    assert s.totals == (-1, 11, -10)


# -- jokers17 family -----------------------------------------------------------------------


def test_jokers17_deck_deal_and_set_aside() -> None:
    p = load_profile("jokers17")
    d = deal(p, 9)
    assert len(p.deck_cards) == 54
    assert [C.total(C.from_mask(h)) for h in d.hands] == [17, 17, 17]
    assert bin(d.set_aside).count("1") == 3


def test_jokers17_combinations() -> None:
    judge = J("jokers17")
    assert kind_of(judge, "KKK 5", "KKK") == "trio"
    assert kind_of(judge, "JJJ 99", "JJJ99") == "trio_with_two"
    assert refused(judge, "JJJ 9 T", "JJJ9T") is Reason.NOT_A_COMBINATION
    assert refused(judge, "33 44 9", "3344") is Reason.NOT_A_COMBINATION
    assert kind_of(judge, "33 44 55", "334455") == "pair_chain"
    assert refused(judge, "333 444 5 6 7 8", "333444 5678") is Reason.NOT_A_COMBINATION


def test_jokers17_joker_bomb_is_the_top_bomb() -> None:
    judge = J("jokers17")
    assert kind_of(judge, "B R 5", "BR") == "bomb"
    assert judge.check(judge.pos("B R 5", "2222"), "BR") is not None
    assert refused(judge, "2222 5", "2222", "BR") is Reason.DOES_NOT_BEAT


def test_jokers17_passing_is_always_allowed() -> None:
    judge = J("jokers17")
    pos = judge.pos("5 9 K", "4")
    assert pos.can_pass() and judge.check(pos, None) is None


def test_jokers17_play_goes_on_to_the_last_and_scores_places() -> None:
    judge = J("jokers17")
    state = game(judge, "3s 4 4", "5 6 8", "7 9 T")
    run(judge, state, "3s", "5", "7", None, None)  # seat 2 leads
    run(judge, state, "9", None, None)
    run(judge, state, "T")  # seat 2 is out first
    assert not state.over and state.winner == 2
    run(judge, state, None, None)  # both others pass the abandoned trick
    assert state.prev is None and state.turn == 0  # the next player still in leads
    run(judge, state, "44")  # seat 0 out second
    assert state.over
    s = state.settlement()
    assert [x.place for x in s.seats] == [2, 3, 1]
    assert s.totals == (0, -2, 3)  # 头游 +2 and +1 extra, 末游 -2


def test_jokers17_bomb_scores_when_played() -> None:
    judge = J("jokers17")
    state = game(judge, "3s 4 4", "5 5 5 5 6", "7 8 9")
    run(judge, state, "3s", "5555", None, None)  # seat 1's bomb
    run(judge, state, "6")
    assert state.winner == 1 and not state.over
    run(judge, state, "7", None, "8", None, "9")
    assert state.over
    s = state.settlement()
    assert s.seats[1].bomb_income == 1
    assert s.totals == (-2, 2 + 1 + 1, 0)  # 头游 +2 +1 extra +1 bomb; not zero-sum


def test_jokers17_leader_fallback_lowest_spade() -> None:
    judge = J("jokers17")
    state = game(judge, "5s 9", "4s 8", "6s 7")
    assert state.turn == 1  # nobody holds ♠3 (set aside): ♠4 leads


def test_jokers17_hunan_no_pair_chains_and_first_play_contains_spade3() -> None:
    judge = J("jokers17-hunan")
    assert refused(judge, "33 44 55 9", "334455") is Reason.NOT_A_COMBINATION
    state = game(judge, "3s 3h 9 K", "5 6", "7 8")
    with pytest.raises(IllegalPlay) as info:
        run(judge, state, "9")
    assert info.value.reason is Reason.MUST_CONTAIN_LEAD
    assert all(C.count(m.counts, Rank.THREE) for m in state.legal_moves())
    run(judge, state, "3s")


def test_jokers17_guangdong_bombs_double_the_score() -> None:
    p = load_profile("jokers17-guangdong")
    s = settle(p, 2, [1, 3, 0], [True, True, True], [0, 0, 0], order=[2, 0, 1], bombs_played=2)
    # Two bombs: x4. 头游 (2 + 1) x 4, 二游 0, 末游 -2 x 4.
    assert s.totals == (0, -8, 12) and s.doubling == 4


def test_jokers17_sichuan_heart3_leads() -> None:
    judge = J("jokers17-sichuan")
    state = game(judge, "3s 5", "3h 6", "3c 7")
    assert state.turn == 1


def test_jokers17_big_single_jokers_are_singles_only() -> None:
    judge = J("jokers17-big-single")
    assert refused(judge, "B R 5", "BR") is Reason.NOT_A_COMBINATION
    assert kind_of(judge, "B R 5", "R", "B") == "single"


# -- match level ---------------------------------------------------------------------------


def test_next_leader_only_with_winner_leads() -> None:
    classic = load_profile("classic16")
    assert next_leader(classic, 2) is None
    data = classic.model_dump()
    data["lead"]["winner_leads"] = True
    match = Profile.model_validate(data)
    assert next_leader(match, 2) == 2 and next_leader(match, None) is None
    d = deal(match, 7, leader=2)
    assert d.leader == 2 and d.lead_card is None
    assert d.hands == deal(classic, 7).hands


# -- more differences, one scenario each -----------------------------------------------------


@pytest.mark.parametrize("name", ["classic15", "draw4", "two-player"])
def test_seed_003_profiles_exempt_a_one_card_loser(name: str) -> None:
    p = load_profile(name)
    losers = [1, 5] if p.players == 3 else [1]
    cards = [0, *losers]
    s = settle(p, 0, cards, [True] * len(cards), [0] * len(cards))
    assert s.seats[1].exempt and s.seats[1].total == 0
    assert s.totals[0] == sum(losers) - 1


def test_jokers17_keeps_the_short_last_hand() -> None:
    # docs/variants.md lists no change to docs/rules.md restriction 1: a last hand may be short of
    # its kickers (the pair of a 三带二); before the end it is no combination.
    judge = J("jokers17")
    assert kind_of(judge, "888 5", "8885") == "trio_with_two"
    assert kind_of(judge, "888 5", "888") == "trio"
    assert refused(judge, "888 5 9", "8885") is Reason.BARE_TRIO  # "only as your last cards"
    assert kind_of(judge, "888 5", "8885", beat="777 44") == "trio_with_two"


def test_two_deck_unbreakable_bomb_of_six_goes_out_whole() -> None:
    judge = J("two-deck")
    hand = "666666 9"
    assert {(c, k) for c, k in judge.legal(judge.pos(hand))} == {("666666", "bomb"), ("9", "single")}
    assert refused(judge, hand, "6666") is Reason.BREAKS_BOMB


def test_jokers17_sichuan_falls_back_to_the_next_heart() -> None:
    judge = J("jokers17-sichuan")
    state = game(judge, "3s 5", "4h 6", "5h 7")
    assert state.turn == 1 and state.deal.lead_card == card_id(Rank.FOUR, 1)


def test_jokers17_guangdong_doubling_in_play() -> None:
    judge = J("jokers17-guangdong")
    state = game(judge, "3s 4 4", "5 5 5 5 6", "7 8 9")
    run(judge, state, "3s", "5555", None, None, "6", "7", None, "8", None, "9")
    assert state.over
    s = state.settlement()
    assert s.doubling == 2 and s.totals == (-4, 6, 0)  # (2 + 1) x 2, 0, -2 x 2


def test_three_aces_bomb_knob() -> None:
    p = with_knobs("classic16", bombs={"three_aces": True})
    judge = Judge(p)
    assert kind_of(judge, "AAA 5", "AAA") == "bomb"
    assert judge.check(judge.pos("AAA 5", "KKKK"), "AAA") is not None  # the strongest bomb by default
    assert refused(judge, "AAA 5 6", "AAA56") is Reason.BREAKS_BOMB
    assert ("AAA", "bomb") in judge.legal(judge.pos("AAA 5", "9"))
    with pytest.raises(ValueError, match=r"bombs\.three_aces"):
        with_knobs("classic15", bombs={"three_aces": True})


def test_reverse_spring_knob() -> None:
    p = with_knobs("classic16", settlement={"reverse_spring_multiplier": 2})
    judge = Judge(p)
    # Seat 0 leads ♠3 and never plays again; seat 1 goes out.
    state = game(judge, "3s 4 5", "2s 6", "7 8 9")
    run(judge, state, "3s", "2s", None, None, "6")
    s = state.settlement()
    # Seat 0: 2 cards x2 (反春); seat 2 never played: 3 cards x2 (全关).
    assert s.seats[0].multiplier == 2 and s.totals == (-4, 10, -6)
    # Without the knob the same deal is plain card payment.
    judge = J("classic16")
    state = game(judge, "3s 4 5", "2s 6", "7 8 9")
    run(judge, state, "3s", "2s", None, None, "6")
    assert state.settlement().totals == (-2, 8, -6)


def test_winner_leads_knob_in_a_match() -> None:
    p = with_knobs("classic16", lead={"winner_leads": True})
    first = deal(p, 1)
    state = GameState(p, first)
    while not state.over:
        moves = state.legal_moves()
        state.step(moves[0] if moves else None)
    leader = next_leader(p, state.winner)
    assert leader == state.winner
    second = deal(p, 2, leader=leader)
    assert GameState(p, second).turn == state.winner


def test_straight_flush_as_a_bomb_knob() -> None:
    p = with_knobs(
        "two-deck",
        combinations={"straight_flush": "bomb"},
        bombs={"order": ("same_rank", "straight_flush", "four_jokers")},
    )
    judge = Judge(p)
    hand = "3h 4h 5h 6h 7h 9"
    result = judge.check(judge.pos(hand, "KKKKKKKK"), "3h4h5h6h7h")
    assert result is not None and result.kind is ComboKind.BOMB  # above every same-rank bomb
    assert refused(judge, hand, "3h4h5h6h7h", "BBRR") is Reason.DOES_NOT_BEAT
    assert ("34567", "bomb") in judge.legal(judge.pos(hand, "9"))
    with pytest.raises(ValueError, match=r"bombs\.order"):
        with_knobs("two-deck", combinations={"straight_flush": "bomb"})


def test_breakable_bombs_knob() -> None:
    judge = Judge(with_knobs("two-deck", bombs={"unbreakable": False}))
    legal = judge.legal(judge.pos("666666 9"))
    assert {("6666", "bomb"), ("66666", "bomb"), ("666666", "bomb"), ("66", "pair"), ("666", "trio")} <= legal


def test_first_out_bonus_only_on_a_sweep_knob() -> None:
    p = with_knobs("jokers17", settlement={"first_out_bonus_if": "others_shut_out"})
    kw = {"order": [0, 1, 2]}
    assert settle(p, 0, [0, 0, 4], [True] * 3, [0] * 3, **kw, first_out_sweep=False).totals == (2, 0, -2)
    assert settle(p, 0, [0, 0, 4], [True] * 3, [0] * 3, **kw, first_out_sweep=True).totals == (3, 0, -2)


def test_lead_fallback_is_required_when_cards_are_set_aside() -> None:
    with pytest.raises(ValueError, match=r"lead\.fallback"):
        with_knobs("draw4", lead={"fallback": False})
    judge = Judge(with_knobs("classic16", lead={"fallback": False}))
    assert game(judge, "3s 5", "4 6", "7 8").turn == 0
