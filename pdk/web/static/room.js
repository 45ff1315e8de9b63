// The table for friends: the room form (/room), then the room (/room/<id>) for a seat or a
// spectator. The server holds the game and the room; this page renders what it is sent
// for its own seat (over server-sent events, or by polling when those cannot be held
// open) and sends the seat's commands with the seat's key. Bots, 托管 and turn times are
// the server's: the page never moves for anyone.
import { animate } from "./motion.js";
import { setSound, sound, soundOn } from "./sound.js";
import { openReplay, replayKey } from "./replay-view.js";
import { myTurn as turnOf, seatHead, slotFor } from "./table-view.js";
import { $, api, buildMenu, lang, loadLabels as loadWords, onOff, personSecret, said, store, t, toggleLang } from "./page.js";
import { seatController } from "./seat.js";
import { openRules } from "./rules-view.js";
import { speak } from "./voice.js";
import { RulesPanel } from "./rules-panel.js";
import {
  links, linksNote, numberForm, numberNote, roomRules, roomRulesFile, saveStandings, scoreTable, shareLink,
  standingsPanel,
} from "./family.js";

// The ☰ menu (page.js): sound, the card counter, this seat's auto-pass (kept by the
// server; its row only for a seat) and the room's rules.
const menu = buildMenu({ autopassRow: "autopass-row", onOpen: () => renderMenu() });

const roomId = location.pathname.split("/")[2] || null;
let key = null; // this viewer's key: a seat's, or the watch key
let room = null; // the last room the server sent
let source = null; // the live stream's AbortController while it is open
let polling = false;
let inviteOpen = false;
// One id per tab (kept across reloads): the server lets one device hold a seat at a time.
let client = sessionStorage.getItem("pdk.client");
if (!client) {
  client = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  sessionStorage.setItem("pdk.client", client);
}

// One id per person (page.js): the server keeps each deal in its history under it.
const person = personSecret();
let recordDeal = null; // the deal whose settlement last asked for this person's record

const seat = seatController({
  table: () => (room ? room.table : null),
  seated: () => !!room && room.you !== null,
  auto: () => !!(room && room.table && room.table.auto),
  send: (path, body) => api(`room/${roomId}/${path}`, { key, client, ...body }),
  show: (data) => show(data),
  refusedTable: (data) => data.room,
  render,
  toggleAuto,
  toggleAutoPass,
  plain: (k) => k.startsWith("web_room_"),
  keys: (e) => {
    if ($("#replay").hidden) return false;
    if (replayKey(e.key)) e.preventDefault();
    return true;
  },
});

async function loadLabels() {
  await loadWords();
  $("#keys").textContent = t("keys");
}

// -- the form ---------------------------------------------------------------------------------

// The room's house rules: a shipped profile and the options switched on it (rules-panel.js).
const house = new RulesPanel($("#f-rules"), api, t);
house.onchange = (p) => { $("[data-testid=create-room]").disabled = !p.ok; };
const MATCHES = [0, 2, 4, 6, 8, 12, 16];

// The name box's default (the name used last, else "Host" in the page's language) is
// written when the form opens, before anything is awaited, and never over a name typed.
const nameBox = $("#f-name");
nameBox.addEventListener("input", () => { nameBox.dataset.typed = "1"; });

async function openForm() {
  $("#form").hidden = false;
  if (!nameBox.dataset.typed) nameBox.value = store.getItem("pdk.name") || t("room_name_default");
  $("#message") && ($("#message").textContent = "");
  // A room number from another phone joins that room (as a spectator who takes a seat).
  $("#number-join").replaceChildren(numberForm(api, t));
  // The variants (the panel's bases) and turn times are the server's: it refuses any other.
  const { data } = await api("rooms/choices");
  await house.load(house.base || "classic16", house.rules);
  const match = $("#f-match");
  const chosen = match.value || "0";
  match.innerHTML = "";
  for (const n of MATCHES) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n ? String(n) : t("fam_open_ended");
    o.selected = String(n) === chosen;
    match.append(o);
  }
  const turn = $("#f-turn");
  turn.innerHTML = "";
  for (const n of data.turn_times) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n ? t("room_seconds", { n }) : t("room_no_limit");
    turn.append(o);
  }
  for (const o of $("#f-difficulty").options) o.textContent = said(`diff_${o.value}`) ?? o.value;
}

