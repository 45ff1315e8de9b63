"""House rules (``pdk.variants.options``, ``pdk variants options|new``): the options a table
may switch on a shipped profile, each mapped to its profile fields, and a mix validated as a
YAML profile is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdk.engine.position import Reason
from pdk.engine.profile import Profile, ProfileError
from pdk.variants.options import OptionError, build, chosen_fields, house_rules, house_yaml
from pdk.variants.registry import load_profile
from tests.support.cli import run_pdk
from tests.support.positions import Judge, refused


def _house(base: Profile, **chosen: str) -> Profile:
    return build(base, chosen_fields(base, chosen))


def test_classic16_offers_every_house_rule_with_what_it_plays(classic: Profile) -> None:
    rules = {r.key: r for r in house_rules(classic)}
    assert {k: r.current for k, r in rules.items()} == {
        "must_beat": "on",
        "trio": "3+2",
        "short_last_hand": "on",
        "unbreakable": "on",
        "three_aces": "off",
        "bomb_bonus": "10",
        "shut_out": "2",
        "bao_dan": "on",
        "bao_pei": "off",
        "later_leads": "card",
        "players": "3",
        "zha_niao": "off",
    }
    assert [c.value for c in rules["players"].choices] == ["2", "3", "4"]
    assert rules["players"].choices[0].sets == (
        ("players", 2), ("hand_size", 16), ("dummy_hands", 1), ("lead.fallback", True)
    )  # fmt: skip
    assert rules["zha_niao"].fields == ("settlement.zha_niao",)
    assert rules["later_leads"].choices[0].label.text("zh") == "持 ♠3 的人"


def test_each_choice_sets_its_fields(classic: Profile) -> None:
    p = _house(classic, must_beat="off", trio="3+1", three_aces="on", bomb_bonus="5", shut_out="3",
               later_leads="winner", players="4", zha_niao="2")  # fmt: skip
    assert not p.rules.must_beat and p.combinations.trio.kickers == p.combinations.plane.kickers_per_trio == 1
    assert p.bombs.three_aces and p.settlement.bomb_bonus == 5 and p.settlement.shut_out_multiplier == 3
    assert p.lead.winner_leads and (p.players, p.hand_size) == (4, 12)
    assert p.settlement.zha_niao is not None and p.settlement.zha_niao.factor == 2
    assert p.name == "classic16-house" and p.title.zh == "十六张跑得快（家规）"
    assert "有牌必压：关" in p.description.zh and "红桃10扎鸟：×2" in p.description.zh


def test_an_impossible_mix_is_refused_with_the_field_and_reason(classic: Profile) -> None:
    with pytest.raises(ProfileError) as info:
        _house(classic, bao_pei="on")  # 报单's highest single is still on
    assert [p.field for p in info.value.problems] == ["rules.bao_pei"]
    assert "报单" in info.value.message("zh")
    assert _house(classic, bao_pei="on", bao_dan="off").rules.bao_pei


def test_unknown_rules_and_choices_are_refused(classic: Profile) -> None:
    with pytest.raises(OptionError, match="no house rule 'mustbeat'"):
        chosen_fields(classic, {"mustbeat": "off"})
    with pytest.raises(OptionError, match="'5' is not offered"):
        chosen_fields(classic, {"players": "5"})


def test_only_what_the_deck_allows_is_offered() -> None:
    jokers = {r.key for r in house_rules(load_profile("jokers17"))}
    assert "players" not in jokers and "zha_niao" in {r.key for r in house_rules(load_profile("four-player"))}
    placement = {r.key for r in house_rules(load_profile("four-player-004"))}
    assert "trio" not in placement


def test_must_beat_off_lets_a_player_pass_who_could_beat(classic: Profile) -> None:
    hand, beat = "9 K", "T"
    assert refused(Judge(classic), hand, None, beat) is Reason.MUST_BEAT
    free = Judge(_house(classic, must_beat="off"))
    assert free.check(free.pos(hand, beat), None) is None


def test_house_yaml_names_the_base_and_only_what_differs(classic: Profile) -> None:
    text = house_yaml("classic16", classic, _house(classic, must_beat="off"))
    assert text.startswith("base: classic16\n")
    assert "must_beat: false" in text and "bomb_bonus" not in text


def test_variants_new_writes_a_profile_every_command_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = run_pdk("variants", "new", "home", "--base", "classic16", "--set", "rules.must_beat=false",
                   "--rule", "zha_niao=2", "--lang", "en")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "home.yaml" in made.stdout and (tmp_path / "home.yaml").exists()
    assert run_pdk("variants", "check", "home.yaml").returncode == 0
    shown = run_pdk("variants", "show", "home.yaml", "--json")
    profile = json.loads(shown.stdout)["profile"]
    assert profile["rules"]["must_beat"] is False and profile["settlement"]["zha_niao"]["factor"] == 2
    played = run_pdk("selfplay", "-v", "home.yaml", "-p", "easy,easy,easy", "--games", "2", "--seed", "1",
                     "-w", "1", "--out", "h.jsonl")  # fmt: skip
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "h.jsonl").read_text().splitlines()[0])
    assert record["profile"]["settlement"]["zha_niao"] == {"card": "Th", "factor": 2}
    other = run_pdk("variants", "new", "x", "--rule", "players=4", "--out", str(tmp_path / "sub.yaml"))
    assert other.returncode == 0 and (tmp_path / "sub.yaml").exists() and not (tmp_path / "x.yaml").exists()


def test_variants_new_refuses_an_impossible_mix_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = run_pdk("variants", "new", "bad", "--set", "rules.bao_pei=true", "--lang", "en")
    assert bad.returncode == 2 and "rules.bao_pei" in bad.stderr
    typo = run_pdk("variants", "new", "bad", "--set", "rules.must_beet=false", "--lang", "en")
    assert typo.returncode == 2 and "rules.must_beet" in typo.stderr
    assert not (tmp_path / "bad.yaml").exists()


def test_variants_options_lists_rules_and_fields() -> None:
    out = run_pdk("variants", "options", "classic16", "--json")
    rows = {r["key"]: r for r in json.loads(out.stdout)}
    assert rows["must_beat"]["fields"] == ["rules.must_beat"] and rows["zha_niao"]["current"] == "off"
