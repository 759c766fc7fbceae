"""Search shared by every game: determinised playouts guided by the normal player.

The hard level is a flat Monte Carlo search over the normal player's best moves: each
candidate is played in the same imagined states (common random numbers make the
comparison fair with few samples), every seat then plays on as the normal player until
the game's horizon (the end of a round or hand), and the candidate with the best mean
evaluation is chosen. With the normal player as the playout policy this is a rollout
algorithm: it keeps the normal player's strengths and corrects its short-sightedness.
"""

from __future__ import annotations

import random

from games.ai.base import GameAI
from games.core import Action, State, View


def playout(ai: GameAI, state: State, rng: random.Random, start: State | None, moves: int) -> State:
    """Play ``state`` on with the normal player in every seat, each deciding from its own
    view, until the horizon of a search begun at ``start`` (none: no horizon), the end of
    the game, or ``moves`` moves."""
    engine = ai.engine
    while moves > 0 and not engine.is_over(state):
        if start is not None and ai.horizon_reached(start, state):
            break
        # Simultaneous choices are all made before any is applied: none sees another.
        decisions = []
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            if len(legal) == 1:  # forced: no view to build (``normal`` would not read it)
                decisions.append((seat, legal[0]))
            else:
                decisions.append((seat, ai.normal(ai.playout_view(state, seat), seat, legal, rng)))
        for seat, action in decisions:
            state = engine.apply(state, seat, action)
        moves -= len(decisions)
    return state


def hard_choice(
    ai: GameAI, view: View, seat: int, legal: list[Action], rng: random.Random
) -> Action:
    """The candidate with the best mean evaluation over the budget's imagined states."""
    budget = ai.budget_for(view)
    candidates = ai.candidates(view, seat, legal, budget.candidates, rng)
    if len(candidates) == 1:
        return candidates[0]
    engine = ai.engine
    totals = [0.0] * len(candidates)
    for _ in range(budget.samples):
        world = ai.sample(view, seat, rng)
        playout_rng = random.Random(rng.getrandbits(64))
        # Seats choosing at the same time as this one cannot see its choice: their moves
        # are the same for every candidate, so they are decided once per imagined state.
        others = []
        for other in sorted(engine.to_act(world) - {seat}):
            other_view = engine.view(world, other)
            other_legal = engine.legal_actions(world, other)
            others.append((other, ai.normal(other_view, other, other_legal, playout_rng)))
        playout_seed = playout_rng.getrandbits(64)
        for index, action in enumerate(candidates):
            after = engine.apply(world, seat, action)
            for other, move in others:
                after = engine.apply(after, other, move)
            end = playout(ai, after, random.Random(playout_seed), world, budget.rollout_moves)
            totals[index] += ai.evaluate(world, end, seat, random.Random(playout_seed))
    best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
    return candidates[best]


def expected_final_score(
    ai: GameAI, view: View, seat: int, action: Action, rng: random.Random, samples: int
) -> float:
    """The seat's mean final score (penalty, where lower is better) over ``samples``
    imagined continuations in which it plays ``action`` and everyone then plays normal."""
    engine = ai.engine
    total = 0.0
    for _ in range(samples):
        world = ai.sample(view, seat, rng)
        state = engine.apply(world, seat, action)
        end = playout(ai, state, rng, None, 100_000)
        total += engine.result(end).scores[seat]
    return total / samples
