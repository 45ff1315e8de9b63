"""End to end, in a pseudo-terminal at 80 and 40 columns, in English and 中文: the table
never lies (no "your turn" after the deal, tens spaced, jokers without suits, the current
trick only), and it flows (要不起 auto-pass and its switch, 托管 taken back by typing a,
keys typed ahead never skip the settlement, a bare Enter says why, --new asks).

Easy bots, fixed seeds found with the library the program uses, no delays unless the test
is about a pause.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pexpect
import pytest
from rich.cells import cell_len

from pdk.bots.hints import hints, table_budget
from pdk.table.session import HUMAN, new_session
from pdk.variants.registry import load_profile

pytestmark = pytest.mark.e2e

PROMPTS = {"en": r"play \(\? help\)> ", "zh": r"出牌（\? 帮助）> "}
NEXT = {"en": r"Enter: next deal · q: quit> ", "zh": r"回车：下一局 · q：退出> "}
SIZES = [(80, "en"), (80, "zh"), (40, "en"), (40, "zh")]
TIMEOUT = 60
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(save_dir: Path, *args: str, lang: str = "en", cols: int = 80, delay: str = "0") -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    cmd = ["play", "-d", "easy", "--lang", lang, "--save-dir", str(save_dir), "--delay", delay]
    return pexpect.spawn(
        "pdk", [*cmd, *args], env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(24, cols)
    )


def lines_of(text: str) -> list[str]:
    return [ln for ln in ESC.sub("", text).replace("\r", "").split("\n")]


def auto_pass_seed() -> int:
    """A seed where, playing the first hint each turn, the player meets 要不起 early."""
    profile = load_profile()
    for seed in range(1, 200):
        sess = new_session(profile, "classic16", "easy", seed)
        st = sess.state
        for _ in range(60):
            if st.over:
                break
            if st.turn == HUMAN:
                if st.prev is not None and not st.legal_moves():
                    return seed
                st.step(sess.auto_move())
            else:
                st.step(sess.bot_move())
    raise AssertionError("no seed meets 要不起")


def play_hints_until(child: pexpect.spawn, lang: str, pattern: str) -> str:
    """At each prompt play the first hint (h, Enter) until ``pattern`` shows in a frame."""
    for _ in range(60):
        child.expect(PROMPTS[lang])
        if re.search(pattern, child.before):
            return str(child.before)
        child.sendline("h")
        child.expect(PROMPTS[lang])
        child.sendline("")
    raise AssertionError(f"{pattern!r} never showed")


@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_auto_pass_passes_for_you_and_says_so(tmp_path: Path, cols: int, lang: str) -> None:
    seed = auto_pass_seed()
    child = spawn(tmp_path, "--seed", str(seed), lang=lang, cols=cols)
    said = "Nothing could beat" if lang == "en" else "要不起：压不过"
    play_hints_until(child, lang, said)
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(("cols", "lang"), [(80, "en"), (40, "zh")])
def test_auto_pass_can_be_turned_off(tmp_path: Path, cols: int, lang: str) -> None:
    seed = auto_pass_seed()
    child = spawn(tmp_path, "--seed", str(seed), "--no-auto-pass", lang=lang, cols=cols)
    status = "Nothing beats it: pass" if lang == "en" else "要不起：不出"
    play_hints_until(child, lang, status)
    child.sendline("x")  # the switch: on again
    child.expect("auto-pass on" if lang == "en" else "自动要不起已开启")
    child.expect(PROMPTS[lang])  # keys typed before a prompt are discarded: wait for it
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_bare_enter_says_why(tmp_path: Path, cols: int, lang: str) -> None:
    child = spawn(tmp_path, "--seed", "3", lang=lang, cols=cols)
    child.expect(PROMPTS[lang])
    child.sendline("")
    child.expect(PROMPTS[lang])
    flat = " ".join(lines_of(child.before))
    assert ("Enter alone does nothing" in flat) if lang == "en" else ("直接回车无效" in flat.replace(" ", ""))
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_asks_before_discarding_a_game(tmp_path: Path, lang: str) -> None:
    child = spawn(tmp_path, "--seed", "3", lang=lang)
    child.expect(PROMPTS[lang])
    child.sendline("h")
    child.expect(PROMPTS[lang])
    child.sendline("")
    child.expect(PROMPTS[lang])
    child.sendline("q")
    child.expect(pexpect.EOF)
    saved = (tmp_path / "save.json").read_text()
    child = spawn(tmp_path, "--new", lang=lang)
    child.expect(r"\[y/N\]")
    child.sendline("n")
    child.expect("kept your saved game" if lang == "en" else "已保留存档")
    child.expect(pexpect.EOF)
    assert (tmp_path / "save.json").read_text() == saved
    child = spawn(tmp_path, "--new", "--yes", "--seed", "9", lang=lang)
    child.expect(PROMPTS[lang])
    assert "[y/N]" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert (tmp_path / "save.json").read_text() != saved


@pytest.mark.parametrize(("cols", "lang"), [(80, "en"), (40, "zh")])
def test_typing_a_takes_tuo_guan_back(tmp_path: Path, cols: int, lang: str) -> None:
    child = spawn(tmp_path, "--seed", "3", lang=lang, cols=cols, delay="0.4")
    child.expect(PROMPTS[lang])
    child.sendline("a")
    child.expect("Auto-play on" if lang == "en" else "托管中")
    child.sendline("a")
    child.expect("auto-play off: your turn" if lang == "en" else "托管已取消")
    child.expect(PROMPTS[lang])
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_keys_typed_ahead_never_skip_the_settlement(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "4", delay="0.02")
    child.expect(PROMPTS["en"])
    child.sendline("a")
    child.send("\r\r\r\r")  # buffered Enters while 托管 plays the deal out
    child.expect(NEXT["en"])
    # The buffered keys were discarded: the settlement waits for a fresh answer.
    assert child.expect([PROMPTS["en"], pexpect.TIMEOUT], timeout=2) == 1
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_every_frame_fits_and_the_end_tells_the_truth(tmp_path: Path, cols: int, lang: str) -> None:
    child = spawn(tmp_path, "--seed", "4", lang=lang, cols=cols)
    child.expect(PROMPTS[lang])
    child.sendline("a")
    child.expect(NEXT[lang])
    text = child.before
    shown = lines_of(text)
    # A path stays whole on a line of its own, to be copied; everything else fits.
    wide = [ln for ln in shown if cell_len(ln) > cols and not ln.startswith(str(tmp_path))]
    assert not wide, wide
    assert "1010" not in text and "♠小王" not in text
    end = ESC.sub("", text.split("\x1b[2J")[-1])
    for lie in ("Your turn", "轮到你", "so you must", "必须出", "to play…", "出牌…"):
        assert lie not in end
    assert ("went out first" in end) or ("先出完" in end)
    title = "Settlement, deal 1" if lang == "en" else "第 1 局结算"
    assert title in end
    child.sendline("q")
    child.expect(pexpect.EOF)


def bomb_seed() -> int:
    """A seed whose first deal, with 托管 playing the player's seat, has a bomb that scores."""
    profile = load_profile()
    for seed in range(1, 400):
        sess = new_session(profile, "classic16", "easy", seed)
        st = sess.state
        while not st.over:
            st.step(sess.auto_move() if st.turn == HUMAN else sess.bot_move())
        if any(st.bomb_bonuses):
            return seed
    raise AssertionError("no deal with a scoring bomb")


