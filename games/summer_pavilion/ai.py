"""Summer Pavilion AI: a greedy player for the normal level, playouts to the round's end
for hard.

The normal player counts tiles as currency. Taking: the tiles it can use (up to what the
cheapest open spaces of their colour cost), a wild tile above all, less the points the
first-player tile costs. Placing: the points now, the bonus tiles, the star and number
bonuses it completes or comes closer to, the tiles it would otherwise discard when
passing, less the worth of the tiles spent; it passes when no placement is worth it.
Bonus and corner tiles: the colours it can use, the next round's wild colour first.
"""

from __future__ import annotations

import random

from games.ai.base import Budget, GameAI
from games.core import Action, State, View
from games.summer_pavilion.engine import (
    CENTRE,
    CORNERS,
    DONE,
    EMPTY,
    ENGINE,
    KEEP,
    MULTICOLOUR_VALUE,
    NUM_STARS,
    NUMBER_BONUSES,
    NUMBER_SPACES,
    PASS,
    ROUNDS,
    STAR_COLOURS,
    STAR_VALUES,
    STRUCTURE_BONUS,
    STRUCTURES,
    complete_star_value,
    completed_structures,
    numbers_of,
    ring_points,
    star_accepts,
)
from games.summer_pavilion.sampling import sample_state

# Tiles of a colour are fully useful up to the cost of its cheapest open spaces.
DEMAND_SPACES = 3
SURPLUS_TILE = 0.25  # a tile beyond that demand
WILD_TILE = 1.3  # a wild tile (any colour this round)
BONUS_TILE = 1.0  # a bonus tile from the supply
TILE_WORTH = 0.35  # a tile spent on a placement, as currency for later
WILD_WORTH = 0.6
STAR_PROGRESS = 0.06  # share of a star's end bonus per tile placed on it (weighted by fill)
NUMBER_PROGRESS = 0.1  # share of a number bonus per space of that number covered
MARKER_WORTH = 0.5  # starting the next round
HELD_TILE = 0.5  # evaluation: a tile in hand or on a corner after the round
POTENTIAL_SHARE = 0.5  # evaluation: share of the end bonuses a partly filled board promises


def flat_board(board: list[list[int]]) -> list[int]:
    return [tile for star in board for tile in star]


def star_value(board: list[int], star: int, variant1: bool) -> int:
    """The end bonus ``star`` would bring if completed, judged from its tiles so far."""
    if not variant1:
        return MULTICOLOUR_VALUE if star == CENTRE else STAR_VALUES[STAR_COLOURS[star]]
    placed = [tile for tile in board[star * 6 : star * 6 + 6] if tile != EMPTY]
    if len(placed) >= 2 and placed[0] == placed[1]:
        return STAR_VALUES[placed[0]]
    return MULTICOLOUR_VALUE


# NUMBER_TILES[variant1][number]: the tiles on every space printed with a number that has
# an end bonus (the engine's ``NUMBER_SPACES``, by number)
NUMBER_TILES = [{number: tiles for number, _, tiles in spaces} for spaces in NUMBER_SPACES]


class Seat:
    """What the heuristics need about one seat, read from a view."""

    def __init__(self, view: View, seat: int):
        player = view["players"][seat]
        self.hand = player["hand"]
        self.board = flat_board(player["board"])
        self.variant1 = view["options"]["variant1"]
        self.numbers = numbers_of(view["options"])
        self.wild = view["wild"]
        self.next_wild = view["next_wild"]
        self.score = player["score"]
        self._demand: dict[int, int] = {}

    def open_costs(self, colour: int) -> list[int]:
        board = self.board
        return sorted(
            self.numbers[star][offset]
            for star in range(NUM_STARS)
            if star_accepts(board, star, colour, self.variant1)
            for offset in range(6)
            if board[star * 6 + offset] == EMPTY
        )

    def demand(self, colour: int) -> int:
        if colour not in self._demand:
            self._demand[colour] = sum(self.open_costs(colour)[:DEMAND_SPACES])
        return self._demand[colour]

    def tiles_value(self, colour: int, count: int) -> float:
        """The worth of ``count`` more tiles of ``colour`` (not the wild colour)."""
        room = max(0, self.demand(colour) - self.hand[colour])
        useful = min(room, count)
        return useful + SURPLUS_TILE * (count - useful)

    def usefulness(self, colour: int, wild: int) -> float:
        if colour == wild:
            return WILD_TILE + 0.01 * self.demand(colour)
        return self.tiles_value(colour, 1) + 0.01 * self.demand(colour)


