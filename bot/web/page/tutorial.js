// A lesson in the table app: the step's table drawn by the game's own drawing, exactly as a
// match's, under the step's caption; the pieces to tap for the move it teaches are lit
// ("teach"). A tap makes a move as in a match; the server answers with the next step, or
// with the rule against the move (which is not played). The server keeps nothing: the step
// travels in the address of each request.

import { h } from "./dom.js";
import { drawAzul } from "./azul.js";
import { drawCards } from "./cards.js";
import { drawSummerPavilion } from "./summer_pavilion.js";

const DRAW = {
  azul: drawAzul,
  summer_pavilion: drawSummerPavilion,
  5211: drawCards,
  sultan: drawCards,
  donkey: drawCards,
};

// The elements that make the taught move, in the order they are tapped: what is lit now is
// the first of them the player has not tapped yet (for a card game, its cards, then its
// button).
export function teachTargets(root, table, teach, picked) {
  const game = table.game;
  const all = (selector) => [...root.querySelectorAll(selector)];
  if (game === "azul") {
    const [source, colour, line] = teach;
    if (teach.length === 1) return all(`[data-column="${teach[0]}"]`);
    if (picked && picked.source === source && picked.colour === colour) {
      return all(`[data-line="${line}"].lit`);
    }
    return all(`[data-source="${source}"][data-colour="${colour}"]`);
  }
  if (game === "summer_pavilion") {
    const [kind] = teach;
    if (kind === 0) {
      const [, source, colour] = teach;
      if (picked && picked.source === source) return all('[data-action="take"]');
      return all(`[data-source="${source}"][data-colour="${colour}"]`);
    }
    if (kind === 1) {
      const [, star, space, colour, wilds] = teach;
      if (!picked || !picked.place || picked.colour !== colour) return all(`[data-hand="${colour}"]`);
      if (picked.star === star && picked.space === space) {
        return all(`[data-action="pay"][data-wilds="${wilds}"]`);
      }
      return all(`[data-star="${star}"][data-space="${space}"]`);
    }
    if (kind === 2) return all('[data-action="pass"]');
    if (kind === 5) return all('[data-action="done"]');
    return all(`[data-hand][data-colour="${teach[1]}"].lit`); // a tile at hand kept
  }
  // the card games: the move's cards in the hand, then its button
  const choice = (table.choices || []).find((c) => c.action.join(".") === teach.join("."));
  const button = all(`[data-move="${teach.join(".")}"]`);
  if (!choice || !choice.cards.length || button.length) return button;
  const hand = table.hand || [];
  const chosen = picked ? picked.cards.map((index) => hand[index].card) : [];
  const wanted = [...choice.cards];
  for (const card of chosen) {
    const at = wanted.indexOf(card);
    if (at >= 0) wanted.splice(at, 1);
  }
  return all(".hand-fan [data-card]").filter((element) => {
    const card = Number(element.dataset.card);
    const at = wanted.indexOf(card);
    if (at < 0 || element.classList.contains("chosen")) return false;
    wanted.splice(at, 1);
    return true;
  });
}

// Runs a lesson in ``main``: ``tools`` are the page's own (its API call, its status line,
// Telegram's haptics, the way home).
export async function runLesson(main, game, tools) {
  const { api, show, haptic, home } = tools;
  // where the learner left it (stored by the server), or a step again ({step}: 0 the start)
  const begin = (body) =>
    api(`/api/lessons/${game}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let table = await begin({});
  let picked = null;
  let busy = false;
  let draws = 0; // how many times the lesson was drawn (a tap's answer is a new drawing)

  async function move(action) {
    if (busy || !table.lesson.teach) return;
    busy = true;
    try {
      const answer = await api(`/api/lessons/${game}/${table.lesson.step}/moves`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action }),
      });
      if (answer.right) {
        table = answer.table;
        haptic("success");
        show(answer.said || table.lesson.texts.right);
      } else {
        haptic("warning");
        show(answer.why, "refused");
      }
    } catch (error) {
      show(error.message, "refused");
    } finally {
      busy = false;
      picked = null;
      draw();
    }
  }

  async function again(step) {
    if (busy) return;
    busy = true;
    try {
      table = await begin({ step });
    } catch (error) {
      show(error.message, "refused");
    } finally {
      busy = false;
      picked = null;
      draw();
    }
  }

  function pick(next) {
    picked = next;
    haptic("pick");
    draw();
  }

  function draw() {
    const lesson = table.lesson;
    const texts = lesson.texts;
    const drawn = DRAW[game](table, picked, { pick, move });
    const parts = [];
    if (lesson.news) parts.push(h("div", { class: "lesson-news", role: "status" }, lesson.news.map((line) => (line ? h("p", {}, line) : null))));
    parts.push(h("p", { class: "lesson-step" }, table.title));
    const back = lesson.step
      ? [
          h("button", { type: "button", class: "action quiet", "data-lesson": "back", onclick: () => again(lesson.step - 1) }, texts.back_button),
          h("button", { type: "button", class: "action quiet", "data-lesson": "restart", onclick: () => again(0) }, texts.restart_button),
        ]
      : [];
    if (lesson.caption) {
      parts.push(h("div", { class: "lesson-caption", role: "note" }, lesson.caption.map((line) => h("p", {}, line))));
      parts.push(
        h(
          "div",
          { class: "lesson-tools" },
          h("button", { type: "button", class: "action quiet", "data-lesson": "hint", onclick: () => show(lesson.hint) }, texts.hint_button),
          h("button", { type: "button", class: "action quiet", "data-lesson": "leave", onclick: home }, texts.leave_button),
          ...back,
        ),
      );
    } else {
      parts.push(h("div", { class: "lesson-learned", role: "note" }, lesson.learned.map((line) => (line ? h("p", {}, line) : null))));
      parts.push(
        h(
          "div",
          { class: "lesson-tools" },
          h("button", { type: "button", class: "action", "data-lesson": "practice", onclick: () => tools.practice(game) }, texts.practice_button),
          h("button", { type: "button", class: "action quiet", "data-lesson": "rules", onclick: () => showRules() }, texts.rules_button),
          ...back,
        ),
      );
    }
    main.replaceChildren(...parts, drawn);
    main.dataset.lessonStep = String(lesson.step);
    draws += 1;
    main.dataset.draws = String(draws);
    if (lesson.teach) {
      for (const element of teachTargets(main, table, lesson.teach, picked)) element.classList.add("teach");
    }
  }

  function showRules() {
    const rules = table.lesson.rules || [];
    main.append(h("section", { class: "lesson-rules" }, rules.map((line) => (line ? h("p", {}, line) : h("br")))));
  }

  draw();
}
