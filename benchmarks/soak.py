"""Soak: kill -9 ``pdk play`` and ``pdk selfplay --out`` at random moments, N times each,
and report the games lost and what was left behind. Not a test (it takes minutes).

    python benchmarks/soak.py [-n 30] [--seed 1] [--max-wait 1.5]

``pdk play`` runs in 托管 (the hint bot plays the human seat) and is killed at a random
moment, then restarted in the same data directory; after the last kill a clean start
quits. A deal is lost if the save has moved past it but the history has no row for it,
or its record file is missing or does not replay. Leftovers: temporary files still
there after the clean start, saves moved aside as corrupt, duplicate history rows.

``pdk selfplay --out`` (two workers) is killed at a random moment; every complete line
of the JSONL must be a valid record equal to the same game of an uninterrupted run
(else it is lost). Leftovers: a torn last line, worker processes still alive after
their parent was killed, and any traceback the workers printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.tooling import running_in_group

PDK = shutil.which("pdk") or "pdk"
ENV = {**os.environ, "NO_COLOR": "1"}


@dataclass
class Tally:
    runs: int = 0
    finished: int = 0
    lost: int = 0
    leftovers: dict[str, int] = field(default_factory=dict)

    def left(self, what: str, n: int = 1) -> None:
        if n:
            self.leftovers[what] = self.leftovers.get(what, 0) + n


def _play(data: Path, stdin: bytes, seed: int | None, wait: float | None) -> subprocess.Popen[bytes]:
    args = [PDK, "play", "--save-dir", str(data), "--delay", "0", "--lang", "en"]
    if seed is not None:
        args += ["--seed", str(seed), "--new"]
    p = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV
    )
    assert p.stdin is not None
    try:
        p.stdin.write(stdin)
        p.stdin.flush()
    except BrokenPipeError:
        pass
    if wait is not None:
        time.sleep(wait)
        p.kill()
    return p


def soak_play(n: int, rng: random.Random, max_wait: float, root: Path) -> Tally:
    t = Tally()
    data = root / "play"
    # 托管 on, then Enter at every "next deal" prompt (many more than are ever read).
    feed = b"a\n" + b"\n" * 5000
    for i in range(n):
        p = _play(data, feed, 1 if i == 0 else None, rng.uniform(0.05, max_wait))
        _, err = p.communicate()
        t.runs += 1
        if b"Traceback" in err:
            t.left("tracebacks")
    # A clean start (it cleans up), then quit at once.
    p = _play(data, b"q\n", None, None)
    _, err = p.communicate(timeout=120)
    if b"Traceback" in err:
        t.left("tracebacks")
    save = json.loads((data / "save.json").read_text())
    sid, deal_no = save["session"]["id"], save["session"]["deal_no"]
    with sqlite3.connect(data / "history.sqlite3") as con:
        ids = [r[0] for r in con.execute("SELECT id FROM deals")]
    t.left("duplicate history rows", len(ids) - len(set(ids)))
    done = {int(i.rsplit("-", 1)[1]) for i in ids if i.startswith(sid + "-")}
    t.finished = deal_no - 1
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from pdk.engine.record import RecordError
    from pdk.records.disk import load

    for k in range(1, deal_no):
        path = data / "records" / f"{sid}-{k:03d}.json"
        ok = k in done and path.exists()
        if ok:
            try:
                ok = load(path).replay().over
            except RecordError:
                ok = False
        t.lost += not ok
    t.left("temporary files", len(list(data.rglob(".*.tmp"))))
    t.left("saves moved aside as corrupt", len(list(data.glob("*.corrupt-*"))))
    return t


def soak_selfplay(n: int, rng: random.Random, max_wait: float, root: Path) -> Tally:
    t = Tally()
    games = 400
    ref = root / "ref.jsonl"
    subprocess.run(
        [PDK, "selfplay", "-n", str(games), "-w", "1", "--out", str(ref)],
        capture_output=True,
        check=True,
        env=ENV,
    )
    reference = ref.read_text().splitlines()
    for i in range(n):
        out = root / f"sp{i}.jsonl"
        p = subprocess.Popen(
            [PDK, "selfplay", "-n", str(games), "-w", "2", "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=ENV,
            start_new_session=True,
        )
        time.sleep(rng.uniform(0.3, max_wait + 0.5))
        p.kill()
        _, err = p.communicate()
        t.runs += 1
        time.sleep(1.0)  # the workers notice their parent is gone
        alive = running_in_group(p.pid)
        t.left("workers alive after their parent was killed", len(alive))
        for pid in alive:
            os.kill(pid, signal.SIGKILL)
        if b"Traceback" in err:
            t.left("tracebacks")
        text = out.read_text() if out.exists() else ""
        lines = text.split("\n")
        if lines and lines[-1]:
            t.left("torn last line")
        complete = [ln for ln in lines[:-1] if ln]
        t.finished += len(complete)
        t.lost += sum(ln != reference[k] for k, ln in enumerate(complete))
        out.unlink(missing_ok=True)
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=30, help="kills of each command")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-wait", type=float, default=1.5, help="longest run before the kill, seconds")
    ns = ap.parse_args()
    rng = random.Random(ns.seed)
    with tempfile.TemporaryDirectory(prefix="pdk-soak-") as tmp:
        root = Path(tmp)
        started = time.monotonic()
        results = {
            "pdk play (托管)": soak_play(ns.n, rng, ns.max_wait, root),
            "pdk selfplay --out": soak_selfplay(ns.n, rng, ns.max_wait, root),
        }
    print(f"({time.monotonic() - started:.0f} s)")
    print("| command | kill -9 | games finished | games lost | leftovers |")
    print("|---|---|---|---|---|")
    for name, t in results.items():
        left = ", ".join(f"{k}: {v}" for k, v in t.leftovers.items()) or "none"
        print(f"| {name} | {t.runs} | {t.finished} | {t.lost} | {left} |")


if __name__ == "__main__":
    main()
