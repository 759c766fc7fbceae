"""The arena's outside yardstick: textbook Monte Carlo tree search, none of our heuristics.

Issue 29 measured our levels against an independent, public MCTS (1,000 iterations a
move). This is that kind of player, written from the textbook so that the arena can
measure against it on any machine: single-observer information-set MCTS as OpenSpiel's
``ismcts`` (Cowling, Powley and Whitehouse 2012) with random rollouts —

* each iteration imagines the hidden information anew with the game's sampler (a fair
  deal of what the seat cannot see: the one piece it shares with our levels, so that it
  never plays on a card it could not know);
* one tree, keyed by the sequence of joint moves, every seat choosing by UCB1 (C = √2)
  among its moves available in this determinisation, for its own value; seats acting at
  once choose independently;
* one node added per iteration, then **uniformly random moves to the end of the round**
  (the rules' round: Azul's tiling, Summer Pavilion's, a Sultan or 5211 round, a hand of
  Who's the Donkey?), as the public Azul agents do, where each seat's value is its lead in
  the rules' own score so far (``engine.result``; a penalty lead counts the other way),
  squashed into [0, 1] (a logistic of the lead over :data:`LEAD_SCALE` points);
* the move is the most visited at the root.

It uses no normal player and no evaluation of ours, only the rules' scores: its strength
comes from the search alone, as a player from outside the project would. (Random moves to
the game's end, with the win as the value, were measured first: too weak to be a
yardstick, docs/ai.md.)
"""

from __future__ import annotations

import math
import random

from games.ai.base import GameAI
from games.core import Action, State, View

ITERATIONS = 1000  # as the outside search
EXPLORATION = math.sqrt(2)  # UCB1's constant, for values in [0, 1]
LEAD_SCALE = 10.0  # points of lead that make a value of about 0.73


class Node:
    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[tuple[int, Action], ...], Node] = {}
        # (seat, action) -> [visits, summed value]
        self.stats: dict[tuple[int, Action], list[float]] = {}


def reference_choice(
    ai: GameAI,
    view: View,
    seat: int,
    legal: list[Action],
    rng: random.Random,
) -> Action:
    """The most visited root action after :data:`ITERATIONS` (then the first listed)."""
    root = Node()
    for _ in range(ITERATIONS):
        iterate(ai, root, ai.sample(view, seat, rng), rng)
    return max(
        legal,
        key=lambda action: (root.stats.get((seat, action), (0, 0.0))[0], -legal.index(action)),
    )


def iterate(ai: GameAI, root: Node, world: State, rng: random.Random) -> None:
    engine = ai.engine
    node: Node | None = root
    state = world
    path: list[tuple[Node, int, Action]] = []
    while node is not None and not engine.is_over(state):
        if path and ai.horizon_reached(world, state):
            break  # the round is over: nothing more to choose in it
        joint = tuple(
            (acting, ucb(node, acting, engine.legal_actions(state, acting)))
            for acting in sorted(engine.to_act(state))
        )
        for acting, action in joint:
            path.append((node, acting, action))
            state = engine.apply(state, acting, action)
        child = node.children.get(joint)
        if child is None:
            node.children[joint] = Node()  # grown: the rollout starts below it
            node = None
        else:
            node = child
    # random moves to the end of the round, simultaneous ones chosen blind
    while not engine.is_over(state) and not ai.horizon_reached(world, state):
        joint = [
            (acting, rng.choice(engine.legal_actions(state, acting)))
            for acting in sorted(engine.to_act(state))
        ]
        for acting, action in joint:
            state = engine.apply(state, acting, action)
    values = leads(engine.result(state).scores, ai.lower_is_better)
    for node_on_path, acting, action in path:
        stat = node_on_path.stats[(acting, action)]
        stat[0] += 1
        stat[1] += values[acting]


def leads(scores: list[int], lower_is_better: bool) -> list[float]:
    """Each seat's lead over the best of the others, squashed into [0, 1]."""
    sign = -1 if lower_is_better else 1
    values = []
    for seat, score in enumerate(scores):
        best_other = max(sign * other for index, other in enumerate(scores) if index != seat)
        values.append(1 / (1 + math.exp(-(sign * score - best_other) / LEAD_SCALE)))
    return values


def ucb(node: Node, seat: int, legal: list[Action]) -> Action:
    """UCB1 among the moves available here; an untried one first (the first listed).
    The parent count is the visits of the moves available in this determinisation."""
    stats = []
    for action in legal:
        stat = node.stats.setdefault((seat, action), [0, 0.0])
        if not stat[0]:
            return action
        stats.append(stat)
    log_total = math.log(sum(stat[0] for stat in stats))
    best = max(
        range(len(legal)),
        key=lambda index: (
            stats[index][1] / stats[index][0] + EXPLORATION * math.sqrt(log_total / stats[index][0])
        ),
    )
    return legal[best]
