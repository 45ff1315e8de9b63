"""The table's geometry in Chromium, measured from its real boxes (getBoundingClientRect) at
the four windows a family plays in (a small phone 320×568, a phone upright 390×844 and
sideways 844×390, a desktop 1280×800), with three seats (classic16) and four (four-player):
the trick's rows keep clear of every seat box and of the card counter, nothing runs out of
the window, the hand's cards are big enough to read and every button a finger taps is
44 px; the English settlement fits a phone's sheet; the ☰ menu says on and off in words
and 残局 is one of its buttons.

A position is made by rewriting the server's answer in the browser (as
``test_web.py::test_a_long_trick_keeps_to_the_felt`` does): one server per profile, easy
bots, no deal played out except for the settlement's one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e import test_web as base
from tests.support.tooling import LAYOUTS, wait_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(base.CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"),
]
browser = base.browser
server = base.server  # classic16, three seats

SIZES = {"small": (320, 568), **LAYOUTS}
# The least a hand's card measures (width, height) at each window: upright and sideways
# the phone has room for cards bigger than the 48×70 and 44×60 they were.
CARD = {"small": (44, 62), "portrait": (60, 86), "landscape": (52, 74), "desktop": (64, 92)}
TAP = 44  # px: a fingertip's target, each way


@pytest.fixture(scope="module")
def server4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with base.serving(tmp_path_factory.mktemp("web4"), "four-player") as url:
        yield url


@pytest.fixture(params=[3, 4], ids=["3seats", "4seats"])
def table(request: pytest.FixtureRequest) -> tuple[int, str]:
    """The page's address with three seats or four (each profile's one shared server)."""
    seats = int(request.param)
    return seats, str(request.getfixturevalue("server" if seats == 3 else "server4"))


def window(browser: Any, size: str, locale: str = "en-US") -> Any:
    """A new browser of this size; a touch phone below the desktop. No motion: the boxes
    are measured where they rest, at once."""
    w, h = SIZES[size]
    phone = size != "desktop"
    context = browser.new_context(
        viewport={"width": w, "height": h}, locale=locale, has_touch=phone, is_mobile=phone,
        reduced_motion="reduce",
    )
    # (auto-pass as the server has it: a switch sent on opening would answer with the real
    # table, over a rewritten one)
    context.add_init_script("localStorage.setItem('pdk.seen_hint', '1')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def a_full_round(route: Any) -> None:
    """The table's answer with the trick one full round of pairs (a row for every seat),
    waiting on the human, so the page draws it and steps nothing."""
    response = route.fetch()
    data = response.json()
    seats = sorted(data["model"]["seats"], key=lambda s: s["offset"])
    pair = {"text": "pair"}
    data["model"]["trick"] = {
        "leader": seats[1]["seat"],
        "actions": [
            {"seat": s["seat"], "name": s["name"], "play": {"cards": [f"{r}s", f"{r}h"], "kind_name": pair}}
            for s, r in zip(seats[1:] + seats[:1], "3456", strict=False)
        ],
    }
    data["bot_turn"] = False
    data["machine_turn"] = False
    data["model"]["task"]["kind"] = "beat"
    route.fulfill(response=response, body=json.dumps(data))


# Every box the table shows, by what it is: the seats, the trick's rows, the counter, the
# hand's cards, the buttons and the header's controls.
BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom};
  };
  const shown = (sel) => [...document.querySelectorAll(sel)]
    .filter((e) => e.getClientRects().length).map(box);
  return {
    seats: shown('.felt .seat'), trick: shown('[data-testid=trick]')[0],
    rows: shown('[data-testid=trick] .play'), counter: shown('[data-testid=counter]')[0],
    cards: shown('[data-testid=hand] [data-testid=card]'), buttons: shown('.actions button'),
    bar: shown('.bar button, .bar select, .bar a'),
    all: shown('.bar > *, .felt .seat, [data-testid=trick] .play, .counter .cnt, [data-testid=hand] .card,'
      + ' .actions button, .message'),
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["t"] < b["b"] - 1 and b["t"] < a["b"] - 1


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_fits_its_window_with_three_or_four_seats(
    browser: Any, table: tuple[int, str], size: str
) -> None:
    # Four seats sideways, the trick's rows once ran under the 对家 box and into the card
    # counter, and at 320 px the trick had no height at all: a full round must show whole,
    # inside the trick and the window, over no seat and no counter. Upright with four seats
    # 13 cards squeezed into 48 px rows under an empty felt; sideways the cards were 44×60
    # and the buttons 64×40.
    seats, url = table
    w, h = SIZES[size]
    page = window(browser, size)
    page.route("**/api/open*", a_full_round)
    page.goto(url)
    page.wait_for_selector('[data-testid="trick"] .play.latest')
    boxes = page.evaluate(BOXES)
    rows, trick = boxes["rows"], boxes["trick"]
    assert len(rows) == (1 if size == "small" else seats)  # 320×568 shows the latest play only
    assert len(boxes["seats"]) == seats - 1
    for row in rows:
        clipped = row["t"] < trick["t"] - 1 or row["b"] > trick["b"] + 1
        assert not clipped, f"a trick row is clipped: {row} {trick}"
        for seat in boxes["seats"]:
            assert not overlap(row, seat), f"a trick row runs under a seat: {row} {seat}"
        assert not overlap(row, boxes["counter"]), f"a trick row runs into the counter: {row}"
    for seat in boxes["seats"]:
        assert not overlap(seat, boxes["counter"]), f"a seat runs into the counter: {seat}"
    for b in boxes["all"]:
        inside = b["l"] >= -1 and b["t"] >= -1 and b["r"] <= w + 1 and b["b"] <= h + 1
        assert inside, f"outside the window: {b}"
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    cards = boxes["cards"]
    assert len(cards) == (16 if seats == 3 else 13)
    cw, ch = CARD[size]
    for c in cards:
        assert c["r"] - c["l"] >= cw - 0.5 and c["b"] - c["t"] >= ch - 0.5, f"a card under {cw}×{ch}: {c}"
    if size != "desktop":  # a finger, not a mouse
        for b in boxes["buttons"] + [b for b in boxes["bar"] if b["r"] - b["l"] < 150]:
            tappable = b["r"] - b["l"] >= TAP - 0.5 and b["b"] - b["t"] >= TAP - 0.5
            assert tappable, f"a button under {TAP} px: {b}"
    assert not page.errors
    page.context.close()


def test_the_settlement_and_the_replay_fit_a_phone_in_both_languages(browser: Any, server: str) -> None:
    # In English at 390 px the settlement's Session column ran out of the sheet, and its
    # review button read "Review 复盘". One deal (托管 plays it), then each window and
    # language over the same settlement.
    page = window(browser, "portrait")
    page.goto(server + "?lang=en")
    page.wait_for_selector('[data-testid="card"]')
    page.click('[data-testid="auto"]')
    page.wait_for_selector('[data-testid="settlement"]:not([hidden]) #settle-table td.total', timeout=60_000)
    for lang in ("en", "zh"):
        if lang == "zh":
            page.click("#lang-toggle")
            wait_for(page, "document.querySelector('[data-testid=next-deal]').textContent === '下一局'")
        for size in ("small", "portrait", "landscape", "desktop"):
            w, h = SIZES[size]
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(50)
            fit = page.evaluate(
                """() => { const sheet = document.querySelector('#settlement .sheet');
                const s = sheet.getBoundingClientRect();
                const cells = '#settle-table th, #settle-table td, .panel-actions button';
                const out = [...sheet.querySelectorAll(cells)]
                  .map((e) => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
                  .filter(([, r]) => r.left < s.left - 1 || r.right > s.right + 1 || r.right > innerWidth + 1)
                  .map(([t]) => t);
                return {scroll: sheet.scrollWidth - sheet.clientWidth, out}; }"""
            )
            assert fit == {"scroll": 0, "out": []}, f"{lang} {size}: {fit}"
        review = page.locator('[data-testid="review-open"]').inner_text()
        assert review == ("Review" if lang == "en" else "复盘"), review  # in the page's language only
    page.click("#replay-open")
    page.wait_for_selector('[data-testid="replay"]:not([hidden])')
    for size in SIZES:
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        for sel in ("#replay-prev", "#replay-auto", "#replay-next", "#replay-close"):
            r = page.locator(sel).evaluate("e => e.getBoundingClientRect().toJSON()")
            assert r["left"] >= 0 and r["right"] <= w and r["bottom"] <= h, f"{sel} clipped at {size}: {r}"
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_menu_says_on_and_off_in_words_and_puzzles_is_one_of_its_buttons(
    browser: Any, server: str, lang: str
) -> None:
    # 数字 toggled between "—" and "✓", and 残局 was a bare link cut off at the sheet's left
    # edge at 320 px; the room's menu is the same one (page.js builds both).
    page = window(browser, "small", locale="zh-CN" if lang == "zh" else "en-US")
    page.goto(server + f"?lang={lang}")
    page.wait_for_selector('[data-testid="card"]')
    page.click('[data-testid="menu"]')
    numbers = page.locator('[data-testid="numbers-toggle"]')
    sound = page.locator('[data-testid="sound"]')
    counter = page.locator('[data-testid="counter-toggle"]')
    assert sound.get_attribute("aria-pressed") == "false" and counter.get_attribute("aria-pressed") == "true"
    off, on = sound.inner_text(), counter.inner_text()
    assert (off, on) == (("Off", "On") if lang == "en" else ("关", "开"))
    assert numbers.inner_text() == off
    numbers.click()
    assert numbers.inner_text() == on and numbers.get_attribute("aria-pressed") == "true"
    puzzles = page.locator("#menu .panel-actions [data-testid=puzzles-open]")
    assert puzzles.evaluate("e => e.tagName") == "BUTTON"
    look = "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.borderRadius, s.fontSize]; }"
    assert puzzles.evaluate(look) == page.locator('[data-testid="rules-open"]').evaluate(look)
    w, _ = SIZES["small"]
    for r in page.locator("#menu .panel-actions button").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert r["left"] >= 0 and r["right"] <= w and r["height"] >= TAP - 0.5, r
    puzzles.click()
    page.wait_for_url("**/puzzles")
    # The room's menu is the same markup: its switches and its 规则.
    page.goto(server + "room")
    page.click('[data-testid="menu"]')
    ids = page.locator("#menu button").evaluate_all("els => els.map(e => e.id)")
    assert ids == ["sound-toggle", "counter-toggle", "autopass-toggle", "rules-open", "menu-close"]
    assert not page.errors
    page.context.close()
