"""Perft: legal-move counts from fixed positions in every shipped profile, as python-chess
keeps them per variant (``examples/perft/*.perft``).

``perft(state, d)`` counts the distinct sequences of ``d`` actions (plays and allowed
passes) from a position; a finished deal counts once. Depth 1 is the number of legal
choices; deeper counts exercise the transitions too (trick ends, 报单, first-out, play to
the last). The figures in ``tests/engine/perft/<profile>.perft`` were produced by this engine and
pinned; for classic16 the depth-1 counts are also held against the independent
brute-force oracle of ``tests/rules/test_oracle.py``, so the pins are not merely self-consistent.

Regenerate (only after a deliberate rule change, and say why in the commit)::

    python -m tests.engine.test_perft --write
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pdk.engine import counts as C
from pdk.engine.cards import cards_of, format_cards, mask_of, rank_of
from pdk.engine.combos import Move
from pdk.engine.deal import deal, deal_from_hands, deal_seed
from pdk.engine.position import resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import available_profiles, load_profile

HERE = Path(__file__).parent / "perft"
# The pins go as deep as the count stays under this, which keeps the test quick.
MAX_NODES = 5_000


def perft(state: GameState, depth: int) -> int:
    if depth == 0 or state.over:
        return 1
    moves = state.legal_moves()
    choices: list[Move | None] = [*moves, None] if state.can_pass(moves) else list(moves)
    total = 0
    for move in choices:
        child = state.clone()
        child.step(move)
        total += perft(child, depth - 1)
    return total


@dataclass(frozen=True)
class Case:
    profile: str
    hands: tuple[str, ...]
    counts: tuple[int, ...]  # perft(1), perft(2), …

    def state(self, profile: Profile) -> GameState:
        # Each hand from the cards the earlier ones left: with two packs the first "♠3"
        # written is the first pack's (and it decides the leader), the second the other's.
        left = mask_of(profile.deck_cards)
        hands: list[int] = []
        for text in self.hands:
            hands.append(mask_of(resolve_cards(text, left)) if text else 0)
            left &= ~hands[-1]
        return GameState(profile, deal_from_hands(profile, tuple(hands)))


def read_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        hands_part, _, counts_part = line.partition(";")
        hands = tuple(h.strip() for h in hands_part.split("|"))
        cases.append(Case(path.stem, hands, tuple(int(x) for x in counts_part.split())))
    return cases


def _positions(profile: Profile) -> list[tuple[int, ...]]:
    """Two openings, and two small endgames: each hand cut to its lowest cards, so that the
    lead card (the lowest of its suit) stays with its holder."""
    out: list[tuple[int, ...]] = []
    for k in (1, 2):
        out.append(deal(profile, deal_seed(k, 0)).hands)
    for k, keep in ((3, 6), (4, 8)):
        hands = deal(profile, deal_seed(k, 0)).hands
        out.append(tuple(mask_of(sorted(cards_of(h), key=lambda c: (rank_of(c), c))[:keep]) for h in hands))
    return out


def write_pins() -> None:
    for profile in available_profiles():
        lines = [f"# {profile.name}: hands (one per seat, with suits) ; perft(1) perft(2) …"]
        for hands in _positions(profile):
            texts = tuple(format_cards(cards_of(h), suits=True) for h in hands)
            try:
                # The position the line will say (two packs: copies are written alike).
                state = Case(profile.name, texts, ()).state(profile)
            except ValueError:
                continue  # an endgame cut that leaves no lead card for this profile
            counts = [perft(state, 1)]
            while len(counts) < 8 and (n := perft(state, len(counts) + 1)) <= MAX_NODES:
                counts.append(n)
            text = " | ".join(texts)
            lines.append(f"{text} ; {' '.join(map(str, counts))}")
        (HERE / f"{profile.name}.perft").write_text("\n".join(lines) + "\n", encoding="utf-8")


CASES = [case for path in sorted(HERE.glob("*.perft")) for case in read_cases(path)]


def test_every_shipped_profile_has_perft_positions() -> None:
    assert {p.name for p in available_profiles()} <= {c.profile for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.profile}-{sum(len(h) for h in c.hands)}")
def test_perft_counts(case: Case) -> None:
    state = case.state(load_profile(case.profile))
    assert [perft(state, d) for d in range(1, len(case.counts) + 1)] == list(case.counts)


def test_classic16_depth_one_matches_the_oracle() -> None:
    from tests.rules.test_oracle import oracle

    profile = load_profile("classic16")
    for case in (c for c in CASES if c.profile == "classic16"):
        state = case.state(profile)
        seat = state.turn
        hand = {r: n for r, n in C.items(C.from_mask(state.hands[seat]))}
        plays = oracle(hand, None, False)
        if state.first_card is not None:
            # Where the profile says the first play holds the lead card; the oracle knows none.
            need = C.ONE[rank_of(state.first_card)]
            plays = {counts: r for counts, r in plays.items() if C.contains(counts, need)}
        assert len(state.legal_moves()) == len(plays) == case.counts[0]


if __name__ == "__main__" and "--write" in sys.argv:
    write_pins()
