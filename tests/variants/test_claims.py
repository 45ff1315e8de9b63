"""``pdk variants show`` says what the engine does: each sentence that makes a checkable
claim is played against the engine on every shipped profile that prints it."""

from __future__ import annotations

import pytest

from pdk.engine import counts as C
from pdk.engine.cards import format_unicode
from pdk.engine.combos import ComboKind, classify
from pdk.engine.deal import deal_from_hands, lead_order
from pdk.engine.profile import Profile
from pdk.variants.registry import available_profiles, load_profile
from pdk.view.rules_in_words import explain
from tests.support.positions import Judge

PROFILES = available_profiles()


def said(p: Profile) -> tuple[str, str]:
    return explain(p, "en"), explain(p, "zh")


def flush_reads_as_straight_flush(p: Profile) -> bool:
    """Does a one-suit straight read as something a plain straight is not?"""
    judge = Judge(p)
    try:
        cards = judge.cards("3h 4h 5h 6h 7h")
    except Exception:
        return False
    readings = classify(p, C.from_cards(cards), whole_hand=False, flush=True)
    return any(r.kind in (ComboKind.STRAIGHT_FLUSH, ComboKind.BOMB) for r in readings)


@pytest.mark.parametrize("p", PROFILES, ids=lambda p: p.name)
def test_suits_sentence(p: Profile) -> None:
    en, zh = said(p)
    if "suits never matter" in en:
        assert not flush_reads_as_straight_flush(p)
        assert "花色不比大小" in zh and "同花顺时" not in zh
    else:
        assert "suits matter only to make a straight flush" in en
        assert flush_reads_as_straight_flush(p)


@pytest.mark.parametrize("p", PROFILES, ids=lambda p: p.name)
def test_trio_with_two_is_named_san_dai_er(p: Profile) -> None:
    _, zh = said(p)
    t = p.combinations.trio
    low = t.kickers if t.min_kickers is None else t.min_kickers
    if t.kickers == 2 and low == 2:
        assert "三带二：三张同点带" in zh
    assert "带 一对" not in zh and "三张同点带 一对" not in zh


@pytest.mark.parametrize("p", PROFILES, ids=lambda p: p.name)
def test_short_last_hand_sentence(p: Profile) -> None:
    en, _ = said(p)
    judge = Judge(p)
    t = p.combinations.trio
    if "trio or plane with fewer kickers; it compares as the full form" in en or (
        "a trio with fewer kickers" in en
    ):
        # 3+1 as the whole hand reads as the full 3+N.
        counts = C.from_cards(judge.cards("555 9"))
        readings = classify(p, counts, whole_hand=True)
        assert any(r.kind is ComboKind.TRIO_WITH_TWO for r in readings), readings
    if "A trio's last hand reads as the 3+N it is" in en:
        counts = C.from_cards(judge.cards("555 9"))
        readings = classify(p, counts, whole_hand=True)
        assert readings and all(r.kind is not ComboKind.TRIO_WITH_TWO for r in readings)
        assert 1 in t.counts


@pytest.mark.parametrize("p", PROFILES, ids=lambda p: p.name)
def test_unbreakable_bombs_and_splittable_jokers(p: Profile) -> None:
    en, _ = said(p)
    judge = Judge(p)
    if "Same-rank bombs" in en and "are unbreakable" in en:
        pos = judge.pos("5555 9")
        assert "5" not in {m.notation() for m in pos.legal_moves()}
    if "the jokers may still be played apart" in en:
        pos = judge.pos("BR 9")
        moves = {m.notation() for m in pos.legal_moves()}
        assert "B" in moves and "R" in moves


@pytest.mark.parametrize("p", PROFILES, ids=lambda p: p.name)
def test_fallback_leader_card_is_named(p: Profile) -> None:
    en, _ = said(p)
    if "is not dealt, the holder of" not in en:
        return
    order = lead_order(p)
    assert f"the holder of {format_unicode(order[1:2])} leads" in en
    # The engine agrees: without the lead card, the holder of the next one leads.
    judge = Judge(p)
    deck = judge.deck & ~(1 << order[0])
    cards = [c for c in range(deck.bit_length()) if deck >> c & 1]
    size = p.hand_size
    hands = [0] * p.players
    hands[1] |= 1 << order[1]
    rest = [c for c in cards if c != order[1]]
    for seat in range(p.players):
        while bin(hands[seat]).count("1") < size and rest:
            hands[seat] |= 1 << rest.pop()
    d = deal_from_hands(p, tuple(hands))
    assert d.leader == 1


@pytest.mark.parametrize("name", ["two-deck", "hearts3", "jokers17", "jokers17-hunan"])
def test_the_sentences_the_issue_named(name: str) -> None:
    en, zh = said(load_profile(name))
    if name == "two-deck":
        assert "suits never matter" not in en
    if name == "hearts3":
        assert "it compares as the full form" not in en.split("plane with fewer than")[0]
    if name in ("jokers17", "two-deck"):
        assert "Bombs are unbreakable" not in en
    if name == "jokers17-hunan":
        assert "the holder of ♠4 leads" in en and "持 ♠4 的人先出" in zh
