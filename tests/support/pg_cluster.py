"""A throw-away PostgreSQL cluster for the tests and benchmarks that need one.

``Cluster.start()`` runs Debian's ``initdb`` and ``pg_ctl`` (``/usr/lib/postgresql/*/bin``
or the PATH) in a temporary directory, as ``nobody`` when the tests run as root
(PostgreSQL refuses to run as root), listening on a free port of 127.0.0.1 only, with
trust authentication for the one local user. ``stop``/``start`` again are the database
going away and coming back; ``destroy`` removes it all. ``missing()`` says in one line why
there is none (the tests skip with it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def missing() -> str | None:
    if pg_bin() is None:
        return "PostgreSQL is not installed (initdb not found): apt-get install postgresql"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed: pip install 'pdk[postgres]'"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self) -> None:
        bindir = pg_bin()
        assert bindir is not None, missing()
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pdk-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "nobody" if os.geteuid() == 0 else None
        if self.user:
            shutil.chown(self.root, self.user)
        self._run("initdb", "-D", str(self.data), "-U", "pdk", "-A", "trust", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://pdk@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [str(self.bin / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            user=self.user,
            cwd=self.root,
            timeout=120,
        )

    def start(self) -> Cluster:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running() -> Iterator[Cluster]:
    """A started cluster for a test module, destroyed after it; the test skips with the one
    line of ``missing()`` where there is none."""
    import pytest

    why = missing()
    if why:
        pytest.skip(why)
    cluster = Cluster().start()
    try:
        yield cluster
    finally:
        cluster.destroy()
