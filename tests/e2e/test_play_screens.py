"""The terminal's screens end to end, in a pseudo-terminal: 要不起 notices never pile up,
a 40×20 screen keeps its header, quitting with --save-dir names the command that finds the
save, the settlement shows every seat's cards and a 全关 column; and the one-shot commands
say things once and plainly (help, pdk moves, pdk replay).
"""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from pdk.bots.hints import hint_list
from pdk.table.session import HUMAN, new_session
from tests.e2e.test_play import PROFILE, PROMPT, spawn
from tests.support.cli import run_pdk

pytestmark = pytest.mark.e2e

CLEAR = "\x1b[2J"  # rich's console.clear(): each frame starts here
SETTLE_PROMPT = r"Enter: next deal · q: quit> "


def frame_of(text: str) -> list[str]:
    """The lines of the last frame drawn in ``text`` (up to the prompt)."""
    last = text.rsplit(CLEAR, 1)[-1]
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", last).split("\r\n")


def two_passes_in_a_row(seed: int) -> int | None:
    """With the first hint played at every prompt: the prompt (counted from 1) before which
    the table passed for the player twice in a row, if it does in the first deal."""
    s = new_session(PROFILE, "classic16", "easy", seed)
    st, streak, prompts = s.state, 0, 0
    while not st.over:
        if st.turn != HUMAN:
            st.step(s.bot_move())
        elif st.prev is not None and not st.legal_moves():
            streak += 1
            if streak == 2:
                return prompts + 1
            st.step(None)
        else:
            streak = 0
            prompts += 1
            st.step(hint_list(st.view(HUMAN))[0].move)
    return None


def test_auto_pass_notices_never_pile_up(tmp_path: Path) -> None:
    seed, at = next((s, p) for s in range(1, 300) if (p := two_passes_in_a_row(s)) is not None)
    child = spawn(tmp_path, "--seed", str(seed))
    for _ in range(at - 1):
        child.expect(PROMPT)
        child.sendline("h")
        child.expect(PROMPT)
        child.sendline("")  # Enter plays the hint on show
    child.expect(PROMPT)
    frame = "\n".join(frame_of(child.before))
    assert frame.count("so you passed") == 1, frame
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("seed", ["3", "8", "11"])
def test_a_40x20_screen_keeps_its_header(tmp_path: Path, seed: str) -> None:
    # The table while playing, then the settlement screen (which once ran to 22-28 lines
    # at 40×20, its title scrolled away): every frame fits the screen, title first.
    child = spawn(tmp_path, "--seed", seed, size=(20, 40))
    child.sendline("c")  # the counter on: two more lines
    for line in ["3456", "h", "", "a"]:  # a refused play, a hint, the hint played, 托管
        if child.expect([PROMPT, SETTLE_PROMPT]) == 1:
            break
        lines = frame_of(child.before)
        assert lines[0].startswith("跑得快") and len(lines) <= 20, "\n".join(lines)
        child.sendline(line)
    child.expect(SETTLE_PROMPT)
    lines = frame_of(child.before)
    assert lines[0].startswith("跑得快"), "\n".join(lines)
    assert len(lines) <= 20, "\n".join(lines)  # the prompt is the last of the 20
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_quit_names_the_command_that_finds_the_save(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "2")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    said = re.sub(r"\s+", " ", child.before)
    assert f"run pdk play --save-dir {tmp_path} to continue" in said


def test_settlement_shows_every_hand_and_a_shut_out_column(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "4")
    child.expect(PROMPT)
    child.sendline("a")  # 托管 plays the deal out
    child.expect(SETTLE_PROMPT)
    screen = child.before
    head = next(line for line in screen.split("\r\n") if "player" in line and "total" in line)
    assert "全关" in head
    rows = re.findall(r"(You|Next player|Previous player)\s*│?\s+(\d+) ", screen)
    left = {who: int(n) for who, n in rows}
    assert len(left) == 3 and sorted(left.values())[0] == 0
    notes = re.sub(r"\s+", " ", screen)
    for who, n in left.items():
        if n:
            cards = re.search(rf"{who}: held ([^;]+);", notes)
            assert cards, notes
            assert len(re.findall(r"(10|[2-9JQKA])", cards.group(1))) == n
            assert f"{n} cards left" in notes or f"{n} card left" in notes
    assert "(multiplier)" not in notes
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_help_names_values_in_words() -> None:
    for args in (["play"], ["serve"], ["selfplay"], ["moves"], ["replay"], ["variants", "show"]):
        out = run_pdk(*args, "--help").stdout
        assert "<str>" not in out and "<bool>" not in out and "<int" not in out, (args, out)
        assert "9223372036854775807" not in out
    assert "SEED" in run_pdk("play", "--help").stdout


def test_moves_counts_and_says_what_may_follow() -> None:
    assert "1 legal play\n" in run_pdk("moves", "--hand", "4", "--beat", "3").stdout
    out = run_pdk("moves", "--hand", "66789", "--beat", "3", "--play", "66")
    assert "66 does not beat 3: a single is followed only by a single (or a bomb)" in out.stdout
    out = run_pdk("moves", "--hand", "66789", "--beat", "3", "--play", "66", "--lang", "zh")
    assert "单张只能用单张来压" in out.stdout
    # A play of the right shape that is too low is only "does not beat".
    assert (
        run_pdk("moves", "--hand", "3", "--beat", "5", "--play", "3")
        .stdout.strip()
        .endswith("3 does not beat 5")
    )


def test_replay_names_seats_as_the_table_did(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "4")
    child.expect(PROMPT)
    child.sendline("a")
    child.expect(SETTLE_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    record = next((tmp_path / "records").glob("*.json"))
    out = run_pdk("replay", str(record), "--print", "--explain").stdout
    assert "seat 0" not in out and "You" in out and "Next player (easy)" in out
    plays = [line for line in out.splitlines() if "would play" in line]
    assert plays and not any(re.search(r"[2-9TJQKA]*T[2-9TJQKA]*\s", p.split("would play")[1]) for p in plays)


def test_two_deck_rules_give_each_chain_its_own_example() -> None:
    out = run_pdk("variants", "show", "two-deck", "--lang", "zh").stdout
    straight = next(line for line in out.splitlines() if "顺子：" in line)
    pairs = next(line for line in out.splitlines() if "连对：" in line)
    assert "A2345" in straight and "AA2233" in pairs and "A2345" not in pairs
    assert "同点炸弹：张数多的大" not in out
