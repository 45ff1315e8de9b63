"""Tables for friends in a real browser: Playwright driving Chromium with two or three
browser contexts (separate people: separate storage) in one room, and a spectator.

Each context plays its own seat from what its page shows (hint, then play; or pass) until
the settlement panel is up on every page; a bot takes the seat nobody opened. One person
closes their page and comes back from a new context with the same link; a turn time runs
out into 托管, shown to the others. The server runs in this process with a short pace and
a short absence limit. Without a Chromium binary these tests skip.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pdk.rooms.room import Rooms, person_id
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.server import create_app
from tests.support.tooling import CHROMIUM_ARGS, LAYOUTS, served, until, wait_for

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and Path(p).exists()), None
)
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]
AWAY = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Rooms]]:
    root = tmp_path_factory.mktemp("rooms")
    store = TableStore(root, load_profile("classic16"), "classic16", seed=11, difficulty="easy")
    rooms = Rooms(store.saves, store.archive, pace_ms=30, away_after=AWAY, seed=11)
    with served(create_app(store, pace_ms=30, rooms=rooms)) as up:
        yield up.url, rooms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def person(browser: Any, url: str, size: str = "desktop", locale: str = "en-US", poll: bool = False) -> Any:
    """A new person (their own browser context) opening ``url``; ``poll``: a browser whose
    live stream is not used, so the page falls back to polling."""
    w, h = LAYOUTS[size]
    context = browser.new_context(viewport={"width": w, "height": h}, locale=locale)
    if poll:
        context.add_init_script("localStorage.setItem('pdk.nolive', '1')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def host_room(browser: Any, base: str, turn_time: str | None = None) -> tuple[Any, list[str], str]:
    """The host makes a room from the single-player page with the form's defaults."""
    host = person(browser, base)
    host.wait_for_selector('[data-testid="card"]')
    host.click('[data-testid="friends"]')
    host.wait_for_selector('[data-testid="create-room"]')
    host.select_option("#f-difficulty", "easy")
    if turn_time is not None:
        host.select_option("#f-turn", turn_time)
    host.click('[data-testid="create-room"]')
    host.wait_for_selector('[data-testid="invite-link"]')
    links = [a.get_attribute("href") for a in host.query_selector_all('[data-testid="invite-link"]')]
    watch = host.get_attribute('[data-testid="watch-link"]', "href")
    assert watch is not None
    return host, links, watch


def take_turn(page: Any) -> None:
    """What a person does when the page says it is their turn: hint and play, else pass
    (the page may move on under the click: the server passes 要不起 by itself)."""
    from playwright.sync_api import Error

    try:
        if page.is_enabled('[data-testid="play"]') and page.is_visible('[data-testid="play"]'):
            page.click('[data-testid="hint"]', timeout=1000)
            page.click('[data-testid="play"]', timeout=1000)
        elif page.is_enabled('[data-testid="pass"]') and page.is_visible('[data-testid="pass"]'):
            page.click('[data-testid="pass"]', timeout=1000)
    except Error:
        pass  # the turn moved on meanwhile


def play_to_settlement(pages: list[Any], watcher: Any | None = None, limit: float = 90.0) -> None:
    def settled() -> bool:
        """True once every page shows the settlement; else each takes its turn if it has one."""
        if all(p.is_visible('[data-testid="settlement"]') for p in pages):
            return True
        for p in pages:
            take_turn(p)
        if watcher is not None and not watcher.is_visible('[data-testid="settlement"]'):
            assert watcher.locator('[data-testid="hand"] [data-testid="card"]').count() == 0
        return False

    try:
        until(settled, limit, "the settlement on every page", every=0.05)
    except TimeoutError:
        said = [(p.inner_text('[data-testid="message"]'), p.errors) for p in pages]
        raise AssertionError(f"no settlement; the pages say {said}") from None


