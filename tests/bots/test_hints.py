"""Hints a player trusts: cheapest sensible first, each with a reason, never against the
rules (must-beat and 报单 are the generator's, so the list is exactly the legal plays)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots.hints import broken, hint_list, hints, premium
from pdk.engine import counts as C
from pdk.engine.cards import Rank, mask_of
from pdk.engine.state import PlayerView
from pdk.text.catalog import MESSAGES
from pdk.variants.registry import available_profiles, load_profile
from pdk.view.rules_in_words import reason_text
from tests.bots.test_bots import random_position
from tests.support.positions import Judge

CLASSIC = load_profile("classic16")
J = Judge(CLASSIC)


def view_of(hand: str, beat: str | None = None, next_one: bool = False) -> PlayerView:
    """A two-seat-free view for seat 0 holding ``hand`` (notation), following ``beat``."""
    pos = J.pos(hand, beat)
    mask = pos.hand
    sizes = (bin(mask).count("1"), 1 if next_one else 10, 10)
    prev = pos.prev
    return PlayerView(
        profile=CLASSIC,
        seat=0,
        hand=mask,
        hand_sizes=sizes,
        history=(),
        trick=(),
        prev=prev,
        prev_seat=None if prev is None else 2,
        played_any=(True, True, True),
        leader=2 if prev is not None else 0,
        must_contain=None,
    )


def first(view: PlayerView) -> str:
    return hints(view)[0].notation()


def test_follow_keeps_groups_whole_and_beats_lowest() -> None:
    # 777 and 55 stay whole: the lone 8 is the cheapest single that beats a 4.
    v = view_of("3355777 8 9 T Q", "4")
    assert first(v) == "8"
    h = hint_list(v)[0]
    assert h.reason == "hint_why_keeps"
    assert reason_text(h.reason, h.params, "en") == "keeps your pair of 5s whole"
    assert reason_text(h.reason, h.params, "zh") == "不拆你的一对 5"


def test_never_a_two_aces_or_bomb_first_when_cheaper_beats() -> None:
    assert first(view_of("2 AA K 4", "Q")) == "K"
    assert first(view_of("AA 55 4", "44")) == "55"
    assert first(view_of("3333 J 5", "T")) == "J"


def test_premium_first_only_when_nothing_cheaper_beats() -> None:
    v = view_of("2 5 4", "A")
    h = hint_list(v)[0]
    assert h.move.notation() == "2" and h.reason == "hint_why_premium_only"
    assert reason_text(h.reason, h.params, "en") == "only your 2 beats it"


def test_breaking_a_pair_comes_after_whole_plays_and_says_so() -> None:
    # Issue 37: the T beats whole, so "nothing whole beats it" was false of the 9.
    v = view_of("99 T 3", "8")
    got = hint_list(v)
    assert [h.move.notation() for h in got] == ["T", "9"]
    assert reason_text(got[1].reason, got[1].params, "en") == "breaks your pair of 9s"
    only = hint_list(view_of("99 3", "8"))[0]
    assert reason_text(only.reason, only.params, "en") == "breaks your pair of 9s: nothing whole beats it"


def test_a_lead_is_called_lowest_only_when_it_sheds_the_lowest_card() -> None:
    # Issue 37: holding a 3 and 4455, hint 1 (the 99) said "sheds your lowest cards".
    v = view_of("34567 99 K")
    for h in hint_list(v):
        if h.reason == "hint_why_lowest_lead":
            assert "3" in h.move.notation()
    nines = next(h for h in hint_list(v) if h.move.notation() == "99")
    assert reason_text(nines.reason, nines.params, "en") == "leads 99, keeps every group whole"


def test_keeps_whole_is_said_of_the_lowest_whole_play_only() -> None:
    # The 9 beats higher than the 8: it is not what keeps the 5s whole.
    got = {h.move.notation(): h for h in hint_list(view_of("3355777 8 9 T Q", "4"))}
    assert got["8"].reason == "hint_why_keeps"
    assert got["9"].reason == "hint_why_higher"


def test_going_out_is_first() -> None:
    assert first(view_of("KKK44", "99933")) == "44KKK"


def test_lead_keeps_the_straight_whole() -> None:
    order = [m.notation() for m in hints(view_of("34567 99 K"))]
    assert order[0] in ("34567", "99")
    # At most five hints, no single of the straight's ranks before the straight.
    assert order.index("34567") < min(order.index(c) for c in "34567" if c in order)


def test_must_beat_holds() -> None:
    # classic16 is 有牌必压: with a play that beats, no pass is offered, every hint beats.
    v = view_of("5 9 K", "8")
    got = hints(v)
    assert got and {m.notation() for m in got} == {"9", "K"}
    assert not v.position().can_pass(got)


def test_bao_dan_holds() -> None:
    # 下家 on one card: a single must be the highest one; the hint says why.
    v = view_of("4 9 K", "3", next_one=True)
    got = hint_list(v)
    assert [h.move.notation() for h in got] == ["K"]
    assert got[0].reason == "hint_why_bao_dan"
    assert reason_text(got[0].reason, got[0].params, "zh") == "下家报单，单张只能出最大的"


def test_every_reason_is_in_both_languages() -> None:
    for key in [k for k in MESSAGES if k.startswith("hint_why_") or k.startswith("hint_group_")]:
        en, zh = MESSAGES[key]
        assert en and zh and en != zh


PROFILES = available_profiles()


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_first_hint_is_cheapest_sensible(profile: object, seed: int, steps: int) -> None:
    state = random_position(profile, seed, steps)  # type: ignore[arg-type]
    view = state.view(state.turn)
    got = hint_list(view)
    legal = state.position().legal_moves()
    assert {h.move for h in got} <= set(legal) and len(got) <= 5 and bool(got) == bool(legal)
    if not got:
        return
    hand = C.from_mask(view.hand)
    lowest = min(r for r, _ in C.items(hand))
    for h in got:  # every reason true of the hand (issue 37)
        if h.reason == "hint_why_lowest_lead":
            assert C.count(h.move.counts, lowest)
        if h.reason == "hint_why_lowest_beat":
            assert h.move.top == min(m.top for m in legal)
        if h.reason == "hint_why_breaks":
            assert all(premium(m) or broken(m, hand) is not None for m in legal)
    top = got[0].move
    if top.counts == hand:
        return
    if any(not premium(m) for m in legal):
        assert not premium(top)
    whole = [m for m in legal if not premium(m) and broken(m, hand) is None]
    if whole:
        assert broken(top, hand) is None
        if view.prev is not None:
            assert top.top == min(m.top for m in whole)
    for h in got:
        assert reason_text(h.reason, h.params, "en")
        assert reason_text(h.reason, h.params, "zh")


def test_premium_names() -> None:
    assert premium(J.move("2")) and premium(J.move("AA")) and premium(J.move("5555"))
    assert not premium(J.move("A")) and not premium(J.move("KK"))
    assert broken(J.move("5"), C.from_mask(mask_of(J.cards("555")))) == ("trio", Rank.FIVE)


def test_the_table_model_carries_each_hint_with_its_reason() -> None:
    from pdk.view.table_model import table_model

    view = view_of("3355777 8 9 T Q", "4")
    model = table_model(view, 0)
    assert len(model.hints) == len(model.hint_reasons) == len(hints(view)) <= 5
    assert model.hints[0].text == "8"
    assert model.hint_reasons[0].text("en") == "keeps your pair of 5s whole"
    assert model.hint_reasons[0].text("zh") == "不拆你的一对 5"
    assert model.to_json()["hint_reasons"][0]["key"] == "hint_why_keeps"