$("#room-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = nameBox.value.trim() || t("room_name_default");
  store.setItem("pdk.name", name);
  const chosen = house.value();
  const body = {
    variant: chosen.base || "classic16",
    difficulty: $("#f-difficulty").value,
    turn_time: Number($("#f-turn").value || 0),
    name,
    person,
    match: Number($("#f-match").value || 0),
  };
  // Only switched rules make a house profile; none switched, the room plays the shipped one.
  if (Object.keys(chosen.rules).length) body.rules = chosen.rules;
  const { ok, data } = await api("rooms", body);
  if (!ok) { $("#form-error").textContent = data.error?.text ?? t("error"); return; }
  store.setItem(`pdk.room.${data.room}`, data.key);
  location.assign(`/room/${data.room}`);
});

// -- joining and staying live -------------------------------------------------------------

function readKey() {
  // The link carries the key in its fragment (#k= a seat, #w= watching); it is kept in this
  // browser under the room, and taken out of the address bar.
  const frag = new URLSearchParams(location.hash.slice(1));
  const seat = frag.get("k");
  const watch = frag.get("w");
  if (seat) store.setItem(`pdk.room.${roomId}`, seat);
  if (watch) store.setItem(`pdk.watch.${roomId}`, watch);
  if (seat || watch) history.replaceState(null, "", location.pathname);
  if (watch && !seat) return { key: watch, watching: true };
  const mine = store.getItem(`pdk.room.${roomId}`);
  if (mine) return { key: mine, watching: false };
  const w = store.getItem(`pdk.watch.${roomId}`);
  return w ? { key: w, watching: true } : null;
}

async function enter() {
  const found = readKey();
  if (!found) { say(t("room_bad_key"), true); return; }
  key = found.key;
  if (!found.watching) {
    const name = store.getItem("pdk.name");
    const first = await api(`room/${roomId}`, undefined, keyed());
    if (!first.ok) { fail(first.data); return; }
    const mine = first.data.seats[first.data.you];
    const body = { key, client, person };
    if (!mine.taken) body.name = name || t("room_seat", { n: first.data.you + 1 });
    const { ok, data } = await api(`room/${roomId}/join`, body);
    if (!ok) { fail(data); return; }
    adopt(data.key);
    show(data);
  }
  connect();
}

// The seat's key, for a GET: in a header, never in a URL (a proxy's log keeps those).
function keyed() {
  return { "X-PDK-Key": key };
}

// A seat a bot was playing is taken under a new key (the old one was on offer): keep it.
function adopt(newKey) {
  if (!newKey || newKey === key) return;
  key = newKey;
  store.setItem(`pdk.room.${roomId}`, key);
}

function fail(data) {
  say(data.error?.text ?? t("error"), true);
  if (data.room) show(data.room);
}

function liveUrl(kind, extra = "") {
  return `/api/room/${roomId}/${kind}?client=${client}&lang=${lang()}${extra}`;
}

