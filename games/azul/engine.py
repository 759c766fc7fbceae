"""The Azul engine (classic coloured wall and the grey-wall variant). Rules:
``docs/rules/azul.md``.

Colours are ints 0..4 (:data:`COLOURS`). Every pile whose order does not matter (the bag,
the lid, the centre) is a list of five counts, one per colour, and ``factories`` is one
flat list of such counts (``factory * 5 + colour``). The bag keeps no order at all — tiles
are drawn at random at refill time — so there is no bag order that a view could leak.
Pattern lines are two flat lists, ``line_colours`` and ``line_counts`` (``seat * 5 +
row``). Each seat's wall is a list of 25 cells, ``row * 5 + column``, holding a colour or
:data:`EMPTY`; a floor line is the list of its tiles left to right, with :data:`MARKER`
for the first-player marker. Flat lists keep copying cheap.
:class:`AzulState` and :class:`AzulView` declare every key.

Actions are named tuples of small ints, told apart by their length: :class:`Draft`
``(source, colour, line)`` and, on the grey wall, :class:`Column` ``(column,)``;
:func:`as_action` names a plain tuple decoded from a button.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, permutations, product
from typing import Any, Literal, NamedTuple, TypedDict, cast

from games.core import (
    ONLY_SEAT,
    Action,
    BaseState,
    Engine,
    GameOptions,
    IllegalAction,
    InvariantViolation,
    Result,
    below,
    detach,
    draw_rng,
    rank_by,
)

COLOURS = ("blue", "yellow", "red", "black", "white")
NUM_COLOURS = 5
TILES_PER_COLOUR = 20
SIZE = 5  # rows, columns and pattern lines of a wall
FACTORIES_BY_PLAYERS = {2: 5, 3: 7, 4: 9}
TILES_PER_FACTORY = 4
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)  # points lost per floor space, left to right
FLOOR_SPACES = len(FLOOR_PENALTIES)
FLOOR_LINE = 5  # the "line" of a draft that puts every taken tile on the floor
MARKER = 5  # the first-player marker on a floor line (not a tile)
EMPTY = -1  # an empty wall cell or pattern line colour
ROW_BONUS = 2
COLUMN_BONUS = 7
COLOUR_BONUS = 10

# [decision] When not a single tile can be drawn to refill the factories (bag and lid both
# empty), the game ends at once with the final scoring.
END_WHEN_NO_TILE_CAN_BE_DRAWN = True
# [decision] Grey wall: a full pattern line whose tile fits no column of its row sends all
# its tiles to the floor line (scored as floor tiles; beyond the 7 spaces to the lid).
UNPLACEABLE_LINE_TO_FLOOR = True
# [decision] Grey wall: a row can become impossible to complete (its missing colours fit
# none of its empty spaces without repeating a colour in a column). When, after a wall
# tiling, no row of any wall can still be completed, the game ends then (final scoring):
# otherwise it could never end. The coloured wall always keeps every row completable.
END_WHEN_NO_ROW_CAN_BE_COMPLETED = True
# [decision] A safety net against games that can never end (tiles locked in pattern lines
# that can never fill, or players who keep putting every tile on the floor): when no row is
# complete after the wall tiling of this round, the game ends then (final scoring). Real and
# random games end long before (random play: 5-13 rounds, rarely more than 20).
MAX_ROUNDS = 20
END_REASONS = ("row", "no_tiles", "no_row_possible", "round_limit")


# -- actions -------------------------------------------------------------------------------
class Draft(NamedTuple):
    """Take every tile of ``colour`` from ``source`` — a factory index, or the number of
    factories for the centre (:func:`centre_source`) — onto pattern ``line`` 0..4, or onto
    the floor with :data:`FLOOR_LINE`."""

    source: int
    colour: int
    line: int


class Column(NamedTuple):
    """Grey wall: the ``column`` (0..4) for the tile of the seat's pending row."""

    column: int


AzulAction = Draft | Column
MAX_SOURCES = max(FACTORIES_BY_PLAYERS.values()) + 1  # the factories and the centre
# Every action exists once, made here: listing the legal moves only looks them up.
DRAFTS = tuple(
    tuple(
        tuple(Draft(source, colour, line) for line in range(FLOOR_LINE + 1)) for colour in range(5)
    )
    for source in range(MAX_SOURCES)
)
COLUMNS = tuple(Column(column) for column in range(SIZE))
LINE_BITS = FLOOR_LINE + 1  # a set of lines (pattern lines and the floor): a bit each
ALL_LINES = (1 << LINE_BITS) - 1
# DRAFTS_ONTO[source * 5 + colour][lines]: the drafts of that colour from that source onto
# each line of a set, in order.
DRAFTS_ONTO = tuple(
    tuple(
        tuple(DRAFTS[source][colour][line] for line in range(LINE_BITS) if lines >> line & 1)
        for lines in range(ALL_LINES + 1)
    )
    for source in range(MAX_SOURCES)
    for colour in range(5)
)
# Open lines by colour, packed LINE_BITS bits a colour (see AzulEngine._open_lines), and
# LINES_OF[source * 5 + colour]: where that colour's bits start.
LINES_OF = tuple(LINE_BITS * colour for _ in range(MAX_SOURCES) for colour in range(5))
FLOOR_OF_EVERY_COLOUR = sum(1 << (LINE_BITS * colour + FLOOR_LINE) for colour in range(5))
# ROW_LACKS[row]: the colours a wall row (a tuple of five cells, colours or EMPTY) lacks, as
# the bits of line 0 of each colour (shifted by the row number, its line), for every row a
# wall can have (each colour at most once).
ROW_LACKS = {
    row: sum(1 << (LINE_BITS * colour) for colour in range(5) if colour not in row)
    for row in product(range(-1, 5), repeat=5)
    if len([cell for cell in row if cell >= 0]) == len({cell for cell in row if cell >= 0})
}


