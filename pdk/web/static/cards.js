// Cards drawn by the page: a card is a <div> with its rank and suit; no images.
// Card strings are pdk notation with suit ("3s", "Th", jokers "B"/"R").

const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };
const RANKS = "3456789TJQKA2BR";

export function rankOf(card) {
  return RANKS.indexOf(card[0]);
}

export function label(card) {
  return card[0] === "T" ? "10" : card[0];
}

export function cardEl(card, { small = false } = {}) {
  const el = document.createElement("div");
  const joker = card === "B" || card === "R";
  const red = joker ? card === "R" : card[1] === "h" || card[1] === "d";
  el.className = `card${small ? " mini" : ""}${red ? " red" : ""}${joker ? " joker" : ""}`;
  el.dataset.card = card;
  if (joker) {
    el.innerHTML = `<span class="r">${card === "R" ? "大" : "小"}</span><span class="j">JOKER</span>`;
  } else {
    const suit = SUITS[card[1]];
    const ten = card[0] === "T" ? " ten" : ""; // "10": narrower, so an overlapping card leaves it whole
    el.innerHTML = `<span class="r${ten}">${label(card)}</span><span class="s">${suit}</span><span class="big">${suit}</span>`;
  }
  return el;
}

export function cardsRow(cards, { small = true } = {}) {
  const row = document.createElement("div");
  row.className = "cards";
  for (const c of cards) row.append(cardEl(c, { small }));
  return row;
}
