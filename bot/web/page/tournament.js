// A tournament's page (?t=<id>): its standings as the group's message ranks them, then its
// rounds, the latest first, each table with its players and a link that opens it — live
// while it plays (?m=), as a replay once done (?r=). The words come from the server, in the
// asker's language.

import { h, say } from "./dom.js";

export async function drawTournament(main, id, tools) {
  const page = await tools.api(`/api/tournaments/${id}`);
  const texts = page.texts;
  document.title = page.title;
  main.replaceChildren(
    h("h1", {}, `🏆 ${page.title}`),
    h("p", { class: "tournament-rules" }, page.rules),
    h("p", { class: "tournament-status", "data-status": page.status }, page.round ? `${page.status_text} · ${say(texts, "round", { round: page.round, total: page.rounds })}` : page.status_text),
    standings(page, texts),
    ...page.notes.map((note) => h("p", { class: "tournament-note" }, note)),
    h("h2", {}, texts.rounds),
    page.played.length ? h("div", { class: "tournament-rounds" }, [...page.played].reverse().map((round, index) => roundOf(round, page, texts, index === 0))) : h("p", {}, texts.no_rounds),
    h("p", {}, h("button", { type: "button", class: "action quiet", "data-home": "1", onclick: tools.home }, texts.home)),
  );
}

function standings(page, texts) {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, texts.rank),
    h("th", { scope: "col", class: "name" }, texts.player),
    // points and the tie-breaks in the creator's order, or the format's own columns
    ...page.columns.map((column) => h("th", { scope: "col" }, column)),
  );
  const rows = page.standings.map((row) =>
    h(
      "tr",
      { class: row.me ? "me" : "", "data-rank": String(row.rank) },
      h("td", {}, String(row.rank)),
      h("th", { scope: "row", class: "name" }, row.withdrawn ? h("s", {}, row.name) : row.name, row.withdrawn ? ` 🏳️ ${texts.withdrawn}` : ""),
      ...row.cells.map((cell) => h("td", {}, cell)),
    ),
  );
  return h(
    "section",
    { class: "tournament-standings" },
    h("h2", { id: "standings-head" }, texts.standings),
    h("table", { class: "standings", "aria-labelledby": "standings-head" }, h("thead", {}, head), h("tbody", {}, rows)),
  );
}

function roundOf(round, page, texts, latest) {
  const title = say(texts, "round", { round: round.number, total: page.rounds });
  const tables = round.tables.map((table) => {
    const name = say(texts, "table", { number: table.number });
    // in seat order while it plays; by place once done
    const seats = table.done ? [...table.players].sort((a, b) => a.place - b.place) : table.players;
    const players = seats.map((seat) => {
      const label = table.done ? `${seat.place}. ${seat.name} (${seat.points})` : seat.name;
      return h("li", { class: seat.me ? "me" : "" }, label);
    });
    let open = h("span", { class: "hint" }, texts.no_app);
    if (table.match !== null) {
      const href = `?${table.live ? "m" : "r"}=${table.match}`; // the launch data stays in memory
      const words = table.live ? texts.open : texts.replay;
      open = h("a", { href, class: "table-link", "data-match": String(table.match), "aria-label": `${words}: ${name}` }, words);
    }
    return h(
      "li",
      { class: "tournament-table", "data-done": table.done ? "1" : "0" },
      h("strong", {}, name),
      ` · ${table.done ? texts.done : table.live ? texts.playing : texts.stopped}`,
      h("ul", { class: "tournament-seats", "aria-label": name }, players),
      open,
    );
  });
  const byes = ["full", "half", "advance"]
    .map((kind) => round.byes.filter((bye) => bye.kind === kind).map((bye) => bye.name))
    .map((names, index) => (names.length ? h("p", { class: "bye" }, say(texts, `bye_${["full", "half", "advance"][index]}`, { names: names.join(", ") })) : null));
  return h(
    "details",
    { class: "tournament-round", open: latest, "data-round": String(round.number) },
    h("summary", {}, title),
    h("ul", { class: "tournament-tables" }, tables),
    ...byes,
  );
}
