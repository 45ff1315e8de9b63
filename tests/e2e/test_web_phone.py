"""The table as people use it on a phone, in Chromium: it never stalls, every card of a
16-card hand can be tapped at 390 px, a finger slide selects, plays move (unless the
phone asks for reduced motion), sounds are off until turned on, the settlement shows
every seat's cards, the replay explains itself, the rules are one tap away, no text is
under 14 px, and the shell opens while the server is down.

The server and the browser are the ones of ``tests/e2e/test_web.py`` (easy bots, a 20 ms pace).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.view.rules_in_words import sections
from pdk.web.server import create_app
from tests.e2e import test_web as base
from tests.support.tooling import LAYOUTS, Served, hand, play_a_turn, wait_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(base.CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]
# The same server (easy bots, a 20 ms pace) and browser as tests/e2e/test_web.py's.
server = base.server
browser = base.browser
wait_my_turn = base.wait_my_turn

PHONES = {"small": (320, 568), "portrait": LAYOUTS["portrait"], "landscape": LAYOUTS["landscape"]}
SEEN_HINT = "localStorage.setItem('pdk.seen_hint', '1')"


def phone(browser: Any, url: str, size: tuple[int, int], locale: str = "en-US", **kw: Any) -> Any:
    """A page on a touch phone of this size, the first-visit hint already seen."""
    w, h = size
    context = browser.new_context(
        viewport={"width": w, "height": h}, locale=locale, has_touch=True, is_mobile=True, **kw
    )
    context.add_init_script(base.NO_AUTO_PASS)
    context.add_init_script(SEEN_HINT)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector('[data-testid="card"]')
    settled(page)
    return page


def settled(page: Any) -> None:
    """Wait until the hand's cards have been dealt (their deal animation is over)."""
    wait_for(page, "document.querySelector('[data-testid=hand]').getAnimations({subtree: true}).length === 0")


def play_out(page: Any) -> None:
    turns = 0
    while wait_my_turn(page):
        play_a_turn(page)
        turns += 1
        assert turns < 60


# -- it never stalls ----------------------------------------------------------------------


def test_tapping_pass_before_the_pages_own_pass_never_stalls_the_table(browser: Any, server: str) -> None:
    # The page passes for you after 600 ms when nothing beats; tapping 不出 first used to
    # void that pending pass without asking the bots to move: "thinking…" for ever.
    page = phone(browser, server, LAYOUTS["portrait"])
    page.evaluate("localStorage.setItem('pdk.autopass', 'on')")
    page.reload()
    page.wait_for_selector('[data-testid="card"]')
    raced = 0
    for _ in range(60):
        if not wait_my_turn(page):
            break
        # Nothing beats: tap 不出 at once, before the page's own pass fires.
        done = page.evaluate(
            "() => { const play = document.querySelector('[data-testid=play]');"
            " const pass = document.querySelector('[data-testid=pass]');"
            " if (!play.disabled) return 'play'; if (pass.disabled) return 'passed by the page';"
            " pass.click(); return 'tapped'; }"
        )
        if done == "tapped":
            held = len(hand(page))
            raced += 1
            # The table goes on: the bots move and it is the player's turn again (or over).
            wait_for(
                page,
                "() => !document.querySelector('[data-testid=hint]').disabled"
                " || !document.querySelector('[data-testid=settlement]').hidden",
                timeout=8_000,
            )
            assert len(hand(page)) == held
        elif done == "play":
            play_a_turn(page)
    assert raced, "a turn where nothing beats came up"
    assert not page.errors


# -- a phone-first hand -------------------------------------------------------------------

# For each card of the hand: a point whose 32×32 px square around it is that card alone
# (what a fingertip covers), or null.
TAP_POINTS = """() => [...document.querySelectorAll('[data-testid=hand] [data-testid=card]')].map(card => {
  const r = card.getBoundingClientRect();
  const mine = (x, y) => {
    const e = document.elementFromPoint(x, y);
    return !!e && e.closest('[data-testid=card]') === card;
  };
  for (let y = r.top + 16; y <= r.bottom - 16; y += 2) {
    for (let x = r.left + 16; x <= r.right - 16; x += 2) {
      if ([[0, 0], [-15, -15], [15, -15], [-15, 15], [15, 15], [0, -15], [0, 15], [-15, 0], [15, 0]]
          .every(([dx, dy]) => mine(x + dx, y + dy))) return [x, y];
    }
  }
  return null;
})"""


