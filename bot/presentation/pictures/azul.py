"""Azul pictures, drawn from the engine's view (``games/azul/engine.py``).

The group picture is the table: the factories (numbered as in the buttons) and the centre
with the first-player marker while it lies there, each pile with its count, then every
player's board as printed — the pattern lines right-aligned on the left, the wall on the
right (its colour pattern shown faintly on every empty space; the grey wall plain, its
columns numbered), the floor line with its penalties printed on its spaces, the seat
number, the player's name and the score on top. The players to act are framed in gold.
The private picture (the prompt's) shows the same supply, the reader's board in full on
the left and the others' compact on its right — their tiles, names and scores; the
penalties and column numbers, the same on every board, are printed on the reader's. No
words but names, so one picture serves every language.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.presentation.pictures import drawing as d
from bot.presentation.pictures.backgrounds import kept
from bot.presentation.pictures.drawing import RGB, Box, Pen, Point
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
FULL = 1.0  # the scale of a board with everything printed on it
COMPACT = 0.5  # an opponent's board in the private picture: tiles, name and score
NAME_SIZE = d.MIN_TEXT_SIZE
LABEL_SIZE = d.MIN_TEXT_SIZE  # penalties, column and factory numbers


def faint(colour: int) -> RGB:
    """The printed, empty wall space of ``colour``."""
    return d.mix(TILE_RGB[colour], BOARD_RGB, FAINT)


# -- geometry -----------------------------------------------------------------------------------
class BoardGeometry:
    """Where everything of one player's board is, in picture pixels. A full board has its
    penalties (on the floor's spaces) and the grey wall's column numbers printed; a compact
    one only its tiles, its name and its score."""

    def __init__(self, x: int, y: int, scale: float, grey: bool) -> None:
        u = scale
        self.x, self.y, self.scale, self.grey = x, y, scale, grey
        self.compact = scale < FULL
        self.cell = round(40 * u)
        self.gap = round(4 * u)
        self.pitch = self.cell + self.gap
        self.pad = 6 if self.compact else 14
        header = 44 if self.compact else 52
        strip = 34 if grey and not self.compact else 0  # the grey wall's column numbers
        span = SIZE * self.pitch - self.gap
        self.width = 2 * self.pad + 2 * span + round(26 * u)
        self.top = y + self.pad + header + strip
        self.lines_right = x + self.pad + span
        self.wall_left = x + self.width - self.pad - span
        self.floor_top = self.top + span + (8 if self.compact else 16)
        self.badge = 36 if self.compact else 40
        self.badge_xy = (x + self.pad, y + self.pad + (header - self.badge) // 2 - 2)
        self.arrow = 22 if self.compact else 26
        self.arrow_xy = (
            self.badge_xy[0] + self.badge + 4,
            self.badge_xy[1] + (self.badge - self.arrow) // 2,
        )
        self.score_size = (58, 36) if self.compact else (80, 40)
        name_left = self.arrow_xy[0] + self.arrow + 6
        self.name_xy: Point = (name_left, self.badge_xy[1] + self.badge / 2)
        # a name beside the badge where no arrow is drawn (the player is not to act)
        self.name_xy_idle: Point = (self.badge_xy[0] + self.badge + 10, self.name_xy[1])
        self.score_xy = (
            x + self.width - self.pad - self.score_size[0],
            self.badge_xy[1] + (self.badge - self.score_size[1]) // 2,
        )
        self.name_width = self.score_xy[0] - 8 - name_left
        self.height = self.floor_top + self.cell + self.pad - y
        self.box: Box = (x, y, x + self.width, y + self.height)
        self.column_label_y = self.top - strip / 2 - 2

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
        """Where a floor space's penalty is printed: on the space, as on the board."""
        left, top, right, bottom = self.floor_slot(index)
        return ((left + right) / 2, (top + bottom) / 2)


class SupplyGeometry:
    """The factories in one row, their numbers above them, the centre after the last one."""

    TILE = 30  # the centre's tiles
    ITEM = (TILE + d.BADGE_HEIGHT - 4, 46)  # pitch of the centre's piles: a tile, its count
    CENTRE_COLUMNS = 3
    NUMBER = 30  # the band of the factory numbers

    def __init__(self, x: int, y: int, width: int, factories: int) -> None:
        centre_width = self.CENTRE_COLUMNS * self.ITEM[0] + 16
        self.pitch = min(112, (width - centre_width - 8) // factories)
        self.disc = self.pitch - 8
        self.tile = round(self.disc * 0.34)
        left = x + (width - factories * self.pitch - 8 - centre_width) // 2
        centre_height = 2 * self.ITEM[1] + 16
        self.height = max(self.NUMBER + self.disc, centre_height)
        cy = y + self.height - self.disc / 2
        self.factory_centres: list[Point] = [
            (left + i * self.pitch + self.pitch / 2, cy) for i in range(factories)
        ]
        self.number_y = cy - self.disc / 2 - self.NUMBER / 2
        cx0 = left + factories * self.pitch + 8
        cy0 = y + self.height - centre_height
        self.centre_box: Box = (cx0, cy0, cx0 + centre_width, cy0 + centre_height)

    def factory_slot(self, factory: int, index: int) -> Box:
        cx, cy = self.factory_centres[factory]
        half = (self.tile + 4) / 2
        x = round(cx + (half if index % 2 else -half) - self.tile / 2)
        y = round(cy + (half if index >= 2 else -half) - self.tile / 2)
        return (x, y, x + self.tile, y + self.tile)

    def centre_slot(self, index: int) -> Box:
        """Pile ``index`` of the centre: the first-player marker first while it lies there,
        then one pile per colour present, its count to the tile's right."""
        size = self.TILE
        x = self.centre_box[0] + 8 + (index % self.CENTRE_COLUMNS) * self.ITEM[0]
        y = self.centre_box[1] + 8 + (index // self.CENTRE_COLUMNS) * self.ITEM[1]
        y += (self.ITEM[1] - size) // 2
        return (x, y, x + size, y + size)


class Layout:
    """A whole picture: the supply on top, then the boards of ``seats`` (the first one is
    the reader's in a private picture: full size on the left, the others compact on its
    right, two to a row)."""

    def __init__(self, num_players: int, grey: bool, seats: tuple[int, ...], private: bool):
        self.width = d.PICTURE_WIDTH
        factories = {2: 5, 3: 7, 4: 9}[num_players]
        self.supply = SupplyGeometry(MARGIN, MARGIN, self.width - 2 * MARGIN, factories)
        y = MARGIN + self.supply.height + MARGIN
        self.boards: dict[int, BoardGeometry] = {}
        full = BoardGeometry(0, 0, FULL, grey)
        gap = self.width - 2 * MARGIN - 2 * full.width
        if private and len(seats) > 2:
            own, *others = seats
            self.boards[own] = BoardGeometry(MARGIN, y, FULL, grey)
            small = BoardGeometry(0, 0, COMPACT, grey)
            x0 = MARGIN + full.width + gap
            inner = (self.width - MARGIN - x0 - 2 * small.width) // 1
            for index, seat in enumerate(others):
                row, column = divmod(index, 2)
                x = x0 + column * (small.width + inner)
                self.boards[seat] = BoardGeometry(x, y + row * (small.height + 10), COMPACT, grey)
            rows = (len(others) + 1) // 2
            bottom = max(full.height, rows * (small.height + 10) - 10)
        else:
            for index, seat in enumerate(seats):
                row, column = divmod(index, 2)
                x = MARGIN + column * (full.width + gap)
                if index == len(seats) - 1 and column == 0:
                    x = (self.width - full.width) // 2  # an odd last board
                self.boards[seat] = BoardGeometry(x, y + row * (full.height + MARGIN), FULL, grey)
            rows = (len(seats) + 1) // 2
            bottom = rows * (full.height + MARGIN) - MARGIN
        self.height = y + bottom + MARGIN
        self.size = (self.width, self.height)


@lru_cache(maxsize=32)
def layout(num_players: int, grey: bool, seats: tuple[int, ...], private: bool) -> Layout:
    return Layout(num_players, grey, seats, private)


def group_layout(view: View) -> Layout:
    n = view["num_players"]
    return layout(n, _grey(view), tuple(range(n)), False)


def private_seats(view: View, seat: int) -> tuple[int, ...]:
    """The reader first, then the others in turn order after them."""
    n = view["num_players"]
    return tuple((seat + k) % n for k in range(n))


def private_layout(view: View, seat: int) -> Layout:
    return layout(view["num_players"], _grey(view), private_seats(view, seat), True)


def _grey(view: View) -> bool:
    return view["options"]["wall"] == "grey"


# -- the background: everything printed on the boards -----------------------------------------
@kept
def background(
    num_players: int,
    grey: bool,
    seats: tuple[int, ...],
    private: bool,
    penalties: tuple[int, ...],
) -> Image.Image:
    geometry = layout(num_players, grey, seats, private)

    def paint(pen: Pen) -> None:
        _paint_supply(pen, geometry.supply)
        for board in geometry.boards.values():
            _paint_board(pen, board, penalties)

    return d.supersampled(geometry.size, paint, d.PAGE, d.BACKGROUND_SUPERSAMPLE)


def _paint_supply(pen: Pen, supply: SupplyGeometry) -> None:
    radius = supply.disc / 2
    for number, (cx, cy) in enumerate(supply.factory_centres, start=1):
        pen.circle((cx + 2, cy + 3), radius, fill=d.mix(d.PAGE, d.INK, 0.12))  # shadow
        pen.circle((cx, cy), radius, fill=FACTORY_RGB, outline=FACTORY_RIM, width=2)
        pen.text((cx, supply.number_y), str(number), LABEL_SIZE, d.INK)
    pen.rounded(supply.centre_box, 18, fill=CENTRE_RGB, outline=FACTORY_RIM, width=2)


def _paint_board(pen: Pen, board: BoardGeometry, penalties: tuple[int, ...]) -> None:
    u = board.scale
    left, top, right, bottom = board.box
    radius = 14 * u if board.compact else 14
    pen.rounded((left + 2, top + 3, right + 2, bottom + 3), radius, fill=d.mix(d.PAGE, d.INK, 0.1))
    pen.rounded(board.box, radius, fill=BOARD_RGB, outline=BOARD_RIM, width=2)
    radius = board.cell * 0.14
    width = max(1.0, u)
    for row in range(SIZE):
        for k in range(row + 1):
            pen.rounded(
                board.line_slot(row, k), radius, fill=SLOT_RGB, outline=_rim(SLOT_RGB), width=width
            )
        for column in range(SIZE):
            cell = board.wall_cell(row, column)
            if board.grey:
                pen.rounded(
                    cell, radius, fill=GREY_SPACE_RGB, outline=_rim(GREY_SPACE_RGB), width=width
                )
            else:
                colour = wall_colour(row, column)
                d.paint_square_tile(pen, cell, faint(colour), SYMBOL[colour], faint=True)
        # the arrow from a pattern line to its wall row
        y = board.top + row * board.pitch + board.cell / 2
        x0 = board.lines_right + 5 * u
        x1 = board.wall_left - 5 * u
        pen.polygon([(x0, y - 6 * u), (x1, y), (x0, y + 6 * u)], fill=_rim(BOARD_RGB))
    if board.grey and not board.compact:
        for column in range(SIZE):
            left, _, right, _ = board.wall_cell(0, column)
            pen.text(((left + right) / 2, board.column_label_y), str(column + 1), LABEL_SIZE, d.INK)

    for index, penalty in enumerate(penalties):
        pen.rounded(
            board.floor_slot(index), radius, fill=SLOT_RGB, outline=_rim(SLOT_RGB), width=width
        )
        if not board.compact:  # the same on every board: printed on the reader's
            pen.text(board.penalty_xy(index), f"−{penalty}", LABEL_SIZE, d.SOFT_INK)


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
        d.frame(pen, (0, 0, width, height), 16 * scale if scale < FULL else 16, 4)

    return d.supersampled((width, height), paint)


def render(
    view: View,
    seats: tuple[int, ...],
    private: bool,
    acting: frozenset[int],
    names: tuple[str, ...] = (),
) -> Image.Image:
    """The picture as an RGB image (see :func:`bot.presentation.pictures.render_group`)."""
    n = view["num_players"]
    grey = _grey(view)
    geometry = layout(n, grey, seats, private)
    # the background depends on how many boards there are and which is whose, not on whose
    # they are
    boards = tuple(range(len(seats)))
    penalties = tuple(view["floor_penalties"])
    canvas = background(n, grey, boards, private, penalties).copy()
    _draw_supply(canvas, view, geometry.supply)
    for seat, board in geometry.boards.items():
        name = names[seat] if seat < len(names) else ""
        _draw_board(canvas, view, seat, board, seat in acting, name)
    return canvas


def _draw_supply(canvas: Image.Image, view: View, supply: SupplyGeometry) -> None:
    for factory, counts in enumerate(view["factories"]):
        index = 0
        for colour, count in enumerate(counts):
            for _ in range(count):
                sprite = _tile(supply.tile, colour)
                d.paste(canvas, sprite, supply.factory_slot(factory, index)[:2])
                index += 1
    index = 0
    size = supply.TILE
    if view["marker"] < 0 and view["phase"] == "draft":
        d.paste(canvas, _marker(size), supply.centre_slot(0)[:2])
        index = 1
    for colour, count in enumerate(view["centre"]):
        if count:
            x, y, right, bottom = supply.centre_slot(index)
            d.paste(canvas, _tile(size, colour), (x, y))
            badge = d.count_badge(count)
            d.paste(canvas, badge, (right - 4, (y + bottom - badge.height) // 2))
            index += 1


def _draw_board(
    canvas: Image.Image, view: View, seat: int, board: BoardGeometry, acting: bool, name: str
) -> None:
    size = board.cell
    if acting:
        left, top, right, bottom = board.box
        d.paste(canvas, _frame(right - left, bottom - top, board.scale), (left, top))
        d.paste(canvas, d.turn_arrow(board.arrow), board.arrow_xy)
    d.paste(canvas, d.seat_badge(board.badge, seat, acting), board.badge_xy)
    if name:
        xy = board.name_xy if acting else board.name_xy_idle
        width = board.name_width + board.name_xy[0] - xy[0]
        d.write_name(canvas, xy, name, NAME_SIZE, width, d.INK)
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


# -- entry points (see bot.presentation.pictures) --------------------------------------------------
def acting(view: View) -> frozenset[int]:
    return frozenset(view["to_act"])


def group_picture(
    view: View, seats_to_act: frozenset[int], names: tuple[str, ...] = ()
) -> Image.Image:
    return render(view, tuple(range(view["num_players"])), False, seats_to_act, names)


def private_picture(
    view: View, seat: int, seats_to_act: frozenset[int], names: tuple[str, ...] = ()
) -> Image.Image:
    return render(view, private_seats(view, seat), True, seats_to_act, names)


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
