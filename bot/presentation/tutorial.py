"""A tutorial's screens: the step's caption over the game's own prompt, as a match draws it.

The script is the engine's (``games.tutorial``); the words are here and in the
``tutorial`` catalogue: a step's caption (``tutorial.<game>.<step>``), the rule against a
move that is not the step's (``tutorial.<game>.why.<rule>``), the hint (the game's own
words for the taught move) and what was learned. The table under the caption is drawn by
the game's adapter from the learner's view — the very screens of a real match — and so are
its buttons: the one the step teaches among the others, which are answered, not played.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Button, Names, Screen
from games import GAME_MODULES, get_engine, package_name
from games.core import Action, encode_action
from games.sultan import engine as sultan_engine
from games.tutorial import LEARNER, Tutorial, Why, get_tutorial

# games whose prompt leaves the table to the group's board: the lesson shows that board too
BOARD_GAMES = frozenset({"5211", "donkey"})
#: the values of a rule's sentence that name a colour (a gem, a tile): shown by name
COLOUR_VALUES = frozenset({"colour", "gem"})


@dataclass(frozen=True)
class Lesson:
    """Step ``index`` of ``game``'s tutorial (``len``: its end), with a selection made so far."""

    game: str
    index: int
    draft: Any = None

    @property
    def tutorial(self) -> Tutorial:
        return get_tutorial(self.game)

    @property
    def over(self) -> bool:
        return self.index >= len(self.tutorial)

    @property
    def taught(self) -> Action:
        return tuple(self.tutorial.steps[self.index].move)


def get_games() -> list[str]:
    return list(GAME_MODULES)


def names(t: Translator, players: int) -> Names:
    return Names.of([t("tutorial.you"), *(t("tutorial.bot", number=n) for n in range(1, players))])


def step_line(t: Translator, lesson: Lesson) -> str:
    title = html.escape(get_ui(lesson.game).title(t))
    return t("tutorial.step", game=title, number=lesson.index + 1, total=len(lesson.tutorial))


def caption(t: Translator, lesson: Lesson) -> str:
    """The step's words: what is happening and what to do now."""
    step = lesson.tutorial.steps[lesson.index]
    return t(f"tutorial.{lesson.game}.{step.key}")


def screen(t: Translator, lesson: Lesson) -> Screen:
    """The step: its number, its caption, the table and the game's buttons, then a hint and
    a way out."""
    tutorial = lesson.tutorial
    engine, ui = get_engine(lesson.game), get_ui(lesson.game)
    state = tutorial.state_at(lesson.index)
    view = engine.view(state, LEARNER)
    who = names(t, tutorial.players)
    legal = engine.legal_actions(state, LEARNER)
    prompt = ui.prompt(t, view, LEARNER, legal, lesson.draft, who)
    parts = [f"🎓 <b>{step_line(t, lesson)}</b>", caption(t, lesson)]
    since = ui.since_your_turn(t, view, LEARNER, who)
    if since:
        parts.append(since)
    if lesson.game in BOARD_GAMES:  # the table a group sees on its board
        parts.append("\n".join(ui.board(t, engine.view(state, None), who).text.split("\n")[1:]))
    parts.append(prompt.text)
    rows = [row for row in prompt.rows if row]
    rows.append([Button(t("tutorial.hint_button")), Button(t("tutorial.leave_button"))])
    return Screen("\n\n".join(part.strip("\n") for part in parts if part.strip()), rows)


def hint(t: Translator, lesson: Lesson) -> str:
    """The taught move in the game's own words ("Take …"), for a popup."""
    state = lesson.tutorial.state_at(lesson.index)
    view = get_engine(lesson.game).view(state, LEARNER)
    label = get_ui(lesson.game).move_label(t, view, lesson.taught, LEARNER, suggested=True)
    return t("tutorial.hint", move=label)


def why_text(t: Translator, game: str, why: Why) -> str:
    """The rule against a move, in a sentence."""
    values: dict[str, object] = dict(why.values)
    for key in COLOUR_VALUES & values.keys():
        values[key] = colour_name(t, game, int(why.values[key]))
    return t(f"tutorial.{game}.why.{why.rule}", **values)