@pytest.mark.parametrize("size", ["small", "portrait", "landscape"])
def test_every_card_of_a_16_card_hand_can_be_tapped(browser: Any, server: str, size: str) -> None:
    page = phone(browser, server, PHONES[size])
    cards = hand(page)
    assert len(cards) == 16
    points = page.evaluate(TAP_POINTS)
    thin = [c for c, p in zip(cards, points, strict=True) if p is None]
    assert not thin, f"cards with no fingertip-sized part showing: {thin}"
    pressed = '[data-testid="hand"] [data-testid="card"][aria-pressed="true"]'
    for i, (x, y) in enumerate(points):
        page.touchscreen.tap(x, y)
        chosen = page.locator(pressed).evaluate_all("els => els.map(e => +e.dataset.i)")
        assert chosen == [i], f"tapping card {i} ({cards[i]}) selected {chosen}"
        page.touchscreen.tap(x, y)  # and again: unselected
        assert page.locator(pressed).count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0]


def test_a_finger_slide_selects_a_run_and_a_selected_card_rises(browser: Any, server: str) -> None:
    page = phone(browser, server, LAYOUTS["portrait"])
    points = page.evaluate(TAP_POINTS)
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    tops = [cards.nth(i).evaluate("e => e.getBoundingClientRect().top") for i in range(3)]
    # Slide from the first card across the next two (same row): all three selected.
    (x0, y0), (x2, _) = points[0], points[2]
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(x0 + (x2 - x0) * k / 10, y0)
    page.mouse.up()
    pressed = '[data-testid="hand"] [data-testid="card"][aria-pressed="true"]'
    assert page.locator(pressed).evaluate_all("els => els.map(e => +e.dataset.i)") == [0, 1, 2]
    risen = [cards.nth(i).evaluate("e => e.getBoundingClientRect().top") for i in range(3)]
    assert all(before - after >= 14 for before, after in zip(tops, risen, strict=True)), (
        "selected cards stand up"
    )
    # A slide that starts on a selected card unselects what it passes.
    (x1, _) = points[1]
    page.mouse.move(x1, y0)
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(x1 + (x2 - x1) * k / 5, y0)
    page.mouse.up()
    assert page.locator(pressed).evaluate_all("els => els.map(e => +e.dataset.i)") == [0]
    assert not page.errors


# -- motion and sound ---------------------------------------------------------------------


# The animation of the play that just came in (read at once: the next move redraws it).
MOVING = """() => { const e = document.querySelector('[data-testid=trick] .play.latest.enter');
  return e && getComputedStyle(e).animationName.split(',')[0]; }"""


def test_plays_move_unless_reduced_motion_and_thinking_dots_exist(browser: Any, server: str) -> None:
    page = phone(browser, server, LAYOUTS["portrait"])
    names = page.evaluate(
        "() => [...document.styleSheets].flatMap(s => [...s.cssRules])"
        ".filter(r => r.type === CSSRule.KEYFRAMES_RULE).map(r => r.name)"
    )
    assert {"dots", "deal-in", "from-prev", "from-next", "from-you", "bomb", "clear-trick"} <= set(names)
    assert wait_my_turn(page)
    play_a_turn(page)
    wait_for(page, MOVING)
    anim = page.evaluate(MOVING)
    assert anim.startswith("from-")
    still = phone(browser, server, LAYOUTS["portrait"], reduced_motion="reduce")
    assert wait_my_turn(still)
    play_a_turn(still)
    wait_for(still, MOVING)
    assert still.evaluate(MOVING) == "none"


