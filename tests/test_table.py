"""The pdk play table, rendered to text: fits 80x24 and 40 columns, 报单 badge, counter, plain text."""

from __future__ import annotations

import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from pdk.app.registry import load_profile
from pdk.bots import make_bot
from pdk.cli.table import (
    hand_plain,
    render_settlement,
    render_table,
    settlement_rows,
    table_view,
    unseen_counts,
)
from pdk.engine import counts as C
from pdk.engine.cards import rank_of
from pdk.engine.deal import deal, deal_from_hands
from pdk.engine.rules import resolve_cards
from pdk.engine.state import GameState
from pdk.text.catalog import Lang

PROFILE = load_profile()


def render(obj: object, width: int, color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        highlight=False,
    )
    console.print(obj)
    return buf.getvalue()


def cells(line: str) -> int:
    from rich.cells import cell_len

    return cell_len(line)


def played_state(seed: int = 3, plays: int = 7) -> GameState:
    state = GameState(PROFILE, deal(PROFILE, seed))
    bots = [make_bot("easy", s) for s in range(3)]
    for _ in range(plays):
        state.step(bots[state.turn].choose(state.view(state.turn)))
    return state


def frame(
    state: GameState, lang: Lang = "en", counter: bool = True, messages: tuple[str, ...] = ()
) -> object:
    tv = table_view(
        state.view(0),
        turn=state.turn,
        variant="classic16",
        difficulty="normal",
        deal_no=12,
        session_total=-123,
        lang=lang,
        counter=counter,
        messages=messages,
    )
    return tv


def test_fits_80x24_and_40_columns_in_both_languages() -> None:
    state = played_state()
    for lang in ("en", "zh"):
        tv = frame(state, lang, messages=("refused: 45 is not a combination",))
        for width in (80, 40):
            text = render(render_table(tv, width), width)  # type: ignore[arg-type]
            lines = text.rstrip("\n").split("\n")
            assert all(cells(ln) <= width for ln in lines), (width, lines)
            assert len(lines) + 1 <= 24, (width, lang, len(lines))


def test_the_hand_is_sorted_and_grouped_by_rank() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    cards = sorted(resolve_cards("2 3 Q 3 T 5 T T", deck), key=lambda c: -c)
    ordered = sorted(cards, key=lambda c: (rank_of(c), c & 3))
    assert hand_plain(ordered, 40) == "33  5  10 10 10  Q  2"
    wide = hand_plain(ordered, 80)
    assert re.fullmatch(r"♠3♥3  ♠5  ♠10♥10♣10  ♠Q  ♠2", wide)


def test_bao_dan_badge_on_a_one_card_seat() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("345", "9", "KK"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    tv = table_view(
        state.view(0), turn=0, variant="v", difficulty="easy", deal_no=1, session_total=0, lang="zh"
    )
    seats = {s.seat: s for s in tv.seats}
    assert seats[1].bao_dan and not seats[2].bao_dan and not seats[0].bao_dan
    text = render(render_table(tv, 80), 80)
    next_line = next(ln for ln in text.splitlines() if "下家" in ln)
    assert "报单" in next_line and "1 张" in next_line
    assert "报单" not in next(ln for ln in text.splitlines() if "上家" in ln)


def test_status_says_when_passing_is_locked() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("3TK2", "456", "8889"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    state.play(resolve_cards("3", hands[0]))
    state.play(resolve_cards("4", hands[1]))
    state.play(resolve_cards("9", hands[2]))
    tv = table_view(
        state.view(0), turn=0, variant="v", difficulty="easy", deal_no=1, session_total=0, lang="en"
    )
    assert "beat Prev's 9 (single)" in tv.status and "no passing" in tv.status


def test_plain_text_has_no_escape_codes_and_colour_has() -> None:
    tv = frame(played_state())
    assert "\x1b[" not in render(render_table(tv, 80), 80)  # type: ignore[arg-type]
    assert "\x1b[" in render(render_table(tv, 80), 80, color=True)  # type: ignore[arg-type]


def test_counter_line_matches_the_unseen_counts() -> None:
    state = played_state()
    tv = frame(state)
    unseen = unseen_counts(state.view(0))
    assert tv.counter is not None  # type: ignore[attr-defined]
    assert dict(tv.counter)["3"] == unseen[0]  # type: ignore[attr-defined]
    tv_off = frame(state, counter=False)
    assert "Card counter" not in render(render_table(tv_off, 80), 80)  # type: ignore[arg-type]
    assert "Card counter (unseen): 3:" in render(render_table(tv, 80), 80)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_unseen_cards_are_exactly_the_other_hands(seed: int, plays: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    bots = [make_bot("random", seed + s) for s in range(3)]
    for _ in range(plays):
        if state.over:
            break
        state.step(bots[state.turn].choose(state.view(state.turn)))
    unseen = unseen_counts(state.view(0))
    others = C.from_mask(state.hands[1] | state.hands[2] | state.deal.set_aside)
    assert unseen == [C.count(others, r) for r in range(len(unseen))]


def test_settlement_panel_fits_and_lists_every_column() -> None:
    state = played_state(5, 0)
    bot = make_bot("easy", 0)
    while not state.over:
        state.step(bot.choose(state.view(state.turn)))
    st_ = state.settlement()
    for lang in ("en", "zh"):
        rows = settlement_rows(st_, 0, [t * 3 for t in st_.totals], lang)
        assert sum(r.total for r in rows) == 0
        for width in (80, 40):
            text = render(render_settlement(rows, 4, lang, width), width)
            lines = text.rstrip("\n").split("\n")
            assert all(cells(ln) <= width for ln in lines)
            assert "全关" in text
        winner = next(r for r in rows if r.winner)
        assert winner.cards_left == 0


def test_status_warns_of_bao_dan_and_names_the_highest_single() -> None:
    # RULES.md's example: the previous play is 9; you hold 10, K, ♠2; your 下家 holds one card.
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("TK2", "5", "3s9"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    assert state.turn == 2
    state.play(resolve_cards("9", hands[2]))
    view = state.view(0)
    tv = table_view(view, turn=0, variant="v", difficulty="easy", deal_no=1, session_total=0, lang="zh")
    assert "下家报单" in tv.status and "最大的 2" in tv.status
    assert "不能不出" in tv.status
