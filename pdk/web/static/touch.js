// The hand under a finger. A tap selects or unselects one card; a finger (or mouse)
// sliding across the hand selects every card it passes, or unselects them when the slide
// began on a selected card, as card apps do. The hand is laid out so that every card
// shows a strip wide enough to tap: one row where it fits, else two rows of at most half
// the hand each (a phone upright with 16 cards), the upper row's corners left showing.

const MIN_STRIP = 32; // px of a card that must show in one row before two rows are used

// Wire the slide once on the hand's element; the cards inside are redrawn freely.
// `isSelected(i)` and `setSelected(i, on)` read and change the selection by hand index;
// `done()` is called once a tap or slide ends (the page then redraws).
export function attachHand(el, { isSelected, setSelected, done, enabled }) {
  let mode = null; // true: this slide selects; false: it unselects; null: no slide
  const seen = new Set();
  const cardAt = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    const card = hit && hit.closest("[data-testid=card]");
    return card && el.contains(card) ? card : null;
  };
  const touch = (card) => {
    const i = Number(card.dataset.i);
    if (seen.has(i)) return;
    seen.add(i);
    setSelected(i, mode);
    card.setAttribute("aria-pressed", String(mode));
  };
  el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || (enabled && !enabled())) return;
    const card = cardAt(e.clientX, e.clientY);
    if (!card) return;
    e.preventDefault();
    mode = !isSelected(Number(card.dataset.i));
    seen.clear();
    touch(card);
    // Keep the moves coming to the hand while the finger is down, even off its cards.
    if (el.setPointerCapture) el.setPointerCapture(e.pointerId);
  });
  el.addEventListener("pointermove", (e) => {
    if (mode === null) return;
    const card = cardAt(e.clientX, e.clientY);
    if (card) touch(card);
  });
  const end = () => {
    if (mode === null) return;
    mode = null;
    done();
  };
  el.addEventListener("pointerup", end);
  el.addEventListener("pointercancel", end);
  // A keyboard user (Enter or Space on a focused card) toggles it the same way.
  el.addEventListener("keydown", (e) => {
    const card = e.target.closest && e.target.closest("[data-testid=card]");
    if (!card || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    e.stopPropagation();
    const i = Number(card.dataset.i);
    setSelected(i, !isSelected(i));
    done();
  });
}

// Overlap the cards so the whole hand fits its width: one row if each card then shows at
// least MIN_STRIP px, else two rows. Rank groups keep a small gap where there is room.
export function layoutHand(el) {
  for (const b of el.querySelectorAll(".row-break")) b.remove();
  const cards = [...el.querySelectorAll("[data-testid=card]")];
  el.classList.remove("two-rows");
  for (const c of cards) { c.classList.remove("row2"); c.style.marginLeft = ""; }
  if (!cards.length) return;
  const cw = cards[0].getBoundingClientRect().width;
  const width = el.clientWidth;
  const stepOf = (row) => {
    const n = row.length;
    const groups = row.slice(1).filter((c) => c.classList.contains("group")).length;
    const room = (width - cw - 2) / Math.max(n - 1, 1);
    const gap = room - 6 * groups / Math.max(n - 1, 1) >= cw * 0.75 ? 6 : 0;
    return { step: Math.min(cw + 4, (width - cw - groups * gap - 2) / Math.max(n - 1, 1)), gap };
  };
  let rows = [cards];
  if (cards.length > 8 && stepOf(cards).step < MIN_STRIP) {
    const half = Math.ceil(cards.length / 2);
    rows = [cards.slice(0, half), cards.slice(half)];
    el.classList.add("two-rows");
    const br = document.createElement("div");
    br.className = "row-break";
    rows[1][0].before(br);
    for (const c of rows[1]) c.classList.add("row2");
  }
  for (const row of rows) {
    const { step, gap } = stepOf(row);
    for (let i = 1; i < row.length; i++) {
      row[i].style.marginLeft = `${step - cw + (row[i].classList.contains("group") ? gap : 0)}px`;
    }
  }
}
