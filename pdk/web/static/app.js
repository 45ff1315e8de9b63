// The table page: renders the server's table model for the human seat, sends the seat's
// commands through the seat controller (seat.js, the room's too), and asks the server to
// make the machine's moves (bots, 托管, 要不起) one at a time at the page's chosen pace.
import { myTurn, seatHead } from "./table-view.js";
import { animate } from "./motion.js";
import { setSound, sound, soundOn } from "./sound.js";
import { openRules } from "./rules-view.js";
import { openReplay, replayKey, setReplayPace } from "./replay-view.js";
import {
  $, api, buildMenu, lang, loadLabels as loadWords, menuButton, menuChoice, onOff, onReach, said, store, t, toggleLang,
} from "./page.js";
import { seatController } from "./seat.js";
import { RulesPanel } from "./rules-panel.js";
import { speak } from "./voice.js";

let table = null; // the last response: {token, seq, model, ...}
let stepping = false;
let auto = false; // 托管, as the server has it (shown at once when toggled here)
let autoSent = null; // the latest 托管 switch sent and not answered yet
let autoAsked = 0; // how many 托管 switches were sent: only the latest one's answer ends autoSent
// 要不起, as in the terminal: when nothing beats the play, the server passes for the player
// after a moment (x toggles it on a desktop; the choice is kept in the browser).
let autoPass = store.getItem("pdk.autopass") !== "off";
// The bots' pace on this page: the server's pace times this (kept in the browser).
const SPEEDS = { slow: 2, normal: 1, fast: 0.35 };
let speed = SPEEDS[store.getItem("pdk.speed")] ? store.getItem("pdk.speed") : "normal";
const paced = (ms) => Math.round(ms * SPEEDS[speed]);

// The ☰ menu (page.js): the bots' speed first, the level's note under the switches, and
// the house rules beside 规则.
const menu = buildMenu({
  rows: [menuChoice({ id: "speed", label: "speed", testid: "speed",
    choices: [["slow", "speed_slow"], ["normal", "speed_normal"], ["fast", "speed_fast"]] })],
  // The level 托管 plays at: the table's difficulty ("") or one the player picks.
  after: [menuChoice({ id: "auto-level", label: "auto_level", testid: "auto-level",
    choices: [["", "auto_level_table"], ["easy", "diff_easy"], ["normal", "diff_normal"], ["hard", "diff_hard"]] }),
  difficultyNoteRow()],
  buttons: [
    menuButton({ id: "house-open", label: "hr_new_table", testid: "house-open" }),
    // 和朋友玩 is here on a phone upright, where the header has no room for it (style.css)
    menuButton({ id: "friends-open", label: "room_friends", testid: "friends-menu", onclick: () => location.assign("/room") }),
  ],
  onOpen: () => renderMenu(),
});
function difficultyNoteRow() {
  const p = document.createElement("p");
  p.className = "difficulty-note";
  p.id = "difficulty-note";
  p.dataset.testid = "difficulty-note";
  return p;
}

const seat = seatController({
  table: () => table,
  seated: () => true,
  auto: () => auto,
  send: (path, body) => api(`table/${table.token}/${path}`, body),
  show,
  refusedTable: (data) => data.table,
  render,
  toggleAuto,
  toggleAutoPass,
  plain: () => false,
  keys: panelKey,
});

// The server cannot be reached (stopped, or the phone is offline), or refuses to open a
// table just now (too many opened from this address, or its store is down: ``why`` is
// its one line): the page says so in place of the table, and tries again every few
// seconds until it answers.
let retry = null;
function unreachable(why) {
  const el = $("#offline");
  el.textContent = why ?? said("unreachable") ?? "The table cannot be reached: is pdk serve running? Retrying… · 连不上牌桌：pdk serve 在运行吗？正在重试…";
  el.hidden = false;
  document.body.classList.add("unreachable");
  if (!retry) retry = setInterval(() => { if (table) refresh().catch(() => {}); else start().catch(() => {}); }, 3000);
}
function reachable() {
  $("#offline").hidden = true;
  document.body.classList.remove("unreachable");
  if (retry) { clearInterval(retry); retry = null; }
}
onReach(reachable, unreachable);

async function loadLabels() {
  await loadWords();
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
  if (notice) seat.say(notice.text);
}

function show(data, keepNote = false) {
  const before = table;
  seat.arrive(before, data, keepNote);
  table = data;
  if (autoSent === null || data.model.settlement) auto = data.auto; // 托管 ends with the deal
  render();
  const cues = animate(before, data);
  sound(cues);
  speak(cues, data.model, t);
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
      if (passing && data.events && data.events.length) seat.note = { text: t("auto_passed"), refused: false };
      show(data.table ?? data, passing);
    } catch (e) {
      stepping = false;
      $("[data-testid=message]").textContent = t("error");
      setTimeout(schedule, 1000);
    }
  }, passing ? Math.max(paced(table.pace_ms), table.pass_pause_ms) : paced(table.pace_ms));
}

