"""The replay's settlement tells the truth for every scheme, and its screens fit 40 and 80
columns within 24 rows: the panel and the transcript both say what the table model says."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.console import Console

from pdk.bots import make_bot
from pdk.cli.replay_view import Frame, render_frame, transcript
from pdk.engine.deal import deal
from pdk.engine.record import GameRecord
from pdk.engine.state import GameState
from pdk.text.catalog import Lang, tr
from pdk.variants.registry import load_profile


def record_of(name: str, seed: int, want_bomb: bool = False) -> GameRecord:
    """A finished deal of easy bots (with a scoring bomb if asked: the first seed that has one)."""
    profile = load_profile(name)
    for s in range(seed, seed + 400):
        state = GameState(profile, deal(profile, s))
        bots = [make_bot("easy", k) for k in range(profile.players)]
        while not state.over:
            state.step(bots[state.turn].choose(state.view(state.turn)))
        if not want_bomb or any(state.bomb_bonuses):
            return GameRecord.of(state, seed=s)
    raise AssertionError("no deal with a scoring bomb")


def screen(record: GameRecord, lang: Lang, width: int) -> list[str]:
    console = Console(record=True, width=width, height=24, color_system=None)
    states = list(record.states())
    console.print(render_frame(record, states, Frame("r.json", len(states) - 1, None), lang))
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize("width", [80, 40])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ["classic16", "jokers17", "four-player", "hearts3"])
def test_the_last_screen_fits(name: str, lang: Lang, width: int) -> None:
    lines = screen(record_of(name, 1), lang, width)
    assert all(cell_len(ln) <= width for ln in lines), [ln for ln in lines if cell_len(ln) > width]
    if width == 80:
        assert len(lines) <= 24, len(lines)


def test_jokers17_bombs_are_credits_nobody_pays() -> None:
    rec = record_of("jokers17", 1, want_bomb=True)
    en = "\n".join(transcript(rec, "en"))
    assert "from each player" not in en and "from each other player" not in en
    assert "nobody pays" in en
    assert "1st (头游)" in en or "头游" in en
    zh = "\n".join(transcript(rec, "zh"))
    assert "无人付分" in zh and "头游" in zh and "末游" in zh


def test_classic16_bomb_is_paid_by_each_other_player() -> None:
    rec = record_of("classic16", 1, want_bomb=True)
    assert "stands: 10 from each other player" in "\n".join(transcript(rec, "en"))


def test_four_player_transcript_gives_each_losers_multiplier() -> None:
    rec = record_of("four-player", 1)
    st = rec.settlement
    assert st is not None
    text = "\n".join(transcript(rec, "en"))
    for seat in st.seats:
        if seat.seat != st.winner and not seat.exempt:
            x = seat.multiplier * st.doubling
            key = "tm_st_cards" if x > 1 else "tm_st_card_1x" if seat.cards_left == 1 else "tm_st_cards_1x"
            said = tr(key, "en", left=seat.cards_left, per=1, x=x, amount=seat.cards_left * x)
            assert said in text


def test_plays_read_grouped_with_tens_apart() -> None:
    rec = record_of("classic16", 3)
    text = "\n".join(transcript(rec, "en"))
    assert "1010" not in text and "♠小王" not in text
