"""Line breaking of mixed 中文 and English prose (``pdk.cli.prose``): Chinese breaks between
characters, never before closing or after opening punctuation; words and card groups
stay whole; every line fits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console, Group

from pdk.cli.prose import GLUE, Prose


def lines(text: str, width: int) -> list[str]:
    console = Console(width=width, force_terminal=False, color_system=None)
    with console.capture() as cap:
        console.print(Group(Prose(text)))
    return cap.get().rstrip("\n").split("\n")


def test_a_chinese_sentence_fills_the_line_before_it_breaks() -> None:
    got = lines("压过上家的 QQ（对子）。你有能压过的牌，必须出。", 40)
    # rich alone broke after "的" and moved the whole rest down
    assert got == ["压过上家的 QQ（对子）。你有能压过的牌，", "必须出。"]


def test_closing_punctuation_stays_with_the_character_before_it() -> None:
    got = lines("下家：全关（一张未出）：×2；剩 16 张 × 1 × 2 = 32", 20)
    assert got[0] == "下家：全关（一张未"
    assert not any(line.lstrip().startswith(("）", "：", "，", "。")) for line in got)


def test_opening_punctuation_stays_with_the_character_after_it() -> None:
    got = lines("一二三四五六七八九（对子）", 20)
    assert got == ["一二三四五六七八九", "（对子）"]


def test_words_and_card_groups_stay_whole() -> None:
    got = lines("要不起: nothing beat ♠10, so you passed (x turns this off)", 40)
    assert got == ["要不起: nothing beat ♠10, so you passed", "(x turns this off)"]


def test_a_unit_wider_than_the_line_is_folded() -> None:
    assert lines("x" * 50, 20) == ["x" * 20, "x" * 20, "x" * 10]


units = st.sampled_from(["压", "过", "（", "）", "，", "。", "QQ", "♠10", " ", "nothing", "x" * 25, "\n"])


@given(st.lists(units, max_size=40), st.integers(4, 60))
def test_every_line_fits_and_no_character_is_lost(parts: list[str], width: int) -> None:
    text = "".join(parts)
    got = lines(text, width)
    assert all(cell_len(line) <= width for line in got)
    squeeze = str.maketrans("", "", " \n")
    assert "".join(got).translate(squeeze) == text.translate(squeeze)


def test_a_no_break_space_keeps_what_it_joins_on_one_line() -> None:
    # the table's title: "累计 +0" broke between the word and its number at 40 columns
    got = lines(f"跑得快 · 困难 · 第 12 局 · 累计{GLUE}+10", 26)
    assert got == ["跑得快 · 困难 · 第 12 局 ·", "累计 +10"]
    assert lines(f"x · session{GLUE}+10", 12) == ["x ·", "session +10"]


def test_a_keyed_line_wraps_under_its_description() -> None:
    # `?` help at 40 columns wrapped its descriptions back to the margin
    got = lines("  a, 托管         auto-play on/off (a or Ctrl-C takes back)", 40)
    assert got == ["  a, 托管         auto-play on/off (a or", "                  Ctrl-C takes back)"]
    unindented = lines("plain text  with a gap wraps at the margin as before", 20)
    assert len(unindented) > 1 and not any(line.startswith(" ") for line in unindented)
