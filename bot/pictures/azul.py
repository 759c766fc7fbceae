"""Azul pictures, drawn from the engine's view (``games/azul/engine.py``).

The group picture is the table: the factories (numbered as in the buttons) and the centre
with the first-player marker while it lies there, then every player's board as printed —
the pattern lines right-aligned on the left, the wall on the right (its colour pattern
shown faintly on every empty space; the grey wall plain, its columns numbered), the floor
line with its penalties underneath, the seat number and the score on top. The players to
act are framed in gold. The private picture shows the same supply and the player's own
board, larger. No words: player names go in the caption, so one picture serves every
language.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.pictures import drawing as d
from bot.pictures.drawing import RGB, Box, Pen, Point
from games.azul.engine import COLOURS, MARKER, SIZE, wall_colour
from games.core import View

TILE_RGB: tuple[RGB, ...] = (
    (30, 108, 192),  # blue
    (243, 190, 38),  # yellow
    (207, 55, 44),  # red
    (46, 46, 56),  # black
    (236, 242, 244),  # white
)
SYMBOL = tuple(d.SYMBOLS[name] for name in COLOURS)
MARKER_RGB: RGB = (247, 140, 60)
MARKER_RIM: RGB = (160, 72, 20)
BOARD_RGB: RGB = (236, 222, 193)
BOARD_RIM: RGB = (176, 150, 110)
SLOT_RGB: RGB = (216, 199, 166)  # an empty pattern-line or floor space
GREY_SPACE_RGB: RGB = (204, 200, 194)  # an empty space of the grey wall
FAINT = 0.66  # how far an empty wall space's colour is washed towards the board
FACTORY_RGB: RGB = (250, 248, 242)
FACTORY_RIM: RGB = (190, 178, 158)
CENTRE_RGB: RGB = (232, 225, 212)
CHOICE_RGB: RGB = d.HIGHLIGHT

MARGIN = 16
GROUP_SCALE = 1.0
PRIVATE_SCALE = 1.6


def faint(colour: int) -> RGB:
    """The printed, empty wall space of ``colour``."""
    return d.mix(TILE_RGB[colour], BOARD_RGB, FAINT)


# -- geometry -----------------------------------------------------------------------------------
class BoardGeometry:
    """Where everything of one player's board is, in picture pixels."""

    def __init__(self, x: int, y: int, scale: float, grey: bool) -> None:
        u = scale
        self.x, self.y, self.scale, self.grey = x, y, scale, grey
        self.cell = round(40 * u)
        self.gap = round(4 * u)
        self.pitch = self.cell + self.gap
        self.pad = round(14 * u)
        header = round(46 * u)
        strip = round(22 * u) if grey else 0  # the grey wall's column numbers
        span = SIZE * self.pitch - self.gap
        self.width = 2 * self.pad + 2 * span + round(26 * u)
        self.top = y + self.pad + header + strip
        self.lines_right = x + self.pad + span
        self.wall_left = x + self.width - self.pad - span
        self.floor_top = self.top + span + round(16 * u)
        self.height = self.floor_top + self.cell + round(24 * u) + self.pad - y
        self.box: Box = (x, y, x + self.width, y + self.height)
        self.badge = round(34 * u)
        self.badge_xy = (x + self.pad, y + self.pad + (header - self.badge) // 2 - round(4 * u))
        self.arrow = round(26 * u)
        self.arrow_xy = (self.badge_xy[0] + self.badge + round(6 * u), self.badge_xy[1])
        self.score_size = (round(78 * u), round(36 * u))
        self.score_xy = (
            x + self.width - self.pad - self.score_size[0],
            self.badge_xy[1] + (self.badge - self.score_size[1]) // 2,
        )
        self.column_label_y = self.top - strip / 2 - round(2 * u)

    def line_slot(self, row: int, k: int) -> Box:
        """Space ``k`` of pattern line ``row``, counted from the right (lines fill from the
        right, next to the wall)."""
        right = self.lines_right - k * self.pitch
        top = self.top + row * self.pitch
        return (right - self.cell, top, right, top + self.cell)

    def wall_cell(self, row: int, column: int) -> Box:
        left = self.wall_left + column * self.pitch
        top = self.top + row * self.pitch
        return (left, top, left + self.cell, top + self.cell)

    def floor_slot(self, index: int) -> Box:
        left = self.x + self.pad + index * self.pitch
        return (left, self.floor_top, left + self.cell, self.floor_top + self.cell)

    def penalty_xy(self, index: int) -> Point:
        left, _, right, bottom = self.floor_slot(index)
        return ((left + right) / 2, bottom + 12 * self.scale)


class SupplyGeometry:
    """The factories in one or two centred rows, the centre after the last one."""

    DISC = 104
    PITCH = 112
    TILE = 34
    ITEM = 48  # pitch of the centre's piles
    CENTRE_COLUMNS = 3

    def __init__(self, x: int, y: int, width: int, factories: int) -> None:
        centre_width = self.CENTRE_COLUMNS * self.ITEM + 16
        if factories * self.PITCH + centre_width <= width:
            rows = [factories]
        else:
            rows = [(factories + 1) // 2, factories // 2]
        self.factory_centres: list[Point] = []
        for r, count in enumerate(rows):
            row_width = count * self.PITCH + (centre_width if r == len(rows) - 1 else 0)
            left = x + (width - row_width) // 2
            cy = y + r * self.PITCH + self.PITCH / 2
            for i in range(count):
                self.factory_centres.append((left + i * self.PITCH + self.PITCH / 2, cy))
        last_left = x + (width - rows[-1] * self.PITCH - centre_width) // 2
        cx0 = last_left + rows[-1] * self.PITCH
        cy0 = round(y + (len(rows) - 1) * self.PITCH + (self.PITCH - 2 * self.ITEM - 16) / 2)
        self.centre_box: Box = (cx0, cy0, cx0 + centre_width, cy0 + 2 * self.ITEM + 16)
        self.height = len(rows) * self.PITCH

    def factory_slot(self, factory: int, index: int) -> Box:
        cx, cy = self.factory_centres[factory]
        half = (self.TILE + 4) / 2
        x = round(cx + (half if index % 2 else -half) - self.TILE / 2)
        y = round(cy + (half if index >= 2 else -half) - self.TILE / 2)
        return (x, y, x + self.TILE, y + self.TILE)

    def centre_slot(self, index: int) -> Box:
        """Pile ``index`` of the centre: the first-player marker first while it lies there,
        then one pile per colour present."""
        left, top = self.centre_box[0] + 8, self.centre_box[1] + 8
        x = left + (index % self.CENTRE_COLUMNS) * self.ITEM + (self.ITEM - self.TILE) // 2
        y = top + (index // self.CENTRE_COLUMNS) * self.ITEM + (self.ITEM - self.TILE) // 2
        return (x, y, x + self.TILE, y + self.TILE)


class Layout:
    """A whole picture: the supply on top, then the boards of ``seats``."""

    def __init__(self, num_players: int, grey: bool, seats: tuple[int, ...], scale: float):
        board_width = BoardGeometry(0, 0, GROUP_SCALE, grey).width
        self.width = 2 * board_width + 3 * MARGIN
        factories = {2: 5, 3: 7, 4: 9}[num_players]
        self.supply = SupplyGeometry(MARGIN, MARGIN, self.width - 2 * MARGIN, factories)
        y = MARGIN + self.supply.height + MARGIN
        self.boards: dict[int, BoardGeometry] = {}
        template = BoardGeometry(0, 0, scale, grey)
        for index, seat in enumerate(seats):
            row, column = divmod(index, 2)
            if scale != GROUP_SCALE or (index == len(seats) - 1 and column == 0):
                x = (self.width - template.width) // 2  # the private board, an odd last board
            else:
                x = MARGIN + column * (board_width + MARGIN)
            self.boards[seat] = BoardGeometry(x, y + row * (template.height + MARGIN), scale, grey)
        rows = (len(seats) + 1) // 2
        self.height = y + rows * (template.height + MARGIN)
        self.size = (self.width, self.height)


@lru_cache(maxsize=32)
def layout(num_players: int, grey: bool, seats: tuple[int, ...], scale: float) -> Layout:
    return Layout(num_players, grey, seats, scale)


def group_layout(view: View) -> Layout:
    n = view["num_players"]
    return layout(n, _grey(view), tuple(range(n)), GROUP_SCALE)


def private_layout(view: View, seat: int) -> Layout:
    return layout(view["num_players"], _grey(view), (seat,), PRIVATE_SCALE)


def _grey(view: View) -> bool:
    return view["options"]["wall"] == "grey"


# -- the background: everything printed on the boards -----------------------------------------
@lru_cache(maxsize=16)
def background(
    num_players: int, grey: bool, seats: tuple[int, ...], scale: float, penalties: tuple[int, ...]
) -> Image.Image:
    geometry = layout(num_players, grey, seats, scale)

    def paint(pen: Pen) -> None:
        _paint_supply(pen, geometry.supply)
        for board in geometry.boards.values():
            _paint_board(pen, board, penalties)

    return d.supersampled(geometry.size, paint, d.PAGE, d.BACKGROUND_SUPERSAMPLE)


def _paint_supply(pen: Pen, supply: SupplyGeometry) -> None:
    radius = supply.DISC / 2
    for number, (cx, cy) in enumerate(supply.factory_centres, start=1):
        pen.circle((cx + 2, cy + 3), radius, fill=d.mix(d.PAGE, d.INK, 0.12))  # shadow
        pen.circle((cx, cy), radius, fill=FACTORY_RGB, outline=FACTORY_RIM, width=2)
        badge = (cx - radius * 0.78, cy - radius * 0.78)
        pen.circle(badge, 13, fill=d.INK)
        pen.text(badge, str(number), 17, d.WHITE, bold=True)
    pen.rounded(supply.centre_box, 18, fill=CENTRE_RGB, outline=FACTORY_RIM, width=2)


def _paint_board(pen: Pen, board: BoardGeometry, penalties: tuple[int, ...]) -> None:
    u = board.scale
    left, top, right, bottom = board.box
    pen.rounded((left + 2, top + 3, right + 2, bottom + 3), 14 * u, fill=d.mix(d.PAGE, d.INK, 0.1))
    pen.rounded(board.box, 14 * u, fill=BOARD_RGB, outline=BOARD_RIM, width=2 * u)
    radius = board.cell * 0.14
    for row in range(SIZE):
        for k in range(row + 1):
            pen.rounded(
                board.line_slot(row, k), radius, fill=SLOT_RGB, outline=_rim(SLOT_RGB), width=u
            )
        for column in range(SIZE):
            cell = board.wall_cell(row, column)
            if board.grey:
                pen.rounded(
                    cell, radius, fill=GREY_SPACE_RGB, outline=_rim(GREY_SPACE_RGB), width=u
                )
            else:
                colour = wall_colour(row, column)
                d.paint_square_tile(pen, cell, faint(colour), SYMBOL[colour], faint=True)
        # the arrow from a pattern line to its wall row
        y = board.top + row * board.pitch + board.cell / 2
        x0 = board.lines_right + 5 * u
        x1 = board.wall_left - 5 * u
        pen.polygon([(x0, y - 6 * u), (x1, y), (x0, y + 6 * u)], fill=_rim(BOARD_RGB))
    if board.grey:
        for column in range(SIZE):
            left, _, right, _ = board.wall_cell(0, column)
            pen.text(
                ((left + right) / 2, board.column_label_y),
                str(column + 1),
                17 * u,
                d.INK,
                bold=True,
            )

    for index, penalty in enumerate(penalties):
        pen.rounded(board.floor_slot(index), radius, fill=SLOT_RGB, outline=_rim(SLOT_RGB), width=u)
        pen.text(board.penalty_xy(index), f"-{penalty}", 15 * u, d.SOFT_INK, bold=True)


def _rim(colour: RGB) -> RGB:
    return d.darker(colour, 0.14)


# -- the position -------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _tile(size: int, colour: int) -> Image.Image:
    return d.square_tile(size, TILE_RGB[colour], SYMBOL[colour])


@lru_cache(maxsize=16)
def _marker(size: int) -> Image.Image:
    return d.marker_tile(size, MARKER_RGB, MARKER_RIM)


@lru_cache(maxsize=16)
def _choice(size: int) -> Image.Image:
    """A gold ring on an empty grey-wall space the pending tile may go to."""

    def paint(pen: Pen) -> None:
        pen.rounded((0, 0, size, size), size * 0.16, outline=CHOICE_RGB, width=size * 0.1)

    return d.supersampled((size, size), paint)


@lru_cache(maxsize=16)
def _frame(width: int, height: int, scale: float) -> Image.Image:
    """The gold frame around the board of a player to act."""

    def paint(pen: Pen) -> None:
        d.frame(pen, (0, 0, width, height), 16 * scale, 4 * scale)

    return d.supersampled((width, height), paint)


def render(view: View, seats: tuple[int, ...], scale: float, acting: frozenset[int]) -> Image.Image:
    """The picture as an RGB image (see :func:`bot.pictures.render_group`)."""
    n = view["num_players"]
    grey = _grey(view)
    geometry = layout(n, grey, seats, scale)
    # the background depends on how many boards there are, not on whose they are
    boards = tuple(range(len(seats)))
    canvas = background(n, grey, boards, scale, tuple(view["floor_penalties"])).copy()
    _draw_supply(canvas, view, geometry.supply)
    for seat, board in geometry.boards.items():
        _draw_board(canvas, view, seat, board, seat in acting)
    return canvas


def _draw_supply(canvas: Image.Image, view: View, supply: SupplyGeometry) -> None:
    size = supply.TILE
    for factory, counts in enumerate(view["factories"]):
        index = 0
        for colour, count in enumerate(counts):
            for _ in range(count):
                d.paste(canvas, _tile(size, colour), supply.factory_slot(factory, index)[:2])
                index += 1
    index = 0
    if view["marker"] < 0 and view["phase"] == "draft":
        d.paste(canvas, _marker(size), supply.centre_slot(0)[:2])
        index = 1
    badge = round(size * 0.62)
    for colour, count in enumerate(view["centre"]):
        if count:
            x, y, right, _ = supply.centre_slot(index)
            d.paste(canvas, _tile(size, colour), (x, y))
            d.paste(canvas, d.count_badge(badge, count), (right - badge // 2 - 2, y - badge // 3))
            index += 1


def _draw_board(canvas: Image.Image, view: View, seat: int, board: BoardGeometry, acting: bool):
    size = board.cell
    if acting:
        left, top, right, bottom = board.box
        d.paste(canvas, _frame(right - left, bottom - top, board.scale), (left, top))
        d.paste(canvas, d.turn_arrow(board.arrow), board.arrow_xy)
    d.paste(canvas, d.seat_badge(board.badge, seat, acting), board.badge_xy)
    width, height = board.score_size
    d.paste(canvas, d.score_plate(width, height, view["scores"][seat]), board.score_xy)
    colours = view["line_colours"][seat]
    for row, count in enumerate(view["line_counts"][seat]):
        for k in range(count):
            d.paste(canvas, _tile(size, colours[row]), board.line_slot(row, k)[:2])
    wall = view["walls"][seat]
    for index, colour in enumerate(wall):
        if colour >= 0:
            d.paste(canvas, _tile(size, colour), board.wall_cell(*divmod(index, SIZE))[:2])
    for index, item in enumerate(view["floors"][seat]):
        sprite = _marker(size) if item == MARKER else _tile(size, item)
        d.paste(canvas, sprite, board.floor_slot(index)[:2])
    row = view["pending_rows"][seat]
    if row >= 0:
        for column in view["pending_columns"][seat]:
            d.paste(canvas, _choice(size), board.wall_cell(row, column)[:2])


# -- entry points (see bot.pictures) ------------------------------------------------------------
def acting(view: View) -> frozenset[int]:
    return frozenset(view["to_act"])


def group_picture(view: View, seats_to_act: frozenset[int]) -> Image.Image:
    return render(view, tuple(range(view["num_players"])), GROUP_SCALE, seats_to_act)


def private_picture(view: View, seat: int, seats_to_act: frozenset[int]) -> Image.Image:
    return render(view, (seat,), PRIVATE_SCALE, seats_to_act)


def key_colours() -> list[RGB]:
    """Colours kept exact by the palette (the tiles first: the pixel probes read them)."""
    colours = [*TILE_RGB, MARKER_RGB, *(faint(c) for c in range(len(TILE_RGB)))]
    colours += [BOARD_RGB, SLOT_RGB, GREY_SPACE_RGB, FACTORY_RGB, CENTRE_RGB, BOARD_RIM]
    return [*colours, d.PAGE, d.INK, d.WHITE, d.HIGHLIGHT, d.SOFT_INK]


def specimen_views() -> list[View]:
    """Positions whose pictures teach the palette every shade: a 4-player game after its
    first wall tiling, on the coloured and on the grey wall."""
    from games.azul.engine import ENGINE

    views = []
    for wall in ("colour", "grey"):
        state = ENGINE.new_game(4, {"wall": wall}, seed=1)
        while state["round"] == 1 and not ENGINE.is_over(state):
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        views.append(ENGINE.view(state, None))
    return views
