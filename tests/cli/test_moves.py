"""``pdk moves`` end to end: the real binary, its listing, its JSON, its verdicts and exit codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pdk.engine.cards import cards_of, format_cards
from pdk.engine.deal import deal
from pdk.engine.position import Position
from pdk.variants.registry import load_profile
from tests.support.cli import run_pdk

# The seven classic16 kinds (docs/rules.md); the JSON of `pdk moves` must use these labels.
KINDS = {"single", "pair", "pair_chain", "straight", "trio_with_two", "plane", "bomb"}


def pdk_json(*args: str, code: int = 0) -> Any:
    proc = run_pdk(*args, "--json", columns=100)
    assert proc.returncode == code, proc.stderr
    return json.loads(proc.stdout)


def test_listing_when_leading() -> None:
    proc = run_pdk("moves", "--hand", "33445", "--lang", "en", columns=100)
    assert proc.returncode == 0, proc.stderr
    assert "6 legal plays" in proc.stdout
    for cards in ("3344", "33", "44", "5"):
        assert cards in proc.stdout
    assert "pair chain" in proc.stdout
    assert "passing is not allowed" in proc.stdout


def test_listing_in_chinese() -> None:
    proc = run_pdk("moves", "--hand", "33445", "--lang", "zh", columns=100)
    assert proc.returncode == 0, proc.stderr
    assert "共 6 种合法出牌" in proc.stdout
    assert "连对" in proc.stdout and "对子" in proc.stdout and "单张" in proc.stdout
    assert "不能不出" in proc.stdout


def test_listing_when_nothing_beats() -> None:
    proc = run_pdk("moves", "--hand", "T K", "--beat", "A", "--lang", "en", columns=100)
    assert proc.returncode == 0
    assert "0 legal plays" in proc.stdout and "must pass" in proc.stdout


def test_json_shape_when_leading() -> None:
    out = pdk_json("moves", "--hand", "334455 TJQKA 2")
    assert set(out) == {"can_pass", "plays"}
    assert out["can_pass"] is False
    assert all(set(p) == {"cards", "kind"} and p["kind"] in KINDS for p in out["plays"])
    plays = {(p["cards"], p["kind"]) for p in out["plays"]}
    assert ("334455", "pair_chain") in plays
    assert ("TJQKA", "straight") in plays
    assert ("2", "single") in plays
    assert len(plays) == len(out["plays"])  # plays differing only in suit are listed once


def test_json_spade2_example_under_bao_dan() -> None:
    out = pdk_json("moves", "--hand", "T K 2s", "--beat", "9", "--next-holds", "1")
    assert out == {"can_pass": False, "plays": [{"cards": "2", "kind": "single"}]}
    out = pdk_json("moves", "--hand", "T K 2s", "--beat", "9", "--next-holds", "2")
    assert {p["cards"] for p in out["plays"]} == {"T", "K", "2"}


def test_json_can_pass_when_nothing_beats() -> None:
    assert pdk_json("moves", "--hand", "T K 33", "--beat", "A") == {"can_pass": True, "plays": []}


def test_json_bombs_must_beat() -> None:
    out = pdk_json("moves", "--hand", "3333 4", "--beat", "2s")
    assert out == {"can_pass": False, "plays": [{"cards": "3333", "kind": "bomb"}]}


def test_json_agrees_with_the_engine_on_dealt_hands() -> None:
    profile = load_profile()
    for seed in (1, 2):
        d = deal(profile, seed)
        hand = format_cards(cards_of(d.hands[0]), suits=True)
        out = pdk_json("moves", "--hand", hand)
        expected = {(m.notation(), m.kind.label) for m in Position(profile, d.hands[0]).legal_moves()}
        assert {(p["cards"], p["kind"]) for p in out["plays"]} == expected


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["--hand", "T K 2s", "--beat", "9", "--next-holds", "1", "--play", "2"], "single"),
        (["--hand", "33344 5", "--play", "33344"], "trio_with_two"),
        (["--hand", "8885", "--beat", "777 34", "--play", "8885"], "trio_with_two"),
        (["--hand", "T K", "--beat", "A", "--play", "pass"], "pass"),
    ],
)
def test_play_legal_exits_0(args: list[str], kind: str) -> None:
    out = pdk_json("moves", *args)
    assert out == {"legal": True, "kind": kind, "reason": None}
    proc = run_pdk("moves", *args, "--lang", "en", columns=100)
    assert proc.returncode == 0 and proc.stdout.startswith("legal")


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--hand", "T K 2s", "--beat", "9", "--next-holds", "1", "--play", "T"], "highest"),
        (["--hand", "T K 2s", "--beat", "9", "--play", "pass"], "must beat"),
        (["--hand", "333 5 9", "--play", "3335"], "kickers"),
        (["--hand", "5555 9", "--play", "55"], "bomb"),
        (["--hand", "34 9", "--play", "34"], "not a combination"),
        (["--hand", "8 9", "--beat", "9", "--play", "8"], "does not beat"),
        (["--hand", "8 9", "--play", "pass"], "cannot pass"),
    ],
)
def test_play_illegal_exits_1_with_the_reason(args: list[str], reason: str) -> None:
    out = pdk_json("moves", *args, "--lang", "en", code=1)
    assert out["legal"] is False and out["kind"] is None
    assert reason in out["reason"]
    proc = run_pdk("moves", *args, "--lang", "en", columns=100)
    assert proc.returncode == 1
    assert proc.stdout.startswith("illegal:") and reason in proc.stdout


def test_play_illegal_reason_in_chinese() -> None:
    proc = run_pdk(
        "moves",
        "--hand",
        "T K 2s",
        "--beat",
        "9",
        "--next-holds",
        "1",
        "--play",
        "T",
        "--lang",
        "zh",
        columns=100,
    )
    assert proc.returncode == 1
    assert "报单" in proc.stdout and "2" in proc.stdout
    out = pdk_json("moves", "--hand", "T K 2s", "--beat", "9", "--play", "pass", "--lang", "zh", code=1)
    assert "有牌必压" in out["reason"]


@pytest.mark.parametrize(
    "args",
    [
        ["--hand", "3x"],
        ["--hand", "334455", "--beat", "1"],
        ["--hand", "334455", "--beat", "34"],  # not a combination
        ["--hand", "3s", "--beat", "3s"],  # the beat cannot use the hand's cards
        ["--hand", "As"],  # not in the classic16 deck
        ["--hand", "33", "--lang", "fr"],
    ],
)
def test_malformed_input_exits_2_with_one_line(args: list[str]) -> None:
    proc = run_pdk("moves", *args, columns=100)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pdk: error:"), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_malformed_play_is_refused_with_one_line() -> None:
    proc = run_pdk("moves", "--hand", "334455", "--play", "3x", "--lang", "en", columns=100)
    assert proc.returncode != 0
    assert "'x'" in proc.stdout + proc.stderr
    assert len((proc.stdout + proc.stderr).strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ("moves",),  # missing --hand
        ("moves", "--hand", "3", "--next-holds", "0"),  # out of range
        ("moves", "--hand", "3", "--bogus"),  # unknown option
        ("movez",),  # unknown command
        ("moves", "--hand", "3", "--play", "4x"),  # malformed play
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    r = run_pdk(*args, columns=100)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pdk: error: ")
    assert "Traceback" not in r.stderr


def test_a_card_not_in_hand_is_an_illegal_play_in_both_languages() -> None:
    en = run_pdk("moves", "--hand", "3", "--play", "4", "--lang", "en", columns=100)
    zh = run_pdk("moves", "--hand", "3", "--play", "4", "--lang", "zh", columns=100)
    assert en.returncode == zh.returncode == 1
    assert "do not hold" in en.stdout and "没有" in zh.stdout


@pytest.mark.parametrize("variant", ["two-deck", "four-player-004"])
def test_ranks_without_suits_are_no_straight_flush(variant: str) -> None:
    # unsuited ranks once all took ♠, so every typed straight was a 同花顺
    got = run_pdk(
        "moves",
        "-v",
        variant,
        "--hand",
        "34567",
        "--beat",
        "56789",
        "--play",
        "34567",
        "--lang",
        "en",
        columns=100,
    )
    assert got.returncode == 1 and "does not beat" in got.stdout
    listing = pdk_json("moves", "-v", variant, "--hand", "3456789", "--beat", "56789")
    assert listing == {"can_pass": True, "plays": []}
    suited = pdk_json("moves", "-v", variant, "--hand", "3h4h5h6h7h", "--beat", "56789")
    assert [p["kind"] for p in suited["plays"]] == ["straight_flush"]


def test_a_suit_named_by_beat_is_left_out_of_the_hands_free_choice() -> None:
    # --hand 3 took ♠3, and then --beat 3s was "not available"
    assert pdk_json("moves", "--hand", "3", "--beat", "3s") == {"can_pass": True, "plays": []}
    assert pdk_json("moves", "--hand", "4", "--beat", "3s")["plays"] == [{"cards": "4", "kind": "single"}]
    clash = run_pdk("moves", "--hand", "3s", "--beat", "3s", "--lang", "en", columns=100)
    assert clash.returncode == 2 and "not available" in clash.stderr and clash.stderr.count("\n") == 1


def test_plays_are_quoted_as_they_read() -> None:
    # A and 2 below 3 read first (it said "345A2"); the player's own trio reads body first
    # ("5 7 888 does not beat ..."); a ten is 10.
    low = run_pdk(
        "moves", "-v", "two-deck", "--hand", "A2345", "--play", "A2345", "--lang", "en", columns=100
    )
    assert low.stdout.strip() == "legal: A 2 3 4 5 as straight"
    pairs = run_pdk(
        "moves", "-v", "two-deck", "--hand", "AA2233", "--play", "AA2233", "--lang", "en", columns=100
    )
    assert pairs.stdout.strip() == "legal: AA 22 33 as pair chain"
    trio = run_pdk(
        "moves", "--hand", "88857", "--beat", "TTT34", "--play", "88857", "--lang", "en", columns=100
    )
    assert trio.returncode == 1 and "888 + 5 7 does not beat 10 10 10 + 3 4" in trio.stdout
