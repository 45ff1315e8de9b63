"""Helpers the tests and the benchmark scripts share: how Chromium is started and at which
window sizes the page is checked, and which processes of a group still run.

Test modules import it as a sibling (``tests/`` is on ``sys.path`` under pytest); the
scripts in ``benchmarks/`` put ``tests/`` on their path first.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

# Headless Chromium as Debian packages it, run as root on CI, without the background
# traffic (updates, sync, QUIC) that makes page timings noisy.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The three windows the page must fit: a phone upright and sideways, and a desktop.
LAYOUTS = {"portrait": (390, 844), "landscape": (844, 390), "desktop": (1280, 800)}


def running_in_group(pgid: int) -> list[int]:
    """Processes of the group still running (zombies, dead but not yet reaped, are not)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def wait_for(page: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` (JavaScript, or an arrow function's text) is true in the
    page. Polled from here rather than with ``page.wait_for_function``: that one compiles
    its predicate with ``eval`` inside the page, which the page's Content-Security-Policy
    (no ``unsafe-eval``) rightly refuses; ``page.evaluate`` goes through the debugger."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true after {timeout / 1000:g} s: {expression}")
        page.wait_for_timeout(16)  # about a frame, as Playwright polls
