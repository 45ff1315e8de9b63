"""``pdk variants`` (list, show, check) and ``pdk moves --variant`` through the real binary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdk.engine.profile import Profile
from pdk.variants.registry import available_profiles, load_profile
from pdk.view.rules_in_words import explain
from tests.support.cli import run_pdk

NAMES = sorted(p.name for p in available_profiles())


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_every_variants_table_profile_ships() -> None:
    wanted = {
        "classic16", "classic15", "jokers17", "jokers17-hunan", "jokers17-guangdong",
        "jokers17-sichuan", "jokers17-big-single", "draw4", "two-player", "four-player",
        "two-deck", "hearts3",
    }  # fmt: skip
    assert wanted <= set(NAMES)


def test_variants_lists_every_profile_with_a_description() -> None:
    out = run_pdk("variants", "--lang", "en")
    assert out.returncode == 0, out.stderr
    for p in available_profiles():
        assert p.name in out.stdout
    assert "joker bomb" in out.stdout
    data = json.loads(run_pdk("variants", "--json").stdout)
    assert {row["name"] for row in data} == set(NAMES)
    assert all(row["description"]["zh"] and row["description"]["en"] for row in data)


@pytest.mark.parametrize("name", NAMES)
def test_show_explains_in_both_languages(name: str) -> None:
    en = run_pdk("variants", "show", name, "--lang", "en")
    zh = run_pdk("variants", "show", name, "--lang", "zh")
    assert en.returncode == 0 and zh.returncode == 0
    profile = load_profile(name)
    assert f"{profile.players} players, {profile.hand_size} cards each" in en.stdout
    assert f"{profile.players} 人，每人 {profile.hand_size} 张" in zh.stdout
    assert ("Must beat" in en.stdout) == profile.rules.must_beat
    assert ("有牌必压" in zh.stdout) == profile.rules.must_beat


def test_show_details_follow_the_knobs() -> None:
    jokers = run_pdk("variants", "show", "jokers17", "--lang", "en").stdout
    assert "four of a kind < the joker bomb" in jokers and "No planes" in jokers
    assert "Pair chain: 3 or more" in jokers and "You may always pass" in jokers
    two_deck = run_pdk("variants", "show", "two-deck", "--lang", "zh").stdout
    assert "同花顺" in two_deck and "天王炸" in two_deck and "A2345" in two_deck
    four = run_pdk("variants", "show", "4p", "--lang", "en").stdout
    assert "pays x4" in four and "fewer than 1/4 of their hand pays x3" in four
    data = json.loads(run_pdk("variants", "show", "hunan", "--json", "--lang", "en").stdout)
    assert data["name"] == "jokers17-hunan"
    assert any("must contain ♠3" in line for s in data["sections"] for line in s["rules"])


def test_explanation_is_generated_from_the_knobs() -> None:
    classic = load_profile("classic16")
    data = classic.model_dump()
    data["rules"]["must_beat"] = False
    data["combinations"]["straight"]["min_length"] = 6
    changed = Profile.model_validate(data)
    before, after = explain(classic, "en"), explain(changed, "en")
    assert "Straight: 5 or more" in before and "Straight: 6 or more" in after
    assert "Must beat" in before and "Must beat" not in after


def test_show_unknown_variant_is_one_line_exit_2() -> None:
    out = run_pdk("variants", "show", "nope")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "unknown variant" in out.stderr


def test_check_accepts_a_good_profile_and_a_based_one(tmp_path: Path) -> None:
    mine = write(
        tmp_path / "mine.yaml",
        "base: jokers17\nname: mine\ntitle: {en: Mine, zh: 我的}\n"
        "description: {en: jokers17 with must-beat, zh: 有牌必压}\nrules: {must_beat: true}\n",
    )
    out = run_pdk("variants", "check", str(mine))
    assert out.returncode == 0, out.stderr
    assert "valid profile 'mine'" in out.stdout or "配置有效" in out.stdout
    assert load_profile(mine).rules.must_beat and load_profile(mine).deck.jokers


def test_check_names_every_bad_field(tmp_path: Path) -> None:
    bad = write(
        tmp_path / "bad.yaml",
        "name: bad\ntitle: {en: B, zh: B}\ndescription: {en: B, zh: B}\nplayers: 5\n"
        "combinations:\n  straight: {min_length: 0}\n  trio: {kickerz: 2}\nbombs: {four: maybe}\n",
    )
    out = run_pdk("variants", "check", str(bad))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    for field in ("players", "combinations.straight.min_length", "combinations.trio.kickerz", "bombs.four"):
        assert field in out.stderr
    assert str(bad) in out.stderr


def test_check_names_impossible_settings(tmp_path: Path) -> None:
    bad = write(
        tmp_path / "bad.yaml",
        "base: classic16\nname: bad\nhand_size: 17\ncombinations: {trio: {kickers: 1, min_kickers: 2}}\n"
        "rules: {bao_pei: true}\nend: last_one\nbombs: {joker_pair: true}\n",
    )
    out = run_pdk("variants", "check", str(bad))
    assert out.returncode == 2
    for field in (
        "hand_size",
        "combinations.trio.min_kickers",
        "rules.bao_pei",
        "settlement.scheme",
        "bombs.joker_pair",
    ):
        assert field in out.stderr
    missing = run_pdk("variants", "check", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_moves_with_variants() -> None:
    out = run_pdk("moves", "--variant", "jokers17", "--hand", "5 9 K", "--beat", "4", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["can_pass"] is True
    out = run_pdk("moves", "--variant", "two-deck", "--hand", "3h4h5h6h7h 9", "--beat", "TJQKA", "--json")
    plays = json.loads(out.stdout)["plays"]
    assert plays == [{"cards": "34567", "kind": "straight_flush"}]
    # A --beat written with one suit throughout is a straight flush; only a higher one beats it.
    out = run_pdk(
        "moves", "--variant", "two-deck", "--hand", "3h4h5h6h7h8h 9", "--beat", "4d5d6d7d8d", "--json"
    )
    assert json.loads(out.stdout)["plays"] == []
    out = run_pdk(
        "moves", "--variant", "two-deck", "--hand", "3h4h5h6h7h8h 9", "--beat", "4s5c6s7s8s", "--json"
    )
    assert {(p["cards"], p["kind"]) for p in json.loads(out.stdout)["plays"]} == {
        ("34567", "straight_flush"),
        ("45678", "straight_flush"),
        ("56789", "straight"),
    }
    out = run_pdk("moves", "--variant", "hearts3", "--hand", "888 5 6", "--beat", "7773", "--json")
    kinds = {p["kind"] for p in json.loads(out.stdout)["plays"]}
    assert kinds == {"trio_with_one"}
    out = run_pdk("moves", "--variant", "jokers17-big-single", "--hand", "B R", "--play", "BR", "--json")
    assert out.returncode == 1 and json.loads(out.stdout)["legal"] is False


def test_show_yaml_prints_the_file_with_its_comments(tmp_path: Path) -> None:
    out = run_pdk("variants", "show", "jokers17", "--yaml")
    assert out.returncode == 0
    assert "order: [same_rank, joker_pair]" in out.stdout and "王炸大于四张炸弹" in out.stdout
    copy = write(tmp_path / "copy.yaml", out.stdout.replace("name: jokers17", "name: my17"))
    assert run_pdk("variants", "check", str(copy)).returncode == 0
    assert load_profile(copy).bomb_kinds == load_profile("jokers17").bomb_kinds
