"""A lesson as the table app draws it: the step's table exactly as a match's (``tables.table``
over the script's state, the learner in seat 0), with the step's caption, the move it
teaches (the page lights up its pieces), the hint, and at the end what was learned.

A learner's place is stored (their moves so far: ``Storage.save_lesson``, shared with the
chat's lessons), so a lesson resumes where it was left; a move that reaches the step's goal
is stored and answered with the next step, any other with why it misses the goal, and is
not played (``bot.presentation.tutorial``)."""

from __future__ import annotations

from typing import Any

from bot.presentation import tutorial as words
from bot.presentation.i18n import Translator
from bot.presentation.tutorial import Lesson
from bot.presentation.ui import get_ui, playable_games
from bot.storage import Match, Seat
from bot.web import tables
from games.tutorial import get_tutorial

LEARNER_ID = 0  # the seat's user in the drawn table: the asker is told apart by ``seat``


def menu(t: Translator, reached: dict[str, int]) -> list[dict[str, Any]]:
    """The lessons: each game with its number of steps, the furthest step the asker reached
    and whether they finished it."""
    lines = []
    for game in playable_games():
        steps = len(get_tutorial(game))
        furthest = min(reached.get(game, 0), steps)
        lines.append({"game": game, "title": get_ui(game).title(t), "steps": steps,
                      "reached": furthest, "done": furthest == steps})  # fmt: skip
    return lines


def as_match(t: Translator, lesson: Lesson, learner: str = "") -> Match:
    """The step's table as a match that is never stored: the learner and the bots seated,
    the script's state at the step."""
    tutorial = lesson.tutorial
    names = words.names(t, tutorial.players)
    seats = [Seat(0, LEARNER_ID, learner or t("tutorial.you"))]
    seats += [Seat(seat, -seat, names[seat], ai="normal") for seat in range(1, len(names))]
    return Match(
        id=0,
        chat_id=0,
        thread_id=0,
        game=lesson.game,
        options={},
        status="playing",
        creator_id=LEARNER_ID,
        version=lesson.index,
        state=lesson.state,
        seats=seats,
        title=tables.plain_lines(words.step_line(t, lesson))[0],
    )


def table(t: Translator, lesson: Lesson, now: float, learner: str = "") -> dict[str, Any]:
    """One step (or the end) of a lesson, drawn as a match, with the lesson's words."""
    tutorial = lesson.tutorial
    index = lesson.index
    drawn = tables.table(as_match(t, lesson, learner), LEARNER_ID, t, now)
    news = words.news(t, lesson, words.names(t, tutorial.players, learner))
    if lesson.over:
        drawn["legal"] = []  # the lesson is over: its last table, to look at
    drawn["lesson"] = {
        "game": lesson.game,
        "step": index,
        "steps": len(tutorial),
        "caption": None if lesson.over else tables.plain_lines(words.caption(t, lesson)),
        "news": tables.plain_lines(news) if news else None,
        "teach": None if lesson.over else list(lesson.taught),
        "hint": None if lesson.over else tables.plain_lines(words.hint(t, lesson))[0],
        "learned": tables.plain_lines(words.ending(t, lesson.game)) if lesson.over else None,
        "rules": tables.plain_lines(get_ui(lesson.game).rules(t)) if lesson.over else None,
        "texts": texts(t),
    }
    return drawn


LESSON_TEXTS = ("hint_button", "leave_button", "right", "practice_button", "rules_button",
                "learn_button", "choose", "back_button", "restart_button")  # fmt: skip


def texts(t: Translator) -> dict[str, str]:
    return {key: t(f"tutorial.{key}") for key in LESSON_TEXTS}


def answer(
    t: Translator, lesson: Lesson, action: tuple[int, ...], now: float, learner: str = ""
) -> dict[str, Any]:
    """A move at a step: the next step (with what the move did) if it reaches the step's
    goal, else why not (and nothing is played)."""
    if lesson.accepts(action):
        following = lesson.then(action)
        said = tables.plain_lines(words.well_done(t, lesson, action))[0]
        return {"right": True, "said": said, "table": table(t, following, now, learner)}
    why = words.why_text(t, lesson.game, lesson.why(action))
    return {"right": False, "why": tables.plain_lines(t("tutorial.wrong", detail=why))[0]}
