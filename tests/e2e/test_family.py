"""The family table in a real browser (issue 36): Chromium with three contexts — the host
on a desktop, two phones. The host makes a room with house rules (必压 off, 红桃10扎鸟 on)
and a match of two deals on a server bound to every interface; its invitations carry the
LAN address, not loopback. The phones type the 6-digit room number on /room, take seats,
and the three play both deals to the final standings (大结算); the host's rematch starts
again with the same seats and rules. The single table's menu starts a table under house
rules, and an impossible mix is refused with its field. Without Chromium these tests skip."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from pdk.rooms.room import RoomRefused, Rooms
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.address import links_for, listen
from pdk.web.server import create_app
from tests.e2e import test_rooms as rooms_e2e
from tests.e2e.test_rooms import CHROMIUM, take_turn
from tests.support.tooling import LAYOUTS, served, until, wait_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]
LAN = "192.0.2.44"  # the address `pdk serve --host 0.0.0.0` would print
browser = rooms_e2e.browser  # the rooms' Chromium fixture, shared


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Rooms]]:
    root = tmp_path_factory.mktemp("family")
    store = TableStore(root, load_profile("classic16"), "classic16", seed=5, difficulty="easy")
    rooms = Rooms(store.saves, store.archive, pace_ms=20, seed=5)
    links = links_for(listen("0.0.0.0"), 8000, LAN)
    with served(create_app(store, pace_ms=20, rooms=rooms, links=links)) as up:
        yield up.url, rooms


def person(browser: Any, url: str, size: tuple[int, int], locale: str = "en-US") -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale)
    context.add_init_script("localStorage.setItem('pdk.seen_hint', '1')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def test_a_family_match_with_house_rules_joined_by_room_number(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, rooms = server
    host = person(browser, base + "room", LAYOUTS["desktop"])
    host.wait_for_selector('[data-testid="hr-must_beat"]')
    host.fill("#f-name", "Grandma")
    host.click('[data-testid="hr-must_beat"] button')  # 必压 off
    host.click('[data-testid="hr-zha_niao"] [data-value="2"]')  # 红桃10扎鸟 ×2
    wait_for(host, "document.querySelector('[data-testid=hr-status]').textContent.includes('红桃10扎鸟')")
    host.select_option("#f-match", "2")
    host.select_option("#f-difficulty", "easy")  # 托管 plays at the room's level: the cheapest
    host.click('[data-testid="create-room"]')
    host.wait_for_selector('[data-testid="invite-link"]')
    # Bound to every interface: the links and their codes carry the LAN address.
    hrefs = [a.get_attribute("href") for a in host.query_selector_all('[data-testid="invite-link"]')]
    assert hrefs and all(urlsplit(h).hostname == LAN for h in hrefs)
    assert urlsplit(host.get_attribute('[data-testid="watch-link"]', "href")).hostname == LAN
    wait_for(host, "document.querySelector('[data-testid=links-note]') !== null")
    assert LAN in host.inner_text('[data-testid="links-note"]')
    number = host.inner_text('[data-testid="room-number"] strong').replace(" ", "")
    assert len(number) == 6 and number.isdigit()
    host.click('[data-testid="lobby-rules"] summary')
    wait_for(host, "document.querySelector('[data-testid=room-rules]') !== null")
    words = host.inner_text('[data-testid="room-rules"]')
    assert "You may always pass" in words and "扎鸟" in words
    # Two phones type the number on /room and take the free seats.
    phones = []
    for size, name in ((LAYOUTS["portrait"], "Ming"), (LAYOUTS["portrait"], "Lan")):
        phone = person(browser, base + "room", size, locale="zh-CN")
        phone.wait_for_selector('[data-testid="room-number-input"]')
        phone.evaluate(f"localStorage.setItem('pdk.name', '{name}')")
        phone.fill('[data-testid="room-number-input"]', number[:3] + " " + number[3:])
        phone.press('[data-testid="room-number-input"]', "Enter")
        phone.wait_for_selector('[data-testid="take-seat"]')
        phone.click('[data-testid="take-seat"]')
        phone.wait_for_selector('[data-testid="my-name"]')
        phones.append(phone)
    wait_for(host, "document.querySelectorAll('.invite [data-testid=invite-link]').length === 0")
    host.click('[data-testid="start-room"]')
    pages = [host, *phones]
    for p in pages:
        p.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    rid = urlsplit(host.url).path.split("/")[2]
    room = rooms.get(rid)
    assert room.table is not None
    profile = room.table.session.profile
    assert not profile.rules.must_beat and profile.settlement.zha_niao is not None
    all_auto(pages)  # the people hand their seats to 托管, at the room's pace
    for p in pages:
        p.wait_for_selector('[data-testid="settlement"]')
    assert all(not p.is_visible('[data-testid="final"]') for p in pages)
    # The second deal starts when all three are ready.
    for p in pages:
        p.click('[data-testid="ready-next"]')
    for p in pages:
        p.wait_for_selector('[data-testid="settlement"]', state="hidden")
    all_auto(pages)
    for p in pages:
        p.wait_for_selector('[data-testid="standings"]')
        assert not p.is_visible('[data-testid="auto-told"]')  # nothing over the standings
    assert (
        host.locator('[data-testid="standings"] table.scores tr').count() == 1 + 2 + 1
    )  # head, 2 deals, total
    places = host.locator('[data-testid="standings"] .places li').all_inner_texts()
    assert len(places) == 3 and {"Grandma", "Ming", "Lan"} <= {n for line in places for n in line.split()}
    assert not phones[0].is_visible('[data-testid="rematch"]') and not host.is_visible(
        '[data-testid="next-deal"]'
    )
    with host.expect_download() as saved:  # 大结算 saved as an image, drawn in the page
        host.click('[data-testid="save-image"]')
    image = Path(saved.value.path()).read_bytes()
    assert saved.value.suggested_filename.endswith(".png") and image.startswith(b"\x89PNG")
    host.click('[data-testid="rematch"]')
    for p in pages:
        p.wait_for_selector('[data-testid="final"]', state="hidden")
        wait_for(p, "document.querySelector('#deal').textContent.includes('1')")
    assert [s.total for s in room.view(0).seats] == [0, 0, 0]
    assert room.table.session.profile == profile  # the same rules
    assert [s.name for s in room.info.seats] == ["Grandma", "Ming", "Lan"]  # the same seats
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()


def test_a_name_typed_while_the_form_loads_is_kept(server: tuple[str, Rooms], browser: Any) -> None:
    """The form's default name ("Host") is there at once, and a name typed before the
    rules panel has loaded is not overwritten when it does (it was, under load)."""
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    held: list[Any] = []
    page.route("**/api/rooms/choices?*", lambda route: held.append(route))  # the first question, held
    page.goto(base + "room")
    for _ in range(1000):
        if held:
            break
        page.wait_for_timeout(10)
    assert held, "the form never asked for its choices"
    assert page.input_value("#f-name") == "Host"
    page.fill("#f-name", "Grandma")
    held[0].continue_()
    page.wait_for_selector('[data-testid="hr-must_beat"]')
    wait_for(page, "!document.querySelector('[data-testid=create-room]').disabled")
    assert page.input_value("#f-name") == "Grandma"
    context.close()


def test_the_single_table_starts_under_house_rules_and_refuses_an_impossible_mix(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, _ = server
    page = person(browser, base, LAYOUTS["portrait"], locale="zh-CN")
    page.wait_for_selector('[data-testid="card"]')
    page.click('[data-testid="menu"]')
    page.click('[data-testid="house-open"]')
    page.wait_for_selector('[data-testid="hr-bao_pei"]')
    page.click('[data-testid="hr-bao_pei"] button')  # 包赔 with 报单's highest single still on
    wait_for(page, "document.querySelector('[data-testid=hr-status]').classList.contains('bad')")
    assert "rules.bao_pei" in page.inner_text('[data-testid="hr-status"]')
    assert page.is_disabled('[data-testid="house-start"]')
    page.click('[data-testid="hr-bao_dan"] button')  # 报单 free: now it plays
    wait_for(page, "!document.querySelector('[data-testid=hr-status]').classList.contains('bad')")
    page.click('[data-testid="hr-must_beat"] button')
    old = page.evaluate("localStorage.getItem('pdk.token')")
    page.click('[data-testid="house-start"]')
    wait_for(page, f"localStorage.getItem('pdk.token') !== '{old}'")
    page.wait_for_selector('[data-testid="card"]')
    page.click('[data-testid="menu"]')
    page.click('[data-testid="rules-open"]')
    page.wait_for_selector("#rules-body li")
    said = page.inner_text("#rules-body")
    assert "随时可以不要，即使压得过" in said and "包赔" in said
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", [(320, 568), (390, 844), (844, 390), (1280, 800)])
def test_the_rules_panel_fits_every_window(
    server: tuple[str, Rooms], browser: Any, size: tuple[int, int]
) -> None:
    base, _ = server
    page = person(browser, base + "room", size, locale="zh-CN")
    page.wait_for_selector('[data-testid="hr-zha_niao"]')
    page.click('[data-testid="hr-zha_niao"] [data-value="2"]')
    wait_for(page, "document.querySelector('[data-testid=hr-status]').textContent.includes('扎鸟')")
    sheet = "document.querySelector('#form .sheet')"
    assert page.evaluate(f"{sheet}.scrollWidth <= {sheet}.clientWidth + 1")  # nothing runs off sideways
    for rule in ("must_beat", "players", "zha_niao"):
        box = page.locator(f'[data-testid="hr-{rule}"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    page.context.close()


def easy_room(browser: Any, base: str, size: tuple[int, int]) -> Any:
    """The host's page (in 中文) with a room made from the form, its computers easy."""
    host = person(browser, base + "room", size, locale="zh-CN")
    host.wait_for_selector('[data-testid="create-room"]:not([disabled])')
    host.select_option("#f-difficulty", "easy")
    host.click('[data-testid="create-room"]')
    host.wait_for_selector('[data-testid="invite-link"]')
    return host


