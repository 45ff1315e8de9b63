"""The table model: what one seat may see, as every face renders it.

The model is built for every seat at every turn of whole deals in every shipped profile,
and checked against the engine: it never names a card the seat has not seen, its 下家 is
the engine's, its trick is the engine's, its settlement lines add up to the engine's totals.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from pdk.bots import make_bot
from pdk.engine.deal import deal
from pdk.engine.profile import Profile
from pdk.engine.settlement import settle
from pdk.engine.state import GameState
from pdk.text.catalog import MESSAGES
from pdk.variants.registry import available_profiles, load_profile
from pdk.view.table_model import (
    Said,
    TableModel,
    card_name,
    play_model,
    relation,
    settlement_model,
    table_model,
)
from tests.support.positions import Judge, game, run

PROFILES = available_profiles()
CARD = re.compile(r"^(?:[3-9TJQKA2][shcd]|[BR])$")


def card_strings(data: Any, skip: frozenset[str] = frozenset({"counter"})) -> Iterator[str]:
    """Every string in the JSON that is a card in notation with its suit (a joker's letter
    counts), except under ``skip`` (the counter names ranks, not cards)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in skip:
                yield from card_strings(v, skip)
    elif isinstance(data, list):
        for v in data:
            yield from card_strings(v, skip)
    elif isinstance(data, str) and CARD.match(data):
        yield data


