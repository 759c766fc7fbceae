"""A tutorial's screens: the step's caption over the game's own prompt, as a match draws it.

The script is the engine's (``games.tutorial``); the words are here and in the
``tutorial`` catalogue: a step's caption (``tutorial.<game>.<step>``), the rule against a
move that is not the step's (``tutorial.<game>.why.<rule>``), the hint (the game's own
words for the taught move) and what was learned. The table under the caption is drawn by
the game's adapter from the learner's view — the very screens of a real match — and so are
its buttons: the one the step teaches among the others, which are answered, not played.
"""

from __future__ import annotations

import dataclasses
import html
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Button, Names, Screen
from games import GAME_MODULES, get_engine, package_name
from games.core import Action, State, encode_action
from games.sultan import engine as sultan_engine
from games.tutorial import ELSEWHERE, LEARNER, Tutorial, Why, get_tutorial

# games whose prompt leaves the table to the group's board: the lesson shows that board too
BOARD_GAMES = frozenset({"5211", "donkey"})
#: the values of a rule's sentence that name a colour (a gem, a tile): shown by name
COLOUR_VALUES = frozenset({"colour", "gem"})


@dataclass(frozen=True)
class Lesson:
    """A learner's place in ``game``'s tutorial: the moves they made so far (``path``, one
    per step: its length is the step they are at; the tutorial's length: its end), with a
    selection made so far."""

    game: str
    path: tuple[Action, ...] = ()
    draft: Any = None

    @classmethod
    def at(cls, game: str, index: int) -> Lesson:
        """Step ``index`` on the script's path (the model moves before it)."""
        return cls(game, get_tutorial(game).script[:index])

    @property
    def tutorial(self) -> Tutorial:
        return get_tutorial(self.game)

    @property
    def index(self) -> int:
        return len(self.path)

    @property
    def over(self) -> bool:
        return self.index >= len(self.tutorial)

    @property
    def state(self) -> State:
        return self.tutorial.state_at(self.index, self.path)

    @property
    def taught(self) -> Action:
        """The step's model move from here (what 💡 shows)."""
        return self.tutorial.model(self.index, self.path)

    def accepts(self, action: Action) -> bool:
        return self.tutorial.accepts(self.index, self.path, action)

    def then(self, action: Action) -> Lesson:
        """The lesson after ``action`` (accepted) at this step."""
        return Lesson(self.game, (*self.path, tuple(action)))

    def why(self, action: Action) -> Why:
        return self.tutorial.explain(self.index, action, self.path)


def resumed(game: str, stored: list[list[int]] | None) -> Lesson:
    """The lesson a learner's stored moves make: as far as each move is still accepted (a
    lesson changed since it was stored is resumed where it still agrees); a finished or
    never begun lesson starts at step 1."""
    lesson = Lesson(game)
    for move in stored or ():
        if lesson.over or not lesson.accepts(tuple(move)):
            break
        lesson = lesson.then(tuple(move))
    return Lesson(game) if lesson.over else lesson


def get_games() -> list[str]:
    return list(GAME_MODULES)


def names(t: Translator, players: int, learner: str = "") -> Names:
    """The seats' names: the learner's own (as a match names them: the tables' sentences
    are about a named player), the bots by number."""
    you = learner or t("tutorial.you")
    return Names.of([you, *(t("tutorial.bot", number=n) for n in range(1, players))])


def step_line(t: Translator, lesson: Lesson) -> str:
    title = html.escape(get_ui(lesson.game).title(t))
    return t("tutorial.step", game=title, number=lesson.index + 1, total=len(lesson.tutorial))


def caption(t: Translator, lesson: Lesson) -> str:
    """The step's words: what is happening and what to do now; where the step accepts one
    move only, that move named exactly."""
    step = lesson.tutorial.steps[lesson.index]
    text = t(f"tutorial.{lesson.game}.{step.key}")
    if len(lesson.tutorial.accepted(lesson.index, lesson.path)) == 1:
        named = move_name(t, lesson).rstrip(".")  # the sentence ends it
        text += "\n" + t("tutorial.only_move", move=named)
    return text