// The live stream: server-sent events read from a fetch's body as they arrive (an
// EventSource cannot send the key's header). Refused or not streamable: poll instead;
// dropped after it opened: said, and opened again, as an EventSource would.
async function connect() {
  if (!window.ReadableStream || store.getItem("pdk.nolive") === "1") { poll(); return; }
  const mine = new AbortController();
  source = mine;
  let opened = false;
  try {
    const res = await fetch(liveUrl("live"), { headers: keyed(), signal: mine.signal });
    if (!res.ok || !res.body) throw new Error(`live ${res.status}`);
    opened = true;
    const reader = res.body.getReader();
    const text = new TextDecoder();
    let buf = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += text.decode(value, { stream: true });
      let end;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        const event = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const lines = event.split("\n");
        const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        if (!data) continue;
        if (lines.includes("event: presence")) present(JSON.parse(data).present);
        else show(JSON.parse(data));
      }
    }
  } catch (e) {
    // aborted on purpose, refused, or the connection dropped
  }
  if (source !== mine) return; // closed on purpose (another stream replaced it)
  source = null;
  if (!opened) { poll(); return; }
  say(t("room_live_lost"), true);
  setTimeout(() => { if (!source && !polling) connect(); }, 2000);
}

// Who is connected changed (a badge), without the room changing: the view on show is
// drawn again with the new badges.
function present(here) {
  if (!room) return;
  room.seats.forEach((s, i) => { s.present = Boolean(here[i]); });
  render();
}

function hangUp() {
  if (source) { const s = source; source = null; s.abort(); }
}

