// The table page: renders the server's table model for the human seat, sends the seat's
// commands (cards as typed or tapped: the server reads them), and asks the server to make
// the machine's moves (bots, 托管, 要不起) one at a time at the page's chosen pace.
import { attachHand, layoutHand } from "./touch.js";
import {
  fill, hintCards, myTurn, renderButtons, renderCounter, renderHand, renderMessage, renderSeats,
  renderSettlement, renderTrick, seatHead, wonTrick,
} from "./table-view.js";
import { animate } from "./motion.js";
import { setSound, sound, soundOn } from "./sound.js";
import { openRules } from "./rules-view.js";
import { openReplay, replayKey, setReplayPace } from "./replay-view.js";

const $ = (sel) => document.querySelector(sel);
const store = window.localStorage;
// ?lang=zh|en (what `pdk serve --lang` opens) is kept as the choice; else the saved one,
// else the browser's language.
const asked = new URLSearchParams(location.search).get("lang");
if (asked === "zh" || asked === "en") {
  store.setItem("pdk.lang", asked);
  history.replaceState(null, "", location.pathname); // so a later toggle survives a reload
}
let lang = store.getItem("pdk.lang") || ((navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en");
let L = {};
let table = null; // the last response: {token, seq, model, ...}
let selected = new Set(); // indexes into model.hand
let hint = { seq: -1, i: -1 };
let note = null; // a transient message (refusal, hint) until the next move
let lastTrick = null; // the trick just won, shown faded until the next play
let typed = "";
let stepping = false;
let auto = false; // 托管, as the server has it (shown at once when toggled here)
let autoSent = null; // a 托管 switch sent and not answered yet
// 要不起, as in the terminal: when nothing beats the play, the server passes for the player
// after a moment (x toggles it on a desktop; the choice is kept in the browser).
let autoPass = store.getItem("pdk.autopass") !== "off";
// The bots' pace on this page: the server's pace times this (kept in the browser).
const SPEEDS = { slow: 2, normal: 1, fast: 0.35 };
let speed = SPEEDS[store.getItem("pdk.speed")] ? store.getItem("pdk.speed") : "normal";
const paced = (ms) => Math.round(ms * SPEEDS[speed]);

const t = (key, params) => fill(L[key] ?? key, params);

async function api(path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(`/api/${path}${sep}lang=${lang}`, init);
  } catch (e) {
    unreachable();
    throw e;
  }
  reachable();
  const data = await res.json();
  return { ok: res.ok, status: res.status, data };
}

// The server cannot be reached (stopped, or the phone is offline), or refuses to open a
// table just now (too many opened from this address, or its store is down: ``why`` is
// its one line): the page says so in place of the table, and tries again every few
// seconds until it answers.
let retry = null;
function unreachable(why) {
  const el = $("#offline");
  el.textContent = why ?? L.unreachable ?? "The table cannot be reached: is pdk serve running? Retrying… · 连不上牌桌：pdk serve 在运行吗？正在重试…";
  el.hidden = false;
  document.body.classList.add("unreachable");
  if (!retry) retry = setInterval(() => { if (table) refresh().catch(() => {}); else start().catch(() => {}); }, 3000);
}
function reachable() {
  $("#offline").hidden = true;
  document.body.classList.remove("unreachable");
  if (retry) { clearInterval(retry); retry = null; }
}

async function loadLabels() {
  L = (await api("labels")).data;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-l]")) el.textContent = t(el.dataset.l);
  $("#lang-toggle").textContent = lang === "zh" ? "EN" : "中文";
  $("#keys").textContent = t("keys");
  $("#first-hint-text").textContent = t("first_hint");
  for (const o of $("#difficulty").options) o.textContent = t(`diff_${o.value}`);
}

// The table as the server has it now (another tab may have moved it on), the note kept.
async function refresh() {
  const { ok, data } = await api(`table/${table.token}`);
  if (ok) show(data, true);
}

async function open() {
  const token = store.getItem("pdk.token");
  const difficulty = store.getItem("pdk.difficulty") || undefined;
  let { ok, data } = await api("open", token ? { token, difficulty } : { difficulty });
  if (!ok) {
    unreachable(data.error ? data.error.text : undefined);
    return;
  }
  store.setItem("pdk.token", data.token);
  const notice = data.notice; // the old table was cleared as idle: said over the new one
  if (data.auto_pass !== autoPass) {
    const synced = await api(`table/${data.token}/settings`, { auto_pass: autoPass });
    if (synced.ok) data = synced.data;
  }
  show(data);
  if (notice) {
    note = { text: notice.text, refused: false };
    render();
  }
}

