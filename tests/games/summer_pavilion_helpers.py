"""Building exact Summer Pavilion positions for the rules tests."""

from __future__ import annotations

from games.summer_pavilion.engine import (
    COLOURS,
    EMPTY,
    ENGINE,
    NUM_COLOURS,
    SPACES,
    STAR_COLOURS,
    TILES_PER_COLOUR,
    space_index,
)

PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)
# Outer stars by colour on the coloured side (spec: 1 purple, 2 orange, 3 red, 4 blue,
# 5 yellow, 6 green), written out here rather than read from the engine.
STAR_OF = {PURPLE: 1, ORANGE: 2, RED: 3, BLUE: 4, YELLOW: 5, GREEN: 6}
CENTRE_STAR = 0


def tiles(**counts: int) -> list[int]:
    """A colour-count vector, e.g. ``tiles(red=3, purple=2)``."""
    vector = [0] * NUM_COLOURS
    for name, count in counts.items():
        vector[COLOURS.index(name)] = count
    return vector


def board_of(spaces: dict[tuple[int, int], int]) -> list[int]:
    board = [EMPTY] * SPACES
    for (star, space), colour in spaces.items():
        board[space_index(star, space)] = colour
    return board


def build(
    num_players: int = 2,
    *,
    variant1: bool = False,
    variant2: bool = False,
    phase: str = "placing",
    round_no: int = 1,
    current: int = 0,
    start: int = 0,
    first_player_tile: int = -1,
    hands: dict[int, list[int]] | None = None,
    corners: dict[int, list[int]] | None = None,
    boards: dict[int, dict[tuple[int, int], int]] | None = None,
    scores: list[int] | None = None,
    passed: list[bool] | None = None,
    supply: list[int] | None = None,
    factories: list[list[int]] | None = None,
    centre: list[int] | None = None,
    tower: list[int] | None = None,
    bag: list[int] | None = None,
    rest: str | tuple[int, ...] = "bag",
) -> dict:
    """A position with exactly the given piles; the tiles not mentioned go to ``rest``:
    ``"bag"`` (sorted, so the draw order is known: the bag is drawn from its end),
    ``"tower"``, or a tuple of seats whose empty spaces are filled legally (outer star of
    the colour, then the centre star)."""
    n = num_players
    state = ENGINE.new_game(n, {"variant1": variant1, "variant2": variant2}, seed=0)
    zero = [0] * NUM_COLOURS
    state.update(
        phase=phase,
        round=round_no,
        current=current,
        start_player=start,
        first_player_tile=first_player_tile,
        hands=[list((hands or {}).get(seat, zero)) for seat in range(n)],
        corners=[list((corners or {}).get(seat, zero)) for seat in range(n)],
        boards=[board_of((boards or {}).get(seat, {})) for seat in range(n)],
        scores=list(scores) if scores is not None else [5] * n,
        passed=list(passed) if passed is not None else [False] * n,
        supply=list(supply)
        if supply is not None
        else tiles(purple=2, green=2, orange=2, yellow=2, blue=1, red=1),
        factories=[list(f) for f in factories]
        if factories
        else [list(zero) for _ in range(len(state["factories"]))],
        centre=list(centre) if centre is not None else list(zero),
        tower=list(tower) if tower is not None else list(zero),
        bag=list(bag) if bag is not None else [],
        bonus_due=0,
    )
    used = [0] * NUM_COLOURS
    piles = [state["supply"], state["centre"], state["tower"], *state["factories"]]
    piles += state["hands"] + state["corners"]
    for pile in piles:
        for colour in range(NUM_COLOURS):
            used[colour] += pile[colour]
    for colour in state["bag"]:
        used[colour] += 1
    for board in state["boards"]:
        for tile in board:
            if tile != EMPTY:
                used[tile] += 1
    left = [TILES_PER_COLOUR - count for count in used]
    assert min(left) >= 0, f"the position uses more tiles than exist: {left}"
    if rest == "bag":
        state["bag"] = sorted(
            state["bag"] + [c for c in range(NUM_COLOURS) for _ in range(left[c])]
        )
    elif rest == "tower":
        state["tower"] = [state["tower"][c] + left[c] for c in range(NUM_COLOURS)]
    else:
        for colour in range(NUM_COLOURS):
            for _ in range(left[colour]):
                park(state, colour, rest)
    ENGINE.check_invariants(state)
    return state


def park(state: dict, colour: int, seats: tuple[int, ...]) -> None:
    """Put one tile of ``colour`` on a legal empty space of one of ``seats``' boards."""
    for seat in seats:
        board = state["boards"][seat]
        star = STAR_COLOURS.index(colour)
        for space in range(1, 7):
            if board[space_index(star, space)] == EMPTY:
                board[space_index(star, space)] = colour
                return
        centre = board[0:6]
        if colour not in centre and EMPTY in centre:
            board[centre.index(EMPTY)] = colour
            return
    raise AssertionError(f"no room left for {COLOURS[colour]} on seats {seats}")


def events(state: dict, kind: str) -> list[dict]:
    return [event for event in state["log"] if event["type"] == kind]


def last(state: dict, kind: str) -> dict:
    return events(state, kind)[-1]


def play(state: dict, *moves: tuple[int, tuple[int, ...]]) -> dict:
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
    return state