def test_the_host_confirms_closing_and_a_spectator_takes_a_computer_seat_in_play(
    server: tuple[str, Rooms], browser: Any
) -> None:
    base, rooms = server
    host = easy_room(browser, base, LAYOUTS["portrait"])
    watch = host.get_attribute('[data-testid="watch-link"]', "href")
    assert watch is not None
    host.click('[data-testid="start-room"]')
    host.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    # Every total beside a name is said (累计 +n), never a bare number.
    for text in host.locator(".head .total").all_inner_texts():
        assert text.startswith("累计"), text
    names = host.locator('.felt [data-testid="seat-name"]').all_inner_texts()
    assert sorted(names) == ["电脑 A（简单）", "电脑 B（简单）"]
    fan = person(browser, base + "room/" + watch.split("/room/")[1], LAYOUTS["landscape"], locale="zh-CN")
    fan.wait_for_selector('[data-testid="take-seat-bar"]')
    assert "已打 0 局" in fan.inner_text("#session")
    fan.click('[data-testid="take-seat-bar"]')
    rid = urlsplit(host.url).path.split("/")[2]
    for _ in range(100):  # the seat is the fan's from the next deal (a bot plays it out)
        if sum(s.taken for s in rooms.get(rid).info.seats) == 2:
            break
        fan.wait_for_timeout(50)
    assert sum(s.taken for s in rooms.get(rid).info.seats) == 2
    fan.wait_for_selector('[data-testid="take-seat-bar"]', state="hidden")
    all_auto([host])  # 托管 plays the host's seat out: the cheapest way to the settlement
    for p in (host, fan):
        p.wait_for_selector('[data-testid="settlement"]')
    # After a deal the invitations open above the settlement, 关闭房间 in reach.
    host.click("#invite-toggle")
    close = host.locator('[data-testid="close-room"]')
    close.scroll_into_view_if_needed()
    box = close.bounding_box()
    assert box is not None
    top = host.evaluate(
        f"document.elementFromPoint({box['x'] + box['width'] / 2}, {box['y'] + box['height'] / 2})?.id"
    )
    assert top == "close-room"
    close.click()  # the first tap only asks
    assert rooms.get(rid).info.phase == "playing" and "再点一次" in close.inner_text()
    close.click()
    wait_for(host, "document.querySelector('#lobby-note').textContent.includes('关闭')")
    assert rooms.get(rid).info.phase == "closed"
    for p in (host, fan):
        assert not p.errors, p.errors
        p.context.close()


