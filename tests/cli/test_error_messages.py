"""Every error a player can see exists in English and 中文: the reason-coded errors of the
card notation, the records and the saves, and the CLI lines built from them (the real
``pdk`` program, ``--lang zh`` and ``--lang en``)."""

from __future__ import annotations

import json
import os
import pickle
import re
import string
import subprocess
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from pdk.engine.cards import CardParseError, CardPlace, CardReason, parse_specs
from pdk.engine.position import IllegalPlay, Reason, resolve_cards
from pdk.engine.record import GameRecord, RecordError, RecordReason, loads
from pdk.table.session import SaveError, SaveReason, load_save, new_session
from pdk.text.catalog import MESSAGES, Lang
from pdk.variants.registry import load_profile
from tests.support import ROOT
from tests.support.cli import run_pdk

SAMPLES = ROOT / "replays"
CJK = re.compile(r"[\u4e00-\u9fff]")
_FMT = string.Formatter()


def fields(template: str) -> set[str]:
    return {f[1] for f in _FMT.parse(template) if f[1]}


def sample_error(reason: Enum) -> CardParseError | RecordError | SaveError:
    """The error for ``reason`` with a stand-in value for every parameter its message uses."""
    params: dict[str, object] = {name: "7" for name in fields(MESSAGES[reason.value][0])}
    if isinstance(reason, CardReason):
        if "place" in params:
            params["place"] = CardPlace.DECK
        return CardParseError(reason, **params)
    if isinstance(reason, RecordReason):
        return RecordError(reason, **params)
    assert isinstance(reason, SaveReason)
    return SaveError(reason, **params)


CODES: list[Enum] = [*CardReason, *RecordReason, *SaveReason]


@pytest.mark.parametrize("reason", CODES, ids=lambda r: r.value)
def test_every_error_code_reads_in_english_and_chinese(reason: Enum) -> None:
    en, zh = MESSAGES[reason.value]
    assert en and zh and fields(en) == fields(zh)
    exc = sample_error(reason)
    english, chinese = exc.message("en"), exc.message("zh")
    assert str(exc) == english  # logs and old callers keep the English line
    assert "\n" not in english and "\n" not in chinese
    assert not CJK.search(english)
    assert CJK.search(chinese), chinese
    assert english != chinese
    back = pickle.loads(pickle.dumps(exc))  # crosses process boundaries intact
    assert back.message("zh") == chinese and back.reason is reason


@pytest.mark.parametrize("place", list(CardPlace), ids=lambda p: p.value)
def test_every_card_place_has_both_languages(place: CardPlace) -> None:
    en, zh = MESSAGES[place.value]
    assert en and CJK.search(zh)


def test_card_errors_carry_their_code() -> None:
    with pytest.raises(CardParseError) as info:
        parse_specs("33X")
    assert info.value.reason is CardReason.UNKNOWN_CARD
    assert str(info.value) == (
        "unknown card 'X' at position 3 in '33X' (ranks are 3-9 T/10 J Q K A 2 B R, suits s h c d)"
    )
    assert info.value.message("zh").startswith("无法识别的牌 'X'")
    with pytest.raises(CardParseError) as info:
        resolve_cards("22", 0, CardPlace.HAND)
    assert str(info.value) == "not enough cards: 2 is not available in the hand"
    assert info.value.message("zh") == "牌不够：手牌中没有 2"


def test_nested_reasons_are_said_in_the_same_language(tmp_path: Path) -> None:
    illegal = RecordError(RecordReason.ILLEGAL, n=5, reason=IllegalPlay(Reason.LEADER_CANNOT_PASS))
    assert str(illegal) == "move 5: illegal: you lead this trick: you cannot pass"
    assert illegal.message("zh") == "第 5 手不合法：你是首家出牌，不能不出"
    cards = CardParseError(CardReason.NO_CARDS, text="")
    bad = RecordError(RecordReason.MOVE_CARDS, n=2, detail=cards).in_file("r.json")
    assert bad.reason is RecordReason.MOVE_CARDS and bad.path == "r.json"
    assert str(bad) == "r.json: move 2: no cards in ''"
    assert bad.message("zh") == "r.json: 第 2 手：'' 里没有牌"
    saved = SaveError(SaveReason.DEAL, detail=illegal)
    assert str(saved) == "saved deal: move 5: illegal: you lead this trick: you cannot pass"
    assert saved.message("zh") == "存档中的牌局：第 5 手不合法：你是首家出牌，不能不出"


def test_a_tampered_record_states_the_rules_reason() -> None:
    data = json.loads((SAMPLES / "bomb_war.json").read_text(encoding="utf-8"))
    data["plays"][0] = {"seat": data["plays"][0]["seat"], "pass": True}
    with pytest.raises(RecordError) as info:
        loads(json.dumps(data))
    exc = info.value
    assert exc.reason is RecordReason.ILLEGAL
    assert isinstance(exc.params["reason"], IllegalPlay)
    assert exc.message("en") == "move 1: illegal: you lead this trick: you cannot pass"
    assert exc.message("zh") == "第 1 手不合法：你是首家出牌，不能不出"


