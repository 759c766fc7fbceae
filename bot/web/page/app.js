// The table app's page: it reads Telegram's launch data, asks the bot's server for the
// player's table, draws it (a pure function of what the server sent and of the tiles the
// player has picked so far), sends a move as one small request, and listens for "a new
// version is out" to read the table again. The server is the only truth: the page keeps
// nothing the bot needs, and every choice it offers is one of the legal moves it was sent.

import { clock, h, say } from "./dom.js";
import { drawAzul } from "./azul.js";
import { drawCards } from "./cards.js";
import { arrive, keysOf, lift, motionLevel } from "./motion.js";
import { drawSummerPavilion } from "./summer_pavilion.js";
import { homeSections, startPractice } from "./home.js";
import { runLesson } from "./tutorial.js";
import { drawTournament } from "./tournament.js";

const GAMES = {
  azul: drawAzul,
  summer_pavilion: drawSummerPavilion,
  5211: drawCards,
  sultan: drawCards,
  donkey: drawCards,
};
const RECONNECT_MS = [500, 1000, 2000, 4000, 8000];
const status = document.getElementById("status");
const main = document.getElementById("table");

// -- launch data: from Telegram's script when it is there, else from the address ---------
const launch = readLaunch();

function readLaunch() {
  const fromHash = new URLSearchParams(location.hash.slice(1));
  let data = fromHash.get("tgWebAppData");
  let theme = fromHash.get("tgWebAppThemeParams");
  if (data) {
    sessionStorage.setItem("tgWebAppData", data); // a reload inside Telegram keeps it
    if (theme) sessionStorage.setItem("tgWebAppThemeParams", theme);
  } else {
    data = sessionStorage.getItem("tgWebAppData");
    theme = sessionStorage.getItem("tgWebAppThemeParams");
  }
  let themeParams = {};
  try {
    themeParams = theme ? JSON.parse(theme) : {};
  } catch (error) {
    themeParams = {};
  }
  return { initData: data || "", themeParams };
}

// Where the page is: a table (?m=), a replay (?r=), a tournament (?t=), a lesson (?l=), or
// the home. The address holds only that: the launch data stays in memory and sessionStorage.
function place() {
  const query = new URLSearchParams(location.search);
  const number = (name) => (/^\d+$/.test(query.get(name) || "") ? query.get(name) : null);
  const lesson = /^[a-z0-9_]{1,20}$/.test(query.get("l") || "") ? query.get("l") : null;
  return { match: number("m"), replay: number("r"), tournament: number("t"), lesson };
}

// Going elsewhere in the app: the History API, no page load, no launch data in any link.
function navigate(search) {
  history.pushState(null, "", `${location.pathname}${search}`);
  route();
}

