"""Helpers the tests and the benchmark scripts share: how Chromium is started and at which
window sizes the page is checked, and which processes of a group still run.

Test modules import it as a sibling (``tests/`` is on ``sys.path`` under pytest); the
scripts in ``benchmarks/`` put ``tests/`` on their path first.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

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


def until(condition: Callable[[], T], timeout: float = 30, what: str = "", every: float = 0.02) -> T:
    """Wait until ``condition()`` is true and return what it returned: the one polling
    loop of the tests outside a page (``wait_for`` is the page's). A test waits on what it
    needs, never for a fixed time: fast on an idle machine, still correct on a loaded one.
    Raises ``TimeoutError`` (naming ``what``) after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (got := condition()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true after {timeout:g} s: {what or condition}")
        time.sleep(every)
    return got


def wait_for(page: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` (JavaScript, or an arrow function's text) is true in the
    page. Polled from here rather than with ``page.wait_for_function``: that one compiles
    its predicate with ``eval`` inside the page, which the page's Content-Security-Policy
    (no ``unsafe-eval``) rightly refuses; ``page.evaluate`` goes through the debugger."""
    # The polling runs inside the page, one debugger call per wait: a loop of calls from
    # here cost the browser, its driver and this process about a quarter of a core for as
    # long as a test waited. A navigation ends the page's loop; then it starts again.
    poll = (
        "async (ms) => { const check = () => { const v = (" + expression + ");"
        " return typeof v === 'function' ? v() : v; };"
        " const until = performance.now() + ms;"
        " while (!(await check())) { if (performance.now() > until) return false;"
        " await new Promise((r) => setTimeout(r, 16)); } return true; }"
    )
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(poll, max(0.0, deadline - time.monotonic()) * 1000):
                return
        except Exception as exc:  # the page navigated under the wait: wait on the new one
            if "context was destroyed" not in str(exc) or time.monotonic() > deadline:
                raise
            continue
        if time.monotonic() >= deadline:
            raise TimeoutError(f"not true after {timeout / 1000:g} s: {expression}; {_said(page)}")


def hand(page: Any) -> list[str]:
    """The cards of the hand the page shows, in its order."""
    return list(
        page.locator('[data-testid="hand"] [data-testid="card"]').evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    )


# The version of the table the page shows (``data-seq`` on its felt), as JavaScript: a
# test that must read it together with something else puts it in the same evaluate.
SHOWN_SEQ = "Number(document.querySelector('main.felt').dataset.seq)"


def shown_seq(page: Any) -> int:
    """The version of the table the page shows."""
    return int(page.evaluate(SHOWN_SEQ))


def wait_past(page: Any, seq: int, timeout: float = 30_000) -> None:
    """Wait until the page shows a table newer than version ``seq``: a move was made. A
    disabled button is no sign of that: the bots may answer a pass before a poll sees it."""
    wait_for(page, f"{SHOWN_SEQ} > {seq}", timeout)


def tap_a_move(page: Any) -> bool:
    """The person's move as they tap it: 提示 then 出牌 (True), or 不出 when nothing beats
    (False). The hint's cards are raised before 出牌 is tapped: a hint searched on the
    server arrives a moment after the tap (playing nothing would only say "pick cards")."""
    if page.locator('[data-testid="play"]').is_disabled():
        page.click('[data-testid="pass"]')
        return False
    page.click('[data-testid="hint"]')
    wait_for(page, "document.querySelector('[data-testid=hand] [aria-pressed=true]') !== null")
    page.click('[data-testid="play"]')
    return True


def play_a_turn(page: Any) -> None:
    """Tap a move and wait for the table it made; a play of the first hint leaves the hand
    smaller."""
    seq, before = shown_seq(page), len(hand(page))
    played = tap_a_move(page)
    wait_past(page, seq)
    assert not played or len(hand(page)) < before, "the first hint was played"


def _said(page: Any) -> str:
    """What the page shows its player when a wait times out (its message line and the
    buttons' states), so that a failure says where the table stood, not only that it hung."""
    try:
        shown = page.evaluate(
            "() => { const q = (s) => document.querySelector(s);"
            " const m = q('[data-testid=message]');"
            " const b = ['play', 'pass', 'hint'].map(k => q(`[data-testid=${k}]`))"
            ".map(e => e ? (e.disabled ? 'off' : 'on') : '-').join('/');"
            " return `message: ${m ? m.textContent.trim() : '-'}; play/pass/hint ${b}`; }"
        )
    except Exception as exc:  # the page itself is gone: say that instead
        return f"the page cannot be read ({type(exc).__name__})"
    return str(shown)


class Served:
    """An app served by uvicorn on a free loopback port, in a thread of this process: the
    browser and terminal tests talk to it as to ``pdk serve``. ``stop`` ends it (a test
    may stop it early to see the page without a server)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"
        # A stream or a kept connection left open ends a second after ``stop``, not at the
        # thread's join timeout (five seconds of every module that keeps one).
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="error", timeout_graceful_shutdown=1
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        until(lambda: self._server.started, 30, "uvicorn started")

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)


@contextmanager
def served(app: Any) -> Iterator[Served]:
    server = Served(app)
    try:
        yield server
    finally:
        server.stop()
