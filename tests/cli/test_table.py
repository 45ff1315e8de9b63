"""The pdk play table, rendered from the table model: fits 80x24 and 40 columns in both
languages, 报单 badge, counter, plain text, the current trick only, plays grouped, 10s
never run together, jokers without suits, and a settlement panel per scheme."""

from __future__ import annotations

import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from pdk.bots import make_bot
from pdk.bots.knowledge import unseen_counts as unseen_packed
from pdk.cli.table import (
    Frame,
    group_text,
    hand_plain,
    play_text,
    render_over,
    render_settlement,
    render_table,
    status_of,
    trick_text,
)
from pdk.engine import counts as C
from pdk.engine.cards import Rank, format_cards, rank_of
from pdk.engine.deal import deal, deal_from_hands
from pdk.engine.position import resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.text.catalog import Lang, tr
from pdk.variants.registry import load_profile
from pdk.view.table_model import table_model

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


def played_state(seed: int = 3, plays: int = 7, profile: Profile = PROFILE) -> GameState:
    state = GameState(profile, deal(profile, seed))
    bots = [make_bot("easy", s) for s in range(profile.players)]
    for _ in range(plays):
        state.step(bots[state.turn].choose(state.view(state.turn)))
    return state


def frame(state: GameState, lang: Lang = "en", counter: bool = True, messages: tuple[str, ...] = ()) -> Frame:
    model = table_model(
        state.view(0),
        None if state.over else state.turn,
        settlement=state.settlement() if state.over else None,
        deal_no=12,
        difficulty="normal",
        variant="classic16",
        hints_for_viewer=False,
    )
    return Frame(model, lang, session_total=-123, counter=counter, messages=messages)


def names(text: str) -> tuple[str, ...]:
    """Card names as the model writes them, from notation with suits (``3s Th B``)."""
    return tuple(text.split())


def finished(profile: Profile, seed: int) -> GameState:
    state = GameState(profile, deal(profile, seed))
    bots = [make_bot("easy", s) for s in range(profile.players)]
    while not state.over:
        state.step(bots[state.turn].choose(state.view(state.turn)))
    return state


def test_fits_80x24_and_40_columns_in_both_languages() -> None:
    state = played_state()
    for lang in ("en", "zh"):
        tv = frame(state, lang, messages=("refused: 45 is not a combination",))
        for width in (80, 40):
            text = render(render_table(tv, width), width)
            lines = text.rstrip("\n").split("\n")
            assert all(cells(ln) <= width for ln in lines), (width, lines)
            assert len(lines) + 1 <= 24, (width, lang, len(lines))


def test_the_hand_is_sorted_and_grouped_by_rank() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    cards = sorted(resolve_cards("2 3 Q 3 T 5 T T", deck), key=lambda c: (rank_of(c), c & 3))
    shown = tuple(format_cards([c], suits=True) for c in cards)
    assert hand_plain(shown, 40) == "33  5  10 10 10  Q  2"
    wide = hand_plain(shown, 80)
    assert re.fullmatch(r"♠3♥3  ♠5  ♠10♥10♣10  ♠Q  ♠2", wide)


def test_tens_never_run_together_and_jokers_have_no_suit() -> None:
    assert hand_plain(names("Ts Th Tc Td"), 40) == "10 10 10 10"
    assert hand_plain(names("9s 9h Ts Th Js Jh"), 40) == "99  10 10  JJ"
    assert hand_plain(names("4s 7s Ts Th Tc"), 40) == "4  7  10 10 10"
    for width in (40, 80):
        text = hand_plain(names("B R"), width)
        assert "小王" in text and "大王" in text and "♠" not in text


