"""A real ``pdk serve`` for the tests that need one (faults, load shapes, bounds): started
on a free port in its own process group, waited for, and stopped by its own pid."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.support.tooling import until


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, data: Path, *args: str, port: int | None = None) -> None:
        self.data = data
        self.args = args
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None

    def start(self, timeout: float = 60, probe: bool = True) -> Server:
        """Start it and (``probe``) wait until it answers on 127.0.0.1."""
        cmd = [sys.executable, "-m", "pdk", "serve", "--no-open", "--port", str(self.port)]
        cmd += ["--save-dir", str(self.data), *self.args]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        if probe:
            until(self.answers, timeout, "pdk serve answers on 127.0.0.1", every=0.05)
        return self

    def answers(self) -> bool:
        """Whether it answers a request now; raises if it has ended instead."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"pdk serve ended: {self.proc.stdout.read() if self.proc.stdout else ''}")
        try:
            return httpx.get(self.base + "/api/labels", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def workers(self) -> list[int]:
        """The pids of uvicorn's worker processes (the children of pdk serve)."""
        assert self.proc is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid and "resource_tracker" not in _cmdline(stat.parent):
                found.append(int(stat.parent.name))
        return found

    def kill9(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_group(self.proc)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()


def stop_group(proc: subprocess.Popen[Any], grace: float = 15) -> None:
    """SIGTERM to the process group started for ``proc``, SIGKILL after ``grace`` seconds."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _cmdline(proc: Path) -> str:
    try:
        return (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def next_request(table: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What a player does next: step a bot, pass when nothing beats, else the first hint;
    the next deal once this one is settled."""
    model = table["model"]
    if model["settlement"] is not None:
        return "next", {"seq": table["seq"]}
    if table["bot_turn"]:
        return "step", {"seq": table["seq"]}
    if model["task"]["kind"] == "none":
        return "pass", {"seq": table["seq"]}
    return "play", {"seq": table["seq"], "cards": model["hints"][0]["cards"]}