def saids(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        if set(data) == {"key", "params"}:
            yield data
        for v in data.values():
            yield from saids(v)
    elif isinstance(data, list):
        for v in data:
            yield from saids(v)


def whole_deal(profile: Profile, seed: int) -> Iterator[tuple[GameState, int]]:
    """Each position of an easy-bot deal, with the seat to move (the state is live)."""
    state = GameState(profile, deal(profile, seed))
    while not state.over:
        yield state, state.turn
        seat = state.turn
        state.step(make_bot("easy", seed + seat).choose(state.view(seat)))
    yield state, -1


def seen_by(state: GameState, seat: int) -> set[str]:
    seen = {card_name(c) for c in range(state.hands[seat].bit_length()) if state.hands[seat] >> c & 1}
    for a in state.history:
        if a.play is not None:
            seen |= {card_name(c) for c in a.play.cards}
    return seen


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_never_a_hidden_card_and_always_the_engine_facts(profile: Profile) -> None:
    for seed in (1, 2):
        for state, turn in whole_deal(profile, seed):
            over = turn < 0
            for seat in range(state.players):
                view = state.view(seat)
                model = table_model(
                    view,
                    None if over else turn,
                    settlement=state.settlement() if over else None,
                    totals=[0] * state.players,
                    hints_for_viewer=seat == turn,
                )
                data = json.loads(json.dumps(model.to_json()))
                allowed = seen_by(state, seat)
                shown = set(card_strings(data))
                assert set(model.hand) <= shown  # the check sees cards where they are
                leaked = shown - allowed
                assert not leaked, f"seat {seat} was shown {leaked}"
                assert sorted(model.hand) == sorted(card_name(c) for c in _cards(state.hands[seat]))
                check_engine_facts(model, state, seat, turn)


def _cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def check_engine_facts(model: TableModel, state: GameState, seat: int, turn: int) -> None:
    view = state.view(seat)
    assert [s.seat for s in model.seats] == [(seat + k) % state.players for k in range(state.players)]
    nxt = [s.seat for s in model.seats if s.relation == "next"]
    if not state.over and any(state.sizes[s] for s in range(state.players) if s != seat):
        assert nxt == [view.next_seat]
    assert [s.cards for s in model.seats] == [state.sizes[s.seat] for s in model.seats]
    if not state.over:  # no two seats share a name (a seat already out is named 头游 …)
        assert len({x.name for x in model.seats}) == len(model.seats)
    assert all(s.bao_dan == (state.sizes[s.seat] == 1) for s in model.seats)
    # The current trick only, in play order, led by its leader.
    assert [a.seat for a in model.trick.actions] == [a.seat for a in view.trick]
    if model.trick.actions:
        assert model.trick.actions[0].play is not None
        assert model.trick.actions[0].seat == model.trick.leader
    if state.over:
        assert model.task.kind == "over" and model.task.winner == state.winner
        # Named by where they sit once it is over (the winner is out; no two 下家).
        assert model.seats[1].name == Said("tm_next") and len({x.name for x in model.seats}) == len(
            model.seats
        )
        assert model.settlement is not None
        engine = state.settlement()
        for row in model.settlement.rows:
            assert row.total == engine.seats[row.seat].total
            assert row.lines[-1] == Said.of("tm_st_total", amount=row.total)
    elif turn == seat:
        assert model.task.kind in ("lead", "beat", "none")
        assert model.task.can_pass == (model.task.pass_refused is None)
        moves = state.legal_moves()
        assert bool(model.hints) == bool(moves) and len(model.hints) <= 5  # issue 37: at most five
        assert all(set(h.cards) <= set(model.hand) for h in model.hints)
    else:
        assert model.task.kind == "wait" and model.task.seat == turn and not model.hints


def test_every_message_key_exists_and_renders_in_both_languages() -> None:
    profile = load_profile("hearts3")
    for state, turn in whole_deal(profile, 3):
        over = turn < 0
        model = table_model(
            state.view(0), None if over else turn, settlement=state.settlement() if over else None
        )
        for said in saids(model.to_json()):
            assert said["key"] in MESSAGES
    said = model.task.message
    assert said.text("en") != said.text("zh")


def test_the_counter_counts_the_profile_deck_less_what_the_seat_has_seen() -> None:
    profile = load_profile("classic16")
    state = GameState(profile, deal(profile, 7))
    model = table_model(state.view(0), state.turn)
    by_rank = {c.rank: c for c in model.counter}
    assert by_rank["2"].total == 1 and by_rank["A"].total == 3 and "B" not in by_rank
    held = {r: sum(1 for c in model.hand if c[0] == r) for r in by_rank}
    assert all(c.unseen == c.total - held[c.rank] for c in model.counter)
    assert sum(c.unseen for c in model.counter) == 32


def test_plays_read_body_first_then_kickers_and_jokers_have_no_suit() -> None:
    hearts = Judge(load_profile("hearts3"))
    plane = hearts.check(hearts.pos("888999345 6"), "888999345")
    assert plane is not None
    shown = play_model(plane)
    assert [c[0] for c in shown.body] == list("888999")
    assert [c[0] for c in shown.kickers] == list("345")
    assert shown.text == "888 999 + 3 4 5" and shown.kind == "plane"
    trio = hearts.check(hearts.pos("5553 6"), "5553")
    assert trio is not None and play_model(trio).text == "555 + 3"
    jokers = Judge(load_profile("jokers17"))
    single = jokers.check(jokers.pos("R 3"), "R")
    assert single is not None and play_model(single).cards == ("R",)


def test_seats_are_named_by_the_engines_next_holding_rule() -> None:
    # Four seats, seat 1 out: seat 0's 下家 is seat 2 (not (0 + 1) % 4), its 上家 seat 3.
    sizes = [5, 0, 4, 6]
    assert [relation(sizes, 0, s) for s in range(4)] == ["you", "out", "next", "prev"]
    # Three seats, seat 2 out: seat 1 is both; it is named the 下家.
    assert relation([3, 4, 0], 0, 1) == "next"
    assert relation([3, 4, 0], 1, 0) == "next"


def test_the_task_says_what_the_seat_must_do(judge: Judge) -> None:
    state = game(judge, "3s 4 5 6 7 9", "8 T", "J Q")
    lead = table_model(state.view(0), state.turn)
    assert lead.task.kind == "lead" and lead.task.pass_refused == Said("leader_cannot_pass")
    assert lead.task.must_contain is None or lead.task.must_contain == "3s"
    run(judge, state, "3s")
    waiting = table_model(state.view(0), state.turn)
    assert waiting.task.kind == "wait" and waiting.task.message.key == "tm_wait"
    follow = table_model(state.view(1), state.turn)
    assert follow.task.kind == "beat" and follow.task.pass_refused is not None
    assert follow.task.pass_refused.key == "must_beat" and not follow.task.can_pass
    assert follow.task.beat is not None and follow.task.beat.play is not None
    assert follow.task.beat.play.cards == ("3s",)
    assert "3" in follow.task.message.text("en") and "下家" not in follow.task.message.text("en")
    run(judge, state, "T", "Q")
    none = table_model(state.view(0), state.turn)
    assert none.task.kind == "none" and none.task.can_pass and not none.hints
    assert none.seat(2).last is not None and none.seat(1).last is not None


def test_settlement_lines_explain_cards_left_shut_out_and_bombs() -> None:
    profile = load_profile("classic16")
    st = settle(profile, 0, [0, 16, 3], [True, False, True], [1, 0, 0])
    model = settlement_model(profile, st, 0, [5, 0, -5])
    you, nxt, prv = model.rows
    assert [r.seat for r in model.rows] == [0, 1, 2] and you.winner and you.session == 5
    assert Said.of("tm_st_collect", amount=you.card_payment) in you.lines
    assert Said.of("tm_st_bombs", n=1, amount=20) in you.lines
    assert Said.of("tm_st_shut_out", x=2) in nxt.lines
    assert Said.of("tm_st_cards", left=16, per=1, x=2, amount=32) in nxt.lines
    assert Said.of("tm_st_bomb_paid", amount=-10) in prv.lines
    assert nxt.lines[-1].text("zh") == f"合计 {nxt.total:+d}"


def test_settlement_lines_say_who_paid_for_whom_under_bao_pei() -> None:
    profile = load_profile("hearts3")
    st = settle(profile, 0, [0, 5, 3], [True, True, True], [0, 0, 0], liable=2)
    rows = {r.seat: r for r in settlement_model(profile, st, 0, None).rows}
    assert rows[2].liable and Said.of("tm_st_liable", amount=8) in rows[2].lines
    assert Said.of("tm_st_paid_by", who=Said("tm_prev")) in rows[1].lines
    assert rows[1].total == 0 and rows[2].total == -8


def test_settlement_lines_for_placement_and_bomb_doubling() -> None:
    profile = load_profile("jokers17-guangdong")
    st = settle(profile, 1, [3, 0, 0], [True, True, True], [0, 0, 0], order=[1, 2, 0], bombs_played=1)
    model = settlement_model(profile, st, 0, None)
    rows = {r.seat: r for r in model.rows}
    assert model.scheme == "placement" and model.lines == (Said.of("tm_st_doubling", x=2),)
    assert rows[1].place == 1 and rows[1].place_name == Said("tm_place_1")
    assert rows[0].place_name == Said("tm_place_last")
    for r in model.rows:
        assert r.lines[0].key == "tm_st_place"
    assert "头游" in rows[1].lines[0].text("zh")
