"""Profile validation: every bad profile is a ``ProfileError`` naming the file and the field."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pydantic
import pytest
import yaml

from pdk.engine.profile import Profile, ProfileError
from pdk.variants.registry import load_profile, variants_dir

CLASSIC_YAML = variants_dir() / "classic16.yaml"


def classic_data() -> dict[str, Any]:
    data = yaml.safe_load(CLASSIC_YAML.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def write(tmp_path: Path, data: object, name: str = "broken.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def error_for(path: Path) -> str:
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message
    return message


def error_with(tmp_path: Path, field: str, value: object) -> str:
    """The error for classic16 with ``field`` (a dotted key path) set to ``value``."""
    data = classic_data()
    *parents, last = field.split(".")
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    return error_for(write(tmp_path, data))


def test_classic16_is_the_default_and_loads_by_name_alias_and_path() -> None:
    default = load_profile()
    assert default.name == "classic16"
    assert load_profile("classic16") == default
    assert load_profile("classic") == default
    assert load_profile("16") == default
    assert load_profile(CLASSIC_YAML) == default
    assert load_profile(str(CLASSIC_YAML)) == default


def test_profile_is_frozen() -> None:
    profile = load_profile()
    with pytest.raises(pydantic.ValidationError):
        profile.hand_size = 17  # type: ignore[misc]


def test_a_copy_of_classic16_validates(tmp_path: Path) -> None:
    assert load_profile(write(tmp_path, classic_data(), "mine.yaml")).hand_size == 16


def test_typo_field_is_named(tmp_path: Path) -> None:
    data = classic_data()
    data["hand_sise"] = data.pop("hand_size")
    message = error_for(write(tmp_path, data))
    assert "hand_sise" in message


def test_nested_typo_field_is_named(tmp_path: Path) -> None:
    assert "rules.must_beet" in error_with(tmp_path, "rules.must_beet", True)


def test_wrong_type_is_named(tmp_path: Path) -> None:
    assert "players" in error_with(tmp_path, "players", "three")
    assert "rules.must_beat" in error_with(tmp_path, "rules.must_beat", "sometimes")


def test_hand_sizes_that_do_not_fit_the_deck(tmp_path: Path) -> None:
    message = error_with(tmp_path, "hand_size", 15)
    assert "hand_size" in message and "48" in message
    assert "hand_size" in error_with(tmp_path, "deck.remove", ["2h", "2c", "2d"])  # 49 cards for 3 x 16


def test_straight_min_length_zero_is_refused(tmp_path: Path) -> None:
    assert "combinations.straight.min_length" in error_with(tmp_path, "combinations.straight.min_length", 0)


def test_bad_card_names_and_chain_ranks_are_refused(tmp_path: Path) -> None:
    assert "lead.card" in error_with(tmp_path, "lead.card", "3x")
    assert "chain_ranks" in error_with(tmp_path, "combinations.chain_ranks", "3579")


def test_lead_card_must_be_in_the_deck(tmp_path: Path) -> None:
    assert "lead.card" in error_with(tmp_path, "lead.card", "As")  # removed from classic16


def test_invalid_yaml_and_non_mapping(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: [unclosed\n", encoding="utf-8")
    assert "YAML" in error_for(path)
    assert "mapping" in error_for(write(tmp_path, ["a", "list"], "list.yaml"))


def test_missing_file_and_unknown_name(tmp_path: Path) -> None:
    error_for(tmp_path / "nowhere.yaml")
    with pytest.raises(ProfileError, match="unknown variant 'no-such-variant'"):
        load_profile("no-such-variant")


def test_every_shipped_profile_validates() -> None:
    for path in sorted(variants_dir().glob("*.yaml")):
        assert isinstance(load_profile(path), Profile)


def test_pdk_moves_with_a_broken_variant_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    data = classic_data()
    data["combinations"]["straight"]["min_length"] = 0
    path = write(tmp_path, data)
    proc = subprocess.run(
        ["pdk", "moves", "--hand", "334455", "--variant", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(path) in lines[0] and "combinations.straight.min_length" in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
