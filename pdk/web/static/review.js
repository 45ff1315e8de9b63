// 复盘 and hint numbers for the table page, kept apart from the table's controller (app.js):
// it reads the table token the page keeps in localStorage and the page's language and words
// (page.js), watches the page's own elements (the settlement panel, the hint button) and asks the server's read-only
// endpoints /api/table/{token}/review and /api/table/{token}/numbers.
import { cardEl, cardsRow } from "./cards.js";
import { $, api as get, labels as words, lang, menuButton, menuSwitch, onOff, said, store, t } from "./page.js";

let labelsLang = null;
let numbersOn = store.getItem("pdk.numbers") === "on"; // off by default

const token = () => store.getItem("pdk.token");

async function labels() {
  if (labelsLang === lang()) return;
  await words();
  labelsLang = lang();
  const b = $("#review-open");
  if (b) b.textContent = t("rv_button");
}

// -- 复盘 -------------------------------------------------------------------------------------

function panel() {
  let p = $("#review");
  if (p) return p;
  p = document.createElement("div");
  p.className = "panel";
  p.id = "review";
  p.dataset.testid = "review";
  p.hidden = true;
  p.innerHTML = `<div class="sheet wide"><h2 id="review-title"></h2><p id="review-summary"></p>
    <div id="review-graph"></div><ol id="review-plays" class="review-plays"></ol>
    <div class="panel-actions"><button type="button" id="review-close" class="primary"></button></div></div>`;
  document.body.append(p);
  $("#review-close").addEventListener("click", () => { p.hidden = true; });
  return p;
}

