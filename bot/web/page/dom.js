// Small helpers for drawing the table: elements from plain data, and the tiles as the
// board pictures draw them (their colour, their symbol: no colour is told by colour alone).

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "onclick") element.addEventListener("click", value);
    else if (name === "style") {
      for (const [property, v] of Object.entries(value)) element.style.setProperty(property, v);
    } else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// A tile of ``colour`` (an index into the game's looks); ``onTap`` makes it a button.
// ``key``: a tile laid on a board, followed from one version to the next (motion.js: a new
// one arrives with a movement and is highlighted).
export function tile(looks, colour, { onTap, chosen, lit, small, label, key } = {}) {
  const look = looks[colour];
  const classes = ["tile", small && "small", chosen && "chosen", lit && "lit"];
  const attrs = {
    class: classes.filter(Boolean).join(" "),
    style: { "--tile": look.rgb, "--ink": look.ink },
    "aria-label": label || look.name,
    title: label || look.name,
    "data-colour": colour,
    "data-key": key,
  };
  if (onTap) {
    attrs.onclick = onTap;
    attrs.type = "button";
    return h("button", attrs, look.symbol);
  }
  attrs.role = "img"; // read by its colour's name, not its symbol
  return h("span", attrs, look.symbol);
}

// An empty space of a board; ``onTap`` makes it a button (a space that may be chosen).
export function space(text, { onTap, lit, faint, look, small, label } = {}) {
  const classes = ["space", lit && "lit", small && "small", faint && "faint"];
  const attrs = { class: classes.filter(Boolean).join(" ") };
  if (look) attrs.style = { "--tile": look.rgb, "--ink": look.ink };
  if (label) {
    attrs["aria-label"] = label;
    attrs.title = label;
  }
  if (onTap) {
    attrs.onclick = onTap;
    attrs.type = "button";
    return h("button", attrs, text);
  }
  if (label) attrs.role = "img";
  else attrs["aria-hidden"] = "true"; // an empty space the group around it names
  return h("span", attrs, text);
}

