"""A profile that cannot be found, read or validated is said in English and 中文: every
``ProfileReason``, every whole-profile check of ``_problems`` and the common pydantic
errors, each keeping the YAML field path; and the real ``pdk`` program in both languages."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic_core import ErrorDetails

from pdk.engine.profile import ProfileError, ProfileProblem, ProfileReason, _field_problem
from pdk.text.catalog import MESSAGES, Lang
from pdk.variants.registry import load_profile, profile_from_dict, variants_dir
from tests.support.cli import run_pdk

CJK = re.compile(r"[\u4e00-\u9fff]")
KNOWN = ", ".join(sorted(p.stem for p in variants_dir().glob("*.yaml")))


def raised(action: Callable[[], object]) -> ProfileError:
    with pytest.raises(ProfileError) as info:
        action()
    return info.value


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def classic() -> dict[str, Any]:
    data = load_profile().model_dump(mode="json")
    assert isinstance(data, dict)
    return data


def changed(**edits: object) -> dict[str, Any]:
    """classic16 with ``a__b=value`` set at ``a.b`` (``...=DELETE`` removes the key)."""
    data = classic()
    for dotted, value in edits.items():
        *parents, last = dotted.split("__")
        node = data
        for key in parents:
            node = node[key]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
    return data


DELETE = object()


# -- every reason, in both languages ---------------------------------------------------------


def case_unknown(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile("no-such-variant"))


def case_cannot_read(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(tmp / "nowhere.yaml"))


def case_not_text(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", b"name: \xff\xfe\n")))


def case_yaml_at(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", "name: [unclosed\n")))


def case_yaml(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", "name: \x07\n")))


def case_not_mapping(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", "- a\n- list\n")))


def case_base_bad(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", "base: 5\nname: x\n")))


def case_base_unknown(tmp: Path) -> ProfileError:
    return raised(lambda: load_profile(write(tmp / "p.yaml", "base: nosuch\nname: x\n")))


def case_invalid(tmp: Path) -> ProfileError:
    text = "name: x\nbase: classic16\nrules:\n  must_beat: maybe\n"
    return raised(lambda: load_profile(write(tmp / "p.yaml", text)))


# reason -> (how to cause it, English, 中文); ``{tmp}`` is the test's folder.
REASONS: dict[ProfileReason, tuple[Callable[[Path], ProfileError], str, str]] = {
    ProfileReason.UNKNOWN: (
        case_unknown,
        f"unknown variant 'no-such-variant' (known: {KNOWN}; or give a path to a .yaml file)",
        f"没有名为 'no-such-variant' 的规则配置（可选：{KNOWN}；也可以给出 .yaml 文件的路径）",
    ),
    ProfileReason.CANNOT_READ: (
        case_cannot_read,
        "{tmp}/nowhere.yaml: cannot read profile: No such file or directory",
        "无法读取规则配置 {tmp}/nowhere.yaml：文件不存在",
    ),
    ProfileReason.NOT_TEXT: (
        case_not_text,
        "{tmp}/p.yaml: cannot read profile: not UTF-8 text",
        "无法读取规则配置 {tmp}/p.yaml：不是 UTF-8 编码的文本",
    ),
    ProfileReason.YAML_AT: (
        case_yaml_at,
        "{tmp}/p.yaml: line 2 not valid YAML",
        "规则配置 {tmp}/p.yaml 第 2 行不是有效的 YAML",
    ),
    ProfileReason.YAML: (
        case_yaml,
        "{tmp}/p.yaml: not valid YAML",
        "规则配置 {tmp}/p.yaml 不是有效的 YAML",
    ),
    ProfileReason.NOT_MAPPING: (
        case_not_mapping,
        "{tmp}/p.yaml: a profile must be a mapping of fields",
        "规则配置 {tmp}/p.yaml 必须是字段的映射（每行“字段: 值”）",
    ),
    ProfileReason.BASE_BAD: (
        case_base_bad,
        "{tmp}/p.yaml: invalid profile: base: must name one profile (and not loop)",
        "规则配置无效：{tmp}/p.yaml：base：必须是一个规则配置的名称（且不能循环引用）",
    ),
    ProfileReason.BASE_UNKNOWN: (
        case_base_unknown,
        "{tmp}/p.yaml: invalid profile: base: unknown profile 'nosuch'",
        "规则配置无效：{tmp}/p.yaml：base：没有名为 'nosuch' 的规则配置",
    ),
    ProfileReason.INVALID: (
        case_invalid,
        "{tmp}/p.yaml: invalid profile: rules.must_beat: Input should be a valid boolean,"
        " unable to interpret input",
        "规则配置无效：{tmp}/p.yaml：rules.must_beat：应为 true 或 false，无法识别所给的值",
    ),
}


def test_every_reason_has_a_case() -> None:
    assert set(REASONS) == set(ProfileReason)


@pytest.mark.parametrize("reason", list(ProfileReason), ids=lambda r: r.value)
def test_every_reason_reads_in_english_and_chinese(reason: ProfileReason, tmp_path: Path) -> None:
    cause, en, zh = REASONS[reason]
    exc = cause(tmp_path)
    assert exc.reason is reason
    assert exc.message("en") == en.format(tmp=tmp_path)
    assert exc.message("zh") == zh.format(tmp=tmp_path)
    assert str(exc) == exc.message("en")  # logs and old callers keep the English line
    for line in (exc.message("en"), exc.message("zh")):
        assert "\n" not in line
    assert not CJK.search(exc.message("en"))
    assert CJK.search(exc.message("zh"))
    back = pickle.loads(pickle.dumps(exc))  # crosses process boundaries intact
    assert back.reason is reason and back.message("zh") == exc.message("zh")


def test_a_loop_of_bases_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", f"base: {tmp_path / 'b.yaml'}\nname: a\n")
    write(tmp_path / "b.yaml", f"base: {tmp_path / 'a.yaml'}\nname: b\n")
    exc = raised(lambda: load_profile(tmp_path / "a.yaml"))
    assert exc.reason is ProfileReason.BASE_BAD
    assert "and not loop" in str(exc) and "循环引用" in exc.message("zh")


def test_a_base_that_is_not_a_mapping_names_the_base_file(tmp_path: Path) -> None:
    base = write(tmp_path / "base.yaml", "- a list\n")
    exc = raised(lambda: load_profile(write(tmp_path / "p.yaml", f"base: {base}\nname: x\n")))
    assert exc.reason is ProfileReason.NOT_MAPPING
    assert exc.message("en") == f"{base}: a profile must be a mapping of fields"
    assert exc.message("zh").startswith(f"规则配置 {base} 必须是")


def test_an_unreadable_folder_is_said_in_chinese(tmp_path: Path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    exc = raised(lambda: load_profile(tmp_path / "dir.yaml"))
    assert exc.message("en") == f"{tmp_path}/dir.yaml: cannot read profile: Is a directory"
    assert exc.message("zh") == f"无法读取规则配置 {tmp_path}/dir.yaml：这是一个文件夹"


# -- the whole-profile checks (_problems) ---------------------------------------------------


# (key, the change to classic16, the field named, the English after "field: ")
CHECKS: list[tuple[str, dict[str, object], str, str]] = [
    (
        "pfp_hand_size",
        {"hand_size": 15},
        "hand_size",
        "3 players x 15 cards + 0 set aside = 45, but the deck has 48 cards",
    ),
    (
        "pfp_hand_size_dummies",
        {"dummy_hands": 1},
        "hand_size",
        "3 players + 1 hidden hand(s) x 16 cards + 0 set aside = 64, but the deck has 48 cards",
    ),
    (
        "pfp_removed_joker",
        {"deck__remove": ["2h", "2c", "2d", "As", "R"], "hand_size": 15},
        "deck.remove",
        "R is a joker but deck.jokers is false",
    ),
    ("pfp_not_in_deck", {"lead__card": "As"}, "lead.card", "As is not in the deck"),
    (
        "pfp_lead_fallback",
        {"deck__set_aside": 3, "hand_size": 15, "lead__fallback": False},
        "lead.fallback",
        "cards are set aside, so the lead card may be undealt; a fallback is needed",
    ),
    (
        "pfp_too_long",
        {"combinations__straight__min_length": 13},
        "combinations.straight.min_length",
        "13 is longer than any chain",
    ),
    (
        "pfp_low_ace_two_start",
        {"combinations__low_ace_two": True, "combinations__chain_ranks": "456789TJQKA"},
        "combinations.low_ace_two",
        "chain_ranks must start at 3 for A and 2 to sit below it",
    ),
    (
        "pfp_low_ace_two_no_ace",
        {"combinations__low_ace_two": True, "combinations__chain_ranks": "2"},
        "combinations.low_ace_two",
        "chain_ranks holds 2 but not A",
    ),
    (
        "pfp_more_than",
        {"combinations__trio__min_kickers": 2, "combinations__trio__kickers": 1},
        "combinations.trio.min_kickers",
        "2 is more than kickers (1)",
    ),
    (
        "pfp_kickers_not_pairs",
        {"combinations__trio__kicker_kind": "pairs", "combinations__trio__kickers": 1},
        "combinations.trio.kickers",
        "1 kickers cannot be made of pairs",
    ),
    (
        "pfp_no_kicker_count",
        {
            "combinations__trio__kicker_kind": "pairs",
            "combinations__trio__kickers": 1,
            "combinations__trio__min_kickers": 1,
        },
        "combinations.trio",
        "no kicker count is allowed",
    ),
    (
        "pfp_plane_pairs",
        {"combinations__plane__kicker_kind": "pairs", "combinations__plane__kickers_per_trio": 1},
        "combinations.plane.kicker_kind",
        "pairs need an even number of kickers per trio",
    ),
    (
        "pfp_four_with_min",
        {"combinations__four_with__enabled": True, "combinations__four_with__min_kickers": 4},
        "combinations.four_with.min_kickers",
        "more than max_kickers",
    ),
    (
        "pfp_four_with_pairs",
        {"combinations__four_with__enabled": True, "combinations__four_with__kicker_kind": "pairs"},
        "combinations.four_with.kicker_kind",
        "pairs need an even number of kickers",
    ),
    (
        "pfp_straights_off",
        {"combinations__straight_flush": "bomb", "combinations__straight__enabled": False},
        "combinations.straight_flush",
        "straights are disabled",
    ),
    (
        "pfp_no_rank_has",
        {"bombs__min_size": 5, "bombs__max_size": 5},
        "bombs.min_size",
        "no rank has 5 cards in this deck",
    ),
    (
        "pfp_three_aces",
        {"bombs__three_aces": True, "deck__remove": ["2h", "2c", "2d", "As", "Ah"]},
        "bombs.three_aces",
        "the deck has fewer than three aces",
    ),
    ("pfp_joker_pair", {"bombs__joker_pair": True}, "bombs.joker_pair", "the deck has no jokers"),
    ("pfp_four_jokers", {"bombs__four_jokers": True}, "bombs.four_jokers", "needs two packs with jokers"),
    (
        "pfp_order_twice",
        {"bombs__order": ["same_rank", "same_rank"]},
        "bombs.order",
        "a kind is listed twice",
    ),
    (
        "pfp_order_kinds",
        {"bombs__order": ["joker_pair"]},
        "bombs.order",
        "must list exactly the enabled bomb kinds (same_rank)",
    ),
    (
        "pfp_order_no_kinds",
        {"bombs__four": False, "bombs__order": ["same_rank"]},
        "bombs.order",
        "must list exactly the enabled bomb kinds (none)",
    ),
    (
        "pfp_bao_pei_highest",
        {"rules__bao_pei": True},
        "rules.bao_pei",
        "with bao_dan_highest_single on nobody can break the 报单 rule; turn one of them off",
    ),
    (
        "pfp_placement_end",
        {"settlement__scheme": "placement", "settlement__placement_points": [2, -1, -1]},
        "settlement.scheme",
        "placement needs end: last_one",
    ),
    (
        "pfp_placement_points",
        {"settlement__scheme": "placement", "end": "last_one"},
        "settlement.placement_points",
        "needs 3 values (one per place), got 0",
    ),
    (
        "pfp_cards_left_end",
        {"end": "last_one"},
        "settlement.scheme",
        "cards_left needs end: first_out (use placement with last_one)",
    ),
    (
        "pfp_placement_only",
        {"settlement__first_out_bonus": 2},
        "settlement.first_out_bonus",
        "only used by scheme: placement",
    ),
    (
        "pfp_reverse_spring",
        {
            "settlement__scheme": "placement",
            "end": "last_one",
            "settlement__placement_points": [2, -1, -1],
            "settlement__reverse_spring_multiplier": 2,
        },
        "settlement.reverse_spring_multiplier",
        "反春 needs scheme: cards_left",
    ),
    (
        "pfp_bao_pei_scheme",
        {
            "settlement__scheme": "placement",
            "end": "last_one",
            "settlement__placement_points": [2, -1, -1],
            "rules__bao_pei": True,
            "rules__bao_dan_highest_single": False,
        },
        "rules.bao_pei",
        "包赔 shifts card payments, so it needs scheme: cards_left",
    ),
    (
        "pfp_graded_twice",
        {
            "settlement__graded": [
                {"played_under": 0.5, "multiplier": 2},
                {"played_under": 0.5, "multiplier": 3},
            ]
        },
        "settlement.graded",
        "two grades share a fraction",
    ),
]


def problem_for(key: str, edits: dict[str, object]) -> ProfileProblem:
    exc = raised(lambda: profile_from_dict(changed(**edits), "mine.yaml"))
    assert exc.reason is ProfileReason.INVALID
    found = [p for p in exc.problems if p.key == key]
    assert found, [p.key for p in exc.problems]
    return found[0]


def said_in_both(key: str, edits: dict[str, object], field: str, english: str) -> str:
    """Check the problem ``edits`` cause: it keeps ``field``, says ``english`` after it, and
    has Chinese after it in 中文; the 中文 line is returned."""
    problem = problem_for(key, edits)
    assert problem.field == field
    assert problem.message("en") == f"{field}: {english}"
    zh = problem.message("zh")
    assert zh.startswith(f"{field}：") and CJK.search(zh.removeprefix(f"{field}："))
    return zh


def test_every_whole_profile_check_has_a_case() -> None:
    keys = {k for k in MESSAGES if k.startswith("pfp_")}
    assert keys == {key for key, *_ in CHECKS}


@pytest.mark.parametrize(("key", "edits", "field", "english"), CHECKS, ids=[c[0] for c in CHECKS])
def test_every_whole_profile_check_reads_in_both_languages(
    key: str, edits: dict[str, object], field: str, english: str
) -> None:
    zh = said_in_both(key, edits, field, english)
    assert "；" not in zh  # the separator between problems
    en_template, zh_template = MESSAGES[key]
    assert en_template and zh_template


def test_the_bao_pei_check_in_chinese() -> None:
    problem = problem_for("pfp_bao_pei_highest", {"rules__bao_pei": True})
    assert problem.message("zh") == (
        "rules.bao_pei：bao_dan_highest_single 打开时没有人能违反报单规则，包赔无从说起，请关掉其中一个"
    )


def test_the_hand_size_check_in_chinese() -> None:
    problem = problem_for("pfp_hand_size", {"hand_size": 15})
    assert problem.message("zh") == "hand_size：3 名玩家 × 每人 15 张 + 0 张不发 = 45 张，但这副牌有 48 张"


# -- the field validators and pydantic's own errors ----------------------------------------


# (key, the change to classic16, the field named, the English after "field: ")
FIELD_ERRORS: list[tuple[str, dict[str, object], str, str]] = [
    ("pfv_missing", {"description": DELETE}, "description", "Field required"),
    ("pfv_extra_forbidden", {"rules__must_beet": True}, "rules.must_beet", "Extra inputs are not permitted"),
    (
        "pfv_bool_parsing",
        {"rules__must_beat": "maybe"},
        "rules.must_beat",
        "Input should be a valid boolean, unable to interpret input",
    ),
    ("pfv_bool_type", {"rules__must_beat": [1]}, "rules.must_beat", "Input should be a valid boolean"),
    (
        "pfv_int_parsing",
        {"players": "three"},
        "players",
        "Input should be a valid integer, unable to parse string as an integer",
    ),
    ("pfv_int_type", {"players": [3]}, "players", "Input should be a valid integer"),
    (
        "pfv_int_from_float",
        {"hand_size": 15.5},
        "hand_size",
        "Input should be a valid integer, got a number with a fractional part",
    ),
    (
        "pfv_float_parsing",
        {"settlement__graded": [{"played_under": "half", "multiplier": 2}]},
        "settlement.graded.0.played_under",
        "Input should be a valid number, unable to parse string as a number",
    ),
    (
        "pfv_float_type",
        {"settlement__graded": [{"played_under": [1], "multiplier": 2}]},
        "settlement.graded.0.played_under",
        "Input should be a valid number",
    ),
    ("pfv_string_type", {"name": 5}, "name", "Input should be a valid string"),
    ("pfv_tuple_type", {"aliases": "x"}, "aliases", "Input should be a valid tuple"),
    ("pfv_model_type", {"title": "x"}, "title", "Input should be a valid dictionary or instance of Text"),
    ("pfv_literal_error", {"end": "never"}, "end", "Input should be 'first_out' or 'last_one'"),
    (
        "pfv_greater_than_equal",
        {"combinations__straight__min_length": 0},
        "combinations.straight.min_length",
        "Input should be greater than or equal to 2",
    ),
    (
        "pfv_less_than_equal",
        {"bombs__max_size": 9},
        "bombs.max_size",
        "Input should be less than or equal to 8",
    ),
    (
        "pfv_greater_than",
        {"settlement__graded": [{"played_under": 0, "multiplier": 2}]},
        "settlement.graded.0.played_under",
        "Input should be greater than 0",
    ),
    (
        "pfv_card",
        {"deck__remove": ["3x"]},
        "deck.remove",
        "unknown card 'x' at position 2 in '3x' (ranks are 3-9 T/10 J Q K A 2 B R, suits s h c d)",
    ),
    (
        "pfv_one_card",
        {"lead__card": "3"},
        "lead.card",
        "'3' must name exactly one card with its suit, like '3s'",
    ),
    (
        "pfv_chain_char",
        {"combinations__chain_ranks": "345B"},
        "combinations.chain_ranks",
        "'345B' holds a character that is not a chainable rank (3..A, 2)",
    ),
    (
        "pfv_chain_order",
        {"combinations__chain_ranks": "3579"},
        "combinations.chain_ranks",
        "'3579' must be consecutive ranks in order, like '3456789TJQKA'",
    ),
]


def test_every_field_error_has_a_case() -> None:
    keys = {k for k in MESSAGES if k.startswith("pfv_")} - {"pfv_other"}
    assert keys == {key for key, *_ in FIELD_ERRORS}


@pytest.mark.parametrize(("key", "edits", "field", "english"), FIELD_ERRORS, ids=[c[0] for c in FIELD_ERRORS])
def test_field_errors_keep_the_field_and_read_in_both_languages(
    key: str, edits: dict[str, object], field: str, english: str
) -> None:
    said_in_both(key, edits, field, english)  # in English pydantic's words, as before


def test_a_literal_choice_says_or_in_chinese() -> None:
    problem = problem_for("pfv_literal_error", {"end": "never"})
    assert problem.message("zh") == "end：应为 'first_out' 或 'last_one' 之一"


def test_an_unknown_card_in_a_profile_is_said_in_chinese() -> None:
    problem = problem_for("pfv_card", {"deck__remove": ["3x"]})
    assert problem.message("zh").startswith("deck.remove：无法识别的牌 'x'")


def error(kind: str, msg: str, ctx: dict[str, Any] | None = None) -> ErrorDetails:
    details: ErrorDetails = {"type": kind, "loc": ("rules", "must_beat"), "msg": msg, "input": None}
    if ctx is not None:
        details["ctx"] = ctx
    return details


def test_an_unmapped_pydantic_error_keeps_its_english_in_both() -> None:
    problem = _field_problem(error("frobnicate", "Input should frobnicate"), None)
    assert problem.key == "pfv_other"
    assert problem.message("en") == "rules.must_beat: Input should frobnicate"
    assert problem.message("zh") == "rules.must_beat：Input should frobnicate"


def test_pydantic_wording_that_changed_falls_back_to_pydantic() -> None:
    """Our words stand in for pydantic's only where they say the same in English."""
    same = _field_problem(
        error("greater_than_equal", "Input should be greater than or equal to 4", {"ge": 4}), None
    )
    assert same.key == "pfv_greater_than_equal"
    other = _field_problem(error("greater_than_equal", "Value must be at least 4", {"ge": 4}), None)
    assert other.key == "pfv_other" and other.message("en") == "rules.must_beat: Value must be at least 4"
    missing_ctx = _field_problem(
        error("greater_than_equal", "Input should be greater than or equal to 4"), None
    )
    assert missing_ctx.key == "pfv_other"