@pytest.mark.parametrize(("cols", "lang"), [(80, "en"), (40, "zh")])
def test_a_standing_bomb_shows_its_score_on_the_table(tmp_path: Path, cols: int, lang: str) -> None:
    child = spawn(tmp_path, "--seed", str(bomb_seed()), lang=lang, cols=cols, delay="0.01")
    child.expect(PROMPTS[lang])
    child.sendline("a")
    child.expect("bomb stands: 10 from each other player" if lang == "en" else "的炸弹收轮")
    child.expect(NEXT[lang])
    child.sendline("q")
    child.expect(pexpect.EOF)


def late_auto_pass_seed() -> int:
    """A seed whose first deal, playing the first hint each turn, ends after 要不起 passed
    for the player and before the player's next turn: the notice was never shown."""
    profile = load_profile()
    for seed in range(1, 400):
        sess = new_session(profile, "classic16", "easy", seed)
        st = sess.state
        pending = False
        while not st.over:
            if st.turn == HUMAN:
                pending = st.prev is not None and not st.legal_moves()
                shown = hints(st.view(HUMAN), table_budget(sess.difficulty))  # what "h", Enter plays
                st.step(shown[0] if shown else None)
            else:
                st.step(sess.bot_move())
        if pending:
            return seed
    raise AssertionError("no deal ends right after 要不起")


@pytest.mark.parametrize(("cols", "lang"), [(80, "en"), (40, "zh")])
def test_a_new_deal_starts_without_the_last_deals_notices(tmp_path: Path, cols: int, lang: str) -> None:
    child = spawn(tmp_path, "--seed", str(late_auto_pass_seed()), lang=lang, cols=cols)
    for _ in range(60):
        if child.expect([PROMPTS[lang], NEXT[lang]]) == 1:
            break
        child.sendline("h")
        child.expect(PROMPTS[lang])
        child.sendline("")
    else:
        raise AssertionError("the first deal never ended")
    # The notice is shown once, with the settlement...
    settled = " ".join(lines_of(child.before.split("\x1b[2J")[-1])).replace(" ", "")
    assert ("Nothingcouldbeat" in settled) or ("要不起：压不过" in settled)
    child.sendline("")
    child.expect(PROMPTS[lang])
    first_frame = " ".join(lines_of(child.before)).replace(" ", "")  # ...and not again
    for stale in ("Nothingcouldbeat", "要不起：压不过"):
        assert stale not in first_frame
    child.sendline("q")
    child.expect(pexpect.EOF)
