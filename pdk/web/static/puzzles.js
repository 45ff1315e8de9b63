// The 残局 puzzle page: shows an open-handed endgame, takes the player's play and shows
// the line that proves it right or wrong (/api/puzzles).
import { cardEl, cardsRow } from "./cards.js";
import { $, api, lang, labels, t } from "./page.js";

let all = [];
let current = null;
let selected = new Set();

function drawHand() {
  const box = $("#pz-hand");
  box.innerHTML = "";
  current.hands[current.turn].forEach((c, i) => {
    const el = cardEl(c);
    el.dataset.testid = "pz-card";
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", String(selected.has(i)));
    el.classList.toggle("selected", selected.has(i));
    el.addEventListener("click", () => {
      if (selected.has(i)) selected.delete(i); else selected.add(i);
      drawHand();
    });
    box.append(el);
  });
}

function lineEl(line) {
  const ol = document.createElement("ol");
  ol.className = "review-plays";
  for (const step of line) {
    const li = document.createElement("li");
    li.append(document.createTextNode(`${current.names[step.seat]}: `));
    li.append(step.cards ? cardsRow(step.cards) : document.createTextNode(t("pz_pass")));
    ol.append(li);
  }
  return ol;
}

async function show(id) {
  const { ok, data } = await api(`puzzles/${id}`);
  if (!ok) return;
  current = data;
  selected = new Set();
  $("#pz-title").textContent = data.title;
  const seats = $("#pz-seats");
  seats.innerHTML = "";
  data.hands.forEach((hand, seat) => {
    if (seat === data.turn) return;
    const row = document.createElement("div");
    row.className = "pz-seat";
    row.append(document.createTextNode(`${data.names[seat]}: `), cardsRow(hand));
    seats.append(row);
  });
  const table = $("#pz-table");
  table.innerHTML = "";
  if (data.beat) table.append(document.createTextNode(`${t("pz_table")} — ${data.names[data.beat.seat]}: `), cardsRow(data.beat.cards));
  else table.textContent = `${data.names[data.turn]} ${t("pz_lead")}`;
  $("#pz-result").innerHTML = "";
  drawHand();
}

async function answer(pass) {
  const hand = current.hands[current.turn];
  const cards = pass ? null : [...selected].sort((a, b) => a - b).map((i) => hand[i]);
  const { ok, data } = await api(`puzzles/${current.id}/answer`, { cards });
  const box = $("#pz-result");
  box.innerHTML = "";
  if (!ok) {
    box.textContent = data.error ? data.error.text : "";
    return;
  }
  const head = document.createElement("p");
  head.className = data.right ? "right" : "wrong";
  head.dataset.right = String(data.right);
  head.textContent = data.right ? t("pz_right") : t("pz_wrong");
  box.append(head, lineEl(data.line));
  if (!data.right) {
    const ans = document.createElement("p");
    ans.textContent = t("pz_answer");
    box.append(ans, lineEl(data.answer_line));
  }
}

function pick() {
  const level = $("#pz-level").value;
  const theme = $("#pz-theme").value;
  const pool = all.filter((p) => (!level || String(p.level) === level) && (!theme || p.themes.includes(theme)));
  if (!pool.length) {
    $("#pz-result").textContent = t("pz_none_here");
    return;
  }
  const asked = Number(new URLSearchParams(location.search).get("id"));
  if (asked && !current) return show(asked);
  return show(pool[Math.floor(Math.random() * pool.length)].id);
}

async function start() {
  await labels();
  document.documentElement.lang = lang();
  $("#pz-heading").textContent = t("pz_heading");
  $("#pz-level-label").textContent = t("pz_level");
  $("#pz-level").options[0].textContent = t("pz_any");
  $("#pz-back").textContent = t("pz_back");
  $("#pz-play").textContent = t("pz_play");
  $("#pz-pass").textContent = t("pz_pass");
  $("#pz-next").textContent = t("pz_next");
  $("#pz-play").addEventListener("click", () => answer(false));
  $("#pz-pass").addEventListener("click", () => answer(true));
  $("#pz-next").addEventListener("click", pick);
  $("#pz-level").addEventListener("change", pick);
  // The themes to pick from (全关, 报单, the last bomb, the only single), in the page's words.
  $("#pz-theme-label").textContent = t("pz_theme");
  $("#pz-theme").options[0].textContent = t("pz_any");
  const listed = (await api("puzzles")).data;
  for (const key of listed.themes) {
    const o = document.createElement("option");
    o.value = key;
    o.textContent = listed.theme_names[key];
    $("#pz-theme").append(o);
  }
  $("#pz-theme").addEventListener("change", pick);
  all = listed.puzzles;
  await pick();
}

start();
