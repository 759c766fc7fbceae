"""AI players for every game: one interface, four levels.

    choose(game, level, view, seat, legal, seed) -> action
    hint(game, view, seat, legal, seed) -> Hint(action, expected_score, lower_is_better)

Both are pure functions of plain data (a seat's ``view`` from the engine, that seat's
``legal`` actions, an int ``seed``): cheap to send to a worker process, and the same
arguments always give the same answer. No AI ever sees the full state.

Levels: ``random`` (uniform legal moves, the arena's baseline), ``easy`` (the normal move,
but a random one about a third of the time), ``normal`` (each game's heuristic player, a few
milliseconds) and ``hard`` (information-set Monte Carlo tree search, ``games.ai.ismcts``:
about a second, or ``iterations``; in 5211 hard-v1's flat search, which plays as well there
for a seventh of the CPU: ``GameAI.hard_search``). ``hard-v1``, the hard level before it (a
flat search over the normal player's best moves, ``games.ai.search``), is kept for the arena
as a baseline and is not offered to players; so is ``reference``, textbook MCTS with random
playouts and none of our heuristics (``games.ai.reference``), the arena's outside yardstick.
Each game's module is ``games.<game>.ai`` and defines ``AI``, a
:class:`games.ai.base.GameAI`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from importlib import import_module
from typing import Literal

from games import GAME_MODULES
from games.ai.base import GameAI
from games.ai.ismcts import Limit, search
from games.ai.reference import reference_choice
from games.ai.search import expected_final_score, hard_choice
from games.core import Action, View

Level = Literal["random", "easy", "normal", "hard", "hard-v1", "reference"]
LEVELS: tuple[Level, ...] = ("random", "easy", "normal", "hard", "hard-v1", "reference")


@dataclass(frozen=True)
class Hint:
    """The normal player's move for a seat, and its expected final score (its penalty in
    games where ``lower_is_better``) if it plays that move and everyone then plays normal."""

    action: Action
    expected_score: float
    lower_is_better: bool


def game_ai(game: str) -> GameAI:
    if game not in GAME_MODULES:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(GAME_MODULES)}")
    return import_module(f"{GAME_MODULES[game]}.ai").AI


def choose(
    game: str,
    level: str,
    view: View,
    seat: int,
    legal: list[Action],
    seed: int,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Action:
    """The move of a ``level`` player in ``seat``, from its view and legal actions only.
    The hard level searches for ``iterations`` (by default the game's, about a second) or
    ``seconds`` of wall time, whichever ends first; without ``seconds`` the same seed
    always gives the same move."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    if not legal:
        raise ValueError(f"{game}: seat {seat} has no legal action")
    legal = [tuple(action) for action in legal]
    rng = random.Random(seed)
    if len(legal) == 1:
        return legal[0]
    if level == "random":
        return rng.choice(legal)
    ai = game_ai(game)
    if level == "easy":
        if rng.random() < ai.easy_blunder_rate:
            return rng.choice(legal)
        return ai.normal(view, seat, legal, rng)
    if level == "normal":
        return ai.normal(view, seat, legal, rng)
    if level == "hard-v1" or (level == "hard" and ai.hard_search == "flat"):
        return hard_choice(ai, view, seat, legal, rng)
    if level == "reference":
        return reference_choice(ai, view, seat, legal, rng)
    limit = Limit(ai.iterations if iterations is None else iterations, seconds)
    return search(ai, view, seat, legal, rng, limit)


def hint(game: str, view: View, seat: int, legal: list[Action], seed: int) -> Hint:
    """What the normal player would play here, and the final score it expects."""
    ai = game_ai(game)
    action = choose(game, "normal", view, seat, legal, seed)
    rng = random.Random(seed)
    expected = expected_final_score(ai, view, seat, action, rng, ai.hint_samples)
    return Hint(action, round(expected, 1), ai.lower_is_better)
