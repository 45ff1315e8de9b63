"""docs/rules.md, "Combinations": exactly seven kinds, their shapes, and what beats what."""

from __future__ import annotations

import pytest

from pdk.engine import counts as C
from pdk.engine.combos import ComboKind, classify
from pdk.engine.deal import Rng, deal
from pdk.engine.position import Reason
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile
from tests.support.positions import Judge, rank, refused


def kinds(judge: Judge, text: str) -> set[str]:
    """Every reading of a set of cards that is not a whole hand."""
    counts = C.from_cards(judge.cards(text))
    return {r.kind.label for r in classify(judge.profile, counts, whole_hand=False)}


def test_exactly_seven_kinds() -> None:
    """classic16 plays only the seven kinds: every lead and follow met in seeded random
    deals reads as one of them, and each of them is met."""
    profile = load_profile("classic16")
    seen: set[str] = set()
    rng = Rng(7)
    for seed in range(300):
        state = GameState(profile, deal(profile, seed))
        while not state.over:
            moves = state.legal_moves()
            seen.update(m.kind.label for m in moves)
            state.step(moves[rng.below(len(moves))] if moves else None)
    assert seen == {"single", "pair", "pair_chain", "straight", "trio_with_two", "plane", "bomb"}


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("7", "single"),
        ("77", "pair"),
        ("3344", "pair_chain"),
        ("556677", "pair_chain"),
        ("34567", "straight"),
        ("33345", "trio_with_two"),
        ("33344479JK", "plane"),
        ("8888", "bomb"),
    ],
)
def test_each_shape_reads_as_its_kind(judge: Judge, cards: str, kind: str) -> None:
    assert kinds(judge, cards) == {kind}
    pos = judge.pos(cards + "2")  # one more card, so it is never the whole hand
    play = judge.check(pos, cards)
    assert play is not None and play.kind.label == kind


@pytest.mark.parametrize("cards", ["34", "3345", "3355", "3456", "345678TJ", "333345", "3335556", "KKAA2"])
def test_non_combinations_are_refused(judge: Judge, cards: str) -> None:
    assert kinds(judge, cards) == set()
    assert refused(judge, cards + "K", cards) is Reason.NOT_A_COMBINATION


def test_pair_chain_needs_two_pairs(judge: Judge) -> None:
    assert kinds(judge, "33") == {"pair"}
    assert kinds(judge, "3344") == {"pair_chain"}
    assert kinds(judge, "3355") == set()  # pairs must be consecutive
    assert refused(judge, "33552", "3355") is Reason.NOT_A_COMBINATION


def test_straight_needs_five_consecutive_singles(judge: Judge) -> None:
    assert kinds(judge, "3456") == set()
    assert kinds(judge, "34567") == {"straight"}
    assert kinds(judge, "34568") == set()
    assert kinds(judge, "345567") == set()  # a straight is single ranks
    assert refused(judge, "34562", "3456") is Reason.NOT_A_COMBINATION


def test_two_never_chains(judge: Judge) -> None:
    assert kinds(judge, "TJQKA") == {"straight"}
    assert kinds(judge, "JQKA2") == set()
    assert kinds(judge, "3456789TJQKA2") == set()
    assert kinds(judge, "KKAA") == {"pair_chain"}
    assert refused(judge, "JQKA2 5", "JQKA2") is Reason.NOT_A_COMBINATION
    # The trios of a plane chain only 3..A: AAA with KKK is a plane, nothing goes past A.
    assert kinds(judge, "KKKAAA3456") == {"plane"}
    # The generator never offers a chain that holds the 2.
    pos = judge.pos("TJQKA2 55")
    assert all("2" not in cards or len(cards) == 1 for cards in judge.legal_cards(pos) if len(cards) != 5)
    assert "JQKA2" not in judge.legal_cards(pos)