def test_a_broken_save_says_why_in_both_languages(tmp_path: Path) -> None:
    sess = new_session(load_profile("classic16"), "classic16", "easy", seed=5)
    data = sess.to_dict()
    data["session"]["deal_no"] = "one"
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        load_save(path)
    assert info.value.reason is SaveReason.FIELD
    assert str(info.value) == "session.deal_no is missing or not a int"
    assert CJK.search(info.value.message("zh"))


def test_a_record_of_a_real_game_still_loads() -> None:
    record = GameRecord.of(new_session(load_profile("classic16"), "classic16", "easy", seed=1).state)
    assert loads(json.dumps(record.to_dict())).actions == ()


# -- the real program ------------------------------------------------------------------------


def one_line(proc: subprocess.CompletedProcess[str], lang: Lang, code: int = 2) -> str:
    """The single error line, checked to be in ``lang``."""
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("pdk: error: ")
    assert bool(CJK.search(line)) == (lang == "zh"), line
    return line


def test_moves_unknown_card_in_the_hand() -> None:
    zh = one_line(run_pdk("moves", "--hand", "33X", "--lang", "zh"), "zh")
    assert zh == (
        "pdk: error: --hand: 无法识别的牌 'X'（'33X' 的第 3 个字符；点数为 3-9 T/10 J Q K A 2 B R，"
        "花色为 s h c d）"
    )
    en = one_line(run_pdk("moves", "--hand", "33X", "--lang", "en"), "en")
    assert en == (
        "pdk: error: --hand: unknown card 'X' at position 3 in '33X' "
        "(ranks are 3-9 T/10 J Q K A 2 B R, suits s h c d)"
    )


@pytest.mark.parametrize(
    ("args", "zh", "en"),
    [
        (("--beat", "99X"), "--beat: 无法识别的牌 'X'", "--beat: unknown card 'X' at position 3 in '99X'"),
        (("--beat", "45"), "--beat: 45 不成牌型", "--beat: 45 is not a combination"),
        (
            ("--beat", "3333"),
            "--beat: 牌不够：你手牌以外的牌中没有 3",
            "--beat: not enough cards: 3 is not available in the deck outside your hand",
        ),
        (("--play", "3X"), "--play: 无法识别的牌 'X'", "--play: unknown card 'X' at position 2 in '3X'"),
    ],
)
def test_moves_bad_beat_and_play(args: tuple[str, str], zh: str, en: str) -> None:
    assert zh in one_line(run_pdk("moves", "--hand", "334", *args, "--lang", "zh"), "zh")
    assert en in one_line(run_pdk("moves", "--hand", "334", *args, "--lang", "en"), "en")


def test_moves_hand_not_in_the_deck() -> None:
    zh = one_line(run_pdk("moves", "--hand", "2h", "--lang", "zh"), "zh")
    assert "牌不够：这副牌中没有 ♥2" in zh
    en = one_line(run_pdk("moves", "--hand", "2h", "--lang", "en"), "en")
    assert "not enough cards: ♥2 is not available in the deck" in en


def test_an_unknown_language_is_refused_in_both() -> None:
    proc = run_pdk("moves", "--hand", "334", "--lang", "fr")
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert "--lang must be zh or en, not 'fr'" in line and "--lang 只能是 zh 或 en" in line


def test_an_unknown_variant_in_both_languages() -> None:
    zh = one_line(run_pdk("moves", "--hand", "334", "--variant", "nope", "--lang", "zh"), "zh")
    assert "没有名为 'nope' 的规则配置" in zh and "classic16" in zh
    en = one_line(run_pdk("moves", "--hand", "334", "--variant", "nope", "--lang", "en"), "en")
    assert "unknown variant 'nope'" in en