def colour_name(t: Translator, game: str, colour: int) -> str:
    """A tile's or a gem's colour by name, in the game's own words."""
    if game == "sultan":
        return t(f"sultan.gem.{sultan_engine.GEM_NAMES[colour]}")
    names = import_module(f"games.{package_name(game)}.engine").COLOURS
    return t(f"{game}.colour.{names[colour]}")


def ending(t: Translator, game: str) -> str:
    """What was learned, in three lines, under the tutorial's last table."""
    title = html.escape(get_ui(game).title(t))
    return "\n\n".join((t("tutorial.done", game=title), t(f"tutorial.{game}.learned")))


def final_table(t: Translator, game: str) -> str:
    """The table after the last step, as the learner's prompt shows it (no buttons)."""
    tutorial = get_tutorial(game)
    engine, ui = get_engine(game), get_ui(game)
    state = tutorial.state_at(len(tutorial))
    who = names(t, tutorial.players)
    if game in BOARD_GAMES:
        return "\n".join(ui.board(t, engine.view(state, None), who).text.split("\n")[1:])
    return ui.prompt(t, engine.view(state, LEARNER), LEARNER, [], None, who).text


def taps(t: Translator, lesson: Lesson, most: int = 6) -> list[tuple[str, str]]:
    """The presses that make the taught move on the step's buttons, as a newcomer who
    follows the hint would make them: selection steps (``("d", step)``), then the move
    (``("a", encoded)``) unless the last selection made it."""
    engine, ui = get_engine(lesson.game), get_ui(lesson.game)
    state = lesson.tutorial.state_at(lesson.index)
    view = engine.view(state, LEARNER)
    legal = engine.legal_actions(state, LEARNER)
    who = names(t, lesson.tutorial.players)
    frontier: list[tuple[Any, list[tuple[str, str]]]] = [(None, [])]
    seen = set()
    while frontier:
        draft, path = frontier.pop(0)
        if repr(draft) in seen or len(path) > most:
            continue
        seen.add(repr(draft))
        for row in ui.prompt(t, view, LEARNER, legal, draft, who).rows:
            for key in row:
                if key.action is not None and tuple(key.action) == lesson.taught:
                    return [*path, ("a", encode_action(key.action))]
                if key.draft is None:
                    continue
                step = ui.draft(view, LEARNER, legal, draft, key.draft)
                if step.action is not None and tuple(step.action) == lesson.taught:
                    return [*path, ("d", key.draft)]
                if step.action is None:
                    frontier.append((step.draft, [*path, ("d", key.draft)]))
    raise LookupError(f"{lesson.game} step {lesson.index}: no presses make the taught move")


# -- the operator's figures -------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """How far learners got in one tutorial: from the counts of each step reached."""

    started: int
    finished: int
    most_leave_at: int | None  # the step (from 1) after which most learners left; None: none

    @classmethod
    def of(cls, reached: dict[int, int], steps: int) -> Progress:
        counts = [reached.get(step, 0) for step in range(steps + 1)]
        left = [counts[step] - counts[step + 1] for step in range(steps)]
        most = max(left, default=0)
        return cls(counts[0], counts[steps], left.index(most) + 1 if most > 0 else None)


def status(t: Translator, counts: dict[str, dict[int, int]]) -> str:
    """/status's lines on the tutorials: started → finished (the completion rate), and the
    step where most learners leave — what a tutorial's author would improve."""
    lines = [t("tutorial.status_title")]
    for game in get_games():
        if game not in counts:
            continue
        progress = Progress.of(counts[game], len(get_tutorial(game)))
        leave = progress.most_leave_at
        lines.append(
            t(
                "tutorial.status_line",
                game=html.escape(get_ui(game).title(t)),
                started=t.number(progress.started),
                finished=t.number(progress.finished),
                rate=t.percent(progress.finished, progress.started),
                detail=t("tutorial.status_leave", number=leave) if leave else "",
            )
        )
    if len(lines) == 1:
        lines.append(t("tutorial.status_none"))
    return "\n".join(lines)


def words(t: Translator, game: str) -> int:
    """The tutorial's own words in ``t``'s language: its captions and what was learned."""
    tutorial = get_tutorial(game)
    texts = [caption(t, Lesson(game, index)) for index in range(len(tutorial))]
    texts.append(t(f"tutorial.{game}.learned"))
    return sum(len(text.split()) for text in texts)


__all__ = ["Button", "Lesson", "caption", "ending", "hint", "screen", "why_text", "words"]
