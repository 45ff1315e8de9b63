"""A straight flush names its suit (``Move.suit``): the same ranks in hearts and in spades
are two moves, each playing exactly its own suit's cards, in the generator, in ``step``,
in records and in a plug-in bot's answer. Nothing is guessed."""

from __future__ import annotations

import json

import pytest

from pdk.bots.checked import AnswerFault, BadAnswer, checked_choice
from pdk.engine import counts as C
from pdk.engine.cards import SUIT_CHARS, format_cards
from pdk.engine.combos import ComboKind, Move
from pdk.engine.deal import deal_from_hands
from pdk.engine.notation import typed_play
from pdk.engine.position import IllegalPlay, Position, Reason
from pdk.engine.record import GameRecord, dumps, loads
from pdk.engine.state import GameState, PlayerView
from pdk.variants.registry import load_profile
from tests.support.positions import Judge, game, with_knobs

NAMES = ["two-deck", "four-player-004"]
SPADES, HEARTS = SUIT_CHARS.index("s"), SUIT_CHARS.index("h")
HAND = "3h4h5h6h7h 3s4s5s6s7s 9c"


def _flush(suit: int, ranks: str = "34567") -> str:
    return "".join(r + SUIT_CHARS[suit] for r in ranks)


def _game(name: str, hand: str = HAND) -> tuple[Judge, GameState]:
    """``hand`` leads; the other seats hold a high card each."""
    judge = Judge(load_profile(name))
    others = ["Kd", "Qd", "Jd"][: judge.profile.players - 1]
    return judge, game(judge, hand, *others, leader=0)


def _flushes(moves: list[Move], ranks: str = "34567") -> list[Move]:
    counts = sum(C.ONE["3456789TJQKA2".index(r)] for r in ranks)
    return [m for m in moves if m.kind is ComboKind.STRAIGHT_FLUSH and m.counts == counts]


@pytest.mark.parametrize("name", NAMES)
def test_both_flushes_are_offered_and_each_plays_its_own_suit(name: str) -> None:
    judge, state = _game(name)
    flushes = _flushes(state.legal_moves())
    assert sorted(m.suit for m in flushes) == [SPADES, HEARTS]
    assert len(set(flushes)) == 2  # two distinct moves, not one guessed twice
    assert _flushes(state.position().legal_moves()) == flushes  # Position agrees with the state
    for move in flushes:
        want = judge.cards(_flush(move.suit))
        assert state.position().play_for(move).cards == want
        child = state.clone()
        action = child.step(move)
        assert action.play is not None and action.play.cards == want
        assert action.play.move == move and child.prev == move
        assert not child.hands[0] & sum(1 << c for c in want)
    plain = [m for m in state.legal_moves() if m.kind is ComboKind.STRAIGHT and m.counts == flushes[0].counts]
    assert len(plain) == 1 and plain[0].suit == -1  # the mixed-suit straight is there too
    assert len({c & 3 for c in state.position().play_for(plain[0]).cards}) > 1


def _full_game(name: str) -> tuple[Judge, GameState]:
    """A whole deal (as records hold them): ``HAND`` filled up with the highest cards left,
    the others dealt the rest in deck order, seat 0 to lead."""
    judge = Judge(load_profile(name))
    profile = judge.profile
    first = judge.cards_mask(HAND)
    rest = [c for c in profile.deck_cards if not first >> c & 1]
    rest.sort(key=lambda c: -(c & 63))
    size = profile.hand_size
    need = size - first.bit_count()
    hands = [first | sum(1 << c for c in rest[:need])]
    rest = rest[need:]
    for _ in range(profile.players - 1):
        hands.append(sum(1 << c for c in rest[:size]))
        rest = rest[size:]
    return judge, GameState(profile, deal_from_hands(profile, tuple(hands), sum(1 << c for c in rest), 0))


@pytest.mark.parametrize("name", NAMES)
def test_a_flush_played_from_a_record_replays_the_same_cards(name: str) -> None:
    _judge, state = _full_game(name)
    hearts = next(m for m in _flushes(state.legal_moves()) if m.suit == HEARTS)
    state.step(hearts)
    for _ in range(3):  # then whatever comes first, to carry the flush into a trick
        moves = state.legal_moves()
        state.step(moves[0] if moves else None)
    record = loads(dumps(GameRecord.of(state, None)))
    again = record.replay()
    played = [format_cards(a.play.cards, suits=True) if a.play else None for a in again.history]
    assert played[0] == format_cards(state.history[0].play.cards, suits=True) == _flush(HEARTS)
    assert played == [format_cards(a.play.cards, suits=True) if a.play else None for a in state.history]
    first = next(iter(GameRecord.of(state).states()))
    first.step(hearts)
    assert first.history[0].play == state.history[0].play


