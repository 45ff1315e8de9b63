"""The page when the server refuses to open a table (too many from one address): it says
the server's reason in place of the table and tries again, never a page without a table
token that errors on the first tap."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from pdk.table.tables import TableStore
from pdk.text.catalog import tr
from pdk.variants.registry import load_profile
from pdk.web.server import WebLimits, create_app
from tests.support.tooling import CHROMIUM_ARGS, served, wait_for

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and Path(p).exists()), None
)
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]


def test_a_refused_open_shows_the_reason_and_retries(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=3, difficulty="easy")
    app = create_app(store, pace_ms=20, limits=WebLimits(opens_per_minute=0.001))
    with served(app) as up, sync_playwright() as p:
        while httpx.post(f"{up.url}api/open", json={}).status_code == 200:
            pass  # this address's burst of opens is spent
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{up.url}?lang=zh")
        banner = page.locator("#offline")
        said = tr("web_slow_down", "zh", s=999).split("999")[0]  # the words before the seconds
        shown = (
            f"!document.querySelector('#offline').hidden && "
            f"document.querySelector('#offline').textContent.includes({said!r})"
        )
        wait_for(page, shown)
        assert page.locator('[data-testid="card"]').count() == 0
        # retried (the next open's answer, rather than a fixed wait): still refused, still said, nothing broke
        with page.expect_response(lambda r: "/api/open" in r.url, timeout=30_000) as retried:
            pass
        assert retried.value.status == 429
        wait_for(page, shown)
        assert banner.is_visible() and errors == []
        assert page.locator('[data-testid="card"]').count() == 0
        browser.close()
