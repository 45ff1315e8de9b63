"""What the player types at the pdk play prompt: commands in both languages, plays in notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.cli.play_input import Cmd, parse_command
from pdk.engine.cards import format_cards, rank_of
from pdk.engine.notation import InputError, expand_ranges, resolve_input
from pdk.engine.position import resolve_cards
from pdk.variants.registry import load_profile


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("p", Cmd.PASS),
        ("PASS", Cmd.PASS),
        ("不出", Cmd.PASS),
        ("h", Cmd.HINT),
        ("提示", Cmd.HINT),
        ("c", Cmd.COUNTER),
        ("记牌", Cmd.COUNTER),
        ("?", Cmd.HELP),
        ("q", Cmd.QUIT),
        ("退出", Cmd.QUIT),
        ("a", Cmd.AUTO),
        ("托管", Cmd.AUTO),
        ("  ", Cmd.EMPTY),
        ("334455", Cmd.PLAY),
        ("A", Cmd.PLAY),  # uppercase A and Q are cards
        ("Q", Cmd.PLAY),
        ("qq", Cmd.PLAY),
    ],
)
def test_commands_in_english_and_chinese(text: str, kind: Cmd) -> None:
    assert parse_command(text).kind is kind


def test_a_play_keeps_its_text() -> None:
    assert parse_command(" 3-7 ").text == "3-7"


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("3-7", "34567"),
        ("10-a", "TJQKA"),
        ("33-55", "334455"),
        ("333-444 59", "333444 59"),
        ("T", "T"),
        ("10", "T"),
    ],
)
def test_ranges_expand(text: str, expanded: str) -> None:
    assert expand_ranges(text) == expanded


@pytest.mark.parametrize("text", ["7-3", "3-2", "33-5", "3-", "-"])
def test_bad_ranges_are_refused(text: str) -> None:
    with pytest.raises(InputError) as exc:
        expand_ranges(text)
    assert exc.value.key == "input_bad_range"


def _hand(text: str) -> int:
    deck = sum(1 << c for c in load_profile().deck_cards)
    return sum(1 << c for c in resolve_cards(text, deck))


def test_suits_are_chosen_from_the_hand() -> None:
    hand = _hand("3h3c4s4d5h5c")
    cards = resolve_input("334455", hand)
    assert len(cards) == 6 and all(hand >> c & 1 for c in cards)


def test_a_named_suit_is_honoured() -> None:
    hand = _hand("3h3c")
    assert format_cards(resolve_input("3c", hand), suits=True) == "3c"


def test_cards_not_in_hand_are_named() -> None:
    with pytest.raises(InputError) as exc:
        resolve_input("3-7", _hand("34567"[:4]))
    assert exc.value.key == "not_in_hand"


def test_unreadable_input() -> None:
    with pytest.raises(InputError) as exc:
        resolve_input("xyz", _hand("345"))
    assert exc.value.key == "input_unreadable"


@settings(max_examples=50)
@given(st.integers(0, 11), st.integers(1, 11), st.integers(1, 3))
def test_a_range_means_every_rank_between(lo: int, span: int, width: int) -> None:
    chain = "3456789TJQKA"
    hi = min(lo + span, 11)
    if hi == lo:
        return
    text = chain[lo] * width + "-" + chain[hi] * width
    out = expand_ranges(text)
    assert out == "".join(c * width for c in chain[lo : hi + 1])
    hand = _hand("".join(c * 3 for c in chain))
    ranks = sorted(rank_of(c) for c in resolve_input(text, hand))
    assert ranks == sorted(r for r in range(lo, hi + 1) for _ in range(width))


def test_every_play_message_exists_in_both_languages_with_the_same_fields() -> None:
    import string

    from pdk.text.messages.play import MESSAGES

    def fields(s: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f}

    for key, (en, zh) in MESSAGES.items():
        assert en and zh, key
        # A Chinese line may drop the English gloss of a title ({en}); nothing else.
        assert fields(en) - {"en"} == fields(zh) - {"en"}, key


def test_ranks_alone_make_the_legal_play_a_plain_straight_before_a_flush() -> None:
    # Typed "34567" took the first free suit of each rank: all ♠ in this hand, so the play
    # went out as a straight flush. Ranks alone now mean a plain straight when one is legal,
    # and the flush only when nothing else beats.
    from pdk.engine import counts as C
    from pdk.engine.cards import mask_of
    from pdk.engine.combos import ComboKind
    from pdk.engine.position import Position, is_one_suit

    profile = load_profile("two-deck")
    hand = mask_of(resolve_cards("3s4s5s6s7s8s 4h5h", mask_of(profile.deck_cards)))
    leading = Position(profile, hand)
    plain = leading.cards_for(C.from_cards(resolve_cards("34567", hand)))
    assert plain is not None and not is_one_suit(plain)
    flush = next(m for m in leading.legal_moves() if m.kind == ComboKind.STRAIGHT_FLUSH and m.top == 4)  # 3-7
    after = Position(profile, hand, prev=flush)
    higher = after.cards_for(C.from_cards(resolve_cards("45678", hand)))
    assert higher is not None and is_one_suit(higher)  # only a flush beats a flush
    assert after.cards_for(C.from_cards(resolve_cards("345", hand))) is None
