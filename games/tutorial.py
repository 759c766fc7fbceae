"""Tutorials: a short scripted match per game, as data beside its engine.

A tutorial is the engine with a seeded deal, the learner's moves (one per step: the move the
step teaches) and the opponents' moves written down. Each step names its caption (a key:
the words are presentation, in ``locales/*/LC_MESSAGES/tutorial.po``) and the claims that
caption makes about the table (:class:`Claim`: a predicate of the game's tutorial module,
so a test can check that every caption tells the truth at its step). A move other than the
taught one is answered with the rule that speaks against it: the game's ``why`` names it
(a key, and the numbers its sentence needs), from the engine's own facts.

Every game's script is ``games/<package>/tutorial.py``'s ``TUTORIAL``; the learner is seat 0.
Nothing here knows Telegram or a language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from games import GAME_MODULES, get_engine, package_name
from games.core import Action, IllegalAction, State

LEARNER = 0  # the learner's seat in every tutorial
MAX_STEPS = 15


@dataclass(frozen=True)
class Claim:
    """Something a step's caption says about the table, checked on the state before the
    step's move (``name`` is a predicate of the game's tutorial: ``(state, move, *args)``)."""

    name: str
    args: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    """One step: its caption's key, the move it teaches the learner, the claims its caption
    makes, and the moves the others make after it (written down: ``(seat, action)``)."""

    key: str
    move: Action
    claims: tuple[Claim, ...] = ()
    replies: tuple[tuple[int, Action], ...] = ()


@dataclass(frozen=True)
class Why:
    """Why a move is not the step's: a rule's key (``tutorial.<game>.why.<rule>``) and the
    numbers its sentence names (presentation turns a colour's number into its name)."""

    rule: str
    values: Mapping[str, int] = field(default_factory=dict)


Predicate = Callable[..., bool]
Explain = Callable[[State, Action, Action], Why]


@dataclass(frozen=True, eq=False)  # compared and cached by identity: one per game
class Tutorial:
    game: str
    players: int
    seed: int
    steps: tuple[Step, ...]
    predicates: Mapping[str, Predicate]
    why: Explain  # (state, taught move, pressed move) -> the rule against the pressed one
    rules: tuple[str, ...]  # every rule ``why`` may name (each has a sentence per language)
    options: Mapping[str, Any] = field(default_factory=dict)
    opening: tuple[tuple[int, Action], ...] = ()  # the others' moves before the first step

    def __len__(self) -> int:
        return len(self.steps)

    def start(self) -> State:
        """The table when the first step begins: the deal, and the opening moves."""
        engine = get_engine(self.game)
        state = engine.new_game(self.players, dict(self.options), self.seed)
        for seat, action in self.opening:
            state = engine.apply(state, seat, action)
        return state

    def after(self, state: State, index: int) -> State:
        """The state after step ``index``'s move and the replies written under it."""
        engine = get_engine(self.game)
        step = self.steps[index]
        state = engine.apply(state, LEARNER, step.move)
        for seat, action in step.replies:
            state = engine.apply(state, seat, action)
        return state

    def state_at(self, index: int) -> State:
        """The table when step ``index`` begins (``len(self)``: after the last step)."""
        return _states(self)[index]

    def claims_hold(self, index: int) -> list[str]:
        """The claims of step ``index`` that do not hold (none, if its caption is true)."""
        step = self.steps[index]
        state = self.state_at(index)
        return [
            claim.name
            for claim in step.claims
            if not self.predicates[claim.name](state, step.move, *claim.args)
        ]

    def explain(self, index: int, pressed: Action) -> Why:
        """The rule against ``pressed`` at step ``index`` (legal or not)."""
        return self.why(self.state_at(index), self.steps[index].move, tuple(pressed))


@cache
def _states(tutorial: Tutorial) -> tuple[State, ...]:
    states = [tutorial.start()]
    for index in range(len(tutorial)):
        states.append(tutorial.after(states[-1], index))
    return tuple(states)


@cache
def get_tutorial(game: str) -> Tutorial:
    if game not in GAME_MODULES:
        raise KeyError(game)
    return import_module(f"games.{package_name(game)}.tutorial").TUTORIAL


def problems(tutorial: Tutorial) -> list[str]:
    """Everything wrong with a script, replayed through the engine: too many steps, a move
    that is illegal or out of turn, a claim that does not hold, an unnamed rule."""
    found = []
    engine = get_engine(tutorial.game)
    if not 1 <= len(tutorial) <= MAX_STEPS:
        found.append(f"{tutorial.game}: {len(tutorial)} steps")
    state = tutorial.start()
    for index, step in enumerate(tutorial.steps):
        if LEARNER not in engine.to_act(state):
            found.append(f"{tutorial.game} step {index}: the learner is not to act")
        if not engine.is_legal(state, LEARNER, step.move):
            found.append(f"{tutorial.game} step {index}: {step.move} is not legal")
            break
        found += [f"{tutorial.game} step {index}: {c}" for c in tutorial.claims_hold(index)]
        for action in engine.legal_actions(state, LEARNER):
            if tuple(action) != tuple(step.move):
                rule = tutorial.explain(index, action).rule
                if rule not in tutorial.rules:
                    found.append(f"{tutorial.game} step {index}: {action} has no rule ({rule})")
        try:
            state = tutorial.after(state, index)
        except IllegalAction as error:
            found.append(f"{tutorial.game} step {index}: a reply is illegal: {error}")
            break
    return found