function show(data, keepNote = false) {
  const before = table;
  lastTrick = wonTrick(before && before.model, data.model, lastTrick);
  if (!before || before.seq !== data.seq || before.model.deal_no !== data.model.deal_no) {
    selected = new Set();
    if (!keepNote && !(note && note.keep)) note = null; // a switch's note outlives the machine's moves
  }
  table = data;
  if (autoSent === null || data.model.settlement) auto = data.auto; // 托管 ends with the deal
  render();
  sound(animate(before, data));
  schedule();
}

// The machine moves next (a bot, 托管, or 要不起): the server says so; the page sets the pace.
function schedule() {
  if (!table.machine_turn || stepping || autoSent !== null) return;
  stepping = true;
  const seq = table.seq;
  const token = table.token;
  const passing = !table.bot_turn && !table.auto; // 要不起: a pause to read the play first
  setTimeout(async () => {
    // Taken back, or the player acted first (tapped 不出 before the page's own pass): this
    // step is void, but the table may now wait on a bot, so look again what is due.
    if (table.seq !== seq || !table.machine_turn || autoSent !== null) { stepping = false; schedule(); return; }
    try {
      const { ok, data } = await api(`table/${token}/step`, { seq });
      stepping = false;
      if (!ok && !data.table) { // the server could not save (503): nothing moved; try again
        $("[data-testid=message]").textContent = data.error ? data.error.text : t("error");
        setTimeout(schedule, 2000);
        return;
      }
      if (passing && data.events && data.events.length) note = { text: t("auto_passed"), refused: false };
      show(data.table ?? data, passing);
    } catch (e) {
      stepping = false;
      $("[data-testid=message]").textContent = t("error");
      setTimeout(schedule, 1000);
    }
  }, passing ? Math.max(paced(table.pace_ms), 600) : paced(table.pace_ms));
}

// The seat's switches (托管, 要不起 auto-pass) are the server's: sent, the answer shown.
async function setting(body) {
  if ("auto" in body) autoSent = body.auto;
  try {
    const { ok, data } = await api(`table/${table.token}/settings`, body);
    if ("auto" in body) autoSent = null;
    if (!ok && data.error) note = { text: data.error.text, refused: true };
    show(ok ? data : (data.table ?? table), true);
  } catch (e) {
    if ("auto" in body) autoSent = null;
    $("[data-testid=message]").textContent = t("error");
  }
}

// -- rendering ------------------------------------------------------------------------------

function render() {
  const m = table.model;
  $("#deal").textContent = t("deal", { n: m.deal_no });
  $("#session").textContent = t("session", { total: table.session_total });
  $("#difficulty").value = table.next_difficulty;
  // A level chosen for the next deal says so on the menu itself: this deal's bots keep theirs.
  for (const o of $("#difficulty").options) {
    const later = o.value === table.next_difficulty && o.value !== table.difficulty;
    o.textContent = (L[`diff_${o.value}`] ?? o.value) + (later ? t("diff_next_mark") : "");
  }
  $("#difficulty-note").textContent = difficultyNote();
  const mine = myTurn(m) && !table.bot_turn && !auto;
  renderSeats(m, { t, head });
  renderTrick(m, lastTrick, { t, nameOf: (a) => a.name.text });
  renderCounter(m);
  renderButtons(m, { mine, auto });
  renderMessage(m, { t, mine: myTurn(m), note, auto, typed });
  renderSettlement(m, { t, nameOf: (r) => r.name.text, next: difficultyNote() });
  // Last: the hand's overlap is worked out from its width, which the buttons' reason
  // (landscape: the column beside it) and the message may just have changed.
  renderHand(m, selected);
  // The panels open below the header, whose controls stay in reach.
  document.documentElement.style.setProperty("--bar-h", `${$(".bar").getBoundingClientRect().height}px`);
}

function difficultyNote() {
  const now = t(`diff_${table.difficulty}`);
  const next = t(`diff_${table.next_difficulty}`);
  if (table.difficulty === table.next_difficulty) return t("difficulty_now", { level: now });
  return t("difficulty_later", { level: next, now, n: table.model.deal_no + 1 });
}

