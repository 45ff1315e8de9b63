"""``pdk selfplay`` end to end, through the installed ``pdk`` program."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pdk.engine.record import loads
from tests.support.cli import PDK, needs_binary, pdk_env, run_pdk
from tests.support.tooling import until

ENV = pdk_env(120)


def as_json(*args: str) -> dict[str, Any]:
    proc = run_pdk("selfplay", "--json", *args, env=ENV)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


pytestmark = needs_binary


def test_summary_table_names_every_statistic() -> None:
    proc = run_pdk("selfplay", "--games", "30", "--players", "random,easy,easy", "--workers", "1", env=ENV)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for word in ("seat", "bot", "deals", "wins", "win %", "score", "95% CI", "bombs", "全关", "plays"):
        assert word in out
    assert "random" in out and "easy" in out
    assert "deals/s" in out
    assert "30 deals in" in out
    assert proc.stderr == ""  # no progress bar when not on a terminal


def test_summary_in_chinese() -> None:
    proc = run_pdk("selfplay", "-n", "5", "-p", "random", "-w", "1", "--lang", "zh", env=ENV)
    assert proc.returncode == 0
    assert "胜率" in proc.stdout and "被全关" in proc.stdout and "每秒" in proc.stdout


def test_json_shape() -> None:
    data = as_json("-n", "20", "-p", "random,easy,random", "-w", "1", "--seed", "4")
    assert data["games"] == 20
    assert isinstance(data["deals_per_s"], float | int) and data["deals_per_s"] > 0
    assert [p["seat"] for p in data["players"]] == [0, 1, 2]
    assert [p["bot"] for p in data["players"]] == ["random", "easy", "random"]
    for p in data["players"]:
        assert set(p) >= {"seat", "bot", "wins", "score_mean", "ci95"}
        lo, hi = p["ci95"]
        assert lo <= p["score_mean"] <= hi
    assert sum(p["wins"] for p in data["players"]) == 20
    bots = {b["bot"]: b for b in data["bots"]}
    assert set(bots) == {"random", "easy"}
    assert bots["random"]["deals"] == 40 and bots["easy"]["deals"] == 20
    for b in bots.values():
        assert set(b) >= {"bot", "deals", "wins", "win_rate", "score_mean", "ci95"}
        assert b["win_rate"] == pytest.approx(b["wins"] / b["deals"], abs=1e-4)


def test_duplicate_pools_every_arrangement() -> None:
    data = as_json("-n", "6", "-p", "random,easy,easy", "-w", "1", "--duplicate")
    assert data["games"] == 6 and data["arrangements"] == 3 and data["games_played"] == 18
    bots = {b["bot"]: b for b in data["bots"]}
    assert bots["random"]["deals"] == 18 and bots["easy"]["deals"] == 36
    assert all(p["deals"] == 6 for p in data["players"])


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("deals_per_s", "seconds", "workers")}


def test_same_seed_same_results_whatever_the_workers(tmp_path: Path) -> None:
    args = ["-n", "24", "-p", "random,easy,random", "--seed", "77", "--duplicate"]
    one = as_json(*args, "--workers", "1", "--out", str(tmp_path / "one.jsonl"))
    two = as_json(*args, "--workers", "2", "--out", str(tmp_path / "two.jsonl"))
    assert _stable(one) == _stable(two)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    other = as_json(*args[:-3], "--seed", "78", "--duplicate", "--workers", "1")
    assert _stable(other) != _stable(one)


def test_out_writes_every_record(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    proc = run_pdk("selfplay", "-n", "7", "-p", "easy", "-w", "1", "--out", str(out), env=ENV)
    assert proc.returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    records = [loads(line) for line in lines]
    assert [r.meta["game"] for r in records] == list(range(1, 8))
    assert "7 records written" in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-p", "nobody"], "unknown bot 'nobody'"),
        (["-p", "easy,easy"], "--players needs 3 names"),
        (["--variant", "no-such-variant"], "no-such-variant"),
        (["--out", "/no/such/dir/x.jsonl", "-p", "easy"], "cannot write"),
    ],
)
def test_bad_options_fail_in_one_line(args: list[str], needle: str) -> None:
    proc = run_pdk("selfplay", "-n", "2", *args, env=ENV)
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_summary_and_keeps_records(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "many.jsonl"
    proc = subprocess.Popen(
        [PDK, "selfplay", "-n", "1000000", "-p", "random", "-w", workers, "--json", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,  # a terminal's Ctrl-C reaches the whole process group
    )
    until(lambda: out.exists() and out.stat().st_size >= 20000, 30, "records written", every=0.05)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    data = json.loads(stdout)
    assert data["interrupted"] is True
    assert 0 < data["games"] < 1000000 and data["games_planned"] == 1000000
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == data["games_played"]  # every finished game kept, each line complete
    for line in lines[:: max(1, len(lines) // 20)] + lines[-1:]:
        loads(line)


def test_module_entry_point_works() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pdk", "selfplay", "-n", "3", "-p", "random", "-w", "1", "--json"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["games"] == 3


@pytest.mark.e2e
def test_progress_bar_on_a_terminal() -> None:
    import pexpect

    child = pexpect.spawn(
        PDK,
        ["selfplay", "-n", "400", "-p", "random", "-w", "1", "--lang", "en"],
        env={**ENV, "TERM": "xterm"},
        dimensions=(30, 120),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect("playing")  # the bar's label
        child.expect(r"\d+/s")  # the running rate
        child.expect(r"400 deals in [\d.]+ s")  # then the summary
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_seeded_random_match_is_pinned(tmp_path: Path) -> None:
    # The summary and the records of one seeded run, pinned: a faster harness, bot or
    # generator must play the very same games (the digest was taken before any of them).
    out = tmp_path / "games.jsonl"
    summary = as_json("-p", "random", "-n", "120", "--seed", "5", "-w", "1", "--out", str(out))
    for timing in ("seconds", "deals_per_s"):
        summary.pop(timing)
    digest = hashlib.sha256(json.dumps(summary, sort_keys=True).encode())
    for line in out.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        digest.update(
            json.dumps([rec["seed"], rec["plays"], rec["result"], rec["meta"]], sort_keys=True).encode()
        )
    assert digest.hexdigest()[:16] == "513da242bc9bf83a"
