"""Azul Mini: Summer Pavilion pictures, drawn from the engine's view
(``games/summer_pavilion/engine.py``).

Each player board is drawn with the printed geometry (``shared/rules/summer_pavilion.md``):
the central star and the six outer stars around it (star 1 on the left, then clockwise),
each a ring of six diamond spaces numbered 1..6 clockwise, spaces 2 and 3 facing the centre;
a pillar between the centre and every outer star, a statue between neighbouring outer
stars, a window outside every outer star. An empty space shows its printed number on its
star's colour washed out (the hub of each star carries the colour's symbol; Variant 1's
stars have no colour and show their number); a covered space shows its tile; a completed
structure turns gold. The player's tiles lie under the board, the tiles kept for the next
round on its corners, as at the table.

The group picture: the factories, the centre (with the first-player tile while it lies
there), the supply board's ten tiles and the round track with the wild colour, then every
player's board with the seat's number, name and score; the player to act is framed in
gold. The private picture (the prompt's): the factories, the reader's board in full on the
left; on its right the centre, the supply board and the round track, and under them the
others' boards, compact — their tiles, hands, names and scores, without the printed
numbers, which every board shares and the reader's shows.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from bot.presentation.pictures import drawing as d
from bot.presentation.pictures.backgrounds import kept
from bot.presentation.pictures.drawing import RGB, Box, Pen, Point
from games.core import View
from games.summer_pavilion.engine import COLOURS, STRUCTURES

TILE_RGB: tuple[RGB, ...] = (
    (128, 70, 170),  # purple
    (52, 146, 74),  # green
    (242, 130, 36),  # orange
    (247, 205, 52),  # yellow
    (40, 106, 196),  # blue
    (206, 46, 54),  # red
)
SYMBOL = tuple(d.SYMBOLS[name] for name in COLOURS)
MARKER_RGB: RGB = (250, 250, 250)
MARKER_RIM: RGB = (60, 54, 48)
BOARD_RGB: RGB = (240, 231, 210)
BOARD_RIM: RGB = (182, 160, 122)
NEUTRAL_RGB: RGB = (252, 248, 238)  # a space of the centre star (any colour), or of Variant 1
FAINT = 0.64  # how far an empty space's colour is washed towards the board
MEDALLION_RGB: RGB = (226, 212, 184)
FACTORY_RGB: RGB = (250, 248, 242)
FACTORY_RIM: RGB = (190, 178, 158)
TRAY_RGB: RGB = (232, 225, 212)

SQRT3 = math.sqrt(3)
STAR_DISTANCE = 2.8  # from the board's centre to an outer star's, in diamond sides
INSET = 0.9  # a tile or space drawn this much of its diamond, leaving a seam between them
MEDALLION = 0.34  # radius of a structure's medallion, in diamond sides
BOARD_HEIGHT = 9.0  # the board is 10 sides wide and this high: the stars reach 4.2 up and down
PILLAR, STATUE, WINDOW = range(3)

MARGIN = 16
GROUP_SIDE = 48  # a diamond's side in pixels, group picture
PRIVATE_SIDE = 44  # the reader's board in the private picture
COMPACT_SIDE = 26  # the others' boards there, at most (smaller for three of them)
COMPACT = 30  # a board drawn with a side below this is compact: no printed numbers
NAME_SIZE = d.MIN_TEXT_SIZE
LABEL_SIZE = d.MIN_TEXT_SIZE
HUB_NUMBER = 0.7 * LABEL_SIZE  # the radius of a hub that shows its star's number


def unit(degrees: float) -> Point:
    """The screen direction of a mathematical angle (y grows downwards on screen)."""
    radians = math.radians(degrees)
    return (math.cos(radians), -math.sin(radians))


def star_angle(star: int) -> float:
    """Direction from the board's centre to outer star ``star`` (1 = left, clockwise)."""
    return 180 - 60 * (star - 1)


def space_angle(star: int, space: int) -> float:
    """Direction of the long axis of ``space`` (1..6) of ``star``: spaces 2 and 3 face the
    centre (the centre star's notch between spaces ``a`` and ``a + 1`` faces star S, with
    ``a`` as in the rules' pillars), numbers run clockwise."""
    inward = 0 if star == 0 else star_angle(star) + 180
    return inward + 150 - 60 * space