// The seat's switches (托管, 要不起 auto-pass) are the server's: sent, the answer shown.
// Switched twice quickly (off, then on again), the first answer must not show the switch
// off, whether it comes before the second's or after: a newer switch's answer decides.
async function setting(body) {
  const mine = "auto" in body ? ++autoAsked : 0;
  if (mine) autoSent = body.auto;
  try {
    const { ok, data } = await api(`table/${table.token}/settings`, body);
    if (mine && mine === autoAsked) autoSent = null;
    if (!ok && data.error) seat.note = { text: data.error.text, refused: true };
    const answer = ok ? data : (data.table ?? table);
    show(mine && mine < autoAsked ? { ...answer, auto } : answer, true);
  } catch (e) {
    if (mine && mine === autoAsked) autoSent = null;
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
    o.textContent = (said(`diff_${o.value}`) ?? o.value) + (later ? t("diff_next_mark") : "");
  }
  $("#difficulty-note").textContent = difficultyNote();
  $("#auto-level").value = table.auto_level ?? "";
  seat.draw(m, {
    mine: myTurn(m) && !table.bot_turn && !auto,
    head,
    nameOf: (a) => a.name.text,
    settlement: { next: difficultyNote() },
  });
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

$("#next-deal").addEventListener("click", () => seat.act("next", { seq: table.seq }));
$("#difficulty").addEventListener("change", async (e) => {
  store.setItem("pdk.difficulty", e.target.value);
  if (await seat.act("difficulty", { difficulty: e.target.value })) seat.say(difficultyNote());
});
// The level 托管 plays at: the table's difficulty ("") or one the player picks.
$("#auto-level").addEventListener("change", (e) => setting({ auto_level: e.target.value }));
function toggleAuto() {
  auto = !auto && !table.model.settlement;
  seat.note = null;
  render();
  setting({ auto });
}
$("#counter-toggle").addEventListener("click", () => {
  store.setItem("pdk.counter", store.getItem("pdk.counter") === "off" ? "on" : "off");
  renderMenu();
  render();
});

// -- the menu: the bots' speed, sounds, auto-pass, the counter, the rules ------------------

function renderMenu() {
  $("#speed").value = speed;
  onOff($("#sound-toggle"), soundOn());
  onOff($("#autopass-toggle"), autoPass);
  onOff($("#counter-toggle"), store.getItem("pdk.counter") !== "off");
  setReplayPace(900 * SPEEDS[speed]);
  if (table) $("#difficulty-note").textContent = difficultyNote();
}
$("#speed").addEventListener("change", (e) => {
  speed = SPEEDS[e.target.value] ? e.target.value : "normal";
  store.setItem("pdk.speed", speed);
  renderMenu();
});
$("#sound-toggle").addEventListener("click", () => { setSound(!soundOn()); renderMenu(); });
$("#autopass-toggle").addEventListener("click", () => { toggleAutoPass(); renderMenu(); });
$("#rules-open").addEventListener("click", () => {
  menu.close();
  openRules(lang(), t, table ? `table/${table.token}/rules` : "rules");
});

// House rules (rules-panel.js): the menu opens the panel on the server's profile; the
// chosen rules start a new table under them (the server builds and checks the profile).
const house = new RulesPanel($("#house-body"), api, t);
house.onchange = (p) => { $("#house-start").disabled = !p.ok; $("#house-error").textContent = ""; };
$("#house-open").addEventListener("click", async () => {
  menu.close();
  $("#house").hidden = false;
  if (!house.options || house.lang !== lang()) {
    house.lang = lang();
    await house.load(house.base, house.rules);
  }
});
$("#house-close").addEventListener("click", () => { $("#house").hidden = true; });
$("#house-file").addEventListener("click", () => house.download());
$("#house-start").addEventListener("click", async () => {
  const difficulty = store.getItem("pdk.difficulty") || undefined;
  const { ok, data } = await api("rules/table", { ...house.value(), difficulty });
  if (!ok) { $("#house-error").textContent = data.error ? data.error.text : t("error"); return; }
  store.setItem("pdk.token", data.token);
  $("#house").hidden = true;
  table = null;
  await open();
  seat.say(t("hr_started", { title: data.rules.title }));
});
$("#rules-close").addEventListener("click", () => { $("#rules").hidden = true; });
// The first visit: how to select and play, once, until dismissed.
$("#first-hint-ok").addEventListener("click", () => { store.setItem("pdk.seen_hint", "1"); $("#first-hint").hidden = true; });
$("#lang-toggle").addEventListener("click", async () => {
  toggleLang();
  await loadLabels();
  seat.note = null; // written in the other language; the table's own messages come anew
  renderMenu();
  await refresh();
});

// The page's own keys before the seat's: the replay's (step with the arrows, Space plays
// it, Esc closes), and Esc closes an open panel (which takes every other key meanwhile).
function panelKey(e) {
  const k = e.key;
  if (!$("#replay").hidden) {
    if (replayKey(k)) e.preventDefault();
    return true;
  }
  for (const panel of ["#house", "#rules", "#menu"]) {
    if (!$(panel).hidden) { if (k === "Escape") $(panel).hidden = true; return true; }
  }
  return false;
}

function toggleAutoPass() {
  autoPass = !autoPass;
  store.setItem("pdk.autopass", autoPass ? "on" : "off");
  seat.say(t(autoPass ? "auto_pass_on" : "auto_pass_off"), false, true);
  setting({ auto_pass: autoPass });
}

// -- replay of the deal just finished (replay-view.js) --------------------------------------

$("#replay-open").addEventListener("click", () => openReplay(`/api/table/${table.token}/replay?lang=${lang()}`, t));

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
