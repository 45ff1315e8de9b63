// The seat controller of every table page: the single table (app.js) and a seat in a room
// (room.js) select, hint, play, pass and type the same way, and send a play the same way.
// The page (its `face`) says where the seat's table is, how a command reaches the server
// and what 托管 and auto-pass do there; this module keeps the rest: the selection, the
// hint cycle, the transient note, the typed cards, the trick just won, and the keys.
//
// A play is sent once, marked `verdict`: the server answers a play it refuses with its
// reason and the table unchanged as an answer (200), not as a failed request, so the
// browser logs no error for a play the rules refuse and the rules run once.
import { attachHand, layoutHand } from "./touch.js";
import { hintCards, myTurn, renderButtons, renderCounter, renderHand, renderMessage, renderSeats,
  renderSettlement, renderTrick, wonTrick } from "./table-view.js";
import { $, t } from "./page.js";

// face: {
//   table(): the seat's table as the server last sent it ({seq, model, ...}), or null;
//   seated(): whether this viewer holds the seat (a spectator only watches);
//   auto(): 托管 as the page shows it;
//   send(path, body): the seat's command to the server, {ok, status, data};
//   show(data, keepNote): draw an answer (or a refusal's table) and go on from it;
//   refusedTable(data): the table a refusal came with, if any;
//   render(): draw the page again (the note or the selection changed);
//   toggleAuto(), toggleAutoPass(): the seat's switches;
//   plain(key): whether a refusal's text is the server's own line, not a rule's reason;
//   keys(e): the page's own keys first (true: taken);
// }
const RESEND_MS = 700; // the pause before a command lost on the way is sent again

