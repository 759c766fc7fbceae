// Summer Pavilion's table: the round's wild colour, the factories and the centre, the
// supply, then every player's board — seven stars of six spaces, the tiles at hand and on
// the corners — the player's own first. On their turn:
// - taking: tap tiles of a colour in a factory or the centre, then Take (or tap them again);
// - placing: tap a colour at hand; the spaces it may cover light up; tap one — where there
//   is more than one way to pay (wild tiles), the ways are offered; or Pass;
// - bonus: tap a tile in the supply; keeping: tap tiles at hand to keep, then Done.
// Only the legal moves the server sent are ever offered.

import { h, header, markScored, say, scoredPlaces, space, statusBar, tile, tileSummary } from "./dom.js";

const TAKE = 0;
const PLACE = 1;
const PASS = 2;
const BONUS = 3;
const KEEP = 4;
const DONE = 5;
const FREE = -1; // a star of no fixed colour (the centre star; every star in Variant 1)

function tilesOf(counts, make) {
  const tiles = [];
  counts.forEach((count, colour) => {
    for (let i = 0; i < count; i += 1) tiles.push(make(colour));
  });
  return tiles;
}

export function drawSummerPavilion(table, picked, act) {
  const { view, legal, looks, texts } = table;
  const of = (kind) => legal.filter((a) => a[0] === kind);
  const takes = of(TAKE);
  const places = of(PLACE);
  const bonuses = of(BONUS);
  const keeps = of(KEEP);
  const canPass = of(PASS).length > 0;
  const canFinish = of(DONE).length > 0;
  const wild = view.wild;

  // taking: tap a source's tiles of a colour, then Take
  const takeTap = (source, colour) => {
    if (!takes.some((a) => a[1] === source && a[2] === colour)) return null;
    const again = picked && picked.source === source && picked.colour === colour;
    return () => (again ? act.move([TAKE, source, colour]) : act.pick({ source, colour }));
  };
  const sourceTiles = (counts, source) =>
    tilesOf(counts, (colour) => {
      const chosen =
        picked &&
        picked.source === source &&
        (picked.colour === colour || (colour === wild && counts[picked.colour] > 0));
      const element = tile(looks, colour, { onTap: takeTap(source, colour), chosen });
      element.dataset.source = source;
      return element;
    });
  const factories = view.factories.map((counts, index) =>
    h(
      "div",
      { class: "factory", role: "group", "aria-label": say(texts, "factory", { number: index + 1 }), "data-factory": index + 1 },
      h("span", { class: "factory-number", "aria-hidden": "true" }, String(index + 1)),
      sourceTiles(counts, index + 1),
    ),
  );
  const centre = h(
    "div",
    { class: "centre", role: "group", "aria-label": texts.centre },
    h("span", { class: "label" }, texts.centre),
    view.first_player_tile === -1 ? h("span", { class: "marker", title: "1", role: "img", "aria-label": "1" }, "1") : null,
    sourceTiles(view.centre, 0),
  );
  const supply = h(
    "div",
    { class: "supply", role: "group", "aria-label": texts.supply },
    h("span", { class: "label" }, texts.supply),
    tilesOf(view.supply, (colour) => {
      const bonus = bonuses.some((a) => a[1] === colour);
      const element = tile(looks, colour, { onTap: bonus ? () => act.move([BONUS, colour]) : null, lit: bonus });
      element.dataset.supply = colour;
      return element;
    }),
  );

  // placing: the spaces the picked colour may cover, and the ways to pay for the one tapped
  const placing = picked && picked.place;
  const fits = placing ? places.filter((a) => a[3] === picked.colour) : [];
  const payments = placing && picked.star !== undefined
    ? fits.filter((a) => a[1] === picked.star && a[2] === picked.space)
    : [];

  let hint = null;
  if (takes.length) hint = texts.pick_tiles;
  else if (places.length || canPass) hint = payments.length > 1 ? texts.pick_payment : texts.pick_space;
  else if (bonuses.length) hint = texts.pick_bonus;
  else if (keeps.length || canFinish) hint = texts.pick_keep;

  const actions = [];
  const button = (label, onclick, main, name) =>
    h(
      "button",
      { class: `action${main ? "" : " quiet"}`, type: "button", "data-main": main || null, "data-action": name, onclick },
      label,
    );
  if (picked && picked.source !== undefined) {
    actions.push(button(texts.take, () => act.move([TAKE, picked.source, picked.colour]), true, "take"));
  }
  if (payments.length > 1) {
    for (const payment of payments) {
      const [, star, spaceNo, colour, wilds] = payment;
      const cost = view.numbers[star][spaceNo - 1];
      const label = `${looks[colour].symbol}×${cost - wilds}${wilds ? ` + ${looks[wild].symbol}×${wilds}` : ""}`;
      const element = button(label, () => act.move(payment), false, "pay");
      element.dataset.wilds = wilds;
      element.setAttribute("aria-label", `${looks[colour].name} ${cost - wilds}, ${looks[wild].name} ${wilds}`);
      actions.push(element);
    }
  }
  if (canPass && !picked) actions.push(button(texts.pass, () => act.move([PASS]), true, "pass"));
  if (canFinish) actions.push(button(texts.done, () => act.move([DONE]), true, "done"));
  if (picked) actions.push(button(texts.cancel, () => act.pick(null), false, "cancel"));

  const seats = table.players.map((_, seat) => seat);
  const order = table.seat === null ? seats : [table.seat, ...seats.filter((s) => s !== table.seat)];
  const boards = order.map((seat) =>
    board(table, seat, seat === table.seat ? { picked, fits, places, keeps } : {}, act),
  );
  return h(
    "div",
    { class: "summer-pavilion" },
    header(table),
    tileSummary(table),
    table.seat === null && table.status === "playing" && !table.replay ? h("p", { class: "hint" }, texts.watching) : null,
    h("p", { class: "wild" }, `${texts.wild}: `, tile(looks, wild, { small: true })),
    h("section", { class: "sources" }, factories, centre),
    supply,
    boards,
    statusBar(table, legal.length ? hint : null, actions),
  );
}

