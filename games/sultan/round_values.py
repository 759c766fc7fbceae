"""What a seat's gems at the end of a round are worth at the game's end, with two players:
the hard level's value where its search stops (:meth:`SultanAI.search_value`).

At a round's end the points held so far say little of what they become: four greens
after the first round usually grow into a set bonus, a lone blue rarely does, and a colour
the other player collects too grows more slowly. So the table holds, for each finished
round, colour, gems of it held and gems of it the other player holds, the mean of that
colour's final points (its gems' values and its set bonus) over games of the normal player
against itself. A cell seen fewer than :data:`MIN_GAMES` times falls back on the colour's
points now.

``python -m games.sultan.learn_round_values`` makes the table (``round_values.json``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from games.sultan.engine import GEM_VALUES, NUM_COLOURS, set_bonus

TABLE_FILE = Path(__file__).with_name("round_values.json")
PLAYERS = 2  # the table's games; other player counts keep SultanAI.evaluate
MIN_GAMES = 30  # a cell seen fewer times is noise: the colour's points now instead

# (round just finished, colour, gems of it held, gems of it the other player holds)
Key = tuple[int, int, int, int]


def colour_points(colour: int, count: int) -> int:
    """A colour's points at the game's end: its gems' values and its set bonus."""
    return count * GEM_VALUES[colour] + set_bonus(count, PLAYERS)


@cache
def table() -> dict[Key, float]:
    """The cells seen at least :data:`MIN_GAMES` times: the mean final points."""
    rows = json.loads(TABLE_FILE.read_text(encoding="utf-8"))["cells"]
    return {
        (finished, colour, mine, theirs): mean
        for finished, colour, mine, theirs, mean, games in rows
        if games >= MIN_GAMES
    }


def expected_points(finished: int, mine: list[int], theirs: list[int]) -> float:
    """A seat's final points foreseen at the end of round ``finished``, from its gems by
    colour (``mine``) and the other player's (``theirs``)."""
    cells = table()
    total = 0.0
    for colour in range(NUM_COLOURS):
        key = (finished, colour, mine[colour], theirs[colour])
        total += cells.get(key, colour_points(colour, mine[colour]))
    return total