def test_sounds_are_off_until_turned_on_and_the_choice_is_kept(browser: Any, server: str) -> None:
    page = phone(browser, server, LAYOUTS["portrait"])
    assert wait_my_turn(page)
    play_a_turn(page)
    wait_my_turn(page)
    assert page.evaluate("document.body.dataset.sound") is None, "no sound before they are turned on"
    page.click('[data-testid="menu"]')
    toggle = page.locator('[data-testid="sound"]')
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('pdk.sound')") == "on"
    page.locator('[data-testid="speed"]').select_option("slow")
    page.click("#menu-close")
    if wait_my_turn(page):
        play_a_turn(page)
        wait_for(page, "!!document.body.dataset.sound", timeout=10_000)
    page.reload()
    page.wait_for_selector('[data-testid="card"]')
    page.click('[data-testid="menu"]')
    assert page.locator('[data-testid="sound"]').get_attribute("aria-pressed") == "true"
    assert page.locator('[data-testid="speed"]').input_value() == "slow"
    assert not page.errors


# -- say it once, clearly -----------------------------------------------------------------


def test_settlement_shows_every_hand_and_keeps_the_header_in_reach(browser: Any, server: str) -> None:
    page = phone(browser, server, LAYOUTS["portrait"])
    assert wait_my_turn(page)
    play_a_turn(page)
    assert wait_my_turn(page)  # the computer players have moved: a new level waits for the next deal
    page.locator("#difficulty").select_option("hard")
    wait_for(page, "document.querySelector('[data-testid=message]').textContent.includes('next deal')")
    assert "(next deal)" in page.locator("#difficulty option:checked").inner_text()
    play_out(page)
    settlement = page.locator('[data-testid="settlement"]')
    for row in settlement.locator("tr[data-seat]:not(.why)").all():
        left = int(row.locator("td").nth(1).inner_text())
        seat = row.get_attribute("data-seat")
        shown = settlement.locator(f'tr.why[data-seat="{seat}"] [data-testid="left-cards"] .card')
        assert shown.count() == left
    assert "next deal" in page.locator('[data-testid="settle-next"]').inner_text()
    # The header's controls are above the panel: the language toggle works while it is open.
    for sel in ("#lang-toggle", "#difficulty", '[data-testid="menu"]'):
        hit = page.locator(sel).evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
        )
        assert hit, f"{sel} is covered by the settlement"
    page.click("#lang-toggle")
    wait_for(page, "document.querySelector('[data-testid=next-deal]').textContent === '下一局'")
    assert not page.errors


def test_replay_shows_the_play_to_beat_who_won_and_plays_itself(browser: Any, server: str) -> None:
    page = phone(browser, server, LAYOUTS["desktop"])
    play_out(page)
    page.click("#replay-open")
    page.wait_for_selector('[data-testid="replay"]:not([hidden])')
    state = page.locator('[data-testid="replay-state"]')
    seen_beat = False
    for _ in range(8):
        page.click("#replay-next")
        seen_beat = seen_beat or "to beat" in state.inner_text()
    assert seen_beat, "a follow says which play it had to beat"
    assert page.locator("#replay-hands .ract").count() == 0  # the stray "|" went with it
    page.click('[data-testid="replay-auto"]')
    title = page.locator("#replay-title")
    first = title.inner_text()
    wait_for(page, f"document.querySelector('#replay-title').textContent !== {json.dumps(first)}")
    page.click('[data-testid="replay-auto"]')  # stop; then step to the end
    while page.locator("#replay-next").is_enabled():
        page.click("#replay-next")
    result = page.locator('[data-testid="replay-result"]')
    assert "wins the deal" in result.inner_text()
    assert result.locator("li").count() == 3 and "collects" in result.inner_text()
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_rules_page_is_the_profiles_own_text(browser: Any, server: str, lang: str) -> None:
    page = phone(browser, server + f"?lang={lang}", LAYOUTS["portrait"])
    page.click('[data-testid="menu"]')
    page.click('[data-testid="rules-open"]')
    page.wait_for_selector('[data-testid="rules"]:not([hidden]) #rules-body li')
    text = page.locator("#rules-body").inner_text()
    for title, rules in sections(load_profile("classic16"), lang):  # what `pdk variants show` says
        assert title in text
        for rule in rules:
            assert rule in text
    assert page.locator("#howto li").count() >= 4
    page.keyboard.press("Escape")
    assert page.locator('[data-testid="rules"]').is_hidden()