function graph(plays) {
  // The seat's expected points after each of its rated plays, a dot on each ? and ??.
  const pts = plays.filter((p) => p.accuracy !== null);
  if (pts.length < 2) return "";
  const W = 320, H = 110, pad = 8;
  const ys = pts.map((p) => p.value[0]);
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
  const x = (i) => pad + (i * (W - 2 * pad)) / (pts.length - 1);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo || 1);
  const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.value[0]).toFixed(1)}`).join(" ");
  const dots = pts.map((p, i) => (p.mark
    ? `<circle cx="${x(i).toFixed(1)}" cy="${y(p.value[0]).toFixed(1)}" r="4" class="${p.mark === "??" ? "blunder" : "mistake"}"><title>${p.n}: ${p.mark}</title></circle>`
    : "")).join("");
  return `<svg viewBox="0 0 ${W} ${H}" class="review-graph" role="img" aria-label="${t("rv_graph")}" data-testid="review-graph">
    <line x1="${pad}" x2="${W - pad}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" class="zero"/>
    <polyline points="${line}" class="value"/>${dots}</svg><p class="review-caption">${t("rv_graph")}</p>`;
}

async function openReview() {
  await labels();
  const p = panel();
  $("#review-close").textContent = t("rv_close");
  const dealText = ($("#settle-title") || {}).textContent || "";
  const n = (dealText.match(/\d+/) || [""])[0];
  $("#review-title").textContent = t("rv_title", { n });
  $("#review-summary").textContent = t("rv_wait");
  $("#review-graph").innerHTML = "";
  $("#review-plays").innerHTML = "";
  p.hidden = false;
  const { ok, data } = await get(`table/${token()}/review`);
  if (!ok) {
    $("#review-summary").textContent = data.error ? data.error.text : "";
    return;
  }
  const seat = data.seats.find((s) => s.accuracy !== null);
  $("#review-summary").textContent = seat
    ? t("rv_accuracy", { acc: seat.accuracy.toFixed(1), q: seat.mistakes, qq: seat.blunders })
    : t("rv_none");
  $("#review-graph").innerHTML = graph(data.plays);
  const list = $("#review-plays");
  for (const play of data.plays) {
    const li = document.createElement("li");
    li.value = play.n;
    li.dataset.mark = play.mark;
    // 托管's plays are judged and shown, never held against the person (issue 37).
    li.className = play.by ? "by-auto" : play.mark === "??" ? "blunder" : play.mark === "?" ? "mistake" : "";
    const head = document.createElement("span");
    head.className = "mark";
    head.textContent = play.mark || (play.accuracy === null ? t("rv_forced") : "");
    li.append(play.played_cards ? cardsRow(play.played_cards) : document.createTextNode(said("pass") || "pass"), head);
    if (play.by) {
      const by = document.createElement("span");
      by.className = "by";
      by.textContent = ` ${t("rv_by_auto")} `;
      li.append(by);
    }
    if (play.best_cards !== null && play.accuracy !== null && play.best !== play.played) {
      const better = document.createElement("span");
      better.className = "better";
      better.textContent = ` ${t("rv_better")} `;
      li.append(better, play.best_cards ? cardsRow(play.best_cards) : document.createTextNode(said("pass") || "pass"));
      const lost = document.createElement("span");
      lost.className = "lost";
      lost.textContent = ` ${t("rv_lost", { loss: play.loss[0].toFixed(2) })}`;
      li.append(lost);
    }
    if (play.mark && !play.by) li.append(retryButton(play, li));
    if (play.accuracy !== null && !play.by) li.append(practiceButton(play));
    list.append(li);
  }
}

// Try a marked play again: the same position and hands. The hand the seat held there is
// laid out as cards to tap (as at the table), with 出牌 and 不出; the server's analysis says
// whether the new play is better than the one made (POST /api/table/{token}/retry/{n}).
function retryButton(play, li) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "retry";
  b.dataset.testid = "retry";
  b.textContent = t("rv_retry");
  b.addEventListener("click", () => {
    if (li.querySelector(".retry-pick")) return;
    li.append(retryPicker(play));
  });
  return b;
}

// A position of the deal as a practice table: the same hands before this play, the
// computers playing on from there; the page then opens it as its own table.
function practiceButton(play) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "retry";
  b.dataset.testid = "practice";
  b.textContent = t("rv_practice");
  b.addEventListener("click", async () => {
    const { ok, data } = await get(`table/${token()}/practice/${play.n}`, {});
    if (!ok) {
      b.textContent = data.error ? data.error.text : t("rv_practice");
      return;
    }
    store.setItem("pdk.token", data.token);
    location.reload();
  });
  return b;
}

function retryPicker(play) {
  const box = document.createElement("div");
  box.className = "retry-pick";
  box.dataset.testid = "retry-pick";
  const hand = document.createElement("div");
  hand.className = "retry-hand";
  const selected = new Set();
  (play.hand || []).forEach((c, i) => {
    const el = cardEl(c, { small: true });
    el.dataset.testid = "retry-card";
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", "false");
    el.addEventListener("click", () => {
      if (selected.has(i)) selected.delete(i); else selected.add(i);
      el.classList.toggle("selected", selected.has(i));
      el.setAttribute("aria-pressed", String(selected.has(i)));
    });
    hand.append(el);
  });
  const out = document.createElement("div");
  out.className = "retry-verdict";
  out.dataset.testid = "retry-verdict";
  out.setAttribute("role", "status");
  const send = async (cards) => {
    out.textContent = t("rv_wait");
    const { ok, data } = await get(`table/${token()}/retry/${play.n}`, { cards });
    out.textContent = ok ? `${data.text} · ${data.real_text}` : (data.error ? data.error.text : "");
  };
  const button = (key, testid, cards, primary) => {
    const el = document.createElement("button");
    el.type = "button";
    el.className = primary ? "small primary" : "small";
    el.dataset.testid = testid;
    el.textContent = t(key);
    el.addEventListener("click", () => send(cards()));
    return el;
  };
  const actions = document.createElement("div");
  actions.className = "retry-actions";
  actions.append(
    button("pass", "retry-pass", () => [], false),
    button("play", "retry-play", () => [...selected].sort((a, b) => a - b).map((i) => play.hand[i]), true),
  );
  box.append(hand, actions, out);
  return box;
}

function addReviewButton() {
  const actions = document.querySelector("#settlement .panel-actions");
  if (!actions || $("#review-open")) return;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "review-open";
  b.dataset.testid = "review-open";
  b.textContent = t("rv_button");
  b.addEventListener("click", openReview);
  actions.prepend(b);
}

// -- hint numbers ----------------------------------------------------------------------------

function numbersBox() {
  let box = $("#numbers");
  if (!box) {
    box = document.createElement("div");
    box.id = "numbers";
    box.className = "numbers";
    box.dataset.testid = "numbers";
    box.hidden = true;
    const msg = document.querySelector(".message");
    (msg ? msg.parentNode : document.body).insertBefore(box, msg ? msg.nextSibling : null);
  }
  return box;
}

let asked = 0;
async function showNumbers() {
  const box = numbersBox();
  const hint = $("#hint");
  if (!numbersOn || !hint || hint.disabled) {
    box.hidden = true;
    return;
  }
  const mine = ++asked;
  await labels();
  const { ok, data } = await get(`table/${token()}/numbers`);
  if (mine !== asked || hint.disabled) return; // the table moved on meanwhile
  if (!ok) {
    box.hidden = true;
    return;
  }
  box.innerHTML = `<strong>${t("rv_numbers_title")}</strong>`;
  for (const p of data.plays) {
    const row = document.createElement("div");
    row.className = "numbers-row";
    const cards = p.cards ? cardsRow(p.cards) : document.createTextNode(p.text);
    const nums = document.createElement("span");
    const pts = p.points[0] > 0 ? `+${p.points[0].toFixed(1)}` : p.points[0].toFixed(1);
    nums.textContent = ` ${pts} [${p.points[1].toFixed(1)}, ${p.points[2].toFixed(1)}] · ${Math.round(p.win[0] * 100)}%`;
    row.append(cards, nums);
    box.append(row);
  }
  box.hidden = false;
}

function addNumbersToggle() {
  // In the ☰ menu beside the other switches, said in words as they are (开/关), so the
  // header keeps to one row on a phone; 残局 beside 规则, a menu item as it is.
  const settings = document.querySelector("#menu .settings");
  if (!settings || $("#numbers-toggle")) return;
  const row = menuSwitch({ id: "numbers-toggle", label: "rv_numbers", testid: "numbers-toggle", on: numbersOn });
  const b = row.querySelector("button");
  b.addEventListener("click", (e) => {
    e.preventDefault();
    numbersOn = !numbersOn;
    store.setItem("pdk.numbers", numbersOn ? "on" : "off");
    onOff(b, numbersOn);
    showNumbers();
  });
  settings.insertBefore(row, $("#difficulty-note"));
  $("#rules-open").after(menuButton({
    id: "puzzles-open", label: "pz_link", testid: "puzzles-open", onclick: () => location.assign("/puzzles"),
  }));
}

async function start() {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "/static/review.css";
  document.head.append(css);
  await labels();
  addReviewButton();
  addNumbersToggle();
  const hint = $("#hint");
  if (hint) new MutationObserver(showNumbers).observe(hint, { attributes: true, attributeFilter: ["disabled"] });
  const langButton = $("#lang-toggle");
  if (langButton) langButton.addEventListener("click", () => setTimeout(labels, 50));
}

start();
