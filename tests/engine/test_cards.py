"""Card notation: what players type (``334455``, ``T JQKA``, ``10``, ``3s``) and what they read."""

from __future__ import annotations

import pytest

from pdk.engine.cards import (
    Card,
    CardParseError,
    Rank,
    Suit,
    card_id,
    cards_of,
    format_cards,
    format_unicode,
    mask_of,
    parse_specs,
    rank_label,
)
from pdk.engine.position import resolve_cards
from tests.support.positions import Judge


def ranks(text: str) -> str:
    """Parsed ranks written back (``T`` for ten), suits dropped."""
    return "".join("3456789TJQKA2BR"[s.rank] for s in parse_specs(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("334455", "334455"),
        ("3 3 4 4 5 5", "334455"),
        ("T JQKA", "TJQKA"),
        ("10", "T"),
        ("10JQKA", "TJQKA"),
        ("10 10", "TT"),
        ("tjqka", "TJQKA"),
        ("3,4,5", "345"),
        ("  7\t8 ", "78"),
        ("2", "2"),
    ],
)
def test_notation_parses(text: str, expected: str) -> None:
    assert ranks(text) == expected


def test_suits_follow_a_rank() -> None:
    specs = parse_specs("3s 10h Tc Qd 9S")
    assert [(s.rank, s.suit) for s in specs] == [
        (Rank.THREE, Suit.SPADES),
        (Rank.TEN, Suit.HEARTS),
        (Rank.TEN, Suit.CLUBS),
        (Rank.QUEEN, Suit.DIAMONDS),
        (Rank.NINE, Suit.SPADES),
    ]
    assert [s.suit for s in parse_specs("3 4 5")] == [None, None, None]


def test_empty_text_parses_to_nothing_and_resolves_to_an_error(judge: Judge) -> None:
    assert parse_specs("") == []
    assert parse_specs("   ") == []
    with pytest.raises(CardParseError, match="no cards"):
        resolve_cards(" ", judge.deck)


@pytest.mark.parametrize(
    ("text", "bad", "where"),
    [
        ("1", "'1'", "position 1"),
        ("X", "'X'", "position 1"),
        ("3x", "'x'", "position 2"),
        ("33 9z", "'z'", "position 5"),
        ("3-7", "'-'", "position 2"),
        ("3 s", "'s'", "position 3"),
        ("  3x", "'x'", "position 4"),  # positions count leading blanks too
        ("\n33 9z", "'z'", "position 6"),
    ],
)
def test_malformed_strings_name_the_bad_character_and_where(text: str, bad: str, where: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_specs(text)
    message = str(info.value)
    assert bad in message and where in message
    assert "\n" not in message


def test_cards_not_in_the_deck_or_hand_are_refused(judge: Judge) -> None:
    with pytest.raises(CardParseError, match="not available"):
        resolve_cards("2h", judge.deck)  # ♥2 is out of classic16
    with pytest.raises(CardParseError, match="not available"):
        resolve_cards("As", judge.deck)  # ♠A is out
    with pytest.raises(CardParseError, match="not available"):
        resolve_cards("B", judge.deck)  # no jokers
    with pytest.raises(CardParseError, match="not available"):
        resolve_cards("33333", judge.deck)  # four threes only
    with pytest.raises(CardParseError, match="not available"):
        resolve_cards("3s 3s", judge.deck)  # one ♠3
    with pytest.raises(CardParseError, match="not available in the hand"):
        resolve_cards("22", judge.cards_mask("2 3"))


def test_resolve_takes_named_suits_first_and_any_suit_otherwise(judge: Judge) -> None:
    hand = judge.cards_mask("3s 3h 3c")
    cards = resolve_cards("3 3s", hand)
    assert card_id(Rank.THREE, Suit.SPADES) in cards and len(cards) == 2
    assert len(set(resolve_cards("333", hand))) == 3


def test_format_writes_notation_back() -> None:
    cards = [card_id(Rank.TEN, Suit.HEARTS), card_id(Rank.THREE, Suit.SPADES), card_id(Rank.TEN, Suit.CLUBS)]
    assert format_cards(cards) == "3TT"
    assert format_cards(cards, suits=True) == "3sThTc"
    assert [(s.rank, s.suit) for s in parse_specs(format_cards(cards, suits=True))] == [
        (Rank.THREE, Suit.SPADES),
        (Rank.TEN, Suit.HEARTS),
        (Rank.TEN, Suit.CLUBS),
    ]


def test_unicode_output() -> None:
    cards = [card_id(Rank.TEN, Suit.HEARTS), card_id(Rank.THREE, Suit.SPADES), card_id(Rank.TWO, Suit.SPADES)]
    assert format_unicode(cards) == "♠3 ♥10 ♠2"
    assert format_unicode([card_id(Rank.ACE, Suit.DIAMONDS), card_id(Rank.KING, Suit.CLUBS)]) == "♣K ♦A"
    assert format_unicode([card_id(Rank.RED_JOKER, 0), card_id(Rank.BLACK_JOKER, 0)]) == "小王 大王"
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "T"


def test_rank_labels_read_as_players_say_them() -> None:
    assert rank_label(Rank.TEN) == "10"
    assert rank_label(Rank.THREE) == "3"
    assert rank_label(Rank.TWO) == "2"
    assert rank_label(Rank.ACE) == "A"


def test_card_ids_and_masks_round_trip() -> None:
    for cid in (0, 5, 47, 51, 64 + 17):
        card = Card.from_id(cid)
        assert card.id == cid
    ids = [3, 9, 40, 70]
    assert cards_of(mask_of(ids)) == ids
