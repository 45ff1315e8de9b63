"""``pdk replay`` end to end: transcripts, validation, bad input, and a real pseudo-terminal."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pexpect
import pytest

from pdk.files.limits import RECORD_BYTES
from pdk.records.disk import load
from tests.support import ROOT
from tests.support.cli import PDK, needs_binary, pdk_env, run_pdk

SAMPLES = ROOT / "replays"
ENV = pdk_env(120, TERM="xterm")

pytestmark = needs_binary


def spawn_replay(*args: str, dimensions: tuple[int, int]) -> pexpect.spawn:
    """``pdk replay`` in a real pseudo-terminal."""
    return pexpect.spawn(PDK, ["replay", *args], env=ENV, dimensions=dimensions, encoding="utf-8", timeout=20)


def one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for needle in needles:
        assert needle in lines[0]


@pytest.fixture(scope="module")
def jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("games") / "games.jsonl"
    proc = run_pdk(
        "selfplay",
        "-n",
        "3",
        "-p",
        "random,easy,random",
        "-w",
        "1",
        "--seed",
        "5",
        "--out",
        str(out),
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr
    return out


def record_data(name: str = "bomb_war.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: object, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def pass_where_must_beat(data: dict[str, Any]) -> int:
    """Turn the record's first follow that beat something into a pass (must-beat forbids it);
    the index of that play."""
    plays = data["plays"]
    n = next(i for i in range(1, len(plays)) if "cards" in plays[i] and "cards" in plays[i - 1])
    plays[n] = {"seat": plays[n]["seat"], "pass": True}
    return n


@pytest.mark.parametrize("name", ["shut_out.json", "bomb_war.json", "bao_dan_endgame.json"])
def test_print_and_check_every_sample(name: str) -> None:
    rec = load(SAMPLES / name)
    proc = run_pdk("replay", str(SAMPLES / name), "--print", "--lang", "en", env=ENV)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"{len(rec.actions)}. " in out
    assert "Settlement" in out and "wins" in out
    check = run_pdk("replay", str(SAMPLES / name), "--check", "--lang", "en", env=ENV)
    assert check.returncode == 0
    assert check.stdout.startswith("ok: ") and f"{len(rec.actions)} plays" in check.stdout


def test_print_in_chinese_with_one_seat_view() -> None:
    proc = run_pdk("replay", str(SAMPLES / "shut_out.json"), "--print", "--as", "0", "--lang", "zh", env=ENV)
    assert proc.returncode == 0
    assert "（暗牌）" in proc.stdout and "结算" in proc.stdout and "全关" in proc.stdout


def test_not_a_terminal_prints_the_transcript() -> None:
    proc = run_pdk("replay", str(SAMPLES / "bomb_war.json"), "--lang", "en", env=ENV)
    assert proc.returncode == 0
    assert (
        proc.stdout
        == run_pdk("replay", str(SAMPLES / "bomb_war.json"), "--print", "--lang", "en", env=ENV).stdout
    )


def test_explain_in_the_transcript(jsonl: Path) -> None:
    proc = run_pdk(
        "replay", str(jsonl), "--game", "1", "--print", "--explain", "--bot", "easy", "--lang", "en", env=ENV
    )
    assert proc.returncode == 0
    # Random players differ from the easy bot somewhere in a whole deal.
    assert "(easy would play" in proc.stdout


def test_jsonl_games(jsonl: Path) -> None:
    proc = run_pdk("replay", str(jsonl), "--game", "2", "--check", "--lang", "en", env=ENV)
    assert proc.returncode == 0 and "ok:" in proc.stdout
    all_games = run_pdk("replay", str(jsonl), "--check", "--lang", "en", env=ENV)
    assert all_games.returncode == 0 and "3 games" in all_games.stdout
    one_line_error(run_pdk("replay", str(jsonl), "--lang", "en", env=ENV), str(jsonl), "--game")
    one_line_error(run_pdk("replay", str(jsonl), "--game", "9", env=ENV), str(jsonl), "no game 9")


def test_check_names_the_game_whose_line_is_too_long(jsonl: Path, tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(jsonl.read_text(encoding="utf-8") + "[" * (RECORD_BYTES + 5) + "\n", encoding="utf-8")
    games = len([ln for ln in jsonl.read_text(encoding="utf-8").splitlines() if ln.strip()])
    one_line_error(
        run_pdk("replay", str(path), "--check", "--lang", "en", env=ENV), str(path), f"game {games + 1}"
    )
    assert run_pdk("replay", str(path), "--game", str(games), "--check", env=ENV).returncode == 0


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    one_line_error(run_pdk("replay", str(path), env=ENV), str(path), "no such file")


def test_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pdk-record", ', encoding="utf-8")
    one_line_error(run_pdk("replay", str(path), env=ENV), str(path), "invalid JSON")
    one_line_error(run_pdk("replay", str(path), "--check", env=ENV), str(path), "invalid JSON")


def test_not_a_record(tmp_path: Path) -> None:
    one_line_error(run_pdk("replay", str(write(tmp_path, [1, 2])), env=ENV), "not a pdk game record")


def test_unknown_version(tmp_path: Path) -> None:
    data = record_data()
    data["version"] = 99
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "r.json", "version 99")


def test_illegal_pass_names_the_move(tmp_path: Path) -> None:
    data = record_data()
    n = pass_where_must_beat(data)
    proc = run_pdk("replay", str(write(tmp_path, data)), "--check", env=ENV)
    one_line_error(proc, "r.json", f"move {n + 1}", "must beat")


def test_cards_not_in_hand(tmp_path: Path) -> None:
    data = record_data()
    data["plays"][0]["cards"] = data["deal"]["hands"][(data["plays"][0]["seat"] + 1) % 3][:2]
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "r.json", "move 1")


def test_out_of_turn_and_tampered_settlement(tmp_path: Path) -> None:
    data = record_data()
    data["plays"][1]["seat"] = data["plays"][0]["seat"]
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "move 2", "out of turn")
    data = record_data()
    data["result"]["seats"][0]["total"] += 1
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "settlement")


def test_oddly_shaped_record(tmp_path: Path) -> None:
    data = record_data()
    data["result"] = {"seats": [1, 2, 3]}
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "r.json")
    data = record_data()
    data["plays"] = [{"seat": "zero"}]
    one_line_error(run_pdk("replay", str(write(tmp_path, data)), env=ENV), "move 1")


def test_bad_options() -> None:
    one_line_error(run_pdk("replay", str(SAMPLES / "bomb_war.json"), "--as", "3", env=ENV), "--as")
    one_line_error(run_pdk("replay", str(SAMPLES / "bomb_war.json"), "--bot", "nobody", env=ENV), "nobody")
    one_line_error(run_pdk("replay", str(SAMPLES), env=ENV), str(SAMPLES))


@pytest.mark.e2e
def test_navigation_in_a_pseudo_terminal() -> None:
    rec = load(SAMPLES / "bomb_war.json")
    n = len(rec.actions)
    child = spawn_replay(
        str(SAMPLES / "bomb_war.json"), "--lang", "en", "--bot", "easy", dimensions=(60, 120)
    )
    try:
        child.expect(f"play 0/{n}")
        child.expect("leads")
        child.send("n")
        child.expect(f"play 1/{n}")
        child.send("\x1b[C")
        child.expect(f"play 2/{n}")
        child.send("p")
        child.expect(f"play 1/{n}")
        child.send("l")
        child.expect(f"play {n}/{n}")
        child.expect("Settlement")
        child.send("f")
        child.expect(f"play 0/{n}")
        child.send("g")
        child.expect("jump to play")
        child.sendline("5")
        child.expect(f"play 5/{n}")
        child.send("e")
        child.expect("What easy would play here")
        child.expect("the record plays")
        child.send("v")
        child.expect(r"\(hidden\)")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.e2e
@pytest.mark.parametrize("key", ["\x03", "\x1b"])
def test_ctrl_c_and_escape_leave_the_replay_cleanly(key: str) -> None:
    child = spawn_replay(str(SAMPLES / "shut_out.json"), "--as", "2", "--lang", "zh", dimensions=(40, 110))
    try:
        child.expect("第 0/7 手")
        child.expect("暗牌")
        child.send("l")
        child.expect("结算")
        child.send(key)
        child.expect(pexpect.EOF)
        assert "Traceback" not in (child.before or "")
    finally:
        child.close()
    assert child.exitstatus == 0


def test_errors_in_chinese(tmp_path: Path) -> None:
    one_line_error(
        run_pdk("replay", str(tmp_path / "nope.json"), "--lang", "zh", env=ENV), "nope.json", "文件不存在"
    )
    data = record_data()
    n = pass_where_must_beat(data)
    proc = run_pdk("replay", str(write(tmp_path, data)), "--lang", "zh", env=ENV)
    one_line_error(proc, "r.json", f"第 {n + 1} 手不合法", "有牌必压")


def test_transcript_of_a_play_to_the_last_deal_gives_places(tmp_path: Path) -> None:
    """In a profile that plays on after the first player is out, the transcript names each
    player's finishing place instead of calling every one of them the winner."""
    out = tmp_path / "j.jsonl"
    made = run_pdk(
        "selfplay",
        *("--variant", "jokers17", "--games", "3", "--players", "easy", "--workers", "1"),
        *("--out", str(out), "--json"),
        env=ENV,
    )
    assert made.returncode == 0, made.stderr
    text = run_pdk("replay", str(out), "--game", "1", "--print", "--lang", "en", env=ENV).stdout
    assert "is out: place 1" in text and "is out: place 2" in text
    assert "is out and wins" not in text