def move_name(t: Translator, lesson: Lesson) -> str:
    """The model move in the game's own words ("Take …")."""
    view = get_engine(lesson.game).view(lesson.state, LEARNER)
    return get_ui(lesson.game).move_label(t, view, lesson.taught, LEARNER, suggested=True)


def news(t: Translator, lesson: Lesson, who: Names) -> str:
    """What the step's last move made happen, as a match's log tells it (a round's scoring
    tile by tile, a reveal, a round won): the public events since the step before — so
    nothing of the learner's, nor its consequences, happens unseen."""
    if lesson.index == 0:
        return ""
    engine, ui = get_engine(lesson.game), get_ui(lesson.game)
    before = engine.view(lesson.tutorial.state_at(lesson.index - 1, lesson.path), None)
    after = engine.view(lesson.state, None)
    fresh = after["log"][len(before["log"]) :]
    return "\n\n".join(text for text in ui.log_news(t, fresh, after, who) if text)


def screen(t: Translator, lesson: Lesson, learner: str = "", point: bool = False) -> Screen:
    """The step: its number, its caption, what the last move did, the table and the game's
    buttons (with ``point``, the next one to press for the model move marked 👉), then the
    lesson's own buttons."""
    tutorial = lesson.tutorial
    engine, ui = get_engine(lesson.game), get_ui(lesson.game)
    state = lesson.state
    view = engine.view(state, LEARNER)
    who = names(t, tutorial.players, learner)
    legal = engine.legal_actions(state, LEARNER)
    prompt = ui.prompt(t, view, LEARNER, legal, lesson.draft, who)
    parts = [news(t, lesson, who), f"🎓 <b>{step_line(t, lesson)}</b>", caption(t, lesson)]
    since = ui.since_your_turn(t, view, LEARNER, who)
    if since:
        parts.append(since)
    if lesson.game in BOARD_GAMES:  # the table a group sees on its board
        parts.append("\n".join(ui.board(t, engine.view(state, None), who).text.split("\n")[1:]))
    parts.append(prompt.text)
    rows = [list(row) for row in prompt.rows if row]
    if point:
        rows = pointed(t, lesson, rows)
    rows.append([Button(t("tutorial.hint_button")), Button(t("tutorial.leave_button"))])
    if lesson.index:
        rows.append([Button(t("tutorial.back_button")), Button(t("tutorial.restart_button"))])
    return Screen("\n\n".join(part.strip("\n") for part in parts if part.strip()), rows)


POINTER = "👉 "
CHOSEN_ALONE = "any_move"  # the goal of a step where the learner chooses alone


def pointed(t: Translator, lesson: Lesson, rows: list[list[Button]]) -> list[list[Button]]:
    """The game's buttons with the next one to press for the model move marked 👉."""
    try:
        presses = taps(t, lesson)
    except LookupError:  # a selection made elsewhere: the buttons of another move
        return rows
    verb, argument = presses[0]
    marked = []
    for row in rows:
        keys = []
        for key in row:
            hit = (verb == "a" and key.action is not None
                   and encode_action(key.action) == argument) or (
                verb == "d" and key.draft == argument)  # fmt: skip
            keys.append(dataclasses.replace(key, label=POINTER + key.label) if hit else key)
        marked.append(keys)
    return marked


def hint(t: Translator, lesson: Lesson) -> str:
    """The model move in the game's own words ("Take …"), for a popup."""
    return t("tutorial.hint", move=move_name(t, lesson))


def well_done(t: Translator, lesson: Lesson, action: Action) -> str:
    """The answer to a move that reaches the step's goal (what it did is on the next
    step's screen); a move the learner chose alone is told back in the game's words, and
    whether it was the move 💡 would have shown."""
    step = lesson.tutorial.steps[lesson.index]
    if step.goal != CHOSEN_ALONE:
        return t("tutorial.right")
    view = get_engine(lesson.game).view(lesson.state, LEARNER)
    label = get_ui(lesson.game).move_label(t, view, tuple(action), LEARNER, suggested=True)
    key = "tutorial.chosen_as_hint" if tuple(action) == lesson.taught else "tutorial.chosen"
    return t(key, move=label.rstrip("."))


