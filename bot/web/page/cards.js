// The card games' table (5211, Sultan, Who's the Donkey?), drawn: the seats around it come
// from the header (dom.js), then the felt — each game's centre, what the server sent of the
// public view — one line saying what to do now, and the player's hand as a fan of cards.
// The player taps cards; once they are exactly the cards of a legal move, that move is
// offered (in Sultan the cushions it may go onto light up, and the drawn gems are tapped to
// send one back); a move that plays no card (a pass) is a button of its own. Only the legal
// moves the server sent are ever offered.

import { h, header, say, statusBar, summaryBox } from "./dom.js";

const SHAPES = ["●", "★", "◆", "■", "♥"]; // 5211's colours, each its shape (the chat's 🔵⭐🔶🟩🩵)

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

function holds(cards, part) {
  const have = counts(cards);
  for (const [card, n] of counts(part)) if ((have.get(card) || 0) < n) return false;
  return true;
}

// A card face up: its face (value, rooster, donkey, joker), 5211's colour and shape.
export function cardFace(card, { tag = "span", mini = false, attrs = {} } = {}) {
  const classes = ["card", mini && "mini", card.suit !== null && card.suit !== undefined && `suit suit-${card.suit}`];
  if (card.card === 0 && card.face === "🫏") classes.push("donkey");
  return h(
    tag,
    { class: classes.filter(Boolean).join(" "), role: tag === "button" ? null : "img", "aria-label": card.label, title: card.label, "data-card": card.card, ...attrs },
    card.suit !== null && card.suit !== undefined ? h("span", { class: "shape", "aria-hidden": "true" }, SHAPES[card.suit]) : null,
    h("span", { class: "face", "aria-hidden": "true" }, card.face),
  );
}

function cardBack(label, attrs = {}) {
  return h("span", { class: "card mini back", role: "img", "aria-label": label, title: label, ...attrs });
}

