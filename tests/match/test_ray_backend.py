"""``pdk selfplay --backend ray`` against a small local Ray started once for the module:
the same seed gives the same summary and records as the local pool, plug-ins (and outside engines) travel to
the workers, and every fault is one line with exit 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pdk.match.backend_contract import BackendError
from pdk.match.backends import open_backend
from pdk.match.run import MatchError, make_tasks
from pdk.variants.registry import load_profile
from tests.support import ROOT
from tests.support.cli import run_pdk

pytestmark = pytest.mark.slow

ray = pytest.importorskip("ray")

GREEDY = str(ROOT / "examples" / "greedy_bot.py") + ":GreedyBot"

CHEAT = '''
CALLS = [0]


class Bot:
    name = "cheater"

    def __init__(self, seed):
        pass

    def choose(self, view):
        CALLS[0] += 1  # across games: the worker plays its chunk in one process
        moves = view.legal_moves()
        if CALLS[0] > 40:
            return (1, 1, 0, 1)  # a single 3, whatever the hand holds
        return moves[0] if moves else None
'''

LOCKED = '''
import threading


class Bot:
    name = "locked"

    def choose(self, view):
        moves = view.legal_moves()
        return moves[0] if moves else None


class Factory:
    """A factory holding a lock: it cannot be pickled, so it cannot travel."""

    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, seed):
        return Bot()


make = Factory()
'''


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    yield
    ray.shutdown()


def summary(*args: str) -> dict[str, Any]:
    proc = run_pdk("selfplay", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    for key in ("deals_per_s", "seconds", "workers"):
        data.pop(key)
    return data


def test_the_same_seed_gives_the_same_summary_and_records_as_the_local_pool(tmp_path: Path) -> None:
    args = ("-p", f"random,normal,{GREEDY}", "-n", "40", "--seed", "11", "--duplicate")
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    here = summary(*args, "-w", "2", "--out", str(local))
    there = summary(*args, "-w", "2", "--backend", "ray", "--out", str(remote))
    assert here == there
    assert local.read_bytes() == remote.read_bytes()
    assert len(remote.read_text().splitlines()) == 40 * 6


def test_results_do_not_depend_on_the_chunking() -> None:
    profile = load_profile("classic16")
    tasks = make_tasks(["random", "easy", "random"], 30, 5)
    backend: Any = open_backend("ray", workers=2)
    runs = []
    for chunk in (1, 7, 64):
        backend.chunk = chunk
        runs.append([(r.index, r.totals, r.turns) for r in backend.games(profile, tasks)])
    assert runs[0] == runs[1] == runs[2]
    assert [i for i, _, _ in runs[0]] == list(range(30))


def test_a_plug_in_in_a_file_only_the_driver_sees_plays_on_the_workers(tmp_path: Path) -> None:
    bot = tmp_path / "far_away.py"
    bot.write_text((Path(GREEDY.rpartition(":")[0])).read_text())
    data = summary("-p", f"{bot}:GreedyBot,random,random", "-n", "6", "--backend", "ray")
    assert data["players"][0]["bot"] == "greedy"


def test_an_illegal_move_on_a_worker_is_one_line_and_finished_records_are_kept(tmp_path: Path) -> None:
    bot = tmp_path / "cheat.py"
    bot.write_text(CHEAT)
    out = tmp_path / "g.jsonl"
    spec = f"random,random,{bot}:Bot"
    proc = run_pdk("selfplay", "-p", spec, "-n", "20", "--backend", "ray", "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cheater" in lines[0] and "illegal move" in lines[0], proc.stderr
    kept = [json.loads(line)["meta"]["game"] for line in out.read_text().splitlines()]
    assert kept and kept == list(range(1, len(kept) + 1))


def test_a_plug_in_that_does_not_pickle_is_refused_before_any_game(tmp_path: Path) -> None:
    bot = tmp_path / "locked.py"
    bot.write_text(LOCKED)
    out = tmp_path / "keep.jsonl"
    out.write_text("earlier work\n")
    spec = f"{bot}:make,random,random"
    proc = run_pdk("selfplay", "-p", spec, "-n", "3", "--backend", "ray", "--out", str(out))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be shipped" in lines[0], proc.stderr
    assert out.read_text() == "earlier work\n"  # nothing lost


def test_an_unreachable_address_is_one_line() -> None:
    proc = run_pdk("selfplay", "-n", "3", "-p", "random", "--backend", "ray", "--address", "127.0.0.1:1")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in proc.stderr


def test_closing_the_stream_early_stops_the_work_and_ray_stays_usable() -> None:
    profile = load_profile("classic16")
    stream = open_backend("ray", workers=2).games(profile, make_tasks(["random"] * 3, 5000, 1))
    first = [next(stream) for _ in range(10)]
    stream.close()  # what Ctrl-C does: the summary covers these, the rest is cancelled
    assert [r.index for r in first] == list(range(10))
    again = list(open_backend("ray", workers=2).games(profile, make_tasks(["random"] * 3, 4, 1)))
    assert [r.totals for r in again] == [r.totals for r in first[:4]]


def test_library_errors_are_exceptions_not_exits() -> None:
    with pytest.raises(BackendError):
        open_backend("cluster-of-dreams")
    with pytest.raises(BackendError):
        open_backend("local", address="auto")
    assert issubclass(MatchError, RuntimeError)


def test_an_outside_engine_plays_on_the_workers_as_in_the_local_pool() -> None:
    import sys

    engine = f"cmd:{sys.executable} {ROOT / 'examples/engines/greedy.py'}"
    args = ["-p", f"{engine},random,normal", "-n", "6", "--seed", "4"]
    assert summary(*args, "--backend", "ray", "--workers", "2") == summary(*args, "--workers", "1")
