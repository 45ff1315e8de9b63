"""Screenshots of a table for friends for the README (docs/screenshots/room-*.png).

    python benchmarks/bench_room_shots.py [docs/screenshots]

Runs a server in this process, makes a room on a desktop (1280×800), shoots the lobby
(invite links with their QR codes), opens a seat's link on a phone (390×844, 中文) and
the watch link on another phone, deals, plays a few turns from both pages, and shoots the
desktop seat, the phone seat and the spectator's phone mid-deal, then the settlement.
Not a timing benchmark: it sits beside the web benchmarks because it drives the same
server with Playwright.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pdk.rooms.room import Rooms
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.address import links_for, listen
from pdk.web.server import create_app
from tests.support.tooling import CHROMIUM_ARGS, LAYOUTS, wait_for


def serve() -> str:
    import uvicorn

    root = Path(tempfile.mkdtemp(prefix="pdk-room-shots-"))
    store = TableStore(root, load_profile("classic16"), "classic16", seed=3, difficulty="normal")
    rooms = Rooms(store.saves, store.archive, pace_ms=300, away_after=60, seed=3)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    links = links_for(listen("127.0.0.1"), port, "")  # as `pdk serve` on loopback addresses them
    app = create_app(store, 300, rooms=rooms, links=links)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}/"


def turn(page: Page) -> None:
    if page.is_enabled('[data-testid="play"]'):
        page.click('[data-testid="hint"]')
        page.click('[data-testid="play"]')
    elif page.is_enabled('[data-testid="pass"]'):
        page.click('[data-testid="pass"]')


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    base = serve()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        w, h = LAYOUTS["desktop"]
        host = b.new_context(viewport={"width": w, "height": h}, locale="en-US").new_page()
        host.goto(base + "room")
        host.wait_for_selector('[data-testid="create-room"]')
        host.fill("#f-name", "Ann")
        host.select_option("#f-turn", "30")
        host.click('[data-testid="create-room"]')
        host.wait_for_selector('[data-testid="invite-link"]')
        link = host.get_attribute('[data-testid="invite-link"]', "href")
        watch = host.get_attribute('[data-testid="watch-link"]', "href")
        pw, ph = LAYOUTS["portrait"]
        phone = b.new_context(viewport={"width": pw, "height": ph}, locale="zh-CN", is_mobile=True).new_page()
        phone.add_init_script("localStorage.setItem('pdk.name', '小明')")
        phone.goto(str(link))
        phone.wait_for_selector('[data-testid="seat-name"]')
        wait_for(host, "document.querySelectorAll('.invite [data-testid=invite-link]').length === 1")
        time.sleep(1)
        host.screenshot(path=str(out / "room-lobby.png"))
        spectator = b.new_context(
            viewport={"width": pw, "height": ph}, locale="zh-CN", is_mobile=True
        ).new_page()
        spectator.goto(str(watch))
        host.click('[data-testid="start-room"]')
        host.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
        for _ in range(60):
            turn(host)
            turn(phone)
            time.sleep(0.3)
            mine = host.is_enabled('[data-testid="play"]') or host.is_enabled('[data-testid="pass"]')
            if mine and host.locator('[data-testid="hand"] [data-testid="card"]').count() <= 12:
                break
        host.click('[data-testid="hint"]')
        time.sleep(0.5)
        host.screenshot(path=str(out / "room-desktop.png"))
        phone.screenshot(path=str(out / "room-phone.png"))
        spectator.screenshot(path=str(out / "room-spectator.png"))
        for _ in range(400):
            if host.is_visible('[data-testid="settlement"]'):
                break
            turn(host)
            turn(phone)
            time.sleep(0.2)
        time.sleep(1)
        phone.screenshot(path=str(out / "room-phone-settlement.png"))
        b.close()
    for name in ("lobby", "desktop", "phone", "spectator", "phone-settlement"):
        print(out / f"room-{name}.png")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots"))
