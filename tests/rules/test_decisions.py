"""docs/rules.md, "Decisions" D1-D6: the points the seed leaves open, each pinned by a test."""

from __future__ import annotations

import pytest

from pdk.engine.cards import cards_of, format_cards
from pdk.engine.combos import ComboKind, Move
from pdk.engine.deal import deal, splitmix64
from pdk.engine.position import IllegalPlay, Reason
from pdk.engine.profile import Profile
from pdk.engine.record import GameRecord, dumps, loads
from tests.support.positions import Judge, game, random_game, rank, refused, run

# -- D1: the highest single under 报单 ----------------------------------------------------


def test_d1_highest_single_excludes_bomb_locked_cards_when_leading(judge: Judge) -> None:
    pos = judge.pos("5 9 KKKK", next_one=True)
    singles = {c for c, kind in judge.legal(pos) if kind == "single"}
    assert singles == {"9"}  # K is locked in the bomb, so 9 is the highest single
    play = judge.check(pos, "9")
    assert play is not None and play.kind is ComboKind.SINGLE
    assert refused(judge, "5 9 KKKK", "5", next_one=True) is Reason.HIGHEST_SINGLE


def test_d1_highest_single_excludes_bomb_locked_cards_when_following(judge: Judge) -> None:
    pos = judge.pos("5 9 KKKK", "8", next_one=True)
    assert judge.legal_cards(pos) == {"9", "KKKK"}
    assert judge.check(pos, "9") is not None


def test_d1_highest_single_cannot_beat_means_no_single(judge: Judge) -> None:
    # The highest playable single 9 cannot beat T: no single at all; the bomb must go.
    pos = judge.pos("5 9 KKKK", "T", next_one=True)
    assert judge.legal_cards(pos) == {"KKKK"}
    assert not pos.can_pass()
    assert refused(judge, "5 9 KKKK", None, "T", True) is Reason.MUST_BEAT
    # Without a bomb the player passes.
    pos = judge.pos("5 9 33", "T", next_one=True)
    assert pos.legal_moves() == [] and pos.can_pass()
    assert judge.check(pos, None) is None


def test_d1_highest_single_is_the_highest_free_single_even_from_a_pair(judge: Judge) -> None:
    # QQ is not a bomb: Q is the highest single, and it may be split off the pair.
    pos = judge.pos("5 9 QQ", "8", next_one=True)
    assert judge.legal_cards(pos) == {"Q"}


# -- D2: ambiguous readings -------------------------------------------------------------------


def test_d2_leading_prefers_the_highest_top_among_equal_trio_counts(judge: Judge) -> None:
    # 777888999TTT+345 reads as trios 7-9 (wings TTT345) or 8-T (wings 777345).
    pos = judge.pos("777888999TTT345 2")
    play = judge.check(pos, "777888999TTT345")
    assert play is not None
    assert (play.kind, play.units, play.top) == (ComboKind.PLANE, 3, rank("T"))
    gen = [
        m for m in pos.legal_moves() if m.kind == ComboKind.PLANE and m.units == 3 and m.counts == play.counts
    ]
    assert [(m.top, m.units) for m in gen] == [(rank("T"), 3)]


def test_d2_leading_prefers_the_most_trios(judge: Judge) -> None:
    # A 15-card last hand: short 4-trio plane 3-6, or full 3-trio planes 3-5 / 4-6.
    hand = "333444555666789"
    play = judge.check(judge.pos(hand), hand)
    assert play is not None and (play.kind, play.units, play.top) == (ComboKind.PLANE, 4, rank("6"))
    # A 16-card last hand 333444555666777+8 reads as a short 5-trio plane.
    hand = "3334445556667778"
    play = judge.check(judge.pos(hand), hand)
    assert play is not None and (play.units, play.top) == (5, rank("7"))


def test_d2_following_uses_the_reading_that_beats(judge: Judge) -> None:
    cards = "777888999TTT345"
    beat_9 = judge.move("444555666 88 JJ QK")  # a 3-trio plane, top 6
    play = judge.check(judge.pos(cards + "2", beat_9), cards)
    assert play is not None and (play.units, play.top) == (3, rank("T"))
    # Against a 3-trio plane with top 9 (cards from another deck: only the reading matters),
    # only the 8-T reading beats, and it is the one used.
    prev = Move(judge.move("666777888 34 5 JJ Q")[0], ComboKind.PLANE, rank("9"), 3)
    play = judge.check(judge.pos(cards + "2", prev), cards)
    assert play is not None and play.top == rank("T")
    prev_t = Move(prev.counts, ComboKind.PLANE, rank("T"), 3)
    with pytest.raises(IllegalPlay) as info:
        judge.check(judge.pos(cards + "2", prev_t), cards)
    assert info.value.reason is Reason.DOES_NOT_BEAT


def test_d2_following_with_a_last_hand_uses_the_three_trio_reading(judge: Judge) -> None:
    # 333444555666789 as a whole hand follows a 3-trio plane as 444555666+333789 (top 6).
    prev = Move(judge.move("3334445556 789TJ")[0], ComboKind.PLANE, rank("5"), 3)
    hand = "333444555666789"
    play = judge.check(judge.pos(hand, prev), hand)
    assert play is not None and (play.units, play.top) == (3, rank("6"))
    assert hand in judge.legal_cards(judge.pos(hand, prev))