// A tap on a link of the app's own (?m=, ?r=, ?l=, ?t=): followed without a page load.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[href^='?'], a[href='']");
  if (!link || event.defaultPrevented || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", () => route());

function telegram() {
  return window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData !== undefined
    ? window.Telegram.WebApp
    : null;
}

function initData() {
  const app = telegram();
  return (app && app.initData) || launch.initData;
}

// -- Telegram's theme: light or dark, its colours -----------------------------------------
const THEME = {
  bg_color: "--bg",
  secondary_bg_color: "--card",
  text_color: "--text",
  hint_color: "--hint",
  link_color: "--link",
  button_color: "--accent",
  button_text_color: "--accent-text",
  bottom_bar_bg_color: "--bar-bg", // the status bar, as Telegram colours its own bottom bar
};

function applyTheme(params) {
  for (const [name, variable] of Object.entries(THEME)) {
    if (params && params[name]) document.documentElement.style.setProperty(variable, params[name]);
  }
}

// -- talking to the server ----------------------------------------------------------------
class Refusal extends Error {
  constructor(status, body) {
    super(refusalWords(body));
    this.status = status;
    this.key = body.error;
  }
}

// A refused request in the player's words: the server's message, in their language (the
// server gives every refusal one); never a bare key, a status or English of the page's own.
function refusalWords(body) {
  return body.message || state.texts.refused || "⚠️";
}

const PACE_RETRY_MS = 600; // asked too fast (429): the same request again, a moment later

async function api(path, options = {}, tries = 3) {
  const response = await fetch(path, {
    ...options,
    headers: { ...(options.headers || {}), Authorization: `tma ${initData()}` },
  });
  let body = {};
  try {
    body = await response.json();
  } catch (error) {
    body = {};
  }
  // asked too fast: again in a moment; a budget spent for a minute is said instead
  const retryAfter = Number(response.headers.get("Retry-After") || 0);
  if (response.status === 429 && tries > 1 && retryAfter <= 1) {
    await pause(PACE_RETRY_MS);
    return api(path, options, tries - 1);
  }
  if (!response.ok) throw new Refusal(response.status, body);
  return body;
}

// -- what the page shows ------------------------------------------------------------------
const state = {
  open: null, // the number of the table open now (a string, as the address has it)
  table: null, // the server's latest answer for the open table
  picked: null, // the tiles picked so far (a game's own shape), or null
  texts: {},
  busy: false, // a move is on its way
  problem: null, // a status line that stays (offline, storage down)
  drawnKeys: null, // what lay on the table at the last drawing (data-key), to see arrivals
  drawnVersion: null,
  arrivedKeys: new Set(), // what the latest version brought: highlighted until the next
  summariesGone: new Set(), // the round summaries tapped away or timed out
  summaryTimers: new Map(),
};

const SUMMARY_MS = 6000; // a round's or hand's summary stays this long, or until a tap
const TRICK_MS = 2500; // a trick's (Who's the Donkey?) goes by quicker

const REFUSAL_MS = 5000; // how long a refused move's line stays

function show(text, kind = "") {
  status.textContent = text || "";
  status.className = kind;
  if (kind === "refused") {
    setTimeout(() => {
      if (status.textContent === text && status.className === "refused") show("");
    }, REFUSAL_MS);
  }
}

function haptic(kind) {
  const app = telegram();
  if (!app || !app.HapticFeedback) return;
  if (kind === "pick") app.HapticFeedback.selectionChanged();
  else if (kind === "turn") app.HapticFeedback.impactOccurred("medium");
  else app.HapticFeedback.notificationOccurred(kind);
}

function pick(picked) {
  state.picked = picked;
  haptic("pick");
  draw();
}

async function move(action) {
  if (state.busy || !state.table) return;
  state.busy = true; // one move at a time: a second tap waits for the first's answer
  const table = state.table;
  try {
    await api(`/api/tables/${table.match}/moves`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action, token: table.token }),
    });
    haptic("success");
    state.busy = false;
    state.picked = null; // the new table, read next, no longer holds them
  } catch (error) {
    haptic("warning");
    show(error.message, "refused");
    state.busy = false;
    state.picked = null;
    draw(); // a refused move: the tiles let go at once
  }
  await refresh(table.match);
}

const CLOCK_SLACK_MS = 1500;

// The same version, its clocks where they were: nothing to draw again.
function sameTable(before, after) {
  if (!before || before.version !== after.version || before.status !== after.status) return false;
  const seats = Object.keys(after.time_left);
  if (seats.length !== Object.keys(before.time_left).length) return false;
  const now = Date.now();
  return seats.every((seat) => {
    const was = before.readAt + (before.time_left[seat] ?? -1e9) * 1000;
    return Math.abs(now + after.time_left[seat] * 1000 - was) < CLOCK_SLACK_MS;
  });
}

async function load(matchId) {
  try {
    const table = await api(`/api/tables/${matchId}`);
    if (state.open !== String(matchId)) return; // the page went elsewhere meanwhile
    table.readAt = Date.now();
    const myTurn = table.legal.length > 0;
    const wasMyTurn = state.table && state.table.legal.length > 0;
    if (myTurn && !wasMyTurn && state.table) haptic("turn");
    if (!state.table || state.table.version !== table.version) state.picked = null;
    const unchanged = sameTable(state.table, table);
    state.table = table;
    state.texts = table.texts;
    speak(table.texts);
    document.title = table.title ? `${table.title}` : document.title;
    if (state.problem === "storage_down") state.problem = null;
    if (!state.problem && status.className !== "refused") show("");
    if (!unchanged) draw(); // a second reading of the same version leaves a move's motion be
  } catch (error) {
    if (error.key === "storage_down") {
      state.problem = "storage_down";
      show(error.message || state.texts.storage_down, "problem");
      return;
    }
    throw error;
  }
}

