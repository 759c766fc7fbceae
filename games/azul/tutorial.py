"""Azul's tutorial: one round and the first take of the next, two players.

The steps teach, each when it first matters: a take (one colour, the rest to the centre), a
pattern line's size, one colour per line, the centre and its first-player marker, the floor
when tiles would fall on it, and the wall when the round ends. The deal is seed 8's; the
opponent's moves are the normal AI's, written down.
"""

from __future__ import annotations

from games.azul.engine import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_LINE,
    FLOOR_PENALTIES,
    NUM_COLOURS,
    ROW_BONUS,
    SIZE,
    AzulState,
    Draft,
    as_action,
    centre_source,
    colour_column,
    draft_outcome,
    parse_action,
)
from games.core import Action
from games.tutorial import LEARNER, Claim, Step, Tutorial, Why


def _tiles(state: AzulState, source: int, colour: int) -> int:
    if source == centre_source(state["num_players"]):
        return state["centre"][colour]
    return state["factories"][source * 5 + colour]


def _outcome(state: AzulState, move: Draft):
    count = _tiles(state, move.source, move.colour)
    line_count = 0 if move.line == FLOOR_LINE else state["line_counts"][LEARNER * 5 + move.line]
    marker = move.source == centre_source(state["num_players"]) and state["marker"] < 0
    return draft_outcome(count, move.line, line_count, len(state["floors"][LEARNER]), marker)


# -- the captions' claims: (state before the move, the taught move) -> does it hold? --------
def from_factory_with_rest(state: AzulState, move: Action) -> bool:
    """The move takes from a factory that holds other colours too (they go to the centre)."""
    draft = as_action(move)
    if draft.source == centre_source(state["num_players"]):
        return False
    tiles = state["factories"][draft.source * 5 : draft.source * 5 + 5]
    return sum(tiles) > tiles[draft.colour]


def from_factory(state: AzulState, move: Action) -> bool:
    return as_action(move).source != centre_source(state["num_players"])


def fills_line(state: AzulState, move: Action) -> bool:
    outcome = _outcome(state, as_action(move))
    return outcome.line_full and outcome.to_floor == 0


def leaves_room(state: AzulState, move: Action) -> bool:
    """The line is not full after the move (it may wait for the next take)."""
    outcome = _outcome(state, as_action(move))
    return not outcome.line_full and outcome.to_floor == 0


def joins_own_colour(state: AzulState, move: Action) -> bool:
    """The line already holds tiles of the move's colour."""
    draft = as_action(move)
    index = LEARNER * 5 + draft.line
    return (
        draft.line != FLOOR_LINE
        and state["line_counts"][index] > 0
        and state["line_colours"][index] == draft.colour
    )


def takes_marker(state: AzulState, move: Action) -> bool:
    return _outcome(state, as_action(move)).marker


def tiles_fall(state: AzulState, move: Action) -> bool:
    return _outcome(state, as_action(move)).to_floor > 0


def stays_off_floor(state: AzulState, move: Action) -> bool:
    return _outcome(state, as_action(move)).to_floor == 0


def spills(state: AzulState, move: Action) -> bool:
    """The line takes some of the tiles and the rest fall on the floor."""
    outcome = _outcome(state, as_action(move))
    return outcome.to_line > 0 and outcome.to_floor > 0


def new_round_with_wall(state: AzulState, move: Action) -> bool:
    """Round 2 has begun and the learner's wall holds the tiles of round 1's full lines."""
    return state["round"] == 2 and any(cell >= 0 for cell in state["walls"][LEARNER])


def holds_marker(state: AzulState, move: Action) -> bool:
    """The learner took the marker in round 1, so starts round 2."""
    return state["turn"] == LEARNER and state["first_player"] == LEARNER


def fills_from_factory(state: AzulState, move: Action) -> bool:
    return from_factory_with_rest(state, move) and fills_line(state, move)


def room_from_factory(state: AzulState, move: Action) -> bool:
    return from_factory(state, move) and leaves_room(state, move)


def marker_off_floor(state: AzulState, move: Action) -> bool:
    return takes_marker(state, move) and stays_off_floor(state, move)


def floor_costs(state: AzulState, move: Action, *penalties: int) -> bool:
    """The floor's spaces cost ``penalties``, left to right (the caption names them)."""
    return tuple(penalties) == FLOOR_PENALTIES


def end_bonuses(state: AzulState, move: Action, row: int, column: int, colour: int) -> bool:
    return (row, column, colour) == (ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS)


def any_move(state: AzulState, move: Action) -> bool:
    """Every legal move: the learner chooses alone."""
    return True


PREDICATES = {
    "fills_from_factory": fills_from_factory,
    "room_from_factory": room_from_factory,
    "marker_off_floor": marker_off_floor,
    "any_move": any_move,
    "floor_costs": floor_costs,
    "end_bonuses": end_bonuses,
    "from_factory_with_rest": from_factory_with_rest,
    "from_factory": from_factory,
    "fills_line": fills_line,
    "leaves_room": leaves_room,
    "joins_own_colour": joins_own_colour,
    "takes_marker": takes_marker,
    "tiles_fall": tiles_fall,
    "stays_off_floor": stays_off_floor,
    "spills": spills,
    "new_round_with_wall": new_round_with_wall,
    "holds_marker": holds_marker,
}


