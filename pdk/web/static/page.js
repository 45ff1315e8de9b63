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
