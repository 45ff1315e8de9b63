"""The generator against an independent, brute-force reading of docs/rules.md (classic16).

``oracle`` enumerates every sub-multiset of a hand and judges it from the rules text alone —
the seven shapes, chains over 3..A only, short last hands, unbreakable bombs, same kind and
length and higher (or a bomb), 报单's highest single (D1), the D2 reading — sharing no code
with ``pdk.engine.combos``/``pdk.engine.movegen``/``pdk.engine.position``.
The engine's legal plays, readings and
pass verdict must match it on hands drawn by hypothesis, biased towards trios and planes.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdk.engine import counts as C
from pdk.engine.position import Position
from pdk.variants.registry import load_profile

PROFILE = load_profile()
SINGLE, PAIR, PAIR_CHAIN, STRAIGHT, TRIO, PLANE, BOMB = range(7)
CHAIN_TOP = 11  # chains use ranks 3..A (indexes 0..11); 2 (index 12) never chains
Reading = tuple[int, int, int]  # kind, top rank, units (chain length or trio count)

BY_RANK: dict[int, list[int]] = {}
for _cid in PROFILE.deck_cards:
    BY_RANK.setdefault((_cid & 63) >> 2, []).append(_cid)


def readings(play: dict[int, int], whole_hand: bool) -> list[Reading]:
    n = sum(play.values())
    ranks = sorted(play)
    out: list[Reading] = []
    if len(ranks) == 1:
        shape = {1: SINGLE, 2: PAIR, 4: BOMB}.get(n)
        if shape is not None:
            out.append((shape, ranks[0], 1))
    run = ranks == list(range(ranks[0], ranks[0] + len(ranks))) and ranks[-1] <= CHAIN_TOP
    if run and len(ranks) >= 2 and all(play[r] == 2 for r in ranks):
        out.append((PAIR_CHAIN, ranks[-1], len(ranks)))
    if run and len(ranks) >= 5 and all(play[r] == 1 for r in ranks):
        out.append((STRAIGHT, ranks[-1], len(ranks)))
    for t in ranks:
        if play[t] >= 3 and (n - 3 == 2 or (whole_hand and n - 3 < 2)):
            out.append((TRIO, t, 1))
    for start in range(CHAIN_TOP + 1):
        length = 0
        while start + length <= CHAIN_TOP and play.get(start + length, 0) >= 3:
            length += 1
            wings = n - 3 * length
            if length >= 2 and (wings == 2 * length or (whole_hand and 0 <= wings < 2 * length)):
                out.append((PLANE, start + length - 1, length))
    return out


def trios(x: Reading) -> int:
    return x[2] if x[0] == PLANE else int(x[0] == TRIO)


def beats(a: Reading, b: Reading) -> bool:
    if a[0] == BOMB:
        return b[0] != BOMB or a[1] > b[1]
    return a[0] == b[0] and a[2] == b[2] and a[1] > b[1]


def oracle(hand: dict[int, int], prev: Reading | None, next_one: bool) -> dict[int, list[Reading]]:
    """Rank counts of every legal play -> the readings it may be played as."""
    bombs = {r for r, k in hand.items() if k == 4}
    highest_single = max((r for r in hand if r not in bombs), default=-1)
    ranks = sorted(hand)
    size = sum(hand.values())
    legal: dict[int, list[Reading]] = {}
    for takes in product(*[range(hand[r] + 1) for r in ranks]):
        play = {r: t for r, t in zip(ranks, takes, strict=True) if t}
        if not play:
            continue
        if any(r in bombs for r in play) and not (len(play) == 1 and play[next(iter(play))] == 4):
            continue  # 炸弹不能拆: a held bomb's cards go out only as that bomb
        rds = readings(play, sum(play.values()) == size)
        if any(r in bombs for r in play):
            rds = [x for x in rds if x[0] == BOMB]  # not "777+7" as a last hand: it is the bomb
        if prev is not None:
            rds = [x for x in rds if beats(x, prev)]
        if rds and rds[0][0] == SINGLE and next_one and rds[0][1] != highest_single:
            continue  # 报单: a single must be the highest one the player may play
        if rds:
            legal[sum(t << (5 * r) for r, t in play.items())] = rds
    return legal


@st.composite
def hands(draw: st.DrawFn, max_size: int = 11) -> dict[int, int]:
    size = draw(st.integers(1, max_size))
    hand: dict[int, int] = {}
    while sum(hand.values()) < size:
        r = draw(st.integers(0, 12))
        room = len(BY_RANK[r]) - hand.get(r, 0)
        if room:
            take = min(room, draw(st.sampled_from([1, 2, 3, 3, 3, 4])), size - sum(hand.values()))
            hand[r] = hand.get(r, 0) + take
    return hand


def mask_of_hand(hand: dict[int, int]) -> int:
    return sum(1 << c for r, k in hand.items() for c in BY_RANK[r][:k])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hands(), hands(max_size=16), st.integers(0, 10**6), st.booleans(), st.booleans())
def test_generator_matches_an_independent_reading_of_the_rules(
    hand: dict[int, int], other: dict[int, int], pick: int, lead: bool, next_one: bool
) -> None:
    prev = None
    if not lead:
        # The play to beat: one the other hand could lead, or one from this very hand (so
        # that beating plays are common).
        source = other if pick % 2 else hand
        options = Position(PROFILE, mask_of_hand(source)).legal_moves()
        prev = options[pick % len(options)]
    pos = Position(PROFILE, mask_of_hand(hand), prev, next_one)
    prev_reading = None if prev is None else (prev.kind, prev.top, prev.units)
    want = oracle(hand, prev_reading, next_one)
    got = {m.counts: (m.kind, m.top, m.units) for m in pos.legal_moves()}
    missing = [C.ranks_list(k) for k in want.keys() - got.keys()]
    extra = [C.ranks_list(k) for k in got.keys() - want.keys()]
    assert not missing and not extra, (missing, extra)
    for counts, reading in got.items():
        assert reading in want[counts]
        if prev is None:  # D2: most trios, then the highest top
            assert reading == max(want[counts], key=lambda x: (trios(x), x[1]))
    assert pos.can_pass() == (prev is not None and not want)