def test_call_outs_are_spoken_in_the_pages_language_under_the_sound_switch(
    server: tuple[str, Rooms], browser: Any
) -> None:
    """The device's own speech synthesis (a stand-in voice here, as headless Chromium has
    none): with sound on, the table says 轮到你了 / 要不起 / 报单 / 炸弹 / 全关, nothing else,
    never two within 700 ms; with sound off it says nothing."""
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.add_init_script(
        "localStorage.setItem('pdk.seen_hint', '1');"
        "window.__said = [];"
        "Object.defineProperty(window, 'speechSynthesis', {value: {"
        " getVoices: () => [{lang: 'zh-CN', name: 'test'}],"
        " speak: (u) => window.__said.push([u.text, u.lang, Date.now()]), cancel: () => {}}});"
    )
    page = context.new_page()
    page.goto(base + "?lang=zh")
    page.wait_for_selector('[data-testid="card"]')
    for _ in range(8):
        take_turn(page)
        page.wait_for_timeout(100)
    assert page.evaluate("window.__said.length") == 0  # sound is off by default
    page.click('[data-testid="menu"]')
    page.click('[data-testid="sound"]')
    page.click("#menu-close")
    for _ in range(300):
        if page.is_visible('[data-testid="next-deal"]'):
            page.click('[data-testid="next-deal"]')
        take_turn(page)
        page.wait_for_timeout(50)
        if page.evaluate("window.__said.length") >= 2:
            break
    said = page.evaluate("window.__said")
    assert len(said) >= 2
    assert {text for text, _, _ in said} <= {"轮到你了", "要不起", "报单", "炸弹", "全关"}
    assert {code for _, code, _ in said} == {"zh-CN"}
    assert all(b[2] - a[2] >= 700 for a, b in itertools.pairwise(said))
    context.close()