// A seat's head; the page's own 托管 (the server moves for it one step at a time) marks
// your seat at once.
function head(s) {
  return seatHead(s.seat, {
    t,
    name: s.name.text,
    bao: s.bao_dan,
    auto: s.auto || (auto && s.relation === "you"),
    thinking: s.to_move && table.bot_turn,
  });
}

// -- actions --------------------------------------------------------------------------------

// Taps and finger slides on the hand (touch.js) change the selection card by card, and
// the page redraws once the finger lifts.
attachHand($("[data-testid=hand]"), {
  isSelected: (i) => selected.has(i),
  setSelected: (i, on) => { if (on) selected.add(i); else selected.delete(i); },
  done: () => { note = null; render(); },
  enabled: () => !!table,
});

async function act(path, body) {
  if (path === "play" && !(await judged(body))) return false;
  let ok, status, data;
  try {
    ({ ok, status, data } = await api(`table/${table.token}/${path}`, body));
  } catch (e) {
    return false; // unreachable: the page says so and tries again
  }
  if (!ok && data.error) {
    const key = data.error.key;
    if (key === "web_stale" && data.table) {
      // Another tab (or a retry) moved the table on: show where it is now, quietly.
      note = { text: t("moved_on"), refused: false };
      selected = new Set();
      show(data.table, true);
      return false;
    }
    const plain = key === "web_bad_request" || status === 503; // the server's own line
    note = { text: plain ? data.error.text : t("refused", { reason: data.error.text }), refused: true };
    if (data.table) show(data.table, true);
    else render();
    return false;
  }
  note = null;
  show(data);
  return true;
}

// A play is judged before it is sent: one the rules refuse comes back as an answer (200),
// so the browser logs no failed request for it; only a play that will be taken is sent.
async function judged(body) {
  try {
    const { ok, data } = await api(`table/${table.token}/judge`, body);
    if (!ok || data.legal || data.error.key === "web_stale") return true; // the play says why
    note = { text: t("refused", { reason: data.error.text }), refused: true };
    render();
  } catch (e) {
    $("[data-testid=message]").textContent = t("error");
  }
  return false;
}

function playSelected() {
  const m = table.model;
  const cards = [...selected].sort((a, b) => a - b).map((i) => m.hand[i]);
  if (!cards.length) {
    note = { text: t("pick_cards"), refused: true };
    render();
    return;
  }
  act("play", { seq: table.seq, cards });
}

function nextHint() {
  const m = table.model;
  if (!m.hints.length) {
    note = { text: t("no_hint") };
    render();
    return;
  }
  hint = hint.seq === table.seq ? { seq: table.seq, i: (hint.i + 1) % m.hints.length } : { seq: table.seq, i: 0 };
  const h = m.hints[hint.i];
  selected = hintCards(m, hint.i);
  note = { text: t("hint_n", { i: hint.i + 1, n: m.hints.length, cards: h.text }) };
  render();
}

$("#play").addEventListener("click", playSelected);
$("#hint").addEventListener("click", nextHint);
$("#pass").addEventListener("click", () => act("pass", { seq: table.seq }));
$("#next-deal").addEventListener("click", () => act("next", { seq: table.seq }));
$("#difficulty").addEventListener("change", async (e) => {
  store.setItem("pdk.difficulty", e.target.value);
  if (await act("difficulty", { difficulty: e.target.value })) {
    note = { text: difficultyNote(), refused: false };
    render();
  }
});
function toggleAuto() {
  auto = !auto && !table.model.settlement;
  note = null;
  render();
  setting({ auto });
}
$("#auto-toggle").addEventListener("click", toggleAuto);
$("#counter-toggle").addEventListener("click", () => {
  store.setItem("pdk.counter", store.getItem("pdk.counter") === "off" ? "on" : "off");
  renderMenu();
  render();
});

// -- the menu: the bots' speed, sounds, auto-pass, the counter, the rules ------------------

