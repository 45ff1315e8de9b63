"""The room page's menu (☰) on a phone: sound, the card counter and the seat's auto-pass
(要不起时自动不出), which a phone has no key for; the server keeps the seat's choice, so a
reloaded page shows it; a spectator's menu has no seat switch. Without a Chromium binary
these tests skip."""

from __future__ import annotations

from typing import Any

import pytest

from pdk.rooms.room import Rooms
from tests.e2e.test_rooms import CHROMIUM, browser, host_room, person, server  # noqa: F401  (fixtures)
from tests.support.tooling import wait_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]

PRESSED = "document.querySelector('[data-testid=autopass]').getAttribute('aria-pressed')"


def test_the_menu_turns_auto_pass_off_for_the_seat_on_a_phone(
    server: tuple[str, Rooms],  # noqa: F811
    browser: Any,  # noqa: F811
) -> None:
    base, _rooms = server
    host, _links, watch = host_room(browser, base)
    host.set_viewport_size({"width": 390, "height": 844})
    host.click('[data-testid="start-room"]')
    host.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    host.click('[data-testid="menu"]')
    assert host.is_visible('[data-testid="menu-panel"]')
    assert host.evaluate(PRESSED) == "true"  # on by default, as on the single-player page
    host.click('[data-testid="autopass"]')
    wait_for(host, f"{PRESSED} === 'false'")
    host.reload()
    host.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    host.click('[data-testid="menu"]')
    assert host.evaluate(PRESSED) == "false"  # the seat's choice is the server's
    counter = host.locator('[data-testid="counter-toggle"]')
    counter.click()
    assert counter.get_attribute("aria-pressed") == "false"
    wait_for(host, "document.querySelector('[data-testid=counter]').hidden")
    watcher = person(browser, watch, "portrait")
    wait_for(watcher, "document.querySelector('#deal').textContent !== ''")
    watcher.click('[data-testid="menu"]')
    assert watcher.is_visible('[data-testid="sound"]')
    assert not watcher.is_visible('[data-testid="autopass"]')
    for p in (host, watcher):
        assert not p.errors, p.errors
        p.context.close()