async function poll() {
  if (polling) return;
  polling = true;
  while (polling) {
    try {
      const since = room ? room.rev : -1;
      const { ok, status, data } = await api(`room/${roomId}/poll?client=${client}&since=${since}`, undefined, keyed());
      if (ok) show(data);
      else {
        fail(data);
        if (status !== 409 && status !== 429) { polling = false; return; }
        await new Promise((r) => setTimeout(r, 3000));
      }
    } catch (e) {
      say(t("room_live_lost"), true);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

function say(text, refused = false) {
  seat.note = { text, refused };
  const el = $("[data-testid=message]");
  el.textContent = text;
  el.classList.toggle("refused", refused);
}

// -- rendering -------------------------------------------------------------------------------

// Back from 托管 during a deal (away, or the turn time ran out): the plays it made for this
// seat this deal, in words, once each (what was told is kept per room and deal in this tab).
function toldAuto(data) {
  const tb = data.table;
  const box = $("#auto-told");
  if (!tb || data.you === null || tb.auto || !data.auto_made?.length) {
    if (!tb || data.you === null) box.hidden = true;
    return;
  }
  // Once the deal is settled, the sheet and its replay tell the whole deal: a list over
  // them would hide the scores (and the final standings) it ends with.
  if (tb.model.settlement) {
    box.hidden = true;
    return;
  }
  const mark = `pdk.told.${data.room}`;
  const deal = String(tb.model.deal_no); // deal numbers go on across a rematch: one per deal
  const [was, upTo] = (sessionStorage.getItem(mark) || ":0").split("|");
  const last = data.auto_made[data.auto_made.length - 1].n;
  const since = was === deal ? Number(upTo || 0) : 0;
  if (last <= since) return;
  sessionStorage.setItem(mark, `${deal}|${last}`);
  const list = $("#auto-told-list");
  list.replaceChildren(...data.auto_made.filter((p) => p.n > since).map((p) => {
    const li = document.createElement("li");
    li.textContent = p.text;
    return li;
  }));
  box.hidden = false;
}
$("#auto-told-ok").addEventListener("click", () => { $("#auto-told").hidden = true; });

// A view older than the one on show is dropped: a command's answer can arrive after the
// live stream has already brought a later table.
function older(a, b) {
  const [am, at] = a.versions;
  const [bm, bt] = b.versions;
  return am < bm || (am === bm && at < bt);
}

// Quick phrases: the room's last ones, each shown once by the seat that sent it.
let lastSaid = null;
function heard(data) {
  const said = data.said || [];
  const newest = said.reduce((n, s) => Math.max(n, s.n), 0);
  if (lastSaid === null) { lastSaid = newest; return; } // what was said before this page came
  for (const s of said) {
    if (s.n <= lastSaid) continue;
    const text = `${seatName(s.seat)}: ${t(`qp_${s.phrase}`)}`;
    say(text);
    const head = document.querySelector(`.felt [data-seat="${s.seat}"], #me [data-seat="${s.seat}"]`);
    const host = head ? head.closest(".seat, .me") : null;
    if (host) {
      const bubble = document.createElement("span");
      bubble.className = "said-bubble";
      bubble.dataset.testid = "said";
      bubble.textContent = t(`qp_${s.phrase}`);
      host.append(bubble);
      setTimeout(() => bubble.remove(), 4000);
    }
  }
  lastSaid = Math.max(lastSaid, newest);
}

function show(data) {
  if (room && room.room === data.room && older(data, room)) { render(); return; }
  const before = room;
  const tb = data.table;
  if (before && before.table && tb) seat.arrive(before.table, tb);
  room = data;
  if (before && before.room === data.room && before.host_seat !== data.host_seat) {
    if (data.host) say(t("fam_host_now"));
    else inviteOpen = false; // the invitations were the host's: handed on, they close here
  }
  render();
  heard(data);
  toldAuto(data);
  if (before && before.table && tb && before.room === data.room) {
    const cues = animate(before.table, tb);
    sound(cues);
    speak(cues, tb.model, t);
  }
}

// A seat as everyone reads it (the server's words, the replay's too): a person's name, a
// computer's 电脑 A / 电脑 B, a seat nobody took before the first deal "free".
function seatName(i) {
  return room.seats[i].label;
}

function render() {
  const watching = room.you === null;
  document.body.classList.toggle("watching", watching);
  $("#auto-toggle").hidden = watching || !room.table;
  $("#say-toggle").hidden = watching || room.phase === "closed";
  $("#invite-toggle").hidden = !room.host || room.phase === "closed";
  renderLobby();
  const tb = room.table;
  $("#actions").hidden = watching;
  if (!tb) {
    for (const sel of ["#slot-prev", "#slot-next", "#slot-across"]) $(sel).innerHTML = "";
    $("[data-testid=hand]").innerHTML = "";
    $("[data-testid=trick]").innerHTML = "";
    $("[data-testid=counter]").innerHTML = "";
    $("#settlement").hidden = true;
    renderWaitingSeats();
    $("[data-testid=message]").textContent = seat.note ? seat.note.text : t(room.host ? "room_waiting_host" : "room_waiting");
    return;
  }
  const m = tb.model;
  const played = room.scores.length + (m.settlement ? 0 : 1);
  $("#deal").textContent = room.match ? t("fam_match_of", { n: Math.min(played, room.match), of: room.match }) : t("deal", { n: m.deal_no });
  $("#session").textContent = watching ? t("room_deals", { n: room.deals }) : t("session", { total: tb.session_total });
  $("#clock").textContent = typeof room.deadline === "number" ? t("room_time_left", { n: Math.ceil(room.deadline) }) : "";
  seat.draw(m, {
    mine: myTurn(m) && !tb.auto && room.phase === "playing",
    head: (s) => nameHead(s.seat, s),
    meBacks: watching,
    afterSeats: () => $("#me").classList.toggle("turn", m.seats[0].to_move && !watching),
    nameOf: (r) => seatName(r.seat),
    text: taskText(m),
    settlement: {
      result: m.task.winner !== null ? t("room_won", { who: seatName(m.task.winner) }) : m.task.message.text,
      next: "", // the ready list under it says who deals the next deal, and when
      hidden: room.phase === "closed",
    },
    beforeHand: () => {
      $("#next-deal").hidden = !room.host || room.match_over;
      renderReady(m);
      renderScores(m);
      if (m.settlement && room.you !== null && recordDeal !== m.deal_no) {
        recordDeal = m.deal_no;
        showRecord();
      }
    },
  });
}

// The ready check between deals: each person's 准备 (a computer always is), who is ready,
// and the host's 下一局 to deal at once.
function renderReady(m) {
  const between = !!m.settlement && !room.match_over && room.phase === "playing";
  const mine = room.you === null ? null : room.seats[room.you];
  const button = $("#ready-next");
  button.hidden = !between || !mine;
  if (mine) readyButton(button, mine.ready);
  $("#ready-list").textContent = between ? readyList() : "";
}

function readyList() {
  const who = room.seats.filter((s) => s.taken).map((s) => `${s.label} ${s.ready ? "✓" : "…"}`).join(" · ");
  return `${t("fam_ready_list", { who })} ${t("fam_ready_note")}`;
}

function readyButton(button, on) {
  button.textContent = t(on ? "fam_ready_on" : "fam_ready");
  button.setAttribute("aria-pressed", String(!!on));
}

async function toggleReady() {
  const mine = room.seats[room.you];
  await seat.act("ready", { on: !mine.ready });
}

// The task as this viewer reads it: whom the table waits for, by their name; a spectator
// is told they watch.
function taskText(m) {
  let text = m.task.message.text;
  if (m.task.kind === "wait" && m.task.seat !== null) text = t("room_wait", { who: seatName(m.task.seat) });
  if (room.you === null && !m.settlement) text = `${t("room_spectator")} ${text}`;
  return text;
}

// A match's per-deal scores under the settlement, and once its last deal is settled the
// final standings (大结算), with the rematch for the host.
function renderScores(m) {
  const names = room.seats.map((_, i) => seatName(i));
  const box = $("#match-scores");
  box.replaceChildren();
  if (m.settlement && room.scores.length > 1) {
    box.append(Object.assign(document.createElement("h3"), { textContent: t("fam_scores") }), scoreTable(room, names, t));
  }
  const final = room.match_over && m.settlement && room.phase !== "closed";
  $("#final").hidden = !final;
  if (final) {
    $("#final-body").replaceChildren(standingsPanel(room, names, t));
    $("#rematch").hidden = !room.host;
  }
}

function renderWaitingSeats() {
  // Before the first deal the felt shows who has sat down where.
  const n = room.players;
  const me = room.you ?? 0;
  $("#slot-across").hidden = n < 4;
  $("#slot-prev").hidden = n < 3;
  for (let k = 0; k < n; k++) {
    const seat = (me + k) % n;
    const el = k === 0 ? $("#me") : $(slotFor({ offset: k }, n));
    el.innerHTML = "";
    el.append(nameHead(seat, {}));
  }
}

function renderLobby() {
  const waiting = room.phase === "waiting";
  $("#lobby").hidden = !(waiting || inviteOpen || room.phase === "closed");
  $("#start-room").hidden = !(room.host && waiting);
  const me = room.you === null ? null : room.seats[room.you];
  $("#ready").hidden = !(waiting && me);
  if (me) readyButton($("#ready"), me.ready);
  $("#close-room").hidden = !room.host || room.phase === "closed";
  $("#lobby-close").hidden = waiting || room.phase === "closed";
  $("#take-seat").hidden = !(room.you === null && room.phase !== "closed" && room.seats.some((s) => !s.taken));
  // A spectator may take a computer's seat during play too (from the next deal): the
  // lobby is hidden then, so the header carries the button.
  $("#take-seat-bar").hidden = $("#take-seat").hidden || waiting;
  const closed = room.phase === "closed";
  const totals = room.seats.map((s, i) => `${seatName(i)} ${s.total > 0 ? "+" : ""}${s.total}`).join(" · ");
  $("#lobby-note").textContent = closed ? t("room_closed_note", { totals })
    : room.you === null ? t("room_spectator")
    : `${t(room.host ? "room_waiting_host" : "room_waiting")} ${waiting ? t("fam_ready_note") : ""}`;
  const list = $("#lobby-seats");
  list.innerHTML = "";
  room.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.dataset.seat = i;
    li.dataset.testid = "room-seat";
    li.setAttribute("data-testid", "room-seat");
    li.append(nameHead(i, {}, "room-seat-name"));
    if (s.taken && !s.present && i !== room.you) li.insertAdjacentHTML("beforeend", ` <small class="away">${t("room_away")}</small>`);
    if (waiting && s.taken) {
      const mark = document.createElement("span");
      mark.className = `badge ${s.ready ? "ready" : "unready"}`;
      mark.dataset.testid = "seat-ready";
      mark.setAttribute("data-testid", "seat-ready");
      mark.textContent = t(s.ready ? "fam_is_ready" : "fam_not_ready");
      li.append(mark);
    }
    if (room.host && s.taken && i !== room.you && room.phase !== "closed") {
      // The host hands the role on to another person seated.
      const hand = document.createElement("button");
      hand.type = "button";
      hand.className = "small";
      hand.setAttribute("data-testid", "make-host");
      hand.textContent = t("fam_make_host");
      hand.addEventListener("click", () => seat.act("host", { seat: i }));
      li.append(hand);
      // The host frees a seat: a computer plays it from now, the old link opens it no more.
      const free = document.createElement("button");
      free.type = "button";
      free.className = "small";
      free.dataset.testid = "free-seat";
      free.setAttribute("data-testid", "free-seat");
      free.textContent = t("fam_free_seat");
      free.addEventListener("click", () => seat.act("free", { seat: i }));
      li.append(free);
    }
    if (i === room.you && room.phase !== "closed") {
      const input = document.createElement("input");
      input.value = s.name;
      input.maxLength = 24;
      input.setAttribute("aria-label", t("room_name_prompt"));
      input.dataset.testid = "my-name";
      const label = document.createElement("span");
      label.className = "name-label";
      label.textContent = t("fam_your_name");
      li.append(label);
      input.setAttribute("data-testid", "my-name");
      input.addEventListener("change", async () => {
        const name = input.value.trim();
        if (!name) return;
        store.setItem("pdk.name", name);
        const { ok, data } = await api(`room/${roomId}/join`, { key, client, name, person });
        if (ok) { adopt(data.key); show(data); } else fail(data);
      });
      li.append(input);
    }
    list.append(li);
  });
  lobbyRules();
  const box = $("#invites");
  box.innerHTML = "";
  $("#room-number").replaceChildren();
  $("#links-note").replaceChildren();
  if (!room.host || closed) return;
  if (room.number) $("#room-number").append(numberNote(room.number, t));
  links(api).then((info) => { $("#links-note").replaceChildren(linksNote(info, t)); });
  for (const inv of room.invites) box.append(inviteRow(t("room_invite", { n: inv.seat + 1 }), inv.url, inv.seat, "invite-link"));
  if (room.watch) box.append(inviteRow(t("room_watch"), room.watch, "watch", "watch-link"));
}

// The room's rules in the lobby, in words, asked once per room and language.
let rulesShown = null;
async function lobbyRules() {
  const mark = `${roomId}:${lang()}`;
  if (rulesShown === mark || !key) return;
  rulesShown = mark;
  const box = await roomRules(roomId, key, lang(), t);
  $("#lobby-rules > div").replaceChildren(box);
  $("#lobby-rules > summary").textContent = `${t("fam_room_rules")}: ${box.querySelector("h3")?.textContent ?? ""}`;
}

// The QR code is asked for with the key's header, then shown as data (an <img src> could
// only carry the key in its URL).
async function qrOf(img, seat) {
  try {
    const res = await fetch(`/api/room/${roomId}/qr/${seat}`, { headers: keyed() });
    if (!res.ok) return;
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await res.text())}`;
  } catch (e) {
    // unreachable: the page says so elsewhere
  }
}

function inviteRow(title, url, seat, testid) {
  const row = document.createElement("div");
  row.className = "invite";
  row.dataset.seat = seat;
  const img = document.createElement("img");
  img.className = "qr";
  img.alt = title;
  qrOf(img, seat);
  img.dataset.testid = "qr";
  img.setAttribute("data-testid", "qr");
  const text = document.createElement("div");
  text.className = "invite-text";
  const h = document.createElement("b");
  h.textContent = title;
  const a = document.createElement("a");
  a.href = url;
  a.dataset.url = url;
  a.setAttribute("data-testid", testid);
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = url;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "small";
  copy.setAttribute("data-testid", "copy-link");
  copy.textContent = t("room_copy");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); } catch (e) { selectText(a); }
    copy.textContent = t("room_copied");
  });
  const actions = document.createElement("div");
  actions.className = "invite-actions";
  actions.append(copy);
  if (navigator.share) {
    // The phone's own share sheet (WeChat, messages…) where the browser has one.
    const share = document.createElement("button");
    share.type = "button";
    share.className = "small";
    share.setAttribute("data-testid", "share-link");
    share.textContent = t("fam_share");
    share.addEventListener("click", () => shareLink(url, title, t, (w) => { share.textContent = w; }));
    actions.append(share);
  }
  text.append(h, a, actions);
  row.append(img, text);
  return row;
}

function selectText(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

// A seat's head: the person's name (or the bot), its relation to you, its badges and
// its running total in the room.
function nameHead(seat, s, testid = "seat-name") {
  const info = room.seats[seat];
  const head = seatHead(seat, {
    t,
    name: seatName(seat),
    testid,
    relation: s.name && s.relation !== "you" && room.you !== null ? s.name.text : null,
    bao: s.bao_dan,
    auto: info.auto,
    away: info.taken && !info.present && room.phase === "playing" && seat !== room.you,
    thinking: s.to_move && room.table && room.table.bot_turn,
    total: info.total,
  });
  if (seat === room.host_seat) {
    const badge = document.createElement("span");
    badge.className = "badge host";
    badge.setAttribute("data-testid", "host-badge");
    badge.textContent = t("fam_host_badge");
    head.querySelector(".name").after(badge);
  }
  return head;
}

function myTurn(m) {
  return room.you !== null && turnOf(m);
}

// This person's record on this server (the numbers `pdk stats --person` shows), asked for
// with the secret only this browser keeps: the deal just settled is in it already.
async function showRecord() {
  const el = $("#my-record");
  const { ok, data } = await api("rooms/record", { person });
  el.textContent = ok ? data.text : (data.error?.text ?? t("error"));
  el.dataset.games = ok ? String(data.games) : "0";
  el.dataset.total = ok ? String(data.total) : "0";
}

// -- the seat's commands ----------------------------------------------------------------------

function toggleAuto() {
  if (!room.table || room.you === null) return;
  seat.act("auto", { on: !room.table.auto });
}

$("#next-deal").addEventListener("click", () => seat.act("next"));
$("#rematch").addEventListener("click", () => seat.act("rematch"));
$("#final-image").addEventListener("click", () => {
  saveStandings(room, room.seats.map((_, i) => seatName(i)), t, $("#lobby-rules > summary").textContent);
});
$("#final-replay").addEventListener("click", () => $("#replay-open").click());
$("#rules-open").addEventListener("click", () => {
  menu.close();
  if (!roomId || !key) return;
  openRules(lang(), t, `room/${roomId}/rules`, { "X-PDK-Key": key });
});
$("#rules-close").addEventListener("click", () => { $("#rules").hidden = true; });
$("#rules-file").addEventListener("click", () => roomRulesFile(roomId, key, `room-${roomId}`));
$("#start-room").addEventListener("click", () => seat.act("start"));
$("#ready").addEventListener("click", toggleReady);
$("#ready-next").addEventListener("click", toggleReady);
// Closing ends the room for everyone: the first tap asks, a second within a few seconds closes.
let closeAsked = null;
$("#close-room").addEventListener("click", () => {
  const button = $("#close-room");
  if (!closeAsked) {
    // Mid-deal, the words say the deal ends for everyone.
    const midDeal = room.table && !room.table.model.settlement;
    button.textContent = t(midDeal ? "fam_close_sure_mid" : "fam_close_sure");
    button.classList.add("sure");
    closeAsked = setTimeout(() => {
      closeAsked = null;
      button.textContent = t("room_close_room");
      button.classList.remove("sure");
    }, 4000);
    return;
  }
  clearTimeout(closeAsked);
  closeAsked = null;
  seat.act("close");
});
$("#take-seat-bar").addEventListener("click", () => $("#take-seat").click());
// The quick phrases a seat may send (the server's fixed set), from the header.
async function fillPhrases() {
  const { ok, data } = await api("rooms/choices");
  const box = $("#phrases");
  box.replaceChildren();
  if (!ok) return;
  for (const p of data.phrases) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.dataset.phrase = p;
    b.textContent = t(`qp_${p}`);
    b.addEventListener("click", async () => {
      box.hidden = true;
      const { ok: sent, data: answer } = await api(`room/${roomId}/say`, { key, client, phrase: p });
      if (sent) show(answer); else say(answer.error?.text ?? t("error"), true);
    });
    box.append(b);
  }
}
$("#say-toggle").addEventListener("click", async () => {
  if (!$("#phrases").childElementCount) await fillPhrases();
  $("#phrases").hidden = !$("#phrases").hidden;
});
$("#take-seat").addEventListener("click", async () => {
  const name = store.getItem("pdk.name") || t("room_seat", { n: room.seats.findIndex((s) => !s.taken) + 1 });
  const { ok, data } = await api(`room/${roomId}/claim`, { key, client, name, person });
  if (!ok) { fail(data); return; }
  store.setItem(`pdk.room.${roomId}`, data.key);
  hangUp();
  polling = false;
  room = null;
  await enter();
});
$("#invite-toggle").addEventListener("click", () => { inviteOpen = !inviteOpen; render(); });
$("#lobby-close").addEventListener("click", () => { inviteOpen = false; render(); });
// -- the menu (☰): sound, the card counter, and this seat's auto-pass (kept by the server) --

function renderMenu() {
  onOff($("#sound-toggle"), soundOn());
  onOff($("#counter-toggle"), store.getItem("pdk.counter") !== "off");
  const seated = room && room.table && room.you !== null;
  $("#autopass-row").hidden = !seated;
  if (seated) onOff($("#autopass-toggle"), room.table.auto_pass);
}
async function toggleAutoPass() {
  const on = !room.table.auto_pass;
  if (await seat.act("auto_pass", { on })) seat.say(t(on ? "auto_pass_on" : "auto_pass_off"), false, true);
  renderMenu();
}
$("#sound-toggle").addEventListener("click", () => { setSound(!soundOn()); renderMenu(); });
$("#counter-toggle").addEventListener("click", () => {
  store.setItem("pdk.counter", store.getItem("pdk.counter") === "off" ? "on" : "off");
  renderMenu();
  if (room) render();
});
$("#autopass-toggle").addEventListener("click", () => { if (room && room.table) toggleAutoPass(); });
$("#lang-toggle").addEventListener("click", async () => {
  $("#phrases").replaceChildren(); // their words come again in the other language
  toggleLang();
  await loadLabels();
  seat.note = null;
  recordDeal = null; // the record is asked for again, in the new language
  if (!roomId) { openForm(); return; }
  if (source) { hangUp(); connect(); }
});

// -- replay of the deal just finished -------------------------------------------------------

$("#replay-open").addEventListener("click", () => {
  openReplay(`/api/room/${roomId}/replay?lang=${lang()}`, t, keyed());
});

// The turn clock counts down between messages.
setInterval(() => {
  if (room && typeof room.deadline === "number" && room.deadline > 0) {
    room.deadline = Math.max(0, room.deadline - 1);
    $("#clock").textContent = t("room_time_left", { n: Math.ceil(room.deadline) });
  }
}, 1000);

await loadLabels();
if (roomId) await enter();
else await openForm();
