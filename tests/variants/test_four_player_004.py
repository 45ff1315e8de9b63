"""four-player-004: seed 004's own four-player game (docs/variants.md), one scenario per rule."""

from __future__ import annotations

import pytest

from pdk.engine import counts as C
from pdk.engine.combos import ComboKind
from pdk.engine.deal import deal
from pdk.engine.position import Reason
from pdk.engine.settlement import settle
from pdk.variants.registry import available_profiles, load_profile
from pdk.view.rules_in_words import explain
from tests.support.positions import Judge, game, refused, run

NAME = "four-player-004"


def J() -> Judge:
    return Judge(load_profile(NAME))


def kind_of(judge: Judge, hand: str, play: str, beat: str | None = None) -> str:
    result = judge.check(judge.pos(hand, beat), play)
    assert result is not None
    return result.kind.label


def test_listed_and_explained() -> None:
    assert NAME in {p.name for p in available_profiles()}
    text = explain(load_profile(NAME), "en")
    assert "You may always pass" in text and "Straight flush" in text


def test_one_pack_four_by_thirteen_spade_three_leads() -> None:
    p = load_profile(NAME)
    assert len(p.deck_cards) == 52 and not p.deck.jokers
    d = deal(p, 4)
    assert len(d.hands) == 4 and all(C.total(C.from_mask(h)) == 13 for h in d.hands)
    three_s = next(c for c in p.deck_cards if c == 0)
    assert d.hands[d.leader] >> three_s & 1


def test_ace_and_two_low_in_chains_joined_to_three() -> None:
    judge = J()
    hand = "Ah 2s 3c 4s 5s 6s 9h"
    assert kind_of(judge, hand, "Ah 2s 3c 4s 5s") == "straight"
    assert kind_of(judge, "AA 22 33 QQ", "AA2233") == "pair_chain"
    assert kind_of(judge, "AAA 222 333 4", "AAA222333") == "trio_chain"
    assert refused(judge, "Js Qs Ks Ad 2d 3c 9", "Js Qs Ks Ad 2d 3c") is Reason.NOT_A_COMBINATION


def test_straight_flush_beats_a_plain_straight() -> None:
    judge = J()
    result = judge.check(judge.pos("3h 4h 5h 6h 7h 9", "TJQKA"), "3h4h5h6h7h")
    assert result is not None and result.kind is ComboKind.STRAIGHT_FLUSH


@pytest.mark.parametrize("name", [NAME, "two-deck"])
def test_a_straight_of_one_suit_is_only_ever_a_straight_flush(name: str) -> None:
    # seed 004: 同花顺：花色相同的顺子牌型 — five hearts 3-7 are a flush, never a plain straight
    # (which a plain 45678 could beat); with a 7 of another suit both plays exist.
    judge = Judge(load_profile(name))
    straight = C.from_cards(judge.cards("34567"))

    def kinds(hand: str) -> list[ComboKind]:
        return sorted(m.kind for m in judge.pos(hand).legal_moves() if m.counts == straight)

    assert kinds("3h 4h 5h 6h 7h 9c") == [ComboKind.STRAIGHT_FLUSH]
    assert kinds("3h 4h 5h 6h 7h 7c") == [ComboKind.STRAIGHT, ComboKind.STRAIGHT_FLUSH]
    assert kinds("3h 4h 5h 6h 7h") == [ComboKind.STRAIGHT_FLUSH]  # the whole hand, too


def test_bare_trio_chain_and_pair_kickers() -> None:
    judge = J()
    assert kind_of(judge, "555666 9", "555666") == "trio_chain"
    assert kind_of(judge, "555 77 9", "55577") == "trio_with_two"
    assert refused(judge, "555 7 9 Q", "55579") is Reason.NOT_A_COMBINATION
    assert kind_of(judge, "555666777 99 JJ KK", "555666777 99JJKK") == "plane"


def test_bombs_are_four_of_a_kind() -> None:
    judge = J()
    assert kind_of(judge, "7777 9", "7777", "AA") == "bomb"


def test_passing_is_always_allowed() -> None:
    # seed 004: 您可以选择“不出” — even holding a play that beats.
    judge = J()
    state = game(judge, "3s 5 9", "6 44", "7 8 8", "J QQ")
    run(judge, state, "3s", None, None, None)
    assert state.prev is None and state.turn == 0


def test_graded_settlement_as_four_player() -> None:
    p = load_profile(NAME)
    s = settle(p, 0, [0, 13, 10, 7], [True, False, True, True], [0, 0, 0, 0])
    assert [x.multiplier for x in s.seats[1:]] == [4, 3, 2]
    assert s.totals == (13 * 4 + 10 * 3 + 7 * 2, -52, -30, -14)
