"""The hard level's search: information-set Monte Carlo tree search.

Each iteration imagines the hidden information anew (:meth:`GameAI.search_sample`: a full
state that agrees with the searching seat's view, a *determinisation*; in Sultan the cards
under the others' face-down bids are drawn by how likely a good player would have made
those bids) and walks one tree shared by all of them, as in Cowling, Powley and
Whitehouse's *Information Set Monte Carlo Tree Search* (IEEE TCIAIG 2012; OpenSpiel's
``ismcts`` is the single-observer form). Since the tree is shared, a move is judged over
many possible hands of the others, never over one it could not know.

* **One tree per seat** (their multiple-observer form): each seat's tree follows what
  that seat saw — its own moves whole, and the public events the moves logged (the
  engine's ``log``, public by contract: a Sultan bid's cushion, not its card; a 5211
  choice not at all, then every card at the reveal). Each seat chooses in its own tree,
  so no seat's choice can depend on a card it could not see, and a choice after a reveal
  can depend on what the reveal showed.

* **Every seat plays for itself** (max^n): a node keeps, for the seat acting there and
  each of its actions, the visits and the summed value *for that seat*. An opponent's
  actions differ between determinisations (its hand): the exploration counts only the
  visits of the actions available in this one. The opponents are searched as strong
  players, not assumed to play our normal level.
* **Simultaneous choices are decoupled**: each seat acting at once picks from its own
  statistics, and none sees the others' choice.
* **Selection** is PUCT (as in AlphaZero): the mean value plus an exploration bonus
  weighted by a prior, the normal player's preference (a softmax of its estimates), so
  the search spends its first iterations on the moves a good player considers.
* **Playouts** go on with the normal player in every seat, each deciding from its own view,
  to the game's horizon (the end of a round or hand), where :meth:`GameAI.search_value`
  values the position for every seat — the end bonuses, floor and marker in the tile
  games, the sets in Sultan (what they foresee, with two players), the score race in 5211,
  the penalty risk in Who's the Donkey?.
* **The move** is the searching seat's most visited action at the root.
* **Where luck is large** (the card games' ``paired_root``) the root's candidates, the
  normal player's best few, are compared on the same imagined deals with the same dice —
  the flat search's common random numbers — and the best mean wins (:func:`grow`).

The budget is a number of iterations (the arena's ``--budget``: the same seed always gives
the same move; a paired search rounds it up to whole deals) or a wall-clock time (the
bot's workers), whichever ends first.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from games.ai.base import GameAI
from games.ai.search import playout
from games.core import Action, State, View

# How often the clock is read: every this many iterations.
CLOCK_EVERY = 8


@dataclass(frozen=True)
class Limit:
    """When a search stops: after ``iterations``, or once ``seconds`` of wall time have
    passed (None: no clock, as in the arena), whichever comes first."""

    iterations: int
    seconds: float | None = None


class Stat:
    """One action of one seat at one node."""

    __slots__ = ("estimate", "total", "visits")

    def __init__(self, estimate: float) -> None:
        self.visits = 0
        self.total = 0.0
        self.estimate = estimate  # the normal player's value of the action (the prior)


class Node:
    """A point of the shared tree: reached by a sequence of (joint) actions."""

    __slots__ = ("children", "priors", "stats")

    def __init__(self) -> None:
        # keyed by what the tree's owner saw: (its own moves, the public events logged)
        self.children: dict[tuple[tuple[Action, ...], tuple[str, ...]], Node] = {}
        self.stats: dict[int, dict[Action, Stat]] = {}
        # by seat, the last legal actions it had here, their stats and prior shares: the
        # same actions come back in most determinisations, and the softmax is not redone
        self.priors: dict[int, tuple[tuple[Action, ...], list[Stat], list[float]]] = {}


def search(
    ai: GameAI, view: View, seat: int, legal: list[Action], rng: random.Random, limit: Limit
) -> Action:
    """The searching seat's most visited action at the root (then the best mean, then the
    first listed)."""
    table = grow(ai, view, seat, legal, rng, limit)[seat].stats.get(seat, {})
    order = {action: index for index, action in enumerate(legal)}

    def rank(action: Action) -> tuple[int, float, int]:
        stat = table.get(action)
        if stat is None or not stat.visits:
            return (0, -math.inf, -order[action])
        return (stat.visits, stat.total / stat.visits, -order[action])

    return max(legal, key=rank)


def grow(
    ai: GameAI, view: View, seat: int, legal: list[Action], rng: random.Random, limit: Limit
) -> list[Node]:
    """Every seat's tree after the budget's iterations, each in a new determinisation; it
    stops sooner once the searching seat's most visited action cannot be caught up.

    Where the game's luck is large (``GameAI.paired_root``: hidden hands, cards to come)
    the root's moves are compared on the same imagined deals, as the flat search did:
    each deal is played once under each of the normal player's best moves, with the same
    dice and the same choices of the seats acting at once (they cannot see ours), and
    the best mean wins. Below the root the trees search on as above."""
    roots = [Node() for _ in range(view["num_players"])]
    priors = random.Random(rng.getrandbits(64))
    deadline = None if limit.seconds is None else time.perf_counter() + limit.seconds
    candidates = (
        ai.candidates(view, seat, legal, ai.budget.candidates, priors) if ai.paired_root else []
    )
    done = 0
    while done < limit.iterations:
        world = ai.search_sample(view, seat, rng)
        if candidates:
            done += paired_iterations(ai, roots, world, seat, candidates, rng, priors)
        else:
            iterate(ai, roots, world, seat, rng, priors)
            done += 1
            if decided(roots[seat], seat, limit.iterations - done):
                break
        clock_due = candidates or done % CLOCK_EVERY == 0  # a paired round is long
        if deadline is not None and clock_due and time.perf_counter() > deadline:
            break
    return roots


def paired_iterations(
    ai: GameAI,
    roots: list[Node],
    world: State,
    seat: int,
    candidates: list[Action],
    rng: random.Random,
    priors: random.Random,
) -> int:
    """One imagined deal played under each candidate move: the same dice, and the same
    choices of the others acting at once, chosen in their own trees. Returns the
    iterations spent."""
    others = {
        other: select(ai, roots[other], world, other, priors, exploration(ai, seat, other))
        for other in sorted(ai.engine.to_act(world))
        if other != seat
    }
    dice = rng.getrandbits(64)
    for action in candidates:
        iterate(ai, roots, world, seat, random.Random(dice), priors, {**others, seat: action})
    return len(candidates)


def decided(root: Node, seat: int, remaining: int) -> bool:
    """Whether the most visited root action can no longer be caught up."""
    visits = sorted((stat.visits for stat in root.stats.get(seat, {}).values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > remaining


def iterate(
    ai: GameAI,
    roots: list[Node],
    world: State,
    seat: int,
    rng: random.Random,
    priors: random.Random,
    first: dict[int, Action] | None = None,
) -> None:
    """One iteration in one determinisation: walk every seat's tree at once, each seat
    choosing in its own, until a tree grows a node; play out to the horizon; add each
    seat's value to the actions it took. ``priors`` serves the normal player's estimates
    (the games that imagine unseen cards for them): a generator of their own, so that the
    playouts' draws do not depend on how many priors were computed. ``first``: the moves
    of the first step, chosen already (:func:`paired_iterations`)."""
    engine = ai.engine
    nodes, state = list(roots), world
    taken: list[tuple[Node, int, Action]] = []  # (a node of the seat's tree, seat, action)
    grown = False
    while not grown and not engine.is_over(state):
        if taken and ai.horizon_reached(world, state):
            break
        chosen = first if first is not None and not taken else {}
        joint = []
        for acting in sorted(engine.to_act(state)):
            if acting in chosen:
                action = chosen[acting]
                stat_of(nodes[acting], acting, action)  # its visits are counted below
            else:
                action = select(
                    ai, nodes[acting], state, acting, priors, exploration(ai, seat, acting)
                )
            joint.append((acting, action))
        logged = len(state["log"])
        for acting, action in joint:
            taken.append((nodes[acting], acting, action))
            state = engine.apply(state, acting, action)
        # what everyone saw: the public events the moves logged (a Sultan bid's cushion,
        # not its card; a 5211 choice not at all, then the cards at the reveal)
        seen = tuple(repr(event) for event in state["log"][logged:])
        for owner, node in enumerate(nodes):
            # each tree's owner also knows its own move whole
            key = (tuple(action for acting, action in joint if acting == owner), seen)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                grown = True
            nodes[owner] = child
    end = playout(ai, state, rng, world, ai.budget.rollout_moves)
    values = [ai.search_value(world, end, other, rng) for other in range(end["num_players"])]
    for node, acting, action in taken:
        stat = node.stats[acting][action]
        stat.visits += 1
        stat.total += values[acting]


def stat_of(node: Node, seat: int, action: Action) -> Stat:
    """The seat's statistics of ``action`` at ``node``, made (without a prior) if new."""
    table = node.stats.setdefault(seat, {})
    stat = table.get(action)
    if stat is None:
        stat = table[action] = Stat(0.0)
    return stat


