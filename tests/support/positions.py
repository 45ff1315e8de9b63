"""Positions and deals written in the notation players type (``"334455"``), so that a rule
test reads like the rule. Everything goes through the engine's public API: ``resolve_cards``,
``Position``, ``check``, ``GameState``."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pdk.engine import counts as C
from pdk.engine.cards import RANK_CHARS, mask_of
from pdk.engine.combos import Move, classify, move_of, preferred_lead
from pdk.engine.deal import Rng, deal, deal_from_hands
from pdk.engine.position import IllegalPlay, Play, Position, Reason, check, resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile


def deck_mask(profile: Profile) -> int:
    return mask_of(profile.deck_cards)


class Judge:
    """Positions and verdicts for one profile, written in card notation."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.deck = deck_mask(profile)

    def cards(self, text: str, available: int | None = None) -> tuple[int, ...]:
        return resolve_cards(text, self.deck if available is None else available)

    def cards_mask(self, text: str, available: int | None = None) -> int:
        return sum(1 << c for c in self.cards(text, available))

    def move(self, text: str) -> Move:
        """A play to beat, read as a lead would read it (D2); its cards come from the deck."""
        counts = C.from_cards(self.cards(text))
        readings = classify(self.profile, counts, whole_hand=False)
        assert readings, f"{text} is not a combination"
        r = preferred_lead(readings)
        return move_of(counts, r)

    def pos(self, hand: str, beat: str | Move | None = None, next_one: bool = False) -> Position:
        mask = sum(1 << c for c in self.cards(hand))
        prev = self.move(beat) if isinstance(beat, str) else beat
        return Position(self.profile, mask, prev, next_one)

    def check(self, pos: Position, play: str | None) -> Play | None:
        """``check`` on cards named in notation (``None`` is a pass)."""
        cards: Sequence[int] | None = None if play is None else resolve_cards(play, pos.hand)
        return check(pos, cards)

    def legal(self, pos: Position) -> set[tuple[str, str]]:
        """The generated plays as (notation, kind label) pairs."""
        return {(m.notation(), m.kind.label) for m in pos.legal_moves()}

    def legal_cards(self, pos: Position) -> set[str]:
        return {m.notation() for m in pos.legal_moves()}


def game(judge: Judge, *hands: str, leader: int | None = None) -> GameState:
    """A deal of hand-picked hands; cards without a suit take any suit not yet dealt, and
    what nobody holds is set aside."""
    left = judge.deck
    masks = []
    for h in hands:
        masks.append(sum(1 << c for c in judge.cards(h, left)))
        left &= ~masks[-1]
    return GameState(judge.profile, deal_from_hands(judge.profile, tuple(masks), left, leader))


def run(judge: Judge, state: GameState, *plays: str | None) -> None:
    """Play each of ``plays`` (None = pass) for the seat to move, checked."""
    for p in plays:
        state.play(None if p is None else judge.cards(p, state.hands[state.turn]))


def rank(ch: str) -> int:
    """A rank index from its notation character (``"T"`` → 7)."""
    return RANK_CHARS.index(ch)


def refused(
    judge: Judge, hand: str, play: str | None, beat: str | Move | None = None, next_one: bool = False
) -> Reason:
    """The reason ``check`` gives for refusing ``play`` (None = pass); fails if it is legal."""
    with pytest.raises(IllegalPlay) as info:
        judge.check(judge.pos(hand, beat, next_one), play)
    return info.value.reason


def played_mask(state: GameState) -> int:
    """Every card played so far, asserting that none was played twice."""
    mask = 0
    for action in state.history:
        if action.play is not None:
            for c in action.play.cards:
                assert not mask >> c & 1, "a card was played twice"
                mask |= 1 << c
    return mask


def with_knobs(name: str, new_name: str | None = None, **sections: dict[str, object]) -> Profile:
    """A shipped profile with some knobs changed (and optionally renamed), validated like
    a user's YAML."""
    data = load_profile(name).model_dump()
    if new_name is not None:
        data["name"] = new_name
    for section, values in sections.items():
        data[section].update(values)
    return Profile.model_validate(data)


def random_game(profile: Profile, seed: int, stop: int | None = None) -> GameState:
    """Uniform random play (a pass counts as one choice when allowed), to the end or to
    ``stop`` turns; asserts that a seat always has a choice and that the deal ends."""
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed ^ 0x5EED)
    limit = len(profile.deck_cards) * profile.players * 2
    while not state.over and (stop is None or len(state.history) < stop):
        moves = state.legal_moves()
        n = len(moves) + state.can_pass(moves)
        assert n > 0, "a seat to move always has a choice"
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
        assert len(state.history) <= limit, "the deal does not end"
    return state
