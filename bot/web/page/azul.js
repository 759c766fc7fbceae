// Azul's table: the factories and the centre, then every player's board — pattern lines,
// wall, floor — the player's own first. On their turn the player taps tiles of a colour in
// a factory or the centre; the pattern lines that may take them light up, and the floor;
// one more tap makes the move. On the grey wall, the columns their row's tile may go to
// light up. Only the legal moves the server sent are ever offered.

import { h, header, markScored, say, scoredPlaces, space, statusBar, tile, tileSummary } from "./dom.js";

const SIZE = 5;
const FLOOR = 5; // the "line" of a draft onto the floor
const MARKER = 5; // the first-player marker on a floor

export function drawAzul(table, picked, act) {
  const { view, legal, looks, texts } = table;
  const drafting = view.phase === "draft" && legal.length > 0 && legal[0].length === 3;
  const walling = view.phase === "wall" && legal.length > 0 && legal[0].length === 1;
  const lines = picked
    ? legal.filter((a) => a[0] === picked.source && a[1] === picked.colour).map((a) => a[2])
    : [];
  const canTake = (source, colour) =>
    drafting && legal.some((a) => a[0] === source && a[1] === colour);
  const tap = (source, colour) => () => {
    const again = picked && picked.source === source && picked.colour === colour;
    act.pick(again ? null : { source, colour });
  };

  function sourceTiles(counts, source) {
    const tiles = [];
    counts.forEach((count, colour) => {
      for (let i = 0; i < count; i += 1) {
        const chosen = picked && picked.source === source && picked.colour === colour;
        tiles.push(
          tile(looks, colour, {
            onTap: canTake(source, colour) ? tap(source, colour) : null,
            chosen,
          }),
        );
      }
    });
    for (const element of tiles) element.dataset.source = source;
    return tiles;
  }

  const factories = view.factories.map((counts, index) =>
    h(
      "div",
      { class: "factory", role: "group", "aria-label": say(texts, "factory", { number: index + 1 }), "data-factory": index + 1 },
      h("span", { class: "factory-number", "aria-hidden": "true" }, String(index + 1)), // as the logs say "F2"
      sourceTiles(counts, index),
    ),
  );
  const centre = h(
    "div",
    { class: "centre", role: "group", "aria-label": texts.centre },
    h("span", { class: "label" }, texts.centre),
    view.marker === -1 ? h("span", { class: "marker", title: "1", role: "img", "aria-label": "1" }, "1") : null,
    sourceTiles(view.centre, view.centre_source),
  );

  let hint = null;
  if (drafting) hint = picked ? texts.pick_line : texts.pick_tiles;
  if (walling) hint = say(texts, "pick_column", { row: view.pending_rows[table.seat] + 1 });

  const seats = table.players.map((_, seat) => seat);
  const order = table.seat === null ? seats : [table.seat, ...seats.filter((s) => s !== table.seat)];
  const boards = order.map((seat) => board(table, seat, seat === table.seat ? { lines, picked, walling } : {}, act));
  const actions = [];
  if (picked && lines.includes(FLOOR)) {
    actions.push(
      h(
        "button",
        { class: "action", type: "button", "data-main": true, "data-action": "floor", onclick: () => act.move([picked.source, picked.colour, FLOOR]) },
        texts.floor,
      ),
    );
  }
  if (picked) {
    actions.push(
      h("button", { class: "action quiet", type: "button", "data-action": "cancel", onclick: () => act.pick(null) }, texts.cancel),
    );
  }
  if (walling) {
    // the grey wall's columns, as buttons too: a wall's spaces are narrower than a thumb
    const row = view.pending_rows[table.seat];
    for (const [column] of legal) {
      actions.push(
        h(
          "button",
          { class: "action quiet", type: "button", "data-action": "column", "data-column": column, "aria-label": say(texts, "pick_column", { row: row + 1 }) + ` ${column + 1}`, onclick: () => act.move([column]) },
          String(column + 1),
        ),
      );
    }
  }
  return h(
    "div",
    { class: "azul" },
    header(table),
    tileSummary(table),
    table.seat === null && table.status === "playing" && !table.replay ? h("p", { class: "hint" }, texts.watching) : null,
    h("section", { class: "sources" }, factories, centre),
    boards,
    statusBar(table, hint, actions),
  );
}