def why_text(t: Translator, game: str, why: Why) -> str:
    """The rule against a move, in a sentence."""
    if why.rule == ELSEWHERE:
        return t("tutorial.why_elsewhere")
    values: dict[str, object] = dict(why.values)
    if "colour" in values and "count" in values:  # "2 green cards": the noun agrees
        values["cards"] = colour_cards(t, game, int(why.values["colour"]), int(why.values["count"]))
    for key in COLOUR_VALUES & values.keys():
        values[key] = colour_name(t, game, int(why.values[key]))
    return t(f"tutorial.{game}.why.{why.rule}", **values)


def colour_cards(t: Translator, game: str, colour: int, count: int) -> str:
    """``count`` cards of a colour, the number, colour and noun agreeing (the catalogue's
    plural forms: «2 зелёные карточки», «5 зелёных карточек», «2 carte verdi»)."""
    names = import_module(f"games.{package_name(game)}.engine").COLOURS
    return t.plural(f"tutorial.{game}.cards.{names[colour]}", count)


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


def final_table(t: Translator, lesson: Lesson, learner: str = "") -> str:
    """The table after the last step, as the learner's prompt shows it (no buttons)."""
    game, tutorial = lesson.game, lesson.tutorial
    engine, ui = get_engine(game), get_ui(game)
    state = lesson.state
    who = names(t, tutorial.players, learner)
    if game in BOARD_GAMES:
        table = "\n".join(ui.board(t, engine.view(state, None), who).text.split("\n")[1:])
    else:
        table = ui.prompt(t, engine.view(state, LEARNER), LEARNER, [], None, who).text
    return "\n\n".join(part for part in (news(t, lesson, who), table) if part.strip())


def taps(
    t: Translator, lesson: Lesson, most: int = 6, move: Action | None = None
) -> list[tuple[str, str]]:
    """The presses that make the model move (or ``move``) on the step's buttons, as a
    newcomer who follows the hint would make them: selection steps (``("d", step)``), then
    the move (``("a", encoded)``) unless the last selection made it."""
    engine, ui = get_engine(lesson.game), get_ui(lesson.game)
    state = lesson.state
    view = engine.view(state, LEARNER)
    legal = engine.legal_actions(state, LEARNER)
    who = names(t, lesson.tutorial.players)
    taught = lesson.taught if move is None else tuple(move)
    frontier: list[tuple[Any, list[tuple[str, str]]]] = [(lesson.draft, [])]
    seen = set()
    while frontier:
        draft, path = frontier.pop(0)
        if repr(draft) in seen or len(path) > most:
            continue
        seen.add(repr(draft))
        for row in ui.prompt(t, view, LEARNER, legal, draft, who).rows:
            for key in row:
                if key.action is not None and tuple(key.action) == taught:
                    return [*path, ("a", encode_action(key.action))]
                if key.draft is None:
                    continue
                step = ui.draft(view, LEARNER, legal, draft, key.draft)
                if step.action is not None and tuple(step.action) == taught:
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
    """The tutorial's own words in ``t``'s language, on the script's path: its captions,
    what the moves made happen (a round's scoring…) and what was learned."""
    tutorial = get_tutorial(game)
    who = names(t, tutorial.players)
    steps = [Lesson.at(game, index) for index in range(len(tutorial) + 1)]
    texts = [caption(t, lesson) for lesson in steps[:-1]]
    texts += [news(t, lesson, who) for lesson in steps]  # what the moves made happen
    texts.append(t(f"tutorial.{game}.learned"))
    return sum(len(text.split()) for text in texts)


__all__ = ["Button", "Lesson", "caption", "ending", "hint", "screen", "why_text", "words"]