def test_d2_record_stores_the_reading_used(classic: Profile, judge: Judge) -> None:
    seat0 = "3s33 444555666 789 Q"  # 16 cards: the 15-card plane is not the whole hand
    rest = cards_of(judge.deck & ~sum(1 << c for c in judge.cards(seat0)))
    state = game(judge, seat0, format_cards(rest[:16], suits=True), format_cards(rest[16:], suits=True))
    run(judge, state, "333444555666789")
    data = GameRecord.of(state, seed=None).to_dict()
    assert data["plays"][0]["kind"] == "plane"
    assert (data["plays"][0]["top"], data["plays"][0]["units"]) == ("6", 3)
    assert loads(dumps(GameRecord.of(state))).actions[0].play == state.history[0].play


# -- D3: must-beat counts every legal reading ---------------------------------------------


def test_d3_must_beat_counts_short_last_hand_trio(judge: Judge) -> None:
    assert refused(judge, "8885", None, "777 34") is Reason.MUST_BEAT
    assert judge.legal_cards(judge.pos("8885", "777 34")) == {"5888"}


def test_d3_must_beat_counts_short_last_hand_plane(judge: Judge) -> None:
    pos = judge.pos("5556667", "333444 89JQ")
    assert judge.legal_cards(pos) == {"5556667"}
    assert not pos.can_pass()


def test_d3_must_beat_counts_the_beating_reading_of_an_ambiguous_hand(judge: Judge) -> None:
    prev = Move(judge.move("3334445556 789TJ")[0], ComboKind.PLANE, rank("5"), 3)
    assert refused(judge, "333444555666789", None, prev) is Reason.MUST_BEAT


# -- D4: 全关 per loser; the first leader is never shut out -----------------------------------


def test_d4_shut_out_judged_per_loser(judge: Judge) -> None:
    state = game(judge, "3s 3h 6", "44", "2 KK")
    run(judge, state, "33", "44")
    s = state.settlement()
    assert [x.shut_out for x in s.seats] == [False, False, True]
    assert s.totals == (-1, 1 + 6, -6)


def test_d4_first_leader_is_never_shut_out(classic: Profile) -> None:
    for seed in range(40):
        state = random_game(classic, seed)
        first = state.deal.leader
        s = state.settlement()
        assert not s.seats[first].shut_out
        for x in s.seats:
            assert x.shut_out == (x.seat != s.winner and not state.played_any[x.seat])


# -- D5: the bomb bonus ---------------------------------------------------------------------


def test_d5_unbeaten_bomb_at_trick_end_collects(judge: Judge) -> None:
    state = game(judge, "3s 99 Q", "5555 4 K", "6 7 8")
    run(judge, state, "3s", "5555", None)
    assert state.bomb_bonuses == [0, 0, 0]  # not yet: the trick is still open
    run(judge, state, None)
    assert state.bomb_bonuses == [0, 1, 0]
    run(judge, state, "K", None, None, "4")
    s = state.settlement()
    assert [x.bomb_income for x in s.seats] == [-10, 20, -10]
    assert s.totals == (-3 - 10, 3 + 6 + 20, -6 - 10)


def test_d5_going_out_with_a_bomb_collects(judge: Judge) -> None:
    state = game(judge, "3s 9", "5555", "6 7 8")
    run(judge, state, "3s", "5555")
    assert state.over and state.winner == 1
    s = state.settlement()
    assert [x.bomb_income for x in s.seats] == [-10, 20, -10]
    assert s.totals == (-1 - 10, 1 + 6 + 20, -6 - 10)


def test_d5_beaten_bomb_scores_nothing(judge: Judge) -> None:
    state = game(judge, "3s 9 Q", "5555 4 K", "6666 7 8")
    run(judge, state, "3s", "5555", "6666", None, None)
    assert state.bomb_bonuses == [0, 0, 1]
    # Bonuses are independent of who wins: seat 1 goes out, seat 2 keeps its bomb income.
    run(judge, state, "7", "Q", "K", None, None, "4")
    s = state.settlement()
    assert s.winner == 1
    assert [x.bomb_income for x in s.seats] == [-10, -10, 20]
    assert [x.bombs for x in s.seats] == [0, 0, 1]


# -- D6: reproducible deals -----------------------------------------------------------------


def test_d6_splitmix64_matches_the_reference_stream() -> None:
    words = splitmix64(0)
    assert [next(words) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_d6_deal_for_seed_2026_is_pinned(classic: Profile) -> None:
    d = deal(classic, 2026)
    assert [format_cards(cards_of(h), suits=True) for h in d.hands] == [
        "3c5s5c6s6h6c7s7d8d9hThJdQsKcAh2s",
        "3s4h5h6d7h7c8h9c9dTcTdJhJcQhQcQd",
        "3h3d4s4c4d5d8s8c9sTsJsKsKhKdAcAd",
    ]
    assert d.leader == 1


def test_d6_same_seed_same_deal_different_seed_different_deal(classic: Profile) -> None:
    assert deal(classic, 99) == deal(classic, 99)
    assert len({deal(classic, s).hands for s in range(50)}) == 50