// Reading the table again: one reading at a time, one more if asked meanwhile; a reading
// that fails (asked too fast, the connection down) is tried again until it succeeds, so no
// version is missed for good.
let reading = null;
let readAgain = false;

function refresh(matchId) {
  if (reading) {
    readAgain = true;
    return reading;
  }
  reading = (async () => {
    for (let attempt = 0; ; attempt += 1) {
      readAgain = false;
      try {
        await load(matchId);
      } catch (error) {
        if (error instanceof Refusal && [401, 403, 404].includes(error.status)) {
          show(error.message, "problem");
          return;
        }
        await pause(RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]);
        readAgain = true;
      }
      if (!readAgain) return;
    }
  })().finally(() => {
    reading = null;
  });
  return reading;
}

function pause(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

function dismissSummary(id) {
  state.summariesGone.add(id);
  // drawn again only if it still shows: a drawing for nothing could swallow a tap in flight
  if (state.table && state.table.summary && state.table.summary.id === id) draw();
}

// The summary of a round just over stays until a tap or a few seconds: then the table.
function summaryClock(table) {
  const summary = table.summary;
  if (!summary || state.summariesGone.has(summary.id) || state.summaryTimers.has(summary.id)) return;
  if (table.status !== "playing") return; // the last one stays above the end screen
  const ms = summary.short ? TRICK_MS : SUMMARY_MS;
  state.summaryTimers.set(summary.id, setTimeout(() => dismissSummary(summary.id), ms));
}

function draw() {
  const table = state.table;
  if (!table) return;
  const drawGame = GAMES[table.game];
  const before = state.drawnVersion !== null && state.drawnVersion !== table.version ? state.drawnKeys : null;
  const wasPicked = new Set(Array.from(main.querySelectorAll(".hand-fan .chosen"), (card) => card.dataset.card));
  const focused = focusMark();
  const shown = { ...table, summaryGone: table.summary && state.summariesGone.has(table.summary.id), dismissSummary, end: endActions(table) };
  main.replaceChildren(drawGame(shown, state.picked, { pick, move }));
  main.dataset.version = table.version;
  main.dataset.turn = table.legal.length > 0 ? "mine" : "others";
  refocus(focused);
  const level = motionLevel();
  document.documentElement.dataset.motion = level;
  if (before) {
    state.arrivedKeys = new Set([...keysOf(main)].filter((key) => !before.has(key)));
    window.tableMotion = { version: table.version, moving: arrive(main, before, level) };
  }
  for (const element of main.querySelectorAll("[data-key]")) {
    if (state.arrivedKeys.has(element.dataset.key)) element.classList.add("arrived"); // the last move
  }
  for (const card of main.querySelectorAll(".hand-fan .chosen")) {
    if (!wasPicked.has(card.dataset.card)) lift(card, level);
  }
  state.drawnKeys = keysOf(main);
  state.drawnVersion = table.version;
  summaryClock(table);
  telegramButtons();
  firstDrawn();
}

// Keyboards: a drawing replaces the table, so the focus goes back to what it was on (the
// same piece, found by what it is), else to the control at the same place in the order.
const FOCUS_KEYS = ["source", "colour", "card", "line", "hand", "star", "space", "action", "column", "supply", "move", "cushion", "gem", "end"];
const FOCUSABLE = "button:not(:disabled), a[href], select, [tabindex='0']";

function focusMark() {
  const active = document.activeElement;
  if (!active || active === document.body || !main.contains(active)) return null;
  const keys = FOCUS_KEYS.filter((key) => active.dataset[key] !== undefined).map((key) => [key, active.dataset[key]]);
  return { keys, index: [...main.querySelectorAll(FOCUSABLE)].indexOf(active) };
}

function refocus(mark) {
  if (!mark) return;
  const all = [...main.querySelectorAll(FOCUSABLE)];
  const same = mark.keys.length ? all.find((e) => mark.keys.every(([key, value]) => e.dataset[key] === value)) : null;
  const target = same || all[Math.min(mark.index, all.length - 1)];
  if (target) target.focus({ preventScroll: true });
}

// Arrow keys move along a hand, a factory, the centre, the supply, a row of choices.
const ROWS = ".hand-fan, .factory, .centre, .supply, .hand, .drawn, .cushions, .actions, .star-spaces";
document.addEventListener("keydown", (event) => {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step || !event.target.closest) return;
  const row = event.target.closest(ROWS);
  if (!row) return;
  const items = [...row.querySelectorAll(FOCUSABLE)];
  const at = items.indexOf(event.target);
  if (at < 0 || items.length < 2) return;
  event.preventDefault();
  items[(at + step + items.length) % items.length].focus();
});