class SummerPavilionAI(GameAI):
    engine = ENGINE
    budget = Budget(candidates=8, samples=2)
    iterations = 750  # the tree search's 1×: 0.6–0.8 s of CPU when all run (docs/ai.md)

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        return sample_state(view, seat, rng)

    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        me = Seat(view, seat)
        phase = view["phase"]
        if phase == "taking":
            return [self.take_value(view, me, action) for action in legal]
        if phase == "placing":
            excess = max(0, sum(me.hand) - CORNERS)
            supply = sum(view["supply"])
            return [
                0.0 if action[0] == PASS else self.place_value(me, action, excess, supply)
                for action in legal
            ]
        if phase == "bonus":
            return [me.usefulness(action[1], me.wild) for action in legal]
        # keeping: free in rounds 1-5 (the tiles come back); in the last round a kept tile
        # costs a point at the end, as a discarded one does now
        last = view["round"] == ROUNDS
        values = []
        for action in legal:
            if action[0] == DONE:
                values.append(1.0 if last else -1.0)
            elif action[0] == KEEP:
                colour = action[1]
                wild_next = me.next_wild is not None and colour == me.next_wild
                values.append(me.usefulness(colour, me.next_wild if wild_next else -1))
        return values

    @staticmethod
    def take_value(view: View, me: Seat, action: Action) -> float:
        _, source, colour = action
        tiles = view["centre"] if source == 0 else view["factories"][source - 1]
        wild = me.wild
        if colour == wild:
            count, extra = 0, 1
        else:
            count, extra = tiles[colour], int(tiles[wild] > 0)
        value = (me.tiles_value(colour, count) + WILD_TILE * extra) if count else WILD_TILE
        if source == 0 and view["first_player_tile"] < 0:
            value -= min(count + extra, me.score) - MARKER_WORTH
        return value

    @staticmethod
    def place_value(me: Seat, action: Action, excess: int, supply: int) -> float:
        _, star, space, colour, wilds = action
        board = me.board
        index = star * 6 + space - 1
        cost = me.numbers[star][space - 1]
        board[index] = colour
        try:
            value = float(ring_points(board, index))
            done = completed_structures(board, index)
            bonus = sum(STRUCTURE_BONUS[STRUCTURES[sid][0]] for sid in done)
            value += BONUS_TILE * min(bonus, supply)
            filled = 6 - board[star * 6 : star * 6 + 6].count(EMPTY)
            completed = complete_star_value(board, star)
            if completed:
                value += completed
            else:
                value += STAR_PROGRESS * star_value(board, star, me.variant1) * filled / 6 * 2
            number = me.numbers[star][space - 1]
            if number in NUMBER_BONUSES:
                tiles = NUMBER_TILES[me.variant1][number](board)
                spaces = len(tiles)
                covered = spaces - tiles.count(EMPTY)
                if covered == spaces:
                    value += NUMBER_BONUSES[number]
                else:
                    value += NUMBER_PROGRESS * NUMBER_BONUSES[number] * covered / spaces
        finally:
            board[index] = EMPTY
        value += min(cost, excess)  # tiles that would be discarded when passing
        value -= TILE_WORTH * (cost - wilds) + WILD_WORTH * wilds
        return value

    def horizon_reached(self, start: State, state: State) -> bool:
        return state["round"] != start["round"]

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        standings = [self.standing(state, other) for other in range(state["num_players"])]
        mine = standings.pop(seat)
        return mine - max(standings)

    @staticmethod
    def standing(state: State, seat: int) -> float:
        """The score plus what the board and the kept tiles promise for the rounds left."""
        score = float(state["scores"][seat])
        if state["phase"] == "over":
            return score
        rounds_left = ROUNDS - state["round"] + 1
        held = sum(state["hands"][seat]) + sum(state["corners"][seat])
        score += HELD_TILE * held
        board = state["boards"][seat]
        variant1 = state["options"]["variant1"]
        share = POTENTIAL_SHARE * min(1.0, rounds_left / 3)
        for star in range(NUM_STARS):
            filled = 6 - board[star * 6 : star * 6 + 6].count(EMPTY)
            if filled:
                score += share * star_value(board, star, variant1) * (filled / 6) ** 2
        for _, bonus, tiles_of in NUMBER_SPACES[variant1]:
            tiles = tiles_of(board)
            covered = len(tiles) - tiles.count(EMPTY)
            score += share * bonus * (covered / len(tiles)) ** 2
        return score


AI = SummerPavilionAI()
