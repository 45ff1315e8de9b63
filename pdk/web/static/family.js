// The family table's room pieces, each drawn from what the server sends: sharing a link
// (the phone's share sheet where the browser has one, copy otherwise), where links lead
// (a server on loopback says they open on this computer only), the room's rules in words,
// a match's per-deal scores and its final standings (大结算, saved as an image), and the
// room number typed on /room. No piece keeps state of its own.
import { rulesInWords, saveBlob } from "./rules-panel.js";

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// Share `url` through the share sheet, or copy it; `done(word)` says which happened.
export async function shareLink(url, title, t, done = () => {}) {
  if (navigator.share) {
    try {
      await navigator.share({ title, url });
      done(t("fam_shared"));
      return;
    } catch (e) {
      if (e && e.name === "AbortError") return; // the person closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    done(t("room_copied"));
  } catch (e) {
    window.prompt(t("room_copy"), url); // no clipboard (plain http on a LAN address): select it by hand
  }
}

// Where this server's links lead, asked once per page.
let linksInfo = null;
export async function links(api) {
  if (!linksInfo) linksInfo = (await api("rooms/links")).data;
  return linksInfo;
}

// The words under the invitations: on loopback, that the links open here only and how to
// share instead; otherwise the address they carry.
export function linksNote(info, t) {
  const p = el("p", info.local_only ? "links-note local" : "links-note");
  p.dataset.testid = "links-note";
  p.textContent = info.local_only ? t("fam_local_only") : t("fam_lan", { base: info.base });
  return p;
}

// The room number, large, for reading out across the table.
export function numberNote(number, t) {
  const p = el("p", "room-number");
  p.dataset.testid = "room-number";
  p.append(el("span", "", t("fam_number")), el("strong", "", number.replace(/(\d{3})(\d{3})/, "$1 $2")));
  return p;
}

// The room's rules, in `pdk variants show`'s words, and the file to download.
export async function roomRules(roomId, key, lang, t) {
  const res = await fetch(`/api/room/${roomId}/rules?lang=${lang}`, { headers: { "X-PDK-Key": key } });
  const box = el("div", "room-rules");
  box.dataset.testid = "room-rules";
  if (!res.ok) return box;
  const data = await res.json();
  box.append(el("h3", "", data.title));
  box.append(rulesInWords(data));
  const a = el("button", "", t("hr_download"));
  a.type = "button";
  a.dataset.testid = "room-rules-file";
  a.addEventListener("click", () => roomRulesFile(roomId, key, data.name));
  box.append(a);
  return box;
}

// The room's rules as a profile file, asked for with the key's header (a link could only
// carry the key in its URL).
export async function roomRulesFile(roomId, key, name) {
  const res = await fetch(`/api/room/${roomId}/rules.yaml`, { headers: { "X-PDK-Key": key } });
  if (res.ok) saveBlob(await res.blob(), `${name}.yaml`);
}

// The match so far: one row per finished deal, one column per seat, the totals below.
export function scoreTable(room, names, t) {
  const table = el("table", "scores");
  table.dataset.testid = "scores";
  const head = el("tr");
  head.append(el("th", "", t("fam_deal")));
  for (const n of names) head.append(el("th", "", n));
  table.append(head);
  room.scores.forEach((row, i) => {
    const tr = el("tr");
    tr.append(el("td", "", String(i + 1)));
    for (const v of row) tr.append(el("td", v > 0 ? "pos" : v < 0 ? "neg" : "", v > 0 ? `+${v}` : String(v)));
    table.append(tr);
  });
  const sum = el("tr", "sum");
  sum.append(el("td", "", t("fam_total")));
  for (const s of room.seats) sum.append(el("td", s.total > 0 ? "pos" : s.total < 0 ? "neg" : "", String(s.total)));
  table.append(sum);
  return table;
}

// 大结算: the seats by their totals, first place first, ties sharing a place.
export function standings(room, names) {
  const order = room.seats.map((s, i) => ({ seat: i, name: names[i], total: s.total }));
  order.sort((a, b) => b.total - a.total || a.seat - b.seat);
  let place = 0;
  order.forEach((r, i) => {
    if (i === 0 || r.total !== order[i - 1].total) place = i + 1;
    r.place = place;
  });
  return order;
}

export function standingsPanel(room, names, t) {
  const box = el("div", "standings");
  box.dataset.testid = "standings";
  box.append(el("h2", "", t("fam_standings", { n: room.scores.length })));
  const ol = el("ol", "places");
  for (const r of standings(room, names)) {
    const li = el("li", r.place === 1 ? "first" : "");
    li.append(el("span", "place", t("fam_place", { n: r.place })), el("span", "who", r.name),
      el("span", r.total > 0 ? "pos" : r.total < 0 ? "neg" : "", r.total > 0 ? `+${r.total}` : String(r.total)));
    ol.append(li);
  }
  box.append(ol, scoreTable(room, names, t));
  return box;
}

// The standings drawn on a canvas and saved as a PNG (the family's photo of the evening).
export function saveStandings(room, names, t, title) {
  const rows = standings(room, names);
  const w = 720, line = 56, h = 150 + rows.length * line + 40 + room.scores.length * 30;
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  const g = c.getContext("2d");
  g.fillStyle = "#0d5c3f";
  g.fillRect(0, 0, w, h);
  g.fillStyle = "#f2c14e";
  g.font = "bold 40px 'Noto Sans CJK SC', sans-serif";
  g.fillText(t("fam_standings", { n: room.scores.length }), 32, 64);
  g.font = "22px 'Noto Sans CJK SC', sans-serif";
  g.fillStyle = "#f4f1e8";
  g.fillText(title, 32, 100);
  rows.forEach((r, i) => {
    const y = 150 + i * line;
    g.font = `${r.place === 1 ? "bold " : ""}32px 'Noto Sans CJK SC', sans-serif`;
    g.fillStyle = r.place === 1 ? "#f2c14e" : "#f4f1e8";
    g.fillText(`${t("fam_place", { n: r.place })}  ${r.name}`, 32, y);
    g.textAlign = "right";
    g.fillText(r.total > 0 ? `+${r.total}` : String(r.total), w - 32, y);
    g.textAlign = "left";
  });
  g.font = "20px 'Noto Sans CJK SC', sans-serif";
  g.fillStyle = "#cfe3d8";
  room.scores.forEach((row, i) => {
    g.fillText(`${t("fam_deal")} ${i + 1}: ${row.map((v) => (v > 0 ? `+${v}` : v)).join("  ")}`, 32, 150 + rows.length * line + 20 + i * 30);
  });
  c.toBlob((blob) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "pdk-standings.png";
    document.body.append(a);
    a.click();
    a.remove();
  }, "image/png");
}

// /room: a 6-digit number typed on another phone opens the room's watch link, from which
// the person takes a free seat.
export function numberForm(api, t) {
  const form = el("form", "number-form");
  form.dataset.testid = "number-form";
  const label = el("label", "row");
  label.append(el("span", "", t("fam_number_join")));
  const input = el("input");
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.maxLength = 7;
  input.placeholder = "123 456";
  input.setAttribute("aria-label", t("fam_number_join"));
  input.dataset.testid = "room-number-input";
  const go = el("button", "", t("fam_join"));
  go.type = "submit";
  label.append(input, go);
  const err = el("p", "err");
  err.setAttribute("role", "alert");
  form.append(label, err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const digits = input.value.replace(/\D/g, "");
    if (digits.length !== 6) {
      err.textContent = t("fam_number_six");
      return;
    }
    const { ok, data } = await api(`rooms/number/${digits}`);
    if (!ok) {
      err.textContent = data.error ? data.error.text : t("error");
      return;
    }
    const url = new URL(data.watch);
    location.assign(`${location.origin}${url.pathname}${url.hash}`);
  });
  return form;
}
