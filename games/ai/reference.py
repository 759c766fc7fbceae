"""The arena's outside yardstick: textbook Monte Carlo tree search, none of our heuristics.

Issue 29 measured our levels against an independent, public MCTS (1,000 iterations a
move). This is that kind of player, written from the textbook so that the arena can
measure against it on any machine: single-observer information-set MCTS as OpenSpiel's
``ismcts`` (Cowling, Powley and Whitehouse 2012) with random rollouts —

* each iteration imagines the hidden information anew with the game's sampler (a fair
  deal of what the seat cannot see: the one piece it shares with our levels, so that it
  never plays on a card it could not know);
* one tree, keyed by the sequence of joint moves, every seat choosing by UCB1 (C = √2)
  among its moves available in this determinisation, for its own share of the win;
  seats acting at once choose independently;
* one node added per iteration, then **uniformly random moves to the game's end**, where
  the value is each seat's share of the win (1, 1/k for a k-way tie, 0);
* the move is the most visited at the root.

It uses no normal player, no evaluation and no horizon: its strength comes from the
search alone, as a player from outside the project would.
"""

from __future__ import annotations

import math
import random

from games.ai.base import GameAI
from games.core import Action, State, View

ITERATIONS = 1000  # as the outside search
EXPLORATION = math.sqrt(2)  # UCB1's constant, for values in [0, 1]


class Node:
    __slots__ = ("children", "stats", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[tuple[int, Action], ...], Node] = {}
        # (seat, action) -> [visits, summed win share]
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


def iterate(ai: GameAI, root: Node, state: State, rng: random.Random) -> None:
    engine = ai.engine
    node: Node | None = root
    path: list[tuple[Node, int, Action]] = []
    while node is not None and not engine.is_over(state):
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
    while not engine.is_over(state):  # random moves, simultaneous ones chosen blind
        joint = [
            (acting, rng.choice(engine.legal_actions(state, acting)))
            for acting in sorted(engine.to_act(state))
        ]
        for acting, action in joint:
            state = engine.apply(state, acting, action)
    winners = engine.result(state).winners
    for node_on_path, acting, action in path:
        stat = node_on_path.stats[(acting, action)]
        stat[0] += 1
        stat[1] += 1 / len(winners) if acting in winners else 0.0


def ucb(node: Node, seat: int, legal: list[Action]) -> Action:
    """UCB1 among the moves available here; an untried one first (the first listed).
    The parent count is the visits of the moves available in this determinisation."""
    stats = []
    for action in legal:
        stat = node.stats.get((seat, action))
        if stat is None:
            node.stats[(seat, action)] = [0, 0.0]
            return action
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