def test_bao_dan_badge_on_a_one_card_seat() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("345", "9", "KK"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    tv = Frame(table_model(state.view(0), 0), "zh")
    seats = {s.seat: s for s in tv.model.seats}
    assert seats[1].bao_dan and not seats[2].bao_dan and not seats[0].bao_dan
    text = render(render_table(tv, 80), 80)
    next_line = next(ln for ln in text.splitlines() if "下家" in ln)
    assert "报单" in next_line and "1 张" in next_line
    assert "报单" not in next(ln for ln in text.splitlines() if "上家" in ln)
    english = render(render_table(Frame(table_model(state.view(0), 0), "en"), 80), 80)
    assert "LAST" in next(ln for ln in english.splitlines() if "Next" in ln) and "下家" not in english


def test_status_says_when_passing_is_locked() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("3TK2", "456", "8889"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    state.play(resolve_cards("3", hands[0]))
    state.play(resolve_cards("4", hands[1]))
    state.play(resolve_cards("9", hands[2]))
    tv = Frame(table_model(state.view(0), 0), "en")
    prev = tr("tm_prev", "en")
    assert f"Beat {prev}'s 9 (single)" in status_of(tv) and "so you must" in status_of(tv)


def test_plain_text_has_no_escape_codes_and_colour_has() -> None:
    tv = frame(played_state())
    assert "\x1b[" not in render(render_table(tv, 80), 80)
    assert "\x1b[" in render(render_table(tv, 80), 80, color=True)


def test_counter_line_matches_the_unseen_counts() -> None:
    state = played_state()
    tv = frame(state)
    unseen = unseen_packed(state.view(0))
    threes = C.count(unseen, 0)
    tv_off = frame(state, counter=False)
    assert "Card counter" not in render(render_table(tv_off, 80), 80)
    assert f"Card counter (unseen): 3×{threes} " in render(render_table(tv, 80), 80)  # rank, then count


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_unseen_cards_are_exactly_the_other_hands(seed: int, plays: int) -> None:
    state = GameState(PROFILE, deal(PROFILE, seed))
    bots = [make_bot("random", seed + s) for s in range(3)]
    for _ in range(plays):
        if state.over:
            break
        state.step(bots[state.turn].choose(state.view(state.turn)))
    shown = {c.rank: c.unseen for c in table_model(state.view(0), state.turn).counter}
    others = C.from_mask(state.hands[1] | state.hands[2] | state.deal.set_aside)
    assert shown == {
        c.rank: C.count(others, "3456789TJQKA2BR".index(c.rank)) for c in frame(state).model.counter
    }


def test_status_warns_of_bao_dan_and_names_the_highest_single() -> None:
    # docs/rules.md's example: the previous play is 9; you hold 10, K, ♠2; your 下家 holds one card.
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("TK2", "5", "3s9"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    assert state.turn == 2
    state.play(resolve_cards("9", hands[2]))
    view = state.view(0)
    tv = Frame(table_model(view, 0), "zh")
    assert "下家报单" in status_of(tv) and "最大的 2" in status_of(tv)
    assert "必须出" in status_of(tv)


def test_the_trick_line_shows_the_current_trick_only_leader_first() -> None:
    # four-player: after a trick ends, its passes never appear in the next one's line.
    profile = load_profile("four-player")
    state = GameState(profile, deal(profile, 5))
    bots = [make_bot("easy", s) for s in range(4)]
    checked = 0
    while not state.over and checked < 40:
        state.step(bots[state.turn].choose(state.view(state.turn)))
        model = table_model(state.view(0), None if state.over else state.turn)
        line = trick_text(model, "en", 80).plain
        actions = model.trick.actions
        assert line.count(" · ") == max(0, len(actions) - 1), line
        if actions:
            assert actions[0].seat == model.trick.leader and actions[0].play is not None
            assert line.startswith("This trick: ▸")
        checked += 1


def test_plays_read_body_then_kickers() -> None:
    profile = load_profile("hearts3")
    from pdk.engine.combos import ComboKind
    from pdk.engine.position import Play
    from pdk.view.table_model import play_model

    deck = sum(1 << c for c in profile.deck_cards)
    cards = resolve_cards("888999345", deck)
    shown = play_model(Play(tuple(cards), ComboKind.PLANE, 6, 2))
    assert play_text(shown, 40).plain == "888 999 + 3 4 5"
    assert shown.text == "888 999 + 3 4 5"


def test_after_the_deal_no_your_turn_line() -> None:
    state = finished(PROFILE, 4)
    for lang in ("en", "zh"):
        text = render(render_over(frame(state, lang), 80), 80)
        assert "Your turn" not in text and "轮到你" not in text and "Beat" not in text
        assert ("went out first" in text) or ("先出完" in text)


def panel(profile: Profile, st_: object, lang: Lang, width: int) -> str:
    from pdk.view.table_model import settlement_model

    sm = settlement_model(profile, st_, 0, [0] * profile.players)  # type: ignore[arg-type]
    return render(render_settlement(sm, "Settlement", lang, width), width)


def test_placement_panel_shows_places_and_no_shut_out_column() -> None:
    profile = load_profile("jokers17")
    state = finished(profile, 2)
    for lang in ("en", "zh"):
        for width in (80, 40):
            text = panel(profile, state.settlement(), lang, width)
            assert "全关" not in text
            assert all(cells(ln) <= width for ln in text.splitlines())
            assert ("头游" in text) and ("末游" in text)


def test_graded_panel_shows_the_multiplier_per_loser() -> None:
    from tests.view.test_table_model import settle

    profile = load_profile("four-player")
    st_ = settle(profile, 0, [0, 13, 10, 5], [True, False, True, True], [0, 0, 0, 0])
    for width in (80, 40):
        text = panel(profile, st_, "en", width)
        assert "×4" in text and "×1" in text
        assert all(cells(ln) <= width for ln in text.splitlines())


def test_bao_pei_panel_says_who_paid_for_whom() -> None:
    from tests.view.test_table_model import settle

    profile = load_profile("hearts3")
    st_ = settle(profile, 0, [0, 5, 3], [True, True, True], [0, 0, 0], liable=2)
    english = " ".join(panel(profile, st_, "en", 80).split())
    assert tr("tm_st_paid_by", "en", who=tr("tm_prev", "en")) in english
    assert "由上家包赔" in "".join(panel(profile, st_, "zh", 40).split())


def test_one_card_is_singular() -> None:
    deck = sum(1 << c for c in PROFILE.deck_cards)
    hands = tuple(sum(1 << c for c in resolve_cards(t, deck)) for t in ("345", "9", "KK"))
    state = GameState(PROFILE, deal_from_hands(PROFILE, hands))
    text = render(render_table(Frame(table_model(state.view(0), 0), "en"), 80), 80)
    assert "1 card " in text + " " and "1 cards" not in text


def test_group_text_is_the_one_card_renderer() -> None:
    assert group_text(names("3s 3h 5c"), 80).plain == "♠3♥3  ♣5"


def game_of(hands: tuple[str, ...], leader: int) -> GameState:
    """A classic16 deal of these hands (each from the cards the earlier ones left)."""
    left, masks = sum(1 << c for c in PROFILE.deck_cards), []
    for text in hands:
        masks.append(sum(1 << c for c in resolve_cards(text, left)))
        left &= ~masks[-1]
    return GameState(PROFILE, deal_from_hands(PROFILE, tuple(masks), leader=leader))


def test_nothing_beats_under_bao_dan_says_only_pass() -> None:
    # It read "上家出了 2（单张）。要不起：不出。 下家报单：出单张必须出你最大的 5。": pass, and
    # in the same line "you must play your 5".
    state = game_of(("45", "9", "2K"), leader=2)
    state.step(next(m for m in state.legal_moves() if m.top == Rank.TWO))  # 上家 leads its 2
    for lang in ("zh", "en"):
        frame = Frame(table_model(state.view(0), 0), lang)
        assert frame.model.task.kind == "none" and frame.model.task.bao_dan_high is not None
        status = status_of(frame)
        assert tr("status_bao_dan", lang, high=frame.model.task.bao_dan_high) not in status


def test_a_new_trick_says_who_took_the_last_one() -> None:
    state = game_of(("2 45", "9 J", "8 Q"), leader=0)
    first = Frame(table_model(state.view(0), 0), "en")
    assert "took the last" not in trick_text(first.model, "en", 80).plain  # nothing taken yet
    state.step(next(m for m in state.legal_moves() if m.top == Rank.TWO))
    state.step(None)
    state.step(None)  # nobody beats the 2: seat 0 leads again
    said = {"en": "new trick (You took the last one with 2)", "zh": "新一轮（你出 2 收了上一轮）"}
    for lang in ("en", "zh"):
        assert said[lang] in trick_text(table_model(state.view(0), 0), lang, 80).plain