# -- geometry -----------------------------------------------------------------------------------
class BoardGeometry:
    """One player's board: a header, the square board with the stars, the tiles in hand.
    A compact board (an opponent's, in the private picture) leaves out the printed numbers
    — every board has the same, printed on the reader's — and lists its hand in rows."""

    def __init__(self, x: int, y: int, side: int) -> None:
        s = side
        self.x, self.y, self.side = x, y, side
        self.compact = side < COMPACT
        self.width = 10 * s
        # a compact board has its score, first-player tile and pause sign on a second line
        self.header = 88 if self.compact else max(round(1.25 * s), 54)
        self.tile = max(round(0.82 * s), 16)
        self.hand_pitch = (self.tile + d.BADGE_HEIGHT + 1, d.BADGE_HEIGHT + 6)  # a tile, its count
        self.hand_columns = min(len(COLOURS), (self.width - 2) // self.hand_pitch[0])
        hand_rows = -(-len(COLOURS) // self.hand_columns)
        self.hand_height = hand_rows * self.hand_pitch[1] + 6
        board_height = round(BOARD_HEIGHT * s)
        self.height = self.header + board_height + self.hand_height
        self.box: Box = (x, y, x + self.width, y + self.height)
        self.board_box: Box = (x, y + self.header, x + self.width, y + self.header + board_height)
        self.centre: Point = (x + 5 * s, y + self.header + board_height // 2)
        line = 46 if self.compact else self.header  # the first line of the header
        self.badge = 34 if self.compact else max(round(0.8 * s), 38)
        self.badge_xy = (x + 8, y + (line - self.badge) // 2)
        self.arrow = round(self.badge * 0.66)
        self.arrow_xy = (
            self.badge_xy[0] + self.badge + 4,
            self.badge_xy[1] + (self.badge - self.arrow) // 2,
        )
        self.score_size = (64, 38) if self.compact else (max(round(1.9 * s), 84), 40)
        self.marker = round(self.badge * 0.85)
        if self.compact:
            self.score_xy = (x + 8, y + line + (self.header - line - self.score_size[1]) // 2 - 2)
            marker_left = self.score_xy[0] + self.score_size[0] + 8
            marker_y = self.score_xy[1] + (self.score_size[1] - self.marker) // 2
        else:
            self.score_xy = (
                x + self.width - 6 - self.score_size[0],
                y + (self.header - self.score_size[1]) // 2,
            )
            marker_left = self.arrow_xy[0] + self.arrow + 6
            marker_y = y + (self.header - self.marker) // 2
        self.marker_xy = (marker_left, marker_y)
        self.passed_xy = (self.marker_xy[0] + self.marker + 6, self.marker_xy[1])

    def name_box(self, icons: tuple[bool, bool, bool]) -> tuple[Point, float]:
        """Where the name goes after the badge and those ``icons`` drawn of the arrow, the
        first-player tile and the pause sign: its left middle point, and the width it may
        take (a compact board shows the last two on its second line)."""
        arrow, marker, passed = icons
        x = self.badge_xy[0] + self.badge
        if arrow and not self.compact:
            x = self.arrow_xy[0] + self.arrow
        if not self.compact:
            if marker:
                x = self.marker_xy[0] + self.marker
            if passed:
                x = self.passed_xy[0] + self.marker
        x += 8
        right = self.x + self.width - 6 if self.compact else self.score_xy[0] - 6
        return (x, self.badge_xy[1] + self.badge / 2), right - x

    def star_centre(self, star: int) -> Point:
        cx, cy = self.centre
        if star == 0:
            return (cx, cy)
        ux, uy = unit(star_angle(star))
        distance = STAR_DISTANCE * self.side
        return (cx + ux * distance, cy + uy * distance)

    def space_polygon(self, star: int, space: int, inset: float = INSET) -> list[Point]:
        """The diamond of ``space`` of ``star``: the star's centre, a side vertex, the tip,
        the other side vertex — shrunk by ``inset`` around the diamond's centre."""
        ox, oy = self.star_centre(star)
        angle = space_angle(star, space)
        s = self.side
        corners = [
            (0.0, 0.0),
            tuple(s * c for c in unit(angle + 30)),
            tuple(s * SQRT3 * c for c in unit(angle)),
            tuple(s * c for c in unit(angle - 30)),
        ]
        mx, my = (s * SQRT3 / 2 * c for c in unit(angle))
        return [(ox + mx + (px - mx) * inset, oy + my + (py - my) * inset) for px, py in corners]

    def space_point(self, star: int, space: int, depth: float = 0.5) -> Point:
        """The point on the long axis of a space at ``depth`` (0: the star's centre, 1: the
        tip); 0.5 is the diamond's centre, where its number or symbol is drawn."""
        ox, oy = self.star_centre(star)
        ux, uy = unit(space_angle(star, space))
        distance = depth * SQRT3 * self.side
        return (ox + ux * distance, oy + uy * distance)

    def structure_centre(self, kind: int, star: int) -> Point:
        """Where the medallion of a pillar, statue or window of outer star ``star`` is."""
        sx, sy = self.star_centre(star)
        if kind == PILLAR:
            cx, cy = self.centre
            return ((cx + sx) / 2, (cy + sy) / 2)
        if kind == STATUE:
            nx, ny = self.star_centre(star % 6 + 1)
            return ((sx + nx) / 2, (sy + ny) / 2)
        ux, uy = unit(star_angle(star))
        return (sx + ux * 1.5 * self.side, sy + uy * 1.5 * self.side)

    def corner_slot(self, index: int) -> Box:
        """The four corners of the board, where the tiles kept for the next round lie:
        top-left, top-right, bottom-left, bottom-right."""
        left, top, right, bottom = self.board_box
        gap = round(0.22 * self.side)
        x = left + gap if index % 2 == 0 else right - gap - self.tile
        y = top + gap if index < 2 else bottom - gap - self.tile
        return (x, y, x + self.tile, y + self.tile)

    def hand_slot(self, index: int, count: int) -> Box:
        """Pile ``index`` of ``count`` piles of tiles in hand, centred under the board (in
        rows on a compact board); its count to the right of the tile."""
        columns = min(count, self.hand_columns)
        row, column = divmod(index, self.hand_columns)
        in_row = min(columns, count - row * self.hand_columns)
        pitch_x, pitch_y = self.hand_pitch
        left = self.x + (self.width - in_row * pitch_x) // 2
        x = left + column * pitch_x
        y = self.board_box[3] + row * pitch_y + (pitch_y - self.tile) // 2
        return (x, y, x + self.tile, y + self.tile)


class SupplyGeometry:
    """Factories in a row, their numbers above them; the centre, the supply board and the
    round track: in a row under the factories (``trays`` None), or placed by the layout."""

    DISC = 88
    PITCH = 94
    TILE = 30
    ITEM = 44  # pitch of the slots of the supply board and of the round track
    CENTRE_ITEM = (TILE + d.BADGE_HEIGHT - 2, 44)  # a pile of the centre: a tile, its count
    GAP = 20
    NUMBER = 30  # the band of the factory numbers
    CENTRE_SIZE = (3 * CENTRE_ITEM[0] + 16, 2 * CENTRE_ITEM[1] + 16)
    SUPPLY_SIZE = (5 * ITEM + 16, 2 * ITEM + 16)
    TRACK_SIZE = (6 * ITEM + 16, 2 * ITEM + 16)

    def __init__(
        self, x: int, y: int, width: int, factories: int, trays: tuple[Point, ...] | None = None
    ) -> None:
        left = x + (width - factories * self.PITCH) // 2
        self.number_y = y + self.NUMBER / 2
        self.factory_centres: list[Point] = [
            (left + i * self.PITCH + self.PITCH / 2, y + self.NUMBER + self.DISC / 2 + 2)
            for i in range(factories)
        ]
        self.height = self.NUMBER + self.DISC + 4
        if trays is None:
            top = y + self.height + 12
            sizes = (self.CENTRE_SIZE, self.SUPPLY_SIZE, self.TRACK_SIZE)
            total = sum(w for w, _ in sizes) + 2 * self.GAP
            x0 = x + (width - total) // 2
            trays = ()
            for w, _ in sizes:
                trays += ((x0, top),)
                x0 += w + self.GAP
            self.height += 12 + self.CENTRE_SIZE[1]
        (cx, cy), (sx, sy), (tx, ty) = trays
        self.centre_box: Box = _box(cx, cy, self.CENTRE_SIZE)
        self.supply_box: Box = _box(sx, sy, self.SUPPLY_SIZE)
        self.track_box: Box = _box(tx, ty, self.TRACK_SIZE)

    def factory_slot(self, factory: int, index: int) -> Box:
        cx, cy = self.factory_centres[factory]
        half = (self.TILE + 4) / 2
        x = round(cx + (half if index % 2 else -half) - self.TILE / 2)
        y = round(cy + (half if index >= 2 else -half) - self.TILE / 2)
        return (x, y, x + self.TILE, y + self.TILE)

    def _grid_slot(self, box: Box, index: int, columns: int, item: tuple[int, int]) -> Box:
        x = box[0] + 8 + (index % columns) * item[0] + (item[1] - self.TILE) // 2
        y = box[1] + 8 + (index // columns) * item[1] + (item[1] - self.TILE) // 2
        return (x, y, x + self.TILE, y + self.TILE)

    def centre_slot(self, index: int) -> Box:
        """Pile ``index`` of the centre: the first-player tile first while it lies there."""
        return self._grid_slot(self.centre_box, index, 3, self.CENTRE_ITEM)

    def supply_slot(self, index: int) -> Box:
        """One of the ten spaces of the supply board."""
        return self._grid_slot(self.supply_box, index, 5, (self.ITEM, self.ITEM))

    def round_slot(self, round_index: int) -> Box:
        """Round ``round_index`` (0..5) of the round track: its wild colour."""
        left, top, _, _ = self.track_box
        x = left + 8 + round_index * self.ITEM + (self.ITEM - self.TILE) // 2
        y = top + 10
        return (x, y, x + self.TILE, y + self.TILE)


def _box(x: float, y: float, size: tuple[int, int]) -> Box:
    return (round(x), round(y), round(x) + size[0], round(y) + size[1])


class Layout:
    """The group picture: the supply, then every board, two to a row. The private one: the
    factories, then the reader's board on the left; on its right the centre, the supply
    board and the round track, and under them the others' boards, compact, in one row."""

    def __init__(self, num_players: int, seats: tuple[int, ...], private: bool) -> None:
        self.width = d.PICTURE_WIDTH
        factories = {2: 5, 3: 7, 4: 9}[num_players]
        inner = self.width - 2 * MARGIN
        self.boards: dict[int, BoardGeometry] = {}
        if not private:
            self.supply = SupplyGeometry(MARGIN, MARGIN, inner, factories)
            y = MARGIN + self.supply.height + MARGIN
            board = BoardGeometry(0, 0, GROUP_SIDE)
            gap = inner - 2 * board.width
            for index, seat in enumerate(seats):
                row, column = divmod(index, 2)
                x = MARGIN + column * (board.width + gap)
                if index == len(seats) - 1 and column == 0:
                    x = (self.width - board.width) // 2  # an odd last board
                self.boards[seat] = BoardGeometry(x, y + row * (board.height + MARGIN), GROUP_SIDE)
            bottom = y + ((len(seats) + 1) // 2) * (board.height + MARGIN)
        else:
            own, *others = seats
            top = MARGIN + SupplyGeometry.NUMBER + SupplyGeometry.DISC + 4 + MARGIN
            board = BoardGeometry(MARGIN, top, PRIVATE_SIDE)
            self.boards[own] = board
            x0 = MARGIN + board.width + MARGIN  # the right-hand column
            right = self.width - MARGIN - x0
            geometry = SupplyGeometry
            c, s, t = geometry.CENTRE_SIZE, geometry.SUPPLY_SIZE, geometry.TRACK_SIZE
            trays = ((x0, top), (x0 + right - s[0], top), (x0, top + c[1] + 10))
            self.supply = SupplyGeometry(MARGIN, MARGIN, inner, factories, trays)
            y = top + c[1] + 10 + t[1] + 10
            gap = 8
            side = min(COMPACT_SIDE, (right - gap * (len(others) - 1)) // (10 * len(others)))
            width = 10 * side
            x = x0 + (right - len(others) * width - (len(others) - 1) * gap) // 2
            for index, seat in enumerate(others):
                self.boards[seat] = BoardGeometry(x + index * (width + gap), y, side)
            lowest = max(geometry.box[3] for geometry in self.boards.values())
            bottom = lowest + MARGIN
        self.height = bottom
        self.size = (self.width, self.height)


@lru_cache(maxsize=32)
def layout(num_players: int, seats: tuple[int, ...], private: bool) -> Layout:
    return Layout(num_players, seats, private)


def group_layout(view: View) -> Layout:
    n = view["num_players"]
    return layout(n, tuple(range(n)), False)


def private_seats(view: View, seat: int) -> tuple[int, ...]:
    """The reader first, then the others in turn order after them."""
    n = view["num_players"]
    return tuple((seat + k) % n for k in range(n))


def private_layout(view: View, seat: int) -> Layout:
    return layout(view["num_players"], private_seats(view, seat), True)


# -- the background: everything printed ---------------------------------------------------------
def empty_space_rgb(star_colour: int) -> RGB:
    return NEUTRAL_RGB if star_colour < 0 else d.mix(TILE_RGB[star_colour], BOARD_RGB, FAINT)


@kept
def background(
    num_players: int,
    seats: tuple[int, ...],
    private: bool,
    star_colours: tuple[int, ...],
    numbers: tuple[tuple[int, ...], ...],
) -> Image.Image:
    geometry = layout(num_players, seats, private)
    numbered_stars = all(colour < 0 for colour in star_colours)  # Variant 1

    def paint(pen: Pen) -> None:
        _paint_supply(pen, geometry.supply)
        for board in geometry.boards.values():
            _paint_board(pen, board, star_colours, numbers, numbered_stars)

    return d.supersampled(geometry.size, paint, d.PAGE, d.BACKGROUND_SUPERSAMPLE)


def _paint_supply(pen: Pen, supply: SupplyGeometry) -> None:
    radius = supply.DISC / 2
    for number, (cx, cy) in enumerate(supply.factory_centres, start=1):
        pen.circle((cx + 2, cy + 3), radius, fill=d.mix(d.PAGE, d.INK, 0.12))
        pen.circle((cx, cy), radius, fill=FACTORY_RGB, outline=FACTORY_RIM, width=2)
        pen.text((cx, supply.number_y), str(number), LABEL_SIZE, d.INK)
    pen.rounded(supply.centre_box, 18, fill=TRAY_RGB, outline=FACTORY_RIM, width=2)
    pen.rounded(supply.supply_box, 10, fill=BOARD_RGB, outline=BOARD_RIM, width=2)
    for index in range(10):
        left, top, right, bottom = supply.supply_slot(index)
        pen.rounded((left - 2, top - 2, right + 2, bottom + 2), 6, fill=d.darker(BOARD_RGB, 0.08))
    pen.rounded(supply.track_box, 10, fill=BOARD_RGB, outline=BOARD_RIM, width=2)
    for round_index in range(6):
        left, _, right, bottom = supply.round_slot(round_index)
        pen.text(((left + right) / 2, bottom + 25), str(round_index + 1), LABEL_SIZE, d.INK)


def _paint_board(
    pen: Pen,
    board: BoardGeometry,
    star_colours: tuple[int, ...],
    numbers: tuple[tuple[int, ...], ...],
    numbered_stars: bool,
) -> None:
    s = board.side
    left, top, right, bottom = board.box
    pen.rounded(
        (left + 2, top + 3, right + 2, bottom + 3), 0.35 * s, fill=d.mix(d.PAGE, d.INK, 0.1)
    )
    pen.rounded(board.box, 0.35 * s, fill=BOARD_RGB, outline=BOARD_RIM, width=0.05 * s)
    bl, bt, br, bb = board.board_box
    pen.rounded((bl + 0.12 * s, bt, br - 0.12 * s, bb), 0.3 * s, outline=BOARD_RIM, width=0.03 * s)
    for index in range(4):
        slot = board.corner_slot(index)
        pen.rounded(
            slot,
            0.14 * board.tile,
            fill=d.darker(BOARD_RGB, 0.07),
            outline=BOARD_RIM,
            width=0.02 * s,
        )
    for star in range(7):
        colour = star_colours[star]
        fill = empty_space_rgb(colour)
        rim = d.darker(fill, 0.25)
        ink = d.darker(TILE_RGB[colour], 0.3) if colour >= 0 else d.INK
        backing = d.darker(fill, 0.22)  # shows in the seams: each star reads as one shape
        for space in range(1, 7):
            pen.polygon(board.space_polygon(star, space, inset=1.0), fill=backing)
        for space in range(1, 7):
            pen.polygon(board.space_polygon(star, space), fill=fill, outline=rim, width=0.03 * s)
            if not board.compact:  # the same on every board: printed on the reader's
                number = str(numbers[star][space - 1])
                size = max(LABEL_SIZE, 0.62 * s)
                pen.text(board.space_point(star, space, 0.56), number, size, ink)
        numbered = numbered_stars and not board.compact
        _paint_hub(pen, board.star_centre(star), s, star, colour, numbered)
    for kind, star, _ in STRUCTURES:
        _paint_medallion(pen, board.structure_centre(kind, star), MEDALLION * s, kind, done=False)


def _paint_hub(pen: Pen, centre: Point, s: float, star: int, colour: int, numbered: bool):
    """The centre of a star: its colour and symbol; a rosette of every colour for a star of
    any colour (the centre star); Variant 1's outer stars show their number."""
    radius = 0.27 * s
    if colour >= 0:
        pen.circle(centre, radius, fill=TILE_RGB[colour], outline=d.WHITE, width=0.04 * s)
        pen.symbol(SYMBOL[colour], centre, radius * 0.78, d.ink_on(TILE_RGB[colour]))
    elif numbered and star:
        radius = max(radius, HUB_NUMBER)
        pen.circle(centre, radius, fill=d.INK, outline=d.WHITE, width=0.04 * s)
        pen.text(centre, str(star), LABEL_SIZE, d.WHITE)
    else:
        for index, rgb in enumerate(TILE_RGB):
            start = -90 + index * 60
            pen.pieslice(centre, radius, start, start + 60, rgb)
        pen.circle(centre, radius, outline=d.WHITE, width=0.04 * s)


def _paint_medallion(pen: Pen, centre: Point, radius: float, kind: int, done: bool) -> None:
    fill = d.HIGHLIGHT if done else MEDALLION_RGB
    rim = d.darker(d.HIGHLIGHT, 0.35) if done else BOARD_RIM
    ink = d.WHITE if done else d.SOFT_INK
    pen.circle(centre, radius, fill=fill, outline=rim, width=radius * 0.12)
    cx, cy = centre
    r = radius
    if kind == PILLAR:  # a column: capital, shaft, base
        pen.rect((cx - 0.5 * r, cy - 0.6 * r, cx + 0.5 * r, cy - 0.42 * r), fill=ink)
        pen.rect((cx - 0.25 * r, cy - 0.42 * r, cx + 0.25 * r, cy + 0.42 * r), fill=ink)
        pen.rect((cx - 0.55 * r, cy + 0.42 * r, cx + 0.55 * r, cy + 0.62 * r), fill=ink)
    elif kind == STATUE:  # a figure on a plinth
        pen.circle((cx, cy - 0.42 * r), 0.2 * r, fill=ink)
        body = [(cx - 0.3 * r, cy + 0.32 * r), (cx - 0.14 * r, cy - 0.2 * r)]
        body += [(cx + 0.14 * r, cy - 0.2 * r), (cx + 0.3 * r, cy + 0.32 * r)]
        pen.polygon(body, fill=ink)
        pen.rect((cx - 0.48 * r, cy + 0.36 * r, cx + 0.48 * r, cy + 0.6 * r), fill=ink)
    else:  # an arched window with its panes
        w, h = 0.36 * r, 0.62 * r
        pen.circle((cx, cy - h + w), w, fill=ink)
        pen.rect((cx - w, cy - h + w, cx + w, cy + h), fill=ink)
        pen.rect((cx - 0.05 * r, cy - h + 0.1 * r, cx + 0.05 * r, cy + h), fill=fill)
        pen.rect((cx - w, cy + 0.02 * r, cx + w, cy + 0.12 * r), fill=fill)


# -- sprites ------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _square(size: int, colour: int) -> Image.Image:
    return d.square_tile(size, TILE_RGB[colour], SYMBOL[colour])


@lru_cache(maxsize=16)
def _marker(size: int) -> Image.Image:
    return d.marker_tile(size, MARKER_RGB, MARKER_RIM)


@lru_cache(maxsize=1024)
def _space_tile(
    side: int, star: int, space: int, colour: int
) -> tuple[Image.Image, tuple[int, int]]:
    """A tile on a star space, and where to paste it relative to the board's centre."""
    geometry = BoardGeometry(0, 0, side)  # any board: its centre is on whole pixels
    cx, cy = geometry.centre
    polygon = geometry.space_polygon(star, space)
    left = math.floor(min(x for x, _ in polygon)) - 2
    top = math.floor(min(y for _, y in polygon)) - 2
    right = math.ceil(max(x for x, _ in polygon)) + 3
    bottom = math.ceil(max(y for _, y in polygon)) + 3
    fill = TILE_RGB[colour]
    local = [(x - left, y - top) for x, y in polygon]
    shadow = [(x + 0.05 * side, y + 0.05 * side) for x, y in local]
    mx, my = geometry.space_point(star, space)

    def paint(pen: Pen) -> None:
        pen.polygon(shadow, fill=d.SHADOW)
        pen.polygon(local, fill=fill, outline=d.darker(fill, 0.3), width=0.04 * side)
        pen.symbol(SYMBOL[colour], (mx - left, my - top), 0.3 * side, d.ink_on(fill))

    image = d.supersampled((right - left, bottom - top), paint)
    return image, (round(left - cx), round(top - cy))


@lru_cache(maxsize=64)
def _medallion(side: int, kind: int) -> Image.Image:
    radius = MEDALLION * side
    size = math.ceil(2 * radius) + 2

    def paint(pen: Pen) -> None:
        _paint_medallion(pen, (size / 2, size / 2), radius, kind, done=True)

    return d.supersampled((size, size), paint)


@lru_cache(maxsize=64)
def _hub_cover(side: int, star: int, colour: int, numbered: bool) -> Image.Image:
    """A star's hub drawn again over the inner points of its tiles."""
    size = math.ceil(max(0.62 * side, 2.3 * HUB_NUMBER if numbered and star else 0))

    def paint(pen: Pen) -> None:
        _paint_hub(pen, (size / 2, size / 2), side, star, colour, numbered)

    return d.supersampled((size, size), paint)


@lru_cache(maxsize=16)
def _frame(width: int, height: int, side: int) -> Image.Image:
    def paint(pen: Pen) -> None:
        d.frame(pen, (0, 0, width, height), 0.35 * side, max(3.0, 0.1 * side))

    return d.supersampled((width, height), paint)


@lru_cache(maxsize=16)
def _passed(size: int) -> Image.Image:
    """A player who passed this round: a grey disc with a pause sign."""

    def paint(pen: Pen) -> None:
        pen.circle((size / 2, size / 2), size / 2, fill=d.SOFT_INK)
        pen.rect((size * 0.32, size * 0.27, size * 0.44, size * 0.73), fill=d.WHITE)
        pen.rect((size * 0.56, size * 0.27, size * 0.68, size * 0.73), fill=d.WHITE)

    return d.supersampled((size, size), paint)


@lru_cache(maxsize=16)
def _wild_ring(size: int) -> Image.Image:
    """The gold ring around the round's wild colour (track and the tiles in hand)."""
    pad = max(3, size // 7)

    def paint(pen: Pen) -> None:
        outer = size + 2 * pad
        pen.rounded((0, 0, outer, outer), size * 0.25, outline=d.HIGHLIGHT, width=pad * 0.8)

    return d.supersampled((size + 2 * pad, size + 2 * pad), paint)


@lru_cache(maxsize=16)
def _veil(size: int) -> Image.Image:
    """Washes out a past round on the track."""
    return Image.new("RGBA", (size + 2, size + 2), (*BOARD_RGB, 170))


# -- the position -------------------------------------------------------------------------------
def render(
    view: View,
    seats: tuple[int, ...],
    private: bool,
    acting: frozenset[int],
    names: tuple[str, ...] = (),
) -> Image.Image:
    """The picture as an RGB image (see :func:`bot.presentation.pictures.render_group`)."""
    n = view["num_players"]
    star_colours = tuple(view["star_colours"])
    numbers = tuple(tuple(row) for row in view["numbers"])
    # the background depends on how many boards there are and which is whose, not on whose
    # they are
    canvas = background(n, tuple(range(len(seats))), private, star_colours, numbers).copy()
    geometry = layout(n, seats, private)
    _draw_supply(canvas, view, geometry.supply)
    numbered = all(colour < 0 for colour in star_colours)
    for seat, board in geometry.boards.items():
        name = names[seat] if seat < len(names) else ""
        _draw_board(canvas, view, seat, board, seat in acting, star_colours, numbered, name)
    return canvas


def _draw_supply(canvas: Image.Image, view: View, supply: SupplyGeometry) -> None:
    size = supply.TILE
    for factory, counts in enumerate(view["factories"]):
        index = 0
        for colour, count in enumerate(counts):
            for _ in range(count):
                d.paste(canvas, _square(size, colour), supply.factory_slot(factory, index)[:2])
                index += 1
    index = 0
    if view["first_player_tile"] < 0 and view["phase"] == "taking":
        d.paste(canvas, _marker(size), supply.centre_slot(0)[:2])
        index = 1
    for colour, count in enumerate(view["centre"]):
        if count:
            x, y, right, bottom = supply.centre_slot(index)
            d.paste(canvas, _square(size, colour), (x, y))
            badge = d.count_badge(count)
            d.paste(canvas, badge, (right - 2, (y + bottom - badge.height) // 2))
            index += 1
    index = 0
    for colour, count in enumerate(view["supply"]):
        for _ in range(count):
            d.paste(canvas, _square(size, colour), supply.supply_slot(index)[:2])
            index += 1
    current = view["round"] - 1
    for round_index, colour in enumerate(view["wild_order"]):
        x, y, _, _ = supply.round_slot(round_index)
        d.paste(canvas, _square(size, colour), (x, y))
        if round_index < current:
            d.paste(canvas, _veil(size), (x, y))
        elif round_index == current:
            ring = _wild_ring(size)
            pad = (ring.width - size) // 2
            d.paste(canvas, ring, (x - pad, y - pad))


def _draw_board(
    canvas: Image.Image,
    view: View,
    seat: int,
    board: BoardGeometry,
    acting: bool,
    star_colours: tuple[int, ...],
    numbered: bool,
    name: str,
) -> None:
    s = board.side
    player = view["players"][seat]
    if acting:
        left, top, right, bottom = board.box
        d.paste(canvas, _frame(right - left, bottom - top, s), (left, top))
        if not board.compact:  # a compact board's frame and gold badge are enough
            d.paste(canvas, d.turn_arrow(board.arrow), board.arrow_xy)
    d.paste(canvas, d.seat_badge(board.badge, seat, acting), board.badge_xy)
    marker = view["first_player_tile"] == seat
    if marker:
        d.paste(canvas, _marker(board.marker), board.marker_xy)
    passed = player["passed"] and view["phase"] != "over"
    if passed:
        d.paste(canvas, _passed(board.marker), board.passed_xy)
    icons = (acting, marker, passed)
    if name:
        xy, width = board.name_box(icons)
        d.write_name(canvas, xy, name, NAME_SIZE, width, d.INK)
    width, height = board.score_size
    d.paste(canvas, d.score_plate(width, height, player["score"]), board.score_xy)
    cx, cy = round(board.centre[0]), round(board.centre[1])
    spaces = player["board"]
    for star, tiles in enumerate(spaces):
        covered = False
        for offset, colour in enumerate(tiles):
            if colour >= 0:
                sprite, (dx, dy) = _space_tile(s, star, offset + 1, colour)
                d.paste(canvas, sprite, (cx + dx, cy + dy))
                covered = True
        if covered:
            hub = _hub_cover(s, star, star_colours[star], numbered and not board.compact)
            d.paste_centred(canvas, hub, board.star_centre(star))
    for kind, star, indices in STRUCTURES:
        if all(spaces[i // 6][i % 6] >= 0 for i in indices):
            d.paste_centred(canvas, _medallion(s, kind), board.structure_centre(kind, star))
    index = 0
    for colour, count in enumerate(player["corners"]):
        for _ in range(count):
            if index < 4:
                d.paste(canvas, _square(board.tile, colour), board.corner_slot(index)[:2])
            index += 1
    hand = [(colour, count) for colour, count in enumerate(player["hand"]) if count]
    for index, (colour, count) in enumerate(hand):
        x, y, right, bottom = board.hand_slot(index, len(hand))
        if colour == view["wild"]:
            ring = _wild_ring(board.tile)
            pad = (ring.width - board.tile) // 2
            d.paste(canvas, ring, (x - pad, y - pad))
        d.paste(canvas, _square(board.tile, colour), (x, y))
        badge = d.count_badge(count)
        d.paste(canvas, badge, (right, (y + bottom - badge.height) // 2))


# -- entry points (see bot.presentation.pictures) --------------------------------------------------
def acting(view: View) -> frozenset[int]:
    current = view["current"]
    return frozenset() if current is None else frozenset((current,))


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
    colours = [*TILE_RGB, MARKER_RGB, *(empty_space_rgb(c) for c in range(len(TILE_RGB)))]
    colours += [NEUTRAL_RGB, BOARD_RGB, BOARD_RIM, MEDALLION_RGB, FACTORY_RGB, TRAY_RGB]
    return [*colours, d.PAGE, d.INK, d.WHITE, d.HIGHLIGHT, d.SOFT_INK]


def specimen_views() -> list[View]:
    """Positions whose pictures teach the palette every shade: 4-player games in their third
    round (tiles on the stars, in hand, on the supply), on both sides of the board."""
    from games.summer_pavilion.engine import ENGINE

    views = []
    for variant1 in (False, True):
        state = ENGINE.new_game(4, {"variant1": variant1}, seed=1)
        while state["round"] < 3 or state["phase"] != "placing":
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        views.append(ENGINE.view(state, None))
    return views
