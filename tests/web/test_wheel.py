"""The wheel carries the page and the profiles: built with ``python -m build``, installed
into a fresh virtual environment (an editable install could hide missing package data),
and ``pdk serve`` from that environment serves the page and deals a table.

Kept cheap: the build runs without isolation on a copy of the sources, the venv has no
pip of its own (the running pip installs into it, without dependencies), and the
dependencies come from this interpreter's site-packages through a ``.pth`` path (a plain
path, so this checkout's editable-install hook is not loaded there).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.tooling import until

SKIP = shutil.ignore_patterns(
    ".git", "__pycache__", "*.egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis",
    "build", "dist", "docs", ".venv", "venv",
)  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, body: bytes | None = None) -> bytes:
    req = urllib.request.Request(url, data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return bytes(r.read())


@pytest.mark.slow
@pytest.mark.wheel
def test_the_wheel_serves_the_page_from_a_fresh_venv(tmp_path: Path) -> None:
    pytest.importorskip("build")
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=SKIP)
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = dist.glob("pdk-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(py),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Every site-packages this interpreter reads (a venv made with --system-site-packages
    # reads its base interpreter's too): plain paths, so no .pth hook in them is run.
    sites = [sysconfig.get_paths()["purelib"], *(p for p in sys.path if p.endswith("site-packages"))]
    (Path(site) / "deps.pth").write_text("".join(f"{p}\n" for p in dict.fromkeys(sites)))
    where = subprocess.run(
        [str(py), "-c", "import pdk; print(pdk.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert where.stdout.startswith(str(venv)), "the venv must run the wheel, not this checkout"
    port = _free_port()
    cmd = [
        str(venv / "bin" / "pdk"),
        "serve",
        "--no-open",
        "--port",
        str(port),
        "--save-dir",
        str(tmp_path / "d"),
    ]
    server = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:

        def page_or_ended() -> bytes | bool:
            """The page once it is served (a blank if the server ended first), else False."""
            if server.poll() is not None:
                return b" "
            try:
                return _get(f"http://127.0.0.1:{port}/")
            except OSError:
                return False

        # a loaded machine takes seconds to start Python and uvicorn
        page = until(page_or_ended, 30, "the wheel's pdk serve answers", every=0.1)
        assert b'data-testid="hand"' in page, server.stdout.read() if server.poll() is not None else ""
        for name in ("app.js", "cards.js", "style.css"):
            assert _get(f"http://127.0.0.1:{port}/static/{name}")
        # Everything the installable shell keeps (sw.js's list: modules, icons, the
        # manifest) is in the wheel's package data.
        worker = _get(f"http://127.0.0.1:{port}/sw.js").decode()
        shell = re.findall(r'^  "(/[^"]*)",$', worker, re.M)
        assert "/static/icon-192.png" in shell and "/manifest.webmanifest" in shell
        for path in shell:
            assert _get(f"http://127.0.0.1:{port}{path}"), path
        table = json.loads(_get(f"http://127.0.0.1:{port}/api/open", b"{}"))
        assert len(table["model"]["hand"]) == 16  # classic16, a shipped profile, from the wheel
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/" in out