export function seatController(face) {
  const seat = {
    selected: new Set(), // indexes into model.hand
    note: null, // a transient message (refusal, hint) until the next move
    typed: "",
    lastTrick: null, // the trick just won, shown faded until the next play
  };
  let hint = { seq: -1, i: -1 };

  // A new table arrived after `before`: the trick just won stays faded, and a move made
  // (or a new deal) clears the selection and the note (a switch's note outlives moves).
  seat.arrive = (before, after, keepNote = false) => {
    seat.lastTrick = wonTrick(before && before.model, after.model, seat.lastTrick);
    if (!before || before.seq !== after.seq || before.model.deal_no !== after.model.deal_no) {
      seat.selected = new Set();
      if (!keepNote && !(seat.note && seat.note.keep)) seat.note = null;
    }
  };

  seat.say = (text, refused = false, keep = false) => {
    seat.note = keep ? { text, refused, keep } : { text, refused };
    face.render();
  };

  // The table as the seat sees it, drawn from the model; `o` says what the page names
  // differently (the seats' heads, the names in the trick and the settlement, the task).
  seat.draw = (m, o) => {
    const { selected, note, typed, lastTrick } = seat;
    const auto = face.auto();
    // The table version drawn: whoever waits on a move (a script, the browser tests) waits
    // for it to change, as the bots may answer a pass before any other sign shows.
    $(".felt").dataset.seq = String(face.table().seq);
    renderSeats(m, { t, head: o.head, meBacks: !!o.meBacks });
    if (o.afterSeats) o.afterSeats();
    renderTrick(m, lastTrick, { t, nameOf: o.nameOf });
    renderCounter(m);
    renderButtons(m, { mine: o.mine, auto });
    renderMessage(m, { t, text: o.text, mine: face.seated() && myTurn(m), note, auto, typed });
    renderSettlement(m, { t, nameOf: o.nameOf, ...o.settlement });
    if (o.beforeHand) o.beforeHand();
    // Last: the hand's overlap is worked out from its width, which the buttons' reason
    // (landscape: the column beside it) and the message may just have changed.
    renderHand(m, selected);
  };

  // A seat command: the answer is drawn; a refusal says why over the table it came with.
  // A command whose request fails on the way (a dropped connection) is sent once more a
  // moment later: it carries the table's seq, so had the first arrived after all, the
  // second is answered "moved on" with the table as it stands, never played twice. Lost
  // twice, the player is told it was not sent rather than left tapping a silent button.
  seat.act = async (path, body, again = true) => {
    let answer;
    try {
      answer = await face.send(path, body);
    } catch (e) {
      if (again) {
        await new Promise((done) => setTimeout(done, RESEND_MS));
        return seat.act(path, body, false);
      }
      seat.note = { text: t("not_sent"), refused: true };
      face.render();
      return false;
    }
    const { ok, status, data } = answer;
    if (!ok || data.error) {
      const err = data.error ?? {};
      if (err.key === "web_stale") {
        // Another tab (or a retry) moved the table on: show where it is now, quietly.
        seat.note = { text: t("moved_on"), refused: false };
        seat.selected = new Set();
      } else {
        const plain = err.key === "web_bad_request" || status === 503 || face.plain(err.key || "");
        seat.note = { text: plain ? err.text : t("refused", { reason: err.text }), refused: true };
      }
      const now = face.refusedTable(data);
      if (now) face.show(now, true);
      else face.render();
      return false;
    }
    seat.note = null;
    face.show(data);
    return true;
  };

  // One round trip: the play, marked to be answered with its verdict.
  seat.play = (body) => seat.act("play", { seq: face.table().seq, ...body, verdict: true });

  seat.playSelected = () => {
    const m = face.table().model;
    const cards = [...seat.selected].sort((a, b) => a - b).map((i) => m.hand[i]);
    if (!cards.length) {
      seat.say(t("pick_cards"), true);
      return;
    }
    seat.play({ cards });
  };

  seat.pass = () => seat.act("pass", { seq: face.table().seq });

  // A browser table's hints are searched when asked for (the model says `hints_pending`):
  // the first press asks the server (a thinking slot), says so meanwhile, then shows hint 1.
  let asking = -1;
  seat.nextHint = async () => {
    const m = face.table().model;
    if (m.hints_pending) {
      const seq = face.table().seq;
      if (asking === seq) return;
      asking = seq;
      seat.note = { text: t("hint_thinking") };
      face.render();
      const ok = await seat.act("hints", { seq });
      asking = -1;
      const now = face.table();
      if (ok && now && now.seq === seq && !now.model.hints_pending) seat.nextHint();
      return;
    }
    if (!m.hints.length) {
      seat.note = { text: t("no_hint") };
      face.render();
      return;
    }
    const seq = face.table().seq;
    hint = hint.seq === seq ? { seq, i: (hint.i + 1) % m.hints.length } : { seq, i: 0 };
    const h = m.hints[hint.i];
    seat.selected = hintCards(m, hint.i);
    const why = m.hint_reasons?.[hint.i]?.text; // what the play does and why now (issue 37)
    const said = { i: hint.i + 1, n: m.hints.length, cards: h.text, why };
    seat.note = { text: why ? t("hint_n_why", said) : t("hint_n", said) };
    face.render();
  };

  // Taps and finger slides on the hand (touch.js) change the selection card by card, and
  // the page redraws once the finger lifts.
  attachHand($("[data-testid=hand]"), {
    isSelected: (i) => seat.selected.has(i),
    setSelected: (i, on) => { if (on) seat.selected.add(i); else seat.selected.delete(i); },
    done: () => { seat.note = null; face.render(); },
    enabled: () => !!face.table() && face.seated(),
  });

  $("#play").addEventListener("click", seat.playSelected);
  $("#hint").addEventListener("click", seat.nextHint);
  $("#pass").addEventListener("click", seat.pass);
  $("#auto-toggle").addEventListener("click", () => face.toggleAuto());
  window.addEventListener("resize", () => layoutHand($("[data-testid=hand]")));

  // Desktop keys: type the terminal notation and Enter; h hint, p pass, a 托管, x
  // auto-pass, Esc clears; the replay's own keys while it is open.
  document.addEventListener("keydown", (e) => {
    if (!face.table() || !face.seated()) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (face.keys(e)) return;
    const m = face.table().model;
    const auto = face.auto();
    const mine = myTurn(m) && !auto;
    if (k === "Enter") {
      if (!seat.typed || auto) return;
      e.preventDefault(); // typed cards are the answer, not the focused button (a hint, EN)
      const text = seat.typed.trim();
      seat.typed = "";
      if (!text) { face.render(); return; }
      // Sent as typed: the server reads it as pdk play does (ranges, ranks alone, suits).
      seat.play({ text });
      return;
    }
    if (k === "Escape") { seat.typed = ""; seat.selected = new Set(); face.render(); return; }
    if (k === "Backspace") { seat.typed = seat.typed.slice(0, -1); face.render(); return; }
    if (!seat.typed && (k === "h" || k === "H")) { if (mine) seat.nextHint(); return; }
    if (!seat.typed && (k === "p" || k === "P")) { if (mine) seat.pass(); return; }
    if (!seat.typed && k === "a") { face.toggleAuto(); return; } // lowercase a, as in the terminal; A is an ace
    if (!seat.typed && k === "x") { face.toggleAutoPass(); return; }
    if (/^[0-9tjqkabrTJQKABRshcdSHCD -]$/.test(k)) { seat.typed += k; face.render(); }
  });

  return seat;
}