def test_a_quick_phrase_shows_by_the_seat_on_every_page(server: tuple[str, Rooms], browser: Any) -> None:
    base, _ = server
    host = person(browser, base + "room", LAYOUTS["desktop"], locale="zh-CN")
    host.wait_for_selector('[data-testid="create-room"]:not([disabled])')
    host.click('[data-testid="create-room"]')
    host.wait_for_selector('[data-testid="invite-link"]')
    link = host.get_attribute('[data-testid="invite-link"]', "href")
    assert link is not None
    phone = person(browser, base + "room/" + link.split("/room/")[1], LAYOUTS["portrait"], locale="zh-CN")
    phone.wait_for_selector('[data-testid="my-name"]')
    host.click('[data-testid="start-room"]')
    phone.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    phone.click('[data-testid="say-toggle"]')
    phone.click('[data-testid="phrases"] [data-phrase="hurry"]')
    host.wait_for_selector('[data-testid="said"]')
    assert host.inner_text('[data-testid="said"]') == "快点吧！"
    assert "快点吧！" in host.inner_text('[data-testid="message"]')
    for p in (host, phone):
        assert not p.errors, p.errors
        p.context.close()


def test_the_replays_buttons_are_all_on_screen(server: tuple[str, Rooms], browser: Any) -> None:
    """The replay's ◀ was clipped at 390 px and off-screen at 320. One deal is played on the
    smallest phone, and its replay is looked at in every window, as a phone turned or a
    window resized shows it."""
    base, _ = server
    sizes = [(320, 568), (390, 844), (844, 390), (1280, 800)]
    page = person(browser, base, sizes[0])
    page.wait_for_selector('[data-testid="card"]')
    for _ in range(400):
        if page.is_visible('[data-testid="settlement"]'):
            break
        take_turn(page)
        page.wait_for_timeout(30)
    page.click("#replay-open")
    page.wait_for_selector('[data-testid="replay-state"]')
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # the resize's layout, a frame or two
        for button in ("#replay-prev", "#replay-auto", "#replay-next", "#replay-close"):
            box = page.locator(button).bounding_box()
            assert box is not None, (width, button)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, button, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, button, box)
    page.context.close()


def all_auto(pages: list[Any]) -> None:
    """Each person hands the deal to 托管 (the cheapest way to reach the settlement)."""
    for p in pages:
        p.click('[data-testid="auto"]')
        wait_for(p, "document.querySelector('[data-testid=auto]').getAttribute('aria-pressed') === 'true'")