def test_longest_straight_3_to_A(judge: Judge) -> None:
    play = judge.check(judge.pos("3456789TJQKA 2"), "3456789TJQKA")
    assert play is not None
    assert (play.kind, play.units, play.top) == (ComboKind.STRAIGHT, 12, rank("A"))
    assert "3456789TJQKA" in judge.legal_cards(judge.pos("3456789TJQKA 2"))


def test_trio_kickers_need_not_pair(judge: Judge) -> None:
    for cards in ("33345", "33344", "33342", "7773A"):
        assert kinds(judge, cards) == {"trio_with_two"}, cards
    pos = judge.pos("777 3 A 9")
    assert {"3777A", "37779", "7779A"} <= judge.legal_cards(pos)


def test_plane_carries_two_any_cards_per_trio(judge: Judge) -> None:
    assert kinds(judge, "33344479JK") == {"plane"}
    assert kinds(judge, "3334447799") == {"plane"}
    assert kinds(judge, "3334445556789TJ") == {"plane"}
    assert kinds(judge, "33344479") == set()  # short wings only as a last hand
    assert kinds(judge, "33355579JK") == set()  # trios must be consecutive


def test_kickers_never_affect_comparison(judge: Judge) -> None:
    assert judge.check(judge.pos("444 35 K", "333 AK"), "44435") is not None
    assert refused(judge, "333 AK 9", "333AK", "444 56") is Reason.DOES_NOT_BEAT
    pos = judge.pos("444555 3366 9", "333444 2AKQ")
    assert judge.check(pos, "4445553366") is not None


def test_follow_needs_same_kind_and_same_length(judge: Judge) -> None:
    assert refused(judge, "456789 J", "456789", "34567") is Reason.DOES_NOT_BEAT
    assert judge.check(judge.pos("45678 J", "34567"), "45678") is not None
    assert refused(judge, "445566 J", "445566", "3344") is Reason.DOES_NOT_BEAT
    assert refused(judge, "KK J", "KK", "3") is Reason.DOES_NOT_BEAT
    assert refused(judge, "333444 5678 J", "3334445678", "AA") is Reason.DOES_NOT_BEAT
    assert judge.legal_cards(judge.pos("456789 J", "34567")) == {"45678", "56789"}


def test_follow_must_be_higher(judge: Judge) -> None:
    assert refused(judge, "9 Q", "9", "9") is Reason.DOES_NOT_BEAT
    assert refused(judge, "8 Q", "8", "9") is Reason.DOES_NOT_BEAT
    assert refused(judge, "34567 Q", "34567", "34567") is Reason.DOES_NOT_BEAT
    assert judge.check(judge.pos("Q 5", "J"), "Q") is not None


@pytest.mark.parametrize(
    "beat", ["2", "AA", "3456789TJQKA", "KKAA", "QQQ 45", "333444 5678", "TTT JJJ QQQ 456789"]
)
def test_bomb_beats_any_non_bomb(judge: Judge, beat: str) -> None:
    play = judge.check(judge.pos("8888 J", beat), "8888")
    assert play is not None and play.kind is ComboKind.BOMB


def test_bombs_compare_by_rank(judge: Judge) -> None:
    assert judge.check(judge.pos("9999 J", "8888"), "9999") is not None
    assert refused(judge, "7777 J", "7777", "8888") is Reason.DOES_NOT_BEAT
    # Against a bomb only a higher bomb may be played.
    assert judge.legal_cards(judge.pos("7777 9999 2", "8888")) == {"9999"}


def test_no_four_with_two_or_three(judge: Judge) -> None:
    assert kinds(judge, "888834") == set()
    assert kinds(judge, "8888345") == set()
    assert kinds(judge, "88883") == set()


def test_aaa_is_a_trio_not_a_bomb(judge: Judge) -> None:
    assert kinds(judge, "AAA") == set()
    assert kinds(judge, "AAA 34") == {"trio_with_two"}
    pos = judge.pos("AAA 34", "8")
    assert not any(kind == "bomb" for _, kind in judge.legal(pos))
    assert judge.pos("AAA 34", "KKKK").can_pass()