def test_an_invalid_profile_file_is_introduced_in_chinese(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("base: classic16\nname: bad\nrules:\n  must_beat: maybe\n", encoding="utf-8")
    zh = one_line(run_pdk("variants", "check", str(bad), "--lang", "zh"), "zh")
    assert zh.startswith("pdk: error: 规则配置无效：") and "must_beat" in zh
    en = one_line(run_pdk("variants", "check", str(bad), "--lang", "en"), "en")
    assert "must_beat" in en


def truncated_record(tmp_path: Path) -> Path:
    text = (SAMPLES / "bomb_war.json").read_text(encoding="utf-8")
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    return path


def test_replay_of_a_truncated_record(tmp_path: Path) -> None:
    path = truncated_record(tmp_path)
    zh = one_line(run_pdk("replay", str(path), "--lang", "zh"), "zh")
    assert zh.startswith(f"pdk: error: {path}: JSON 格式错误（第 1 行第 ")
    en = one_line(run_pdk("replay", str(path), "--lang", "en"), "en")
    assert en.startswith(f"pdk: error: {path}: invalid JSON at line 1 column ")
    assert "JSON 格式错误" in one_line(run_pdk("replay", str(path), "--check", "--lang", "zh"), "zh")


def test_replay_of_a_record_cut_after_a_play(tmp_path: Path) -> None:
    data = json.loads((SAMPLES / "bomb_war.json").read_text(encoding="utf-8"))
    n = len(data["plays"]) // 2
    data["plays"] = data["plays"][:n]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    zh = one_line(run_pdk("replay", str(path), "--check", "--lang", "zh"), "zh")
    assert zh == f"pdk: error: {path}: 牌谱在第 {n} 手后结束，但本局尚未结束"
    en = one_line(run_pdk("replay", str(path), "--check", "--lang", "en"), "en")
    assert en == f"pdk: error: {path}: record ends after move {n} but the deal is not over"


def test_replay_of_a_record_with_unreadable_cards(tmp_path: Path) -> None:
    data = json.loads((SAMPLES / "bomb_war.json").read_text(encoding="utf-8"))
    data["plays"][0]["cards"] = "3X"
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    zh = one_line(run_pdk("replay", str(path), "--lang", "zh"), "zh")
    assert zh.startswith(f"pdk: error: {path}: 第 1 手：无法识别的牌 'X'")
    en = one_line(run_pdk("replay", str(path), "--lang", "en"), "en")
    assert en.startswith(f"pdk: error: {path}: move 1: unknown card 'X'")


def test_replay_check_of_a_jsonl_names_the_game(tmp_path: Path) -> None:
    good = json.dumps(json.loads((SAMPLES / "bomb_war.json").read_text(encoding="utf-8")))
    bad = json.loads(good)
    bad["version"] = 7
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    zh = one_line(run_pdk("replay", str(path), "--check", "--lang", "zh"), "zh")
    assert zh == f"pdk: error: {path}: 第 2 局: 不支持的牌谱版本 7（本程序读取版本 1）"
    en = one_line(run_pdk("replay", str(path), "--check", "--lang", "en"), "en")
    assert en == f"pdk: error: {path}: game 2: unsupported record version 7 (this pdk reads 1)"


def test_stats_on_an_unreadable_history(tmp_path: Path) -> None:
    (tmp_path / "history.sqlite3").write_text("not a database, just text " * 100, encoding="utf-8")
    zh = one_line(run_pdk("stats", "--save-dir", str(tmp_path), "--lang", "zh"), "zh")
    assert zh.startswith("pdk: error: 无法读取历史战绩：")
    en = one_line(run_pdk("stats", "--save-dir", str(tmp_path), "--lang", "en"), "en")
    assert en.startswith("pdk: error: cannot read the history: ")


def play_and_quit(save_dir: Path, *args: str) -> str:
    """``pdk play`` on ``save_dir``, quit at once; its output with whitespace collapsed."""
    proc = subprocess.run(
        ["pdk", "play", "--save-dir", str(save_dir), *args],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "400", "LANG": "C.UTF-8"},
    )
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


@pytest.mark.parametrize(("lang", "said"), [("zh", "已损坏（不是 pdk 存档）"), ("en", "(not a pdk save)")])
def test_play_resumes_a_corrupt_save_in_the_chosen_language(tmp_path: Path, lang: str, said: str) -> None:
    (tmp_path / "save.json").write_text('{"format": "other"}', encoding="utf-8")
    out = play_and_quit(tmp_path, "--seed", "2", "--lang", lang)
    assert said in out, out
    assert list(tmp_path.glob("save.json.corrupt-*"))


def test_play_resumes_a_save_whose_deal_does_not_replay(tmp_path: Path) -> None:
    sess = new_session(load_profile("classic16"), "classic16", "easy", seed=5)
    data: dict[str, Any] = sess.to_dict()
    data["record"]["plays"] = [{"seat": (data["record"]["deal"]["leader"] + 1) % 3, "pass": True}]
    (tmp_path / "save.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = play_and_quit(tmp_path, "--lang", "zh")
    assert "存档中的牌局：第 1 手：座位" in out and "不该出牌" in out, out


@pytest.mark.parametrize(
    ("args", "zh", "en"),
    [
        (
            ("moves", "--hand", "33", "--bogus"),
            "没有选项 --bogus（见 'pdk moves -h'）",
            "No such option: --bogus",
        ),
        (("moves",), "请给出 --hand 或 --position 之一", "give either --hand or --position"),
        (
            ("moves", "--hand", "3", "--hnd", "3"),
            "没有选项 --hnd（可用的选项：--hand）",
            "Possible options: --hand",
        ),
        (
            ("moves", "--hand", "3", "--next-holds", "0"),
            "'--next-holds' 的值无效：",
            "Invalid value for '--next-holds'",
        ),
        (("replay",), "缺少参数 'file'", "Missing argument 'file'."),
        (("nosuch",), "用法错误：No such command 'nosuch'.", "No such command 'nosuch'."),
    ],
)
def test_usage_errors_in_the_language_asked_for(args: tuple[str, ...], zh: str, en: str) -> None:
    assert zh in one_line(run_pdk(*args, "--lang", "zh"), "zh")
    assert zh in one_line(run_pdk(*args, "--lang=zh"), "zh")
    assert en in one_line(run_pdk(*args, "--lang", "en"), "en")