def parse_action(action: Sequence[int]) -> AzulAction | None:
    """The named action for a plain tuple of numbers (a button's data), or ``None`` when it
    is no action of this game (wrong length, not small non-negative ints)."""
    kind = type(action)
    if kind is Draft or kind is Column:
        return action  # type: ignore[return-value]
    for part in action:
        if type(part) is not int or part < 0:
            return None
    if len(action) == 3:
        return Draft._make(action)
    if len(action) == 1:
        return Column._make(action)
    return None


def as_action(action: Sequence[int]) -> AzulAction:
    """:func:`parse_action` for an action known to be well-formed (a legal one)."""
    kind = type(action)
    if kind is Draft or kind is Column:
        return action  # type: ignore[return-value]
    named = parse_action(action)
    if named is None:
        raise IllegalAction(f"azul: malformed action {tuple(action)}")
    return named


def wall_colour(row: int, column: int) -> int:
    """Colour printed on the coloured wall: ``K[(column - row) mod 5]``."""
    return (column - row) % SIZE


def colour_column(row: int, colour: int) -> int:
    """Column of ``colour`` in ``row`` of the coloured wall."""
    return (colour + row) % SIZE


def centre_source(num_players: int) -> int:
    """The ``source`` of a draft from the centre: the number of factories."""
    return FACTORIES_BY_PLAYERS[num_players]


def floor_penalty(tiles: int) -> int:
    """Points lost for ``tiles`` occupied floor spaces (the marker counts as one)."""
    return sum(FLOOR_PENALTIES[:tiles])


def placement_points(wall: list[int], row: int, column: int) -> tuple[int, int, int]:
    """Points of the tile just placed at ``(row, column)``: ``(points, horizontal,
    vertical)``, where horizontal / vertical are the lengths of the runs through the tile
    when longer than 1 (else 0), and an isolated tile scores 1."""
    base = row * SIZE
    horizontal = 1
    c = column - 1
    while c >= 0 and wall[base + c] >= 0:
        horizontal += 1
        c -= 1
    c = column + 1
    while c < SIZE and wall[base + c] >= 0:
        horizontal += 1
        c += 1
    vertical = 1
    r = row - 1
    while r >= 0 and wall[r * SIZE + column] >= 0:
        vertical += 1
        r -= 1
    r = row + 1
    while r < SIZE and wall[r * SIZE + column] >= 0:
        vertical += 1
        r += 1
    horizontal = horizontal if horizontal > 1 else 0
    vertical = vertical if vertical > 1 else 0
    return (horizontal + vertical) or 1, horizontal, vertical


def points_if_placed(wall: list[int], row: int, column: int, colour: int) -> int:
    """Points a tile of ``colour`` would score at ``(row, column)`` of ``wall``."""
    trial = list(wall)
    trial[row * SIZE + column] = colour
    return placement_points(trial, row, column)[0]


class DraftOutcome(NamedTuple):
    """Where the tiles of a draft go, and what the floor costs for them."""

    marker: bool  # the first-player marker comes along (onto the floor if it has room)
    to_line: int  # tiles onto the pattern line
    to_floor: int  # tiles onto the floor line
    to_lid: int  # tiles beyond the floor's spaces: into the lid, free
    line_full: bool  # the draft fills the pattern line
    marker_penalty: int  # the points the marker's floor space costs
    tiles_penalty: int  # the points the tiles' floor spaces cost


def draft_outcome(count: int, line: int, line_count: int, floor: int, marker: bool) -> DraftOutcome:
    """The outcome of drafting ``count`` tiles onto ``line`` (:data:`FLOOR_LINE`: the floor)
    holding ``line_count`` tiles, with ``floor`` floor spaces taken, taking the marker or not:
    the marker goes on the floor first, then the line fills, the rest goes to the floor and
    beyond its spaces to the lid."""
    with_marker = floor + 1 if marker and floor < FLOOR_SPACES else floor
    to_line = 0 if line == FLOOR_LINE else min(line + 1 - line_count, count)
    rest = count - to_line
    to_floor = min(rest, FLOOR_SPACES - with_marker)
    return DraftOutcome(
        marker=marker,
        to_line=to_line,
        to_floor=to_floor,
        to_lid=rest - to_floor,
        line_full=line != FLOOR_LINE and line_count + to_line == line + 1,
        marker_penalty=floor_penalty(with_marker) - floor_penalty(floor),
        tiles_penalty=floor_penalty(with_marker + to_floor) - floor_penalty(with_marker),
    )