def exploration(ai: GameAI, searcher: int, seat: int) -> float:
    """The exploration bonus of ``seat``'s choices in a search for ``searcher``: the
    others' are scaled by ``GameAI.opponent_exploration`` (above 1: their choices spread
    over the moves the normal player considers)."""
    return ai.exploration if seat == searcher else ai.exploration * ai.opponent_exploration


def select(
    ai: GameAI, node: Node, state: State, seat: int, priors: random.Random, bonus: float
) -> Action:
    """PUCT among the seat's actions available in this determinisation (their visits are the
    parent's count), the normal player's softmax as the prior, ``bonus`` the exploration
    constant; an action never tried is valued at the mean of those tried."""
    engine = ai.engine
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        stat_of(node, seat, legal[0])
        return legal[0]
    moves = tuple(legal)
    known = node.priors.get(seat)
    if known is not None and known[0] == moves:
        _, stats, shares = known
    else:
        stats, shares = priors_of(ai, node, state, seat, legal, priors)
        node.priors[seat] = (moves, stats, shares)
    visits = sum(stat.visits for stat in stats)
    mean = sum(stat.total for stat in stats) / visits if visits else 0.0
    scale = bonus * math.sqrt(max(1, visits))
    best, best_score = legal[0], -math.inf
    for action, stat, share in zip(legal, stats, shares, strict=True):
        value = stat.total / stat.visits if stat.visits else mean
        score = value + scale * share / (1 + stat.visits)
        if score > best_score:
            best, best_score = action, score
    return best


def priors_of(
    ai: GameAI, node: Node, state: State, seat: int, legal: list[Action], priors: random.Random
) -> tuple[list[Stat], list[float]]:
    """The seat's statistics of each of ``legal`` at ``node`` (made, with the normal
    player's estimate, for the actions new here) and each one's share of the prior."""
    table = node.stats.setdefault(seat, {})
    missing = [action for action in legal if action not in table]
    if missing:
        view = ai.engine.view(state, seat)
        estimates = ai.action_values(view, seat, missing, priors)
        for action, estimate in zip(missing, estimates, strict=True):
            table[action] = Stat(estimate)
    stats = [table[action] for action in legal]
    top = max(stat.estimate for stat in stats)
    weights = [math.exp((stat.estimate - top) / ai.prior_temperature) for stat in stats]
    norm = sum(weights)
    return stats, [weight / norm for weight in weights]