// The end screen's ways on: Play again (the chat's rematch, for the match's players), its
// replay, the home.
function endActions(table) {
  if (table.status !== "finished") return null;
  return {
    again: table.rematch ? () => rematch(table.match) : null,
    replay: () => navigate(`?r=${table.match}`),
    home: () => navigate(""),
  };
}

async function rematch(matchId) {
  try {
    const { message } = await api(`/api/tables/${matchId}/rematch`, { method: "POST" });
    haptic("success");
    show(message);
  } catch (error) {
    haptic("warning");
    show(error.message, "refused");
  }
}

// Telegram's own buttons, where its script is there: Back lets go of the picked tiles;
// Main repeats the page's main button of the moment (Take, Pass, Done).
let mainAction = null;
let backAction = null;

function telegramButtons() {
  const app = telegram();
  if (!app) return;
  const main_ = document.querySelector("[data-main]");
  if (mainAction) app.MainButton.offClick(mainAction);
  if (main_) {
    mainAction = () => main_.click();
    app.MainButton.setText(main_.textContent);
    app.MainButton.onClick(mainAction);
    app.MainButton.show();
  } else {
    mainAction = null;
    app.MainButton.hide();
  }
  if (backAction) app.BackButton.offClick(backAction);
  if (state.picked) {
    backAction = () => pick(null);
    app.BackButton.onClick(backAction);
    app.BackButton.show();
  } else {
    backAction = null;
    app.BackButton.hide();
  }
}

// -- live: "version N is out" -------------------------------------------------------------
let leaving = null; // the open table's live channel, closed when the page goes elsewhere

async function listen(matchId, signal) {
  let attempt = 0;
  while (!signal.aborted) {
    try {
      const response = await fetch(`/api/tables/${matchId}/live`, {
        headers: { Authorization: `tma ${initData()}` },
        signal,
      });
      if (!response.ok) throw new Refusal(response.status, await response.json().catch(() => ({})));
      attempt = 0;
      if (state.problem === "offline") {
        state.problem = null;
        show("");
        await refresh(matchId); // what happened while the connection was down
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").find((line) => line.startsWith("data: "));
          if (!data) continue; // a heartbeat
          const { version } = JSON.parse(data.slice(6));
          if (state.table && state.table.match === Number(matchId) && version > state.table.version) refresh(matchId);
        }
      }
    } catch (error) {
      if (signal.aborted) return; // the page went elsewhere
      if (error instanceof Refusal && [401, 403, 404].includes(error.status)) {
        show(error.message, "problem");
        return; // nothing a reconnect would change
      }
    }
    if (signal.aborted) return;
    if (state.problem !== "storage_down") {
      state.problem = "offline";
      show(state.texts.offline || "…", "problem");
    }
    await pause(RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]);
    attempt += 1;
  }
}

