// What every pdk page shares: `$`, the language, the server's words (labels) and the one
// way to ask the server (`api`). The table, the room, 复盘 and the puzzles import them from
// here, so a page's language and words are one state however many of its modules read them.

export const $ = (sel) => document.querySelector(sel);
export const store = window.localStorage;

// ?lang=zh|en (what `pdk serve --lang` opens) is kept as the choice; else the saved one,
// else the browser's language. The address loses ?lang, so that a later toggle survives
// a reload (the rest of the query, and a room's key in the fragment, stay).
const query = new URLSearchParams(location.search);
const asked = query.get("lang");
if (asked === "zh" || asked === "en") {
  store.setItem("pdk.lang", asked);
  query.delete("lang");
  const rest = query.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
}
let current = store.getItem("pdk.lang") || ((navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en");

export const lang = () => current;

export function toggleLang() {
  current = current === "zh" ? "en" : "zh";
  store.setItem("pdk.lang", current);
}

// A message template filled as the server's catalog writes them: {n}, {total:+d}.
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (_, k, fmt) => {
    const v = params[k];
    if (fmt === "+d" && typeof v === "number") return (v > 0 ? "+" : "") + v;
    return v === undefined ? "" : String(v);
  });
}

let L = {};
let asking = null; // {lang, words}: one language's words, asked for once for every module

// The server's word for `key` in the page's language (the key itself until they came).
export const t = (key, params) => fill(L[key] ?? key, params);
export const said = (key) => L[key];

// The server's words in the page's language.
export async function labels() {
  if (!asking || asking.lang !== current) {
    const mine = {
      lang: current,
      words: api("labels").then(({ ok, data }) => { if (!ok) throw new Error(data.error?.text); return data; }),
    };
    asking = mine;
    mine.words.catch(() => { if (asking === mine) asking = null; }); // asked again next time
  }
  const { lang: of, words } = asking;
  const got = await words;
  if (of === current) L = got;
  return L;
}

// The words, and the page's own elements that name a label (data-l) written in them.
export async function loadLabels() {
  await labels();
  document.documentElement.lang = current;
  for (const el of document.querySelectorAll("[data-l]")) el.textContent = t(el.dataset.l);
  const toggle = $("#lang-toggle");
  if (toggle) toggle.textContent = current === "zh" ? "EN" : "中文";
}

// Who hears whether the server answers: the table page says so when it cannot be reached.
let reach = { up: () => {}, down: () => {} };
export function onReach(up, down) {
  reach = { up, down };
}

// GET `path` (POST with `body`) under /api, in the page's language: {ok, status, data}.
// A fetch that fails (the server is down) is told to `onReach` and thrown on.
// `headers`: a GET's own (a room's key travels in X-PDK-Key, never in the URL).
export async function api(path, body, headers = {}) {
  const sep = path.includes("?") ? "&" : "?";
  const init = body === undefined ? { headers } : {
    method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(`/api/${path}${sep}lang=${current}`, init);
  } catch (e) {
    reach.down();
    throw e;
  }
  reach.up();
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: { text: t("error") } }; }
  return { ok: res.ok, status: res.status, data };
}

// -- the ☰ menu ---------------------------------------------------------------------------
// One menu for every table page: the single table's (app.js) and a room's (room.js) were
// two copies of the same markup that drifted apart. Each page builds it here with its own
// rows and buttons around the switches every seat has, and wires what its switches do.

// A switch in the menu, on or off, in the page's words (开/关, On/Off), named by its label
// key too, so that the page's other language writes it as it stands.
export function onOff(button, on) {
  button.setAttribute("aria-pressed", String(on));
  button.classList.toggle("on", on);
  button.dataset.l = on ? "on" : "off";
  button.textContent = t(button.dataset.l);
}

const el = (tag, { dataset = {}, ...props } = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  Object.assign(e.dataset, dataset);
  e.append(...children);
  return e;
};
const word = (key) => el("span", { dataset: { l: key }, textContent: t(key) });

// A row of the menu: its name (a label's key) and an on/off switch drawn by `onOff`.
export function menuSwitch({ id, label, testid, on = false, rowId = "" }) {
  const b = el("button", { type: "button", className: "small", id, dataset: { testid } });
  onOff(b, on);
  return el("label", rowId ? { id: rowId } : {}, word(label), b);
}

// A row with a choice of values: `choices` are [value, label key] pairs.
export function menuChoice({ id, label, testid, choices }) {
  const select = el("select", { id, dataset: { testid } },
    ...choices.map(([value, key]) => el("option", { value, dataset: { l: key }, textContent: t(key) })));
  return el("label", {}, word(label), select);
}

// One of the menu's buttons (规则, 残局, …), drawn as each of them is.
export function menuButton({ id, label, testid, onclick }) {
  const b = el("button", { type: "button", id, dataset: { testid, l: label }, textContent: t(label) });
  if (onclick) b.addEventListener("click", onclick);
  return b;
}

// The menu: the page's `rows` before the shared switches (sound, the card counter,
// 要不起 auto-pass; `autopassRow` names the last one's row), `after` them, then the page's
// 规则, the page's `buttons` and 关闭. ☰ opens and closes it; `onOpen` draws the switches as they are.
export function buildMenu({ rows = [], after = [], buttons = [], autopassRow = "", onOpen = () => {} }) {
  const settings = el("div", { className: "settings" }, ...rows,
    menuSwitch({ id: "sound-toggle", label: "sound", testid: "sound" }),
    menuSwitch({ id: "counter-toggle", label: "counter", testid: "counter-toggle", on: true }),
    menuSwitch({ id: "autopass-toggle", label: "auto_pass_label", testid: "autopass", on: true, rowId: autopassRow }),
    ...after);
  const actions = el("div", { className: "panel-actions" },
    menuButton({ id: "rules-open", label: "rules", testid: "rules-open" }), ...buttons,
    el("button", { type: "button", id: "menu-close", className: "primary", dataset: { l: "close" }, textContent: t("close") }));
  const panel = el("div", { className: "panel", id: "menu", hidden: true, dataset: { testid: "menu-panel" } },
    el("div", { className: "sheet" }, el("h2", { dataset: { l: "menu_title" }, textContent: t("menu_title") }), settings, actions));
  const rules = $("#rules");
  if (rules) rules.before(panel); else document.body.append(panel);
  const toggle = $("#menu-toggle");
  const show = (open) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) onOpen();
  };
  toggle.addEventListener("click", () => show(panel.hidden));
  $("#menu-close").addEventListener("click", () => show(false));
  return { close: () => show(false) };
}
