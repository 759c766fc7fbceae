// The app's home, below the player's tables: learn a game (a lesson, step by step),
// practise (a game and a level: a match against bots starts at once and its table opens),
// and play with a friend (the bot prepares the game's invitation, Telegram's chat picker
// sends it, the friend's Join opens the table there). The home's choices come from the
// server (the games, the levels, their names).

import { h } from "./dom.js";

export async function homeSections(tools) {
  const { api, show } = tools;
  const { lessons, practice, texts } = await api("/api/lessons");
  const learn = h(
    "section",
    { class: "home-learn" },
    h("h2", {}, texts.learn_button),
    h(
      "ul",
      { class: "lessons" },
      lessons.map((lesson) =>
        h(
          "li",
          { "data-done": lesson.done ? "yes" : "no" },
          h(
            "a",
            { href: `?l=${lesson.game}`, "data-lesson-game": lesson.game },
            // ✓ a finished lesson; its step when begun
            lesson.done ? `✓ ${lesson.title}` : lesson.reached ? `${lesson.title} · ${lesson.reached + 1}/${lesson.steps}` : lesson.title,
          ),
        ),
      ),
    ),
  );
  const game = h(
    "select",
    { name: "game", "aria-label": texts.practice_game },
    practice.games.map((choice) => h("option", { value: choice.game }, choice.title)),
  );
  const level = h(
    "select",
    { name: "level", "aria-label": texts.practice_level },
    practice.levels.map((choice) => h("option", { value: choice.level, selected: choice.level === "normal" }, choice.name)),
  );
  const start = h(
    "button",
    {
      type: "button",
      class: "action",
      "data-practice": "start",
      onclick: async () => {
        try {
          tools.open(`?m=${await startPractice(api, game.value, level.value)}`);
        } catch (error) {
          show(error.message, "refused");
        }
      },
    },
    texts.practice_start,
  );
  const practise = h(
    "section",
    { class: "home-practice" },
    h("h2", {}, texts.practice_title),
    h("div", { class: "practice-form" }, game, level, start),
  );
  const friend = h(
    "section",
    { class: "home-friend" },
    h("h2", {}, texts.friend_title),
    h("p", { class: "hint" }, texts.friend_note),
    h(
      "div",
      { class: "friend-games" },
      practice.friend.map((choice) =>
        h(
          "button",
          { type: "button", class: "action quiet", "data-friend": choice.game, onclick: () => invite(tools, choice.game, texts) },
          choice.title,
        ),
      ),
    ),
  );
  return [learn, practise, friend];
}

// "Play with a friend": the invitation the bot prepared, sent with Telegram's chat picker.
async function invite(tools, game, texts) {
  const { api, show, telegram } = tools;
  const app = telegram();
  if (!app || typeof app.shareMessage !== "function") {
    show(texts.friend_needs_telegram, "refused");
    return;
  }
  try {
    const { prepared } = await api("/api/friend", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game }),
    });
    app.shareMessage(prepared);
  } catch (error) {
    show(error.message, "refused");
  }
}

// A practice match against bots of ``level``, started by the server: its table's number.
export async function startPractice(api, game, level = "normal") {
  const { match } = await api("/api/practice", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game, level }),
  });
  return match;
}
