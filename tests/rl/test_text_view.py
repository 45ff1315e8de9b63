"""A seat's view as text and JSON (``pdk.rl.text_view``): what it shows, what it hides,
and the same view rebuilt from the engine protocol's messages."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pdk.bots.protocol import Narrator
from pdk.engine.cards import cards_of, format_cards
from pdk.engine.deal import deal, deal_seed
from pdk.engine.state import GameState
from pdk.rl.text_view import ProtocolSeat, SeatView, answer_for
from pdk.variants.registry import load_profile

ROOT = Path(__file__).resolve().parents[2]


def _played(variant: str, seed: int, turns: int) -> GameState:
    profile = load_profile(variant)
    state = GameState(profile, deal(profile, deal_seed(seed, 0)))
    rng = random.Random(seed)
    for _ in range(turns):
        if state.done:
            break
        moves = state.legal_moves()
        i = rng.randrange(len(moves) + state.can_pass(moves))
        state.step(moves[i] if i < len(moves) else None)
    return state


def test_the_seat_to_move_sees_its_hand_the_counts_the_trick_and_numbered_legal_plays() -> None:
    state = _played("classic16", 3, 7)
    seat = state.turn
    view = SeatView.of(state.view(seat))
    text = view.text()
    own = format_cards(cards_of(state.hands[seat]), suits=True)
    assert view.hand == own
    assert f"Your hand ({state.sizes[seat]} cards)" in text
    for s, n in enumerate(state.sizes):
        assert (f"seat {s} {n}" if s != seat else f"you {n}") in text
    moves = state.legal_moves()
    assert [e["cards"] for e in view.legal] == [m.notation() for m in moves]
    for e in view.legal:
        assert f"  {e['index']}: {e['cards']} ({e['kind']})" in text
    assert view.can_pass == state.can_pass(moves) and ("  pass" in text) == view.can_pass


def test_no_other_hand_appears_in_any_seats_text_or_json() -> None:
    state = _played("classic16", 5, 10)
    for seat in range(3):
        view = SeatView.of(state.view(seat))
        for other in range(3):
            if other != seat:
                hidden = format_cards(cards_of(state.hands[other]), suits=True)
                assert hidden not in view.text() and hidden not in view.json()
        if seat != state.turn:
            assert view.legal == () and f"seat {state.turn} to move" in view.text()


def test_bao_dan_is_said() -> None:
    profile = load_profile("classic16")
    for seed in range(200):
        state = GameState(profile, deal(profile, deal_seed(seed, 0)))
        rng = random.Random(seed)
        while not state.done and 1 not in state.sizes:
            moves = state.legal_moves()
            i = rng.randrange(len(moves) + state.can_pass(moves))
            state.step(moves[i] if i < len(moves) else None)
        if not state.done:
            break
    one = state.sizes.index(1)
    view = SeatView.of(state.view(state.turn))
    assert one in view.bao_dan and view.to_json()["bao_dan"] == list(view.bao_dan)
    assert "报单" in view.text()


def test_json_round_trips_through_json_and_names_the_play_to_beat() -> None:
    state = _played("jokers17", 8, 5)
    view = SeatView.of(state.view(state.turn))
    data = json.loads(view.json())
    assert data["seat"] == state.turn and data["sizes"] == list(state.sizes)
    top = view.to_beat
    if state.prev is None:
        assert data["to_beat"] is None and "You lead" in view.text()
    else:
        assert top is not None and data["to_beat"]["seat"] == state.prev_seat
        assert f"To beat: {top.cards} ({top.kind})" in view.text()


@pytest.mark.parametrize("variant", ["classic16", "four-player-004", "jokers17"])
def test_the_protocol_messages_rebuild_the_same_view(variant: str) -> None:
    """Every turn of a random deal: the view an engine rebuilds from what pdk sends it
    equals the view pdk makes from its own state."""
    from pdk.bots.protocol import act_message, deal_message

    profile = load_profile(variant)
    state = GameState(profile, deal(profile, deal_seed(9, 0)))
    seats = [ProtocolSeat() for _ in range(profile.players)]
    narrator = Narrator.of(profile)
    for s, seat in enumerate(seats):
        seat.feed(json.loads(deal_message(state.view(s), 1, "d")))
    rng = random.Random(9)
    turns = 0
    while not state.done:
        turn = state.turn
        view = state.view(turn)
        moves = view.legal_moves()
        can_pass = view.can_pass(moves)
        seats[turn].feed(json.loads(act_message(view, moves, can_pass, turns + 1, 1000)))
        assert seats[turn].view() == SeatView.of(view)
        i = rng.randrange(len(moves) + can_pass)
        _, events = state.act_move(moves[i] if i < len(moves) else None)
        for msg in narrator.feed(events):
            for seat in seats:
                seat.feed(msg)
        turns += 1
    assert turns > 10


def test_answer_for_reads_an_index_or_pass() -> None:
    state = _played("classic16", 4, 0)  # the lead: something to play, no pass
    view = SeatView.of(state.view(state.turn))
    assert answer_for("I play 0.", view) == {"play": 0}
    assert answer_for('"pass", then 1', view) == {"play": 1}  # a lead cannot pass
    with pytest.raises(ValueError, match="names no legal play"):
        answer_for("I resign", view)


def test_the_text_view_engine_conforms() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pdk",
            "engine",
            "check",
            f"{sys.executable} examples/engines/text_view_bot.py",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "conforms" in out.stdout
