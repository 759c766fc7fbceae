"""Tutorials: a short match per game, as data beside its engine, that teaches by goals.

A tutorial is the engine with a seeded deal and a list of steps. Each step teaches a goal
("fill a line exactly", "bid on the gem you want most"): ``goal`` names a predicate of the
game's tutorial module, ``(state, move) -> bool``, and every legal move that reaches it is
accepted; the lesson then goes on from the position that move made. A step without a goal
accepts its ``move`` alone, and its caption names that move exactly. ``move`` is the step's
model move on the script's path (what 💡 shows there); off the script the model move is the
normal AI's choice among the moves that reach the goal.

The others' moves are written down (``replies``, the normal AI's on the script's path); off
the script a written move that is no longer legal is replaced by the normal AI's own. The
learner's moves are never written down: every one of them is a step.

Each step names its caption (a key: the words are presentation, in
``locales/*/LC_MESSAGES/tutorial.po``), the claims that caption makes about the table
(:class:`Claim`, checked on the state before the step and its model move, on every path a
learner may take) and the rules of ``docs/rules/<game>.md`` it teaches (``teaches``: keys
of the tutorial's ``syllabus``, the rules a first game needs). A move that misses the goal
is answered with why: the game's ``why`` names a rule (a key, and the numbers its sentence
needs), from the engine's own facts.

Every game's script is ``games/<package>/tutorial.py``'s ``TUTORIAL``; the learner is seat 0.
Nothing here knows Telegram or a language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import import_module
from typing import Any

from games import GAME_MODULES, get_engine, package_name
from games.ai import choose
from games.core import Action, IllegalAction, State

LEARNER = 0  # the learner's seat in every tutorial
MAX_STEPS = 20
Path = tuple[Action, ...]  # the learner's accepted moves, one per step so far
#: the rule of a move that reaches its step's goal where the rest of the lesson cannot
#: follow (every game's; its sentence is ``tutorial.why.elsewhere``)
ELSEWHERE = "elsewhere"


@dataclass(frozen=True)
class Claim:
    """Something a step's caption says about the table, checked on the state before the
    step and its model move (``name`` is a predicate of the game's tutorial:
    ``(state, move, *args)``)."""

    name: str
    args: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    """One step: its caption's key, its model move on the script's path, the claims its
    caption makes, the others' moves after it (``(seat, action)``), the goal that accepts
    a move (None: ``move`` alone) and the syllabus' rules the step teaches."""

    key: str
    move: Action
    claims: tuple[Claim, ...] = ()
    replies: tuple[tuple[int, Action], ...] = ()
    goal: str | None = None
    teaches: tuple[str, ...] = ()


@dataclass(frozen=True)
class Why:
    """Why a move misses the step's goal: a rule's key (``tutorial.<game>.why.<rule>``) and
    the numbers its sentence names (presentation turns a colour's number into its name)."""

    rule: str
    values: Mapping[str, int] = field(default_factory=dict)


Predicate = Callable[..., bool]
Explain = Callable[[State, Action, Action, str | None], Why]