function board(table, seat, mine, act) {
  const { view, looks, texts, players } = table;
  const scored = scoredPlaces(table, (item) => `${item.row}.${item.column}`);
  const grey = view.options.wall === "grey";
  const colours = view.line_colours[seat];
  const counts = view.line_counts[seat];
  const wall = view.walls[seat];
  const acting = table.to_act.includes(seat);
  const player = players[seat];
  const rows = [];
  for (let row = 0; row < SIZE; row += 1) {
    const slots = [];
    for (let slot = 0; slot <= row; slot += 1) {
      const filled = slot >= row + 1 - counts[row];
      const key = `line.${seat}.${row}.${slot}.${colours[row]}`;
      slots.push(filled ? tile(looks, colours[row], { small: true, key }) : space("", { small: true }));
    }
    const lit = mine.lines && mine.lines.includes(row);
    const held = counts[row] ? `${looks[colours[row]].name} ${counts[row]}/${row + 1}` : texts.empty;
    const line = h(
      lit ? "button" : "div",
      {
        class: `line${lit ? " lit" : ""}`,
        "data-line": row,
        type: lit ? "button" : null,
        role: lit ? null : "group",
        "aria-label": `${say(texts, "line", { number: row + 1 })}: ${held}`,
        onclick: lit ? () => act.move([mine.picked.source, mine.picked.colour, row]) : null,
      },
      slots,
    );
    const cells = [];
    for (let column = 0; column < SIZE; column += 1) {
      const colour = wall[row * SIZE + column];
      const printed = (column - row + SIZE) % SIZE;
      const choice =
        mine.walling &&
        row === view.pending_rows[seat] &&
        table.legal.some((a) => a[0] === column);
      if (colour >= 0) {
        const laid = tile(looks, colour, { small: true, key: `wall.${seat}.${row}.${column}` });
        cells.push(markScored(laid, scored.get(`${seat}.${row}.${column}`)));
      } else {
        const cell = space(grey ? "" : looks[printed].symbol, {
          small: true,
          faint: !grey,
          look: grey ? null : looks[printed],
          lit: choice, // its button is in the status bar: a wall's space is narrower than a thumb
          label: grey ? texts.empty : `${looks[printed].name}: ${texts.empty}`,
        });
        cell.dataset.column = column;
        cells.push(cell);
      }
    }
    rows.push(h("div", { class: "row" }, line, h("div", { class: "wall-row", role: "group", "aria-label": say(texts, "wall_row", { number: row + 1 }) }, cells)));
  }
  const floorTiles = view.floors[seat];
  const floorLit = mine.lines && mine.lines.includes(FLOOR);
  const floorSlots = view.floor_penalties.map((penalty, index) => {
    const held = floorTiles[index];
    if (held === undefined) return space(`−${penalty}`, { small: true, label: `−${penalty}: ${texts.empty}` });
    if (held === MARKER) return h("span", { class: "marker small", title: "1", role: "img", "aria-label": "1" }, "1");
    return tile(looks, held, { small: true, key: `floor.${seat}.${index}.${held}` });
  });
  const floor = h(
    floorLit ? "button" : "div",
    {
      class: `floor${floorLit ? " lit" : ""}`,
      "data-line": FLOOR,
      type: floorLit ? "button" : null,
      role: floorLit ? null : "group",
      "aria-label": texts.floor,
      onclick: floorLit ? () => act.move([mine.picked.source, mine.picked.colour, FLOOR]) : null,
    },
    h("span", { class: "label" }, texts.floor),
    floorSlots,
  );
  return h(
    "section",
    { class: `board${acting ? " acting" : ""}${seat === table.seat ? " mine" : ""}`, "data-seat": seat, role: "group", "aria-label": say(texts, "board", { name: player.name }) },
    h(
      "h2",
      {},
      acting ? "👉 " : "",
      player.name,
      h("span", { class: "score", title: texts.score }, String(view.scores[seat])),
    ),
    rows,
    floor,
  );
}
