"""The outside-engine protocol's messages (``pdk.bots.protocol``): the events a deal makes
are the engine's own, said the same from any seat's view, the deal message gives the hand
dealt, and answers are checked against the legal plays."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.bots.protocol import (
    Fault,
    Narrator,
    ProtocolError,
    act_message,
    deal_message,
    parse_answer,
    parse_hello,
)
from pdk.bots.simple import RandomBot
from pdk.engine.cards import cards_of, format_cards
from pdk.engine.deal import bot_seed, deal
from pdk.engine.events import DealOver, Event
from pdk.engine.state import GameState, seen_events
from pdk.variants.registry import load_profile

PROFILES = ["classic16", "classic15", "jokers17", "four-player", "two-player", "draw4"]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(PROFILES), seed=st.integers(0, 2**40))
def test_narrator_says_the_engines_events_as_the_state_has_them(name: str, seed: int) -> None:
    profile = load_profile(name)
    state = GameState(profile, deal(profile, seed))
    bots = [RandomBot(bot_seed(seed, s)) for s in range(profile.players)]
    narrator = Narrator.of(profile)
    places = 0
    said: list[tuple[Event, ...]] = []
    while not state.done:
        seat = state.turn
        events = state.act_move(bots[seat].choose(state.view(seat)))[1]
        said.append(events)
        msgs = narrator.feed(events)
        kinds = [m["type"] for m in msgs]
        # A trick is won exactly when the state starts a new one.
        assert ("trick" in kinds) == (state.trick_start == len(state.history) and not state.done), kinds
        if "play" in kinds:
            assert msgs[0]["left"] == state.sizes[seat]
            assert ("bao_dan" in kinds) == (state.sizes[seat] == 1)
        if "out" in kinds:
            places += 1
            assert msgs[-1]["place"] == places
        assert "last_card" not in kinds  # 报单 has one name on every wire
        if not state.done:  # what the next seat is told, from its view alone, so far
            public = [tuple(e for e in turn if not isinstance(e, DealOver)) for turn in said]
            assert seen_events(state.view(state.turn)) == public
    assert narrator.sizes == list(state.sizes)
    assert Narrator.over(state.winner or 0, state.settlement().totals)["type"] == "deal_over"
    # What a seat may see says the same events (an outside engine gets only its view),
    # all but the settlement, which the table that holds the deal says.
    public = [tuple(e for e in turn if not isinstance(e, DealOver)) for turn in said]
    for seat in range(profile.players):
        assert seen_events(state.view(seat)) == public


def test_deal_message_gives_the_hand_dealt_and_the_profile() -> None:
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, 7))
    for _ in range(5):
        state.step(RandomBot(1).choose(state.view(state.turn)))
    msg = json.loads(deal_message(state.view(1), 7, "d1"))
    assert msg["type"] == "deal" and msg["seat"] == 1 and msg["seed"] == 7
    assert msg["hand"] == format_cards(cards_of(state.deal.hands[1]), suits=True)
    assert msg["profile"]["name"] == "classic16" and msg["profile_name"] == "classic16"
    assert msg["leader"] == state.deal.leader


def test_answers_by_index_notation_or_pass() -> None:
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, 3))
    view = state.view(state.turn)
    legal = view.legal_moves()
    act = json.loads(act_message(view, legal, False, 1, 500))
    assert [e["index"] for e in act["legal"]] == list(range(len(legal)))
    assert act["lead"] is True and act["time_left_ms"] == 500
    assert parse_answer('{"play": 2}', legal, False).move == legal[2]
    by_name = parse_answer(json.dumps({"play": act["legal"][1]["cards"], "debug": "hi"}), legal, False)
    assert by_name.move is not None and by_name.move.counts == legal[1].counts
    assert by_name.debug == "hi"
    with pytest.raises(ProtocolError) as bad:
        parse_answer('{"pass": true}', legal, False)
    assert bad.value.reason is Fault.ILLEGAL_PASS
    assert parse_answer('{"pass": true}', legal, True).move is None
    for line, fault in [
        ('{"play": 999}', Fault.ILLEGAL),
        ('{"play": "2222"}', Fault.ILLEGAL),
        ('{"play": true}', Fault.GARBAGE),
        ("[1, 2]", Fault.GARBAGE),
        ("resign", Fault.GARBAGE),
        ('{"move": 1}', Fault.GARBAGE),
    ]:
        with pytest.raises(ProtocolError) as exc:
            parse_answer(line, legal, True)
        assert exc.value.reason is fault, line


def test_hello_is_checked() -> None:
    hello = parse_hello(
        '{"type":"hello","protocol_version":1,"name":"x","author":"me",'
        '"options":[{"name":"depth","type":"int","default":3}]}'
    )
    assert hello.name == "x" and hello.options[0].default == 3
    for line, fault in [
        ('{"type":"hello","protocol_version":2,"name":"x"}', Fault.VERSION),
        ('{"type":"ready"}', Fault.BAD_HELLO),
        ('{"type":"hello","protocol_version":1}', Fault.BAD_HELLO),
        ("{", Fault.GARBAGE),
    ]:
        with pytest.raises(ProtocolError) as exc:
            parse_hello(line)
        assert exc.value.reason is fault
