// The table as a seat sees it, drawn from the server's table model: the seats around the
// felt with their badges, the trick, the 记牌器, the hand, the buttons with the locked
// 不出's reason, the message line and the settlement with every seat's remaining cards.
// Both the single-player page (app.js) and the table for friends (room.js) draw with it,
// so a seat in a room keeps everything the single-player page shows; the seat's
// controller (seat.js) is one for both, and each page keeps only what it sends, what it
// is sent and where names come from.
import { cardEl, cardsRow } from "./cards.js";
import { $ } from "./page.js";
import { layoutHand } from "./touch.js";

export function esc(text) {
  const d = document.createElement("div");
  d.textContent = text;
  return d.innerHTML;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function slotFor(seat, players) {
  if (seat.offset === 1) return "#slot-next";
  if (seat.offset === players - 1) return "#slot-prev";
  return "#slot-across";
}

// A seat's head: its name, then what the page knows of it. `o`: {t, name, testid,
// relation (text or null), bao, auto, away, thinking, total (a number or null)}.
export function seatHead(seat, o) {
  const head = document.createElement("div");
  head.className = "head";
  const name = document.createElement("span");
  name.className = "name";
  name.setAttribute("data-testid", o.testid ?? "seat-name");
  name.dataset.seat = seat;
  name.textContent = o.name;
  head.append(name);
  const t = o.t;
  if (o.relation) head.insertAdjacentHTML("beforeend", `<small class="rel">${esc(o.relation)}</small>`);
  if (o.bao) head.insertAdjacentHTML("beforeend", `<span class="badge bao" data-testid="bao-dan">${t("bao_dan")}</span>`);
  if (o.auto) head.insertAdjacentHTML("beforeend", `<span class="badge auto" data-testid="auto-badge">${t("auto")}</span>`);
  if (o.away) head.insertAdjacentHTML("beforeend", `<span class="badge away" data-testid="away">${t("room_away")}</span>`);
  if (o.thinking) head.insertAdjacentHTML("beforeend", `<span class="thinking" data-testid="thinking">${t("thinking")}</span>`);
  if (typeof o.total === "number") {
    const total = document.createElement("small");
    total.className = "total";
    total.textContent = signed(o.total);
    head.append(total);
  }
  return head;
}

export function backsOf(s) {
  const back = document.createElement("div");
  back.className = "backs";
  back.innerHTML = `<div class="back"></div><b class="count">${s.cards}</b>`;
  return back;
}

// The seats around the felt. `head(s)` draws a seat's head; `meBacks`: your own seat shows
// its count of cards too (a spectator has no hand to count).
export function renderSeats(m, { t, head, meBacks = false }) {
  $("#slot-across").hidden = m.players < 4;
  $(".felt").classList.toggle("four", m.players >= 4);
  $("#slot-prev").hidden = m.players < 3;
  for (const s of m.seats) {
    if (s.offset === 0) {
      $("#me").innerHTML = "";
      $("#me").append(head(s));
      if (meBacks) $("#me").append(backsOf(s));
      continue;
    }
    const el = $(slotFor(s, m.players));
    el.dataset.count = s.cards;
    el.dataset.seat = s.seat;
    el.classList.toggle("turn", s.to_move);
    el.innerHTML = "";
    el.append(head(s), backsOf(s));
    const act = document.createElement("div");
    act.className = "last";
    if (s.last && !s.last.play) act.innerHTML = `<span class="passed">${t("passed")}</span>`;
    else if (s.last) act.append(cardsRow(s.last.play.cards));
    el.append(act);
  }
}

// The trick just won stays on show, faded, until the next play: what it is after `before`
// (the model on show) gives way to `after`.
export function wonTrick(before, after, lastTrick) {
  if (before && before.trick.actions.length && !after.trick.actions.length && after.deal_no === before.deal_no) {
    return before.trick;
  }
  if (after.trick.actions.length || (before && after.deal_no !== before.deal_no)) return null;
  return lastTrick;
}

export function renderTrick(m, lastTrick, { t, nameOf }) {
  const el = $("[data-testid=trick]");
  el.innerHTML = "";
  const trick = m.trick.actions.length ? m.trick : lastTrick;
  el.classList.toggle("won", trick === lastTrick && !!lastTrick);
  if (!trick) return;
  // The latest round only (one action a seat): a long trick of singles and passes grew
  // down over the counter and the hand; the earlier ones are summed up in one line.
  const shown = trick.actions.slice(-m.seats.length);
  const hidden = trick.actions.length - shown.length;
  if (hidden) el.insertAdjacentHTML("beforeend", `<div class="earlier" data-testid="trick-earlier">${t("earlier", { n: hidden })}</div>`);
  shown.forEach((a, i) => {
    const row = document.createElement("div");
    row.className = "play" + (i === shown.length - 1 ? " latest" : "");
    row.dataset.seat = a.seat;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = nameOf(a);
    row.append(who);
    if (a.play) {
      row.append(cardsRow(a.play.cards));
      row.insertAdjacentHTML("beforeend", `<span class="kind">${a.play.kind_name.text}</span>`);
    } else {
      row.insertAdjacentHTML("beforeend", `<span class="passed">${t("passed")}</span>`);
    }
    el.append(row);
  });
}

// 记牌器: the cards not yet seen, rank by rank (hidden when switched off in this browser).
export function renderCounter(m) {
  const el = $("[data-testid=counter]");
  el.hidden = window.localStorage.getItem("pdk.counter") === "off";
  $("#counter-toggle").setAttribute("aria-pressed", String(!el.hidden));
  el.innerHTML = m.counter
    .map((c) => `<span class="cnt${c.unseen ? "" : " gone"}" data-rank="${c.rank}" data-unseen="${c.unseen}"><b>${c.label}</b><i>×${c.unseen}</i></span>`)
    .join("");
}

// The seat's own hand (the touch.js slide selects on it), laid out to fit its width.
export function renderHand(m, selected) {
  const el = $("[data-testid=hand]");
  el.innerHTML = "";
  let last = null;
  m.hand.forEach((c, i) => {
    const card = cardEl(c);
    card.setAttribute("data-testid", "card");
    card.setAttribute("role", "button");
    card.setAttribute("aria-pressed", String(selected.has(i)));
    card.setAttribute("tabindex", "0");
    card.dataset.i = String(i);
    if (last !== null && last !== c[0]) card.classList.add("group");
    last = c[0];
    el.append(card);
  });
  layoutHand(el);
}

export function myTurn(m) {
  return m.task.kind === "lead" || m.task.kind === "beat" || m.task.kind === "none";
}

// Play, hint and 不出, for a seat whose turn it is (`mine`); a locked 不出 says why.
export function renderButtons(m, { mine, auto }) {
  $("#auto-toggle").setAttribute("aria-pressed", String(auto));
  $("#auto-toggle").classList.toggle("on", auto);
  $("#play").disabled = !mine || m.task.kind === "none";
  $("#hint").disabled = !mine;
  $("#pass").disabled = !mine || !m.task.can_pass;
  const reason = mine && m.task.pass_refused ? m.task.pass_refused.text : "";
  const why = reason.charAt(0).toUpperCase() + reason.slice(1); // a sentence of its own here
  $("#pass-why").textContent = why;
  $("#pass").title = why;
}

// The message line: the task (or `text`), then a note (a refusal, a hint), 托管, or what
// is being typed, whichever is latest.
export function renderMessage(m, { t, text, mine, note, auto, typed }) {
  const el = $("[data-testid=message]");
  let said = text ?? m.task.message.text;
  if (m.task.bao_dan_high && mine && m.task.kind !== "none") said += " · " + m.task.bao_dan_high;
  if (note) said = note.text;
  if (auto) said = t("auto_on");
  if (typed) said = `⌨ ${typed}`;
  el.textContent = said;
  el.classList.toggle("refused", !!(note && note.refused));
}

// The settlement: every seat's score with its reasons and the cards it still held.
export function renderSettlement(m, { t, nameOf, result, next, hidden = false }) {
  const panel = $("#settlement");
  const st = m.settlement;
  panel.hidden = !st || hidden;
  if (!st) return;
  $("#settle-title").textContent = t("settlement", { n: m.deal_no });
  $("#settle-result").textContent = result ?? m.task.message.text;
  const head = ["col_player", "col_left", "col_shut", "col_bombs", "col_total", "col_session"]
    .map((k) => `<th>${t(k)}</th>`).join("");
  const rows = st.rows.map((r) => {
    const why = r.lines.map((l) => `<li>${esc(l.text)}</li>`).join("");
    const place = r.place_name ? ` <small>${esc(r.place_name.text)}</small>` : "";
    const left = r.left.length ? `<div class="left-cards" data-testid="left-cards"></div>` : "";
    return `<tr class="${r.winner ? "winner" : ""}" data-seat="${r.seat}"><td>${r.winner ? "★ " : ""}${esc(nameOf(r))}${place}</td>`
      + `<td>${r.cards_left}</td><td>${r.shut_out ? t("yes") : "-"}</td><td>${signed(r.bomb_income)}</td>`
      + `<td class="total ${r.total > 0 ? "pos" : r.total < 0 ? "neg" : ""}" data-total="${r.total}">${signed(r.total)}</td><td>${signed(r.session)}</td></tr>`
      + `<tr class="why" data-seat="${r.seat}"><td colspan="6">${left}<ul>${why}</ul></td></tr>`;
  }).join("");
  const notes = st.lines.map((l) => `<tr class="why"><td colspan="6">${esc(l.text)}</td></tr>`).join("");
  $("#settle-table").innerHTML = `<thead><tr>${head}</tr></thead><tbody>${rows}${notes}</tbody>`;
  // What each loser still held, face up: the count above is made of these cards.
  for (const r of st.rows) {
    const cell = $(`#settle-table tr.why[data-seat="${r.seat}"] .left-cards`);
    if (cell) cell.append(cardsRow(r.left));
  }
  $("#settle-next").textContent = next;
}

// The cards of the move's `i`-th hint, as indexes into the hand.
export function hintCards(m, i) {
  const chosen = new Set();
  for (const c of m.hints[i].cards) {
    const j = m.hand.findIndex((x, k) => x === c && !chosen.has(k));
    chosen.add(j);
  }
  return chosen;
}