def test_the_form_makes_a_room_with_links_codes_and_a_watch_link(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, _ = server
    host, links, watch = host_room(browser, base)
    assert len(links) == 2 and all(link.startswith(base + "room/") and "#k=" in link for link in links)
    assert watch.startswith(base + "room/") and "#w=" in watch
    # The codes are fetched with the key in a header and shown as data: drawn a moment later.
    wait_for(
        host,
        """() => [...document.querySelectorAll('.invite img[data-testid="qr"]')]
                 .every(i => i.complete && i.naturalWidth > 0)""",
        timeout=10_000,
    )
    assert host.is_visible('[data-testid="start-room"]')
    assert host.locator('[data-testid="copy-link"]').count() == 3
    assert host.locator('[data-testid="room-seat"]').count() == 3  # classic16: three seats
    assert not host.errors
    host.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("people", [2, 3])
def test_people_play_whole_deals_to_the_settlement(
    server: tuple[str, Rooms], browser: Any, people: int
) -> None:
    base, _rooms = server
    host, links, watch = host_room(browser, base)
    sizes = ("portrait", "landscape")
    # the third person's page polls instead of holding a live stream (the fallback)
    guests = [person(browser, links[i], sizes[i], poll=i == 1) for i in range(people - 1)]
    for g in guests:
        g.wait_for_selector('[data-testid="seat-name"]')
    watcher = person(browser, watch, "portrait")
    # everyone has sat down before the host deals
    wait_for(host, f"document.querySelectorAll('.invite [data-testid=invite-link]').length === {3 - people}")
    host.click('[data-testid="start-room"]')
    pages = [host, *guests]
    for p in pages:
        p.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    wait_for(watcher, "document.querySelector('#deal').textContent !== ''")
    # each seat's name inside its seat; the host sees the guests' names at their seats
    names = host.locator('.felt [data-testid="seat-name"]').all_inner_texts()
    assert len(names) == 2 and ("computer" in " ".join(names)) == (people == 2)
    play_to_settlement(pages, watcher)
    watcher.wait_for_selector('[data-testid="settlement"]')
    totals = [
        int(x)
        for x in host.locator("#settle-table td.total").evaluate_all("els => els.map(e => e.dataset.total)")
    ]
    assert len(totals) == 3
    # the host deals again; the others are told the host deals
    assert not guests[0].is_visible('[data-testid="next-deal"]')
    host.click('[data-testid="next-deal"]')
    for p in pages:
        p.wait_for_selector('[data-testid="settlement"]', state="hidden")
    for p in [*pages, watcher]:
        assert not p.errors, p.errors
        p.context.close()


@pytest.mark.slow
def test_a_closed_page_goes_to_auto_and_comes_back_from_another_device(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, _ = server
    host, links, _watch = host_room(browser, base)
    guest = person(browser, links[0], "portrait")
    guest.wait_for_selector('[data-testid="seat-name"]')
    wait_for(host, "document.querySelectorAll('.invite [data-testid=invite-link]').length === 1")
    host.click('[data-testid="start-room"]')
    guest.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    guest.context.close()  # the tab is gone
    # everyone sees the seat in 托管 once its person has been away a while
    host.wait_for_selector('.felt [data-testid="auto-badge"]', timeout=10_000)
    # the same link on another device takes the seat back
    again = person(browser, links[0], "landscape")
    again.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    host.wait_for_selector('.felt [data-testid="auto-badge"]', state="detached", timeout=10_000)
    assert again.locator('[data-testid="hand"] [data-testid="card"]').count() > 0
    # the seat link opened twice at once: the second device is told why
    third = person(browser, links[0], "portrait")
    wait_for(third, "document.querySelector('[data-testid=message]').textContent.includes('another device')")
    for p in (host, again, third):
        p.context.close()


@pytest.mark.slow
def test_a_turn_time_running_out_puts_the_seat_in_auto_for_all_to_see(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, _ = server
    host, links, _watch = host_room(browser, base, turn_time="10")
    guest = person(browser, links[0])
    guest.wait_for_selector('[data-testid="seat-name"]')
    wait_for(host, "document.querySelectorAll('.invite [data-testid=invite-link]').length === 1")
    host.click('[data-testid="start-room"]')
    host.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    guest.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    # nobody acts: the turn clock runs, then the person to move goes to 托管
    host.wait_for_selector('[data-testid="turn-clock"]:has-text("s left")', timeout=10_000)
    for p in (host, guest):
        p.wait_for_selector('[data-testid="auto-badge"]', timeout=25_000)
    # whoever it was takes the seat back with the 托管 button
    mine = next(p for p in (host, guest) if p.get_attribute('[data-testid="auto"]', "aria-pressed") == "true")
    mine.click('[data-testid="auto"]')
    wait_for(
        mine,
        "document.querySelector('[data-testid=auto]').getAttribute('aria-pressed') === 'false'",
        timeout=10_000,
    )
    for p in (host, guest):
        p.context.close()


@pytest.mark.slow
def test_after_a_deal_each_person_sees_their_own_record(server: tuple[str, Rooms], browser: Any) -> None:
    """Two people (two browser contexts: two person ids in two localStorages) and a bot
    play a deal; each page then shows that person's record from the server's history —
    one game, their own seat's score — and not the other's."""
    base, rooms = server
    host, links, _ = host_room(browser, base)
    guest = person(browser, links[0], "portrait")
    guest.wait_for_selector('[data-testid="seat-name"]')
    wait_for(host, "document.querySelectorAll('.invite [data-testid=invite-link]').length === 1")
    host.click('[data-testid="start-room"]')
    pages = [host, guest]
    for p in pages:
        p.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    play_to_settlement(pages)
    ids = [p.evaluate("localStorage.getItem('pdk.person')") for p in pages]
    assert ids[0] != ids[1] and all(len(i) == 32 for i in ids)
    for seat, p in enumerate(pages):
        wait_for(p, "document.querySelector('[data-testid=my-record]')?.dataset.games === '1'")
        total = p.get_attribute(f'#settle-table tr[data-seat="{seat}"] td.total', "data-total")
        assert p.get_attribute('[data-testid="my-record"]', "data-total") == total
        assert "1" in p.inner_text('[data-testid="my-record"]')
    # the settlement shows every seat's remaining cards, as the single-player page does
    for row in host.locator("#settle-table tr[data-seat]:not(.why)").all():
        left = int(row.locator("td").nth(1).inner_text())
        seat = row.get_attribute("data-seat")
        shown = host.locator(f'#settle-table tr.why[data-seat="{seat}"] [data-testid="left-cards"] .card')
        assert shown.count() == left
    history = rooms.archive.history
    for secret in ids:
        (who,) = [q for q in history.persons() if q.person == person_id(secret)]
        assert who.games == 1
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()