function onOff(button, on) {
  button.setAttribute("aria-pressed", String(on));
  button.classList.toggle("on", on);
  button.textContent = t(on ? "on" : "off");
}
function renderMenu() {
  $("#speed").value = speed;
  onOff($("#sound-toggle"), soundOn());
  onOff($("#autopass-toggle"), autoPass);
  onOff($("#counter-toggle"), store.getItem("pdk.counter") !== "off");
  setReplayPace(900 * SPEEDS[speed]);
  if (table) $("#difficulty-note").textContent = difficultyNote();
}
$("#menu-toggle").addEventListener("click", () => {
  const open = $("#menu").hidden;
  $("#menu").hidden = !open;
  $("#menu-toggle").setAttribute("aria-expanded", String(open));
  renderMenu();
});
$("#menu-close").addEventListener("click", () => { $("#menu").hidden = true; $("#menu-toggle").setAttribute("aria-expanded", "false"); });
$("#speed").addEventListener("change", (e) => {
  speed = SPEEDS[e.target.value] ? e.target.value : "normal";
  store.setItem("pdk.speed", speed);
  renderMenu();
});
$("#sound-toggle").addEventListener("click", () => { setSound(!soundOn()); renderMenu(); });
$("#autopass-toggle").addEventListener("click", () => { toggleAutoPass(); renderMenu(); });
$("#rules-open").addEventListener("click", () => { $("#menu").hidden = true; openRules(lang, t); });
$("#rules-close").addEventListener("click", () => { $("#rules").hidden = true; });
// The first visit: how to select and play, once, until dismissed.
$("#first-hint-ok").addEventListener("click", () => { store.setItem("pdk.seen_hint", "1"); $("#first-hint").hidden = true; });
$("#lang-toggle").addEventListener("click", async () => {
  lang = lang === "zh" ? "en" : "zh";
  store.setItem("pdk.lang", lang);
  await loadLabels();
  note = null; // written in the other language; the table's own messages come anew
  renderMenu();
  await refresh();
});
window.addEventListener("resize", () => layoutHand($("[data-testid=hand]")));

// Desktop keys: type the terminal notation and Enter; h hint, p pass, Esc clears.
document.addEventListener("keydown", (e) => {
  if (!table || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const m = table.model;
  const k = e.key;
  if (!$("#replay").hidden) {
    // The replay's own keys: step with the arrows, Space plays it, Esc closes.
    if (replayKey(k)) e.preventDefault();
    return;
  }
  for (const panel of ["#rules", "#menu"]) {
    if (!$(panel).hidden) { if (k === "Escape") $(panel).hidden = true; return; }
  }
  if (k === "Enter") {
    if (!typed || auto) return;
    e.preventDefault(); // typed cards are the answer, not the focused button (a hint, EN)
    const text = typed.trim();
    typed = "";
    if (!text) { render(); return; }
    // Sent as typed: the server reads it as pdk play does (ranges, ranks alone, suits).
    act("play", { seq: table.seq, text });
    return;
  }
  if (k === "Escape") { typed = ""; selected = new Set(); render(); return; }
  if (k === "Backspace") { typed = typed.slice(0, -1); render(); return; }
  if (!typed && (k === "h" || k === "H")) { if (myTurn(m) && !auto) nextHint(); return; }
  if (!typed && (k === "p" || k === "P")) { if (myTurn(m) && !auto) act("pass", { seq: table.seq }); return; }
  if (!typed && k === "a") { toggleAuto(); return; } // lowercase a, as in the terminal; A is an ace
  if (!typed && k === "x") { toggleAutoPass(); return; }
  if (/^[0-9tjqkabrTJQKABRshcdSHCD -]$/.test(k)) { typed += k; render(); }
});

function toggleAutoPass() {
  autoPass = !autoPass;
  store.setItem("pdk.autopass", autoPass ? "on" : "off");
  note = { text: t(autoPass ? "auto_pass_on" : "auto_pass_off"), refused: false, keep: true };
  render();
  setting({ auto_pass: autoPass });
}

// -- replay of the deal just finished (replay-view.js) --------------------------------------

$("#replay-open").addEventListener("click", () => openReplay(`/api/table/${table.token}/replay?lang=${lang}`, t));

async function start() {
  await loadLabels();
  renderMenu();
  await open();
  if (!store.getItem("pdk.seen_hint")) $("#first-hint").hidden = false;
}

// The shell (this page, its script and styles) is kept by a service worker, so that it
// opens without the server and says the table is unreachable rather than nothing.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
await start().catch(() => unreachable());
// Back to this tab: the table may have moved on in another one; fetch where it is.
document.addEventListener("visibilitychange", () => { if (!document.hidden && table) refresh(); });