def test_ready_check_host_hand_off_a_freed_seat_and_what_auto_played(
    server: tuple[str, Rooms], browser: Any
) -> None:
    """Issue 36, room management, on three pages: the deal starts when every person seated
    taps 准备 (the host need not deal); closing mid-deal says in words that the deal ends
    for everyone; the host hands the role on, the new host frees a seat (its key dies, a
    computer plays it, named as one in the trick rows and the replay); a seat back from
    托管 is told what it played for them."""
    base, rooms = server
    host = easy_room(browser, base, LAYOUTS["desktop"])
    links = [a.get_attribute("href") for a in host.query_selector_all('[data-testid="invite-link"]')]
    phones = []
    for link, name in zip(links, ("Ming", "Lan"), strict=True):
        assert link is not None
        phone = person(browser, base + "room/" + link.split("/room/")[1], LAYOUTS["portrait"], locale="zh-CN")
        phone.evaluate(f"localStorage.setItem('pdk.name', '{name}')")
        phone.wait_for_selector('[data-testid="my-name"]')
        phone.fill('[data-testid="my-name"]', name)
        phone.press('[data-testid="my-name"]', "Enter")
        phones.append(phone)
    rid = urlsplit(host.url).path.split("/")[2]
    room = rooms.get(rid)
    pages = [host, *phones]
    for p in pages:
        wait_for(p, "document.querySelectorAll('[data-testid=seat-ready]').length === 3")
    # 准备: each person's; who is ready shows on every page; the last one deals.
    phones[0].click('[data-testid="ready"]')
    wait_for(
        host,
        "[...document.querySelectorAll('[data-testid=seat-ready]')].some(b => b.textContent === '已准备')",
    )
    phones[1].click('[data-testid="ready"]')
    assert room.table is None
    host.click('[data-testid="ready"]')
    for p in pages:
        p.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    # Closing mid-deal asks first, in words.
    host.click("#invite-toggle")
    host.click('[data-testid="close-room"]')
    assert "这一局还没打完" in host.inner_text('[data-testid="close-room"]')
    assert room.info.phase == "playing"
    # The host hands the role on to Ming, who frees Lan's seat for a computer.
    host.click('[data-testid="room-seat"][data-seat="1"] [data-testid="make-host"]')
    phones[0].wait_for_selector("#invite-toggle:not([hidden])")
    host.wait_for_selector("#invite-toggle", state="hidden")
    assert phones[0].inner_text('[data-testid="seat-me"] [data-testid="host-badge"]') == "房主"
    lan_key = room.info.seats[2].key
    phones[0].click("#invite-toggle")
    phones[0].click('[data-testid="room-seat"][data-seat="2"] [data-testid="free-seat"]')
    until(lambda: not room.info.seats[2].taken, 10, "Lan's seat freed")
    with pytest.raises(RoomRefused):
        room.seat_of(lan_key)  # the freed person's key died
    phones[0].click("#lobby-close")
    computer = "[...document.querySelectorAll('{}')].some(n => n.textContent.startsWith('电脑'))"
    wait_for(phones[0], computer.format(".felt [data-testid=seat-name]"))
    # 托管 plays for the old host a while (Ming plays his own turns); back, the page lists
    # what it played.
    all_auto([host])

    def played_for_host() -> bool:
        table = room.table
        assert table is not None
        history = table.session.state.history
        made = [n for n, by in table.session.made_by.items() if by == "auto" and n <= len(history)]
        if sum(history[n - 1].seat == 0 for n in made) >= 2:
            return True
        take_turn(phones[0])
        return False

    until(played_for_host, 60, "托管's plays for the host", every=0.05)
    wait_for(phones[0], computer.format(".trick .who"))  # the computer's plays say who made them
    host.click('[data-testid="auto"]')
    host.wait_for_selector('[data-testid="auto-told"]')
    told = host.locator("#auto-told-list li").all_inner_texts()
    assert len(told) >= 2 and all(told)
    host.click("#auto-told-ok")
    all_auto([host, phones[0]])
    for p in (host, phones[0]):
        p.wait_for_selector('[data-testid="settlement"]')
    assert "下一局准备" in host.inner_text('[data-testid="ready-list"]')
    host.click("#replay-open")
    host.wait_for_selector("#replay-hands .who")
    names = host.locator("#replay-hands .who").all_inner_texts()
    assert names[2].lstrip("★ ").startswith("电脑"), names
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()
