// Motion of the table, applied once to what a new table state changed (never on a mere
// redraw, such as selecting a card): a play slides in from the seat that made it, a won
// trick clears, a new deal is dealt card by card, 报单 and bombs are marked. Only CSS
// classes are set here; the animations live in style.css, which turns them off under
// prefers-reduced-motion.

const FROM = { you: "from-you", next: "from-next", prev: "from-prev", across: "from-across" };

function relationOf(model, seat) {
  const s = model.seats.find((x) => x.seat === seat);
  if (!s) return "across";
  if (s.offset === 0) return "you";
  if (s.offset === 1) return "next";
  if (s.offset === model.players - 1) return "prev";
  return "across";
}

// `before` and `after` are the page's table responses ({seq, model, ...}); `before` is
// null on the first load. Returns what happened, for the sounds: a list of event names.
export function animate(before, after) {
  const m = after.model;
  const events = [];
  const newDeal = !before || before.model.deal_no !== m.deal_no;
  if (newDeal && !m.settlement && after.seq <= m.players) {
    document.querySelectorAll("[data-testid=hand] [data-testid=card]").forEach((c, i) => {
      c.style.setProperty("--i", String(i));
      c.classList.add("deal-in");
    });
    document.querySelectorAll(".seat .back").forEach((b) => b.classList.add("deal-in"));
    events.push("deal");
  }
  if (!before || newDeal || after.seq <= before.seq) return events;
  const trick = document.querySelector("[data-testid=trick]");
  const acts = m.trick.actions;
  if (acts.length) {
    const latest = acts[acts.length - 1];
    const row = trick.querySelector(".play.latest");
    if (row) row.classList.add("enter", FROM[relationOf(m, latest.seat)]);
    if (latest.play && latest.play.kind === "bomb") {
      if (row) row.classList.add("bomb");
      document.querySelector(".felt").classList.remove("flash");
      void document.querySelector(".felt").offsetWidth; // restart the flash for a second bomb
      document.querySelector(".felt").classList.add("flash");
      events.push("bomb");
    } else {
      events.push(latest.play ? "play" : "pass");
    }
  } else if (trick.classList.contains("won")) {
    trick.classList.add("clearing");
    events.push("pass");
  }
  for (const s of m.seats) {
    const was = before.model.seats.find((x) => x.seat === s.seat);
    if (s.bao_dan && was && !was.bao_dan) {
      document.querySelectorAll(`[data-seat="${s.seat}"] .badge.bao, .me .badge.bao`).forEach((b) => {
        if (s.offset === 0 || !b.closest(".me")) b.classList.add("pop");
      });
      events.push("bao");
    }
  }
  if (m.settlement && !before.model.settlement) {
    events.push(m.settlement.winner === m.viewer ? "win" : "lose");
  } else if (!after.bot_turn && before.bot_turn && !m.settlement) {
    events.push("turn");
  }
  return events;
}
