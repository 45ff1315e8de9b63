"""The replay's pure parts: screens, transcript, card counter, navigation, key decoding."""

from __future__ import annotations

import pytest
from rich.console import Console

from pdk.cli.replay import Key, Replayer, decode_key
from pdk.cli.replay_view import Frame, counter, explain, render_frame, transcript
from pdk.engine.record import GameRecord
from pdk.records.disk import load
from pdk.text.catalog import Lang
from tests.support import ROOT

SAMPLES = ROOT / "replays"
NAMES = ["shut_out.json", "bomb_war.json", "bao_dan_endgame.json"]


def sample(name: str) -> GameRecord:
    return load(SAMPLES / name)


def screen(record: GameRecord, frame: Frame, lang: Lang = "en") -> str:
    console = Console(record=True, width=110, color_system=None)
    states = list(record.states())
    console.print(render_frame(record, states, frame, lang))
    return console.export_text()


@pytest.mark.parametrize("name", NAMES)
def test_every_step_renders(name: str) -> None:
    rec = sample(name)
    states = list(rec.states())
    for step, state in enumerate(states):
        text = screen(rec, Frame(name, step, None))
        assert f"play {step}/{len(rec.actions)}" in text
        if any(size == 1 for size in state.sizes) and not state.over:
            assert "报单" in text
    final = screen(rec, Frame(name, len(states) - 1, None))
    st = rec.replay().settlement()
    assert "Settlement" in final
    for total in st.totals:
        assert f"{total:+d}" in final


def test_sample_games_show_what_they_are_named_for() -> None:
    shut = "\n".join(transcript(sample("shut_out.json"), "en"))
    assert "全关" in shut
    assert any(s.shut_out for s in sample("shut_out.json").replay().settlement().seats)
    war = transcript(sample("bomb_war.json"), "en")
    bombs = [line for line in war if line.rstrip().endswith("bomb")]
    assert len(bombs) >= 2
    assert any("bomb stands" in line for line in war)
    bao = "\n".join(transcript(sample("bao_dan_endgame.json"), "zh"))
    assert "报单" in bao and "结算" in bao


def test_transcript_numbers_every_play_and_hides_other_hands() -> None:
    rec = sample("bomb_war.json")
    lines = transcript(rec, "en", viewer=1)
    for n in range(1, len(rec.actions) + 1):
        assert any(line.lstrip().startswith(f"{n}. ") for line in lines)
    deal_lines = lines[2:5]
    assert sum("(hidden)" in line for line in deal_lines) == 2


def test_card_counter() -> None:
    rec = sample("bomb_war.json")
    states = list(rec.states())
    assert sum(n for _, n in counter(states[0], None)) == 48
    assert sum(n for _, n in counter(states[0], 0)) == 32
    for i, action in enumerate(rec.actions):
        played = len(action.play.cards) if action.play else 0
        before = sum(n for _, n in counter(states[i], None))
        assert sum(n for _, n in counter(states[i + 1], None)) == before - played


def test_explanation_is_legal_and_from_the_movers_view() -> None:
    rec = sample("bao_dan_endgame.json")
    for step, state in enumerate(list(rec.states())[:-1]):
        ex = explain(state, "easy", 0, rec.actions[step])
        assert ex.seat == state.turn
        assert ex.choice in ex.legal or (ex.choice is None and ex.can_pass)


def test_replayer_navigation() -> None:
    rec = sample("shut_out.json")
    r = Replayer(rec, None, "easy", explain_on=False)
    r.apply(Key.PREV)
    assert r.step == 0
    r.apply(Key.NEXT)
    r.apply(Key.NEXT)
    assert r.step == 2
    r.apply(Key.LAST)
    assert r.step == len(rec.actions)
    r.apply(Key.NEXT)
    assert r.step == len(rec.actions)
    r.apply(Key.FIRST)
    assert r.step == 0
    r.jump(999)
    assert r.step == len(rec.actions)
    r.jump(3)
    assert r.step == 3
    seen = []
    for _ in range(4):
        r.apply(Key.VIEW)
        seen.append(r.viewer)
    assert seen == [0, 1, 2, None]


def test_explain_respects_the_viewer() -> None:
    rec = sample("bomb_war.json")
    r = Replayer(rec, 0, "easy", explain_on=True)
    for step, state in enumerate(list(rec.states())[:-1]):
        r.jump(step)
        frame = r.frame("x", "en")
        if state.turn == 0:
            assert frame.explanation is not None
        else:
            assert frame.explanation is None and frame.explain_note
    r.apply(Key.LAST)
    assert r.frame("x", "en").explain_note == "the deal is over"


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"n", Key.NEXT),
        (b" ", Key.NEXT),
        (b"\x1b[C", Key.NEXT),
        (b"\x1b[D", Key.PREV),
        (b"p", Key.PREV),
        (b"\x1b[H", Key.FIRST),
        (b"\x1b[F", Key.LAST),
        (b"\x1bOH", Key.FIRST),
        (b"L", Key.LAST),
        (b"g", Key.JUMP),
        (b"e", Key.EXPLAIN),
        (b"v", Key.VIEW),
        (b"q", Key.QUIT),
        (b"\x1b", Key.QUIT),
        (b"z", Key.OTHER),
    ],
)
def test_keys(data: bytes, key: Key) -> None:
    assert decode_key(data) is key


def test_screens_in_chinese() -> None:
    rec = sample("shut_out.json")
    text = screen(rec, Frame("s", len(rec.actions), None), "zh")
    assert "结算" in text and "全关" in text
    assert "记牌器" in screen(rec, Frame("s", 1, None), "zh")


def test_every_selfplay_and_replay_message_exists_in_both_languages() -> None:
    import string

    import pdk.cli.replay
    import pdk.cli.selfplay
    import pdk.engine.record  # noqa: F401  (registers their messages)
    from pdk.text.catalog import MESSAGES

    fmt = string.Formatter()
    keys = [k for k in MESSAGES if k.startswith(("sp_", "rp_", "rpe_"))]
    assert len(keys) > 50
    for key in keys:
        en, zh = MESSAGES[key]
        assert bool(en) == bool(zh), key
        assert {f[1] for f in fmt.parse(en) if f[1]} == {f[1] for f in fmt.parse(zh) if f[1]}, key


@pytest.mark.parametrize(
    ("reason", "params", "english", "chinese"),
    [
        ("NO_FILE", {}, "f.json: no such file", "f.json: 文件不存在"),
        (
            "JSON",
            {"line": 3, "col": 7},
            "f.json: invalid JSON at line 3 column 7",
            "f.json: JSON 格式错误（第 3 行第 7 列）",
        ),
        (
            "VERSION",
            {"v": "2", "r": 1},
            "f.json: unsupported record version 2 (this pdk reads 1)",
            "f.json: 不支持的牌谱版本 2（本程序读取版本 1）",
        ),
        (
            "TURN",
            {"n": 4, "seat": 1, "turn": 2},
            "f.json: move 4: seat 1 played out of turn (seat 2 to move)",
            "f.json: 第 4 手：座位 1 不该出牌（应由座位 2 出牌）",
        ),
    ],
)
def test_record_errors_are_localized(
    reason: str, params: dict[str, object], english: str, chinese: str
) -> None:
    from pdk.engine.record import RecordError, RecordReason

    exc = RecordError(RecordReason[reason], path="f.json", **params)
    assert str(exc) == exc.message("en") == english
    assert exc.message("zh") == chinese