@dataclass(frozen=True, eq=False)  # compared and cached by identity: one per game
class Tutorial:
    game: str
    players: int
    seed: int
    steps: tuple[Step, ...]
    predicates: Mapping[str, Predicate]
    why: Explain  # (state, model move, pressed move, step's goal) -> why the pressed one misses
    rules: tuple[str, ...]  # every rule ``why`` may name (each has a sentence per language)
    #: the rules a first game needs: key -> the heading of ``docs/rules/<game>.md`` it is in
    syllabus: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    opening: tuple[tuple[int, Action], ...] = ()  # the others' moves before the first step

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def script(self) -> Path:
        """The path of the steps' model moves."""
        return tuple(tuple(step.move) for step in self.steps)

    def start(self) -> State:
        """The table when the first step begins: the deal, and the opening moves."""
        engine = get_engine(self.game)
        state = engine.new_game(self.players, dict(self.options), self.seed)
        for seat, action in self.opening:
            state = engine.apply(state, seat, action)
        return state

    def after(self, state: State, index: int, move: Action | None = None) -> State:
        """The state after step ``index``'s ``move`` (its model move if None) and the
        others' moves up to the learner's next turn: the written ones while they are legal,
        else the normal AI's."""
        engine = get_engine(self.game)
        step = self.steps[index]
        state = engine.apply(state, LEARNER, step.move if move is None else move)
        written = list(step.replies)
        while not engine.is_over(state) and LEARNER not in engine.to_act(state):
            seat, action = written.pop(0) if written else (None, None)
            if seat is None or not engine.is_legal(state, seat, action):
                seat = min(engine.to_act(state))
                legal = list(engine.legal_actions(state, seat))
                action = choose(self.game, "normal", engine.view(state, seat), seat, legal,
                                self.seed + index)  # fmt: skip
            state = engine.apply(state, seat, action)
        return state

    def state_at(self, index: int, path: Sequence[Action] | None = None) -> State:
        """The table when step ``index`` begins on ``path`` (the script's by default;
        ``len(self)``: after the last step)."""
        moves = self.script if path is None else tuple(tuple(m) for m in path)
        return _states(self, moves[:index])[index]

    def model(self, index: int, path: Sequence[Action] | None = None) -> Action:
        """Step ``index``'s model move on ``path``: the script's where it is legal and
        reaches the goal, else the normal AI's choice among the moves that do."""
        state = self.state_at(index, path)
        step = self.steps[index]
        engine = get_engine(self.game)
        if engine.is_legal(state, LEARNER, step.move) and self.reaches(index, state, step.move):
            return tuple(step.move)
        reaching = [tuple(a) for a in engine.legal_actions(state, LEARNER)
                    if self.reaches(index, state, a)]  # fmt: skip
        if not reaching:
            raise LookupError(f"{self.game} step {index}: no move reaches the goal")
        view = engine.view(state, LEARNER)
        return tuple(choose(self.game, "normal", view, LEARNER, reaching, self.seed + index))

    def reaches(self, index: int, state: State, move: Action) -> bool:
        """Whether ``move`` (legal) reaches step ``index``'s goal."""
        step = self.steps[index]
        if step.goal is None:
            return tuple(move) == tuple(step.move)
        return bool(self.predicates[step.goal](state, tuple(move)))

    def accepts(self, index: int, path: Sequence[Action], move: Action) -> bool:
        """Whether the learner's ``move`` at step ``index`` (on ``path``) is accepted."""
        state = self.state_at(index, path)
        engine = get_engine(self.game)
        try:
            legal = engine.is_legal(state, LEARNER, tuple(move))
        except (IllegalAction, IndexError, TypeError, ValueError):
            return False
        if not legal or not self.reaches(index, state, tuple(move)):
            return False
        return tuple(move) == self.model(index, path) or self.goes_on(
            (*self.prefix(index, path), tuple(move))
        )

    def prefix(self, index: int, path: Sequence[Action] | None) -> Path:
        moves = self.script if path is None else tuple(tuple(m) for m in path)
        return moves[:index]

    def goes_on(self, path: Path) -> bool:
        """Whether the lesson can go on to its end from ``path`` with every caption true (a
        move that reaches its step's goal but leaves a later step without a true caption
        or a way to its goal is not accepted: :data:`ELSEWHERE` says why)."""
        return _goes_on(self, path)

    def accepted(self, index: int, path: Sequence[Action] | None = None) -> list[Action]:
        """Every legal move step ``index`` accepts on ``path``."""
        state = self.state_at(index, path)
        legal = get_engine(self.game).legal_actions(state, LEARNER)
        return [tuple(a) for a in legal if self.accepts(index, path or self.script, a)]

    def claims_hold(self, index: int, path: Sequence[Action] | None = None) -> list[str]:
        """The claims of step ``index`` that do not hold on ``path`` (none: it is true)."""
        step = self.steps[index]
        state = self.state_at(index, path)
        model = self.model(index, path)
        return [
            claim.name
            for claim in step.claims
            if not self.predicates[claim.name](state, model, *claim.args)
        ]

    def explain(self, index: int, pressed: Action, path: Sequence[Action] | None = None) -> Why:
        """The rule against ``pressed`` at step ``index`` (legal or not)."""
        state = self.state_at(index, path)
        engine = get_engine(self.game)
        pressed = tuple(pressed)
        try:
            legal = engine.is_legal(state, LEARNER, pressed)
        except (IllegalAction, IndexError, TypeError, ValueError):
            legal = False
        if legal and self.reaches(index, state, pressed):
            return Why(ELSEWHERE)
        return self.why(state, self.model(index, path), pressed, self.steps[index].goal)