@pytest.mark.e2e
def test_t_plays_on_from_a_play_of_seat_0_against_the_computers(tmp_path: Path) -> None:
    # Issue 37: a replay position opens as a practice table. t where seat 0 does not move
    # says so and stays; on seat 0's play it leaves the replay for pdk play, same hands.
    rec = load(SAMPLES / "bomb_war.json")
    first = next(k for k, a in enumerate(rec.actions) if a.seat == 0)
    env = {**ENV, "PDK_DATA_DIR": str(tmp_path)}
    child = pexpect.spawn(
        PDK, ["replay", str(SAMPLES / "bomb_war.json"), "--lang", "en"],
        env=env, dimensions=(40, 100), encoding="utf-8", timeout=20,
    )
    try:
        child.expect("play 0/")
        if first:
            child.send("t")
            child.expect("step to one, then press")
            child.send("g")
            child.expect("jump to play")
            child.sendline(str(first))
        child.send("t")
        child.expect(f"Practice from play {first + 1} of")
        child.expect(r"play \(\? help\)> ")
        assert (tmp_path / "save.json").exists()  # a table like any other, resumed by pdk play
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_practice_options_are_one_line_errors(tmp_path: Path) -> None:
    sample = str(SAMPLES / "bomb_war.json")
    save = ["--save-dir", str(tmp_path)]
    one_line_error(run_pdk("play", "--from", sample, *save, env=ENV), "--at N")
    one_line_error(run_pdk("play", "--from", sample, "--at", "1", *save, env=ENV), "not yours", "plays 3, 6")
    one_line_error(run_pdk("play", "--from", sample, "--at", "999", *save, env=ENV), "play 999 of 32")
    missing = str(tmp_path / "no.json")
    one_line_error(run_pdk("play", "--from", missing, "--at", "3", *save, env=ENV), "no.json")
    one_line_error(run_pdk("play", "--at", "3", *save, env=ENV), "--from FILE")
    joined = ["--join", "http://x/room/a#k=b"]
    one_line_error(run_pdk("play", "--from", sample, "--at", "3", *joined, env=ENV), "--join")
    assert not (tmp_path / "save.json").exists()