// A message key's text with its {placeholders} filled in.
export function say(texts, key, values = {}) {
  return (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
}

// Same numbers, same move: legal actions are compared as plain lists.
export function same(a, b) {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

// Time left, as a clock reads: "2:05", or "1:05 h" above an hour.
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 3600) {
    return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} h`;
  }
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The table's header: the title, the seats around the table (each player's name, points,
// hand as a fan of backs, the mark and clock of whoever acts), the turn story, and the
// final result once the game is over.
export function header(table) {
  // the game's name, then the chat's title (a lesson's title names the game already)
  const name = table.game_name && !(table.title || "").startsWith(table.game_name) ? table.game_name : "";
  const parts = [h("h1", {}, name, table.title ? h("span", { class: name ? "where" : null }, name ? ` · ${table.title}` : table.title) : null)];
  for (const line of table.heading) parts.push(h("p", { class: "heading" }, line));
  if (table.seats) parts.push(seatRow(table));
  if (table.story.length) parts.push(h("div", { class: "story" }, table.story.map((line) => h("p", {}, line))));
  if (table.result) parts.push(endScreen(table));
  return h("header", {}, parts);
}

// The end: the final scores as a table, best first, then where to go — Play again (the
// chat's rematch), the replay, the home.
function endScreen(table) {
  const { texts, result } = table;
  const seats = result.scores.map((_, seat) => seat).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const rows = seats.map((seat) =>
    h(
      "tr",
      { class: seat === table.seat ? "me" : null, "data-rank": String(result.ranks[seat]) },
      h("td", {}, result.ranks[seat] === 1 ? "🏆" : String(result.ranks[seat])),
      h("th", { scope: "row" }, table.players[seat].name, seat === table.seat ? ` (${texts.you})` : ""),
      h("td", {}, String(result.scores[seat])),
    ),
  );
  const end = table.end || {};
  const button = (label, onclick, name, main) =>
    onclick ? h("button", { type: "button", class: `action${main ? "" : " quiet"}`, "data-end": name, onclick }, label) : null;
  const ways = [button(texts.play_again, end.again, "again", true), button(texts.replay, end.replay, "replay"), button(texts.home, end.home, "home")].filter(Boolean);
  return h(
    "section",
    { class: "result", "aria-labelledby": "game-over" },
    h("h2", { id: "game-over" }, texts.game_over),
    h(
      "table",
      { class: "final-scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, texts.player), h("th", { scope: "col" }, texts.score))),
      h("tbody", {}, rows),
    ),
    result.lines.filter(Boolean).map((line) => h("p", {}, line)),
    ways.length ? h("div", { class: "actions end-ways" }, ways) : null,
  );
}

const MOST_BACKS = 8; // a fan shows this many backs at most; the number says the rest

// Every seat of the table, the viewer's own marked: all five games share this header.
export function seatRow(table) {
  const lastSeat = table.last ? table.last.seat : null;
  return h(
    "section",
    { class: "seats" },
    table.seats.map((seat) => {
      const acting = table.to_act.includes(seat.seat);
      const left = table.time_left[String(seat.seat)];
      const facts = [];
      if (seat.points !== null && seat.points !== undefined) facts.push(h("span", { class: "points" }, `★ ${seat.points}`));
      if (seat.gems !== undefined) facts.push(h("span", { class: "gems" }, `💎 ${seat.gems}`));
      if (seat.cards !== undefined) facts.push(h("span", { class: "count" }, `🂠 ${seat.cards}`));
      const mine = seat.seat === table.seat;
      const classes = ["seat", acting && "acting", mine && "mine", lastSeat === seat.seat && "last"];
      // whose turn it is, which seat is the reader's, who starts: said, not only drawn
      const texts = table.texts;
      const turn = acting ? (mine ? texts.your_turn : texts.to_move) : null;
      const label = [seat.label, turn, mine && texts.you, seat.start && texts.starts].filter(Boolean).join(", ");
      return h(
        "div",
        { class: classes.filter(Boolean).join(" "), "data-seat": seat.seat, role: "group", "aria-label": label },
        h(
          "div",
          { class: "seat-top", "aria-hidden": "true" },
          acting ? h("span", { class: "turn-mark" }, "▶") : null,
          h("span", { class: "name" }, seat.name),
          mine && seat.name.toLowerCase() !== String(table.texts.you).toLowerCase() ? h("span", { class: "you" }, `(${table.texts.you})`) : null,
          seat.start ? h("span", { class: "badge", title: table.texts.starts }, "🎯") : null,
          seat.donkey ? h("span", { class: "badge", "data-badge": "donkey" }, "🫏") : null,
          seat.ready ? h("span", { class: "badge" }, "✔") : null,
        ),
        h("div", { class: "seat-facts", "aria-hidden": "true" }, facts),
        seat.cards !== undefined && seat.seat !== table.seat
          ? h("div", { class: "backs-fan", "aria-hidden": "true", "data-cards": seat.cards }, Array.from({ length: Math.min(seat.cards, MOST_BACKS) }, () => h("span", { class: "back-mini" })))
          : null,
        acting && left !== undefined
          ? h("span", { class: "clock", "data-deadline": String(Date.now() + left * 1000) }, `⏱ ${clock(left)}`)
          : null,
      );
    }),
  );
}

const LOWER_AFTER_COLON = ["ru", "uk", "it"];

// The status bar, fixed at the foot of the screen (Board Game Arena's): whose turn it is or
// what to do now, the clock, and the move's buttons. It lies over the table, so nothing in
// the table moves when a move's first tap brings its buttons; while it is the player's
// turn its row of buttons keeps its height, empty or not.
export function statusBar(table, prompt, actions = []) {
  if (table.status !== "playing" || table.replay) return null;
  const texts = table.texts;
  const mine = table.legal.length > 0;
  const others = table.to_act.filter((seat) => seat !== table.seat).map((seat) => table.players[seat].name);
  let line = prompt;
  if (!mine && !line && others.length) line = say(texts, "waiting", { name: others.join(", ") });
  // after "Your turn:" the prompt goes on the sentence: lower case where the language wants it
  if (mine && line && LOWER_AFTER_COLON.includes(texts.lang)) line = line.charAt(0).toLowerCase() + line.slice(1);
  const left = table.to_act.map((seat) => table.time_left[String(seat)]).filter((s) => s !== undefined);
  const seconds = left.length ? Math.min(...left) : null;
  return h(
    "section",
    { class: `status-bar${mine ? " mine" : ""}`, "aria-label": mine ? texts.your_turn : line || texts.your_turn, "data-bar": "1" },
    h(
      "div",
      { class: "bar-line" },
      h("p", { class: "prompt" }, mine ? h("strong", {}, `${texts.your_turn}: `) : null, line || ""),
      seconds !== null ? h("span", { class: "clock", "data-deadline": String(Date.now() + seconds * 1000) }, `⏱ ${clock(seconds)}`) : null,
    ),
    mine ? h("div", { class: "actions" }, actions) : null,
  );
}

// A round's or hand's summary, the same for every game: its title, a row per seat, and —
// while the match goes on — "Tap to go on" (a tap, or a few seconds, lets it go: app.js).
// After the last round it stays above the end screen, with nothing to go on to.
export function summaryBox(table, rows, kind = "") {
  const s = table.summary;
  const over = table.status !== "playing";
  return h(
    "section",
    {
      class: `summary${kind ? ` ${kind}` : ""}${over ? " last" : ""}`,
      role: "status",
      "data-summary": s.id,
      tabindex: over ? null : "0",
      onclick: over ? null : () => table.dismissSummary && table.dismissSummary(s.id),
    },
    h("h2", {}, s.title),
    rows,
    over ? null : h("p", { class: "hint" }, table.texts.table_continue),
  );
}

const signed = (points) => (points >= 0 ? `+${points}` : `−${-points}`);

// A tile game's round as it was scored: each seat's tiles in the order they were scored,
// each with its +n, then the floor's (or the tiles lost's) −n and the end bonuses; each
// appears in turn (app.css), all at once under reduced motion.
export function tileSummary(table) {
  const s = table.summary;
  if (!s || table.summaryGone) return null;
  const { texts, looks } = table;
  const words = { floor: texts.floor, lost: texts.table_lost, bonus: texts.table_bonus, first: "①" };
  const rows = s.rows.map((row) => {
    const items = row.items.map((item, index) => {
      const gain = h("span", { class: `gain${item.points < 0 ? " loss" : ""}`, "aria-hidden": "true" }, signed(item.points));
      const order = { "--i": String(index) };
      if (item.kind === "tile") {
        const piece = tile(looks, item.colour, { small: true });
        piece.setAttribute("aria-hidden", "true");
        return h("span", { class: "scored", style: order, role: "img", "aria-label": `${looks[item.colour].name} ${signed(item.points)}`, "data-points": item.points }, piece, gain);
      }
      return h("span", { class: `scored figure kind-${item.kind}`, style: order, "data-points": item.points, "data-kind": item.kind }, `${words[item.kind] || ""} `, gain);
    });
    return h(
      "div",
      { class: "summary-row", "data-row": row.seat },
      h("span", { class: "who" }, row.name),
      h("span", { class: "summary-items" }, items),
      h("span", { class: "points" }, row.points, ` · ${say(texts, "table_total", { total: row.total })}`),
    );
  });
  return summaryBox(table, rows, "tile-summary");
}

// While a tile game's round scoring shows, each tile it scored, where it lies on its board,
// carries its +n (as Board Game Arena's wall does): a map of "seat.place" → [points, order].
export function scoredPlaces(table, placeOf) {
  const places = new Map();
  const s = table.summary;
  if (!s || table.summaryGone) return places;
  for (const row of s.rows) {
    row.items.forEach((item, index) => {
      if (item.kind === "tile") places.set(`${row.seat}.${placeOf(item)}`, [item.points, index]);
    });
  }
  return places;
}

// ``piece`` marked as just scored: its +n floats up from it, in the summary's order.
export function markScored(piece, scored) {
  if (!scored) return piece;
  const [points, index] = scored;
  piece.classList.add("just-scored");
  piece.style.setProperty("--i", String(index));
  piece.append(h("span", { class: "float-gain", "aria-hidden": "true" }, points >= 0 ? `+${points}` : `−${-points}`));
  return piece;
}
