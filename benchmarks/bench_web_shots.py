"""Screenshots of the browser table for the README (docs/screenshots), from a live server.

    pdk serve --no-open --port 8765 --seed 3 &
    python benchmarks/bench_web_shots.py http://127.0.0.1:8765/ [docs/screenshots]

For each layout (a small phone 320×568, phone portrait 390×844, phone landscape 844×390,
desktop 1280×800) it shoots the table at the human's first turn with a hint selected, and
the settlement panel after playing the deal out through hint/play/pass (the first-visit
hint already dismissed, as a returning player sees the table). Not a timing benchmark: it lives here
beside the web benchmarks because it drives the same live server with Playwright.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.tooling import CHROMIUM_ARGS, LAYOUTS, wait_for


def my_turn(page: Page) -> bool:
    wait_for(page,
        "() => !document.querySelector('[data-testid=hint]').disabled"
        " || !document.querySelector('[data-testid=settlement]').hidden",
        timeout=30_000,
    )
    return page.locator('[data-testid="settlement"]').is_hidden()


def shoot(url: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        layouts = {"small": (320, 568), **LAYOUTS}
        for (name, (w, h)), locale in zip(layouts.items(), ("zh-CN", "zh-CN", "zh-CN", "en-US"), strict=True):
            phone = w < 1000
            context = browser.new_context(
                viewport={"width": w, "height": h}, locale=locale, has_touch=phone, is_mobile=phone
            )
            context.add_init_script("localStorage.setItem('pdk.seen_hint', '1')")
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector('[data-testid="card"]')
            my_turn(page)
            page.click('[data-testid="hint"]')
            page.screenshot(path=str(out / f"{name}.png"))
            while my_turn(page):
                before = page.locator('[data-testid="hand"] [data-testid="card"]').count()
                if page.locator('[data-testid="play"]').is_disabled():
                    page.click('[data-testid="pass"]')
                else:
                    page.click('[data-testid="hint"]')
                    page.click('[data-testid="play"]')
                wait_for(page,
                    f"document.querySelectorAll('[data-testid=hand] [data-testid=card]').length < {before}"
                    " || document.querySelector('[data-testid=hint]').disabled"
                )
            page.wait_for_timeout(500)  # the panel's fade-in
            page.screenshot(path=str(out / f"{name}-settlement.png"))
            print(out / f"{name}.png", out / f"{name}-settlement.png")
        browser.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url", nargs="?", default="http://127.0.0.1:8765/", help="the live server's page")
    ap.add_argument("out", nargs="?", type=Path, default=Path("docs/screenshots"), help="where the PNGs go")
    args = ap.parse_args()
    shoot(args.url, args.out)