# -- why another move is not the step's --------------------------------------------------
def why(state: AzulState, taught: Action, pressed: Action, goal: str | None = None) -> Why:
    """Why ``pressed`` misses the step's goal: the rules it breaks first, else the part of
    the goal it misses (from a factory, the line full or not, the floor)."""
    move, lesson = parse_action(pressed), as_action(taught)
    if (
        not isinstance(move, Draft)
        or move.source > centre_source(state["num_players"])
        or move.colour >= NUM_COLOURS
        or move.line > FLOOR_LINE
        or _tiles(state, move.source, move.colour) == 0
    ):
        return Why("not_there")
    if move.line != FLOOR_LINE:
        index = LEARNER * 5 + move.line
        holds = state["line_colours"][index]
        if state["line_counts"][index] and holds != move.colour:
            return Why("line_colour", {"line": move.line + 1, "colour": holds})
        if state["walls"][LEARNER][move.line * SIZE + colour_column(move.line, move.colour)] >= 0:
            return Why("wall_has", {"line": move.line + 1, "colour": move.colour})
        if state["line_counts"][index] == move.line + 1:
            return Why("line_full", {"line": move.line + 1})
    outcome = _outcome(state, move)
    missed = _missed(state, move, outcome, goal)
    if missed is not None:
        return missed
    if (move.source, move.colour) == (lesson.source, lesson.colour):
        if move.line == FLOOR_LINE:
            return Why("floor_only")
        if outcome.to_floor > _outcome(state, lesson).to_floor:
            return Why("falls", {"count": outcome.to_floor, "line": move.line + 1})
        return Why("other_line", {"line": lesson.line + 1})
    return Why("other_take", {"colour": lesson.colour})


def _missed(state: AzulState, move: Draft, outcome, goal: str | None) -> Why | None:
    """The part of the step's goal a legal take misses, in the game's terms."""
    centre = move.source == centre_source(state["num_players"])
    line = {"line": move.line + 1}
    if goal in ("fills_from_factory", "room_from_factory") and centre:
        return Why("from_factory")
    if goal == "marker_off_floor" and not centre:
        return Why("from_centre")
    if goal in ("fills_from_factory", "room_from_factory", "marker_off_floor", "joins_own_colour"):
        if move.line == FLOOR_LINE:
            return Why("floor_only")
        if outcome.to_floor:
            return Why("falls", {"count": outcome.to_floor, **line})
    if goal == "fills_from_factory" and not outcome.line_full:
        return Why("not_full", line)
    if goal == "room_from_factory" and outcome.line_full:
        return Why("fills", line)
    if goal == "joins_own_colour":
        return Why("joins")
    if goal == "spills" and not outcome.to_floor:
        return Why("spill")
    if goal == "spills" and not outcome.to_line:
        return Why("floor_only")
    return None


RULES = (
    "from_factory",
    "from_centre",
    "not_full",
    "fills",
    "joins",
    "spill",
    "not_there",
    "line_colour",
    "wall_has",
    "line_full",
    "floor_only",
    "falls",
    "other_line",
    "other_take",
)

SYLLABUS = {  # the rules a first game needs -> the heading of docs/rules/azul.md
    "take": "Round: 1. factory offer",
    "pattern_lines": "Round: 1. factory offer",
    "lines_wait": "Round: 2. wall tiling",
    "centre": "Round: 1. factory offer",
    "marker": "Round: 1. factory offer",
    "one_colour": "Round: 1. factory offer",
    "floor": "Round: 2. wall tiling",
    "wall_scoring": "Round: 2. wall tiling",
    "clamp": "Round: 2. wall tiling",
    "wall_row_colour": "Round: 1. factory offer",
    "marker_starts": "Round: 2. wall tiling",
    "game_end": "End",
    "end_bonuses": "End",
    "winner": "End",
}

TUTORIAL = Tutorial(
    game="azul",
    players=2,
    seed=8,
    steps=(
        Step(
            "take",
            (0, 1, 1),
            (Claim("from_factory_with_rest"), Claim("fills_line")),
            ((1, (1, 0, 1)),),
            goal="fills_from_factory",
            teaches=("take", "pattern_lines"),
        ),
        Step(
            "line",
            (2, 4, 2),
            (Claim("from_factory"), Claim("leaves_room")),
            ((1, (3, 1, 0)),),
            goal="room_from_factory",
            teaches=("lines_wait",),
        ),
        Step(
            "centre",
            (5, 0, 3),
            (Claim("takes_marker"), Claim("stays_off_floor")),
            ((1, (5, 4, 2)),),
            goal="marker_off_floor",
            teaches=("centre", "marker"),
        ),
        Step(
            "one_colour",
            (4, 0, 3),
            (Claim("joins_own_colour"),),
            ((1, (5, 3, 3)),),
            goal="joins_own_colour",
            teaches=("one_colour",),
        ),
        Step(
            "floor",
            (5, 2, 0),
            (Claim("spills"), Claim("floor_costs", FLOOR_PENALTIES)),
            ((1, (5, 1, 4)),),
            goal="spills",
            teaches=("floor",),
        ),
        Step(
            "wall",
            (0, 0, 1),
            (Claim("new_round_with_wall"), Claim("holds_marker")),
            goal="any_move",
            teaches=("wall_scoring", "clamp", "wall_row_colour", "marker_starts"),
        ),
        Step(
            "end",
            (3, 1, 0),
            (Claim("end_bonuses", (2, 7, 10)),),
            goal="any_move",
            teaches=("game_end", "end_bonuses", "winner"),
        ),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    syllabus=SYLLABUS,
)