def grey_columns(wall: list[int], row: int, colour: int) -> list[int]:
    """Columns of ``row`` on a grey wall that may take ``colour``: empty, and the colour is
    neither elsewhere in the row nor anywhere in the column."""
    base = row * SIZE
    if colour in wall[base : base + SIZE]:
        return []
    return [
        c for c in range(SIZE) if wall[base + c] < 0 and colour not in wall[c : SIZE * SIZE : SIZE]
    ]


def row_completable(wall: list[int], row: int) -> bool:
    """Whether ``row`` of a grey wall can still be completed: its missing colours can be
    assigned to its empty spaces with no colour repeated in a column (a full row counts)."""
    cells = wall[row * SIZE : row * SIZE + SIZE]
    empty = [c for c in range(SIZE) if cells[c] < 0]
    missing = [colour for colour in range(NUM_COLOURS) if colour not in cells]
    in_column = [wall[c : SIZE * SIZE : SIZE] for c in empty]
    return any(
        all(colour not in column for colour, column in zip(order, in_column, strict=True))
        for order in permutations(missing)
    )


def complete_rows(wall: list[int]) -> int:
    return sum(EMPTY not in wall[r * SIZE : r * SIZE + SIZE] for r in range(SIZE))


def complete_columns(wall: list[int]) -> int:
    return sum(EMPTY not in wall[c : SIZE * SIZE : SIZE] for c in range(SIZE))


def complete_colours(wall: list[int]) -> int:
    return sum(wall.count(colour) == SIZE for colour in range(NUM_COLOURS))


# -- state and view --------------------------------------------------------------------------
ColourCounts = list[int]  # a pile without order: how many of each colour, indexed by colour (5)


class AzulState(BaseState):
    phase: str  # draft | wall (grey wall: column choices pending) | over
    round: int  # 1..MAX_ROUNDS
    turn: int  # the seat to draft; -1 outside the drafting
    first_player: int  # the seat that started this round
    marker: int  # the seat holding the first-player marker; -1: in the centre
    bag: ColourCounts  # no order at all: tiles are drawn at random when refilling
    lid: ColourCounts
    centre: ColourCounts
    factories: list[int]  # [factory * 5 + colour]: tiles of that colour on that factory
    scores: list[int]  # [seat]
    line_colours: list[int]  # [seat * 5 + row]: the pattern line's colour, or EMPTY
    line_counts: list[int]  # [seat * 5 + row]: its tiles (row + 1 when full)
    walls: list[list[int]]  # [seat][row * 5 + column]: the colour there, or EMPTY
    floors: list[list[int]]  # [seat]: the floor line left to right (colours, MARKER)
    pending: list[int]  # [seat]: grey wall, the row awaiting a column choice; -1: none
    tiling_scores: list[int]  # [seat]: the scores when this wall tiling began
    end_reason: str  # one of END_REASONS once the game is over, else ""


class AzulView(TypedDict):
    """Everything is public (the bag holds no order): every seat sees the same view."""

    game: str
    num_players: int
    options: dict[str, Any]
    phase: str
    round: int
    turn: int  # -1 outside the drafting
    to_act: list[int]
    first_player: int
    marker: int  # the holder's seat; -1: in the centre
    centre_source: int  # the source of a Draft from the centre (the number of factories)
    factories: list[ColourCounts]  # [factory]
    centre: ColourCounts
    bag: ColourCounts
    lid: ColourCounts
    scores: list[int]
    line_colours: list[list[int]]  # [seat][row]: the pattern line's colour, or EMPTY
    line_counts: list[list[int]]  # [seat][row]: its tiles
    walls: list[list[int]]  # [seat][row * 5 + column]: the colour there, or EMPTY
    floors: list[list[int]]  # [seat]: the floor line left to right (colours, MARKER)
    floor_penalties: list[int]  # the points each floor space costs, left to right
    pending_rows: list[int]  # [seat]: grey wall, the row to choose a column for; -1: none
    pending_columns: list[list[int]]  # [seat]: the columns that row's tile may take
    end_reason: str
    log: list[dict[str, Any]]
    over: bool


class AzulOptions(GameOptions):
    # colour: the printed coloured wall; grey: each tile's column is chosen when tiling.
    wall: Literal["colour", "grey"] = "colour"