def test_the_first_visit_shows_how_to_play_once(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector('[data-testid="card"]')
    tip = page.locator('[data-testid="first-hint"]')
    assert tip.is_visible() and "划" in tip.inner_text()
    page.click("#first-hint-ok")
    assert tip.is_hidden()
    page.reload()
    page.wait_for_selector('[data-testid="card"]')
    assert tip.is_hidden()
    context.close()


# -- readable -----------------------------------------------------------------------------

# Every visible element with text of its own, and its font size.
SMALL_TEXT = """() => [...document.querySelectorAll('body *')].filter(e =>
  [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
  && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
  && !e.closest('[hidden]')
).map(e => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])
 .filter(([, s]) => s < 14)"""


@pytest.mark.parametrize("size", ["small", "portrait", "landscape"])
def test_no_text_under_14px_and_the_counter_reads_rank_then_count(
    browser: Any, server: str, size: str
) -> None:
    page = phone(browser, server, PHONES[size])
    assert wait_my_turn(page)
    page.click('[data-testid="hint"]')
    assert page.evaluate(SMALL_TEXT) == []
    chips = page.locator('[data-testid="counter"] .cnt')
    texts = chips.evaluate_all("els => els.map(e => e.textContent)")
    assert all(
        t.split("×")[0] in {"3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"} for t in texts
    )
    assert all(t.split("×")[1].isdigit() for t in texts), texts
    tops = chips.evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert tops.count(tops[-1]) > 1, "the last rank does not sit alone on a line"
    if size == "landscape":  # your own seat's name (and its badges) shows sideways too
        assert page.locator(".me .name").is_visible()
    page.click('[data-testid="menu"]')
    assert page.evaluate(SMALL_TEXT) == []
    page.click('[data-testid="rules-open"]')
    page.wait_for_selector("#rules-body li")
    assert page.evaluate(SMALL_TEXT) == []
    page.keyboard.press("Escape")
    play_out(page)
    # the settlement drawn whole (its table and the line under it) before its text is measured
    drawn = "document.querySelector('#settle-table td.total')"
    wait_for(page, f"{drawn} && document.querySelector('#settle-next').textContent !== ''")
    assert page.evaluate(SMALL_TEXT) == []


# -- installable --------------------------------------------------------------------------


def test_the_shell_opens_while_the_server_is_down_and_says_so(browser: Any, tmp_path: Path) -> None:
    store = TableStore(tmp_path, load_profile("classic16"), "classic16", seed=5, difficulty="easy")
    up = Served(create_app(store, pace_ms=20))
    url = up.url
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('[data-testid="card"]')
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert page.evaluate(f"fetch({json.dumps(icon['src'])}).then(r => r.ok)")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now the worker serves the page
    page.wait_for_selector('[data-testid="card"]')
    up.stop()
    page.reload()
    offline = page.locator('[data-testid="offline"]')
    offline.wait_for(state="visible", timeout=10_000)
    assert "cannot be reached" in offline.inner_text()
    assert page.locator('[data-testid="play"]').inner_text() == "Play"  # the shell, in words
    context.close()


# -- a refused play is an answer, not a failed request ------------------------------------


def test_a_refused_play_says_why_and_the_console_stays_clean(browser: Any, server: str) -> None:
    page = phone(browser, server, PHONES["portrait"])
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    assert wait_my_turn(page)
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    ranks = hand(page)
    assert ranks[0][:-1] != ranks[-1][:-1]  # the lowest and the highest: never one combination
    cards.first.tap()
    cards.last.tap()
    page.click('[data-testid="play"]')
    wait_for(page, "document.querySelector('[data-testid=message]').textContent.length > 0")
    said = page.locator('[data-testid="message"]').inner_text()
    assert said and len(hand(page)) == len(ranks)  # refused, with its reason; nothing played
    assert not [m for m in logged if "409" in m or "Failed to load" in m], logged
    assert not page.errors, page.errors