// -- the home: the player's running tables, then their finished matches -------------------
async function drawHome() {
  const { tables, finished, tournaments = [], texts } = await api("/api/tables");
  state.texts = texts;
  speak(texts);
  const running = tables.map((line) =>
    h(
      "li",
      {},
      h(
        "a",
        { href: `?m=${line.match}`, class: line.your_turn ? "your-turn" : "" },
        h("strong", {}, line.game),
        line.title ? ` · ${line.title}` : "",
        h("br"),
        line.your_turn ? texts.your_turn : say(texts, "waiting", { name: line.to_act.join(", ") }),
        line.time_left !== null ? ` · ⏱ ${clock(line.time_left)}` : "",
      ),
    ),
  );
  const done = finished.map((line) =>
    h(
      "li",
      {},
      h(
        "a",
        { href: `?r=${line.match}` },
        h("strong", {}, line.game),
        ` · ${when(line.ended_at, texts)}`,
        h("br"),
        line.players.map((p) => `${p.winner ? "🏆 " : ""}${p.name}${p.score !== null ? ` ${p.score}` : ""}`).join(" · "),
      ),
    ),
  );
  const entered = tournaments.map((line) =>
    h("li", {}, h("a", { href: `?t=${line.tournament}`, class: "tournament-line", "data-tournament": line.tournament }, h("strong", {}, line.title), ` · ${line.status}`)),
  );
  const shown = [
    h("h1", {}, texts.your_tables),
    entered.length ? h("ul", { class: "tables tournaments" }, entered) : null,
    running.length ? h("ul", { class: "tables" }, running) : h("p", {}, texts.no_tables),
    done.length ? h("h2", {}, texts.finished) : null,
    done.length ? h("ul", { class: "tables finished" }, done) : null,
  ];
  main.replaceChildren(...shown.filter(Boolean)); // (a null would be drawn as "null")
  main.append(...(await homeSections(pageTools())));
}

// A date as the reader's language writes it (not the browser's US default).
function when(seconds, texts) {
  return new Date(seconds * 1000).toLocaleDateString(texts.lang || undefined, { day: "numeric", month: "short", year: "numeric" });
}

// The page's language: the reader's (screen readers pronounce it so; dates follow it).
function speak(texts) {
  if (texts && texts.lang) document.documentElement.lang = texts.lang;
}

// What the home and a lesson (home.js, tutorial.js) use of the page.
function pageTools() {
  const home = () => navigate("");
  const practice = (game) =>
    startPractice(api, game)
      .then((match) => navigate(`?m=${match}`))
      .catch((e) => show(e.message, "refused"));
  return { api, show, haptic, home, telegram, practice, open: navigate };
}

// -- a replay: the deal, then every move, stepped through ----------------------------------
const replay = { summary: null, step: 0, steps: new Map() };

async function drawReplay(matchId, step) {
  if (!replay.summary) replay.summary = await api(`/api/replays/${matchId}`);
  const summary = replay.summary;
  const last = summary.steps - 1;
  replay.step = Math.max(0, Math.min(step, last));
  if (!replay.steps.has(replay.step)) {
    replay.steps.set(replay.step, await api(`/api/replays/${matchId}/${replay.step}`));
  }
  const now = replay.steps.get(replay.step);
  state.texts = summary.texts;
  const texts = summary.texts;
  const table = {
    ...summary,
    view: now.view,
    heading: now.heading,
    seats: now.seats,
    centre: now.centre,
    last: now.last,
    now: null,
    summary: null,
    seat: null,
    token: null,
    legal: [],
    to_act: [],
    time_left: {},
    story: [now.line || texts.deal, ...now.others, ...now.news].filter(Boolean),
    result: replay.step === last ? summary.result : null,
    version: replay.step,
    replay: true,
    status: "finished",
  };
  table.end = { again: null, replay: replay.step > 0 ? () => drawReplay(matchId, 0) : null, home: () => navigate("") };
  const go = (to) => () => drawReplay(matchId, to).catch((error) => show(error.message, "problem"));
  const controls = h(
    "nav",
    { class: "replay-controls" },
    h("button", { type: "button", "data-step": "start", onclick: go(0), disabled: replay.step === 0 }, texts.start),
    h("button", { type: "button", "data-step": "back", onclick: go(replay.step - 1), disabled: replay.step === 0 }, texts.back),
    h("span", { class: "step" }, say(texts, "step", { number: replay.step, count: last })),
    h("button", { type: "button", "data-step": "forward", onclick: go(replay.step + 1), disabled: replay.step === last }, texts.forward),
    h("button", { type: "button", "data-step": "end", onclick: go(last), disabled: replay.step === last }, texts.end),
  );
  const drawn = GAMES[summary.game](table, null, { pick: () => {}, move: () => {} });
  main.replaceChildren(h("p", { class: "hint" }, texts.replay), controls, drawn);
  main.dataset.step = String(replay.step);
}