@lru_cache(maxsize=4096)
def _states(tutorial: Tutorial, path: Path) -> tuple[State, ...]:
    """The states at the start of each step along ``path`` (and after its last move)."""
    if not path:
        return (tutorial.start(),)
    before = _states(tutorial, path[:-1])
    return (*before, tutorial.after(before[-1], len(path) - 1, path[-1]))


@lru_cache(maxsize=4096)
def _goes_on(tutorial: Tutorial, path: Path) -> bool:
    moves = path
    for index in range(len(path), len(tutorial)):
        try:
            model = tutorial.model(index, moves)
            if tutorial.claims_hold(index, moves):
                return False
        except LookupError:
            return False
        moves = (*moves, model)
    return not tutorial.claims_hold(len(path) - 1, path[:-1]) if path else True


@cache
def get_tutorial(game: str) -> Tutorial:
    if game not in GAME_MODULES:
        raise KeyError(game)
    return import_module(f"games.{package_name(game)}.tutorial").TUTORIAL


def problems(tutorial: Tutorial, path: Sequence[Action] | None = None) -> list[str]:
    """Everything wrong with a script along ``path`` (the script's by default), replayed
    through the engine: too many steps, a step where the learner is not to act or no move
    reaches the goal, a model move refused, a claim that does not hold, a refused move no
    rule explains, a learner's move among the written ones."""
    found = []
    engine = get_engine(tutorial.game)
    moves = tutorial.script if path is None else tuple(tuple(m) for m in path)
    if not 1 <= len(tutorial) <= MAX_STEPS:
        found.append(f"{tutorial.game}: {len(tutorial)} steps")
    for index, step in enumerate(tutorial.steps):
        if any(seat == LEARNER for seat, _ in step.replies):
            found.append(f"{tutorial.game} step {index}: the learner's move is written down")
        if index >= len(moves):
            break
        state = tutorial.state_at(index, moves)
        if LEARNER not in engine.to_act(state):
            found.append(f"{tutorial.game} step {index}: the learner is not to act")
            break
        try:
            model = tutorial.model(index, moves)
        except LookupError as error:
            found.append(str(error))
            break
        if not tutorial.accepts(index, moves, model):
            found.append(f"{tutorial.game} step {index}: its model move {model} is refused")
        if not tutorial.accepts(index, moves, moves[index]):
            found.append(f"{tutorial.game} step {index}: {moves[index]} is not accepted")
            break
        found += [f"{tutorial.game} step {index}: {c}" for c in tutorial.claims_hold(index, moves)]
        for action in engine.legal_actions(state, LEARNER):
            if not tutorial.accepts(index, moves, action):
                rule = tutorial.explain(index, action, moves).rule
                if rule not in (*tutorial.rules, ELSEWHERE):
                    found.append(f"{tutorial.game} step {index}: {action} has no rule ({rule})")
    return found


def untaught(tutorial: Tutorial) -> list[str]:
    """The syllabus' rules no step teaches, and the steps' rules not in the syllabus."""
    taught = {rule for step in tutorial.steps for rule in step.teaches}
    return sorted(set(tutorial.syllabus) ^ taught)


def followed(tutorial: Tutorial, path: Sequence[Action]) -> Path:
    """``path`` taken on to the lesson's end by the model moves (what 💡 shows)."""
    moves = tuple(tuple(move) for move in path)
    for index in range(len(moves), len(tutorial)):
        moves = (*moves, tutorial.model(index, moves))
    return moves


def random_path(tutorial: Tutorial, rng: Any) -> Path:
    """A learner who makes a random accepted move at every step (``rng``: a
    ``random.Random``), as far as the lesson goes."""
    path: Path = ()
    for index in range(len(tutorial)):
        try:
            accepted = tutorial.accepted(index, path)
        except LookupError:
            break
        if not accepted:
            break
        path = (*path, rng.choice(accepted))
    return path