function board(table, seat, mine, act) {
  const { view, looks, texts, players } = table;
  const me = view.players[seat];
  const acting = table.to_act.includes(seat);
  const picked = mine.picked;
  const placeable = (colour) => mine.places && mine.places.some((a) => a[3] === colour);
  const keepable = (colour) => mine.keeps && mine.keeps.some((a) => a[1] === colour);
  const hand = tilesOf(me.hand, (colour) => {
    let onTap = null;
    if (keepable(colour)) onTap = () => act.move([KEEP, colour]);
    else if (placeable(colour)) {
      onTap = () => act.pick(picked && picked.place && picked.colour === colour ? null : { place: true, colour });
    }
    const element = tile(looks, colour, { onTap, chosen: picked && picked.place && picked.colour === colour, lit: keepable(colour) });
    element.dataset.hand = colour;
    return element;
  });
  const scored = scoredPlaces(table, (item) => `${item.star}.${item.space}`);
  const starBlocks = me.board.map((spaces, star) => {
    const starColour = view.star_colours[star];
    const cells = spaces.map((colour, index) => {
      const number = index + 1;
      if (colour >= 0) {
        const laid = tile(looks, colour, { small: true, key: `star.${seat}.${star}.${index}.${colour}` });
        return markScored(laid, scored.get(`${seat}.${star}.${number}`));
      }
      const options = mine.fits ? mine.fits.filter((a) => a[1] === star && a[2] === number) : [];
      const lit = options.length > 0;
      const cell = space(String(view.numbers[star][index]), {
        small: true,
        faint: starColour !== FREE,
        look: starColour !== FREE ? looks[starColour] : null,
        lit,
        label: `${say(texts, "space", { number: view.numbers[star][index] })}: ${texts.empty}`,
        onTap: lit
          ? () => (options.length === 1 ? act.move(options[0]) : act.pick({ ...picked, star, space: number }))
          : null,
      });
      cell.dataset.star = star;
      cell.dataset.space = number;
      return cell;
    });
    cells.forEach((cell, index) => placeOnStar(cell, index));
    const name = starColour === FREE ? h("span", { class: "space small free-star" }, "✳") : tile(looks, starColour, { small: true });
    name.setAttribute("aria-hidden", "true"); // the star's group says its name
    name.removeAttribute("role");
    const starName = table.labels && table.labels.stars ? table.labels.stars[star] : String(star);
    return h(
      "div",
      { class: `star${starColour === FREE ? " free" : ""}`, "data-star": star, role: "group", "aria-label": starName },
      h("div", { class: "star-spaces" }, h("span", { class: "star-shape", "aria-hidden": "true", style: starColour === FREE ? {} : { "--tile": looks[starColour].rgb } }), h("div", { class: "star-name" }, name), cells),
    );
  });
  return h(
    "section",
    { class: `board${acting ? " acting" : ""}${seat === table.seat ? " mine" : ""}`, "data-seat": seat, role: "group", "aria-label": say(texts, "board", { name: players[seat].name }) },
    h(
      "h2",
      {},
      acting ? "👉 " : "",
      players[seat].name,
      view.first_player_tile === seat ? h("span", { class: "marker small", title: "1" }, "1") : null,
      h("span", { class: "score", title: texts.score }, String(me.score)),
    ),
    h("div", { class: "hand", role: "group", "aria-label": texts.hand }, h("span", { class: "label", "aria-hidden": "true" }, texts.hand), hand),
    me.corners.some((n) => n > 0)
      ? h("div", { class: "corners" }, h("span", { class: "label" }, texts.corners), tilesOf(me.corners, (c) => tile(looks, c, { small: true })))
      : null,
    h("div", { class: "stars" }, starBlocks),
  );
}

// A star's six spaces drawn round its middle as the board prints them: space 1 at the top,
// then clockwise (--r, the ring's radius, and --sp, a space's size, come from the sheet).
function placeOnStar(cell, index) {
  const angle = ((index * 60 - 90) * Math.PI) / 180;
  const x = Math.cos(angle).toFixed(3);
  const y = Math.sin(angle).toFixed(3);
  cell.style.setProperty("left", `calc(50% + var(--r) * ${x} - var(--sp) / 2)`);
  cell.style.setProperty("top", `calc(50% + var(--r) * ${y} - var(--sp) / 2)`);
}