// Telegram's conventions: ready() once the first table is drawn (Telegram shows its own
// placeholder until then), fullscreen on phones, the header in the page's colour.
let drawnOnce = false;
let dressed = false;

function firstDrawn() {
  drawnOnce = true;
  const app = telegram();
  if (app) app.ready();
}

const PHONES = ["android", "ios"];

function dress(app) {
  if (dressed) return;
  dressed = true;
  app.expand();
  applyTheme(app.themeParams);
  app.onEvent("themeChanged", () => {
    applyTheme(app.themeParams);
    headerColour(app);
  });
  headerColour(app);
  if (PHONES.includes(app.platform) && app.isVersionAtLeast && app.isVersionAtLeast("8.0") && app.requestFullscreen) {
    try {
      app.requestFullscreen();
    } catch (error) {
      // an older client: the expanded view is as much as it offers
    }
  }
}

function headerColour(app) {
  if (!app.setHeaderColor) return;
  try {
    app.setHeaderColor(app.themeParams && app.themeParams.bg_color ? "bg_color" : getComputedStyle(document.documentElement).getPropertyValue("--bg").trim());
  } catch (error) {
    // an older client keeps its own header
  }
}

// The match a link from the group opened (t.me/<bot>?startapp=...): the server reads it
// from the signed launch data.
function startParam() {
  return new URLSearchParams(initData()).get("start_param");
}

async function start() {
  applyTheme(launch.themeParams);
  const app = telegram();
  if (app) dress(app);
  if (!initData()) {
    // opened outside Telegram: the server says so, in the browser's language
    await api("/api/tables").catch((error) => show(error.message, "problem"));
    firstDrawn();
    return;
  }
  await route(startParam());
}

// The page drawn for where it is (the address's query): what was open before is left (its
// live channel closed), the launch data kept.
let routed = 0;

async function route(parameter = null) {
  routed += 1;
  const here = routed;
  if (leaving) leaving.abort();
  leaving = null;
  Object.assign(state, { open: null, table: null, picked: null, drawnKeys: null, drawnVersion: null, arrivedKeys: new Set() });
  Object.assign(replay, { summary: null, step: 0, steps: new Map() });
  for (const key of ["version", "turn", "step", "lessonStep", "draws"]) delete main.dataset[key];
  main.replaceChildren();
  telegramButtons();
  const where = place();
  try {
    if (where.lesson) {
      await runLesson(main, where.lesson, pageTools());
      return;
    }
    // a tournament's page: by address, or by a link from the group (startapp=t<id>)
    const tournament = where.tournament || (/^t\d{1,18}$/.test(parameter || "") ? parameter.slice(1) : null);
    if (tournament) {
      await drawTournament(main, tournament, pageTools());
      firstDrawn();
      return;
    }
    if (where.replay) {
      await drawReplay(where.replay, 0);
      firstDrawn();
      return;
    }
    let match = where.match;
    if (!match && parameter) match = String((await api("/api/launch")).match);
    if (!match) {
      await drawHome();
      firstDrawn();
      return;
    }
    if (here !== routed) return; // gone elsewhere meanwhile
    state.open = match;
    await load(match);
    leaving = new AbortController();
    listen(match, leaving.signal);
  } catch (error) {
    show(error.message, "problem");
    firstDrawn();
  }
}

// The clocks count down between two readings of the table (each reading sets them anew).
setInterval(() => {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    element.textContent = `⏱ ${clock((Number(element.dataset.deadline) - Date.now()) / 1000)}`;
  }
}, 1000);

// Telegram's script loads beside this one: its buttons and theme join when it is there.
window.addEventListener("load", () => {
  // the launch data out of the address (kept in memory and sessionStorage): a copied
  // address hands out no signature; Telegram's script, loaded by now, has read it
  if (location.hash.includes("tgWebAppData")) history.replaceState(history.state, "", `${location.pathname}${location.search}`);
  const app = telegram();
  if (app) {
    dress(app);
    if (drawnOnce) app.ready();
    if (state.table) telegramButtons();
  }
});

start();