class _Names:
    """A plug-in that answers with the flush of ``suit``, built as its own plain tuple."""

    def __init__(self, suit: int, fields: int = 5) -> None:
        self.suit = suit
        self.fields = fields

    def choose(self, view: PlayerView) -> tuple[int, ...]:
        move = next(m for m in _flushes(view.legal_moves()) if m.suit == self.suit)
        return tuple(move)[: self.fields]


@pytest.mark.parametrize("name", NAMES)
def test_a_plug_ins_flush_is_matched_to_the_suit_it_names(name: str) -> None:
    judge, state = _game(name)
    for suit in (HEARTS, SPADES):
        move = checked_choice(_Names(suit), state.view(0))  # type: ignore[arg-type]
        assert move is not None and type(move) is Move and move.suit == suit
        child = state.clone()
        action = child.step(move)
        assert action.play is not None and action.play.cards == judge.cards(_flush(suit))
    # The old four fields name a flush of either suit here: refused, not guessed.
    with pytest.raises(BadAnswer) as info:
        checked_choice(_Names(HEARTS, fields=4), state.view(0))  # type: ignore[arg-type]
    assert info.value.fault is AnswerFault.ILLEGAL and "straight_flush" in info.value.detail


def test_four_fields_that_name_one_move_still_match() -> None:
    _judge, state = _game("two-deck")
    single = next(m for m in state.legal_moves() if m.kind is ComboKind.SINGLE)

    class Old:
        def choose(self, view: PlayerView) -> tuple[int, int, int, int]:
            return (single.counts, int(single.kind), single.top, single.units)

    assert checked_choice(Old(), state.view(0)) == single  # type: ignore[arg-type]


def test_the_first_play_holds_the_lead_card_so_only_its_suits_flush_goes() -> None:
    profile = with_knobs("two-deck", lead={"card": "3s", "must_contain": True})
    judge = Judge(profile)
    state = game(judge, HAND, "Kd", "Qd")
    assert state.turn == 0
    assert [m.suit for m in _flushes(state.legal_moves())] == [SPADES]
    assert [m.suit for m in _flushes(state.position().legal_moves())] == [SPADES]


@pytest.mark.parametrize("name", NAMES)
def test_ranks_alone_name_no_suit_when_only_flushes_of_two_suits_beat(name: str) -> None:
    judge = Judge(load_profile(name))
    hand = judge.cards_mask("4h5h6h7h8h 4s5s6s7s8s 9c")
    straight = judge.move("34567")
    to_beat = Move(straight.counts, ComboKind.STRAIGHT_FLUSH, straight.top, straight.units, HEARTS)
    pos = Position(judge.profile, hand, to_beat)
    with pytest.raises(IllegalPlay) as info:
        typed_play("45678", pos)
    assert info.value.reason is Reason.WHICH_SUIT
    assert "4h5h6h7h8h" in info.value.message("en") and "4s5s6s7s8s" in info.value.message("zh")
    assert typed_play("4s5s6s7s8s", pos) == judge.cards("4s5s6s7s8s")
    leading = Position(judge.profile, hand)  # a plain straight is legal: ranks alone mean it
    assert len({c & 3 for c in typed_play("45678", leading)}) > 1


@pytest.mark.parametrize("name", NAMES)
def test_an_outside_engine_sees_each_flush_with_its_suit_and_names_it(name: str) -> None:
    from pdk.bots.protocol import ProtocolError, parse_answer, play_entry

    _, state = _game(name)
    legal = state.legal_moves()
    flushes = _flushes(legal)
    entries = [play_entry(i, m) for i, m in enumerate(legal) if m in flushes]
    assert sorted(e["cards"] for e in entries) == sorted(_flush(m.suit) for m in flushes)
    assert all(e["suit"] == SUIT_CHARS[m.suit] for e, m in zip(entries, flushes, strict=True))
    for move in flushes:  # the suit written picks the flush; ranks alone name no one move
        answer = parse_answer(json.dumps({"play": _flush(move.suit)}), legal, can_pass=False)
        assert answer.move == move
    with pytest.raises(ProtocolError):
        parse_answer('{"play": "34567"}', [m for m in legal if m.kind is not ComboKind.STRAIGHT], False)