def test_every_bad_field_is_named_in_both_languages() -> None:
    data = changed(players="three", rules__must_beet=True, end="never", hand_size=15)
    exc = raised(lambda: profile_from_dict(data, "mine.yaml"))
    fields = [p.field for p in exc.problems]
    # In the model's order; the whole-profile checks run only once every field is valid.
    assert fields == ["players", "rules.must_beet", "end"]
    seps: dict[Lang, str] = {"en": "; ", "zh": "；"}
    for lang, sep in seps.items():
        line = exc.message(lang)
        assert all(f in line for f in fields)
        assert line.count(sep) == 2
    data = changed(hand_size=15, rules__bao_pei=True)
    exc = raised(lambda: profile_from_dict(data, "mine.yaml"))
    assert [p.field for p in exc.problems] == ["hand_size", "rules.bao_pei"]


def test_an_invalid_profile_pickles_with_its_problems() -> None:
    data = changed(deck__remove=["3x"], end="never")
    exc = raised(lambda: profile_from_dict(data, "mine.yaml"))
    back = pickle.loads(pickle.dumps(exc))
    assert [p.message("zh") for p in back.problems] == [p.message("zh") for p in exc.problems]
    assert back.message("zh") == exc.message("zh") and str(back) == str(exc)


def test_a_copy_of_every_shipped_profile_still_validates() -> None:
    for path in sorted(variants_dir().glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert profile_from_dict(copy.deepcopy(data), str(path)).name


# -- the real program -------------------------------------------------------------------------


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


BAD_YAML = "name: x\nbase: classic16\nrules:\n  must_beat: maybe\n"


def commands(tmp: Path) -> list[tuple[list[str], str, str]]:
    """The four ways a player meets a bad profile: (arguments, English, 中文)."""
    missing = tmp / "nonexist.yaml"
    bad = write(tmp / "bad.yaml", BAD_YAML)
    en_bad = (
        f"{bad}: invalid profile: rules.must_beat: Input should be a valid boolean, unable to interpret input"
    )
    zh_bad = f"规则配置无效：{bad}：rules.must_beat：应为 true 或 false，无法识别所给的值"
    return [
        (
            ["moves", "--hand", "334", "--variant", str(missing)],
            f"{missing}: cannot read profile: No such file or directory",
            f"无法读取规则配置 {missing}：文件不存在",
        ),
        (["moves", "--hand", "334", "--variant", str(bad)], en_bad, zh_bad),
        (["variants", "check", str(bad)], en_bad, zh_bad),
        (
            ["moves", "--hand", "334", "--variant", "nosuch"],
            f"unknown variant 'nosuch' (known: {KNOWN}; or give a path to a .yaml file)",
            f"没有名为 'nosuch' 的规则配置（可选：{KNOWN}；也可以给出 .yaml 文件的路径）",
        ),
    ]


@pytest.mark.parametrize("which", range(4), ids=["missing-file", "bad-field", "check", "unknown-name"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pdk_says_a_bad_profile_in_one_line(tmp_path: Path, which: int, lang: str) -> None:
    args, en, zh = commands(tmp_path)[which]
    line = one_line(run_pdk(*args, "--lang", lang))
    assert line == f"pdk: error: {zh if lang == 'zh' else en}"
    assert bool(CJK.search(line)) == (lang == "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_variants_check_names_every_bad_field(tmp_path: Path, lang: str) -> None:
    bad = write(
        tmp_path / "bad.yaml",
        "base: classic16\nname: bad\nplayers: 5\nrules:\n  must_beet: true\n  bao_pei: yes\nend: never\n",
    )
    line = one_line(run_pdk("variants", "check", str(bad), "--lang", lang))
    for field in ("players", "end", "rules.must_beet"):
        assert field in line
    assert bool(CJK.search(line)) == (lang == "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_variants_check_names_cross_field_problems(tmp_path: Path, lang: str) -> None:
    bad = write(tmp_path / "bad.yaml", "base: classic16\nname: bad\nhand_size: 15\nrules:\n  bao_pei: true\n")
    line = one_line(run_pdk("variants", "check", str(bad), "--lang", lang))
    assert "hand_size" in line and "rules.bao_pei" in line
    if lang == "zh":
        assert "45 张，但这副牌有 48 张" in line and "包赔无从说起" in line
    else:
        assert "= 45, but the deck has 48 cards" in line and "turn one of them off" in line
