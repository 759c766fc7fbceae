"""Builders of exact Azul positions for the rules tests."""

from games.azul.engine import (
    COLOURS,
    EMPTY,
    ENGINE,
    FACTORIES_BY_PLAYERS,
    NUM_COLOURS,
    SIZE,
    TILES_PER_COLOUR,
    wall_colour,
)

BLUE, YELLOW, RED, BLACK, WHITE = range(5)
LETTERS = {"B": BLUE, "Y": YELLOW, "R": RED, "K": BLACK, "W": WHITE}
assert [COLOURS[LETTERS[letter]][0] for letter in "BYRW"] == list("byrw")


def colour_wall(*rows: str) -> list[int]:
    """A coloured wall from five strings: ``x`` = a tile on its printed space, ``.`` = empty."""
    assert len(rows) == SIZE
    return [
        wall_colour(r, c) if mark == "x" else EMPTY
        for r, row in enumerate(rows)
        for c, mark in enumerate(row)
    ]


def grey_wall(*rows: str) -> list[int]:
    """A grey wall from five strings of ``B Y R K W`` (blue, yellow, red, black, white) or ``.``."""
    assert len(rows) == SIZE
    return [EMPTY if mark == "." else LETTERS[mark] for row in rows for mark in row]


EMPTY_ROW = "....."
EMPTY_WALL = (EMPTY_ROW,) * SIZE


def tiles(**counts: int) -> list[int]:
    """Colour counts, e.g. ``tiles(blue=2, red=1)``."""
    return [counts.get(name, 0) for name in COLOURS]


def rig(
    num_players=2,
    wall="colour",
    *,
    factories=None,
    centre=None,
    lines=None,
    walls=None,
    floors=None,
    scores=None,
    turn=0,
    first_player=None,
    marker=EMPTY,
    lid=None,
    bag=None,
    seed=0,
):
    """A drafting position set by the test.

    ``factories``: {index: colour counts} (the others empty); ``lines``: {seat: {row:
    (colour, count)}}; ``walls``: {seat: 25 cells}; ``floors``: {seat: tiles}. Tiles not
    placed anywhere go to the bag, or to the lid when the test sets the bag.
    """
    state = ENGINE.new_game(num_players, {"wall": wall}, seed=seed)
    n = num_players
    state["factories"] = [0] * (NUM_COLOURS * FACTORIES_BY_PLAYERS[n])
    for index, counts in (factories or {}).items():
        state["factories"][index * NUM_COLOURS : (index + 1) * NUM_COLOURS] = counts
    state["centre"] = list(centre or [0] * NUM_COLOURS)
    state["line_colours"] = [EMPTY] * (SIZE * n)
    state["line_counts"] = [0] * (SIZE * n)
    for seat, rows in (lines or {}).items():
        for row, (colour, count) in rows.items():
            state["line_colours"][seat * SIZE + row] = colour
            state["line_counts"][seat * SIZE + row] = count
    state["walls"] = [list((walls or {}).get(seat, [EMPTY] * 25)) for seat in range(n)]
    state["floors"] = [list((floors or {}).get(seat, [])) for seat in range(n)]
    state["scores"] = list(scores or [0] * n)
    state["turn"] = turn
    state["first_player"] = turn if first_player is None else first_player
    state["marker"] = marker
    state["log"] = []
    used = [0] * NUM_COLOURS
    for colour in range(NUM_COLOURS):
        used[colour] += state["centre"][colour]
        used[colour] += sum(state["factories"][colour::NUM_COLOURS])
        for seat in range(n):
            used[colour] += state["walls"][seat].count(colour)
            used[colour] += state["floors"][seat].count(colour)
            for row in range(SIZE):
                if state["line_colours"][seat * SIZE + row] == colour:
                    used[colour] += state["line_counts"][seat * SIZE + row]
    rest = [TILES_PER_COLOUR - count for count in used]
    if bag is None:
        state["lid"] = list(lid or [0] * NUM_COLOURS)
        state["bag"] = [r - x for r, x in zip(rest, state["lid"], strict=True)]
    else:
        state["bag"] = list(bag)
        state["lid"] = [r - b for r, b in zip(rest, state["bag"], strict=True)]
        assert lid is None or lid == state["lid"], "bag and lid do not add up"
    assert min(state["bag"]) >= 0 and min(state["lid"]) >= 0, "more tiles than exist"
    ENGINE.check_invariants(state)
    return state


def centre_of(state) -> int:
    """The ``source`` index of the centre."""
    return len(state["factories"]) // NUM_COLOURS


def play(state, *moves):
    """Apply ``(seat, action)`` moves in order, checking the invariants after each."""
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
        ENGINE.check_invariants(state)
        ENGINE.check_views(state)
    return state


def events(state, kind, since=0):
    return [event for event in state["log"][since:] if event["type"] == kind]


def line(state, seat, row):
    """``(colour, count)`` of a pattern line."""
    return state["line_colours"][seat * SIZE + row], state["line_counts"][seat * SIZE + row]


def factory(state, index):
    return state["factories"][index * NUM_COLOURS : (index + 1) * NUM_COLOURS]


def cell(state, seat, row, column):
    return state["walls"][seat][row * SIZE + column]