export function drawCards(table, picked, act) {
  const { texts } = table;
  const hand = table.hand || [];
  const choices = table.choices || [];
  const chosen = picked ? picked.cards : []; // indices into the hand
  const chosenCards = chosen.map((index) => hand[index].card);
  const withCards = choices.filter((c) => c.cards.length);
  const possible = withCards.filter((c) => holds(c.cards, chosenCards)); // still reachable
  const playable = new Set(possible.flatMap((choice) => choice.cards));
  const anyMove = new Set(withCards.flatMap((choice) => choice.cards));
  const matching = withCards.filter((c) => sameCards(c.cards, chosenCards));
  const toggle = (index) => () => {
    const next = chosen.includes(index) ? chosen.filter((i) => i !== index) : [...chosen, index];
    act.pick(next.length ? { cards: next } : null);
  };
  const fan = hand.map((card, index) => {
    const isChosen = chosen.includes(index);
    const canTap = anyMove.has(card.card) && (isChosen || playable.has(card.card));
    return cardFace(card, {
      tag: canTap ? "button" : "span",
      attrs: {
        class: `card${card.suit !== null ? ` suit suit-${card.suit}` : ""}${card.face === "🫏" ? " donkey" : ""}${isChosen ? " chosen" : ""}${canTap ? " playable" : " dimmed"}`,
        type: canTap ? "button" : null,
        "aria-pressed": canTap ? String(isChosen) : null,
        // a card that cannot be played now is still read, as such
        "aria-label": canTap ? card.label : `${card.label}, ${texts.unavailable}`,
        onclick: canTap ? toggle(index) : null,
      },
    });
  });
  const actions = [];
  if (table.game !== "sultan") {
    for (const choice of matching) {
      const button = h(
        "button",
        { class: "action", type: "button", "data-main": matching.length === 1 ? true : null, "data-action": "play", onclick: () => act.move(choice.action) },
        `${texts.play}: ${chosen.map((i) => hand[i].face).join(" ")}`,
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
  }
  if (picked) {
    actions.push(h("button", { class: "action quiet", type: "button", "data-action": "cancel", onclick: () => act.pick(null) }, texts.cancel));
  }
  const centre = { 5211: centre5211, sultan: centreSultan, donkey: centreDonkey }[table.game];
  return h(
    "div",
    { class: `cards-game ${table.game}` },
    header(table),
    table.seat === null && table.status === "playing" && !table.replay ? h("p", { class: "hint" }, texts.watching) : null,
    summary(table),
    h("section", { class: "felt", "aria-label": texts.table_table }, centre(table, matching, act)),
    legend(table),
    hand.length ? h("section", { class: "hand-fan", "aria-label": texts.table_hand }, fan) : null,
    statusBar(table, table.now, actions),
  );
}

// What the table's marks mean, a tap away: 5211's tally chips, Sultan's 🎯 (who starts).
function legend(table) {
  const c = table.centre;
  const lines = [];
  if (table.game === "5211") {
    lines.push([`🐓 ${c.roosters.count}/${c.roosters.threshold}`, c.roosters.label]);
    for (const colour of c.colours) lines.push([`${SHAPES[colour.colour]} ${colour.count}/${colour.limit}`, colour.label]);
  } else if (table.game === "sultan") {
    lines.push(["🎯", table.texts.starts]);
  } else return null;
  return h(
    "details",
    { class: "legend" },
    h("summary", {}, table.texts.legend),
    h("dl", {}, lines.map(([mark, words]) => [h("dt", {}, mark), h("dd", {}, words)])),
  );
}

const lastKeys = (table) => new Set((table.last && table.last.keys) || []);

function caption(text) {
  return text ? h("p", { class: "felt-caption" }, text) : null;
}

// 5211: each seat's cards of the round, face up once revealed, backs until then; the
// roosters against their threshold; each colour's count against its limit.
function centre5211(table) {
  const c = table.centre;
  const last = lastKeys(table);
  const rows = c.plays.map((play) =>
    h(
      "div",
      { class: "play-row", role: "group", "data-from": play.seat, "aria-label": play.label },
      h("span", { class: "who", "aria-hidden": "true" }, table.players[play.seat].name),
      play.cards.map((card) => cardFace(card, { mini: true, attrs: { "data-key": card.key, "data-from": play.seat, class: cardClass(card, last) } })),
      play.backs.map((back) =>
        back.label
          ? cardFace(back, { mini: true, attrs: { "data-key": back.key, "data-from": play.seat, class: `${cardClass(back, last)} secret` } })
          : cardBack(table.texts.table_back, { "data-key": back.key, "data-from": play.seat }),
      ),
    ),
  );
  const tally = h(
    "div",
    { class: "tally" },
    h("span", { class: `chip${c.roosters.count >= c.roosters.threshold ? " hot" : ""}`, role: "img", "aria-label": c.roosters.label, title: c.roosters.label, "data-roosters": c.roosters.count }, `🐓 ${c.roosters.count}/${c.roosters.threshold}`),
    c.colours.map((colour) =>
      h(
        "span",
        { class: `chip suit suit-${colour.colour}${colour.over ? " over" : ""}`, role: "img", "aria-label": colour.label, title: colour.label, "data-colour": colour.colour, "data-count": colour.count },
        h("span", { class: "shape", "aria-hidden": "true" }, SHAPES[colour.colour]),
        ` ${colour.count}/${colour.limit}`,
      ),
    ),
  );
  return [caption(c.heading), h("div", { class: "plays" }, rows), tally, caption(c.deck)];
}

function cardClass(card, last) {
  const suit = card.suit !== null && card.suit !== undefined ? ` suit suit-${card.suit}` : "";
  return `card mini${suit}${card.face === "🫏" ? " donkey" : ""}${last.has(card.key) ? " last" : ""}`;
}

function gemToken(gem, attrs = {}, tag = "span") {
  return h(
    tag,
    { class: `gem gem-${gem.name}`, role: tag === "button" ? null : "img", "aria-label": gem.label, title: gem.label, "data-gem": gem.gem, ...attrs },
    h("span", { "aria-hidden": "true" }, String(gem.points)),
  );
}

// Sultan: the drawn gems while the start player sends one back, then each cushion as a
// slot with its gem and points and the face-down bids on it, marked by bidder; the bag and
// the decks.
function centreSultan(table, matching, act) {
  const c = table.centre;
  const last = lastKeys(table);
  const choices = table.choices || [];
  const parts = [caption(c.heading)];
  if (c.drawn.length) {
    const gems = c.drawn.map((gem) => {
      const choice = choices.find((x) => x.onto && x.onto.gem === gem.gem);
      if (!choice) return gemToken(gem, { "data-key": gem.key });
      return gemToken(gem, { "data-key": gem.key, class: `gem gem-${gem.name} lit`, type: "button", "data-move": choice.action.join("."), onclick: () => act.move(choice.action) }, "button");
    });
    parts.push(h("div", { class: "drawn" }, gems));
  }
  const slots = c.cushions.map((cushion, index) => {
    const choice = matching.find((x) => x.onto && x.onto.cushion === index);
    const bids = cushion.bids.map((bid) =>
      h(
        "span",
        { class: `bid${last.has(bid.key) ? " last" : ""}`, role: "img", "data-key": bid.key, "data-from": bid.seat, "aria-label": bid.label, title: bid.label },
        bid.value !== undefined
          ? h("span", { class: "card mini mine-bid", "aria-hidden": "true" }, h("span", { class: "face" }, String(bid.value)))
          : h("span", { class: "card mini back", "aria-hidden": "true" }),
        h("span", { class: "bidder", "aria-hidden": "true" }, table.players[bid.seat].name),
      ),
    );
    const attrs = { class: `cushion${choice ? " lit" : ""}`, role: choice ? null : "group", "aria-label": cushion.label, "data-cushion": index, "data-key": cushion.key };
    if (choice) {
      Object.assign(attrs, { type: "button", "data-move": choice.action.join("."), onclick: () => act.move(choice.action), "data-main": matching.length === 1 ? true : null });
    }
    return h(choice ? "button" : "div", attrs, h("span", { class: "number", "aria-hidden": "true" }, String(cushion.number)), gemToken(cushion, { "aria-hidden": "true" }), h("span", { class: "bids" }, bids));
  });
  if (slots.length) parts.push(h("div", { class: "cushions" }, slots));
  const chips = [];
  if (c.returned) chips.push(h("span", { class: "chip", role: "img", "aria-label": c.returned.label, title: c.returned.label }, "↩ ", gemToken(c.returned)));
  chips.push(h("span", { class: "chip" }, `👝 ${c.bag}`));
  if (c.deck) chips.push(h("span", { class: "chip" }, `🂠 ${c.deck}`));
  parts.push(h("div", { class: "tally" }, chips));
  return parts;
}

// Who's the Donkey?: the cards of this round, who played what (the best play marked), and
// where the donkey is.
function centreDonkey(table) {
  const c = table.centre;
  const last = lastKeys(table);
  const plays = c.plays.map((play) =>
    h(
      "div",
      { class: `play-row${play.best ? " best" : ""}${last.has(play.key) ? " last" : ""}`, role: "group", "data-key": play.key, "data-from": play.seat, "aria-label": play.label },
      h("span", { class: "who", "aria-hidden": "true" }, table.players[play.seat].name),
      play.pass ? h("span", { class: "passed", "aria-hidden": "true" }, "—") : play.cards.map((card) => cardFace(card, { mini: true, attrs: { class: cardClass(card, last) } })),
    ),
  );
  return [
    caption(c.heading),
    h("div", { class: `plays${c.donkey_round ? " donkey-round" : ""}` }, plays),
    c.donkey_holder !== null && c.donkey_holder !== undefined
      ? h("div", { class: "tally" }, h("span", { class: "chip", role: "img", "data-donkey": c.donkey_holder, "aria-label": c.donkey, title: c.donkey }, `🫏 → ${table.players[c.donkey_holder].name}`))
      : null, // on the table, the donkey lies among the round's cards
  ];
}

// The end of a round or a hand: who took what, and the points — until a tap, or a few
// seconds (app.js lets it go).
function summary(table) {
  const s = table.summary;
  if (!s || table.summaryGone) return null;
  const rows = s.rows.map((row) =>
    h(
      "div",
      { class: `summary-row${row.taken ? " taken" : ""}`, "data-row": row.seat ?? "" },
      row.gem ? gemToken(row.gem) : null,
      h("span", { class: "who" }, row.name),
      h("span", { class: "summary-cards" }, row.cards.map((card) => cardFace(card, { mini: true, attrs: { class: `${cardClass(card, new Set())}${card.taken ? " taken" : ""}`, title: card.by ? `${card.by}: ${card.label}` : card.label } }))),
      h("span", { class: "points" }, row.points, row.total !== undefined ? ` · ${say(table.texts, "table_total", { total: row.total })}` : ""),
    ),
  );
  return summaryBox(table, rows);
}
