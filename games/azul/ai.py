"""Azul AI: a greedy drafter for the normal level, playouts to the round's end for hard.

The normal player values a draft by the points it brings when the round's tiles go to
the wall (with the lines already full placed first), the progress towards row, column
and colour bonuses, a share of that for a line it only starts or fills further, and the
floor penalty it costs (the first-player marker included).
"""

from __future__ import annotations

import random

from games.ai.base import Budget, GameAI
from games.azul.engine import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    EMPTY,
    ENGINE,
    FLOOR_LINE,
    FLOOR_SPACES,
    NUM_COLOURS,
    ROW_BONUS,
    SIZE,
    colour_column,
    floor_penalty,
    grey_columns,
    placement_points,
)
from games.azul.sampling import sample_state
from games.core import Action, State, View

# How much of a full line's value a partly filled line is worth, per share filled.
PARTIAL_LINE_SHARE = 0.5
# A line that cannot be filled from the tiles left this round waits for later rounds.
CARRIED_OVER_SHARE = 0.6
# Progress towards the end bonuses: points per tile already in the row / column /
# colour that the new tile joins (a foretaste of the bonus, not the bonus itself).
ROW_PROGRESS = 0.1
COLUMN_PROGRESS = 0.4
COLOUR_PROGRESS = 0.4
# Holding the first-player marker next round is worth a little.
MARKER_VALUE = 0.5
# A full line whose colour fits no column of its grey row goes to the floor.
LOST_LINE_PENALTY = 1.5


def tile_value(wall: list[int], row: int, column: int, colour: int) -> float:
    """Points of a tile placed at (row, column) of ``wall``, plus bonus progress. ``wall``
    is only read (it may be a view's or a state's own list): the points of a placement
    count the neighbours, not the cell itself."""
    points = placement_points(wall, row, column)[0]
    in_row = SIZE - wall[row * SIZE : row * SIZE + SIZE].count(EMPTY)
    in_column = SIZE - wall[column : SIZE * SIZE : SIZE].count(EMPTY)
    of_colour = wall.count(colour)
    value = float(points)
    value += ROW_BONUS if in_row == SIZE - 1 else ROW_PROGRESS * in_row
    value += COLUMN_BONUS if in_column == SIZE - 1 else COLUMN_PROGRESS * in_column
    value += COLOUR_BONUS if of_colour == SIZE - 1 else COLOUR_PROGRESS * of_colour
    return value


def best_column(wall: list[int], row: int, colour: int, grey: bool) -> int | None:
    if not grey:
        return colour_column(row, colour)
    columns = grey_columns(wall, row, colour)
    if not columns:
        return None
    return max(columns, key=lambda column: (tile_value(wall, row, column, colour), -column))


def planned_wall(wall: list[int], colours: list[int], counts: list[int], grey: bool) -> list[int]:
    """The wall once the lines that are already full have been tiled (top row first)."""
    planned = list(wall)
    for row in range(SIZE):
        if counts[row] > row:
            column = best_column(planned, row, colours[row], grey)
            if column is not None:
                planned[row * SIZE + column] = colours[row]
    return planned


class AzulAI(GameAI):
    engine = ENGINE
    # The drafting is open information: one imagined future is enough for a playout that
    # stops when the round's tiles are placed.
    budget = Budget(candidates=12, samples=1)
    iterations = 2000  # the tree search's 1×: 0.6–0.8 s of CPU when all run (docs/ai.md)
    # The others' choices in the search spread over the moves a normal player considers: against
    # the normal level 0.925 of 40 games won, not 0.825; against hard-v1 0.917 of 60, not
    # 0.892 (docs/ai.md, "Against the normal level").
    opponent_exploration = 4.0

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        return sample_state(view, seat, rng)

    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        grey = view["options"]["wall"] == "grey"
        wall = view["walls"][seat]
        if view["phase"] == "wall":
            row = view["pending_rows"][seat]
            colour = view["line_colours"][seat][row]
            return [tile_value(wall, row, action[0], colour) for action in legal]
        colours = view["line_colours"][seat]
        counts = view["line_counts"][seat]
        planned = planned_wall(wall, colours, counts, grey)
        floor = len(view["floors"][seat])
        centre = view["centre_source"]
        marker_free = view["marker"] == EMPTY
        sources = [*view["factories"], view["centre"]]
        on_table = [sum(source[colour] for source in sources) for colour in range(NUM_COLOURS)]
        worth: dict[tuple[int, int], float | None] = {}
        values = []
        for source, colour, line in legal:
            count = sources[source][colour]
            marker = 1 if source == centre and marker_free else 0
            value = MARKER_VALUE * marker
            if line == FLOOR_LINE:
                overflow = count
            else:
                space = line + 1 - counts[line]
                placed = min(space, count)
                overflow = count - placed
                key = (line, colour)
                if key not in worth:
                    column = best_column(planned, line, colour, grey)
                    worth[key] = (
                        None if column is None else tile_value(planned, line, column, colour)
                    )
                tile = worth[key]
                if tile is None:
                    value -= LOST_LINE_PENALTY * (counts[line] + placed)
                elif placed == space:
                    value += tile
                else:
                    share = (counts[line] + placed) / (line + 1) * PARTIAL_LINE_SHARE
                    if on_table[colour] - count < space - placed:
                        share *= CARRIED_OVER_SHARE
                    value += tile * share
            lost = min(FLOOR_SPACES, floor + overflow + marker)
            value -= floor_penalty(lost) - floor_penalty(floor)
            values.append(value)
        return values

    def horizon_reached(self, start: State, state: State) -> bool:
        return state["round"] != start["round"]

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        mine = self.standing(state, seat)
        others = [self.standing(state, other) for other in range(state["num_players"])]
        del others[seat]
        return mine - max(others)

    @staticmethod
    def standing(state: State, seat: int) -> float:
        """The score plus what the wall and the lines already promise."""
        score = float(state["scores"][seat])
        if state["phase"] == "over":
            return score
        wall = state["walls"][seat]
        grey = state["options"]["wall"] == "grey"
        base = seat * SIZE
        colours = state["line_colours"][base : base + SIZE]
        counts = state["line_counts"][base : base + SIZE]
        for row in range(SIZE):
            if counts[row]:
                column = best_column(wall, row, colours[row], grey)
                if column is not None:
                    share = counts[row] / (row + 1) * PARTIAL_LINE_SHARE
                    score += share * tile_value(wall, row, column, colours[row])
        return score


AI = AzulAI()