class AzulEngine(Engine[AzulState, AzulView]):
    id = "azul"
    min_players = 2
    max_players = 4
    Options = AzulOptions

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, state: AzulState, options: GameOptions) -> None:
        n = state["num_players"]
        first = below(draw_rng(state), n)
        state.update(
            {
                "phase": "draft",  # draft | wall (grey-wall column choices) | over
                "round": 1,
                "turn": first,  # seat to draft; -1 outside the drafting
                "first_player": first,  # seat that started this round
                "marker": EMPTY,  # seat holding the first-player marker; -1: in the centre
                "bag": [TILES_PER_COLOUR] * NUM_COLOURS,
                "lid": [0] * NUM_COLOURS,
                "centre": [0] * NUM_COLOURS,
                "factories": [0] * (NUM_COLOURS * FACTORIES_BY_PLAYERS[n]),  # factory * 5 + colour
                "scores": [0] * n,
                "line_colours": [EMPTY] * (SIZE * n),  # pattern line seat * 5 + row: its colour
                "line_counts": [0] * (SIZE * n),  # and its number of tiles
                "walls": [[EMPTY] * (SIZE * SIZE) for _ in range(n)],
                "floors": [[] for _ in range(n)],
                "pending": [EMPTY] * n,  # grey wall: row awaiting the seat's column choice
                "tiling_scores": [0] * n,  # scores when the current wall tiling began
                "end_reason": "",  # one of END_REASONS once the game is over
                "log": [],
            }
        )
        self._refill(state)
        self._log_round_start(state)

    # -- play ----------------------------------------------------------------------------
    def to_act(self, state: AzulState) -> frozenset[int]:
        phase = state["phase"]
        if phase == "draft":
            return ONLY_SEAT[state["turn"]]
        if phase == "wall":
            return frozenset(seat for seat, row in enumerate(state["pending"]) if row >= 0)
        return frozenset()

    def legal_actions(self, state: AzulState, seat: int) -> list[AzulAction]:
        phase = state["phase"]
        if phase == "draft":
            if seat != state["turn"]:
                return []
            return self._draft_actions(state, seat)
        if phase == "wall" and 0 <= seat < state["num_players"]:
            row = state["pending"][seat]
            if row < 0:
                return []
            colour = state["line_colours"][seat * SIZE + row]
            return [COLUMNS[c] for c in grey_columns(state["walls"][seat], row, colour)]
        return []

    def _draft_actions(self, state: AzulState, seat: int) -> list[AzulAction]:
        open_lines = self._open_lines(state, seat)
        tiles = state["factories"] + state["centre"]
        actions: list[AzulAction] = []
        for index in compress(range(len(tiles)), tiles):  # the sources' colours with tiles
            actions += DRAFTS_ONTO[index][open_lines >> LINES_OF[index] & ALL_LINES]
        return actions

    def _open_lines(self, state: AzulState, seat: int) -> int:
        """For each colour, the set of lines that a draft of that colour may go to, six bits
        (:data:`LINE_BITS`) a colour, the floor's always set: a line that is empty or holds
        that colour, is not full, and whose wall row does not hold the colour yet (a line's
        own colour is never on its row: see the invariants). On either wall a colour may go
        to a row exactly when the row does not hold it: the coloured wall has its space."""
        wall = state["walls"][seat]
        base = seat * SIZE
        colours = state["line_colours"]
        counts = state["line_counts"]
        lines = FLOOR_OF_EVERY_COLOUR
        for row in range(SIZE):
            count = counts[base + row]
            if count > row:  # full
                continue
            if count:
                lines |= 1 << (LINE_BITS * colours[base + row] + row)
            else:
                lines |= ROW_LACKS[tuple(wall[row * SIZE : row * SIZE + SIZE])] << row
        return lines

    def _line_open(self, state: AzulState, seat: int, row: int, colour: int) -> bool:
        count = state["line_counts"][seat * SIZE + row]
        if count > row or (count and state["line_colours"][seat * SIZE + row] != colour):
            return False
        wall = state["walls"][seat]
        if state["options"]["wall"] == "grey":
            return colour not in wall[row * SIZE : row * SIZE + SIZE]
        return wall[row * SIZE + colour_column(row, colour)] < 0

    def is_legal(self, state: AzulState, seat: int, action: Action) -> bool:
        phase = state["phase"]
        move = parse_action(action)
        if phase == "draft":
            if seat != state["turn"] or type(move) is not Draft:
                return False
            source, colour, line = move.source, move.colour, move.line
            factories = state["factories"]
            if not (0 <= colour < NUM_COLOURS and 0 <= line <= FLOOR_LINE):
                return False
            if 0 <= source * NUM_COLOURS < len(factories):
                count = factories[source * NUM_COLOURS + colour]
            elif source * NUM_COLOURS == len(factories):
                count = state["centre"][colour]
            else:
                return False
            if not count:
                return False
            return line == FLOOR_LINE or self._line_open(state, seat, line, colour)
        if phase == "wall":
            if not 0 <= seat < state["num_players"] or type(move) is not Column:
                return False
            row = state["pending"][seat]
            if row < 0:
                return False
            colour = state["line_colours"][seat * SIZE + row]
            return move.column in grey_columns(state["walls"][seat], row, colour)
        return False

    # A draft, nearly every move, copies the few lists it changes into a shallow copy of the
    # state (copy-on-write); the wall tiling that ends a round, and the grey wall's column
    # choices, change much more, on a state of their own (detach).
    def _next_state(self, state: AzulState, seat: int, action: Action) -> AzulState:
        move = as_action(action)
        new = state.copy()
        if type(move) is Draft:
            self._draft(new, seat, move.source, move.colour, move.line)
            if new["phase"] == "draft":
                return new
            detach(new, state)
            self._start_tiling(new)
            return new
        detach(new, state)
        self._place(new, seat, new["pending"][seat], move.column, chosen=True)
        self._tile(new, seat, new["pending"][seat] + 1)
        if max(new["pending"]) < 0:
            self._end_round(new)
        return new

    # -- drafting ------------------------------------------------------------------------
    def _draft(self, state: AzulState, seat: int, source: int, colour: int, line: int) -> None:
        """Take the tiles onto the seat's line and floor; copies each list it changes. Ends
        the drafting (phase ``wall``, tiling still to do) when nothing is left to take."""
        centre = state["centre"] = state["centre"][:]
        factories = state["factories"]
        floor = state["floors"][seat]
        room = FLOOR_SPACES - len(floor)
        landing = []  # onto the floor: the marker first, then the tiles the line cannot take
        took_marker = False
        base = source * NUM_COLOURS
        from_centre = base == len(factories)
        if not from_centre:
            factories = state["factories"] = factories[:]
            count = factories[base + colour]
            factories[base + colour] = 0
            for other in range(NUM_COLOURS):  # the rest of the factory to the centre
                centre[other] += factories[base + other]
                factories[base + other] = 0
        else:
            count = centre[colour]
            centre[colour] = 0
            if state["marker"] < 0:  # first from the centre: the marker, before the tiles
                took_marker = True
                state["marker"] = seat
                if room:
                    landing.append(MARKER)
                    room -= 1
        to_line = 0
        if line != FLOOR_LINE:
            index = seat * SIZE + line
            line_counts = state["line_counts"] = state["line_counts"][:]
            to_line = min(line + 1 - line_counts[index], count)
            line_counts[index] += to_line
            line_colours = state["line_colours"] = state["line_colours"][:]
            line_colours[index] = colour
        rest = count - to_line
        to_floor = min(rest, room)
        landing += [colour] * to_floor
        if landing:
            floors = state["floors"] = state["floors"][:]
            floors[seat] = floor + landing
        if rest > to_floor:
            lid = state["lid"] = state["lid"][:]
            lid[colour] += rest - to_floor
        state["log"] = [
            *state["log"],
            {
                "type": "draft",
                "round": state["round"],
                "seat": seat,
                "source": source,
                "centre": from_centre,
                "colour": colour,
                "count": count,
                "line": line,
                "to_line": to_line,
                "to_floor": to_floor,
                "to_lid": rest - to_floor,
                "marker": took_marker,
            },
        ]
        if any(centre) or any(factories):
            state["turn"] = (seat + 1) % state["num_players"]
            return
        state["phase"] = "wall"

    # -- wall tiling ---------------------------------------------------------------------
    def _start_tiling(self, state: AzulState) -> None:
        state["phase"] = "wall"  # column choices pending on the grey wall, else brief
        state["turn"] = EMPTY
        state["tiling_scores"] = list(state["scores"])
        n = state["num_players"]
        for step in range(n):  # from the round's first player, clockwise
            self._tile(state, (state["first_player"] + step) % n, 0)
        if max(state["pending"]) < 0:
            self._end_round(state)

    def _tile(self, state: AzulState, seat: int, row: int) -> None:
        """Tile the seat's full pattern lines from ``row`` down. On the grey wall, stop at a
        line with a real choice (pending); after the last line, score the floor."""
        base = seat * SIZE
        counts = state["line_counts"]
        colours = state["line_colours"]
        wall = state["walls"][seat]
        grey = state["options"]["wall"] == "grey"
        for r in range(row, SIZE):
            if counts[base + r] <= r:
                continue
            colour = colours[base + r]
            if not grey:
                self._place(state, seat, r, colour_column(r, colour))
                continue
            columns = grey_columns(wall, r, colour)
            if len(columns) > 1:
                state["pending"][seat] = r
                return
            if columns:
                self._place(state, seat, r, columns[0], chosen=False)
            elif UNPLACEABLE_LINE_TO_FLOOR:
                self._line_to_floor(state, seat, r)
        state["pending"][seat] = EMPTY
        self._score_floor(state, seat)

    def _place(
        self, state: AzulState, seat: int, row: int, column: int, chosen: bool | None = None
    ) -> None:
        """Move the full line's tile to the wall (the rest to the lid) and score it."""
        wall = state["walls"][seat]
        index = seat * SIZE + row
        colour = state["line_colours"][index]
        wall[row * SIZE + column] = colour
        points, horizontal, vertical = placement_points(wall, row, column)
        state["scores"][seat] += points
        state["lid"][colour] += row
        state["line_counts"][index] = 0
        state["line_colours"][index] = EMPTY
        event = {
            "type": "tile_placed",
            "round": state["round"],
            "seat": seat,
            "row": row,
            "column": column,
            "colour": colour,
            "points": points,
            "horizontal": horizontal,
            "vertical": vertical,
            "score": state["scores"][seat],
        }
        if chosen is not None:  # grey wall: chosen by the player, or the only legal column
            event["chosen"] = chosen
        state["log"].append(event)

    def _line_to_floor(self, state: AzulState, seat: int, row: int) -> None:
        floor = state["floors"][seat]
        index = seat * SIZE + row
        colour = state["line_colours"][index]
        count = state["line_counts"][index]
        to_floor = min(count, FLOOR_SPACES - len(floor))
        floor.extend([colour] * to_floor)
        state["lid"][colour] += count - to_floor
        state["line_counts"][index] = 0
        state["line_colours"][index] = EMPTY
        state["log"].append(
            {
                "type": "line_to_floor",
                "round": state["round"],
                "seat": seat,
                "row": row,
                "colour": colour,
                "count": count,
                "to_floor": to_floor,
                "to_lid": count - to_floor,
            }
        )

    def _score_floor(self, state: AzulState, seat: int) -> None:
        """The floor penalty, then the clamp at 0 (once, after the round's wall points)."""
        floor = state["floors"][seat]
        penalty = floor_penalty(len(floor))
        before = state["scores"][seat]
        score = max(0, before - penalty)
        state["scores"][seat] = score
        lid = state["lid"]
        for tile in floor:
            if tile != MARKER:
                lid[tile] += 1
        state["log"].append(
            {
                "type": "wall_tiling",
                "round": state["round"],
                "seat": seat,
                "wall_points": before - state["tiling_scores"][seat],
                "floor": list(floor),
                "penalty": penalty,
                "score_before_penalty": before,
                "unclamped": before - penalty,
                "score": score,
            }
        )
        state["floors"][seat] = []

    # -- round end, refill, game end -----------------------------------------------------
    def _end_round(self, state: AzulState) -> None:
        if state["marker"] >= 0:  # the holder starts; nobody took it: the same player
            state["first_player"] = state["marker"]
        state["log"].append(
            {
                "type": "round_end",
                "round": state["round"],
                "scores": list(state["scores"]),
                "next_player": state["first_player"],
            }
        )
        walls = state["walls"]
        rows = [seat for seat, wall in enumerate(walls) if complete_rows(wall)]
        if rows:
            self._end_game(state, "row", rows)
            return
        if (
            END_WHEN_NO_ROW_CAN_BE_COMPLETED
            and state["options"]["wall"] == "grey"
            and not any(row_completable(wall, r) for wall in walls for r in range(SIZE))
        ):
            self._end_game(state, "no_row_possible", [])
            return
        if state["round"] >= MAX_ROUNDS:
            self._end_game(state, "round_limit", [])
            return
        state["marker"] = EMPTY
        if not self._refill(state) and END_WHEN_NO_TILE_CAN_BE_DRAWN:
            self._end_game(state, "no_tiles", [])
            return
        state["phase"] = "draft"
        state["round"] += 1
        state["turn"] = state["first_player"]
        self._log_round_start(state)

    def _refill(self, state: AzulState) -> int:
        """Fill each factory with 4 tiles from the bag, refilling the bag from the lid when
        it runs out; stops early when both are empty. Returns the number of tiles drawn."""
        bag = state["bag"]
        lid = state["lid"]
        factories = state["factories"]
        rng = draw_rng(state)
        left = sum(bag)
        drawn = 0
        for base in range(0, len(factories), NUM_COLOURS):
            for _ in range(TILES_PER_FACTORY):
                if not left:
                    left = sum(lid)
                    if not left:
                        return drawn
                    bag[:] = lid
                    lid[:] = [0] * NUM_COLOURS
                    state["log"].append(
                        {"type": "bag_refilled", "round": state["round"], "tiles": left}
                    )
                pick = below(rng, left)
                colour = 0
                while pick >= bag[colour]:
                    pick -= bag[colour]
                    colour += 1
                bag[colour] -= 1
                factories[base + colour] += 1
                left -= 1
                drawn += 1
        return drawn

    def _log_round_start(self, state: AzulState) -> None:
        state["log"].append(
            {
                "type": "round_start",
                "round": state["round"],
                "first_player": state["first_player"],
                "factories": factory_lists(state),
            }
        )

    def _end_game(self, state: AzulState, reason: str, seats: list[int]) -> None:
        state["log"].append(
            {
                "type": "game_end_triggered",
                "round": state["round"],
                "reason": reason,
                "seats": seats,
            }
        )
        for seat, wall in enumerate(state["walls"]):
            rows, columns, colours = bonus_counts(wall)
            bonus = rows * ROW_BONUS + columns * COLUMN_BONUS + colours * COLOUR_BONUS
            state["scores"][seat] += bonus
            state["log"].append(
                {
                    "type": "final_bonus",
                    "seat": seat,
                    "rows": rows,
                    "columns": columns,
                    "colours": colours,
                    "row_points": rows * ROW_BONUS,
                    "column_points": columns * COLUMN_BONUS,
                    "colour_points": colours * COLOUR_BONUS,
                    "bonus": bonus,
                    "score": state["scores"][seat],
                }
            )
        state["phase"] = "over"
        state["turn"] = EMPTY
        state["end_reason"] = reason
        result = self.result(state)
        state["log"].append(
            {
                "type": "game_over",
                "scores": result.scores,
                "rows": result.details["rows"],
                "ranks": result.ranks,
            }
        )

    # -- scores --------------------------------------------------------------------------
    def is_over(self, state: AzulState) -> bool:
        return state["phase"] == "over"

    def result(self, state: AzulState) -> Result:
        counts = [bonus_counts(wall) for wall in state["walls"]]
        scores = list(state["scores"])
        rows = [c[0] for c in counts]
        return Result(
            scores=scores,
            ranks=rank_by([(score, row) for score, row in zip(scores, rows, strict=True)]),
            details={
                "rows": rows,
                "columns": [c[1] for c in counts],
                "colours": [c[2] for c in counts],
                "bonuses": [
                    r * ROW_BONUS + c * COLUMN_BONUS + k * COLOUR_BONUS for r, c, k in counts
                ],
                "end_reason": state["end_reason"],
            },
        )

    # -- information ---------------------------------------------------------------------
    def view(self, state: AzulState, seat: int | None) -> AzulView:
        """Everything in Azul is public except the order of the bag, which the state does
        not even hold (tiles are drawn at random at refill time). The bag's content is
        derivable, so it is shown as counts. Every seat sees the public view."""
        n = state["num_players"]
        pending = state["pending"]
        colours = state["line_colours"]
        counts = state["line_counts"]
        return {
            "game": self.id,
            "num_players": n,
            "options": state["options"],
            "phase": state["phase"],
            "round": state["round"],
            "turn": state["turn"],
            "to_act": sorted(self.to_act(state)),
            "first_player": state["first_player"],
            "marker": state["marker"],  # holder's seat, -1: in the centre
            "centre_source": len(state["factories"]) // NUM_COLOURS,
            "factories": factory_lists(state),
            "centre": state["centre"],
            "bag": state["bag"],
            "lid": state["lid"],
            "scores": state["scores"],
            "line_colours": [colours[s * SIZE : s * SIZE + SIZE] for s in range(n)],
            "line_counts": [counts[s * SIZE : s * SIZE + SIZE] for s in range(n)],
            "walls": state["walls"],
            "floors": state["floors"],
            "floor_penalties": list(FLOOR_PENALTIES),
            "pending_rows": pending,  # grey wall: the row each seat chooses a column for
            "pending_columns": [
                grey_columns(state["walls"][s], row, colours[s * SIZE + row]) if row >= 0 else []
                for s, row in enumerate(pending)
            ],
            "end_reason": state["end_reason"],
            "log": state["log"],
            "over": state["phase"] == "over",
        }

    def default_action(self, state: AzulState, seat: int) -> AzulAction:
        """Grey wall: the column scoring most (ties: leftmost). Drafting: the move wasting
        fewest tiles on the floor (the marker counts as one), then one completing a line,
        then the most tiles on a line, then the line closest to full; on the grey wall a
        line whose colour would fit no column of its row is avoided above all."""
        if state["phase"] == "wall" and 0 <= seat < state["num_players"]:
            row = state["pending"][seat]
            if row >= 0:
                wall = state["walls"][seat]
                colour = state["line_colours"][seat * SIZE + row]
                best, best_points = -1, -1
                for column in grey_columns(wall, row, colour):
                    points = points_if_placed(wall, row, column, colour)
                    if points > best_points:
                        best, best_points = column, points
                return COLUMNS[best]
        if state["phase"] != "draft" or seat != state["turn"]:
            raise IllegalAction(f"azul: seat {seat} has no move")
        grey = state["options"]["wall"] == "grey"
        wall = state["walls"][seat]
        tiles = state["factories"] + state["centre"]
        centre = len(state["factories"]) // NUM_COLOURS
        marker_cost = 1 if state["marker"] < 0 else 0
        best_key: tuple | None = None
        best_action: AzulAction = COLUMNS[0]  # replaced: a seat to draft has a draft
        for action in self._draft_actions(state, seat):
            assert type(action) is Draft
            source, colour, line = action.source, action.colour, action.line
            count = tiles[source * NUM_COLOURS + colour]
            cost = marker_cost if source == centre else 0
            if line == FLOOR_LINE:
                key: tuple = (True, -(count + cost), False, 0, -SIZE)
            else:
                space = line + 1 - state["line_counts"][seat * SIZE + line]
                to_line = min(space, count)
                fits = not grey or bool(grey_columns(wall, line, colour))
                key = (fits, -(count - to_line + cost), to_line == space, to_line, to_line - space)
            if best_key is None or key > best_key:
                best_key, best_action = key, action
        return best_action

    # -- testing -------------------------------------------------------------------------
    def check_invariants(self, state: AzulState) -> None:
        n = state["num_players"]
        grey = state["options"]["wall"] == "grey"
        phase = state["phase"]
        factories = state["factories"]
        if len(factories) != NUM_COLOURS * FACTORIES_BY_PLAYERS[n]:
            raise InvariantViolation("azul: wrong number of factories")
        totals = [0] * NUM_COLOURS
        for pile in (state["bag"], state["lid"], state["centre"], *factory_lists(state)):
            if len(pile) != NUM_COLOURS or min(pile) < 0:
                raise InvariantViolation("azul: malformed tile counts")
            for colour in range(NUM_COLOURS):
                totals[colour] += pile[colour]
        if not 1 <= state["round"] <= MAX_ROUNDS:
            raise InvariantViolation("azul: round out of range")
        markers = 0
        for seat in range(n):
            wall = state["walls"][seat]
            colours = state["line_colours"][seat * SIZE : seat * SIZE + SIZE]
            counts = state["line_counts"][seat * SIZE : seat * SIZE + SIZE]
            floor = state["floors"][seat]
            pending = state["pending"][seat]
            if state["scores"][seat] < 0:
                raise InvariantViolation(f"azul: seat {seat} has a negative score")
            if len(floor) > FLOOR_SPACES:
                raise InvariantViolation(f"azul: seat {seat}'s floor overflows")
            for tile in floor:
                if tile == MARKER:
                    markers += 1
                    if state["marker"] != seat:
                        raise InvariantViolation("azul: the marker is on a non-holder's floor")
                else:
                    totals[tile] += 1
            for cell in wall:
                if cell >= 0:
                    totals[cell] += 1
            for row in range(SIZE):
                cells = wall[row * SIZE : row * SIZE + SIZE]
                for line in (cells, wall[row : SIZE * SIZE : SIZE]):  # a row, a column
                    placed = [c for c in line if c >= 0]
                    if len(placed) != len(set(placed)):
                        raise InvariantViolation(f"azul: a colour twice in seat {seat}'s wall")
                if not grey:
                    for c, cell in enumerate(cells):
                        if cell >= 0 and cell != wall_colour(row, c):
                            raise InvariantViolation("azul: a tile off its coloured space")
                count = counts[row]
                if not 0 <= count <= row + 1 or (count == 0) != (colours[row] == EMPTY):
                    raise InvariantViolation(f"azul: seat {seat}'s line {row} is malformed")
                if count:
                    totals[colours[row]] += count
                    if colours[row] in cells:
                        raise InvariantViolation("azul: a line's colour is already on its row")
                    if phase != "draft" and count > row and not 0 <= pending <= row:
                        raise InvariantViolation("azul: a full line was left untiled")
            if pending >= 0:
                if phase != "wall" or counts[pending] <= pending:
                    raise InvariantViolation("azul: a column choice pending out of place")
                if len(grey_columns(wall, pending, colours[pending])) < 2:
                    raise InvariantViolation("azul: a choice pending without two columns")
            elif phase != "draft" and floor:
                raise InvariantViolation("azul: a floor left unscored after the tiling")
        if totals != [TILES_PER_COLOUR] * NUM_COLOURS:
            raise InvariantViolation(f"azul: tiles not conserved: {totals}")
        if markers > 1 or not EMPTY <= state["marker"] < n:
            raise InvariantViolation("azul: the first-player marker is misplaced")
        if phase == "draft":
            if not 0 <= state["turn"] < n or max(state["pending"]) >= 0:
                raise InvariantViolation("azul: bad turn in the drafting")
            if not any(state["centre"]) and not any(factories):
                raise InvariantViolation("azul: drafting with nothing left to take")
            if any(sum(pile) > TILES_PER_FACTORY for pile in factory_lists(state)):
                raise InvariantViolation("azul: an overfull factory")
        elif phase == "wall":
            if not grey or max(state["pending"]) < 0 or any(factories) or any(state["centre"]):
                raise InvariantViolation("azul: a wall phase out of place")
        elif phase == "over":
            if max(state["pending"]) >= 0 or state["end_reason"] not in END_REASONS:
                raise InvariantViolation("azul: a finished game with work left")
        else:
            raise InvariantViolation(f"azul: unknown phase {phase!r}")

    def check_views(self, state: AzulState) -> None:
        """Azul has no hidden information but the bag order, and the state holds no bag
        order (only counts; draws happen at refill time from the seed). So every seat's
        view must equal the public one, and no view may change when the seed and the RNG
        counter — the only source of the future bag order — change."""
        public = self.view(state, None)
        if "seed" in public or "rng_counter" in public:
            raise InvariantViolation("azul: a view shows the RNG")
        seed = f"{state['seed']}'"  # another seed (a string will do for a generator's seed)
        other = cast(AzulState, {**state, "seed": seed, "rng_counter": state["rng_counter"] + 7})
        for viewer in [None, *range(state["num_players"])]:
            shown = self.view(state, viewer)
            if shown != public or self.view(other, viewer) != shown:
                raise InvariantViolation(f"azul: the view of {viewer} differs from the public")


def factory_lists(state: AzulState) -> list[list[int]]:
    """The factories as one list of five colour counts each."""
    tiles = state["factories"]
    return [tiles[base : base + NUM_COLOURS] for base in range(0, len(tiles), NUM_COLOURS)]


def bonus_counts(wall: list[int]) -> tuple[int, int, int]:
    """Complete rows, complete columns and colours with all five tiles on ``wall``."""
    return complete_rows(wall), complete_columns(wall), complete_colours(wall)


ENGINE = AzulEngine()
