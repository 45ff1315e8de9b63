"""Bounded parsing (issue 13): every hostile document is a ``LimitError`` (or the parser's
own syntax error), never a RecursionError, a 4300-digit ValueError or an OverflowError."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdk.files.limits import (
    MAX_DEPTH,
    LimitError,
    LimitReason,
    check_length,
    loads_json,
    loads_yaml,
    read_bounded,
)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000])
@pytest.mark.parametrize("open_close", [("[", "]"), ('{"a":', "}")])
def test_deep_json_is_refused_before_parsing(depth: int, open_close: tuple[str, str]) -> None:
    o, c = open_close
    text = o * depth + ("1" if o != "[" else "") + c * depth
    with pytest.raises(LimitError) as info:
        loads_json(text)
    assert info.value.reason is LimitReason.TOO_DEEP


def test_json_as_deep_as_allowed_parses() -> None:
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    # Brackets inside strings are not nesting.
    assert loads_json(json.dumps(["[" * 1000])) == ["[" * 1000]


@pytest.mark.parametrize(
    "text",
    ["9" * 5000, "-" + "9" * 25, str(2**65), "Infinity", "-Infinity", "NaN", "1e999", "-1e400", "1e30"],
)
def test_json_numbers_are_bounded(text: str) -> None:
    with pytest.raises(LimitError):
        loads_json('{"seed": ' + text + "}")


def test_json_ordinary_numbers_pass() -> None:
    assert loads_json("[0, -1, 18446744073709551615, 1.5, -2e3]") == [0, -1, 2**64 - 1, 1.5, -2000.0]


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 5000 + "]" * 5000,
        "".join("  " * i + "a:\n" for i in range(2000)),
        "n: " + "9" * 5000,
        "n: 0x" + "f" * 40,
        "n: .inf",
        "n: -.inf",
        "n: .nan",
        "n: 1.0e+999",
    ],
)
def test_hostile_yaml_is_refused(text: str) -> None:
    with pytest.raises(LimitError):
        loads_yaml(text)


def test_yaml_alias_bomb_is_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    with pytest.raises(LimitError) as info:
        loads_yaml("\n".join(lines))
    assert info.value.reason is LimitReason.TOO_MANY


def test_recursive_yaml_is_refused() -> None:
    with pytest.raises((LimitError, yaml.YAMLError)):
        loads_yaml("a: &a [*a]")


def test_small_aliases_become_copies() -> None:
    data = loads_yaml("a: &x {k: 1}\nb: *x")
    assert data == {"a": {"k": 1}, "b": {"k": 1}}
    assert data["a"] is not data["b"]


def test_read_bounded_refuses_big_fifo_and_folder(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(3 << 30)  # sparse: 3 GB on paper, nothing on disk
    with pytest.raises(LimitError) as info:
        read_bounded(big, 1 << 20)
    assert info.value.reason is LimitReason.TOO_BIG
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LimitError) as info:
        read_bounded(fifo, 1 << 20)  # no writer: must not block
    assert info.value.reason is LimitReason.NOT_REGULAR
    with pytest.raises(IsADirectoryError):
        read_bounded(tmp_path, 1 << 20)
    with pytest.raises(LimitError):
        check_length("x" * 11, 10)


def test_messages_in_both_languages() -> None:
    err = LimitError(LimitReason.TOO_DEEP, limit=MAX_DEPTH)
    assert str(MAX_DEPTH) in err.message("en") and str(MAX_DEPTH) in err.message("zh")
    assert err.message("en") != err.message("zh")


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=40,
)


@FUZZ
@given(st.text(alphabet='[]{}",:0123456789.eE-+INaftynul \\', max_size=400))
def test_fuzz_json_text_only_syntax_or_limit_errors(text: str) -> None:
    with contextlib.suppress(json.JSONDecodeError, LimitError):
        loads_json(text)


@FUZZ
@given(_json_values)
def test_fuzz_json_documents_within_bounds_round_trip_or_are_refused(value: object) -> None:
    text = json.dumps(value)
    try:
        back = loads_json(text)
    except LimitError:
        return
    assert json.dumps(back) == text


@FUZZ
@given(st.text(alphabet="[]{}-:,&*!? \n\tax019.e+_", max_size=300))
def test_fuzz_yaml_text_only_syntax_or_limit_errors(text: str) -> None:
    with contextlib.suppress(yaml.YAMLError, LimitError):
        loads_yaml(text)
