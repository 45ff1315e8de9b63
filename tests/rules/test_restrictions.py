"""docs/rules.md, "Restrictions": bare trios, unbreakable bombs, must beat, the leader, 报单."""

from __future__ import annotations

import pytest

from pdk.engine.combos import ComboKind
from pdk.engine.deal import deal_from_hands
from pdk.engine.position import IllegalPlay, Reason
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from tests.support.positions import Judge, rank, refused

# -- 1. no bare trio, no short kickers --------------------------------------------------


def test_bare_trio_refused(judge: Judge) -> None:
    assert refused(judge, "333 5 9", "333") is Reason.BARE_TRIO
    assert refused(judge, "333 5 9", "3335") is Reason.BARE_TRIO
    assert "333" not in judge.legal_cards(judge.pos("333 5 9"))
    assert "3335" not in judge.legal_cards(judge.pos("333 5 9"))


def test_bare_trio_only_as_last_hand(judge: Judge) -> None:
    for hand in ("333", "3335"):
        play = judge.check(judge.pos(hand), hand)
        assert play is not None and play.kind is ComboKind.TRIO_WITH_TWO
        assert (hand, "trio_with_two") in judge.legal(judge.pos(hand))


def test_plane_needs_full_wings(judge: Judge) -> None:
    assert refused(judge, "333444 79 K", "33344479") is Reason.BARE_TRIO
    assert refused(judge, "333444 K", "333444") is Reason.BARE_TRIO
    # 333444+79K is the whole hand (a legal short plane); anything less needs four wings.
    planes = {c for c, kind in judge.legal(judge.pos("333444 79 K")) if kind == "plane"}
    assert planes == {"33344479K"}
    planes = {c for c, kind in judge.legal(judge.pos("333444 79 KK")) if kind == "plane"}
    assert planes and all(len(c) == 10 for c in planes)


def test_short_plane_only_as_last_hand(judge: Judge) -> None:
    for hand in ("333444", "3334447", "33344479", "3334445556789"):
        play = judge.check(judge.pos(hand), hand)
        assert play is not None and play.kind is ComboKind.PLANE, hand
        assert (hand, "plane") in judge.legal(judge.pos(hand)), hand


def test_short_trio_beats_lower_trio_with_two(judge: Judge) -> None:
    play = judge.check(judge.pos("8885", "777 34"), "8885")
    assert play is not None and (play.kind, play.top) == (ComboKind.TRIO_WITH_TWO, rank("8"))
    assert refused(judge, "8885", "8885", "999 34") is Reason.DOES_NOT_BEAT
    assert judge.check(judge.pos("888", "777 34"), "888") is not None


def test_short_plane_compares_as_plane_with_same_trio_count(judge: Judge) -> None:
    play = judge.check(judge.pos("5556667", "333444 89JQ"), "5556667")
    assert play is not None and (play.kind, play.top, play.units) == (ComboKind.PLANE, rank("6"), 2)
    # A short two-trio plane cannot beat a three-trio plane.
    assert refused(judge, "JJJQQQ7", "JJJQQQ7", "333444555 6789TK") is Reason.DOES_NOT_BEAT


# -- 2. bombs are unbreakable ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "play", "beat"),
    [
        ("5555 9", "5", None),  # as a single
        ("5555 9", "55", None),  # as a pair
        ("5555 3344 9", "334455", None),  # inside a pair chain
        ("5555 34678 9", "34567", None),  # inside a straight
        ("5555 9 J", "555 9J", "444 36"),  # as a trio (with a kicker from the bomb's rank left)
        ("5555 999 J", "999 55", None),  # as kickers
        ("5555 999 J", "999 5J", None),  # as one kicker
        ("5555 888999 JQ", "888999 55JQ", None),  # as plane wings
        ("5555", "5", "4"),  # even when following
    ],
)
def test_bomb_unbreakable(judge: Judge, hand: str, play: str, beat: str | None) -> None:
    assert refused(judge, hand, play, beat) is Reason.BREAKS_BOMB


def test_bomb_unbreakable_generator_never_splits_a_bomb(judge: Judge) -> None:
    for hand, beat in [("5555 34678 999 JQ 2", None), ("5555 3 4", "3"), ("5555 666 7", "444 89")]:
        pos = judge.pos(hand, beat)
        for cards in judge.legal_cards(pos):
            assert cards.count("5") in (0, 4), (hand, cards)


def test_bomb_unbreakable_bomb_itself_is_fine(judge: Judge) -> None:
    play = judge.check(judge.pos("5555 9"), "5555")
    assert play is not None and play.kind is ComboKind.BOMB
    assert ("5555", "bomb") in judge.legal(judge.pos("5555 9"))


def test_bomb_unbreakable_only_while_held_whole(judge: Judge) -> None:
    # Three fives are just a trio: 555 may carry kickers and 5 may go as a single.
    assert judge.check(judge.pos("555 9 J 3"), "5") is not None
    assert judge.check(judge.pos("555 9 J 3"), "555 9J") is not None


# -- 3. must beat ---------------------------------------------------------------------------


def test_must_beat_forbids_pass(judge: Judge) -> None:
    assert refused(judge, "5 Q", None, "J") is Reason.MUST_BEAT
    assert not judge.pos("5 Q", "J").can_pass()


def test_must_beat_allows_pass_when_nothing_beats(judge: Judge) -> None:
    pos = judge.pos("5 Q 33 444", "K")
    assert pos.legal_moves() == []
    assert pos.can_pass()
    assert judge.check(pos, None) is None


def test_must_beat_counts_bombs(judge: Judge) -> None:
    assert refused(judge, "3333 4", None, "2") is Reason.MUST_BEAT
    assert judge.legal_cards(judge.pos("3333 4", "2")) == {"3333"}
    assert refused(judge, "9999 4", None, "3456789TJQKA") is Reason.MUST_BEAT


