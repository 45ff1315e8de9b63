"""The text record (``pdk replay FILE --export txt``): every shipped profile's deals read
back to the identical record; comments are kept; a tampered text is refused by move."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdk.engine.deal import deal_seed
from pdk.engine.record import GameRecord, RecordError, dumps, loads
from pdk.match.run import GameTask, play_game
from pdk.records.text_record import dumps_text, loads_text
from pdk.variants.registry import available_profiles, load_profile
from tests.support.cli import run_pdk


def _records(name: str, n: int = 6) -> list[GameRecord]:
    profile = load_profile(name)
    out = []
    for d in range(n):
        bots = ("random", "easy", "normal", "random")[: profile.players]
        res = play_game(profile, GameTask(d, d, 0, deal_seed(11, d), bots, True))
        assert res.record is not None
        out.append(loads(res.record))
    return out


@pytest.mark.parametrize("name", [p.name for p in available_profiles()])
def test_every_profile_reads_back_to_the_identical_record(name: str) -> None:
    for record in _records(name):
        text = dumps_text(record)
        back = loads_text(text)
        assert back == record and dumps(back) == dumps(record)
        assert dumps_text(back) == text  # and the text is stable


def test_a_profile_that_is_not_shipped_travels_whole() -> None:
    record = _records("classic16", 1)[0]
    custom = record.profile.model_copy(update={"name": "my-house-rules"})
    mine = GameRecord(custom, record.deal, record.seed, record.actions, record.meta)
    text = dumps_text(mine)
    assert '[ProfileData "' in text
    assert loads_text(text) == mine


def test_comments_are_kept_by_move() -> None:
    record = _records("classic16", 1)[0]
    lines = dumps_text(record).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[first] += " {opens with the lowest card}"
    back = loads_text("\n".join(lines))
    assert back.meta["comments"] == {"1": "opens with the lowest card"}
    assert "{opens with the lowest card}" in dumps_text(back)


def test_a_tampered_text_is_refused_with_the_move() -> None:
    record = _records("classic16", 1)[0]
    lines = dumps_text(record).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    seat = lines[i].split()[1]
    lines[i] = f"2. {seat} 2s single"  # a card that seat may not hold, or a play out of turn
    with pytest.raises(RecordError):
        loads_text("\n".join(lines))
    with pytest.raises(RecordError):
        loads_text(dumps_text(record).replace("[Result", '[Result "0: +99"]\n[X'))


def test_replay_exports_and_reads_the_text(tmp_path: Path) -> None:
    proc = run_pdk("replay", "replays/bomb_war.json", "--export", "txt")
    assert proc.returncode == 0 and proc.stdout.startswith('[Format "pdk-text 1"]')
    txt = tmp_path / "bomb_war.txt"
    txt.write_text(proc.stdout, encoding="utf-8")
    again = run_pdk("replay", str(txt), "--export", "json")
    original = run_pdk("replay", "replays/bomb_war.json", "--export", "json")
    assert again.returncode == 0 and again.stdout == original.stdout
    shown = run_pdk("replay", str(txt), "--print")
    assert (
        shown.returncode == 0 and shown.stdout == run_pdk("replay", "replays/bomb_war.json", "--print").stdout
    )
    bad = run_pdk("replay", "replays/bomb_war.json", "--export", "pgn")
    assert bad.returncode == 2 and "choose txt or json" in bad.stderr
