"""What every game's AI module provides to the shared levels and search.

A game AI sees what a human in its seat would see: the engine's ``view(state, seat)`` and
that seat's legal actions. Its heuristics (:meth:`GameAI.action_values`) read the view
only. The search of the hard level imagines the hidden information with
:meth:`GameAI.sample`, which builds a full state that agrees with the view, and plays it
out with the engine; inside such an imagined state every seat decides from its own view
of it, as in a real game.
"""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import Literal

from games.core import Action, Engine, State, View


@dataclass(frozen=True)
class Budget:
    """The hard level's search budget: a count of simulations, never a clock, so that a
    seed always gives the same move on any machine.

    ``candidates``: how many of the normal player's best moves are searched;
    ``samples``: imagined states (determinisations) per candidate, the same ones for
    every candidate so that their comparison is fair; ``rollout_moves``: a safety cap on
    the moves of one playout.
    """

    candidates: int
    samples: int
    rollout_moves: int = 400


class GameAI(abc.ABC):
    """One game's heuristics, state sampling and search settings."""

    engine: Engine
    budget: Budget
    # Hint: how many imagined continuations estimate the final score.
    hint_samples: int = 6
    # Scores are penalties (Who's the Donkey?): the hint's expected score is one.
    lower_is_better: bool = False
    # Easy: the share of decisions made by a uniformly random legal move.
    easy_blunder_rate: float = 0.35
    # Hard (``games.ai.ismcts``): iterations per decision, about 1 s on a 2-core machine
    # with the bot's workers busy; the exploration bonus, in the evaluation's points; how
    # sharply the normal player's estimates (points) shape the prior.
    iterations: int = 400
    exploration: float = 4.0
    prior_temperature: float = 1.0
    # Hard: the others' exploration bonus, a multiple of ``exploration``. Above 1 their
    # choices in the search spread over the moves the normal player considers (in
    # proportion to its preference) instead of settling on the one answer the search likes
    # best for them: a softer model of players who do not search.
    opponent_exploration: float = 1.0
    # Hard: compare the root's moves on the same imagined deals (``games.ai.ismcts.grow``),
    # the ``budget.candidates`` best of the normal player's, where luck is large.
    paired_root: bool = False
    # Hard: "tree", the tree search (``games.ai.ismcts``); or "flat", hard-v1's search over
    # the normal player's best moves (``games.ai.search``), for a game where the tree search
    # plays no better for its CPU (5211: docs/ai.md, "The hard level in 5211").
    hard_search: Literal["tree", "flat"] = "tree"

    # -- seeing ------------------------------------------------------------------------
    @abc.abstractmethod
    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A full state whose ``view(state, seat)`` equals ``view``: the hidden information
        (other hands, the bag's order, unrevealed bids, the future shuffles) drawn at
        random among the possibilities the view leaves open. Never shares a list with
        ``view``."""

    def search_sample(self, view: View, seat: int, rng: random.Random) -> State:
        """The tree search's imagined state (``games.ai.ismcts``): :meth:`sample`, unless a
        game weighs the possibilities by what the others' moves say of them. (hard-v1 and
        the reference keep :meth:`sample`.)"""
        return self.sample(view, seat, rng)

    # -- deciding ----------------------------------------------------------------------
    @abc.abstractmethod
    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        """The normal player's estimate of each legal action, higher is better (points).
        ``rng`` serves games whose estimate imagines the unseen cards."""

    def normal(self, view: View, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The best action by :meth:`action_values`; the first listed wins a tie."""
        if len(legal) == 1:
            return legal[0]
        values = self.action_values(view, seat, legal, rng)
        best = max(range(len(legal)), key=values.__getitem__)
        return legal[best]

    def playout_view(self, state: State, seat: int) -> View:
        """What :meth:`normal` is given in a playout: ``engine.view(state, seat)``, or a
        cheaper dict with the same values for every key that :meth:`action_values` reads
        (a playout decides hundreds of times per search)."""
        return self.engine.view(state, seat)

    def candidates(
        self, view: View, seat: int, legal: list[Action], count: int, rng: random.Random
    ) -> list[Action]:
        """The ``count`` best actions by :meth:`action_values`, best first."""
        values = self.action_values(view, seat, legal, rng)
        order = sorted(range(len(legal)), key=lambda index: (-values[index], index))
        return [legal[index] for index in order[:count]]

    # -- searching ---------------------------------------------------------------------
    @abc.abstractmethod
    def horizon_reached(self, start: State, state: State) -> bool:
        """Whether a search from ``start`` (the imagined state before the seat's move) has
        gone far enough to be evaluated: the end of a round, a hand... The game's end
        always stops it."""

    @abc.abstractmethod
    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        """How good an imagined ``state``, reached by a search from ``start``, is for
        ``seat``, in points: its lead over the others, counting what is already on its
        way (a fuller line, a stronger hand). ``rng`` is seeded alike for every candidate
        move in one imagined state."""

    def search_value(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        """The tree search's value of ``state`` where it stopped (``games.ai.ismcts``):
        :meth:`evaluate`, unless a game foresees better what a horizon's position becomes.
        (hard-v1's flat search keeps :meth:`evaluate`: the arena's baseline stays as it was.)"""
        return self.evaluate(start, state, seat, rng)

    def budget_for(self, view: View) -> Budget:
        """The hard level's budget for this decision (games may spend more where a
        playout is cheap)."""
        return self.budget
