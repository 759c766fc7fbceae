// The card games' table (5211, Sultan, Who's the Donkey?): the group board's words — every
// public fact it shows — the players with their cards as backs, Sultan's cushions with the
// face-down bids on them, and the player's hand as a fan of cards. The player taps cards;
// once they are exactly the cards of a legal move, that move is offered (onto each cushion
// it may go to, in Sultan); a move that plays no card (a pass, a gem returned) is a button
// of its own. Only the legal moves the server sent are ever offered.

import { h, header } from "./dom.js";

function counts(cards) {
  const tally = new Map();
  for (const card of cards) tally.set(card, (tally.get(card) || 0) + 1);
  return tally;
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const left = counts(a);
  for (const [card, n] of counts(b)) if (left.get(card) !== n) return false;
  return true;
}

export function drawCards(table, picked, act) {
  const { texts } = table;
  const hand = table.hand || [];
  const choices = table.choices || [];
  const chosen = picked ? picked.cards : []; // indices into the hand
  const chosenCards = chosen.map((index) => hand[index].card);
  const playable = new Set(choices.flatMap((choice) => choice.cards));
  const matching = choices.filter((c) => c.cards.length && sameCards(c.cards, chosenCards));
  const toggle = (index) => () => {
    const next = chosen.includes(index) ? chosen.filter((i) => i !== index) : [...chosen, index];
    act.pick(next.length ? { cards: next } : null);
  };
  const fan = hand.map((card, index) =>
    h(
      playable.has(card.card) ? "button" : "span",
      {
        class: `card${chosen.includes(index) ? " chosen" : ""}${playable.has(card.card) ? " playable" : ""}`,
        type: playable.has(card.card) ? "button" : null,
        "data-card": card.card,
        onclick: playable.has(card.card) ? toggle(index) : null,
      },
      card.label,
    ),
  );
  const actions = [];
  for (const choice of matching) {
    const label = choice.target || `${texts.play}: ${chosenCards.length ? chosen.map((i) => hand[i].label).join(" ") : ""}`;
    const button = h(
      "button",
      { class: "action", type: "button", "data-main": matching.length === 1 ? true : null, "data-action": "play", onclick: () => act.move(choice.action) },
      label,
    );
    button.dataset.move = choice.action.join(".");
    actions.push(button);
  }
  for (const choice of choices.filter((c) => !c.cards.length)) {
    const button = h(
      "button",
      { class: "action quiet", type: "button", "data-action": "plain", onclick: () => act.move(choice.action) },
      choice.target || choice.label,
    );
    button.dataset.move = choice.action.join(".");
    actions.push(button);
  }
  if (picked) {
    actions.push(h("button", { class: "action quiet", type: "button", "data-action": "cancel", onclick: () => act.pick(null) }, texts.cancel));
  }
  return h(
    "div",
    { class: `cards-game ${table.game}` },
    header(table),
    table.seat === null ? h("p", { class: "hint" }, texts.watching) : null,
    players(table),
    table.cushions ? cushions(table) : null,
    h("section", { class: "board-text" }, table.board.map((line) => (line ? h("p", {}, line) : h("br")))),
    actions.length ? h("div", { class: "actions" }, actions) : null,
    hand.length ? h("section", { class: "hand-fan", "aria-label": texts.hand }, fan) : null,
  );
}

// Each player, their cards as backs (how many they hold), a mark once they have chosen.
function players(table) {
  const sizes = table.view.hand_sizes || [];
  const ready = table.view.ready || [];
  return h(
    "section",
    { class: "players" },
    table.players.map((player, seat) =>
      h(
        "div",
        { class: `player${table.to_act.includes(seat) ? " acting" : ""}${player.me ? " mine" : ""}`, "data-seat": seat },
        h("span", { class: "name" }, table.to_act.includes(seat) ? "👉 " : "", player.name, ready[seat] ? " ✔" : ""),
        h("span", { class: "backs", title: String(sizes[seat] ?? "") }, "🂠".repeat(Math.min(sizes[seat] || 0, 15))),
      ),
    ),
  );
}

// Sultan: the cushions, each with its gem and the face-down bids on it, as card backs.
function cushions(table) {
  return h(
    "section",
    { class: "cushions" },
    table.cushions.map((cushion) =>
      h(
        "div",
        { class: "cushion" },
        h("span", {}, cushion.label),
        cushion.bids.map((seat) => h("span", { class: "back", title: table.players[seat].name }, "🂠")),
        cushion.bids.length ? h("span", { class: "label" }, cushion.bids.map((seat) => table.players[seat].name).join(", ")) : null,
      ),
    ),
  );
}