def test_must_beat_higher_bomb_only(judge: Judge) -> None:
    pos = judge.pos("3333 4", "5555")
    assert pos.can_pass() and judge.check(pos, None) is None
    assert refused(judge, "6666 4", None, "5555") is Reason.MUST_BEAT


def test_must_beat_respects_unbreakable_kickers(judge: Judge) -> None:
    # 999 could only carry kickers from the bomb: the trio is no play, but the bomb is.
    pos = judge.pos("999 7777", "333 45")
    assert judge.legal_cards(pos) == {"7777"}
    assert not pos.can_pass()
    assert refused(judge, "999 7777", "999 77", "333 45") is Reason.BREAKS_BOMB


def test_must_beat_counts_short_last_hand(judge: Judge) -> None:
    # D3: the short trio 888+5 is the whole hand and beats 777+34, so passing is refused.
    assert refused(judge, "8885", None, "777 34") is Reason.MUST_BEAT
    assert refused(judge, "5556667", None, "333444 89JQ") is Reason.MUST_BEAT
    assert refused(judge, "888", None, "777 34") is Reason.MUST_BEAT


def test_must_beat_respects_bao_dan(judge: Judge) -> None:
    # 报单: the highest single Q beats J, so it is the one play (9 and 5 do not beat anyway).
    assert judge.legal_cards(judge.pos("5 9 Q", "J", next_one=True)) == {"Q"}
    # Highest single 9 does not beat J, the lower singles do not count: pass is allowed.
    pos = judge.pos("5 9", "J", next_one=True)
    assert pos.can_pass() and judge.check(pos, None) is None


# -- 4. the leader cannot pass -------------------------------------------------------------


def test_leader_cannot_pass(judge: Judge) -> None:
    assert refused(judge, "5 Q", None) is Reason.LEADER_CANNOT_PASS
    assert not judge.pos("5 Q").can_pass()


def test_trick_ends_after_two_passes_and_last_player_leads(classic: Profile, judge: Judge) -> None:
    hands = tuple(sum(1 << c for c in judge.cards(h)) for h in ("3s 5 9", "2 44", "6 7 8"))
    state = GameState(classic, deal_from_hands(classic, hands))
    assert state.turn == 0
    state.play(judge.cards("3s"))
    state.play(judge.cards("2"))  # seat 1 tops it
    state.play(None)
    assert state.prev is not None and state.turn == 0
    state.play(None)  # both others passed: the trick is over
    assert state.prev is None and state.turn == 1
    with pytest.raises(IllegalPlay) as info:
        state.play(None)
    assert info.value.reason is Reason.LEADER_CANNOT_PASS
    state.play(judge.cards("44"))  # any combination may lead
    assert state.over and state.winner == 1


# -- 5. 报单 -------------------------------------------------------------------------------


def test_bao_dan_spade2_example(judge: Judge) -> None:
    # The previous play is 9; you hold 10, K, ♠2; your 下家 holds one card.
    pos = judge.pos("T K 2s", "9", next_one=True)
    assert judge.legal_cards(pos) == {"2"}
    assert not pos.can_pass()
    assert refused(judge, "T K 2s", None, "9", True) is Reason.MUST_BEAT
    assert refused(judge, "T K 2s", "T", "9", True) is Reason.HIGHEST_SINGLE
    assert refused(judge, "T K 2s", "K", "9", True) is Reason.HIGHEST_SINGLE
    play = judge.check(pos, "2s")
    assert play is not None and play.kind is ComboKind.SINGLE
    # Without 报单 all three beat 9.
    assert judge.legal_cards(judge.pos("T K 2s", "9")) == {"T", "K", "2"}


def test_bao_dan_highest_single_when_leading(judge: Judge) -> None:
    pos = judge.pos("3 7 Q 55", next_one=True)
    singles = {c for c, kind in judge.legal(pos) if kind == "single"}
    assert singles == {"Q"}
    assert refused(judge, "3 7 Q 55", "3", next_one=True) is Reason.HIGHEST_SINGLE
    assert judge.check(pos, "Q") is not None


def test_bao_dan_other_combinations_unaffected(judge: Judge) -> None:
    pos = judge.pos("3 7 Q 55 66", next_one=True)
    assert judge.check(pos, "55") is not None
    assert judge.check(pos, "5566") is not None
    assert judge.check(judge.pos("55 KK", "44", next_one=True), "55") is not None


def test_bao_dan_only_when_the_next_player_has_one(classic: Profile, judge: Judge) -> None:
    """The 上家 of the one-card player is restricted; the one-card player's 下家 is not."""
    hands = tuple(sum(1 << c for c in judge.cards(h)) for h in ("3s 4 8 Q", "5 9", "6 7 T J"))
    state = GameState(classic, deal_from_hands(classic, hands))
    state.play(judge.cards("3s"))
    state.play(judge.cards("5"))  # seat 1 now holds one card: 报单
    assert state.sizes[1] == 1
    # Seat 2 is seat 1's 下家, not its 上家: any single that beats is fine.
    assert state.turn == 2 and not state.position().next_has_one
    assert judge.legal_cards(state.position()) == {"6", "7", "T", "J"}
    state.play(judge.cards("6"))
    # Seat 0 is seat 1's 上家: only its highest single, Q.
    pos = state.position()
    assert state.turn == 0 and pos.next_has_one
    assert judge.legal_cards(pos) == {"Q"}
    with pytest.raises(IllegalPlay) as info:
        state.play(judge.cards("8"))
    assert info.value.reason is Reason.HIGHEST_SINGLE
    assert state.view(0).position().next_has_one
    state.play(judge.cards("Q"))
