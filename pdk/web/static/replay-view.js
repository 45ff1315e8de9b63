// The replay of the deal just finished: every hand face up, play by play. Each step says
// who acted, with what, and the play it had to beat; the last says who won and why each
// score is what it is. ▶ steps, and Auto plays the deal by itself.
import { cardsRow } from "./cards.js";
import { $ } from "./page.js";

let replay = null;
let timer = null;
let t = (k) => k;

// `url`: where the page's replay is (a table's, or a room seat's with its key).
export async function openReplay(url, translate, headers = {}) {
  t = translate;
  const res = await fetch(url, { headers });
  if (!res.ok) return;
  replay = { ...(await res.json()), i: 0 };
  $("#replay").hidden = false;
  draw();
}

function stopAuto() {
  clearInterval(timer);
  timer = null;
  $("#replay-auto").setAttribute("aria-pressed", "false");
  $("#replay-auto").classList.remove("on");
}

function say(parts) {
  const box = $("#replay-state");
  box.innerHTML = "";
  for (const p of parts) box.append(typeof p === "string" ? document.createTextNode(p) : p);
}

function draw() {
  const f = replay.frames[replay.i];
  const n = replay.frames.length - 1;
  const names = replay.names;
  $("#replay-title").textContent = replay.i ? t("replay_step", { i: replay.i, n }) : t("replay_start");
  // What this step did, against what.
  if (replay.i === 0) {
    say([t("replay_dealt")]);
  } else {
    const who = names[f.seat];
    const parts = [];
    if (f.beat) {
      parts.push(t("replay_to_beat", { who: names[f.beat.seat], kind: f.beat.kind }), cardsRow(f.beat.cards), " → ");
    } else if (f.cards) {
      parts.push(t("replay_leads", { who }) + " ");
    }
    parts.push(f.cards ? t("replay_plays", { who, kind: f.kind }) : t("replay_passes", { who }));
    if (f.cards) parts.push(cardsRow(f.cards));
    say(parts);
  }
  const box = $("#replay-hands");
  box.innerHTML = "";
  names.forEach((name, seat) => {
    const row = document.createElement("div");
    row.className = "rseat" + (f.seat === seat ? " acting" : "") + (replay.i === n && seat === replay.winner ? " won" : "");
    row.dataset.seat = seat;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = (replay.i === n && seat === replay.winner ? "★ " : "") + name;
    row.append(who);
    const hand = f.hands[seat];
    if (hand.length) row.append(cardsRow(hand));
    else row.insertAdjacentHTML("beforeend", `<span class="out">${t("replay_out")}</span>`);
    box.append(row);
  });
  if (replay.i === n) {
    // The end: who won, and every seat's score with its reasons.
    const end = document.createElement("div");
    end.className = "rresult";
    end.dataset.testid = "replay-result";
    end.setAttribute("data-testid", "replay-result");
    const head = document.createElement("p");
    head.className = "rwinner";
    head.textContent = t("replay_won", { who: names[replay.winner] });
    end.append(head);
    const ul = document.createElement("ul");
    for (const r of replay.result) {
      const li = document.createElement("li");
      const total = r.total > 0 ? `+${r.total}` : String(r.total);
      li.textContent = `${names[r.seat]} ${total}: ${r.lines.join(t("replay_sep"))}`;
      ul.append(li);
    }
    end.append(ul);
    box.append(end);
    stopAuto();
  }
  $("#replay-prev").disabled = replay.i === 0;
  $("#replay-next").disabled = replay.i === n;
}

export function replayKey(k) {
  const button = { ArrowLeft: "#replay-prev", ArrowRight: "#replay-next", Escape: "#replay-close", " ": "#replay-auto" }[k];
  if (button) $(button).click();
  return !!button;
}

let stepMs = 900;
// How long Auto shows each play (the page's bot-speed setting).
export function setReplayPace(ms) { stepMs = ms; }

$("#replay-prev").addEventListener("click", () => { stopAuto(); replay.i--; draw(); });
$("#replay-next").addEventListener("click", () => { stopAuto(); replay.i++; draw(); });
$("#replay-close").addEventListener("click", () => { stopAuto(); $("#replay").hidden = true; });
$("#replay-auto").addEventListener("click", () => {
  if (timer) { stopAuto(); return; }
  if (replay.i === replay.frames.length - 1) replay.i = 0;
  $("#replay-auto").setAttribute("aria-pressed", "true");
  $("#replay-auto").classList.add("on");
  timer = setInterval(() => { replay.i++; draw(); }, stepMs);
});
