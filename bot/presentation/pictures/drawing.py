"""Drawing helpers shared by the board pictures: colours, the font shipped in ``fonts/``,
the readable text size, a pen that draws anti-aliased by supersampling, the colour-blind
symbols, and the tiles and badges built from them.

Everything here is a pure function of plain values. Pillow draws shapes without
anti-aliasing, so whatever is drawn once and reused — the background of a layout, every
sprite — is drawn :data:`SUPERSAMPLE` times larger and shrunk. Sprites are memoised: a
picture is a copy of a cached background with cached sprites pasted on it, plus a few
numbers.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[int, int, int, int]  # left, top, right, bottom: the pixels left <= x < right
Ink = RGB | tuple[int, int, int, int] | None  # a colour, with alpha on RGBA sprites

SUPERSAMPLE = 4  # sprites
BACKGROUND_SUPERSAMPLE = 3  # whole backgrounds (large: a lower factor keeps memory modest)

# -- colours ------------------------------------------------------------------------------------
PAGE = (246, 241, 231)
INK = (43, 38, 34)
SOFT_INK = (128, 116, 102)
WHITE = (255, 255, 255)
HIGHLIGHT = (232, 160, 20)  # the player to act, the round's wild colour, completed structures

# One symbol per colour name, shared by both games so a colour always looks the same; every
# silhouette differs from the others, so no information is carried by colour alone.
SYMBOLS = {
    "blue": "circle",
    "yellow": "triangle",
    "red": "diamond",
    "black": "plus",
    "white": "ring",
    "purple": "cross",
    "green": "square",
    "orange": "star",
}


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved towards ``b`` by ``t`` (0: ``a``, 1: ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def darker(colour: RGB, t: float = 0.35) -> RGB:
    return mix(colour, (0, 0, 0), t)


def is_light(colour: RGB) -> bool:
    return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] > 150


def ink_on(colour: RGB) -> RGB:
    """The symbol or digit colour that reads best on ``colour``."""
    return INK if is_light(colour) else WHITE


# -- text: one font, and a size a phone can read ---------------------------------------------
# DejaVu Sans Condensed Bold (Bitstream Vera licence, see fonts/LICENSE-DejaVu.txt): shipped
# with the package, so a picture never depends on the machine's fonts; it covers Latin with
# every accent, Greek and Cyrillic (Ukrainian ґ є і ї included). Condensed: more of a name
# fits; bold: reads at small sizes.
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed-Bold.ttf"

# Every picture is this wide; a phone shows it about DISPLAY_WIDTH pixels wide (a chat's
# width), so a picture pixel is DISPLAY_WIDTH / PICTURE_WIDTH of a pixel there.
PICTURE_WIDTH = 1020
DISPLAY_WIDTH = 400
# The smallest text a picture may draw: the height of a capital or a digit, in pixels at
# DISPLAY_WIDTH (Telegram's own smallest text, the time of a message, is about 8.5).
MIN_TEXT_HEIGHT = 8


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_FILE, size)


@lru_cache(maxsize=64)
def text_height(size: int) -> int:
    """The height in pixels of a capital (and of a digit) drawn at font size ``size``."""
    _, top, _, bottom = font(size).getbbox("H", anchor="ls")
    return bottom - top


def shown_height(size: float) -> float:
    """How tall a capital of font size ``size`` looks on a phone, in pixels."""
    return text_height(round(size)) * DISPLAY_WIDTH / PICTURE_WIDTH


def _smallest_readable() -> int:
    size = 6
    while shown_height(size) < MIN_TEXT_HEIGHT:
        size += 1
    return size


MIN_TEXT_SIZE = _smallest_readable()  # font size in picture pixels (28)


class TextTooSmall(ValueError):
    """A text below :data:`MIN_TEXT_SIZE`: a layout bug, caught by the tests."""


_recording: list[list[tuple[str, int]]] = []


@contextmanager
def recording_texts() -> Iterator[list[tuple[str, int]]]:
    """Collects ``(text, font size in picture pixels)`` of every text drawn meanwhile (for
    the tests; sprites and backgrounds drawn before are cached: clear the caches first)."""
    texts: list[tuple[str, int]] = []
    _recording.append(texts)
    try:
        yield texts
    finally:
        _recording.remove(texts)


def readable(label: str, size: float) -> int:
    """The one check of every text drawn: ``size`` (picture pixels) at least
    :data:`MIN_TEXT_SIZE`. Returns the size in whole pixels."""
    pixels = round(size)
    if pixels < MIN_TEXT_SIZE:
        raise TextTooSmall(f"{label!r} at {size:.1f} px: at least {MIN_TEXT_SIZE} px")
    for texts in _recording:
        texts.append((label, pixels))
    return pixels


_MISSING = "\U0010fffd"  # a private-use character: the font draws its "missing" box for it


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the font draws ``char`` (rather than its box for a missing glyph)."""
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    return _glyph(char) != _glyph(_MISSING)


def _glyph(char: str) -> tuple[tuple[int, int], tuple[int, ...]]:
    mask = font(MIN_TEXT_SIZE).getmask(char)
    return mask.size, tuple(mask)


def drawable(text: str) -> str:
    """``text`` as the font can draw it: a character it lacks replaced by its plain form
    where it has one (a rarer accent by the bare letter), else left out (emoji, other
    scripts); spaces collapsed. Empty when nothing is left."""
    kept = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif has_glyph(char):
            kept.append(char)
        else:
            kept += [c for c in unicodedata.normalize("NFKD", char) if has_glyph(c)]
    return " ".join("".join(kept).split())


def fit_text(text: str, size: int, width: float) -> str:
    """``text`` cut with "…" to be at most ``width`` pixels wide at font size ``size``."""
    typeface = font(size)
    if typeface.getlength(text) <= width:
        return text
    while text and typeface.getlength(text.rstrip() + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


NO_NAME = "?"  # a name with nothing the font can draw (emoji only)


def name_label(name: str, size: int, width: float) -> str:
    """A player's name as a picture shows it: drawable, shortened to ``width``."""
    return fit_text(drawable(name) or NO_NAME, size, width)


class Pen:
    """Draws in picture coordinates on a canvas ``k`` times larger."""

    def __init__(self, canvas: Image.Image, k: float = 1) -> None:
        self.draw = ImageDraw.Draw(canvas)
        self.k = k

    def _box(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        k = self.k
        left, top, right, bottom = box
        return (left * k, top * k, right * k - 1, bottom * k - 1)

    def _width(self, width: float) -> int:
        return max(1, round(width * self.k)) if width else 0

    def rect(
        self, box: Sequence[float], fill: Ink = None, outline: Ink = None, width: float = 0
    ) -> None:
        self.draw.rectangle(self._box(box), fill=fill, outline=outline, width=self._width(width))

    def rounded(
        self,
        box: Sequence[float],
        radius: float,
        fill: Ink = None,
        outline: Ink = None,
        width: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self._box(box),
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self._width(width),
        )

    def ellipse(
        self, box: Sequence[float], fill: Ink = None, outline: Ink = None, width: float = 0
    ) -> None:
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=self._width(width))

    def circle(
        self, centre: Point, radius: float, fill: Ink = None, outline: Ink = None, width: float = 0
    ) -> None:
        x, y = centre
        self.ellipse((x - radius, y - radius, x + radius, y + radius), fill, outline, width)

    def pieslice(self, centre: Point, radius: float, start: float, end: float, fill: RGB) -> None:
        """A slice of a disc, from ``start`` to ``end`` degrees clockwise from 3 o'clock."""
        x, y = centre
        box = self._box((x - radius, y - radius, x + radius, y + radius))
        self.draw.pieslice(box, start, end, fill=fill)

    def polygon(
        self, points: Sequence[Point], fill: Ink = None, outline: Ink = None, width: float = 0
    ) -> None:
        k = self.k
        scaled = [(x * k, y * k) for x, y in points]
        self.draw.polygon(scaled, fill=fill, outline=outline, width=self._width(width) or 1)

    def text(
        self,
        xy: Point,
        label: str,
        size: float,
        fill: RGB,
        anchor: str = "mm",
    ) -> None:
        k = self.k
        pixels = readable(label, size) * k
        self.draw.text(
            (xy[0] * k, xy[1] * k),
            label,
            fill=fill,
            font=font(pixels),
            anchor=anchor,
        )

    def symbol(self, name: str, centre: Point, r: float, fill: RGB) -> None:
        """One of :data:`SYMBOLS`, centred on ``centre`` inside a radius ``r``."""
        cx, cy = centre
        if name == "circle":
            self.circle(centre, r * 0.55, fill=fill)
        elif name == "ring":
            self.circle(centre, r * 0.6, outline=fill, width=r * 0.24)
        elif name == "triangle":
            points = [
                (cx, cy - r * 0.7),
                (cx + r * 0.68, cy + r * 0.5),
                (cx - r * 0.68, cy + r * 0.5),
            ]
            self.polygon(points, fill=fill)
        elif name == "diamond":
            e = r * 0.74
            self.polygon([(cx, cy - e), (cx + e * 0.8, cy), (cx, cy + e), (cx - e * 0.8, cy)], fill)
        elif name == "square":
            e = r * 0.47
            self.rect((cx - e, cy - e, cx + e, cy + e), fill=fill)
        elif name == "plus":
            long, thick = r * 0.68, r * 0.18
            self.rect((cx - long, cy - thick, cx + long, cy + thick), fill=fill)
            self.rect((cx - thick, cy - long, cx + thick, cy + long), fill=fill)
        elif name == "cross":
            long, thick = r * 0.66 / math.sqrt(2), r * 0.18 / math.sqrt(2)
            for sign in (1, -1):
                self.polygon(
                    [
                        (cx - long + thick, cy - sign * (long + thick)),
                        (cx + long + thick, cy + sign * (long - thick)),
                        (cx + long - thick, cy + sign * (long + thick)),
                        (cx - long - thick, cy - sign * (long - thick)),
                    ],
                    fill=fill,
                )
        elif name == "star":
            self.polygon(star_points((cx, cy + r * 0.06), r * 0.74, r * 0.31, 5), fill=fill)
        else:
            raise ValueError(f"unknown symbol {name!r}")


def star_points(centre: Point, outer: float, inner: float, points: int) -> list[Point]:
    cx, cy = centre
    result = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / points
        result.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return result


def supersampled(
    size: tuple[int, int],
    paint: Callable[[Pen], None],
    background: RGB | None = None,
    k: int = SUPERSAMPLE,
) -> Image.Image:
    """An image of ``size`` pixels painted by ``paint`` at ``k`` times the size and shrunk:
    RGBA with a transparent background, or RGB on ``background``."""
    width, height = size
    if background is None:
        big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    else:
        big = Image.new("RGB", (width * k, height * k), background)
    paint(Pen(big, k))
    return big.resize(size, Image.Resampling.BOX)


def write_name(
    canvas: Image.Image, xy: Point, name: str, size: int, width: float, fill: RGB
) -> None:
    """A player's name (see :func:`name_label`), its left end at ``xy`` and centred on it
    vertically, straight onto the picture (Pillow smooths text itself)."""
    label = name_label(name, size, width)
    ImageDraw.Draw(canvas).text(xy, label, fill=fill, font=font(readable(label, size)), anchor="lm")


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    canvas.paste(sprite, xy, sprite)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)


# -- sprites ------------------------------------------------------------------------------------
def paint_square_tile(pen: Pen, box: Sequence[float], fill: RGB, symbol: str | None, faint=False):
    """A square tile: rounded corners, a darker rim, its colour's symbol. ``faint``: a
    printed space of a wall, the symbol a shade of the colour."""
    left, top, right, bottom = box
    edge = right - left
    rim = darker(fill, 0.1) if faint else darker(fill, 0.3)
    pen.rounded(box, edge * 0.14, fill=fill, outline=rim, width=max(1.0, edge * 0.045))
    if symbol:
        ink = darker(fill, 0.16) if faint else ink_on(fill)
        pen.symbol(symbol, ((left + right) / 2, (top + bottom) / 2), edge * 0.34, ink)


SHADOW = (60, 45, 30, 70)  # under a tile that lies on the board


@lru_cache(maxsize=256)
def square_tile(size: int, fill: RGB, symbol: str | None) -> Image.Image:
    """A tile with its shadow: the sprite is a little larger than ``size`` (to the right and
    below), so it is pasted at the top-left corner of its space."""
    drop = max(1, round(size * 0.05))

    def paint(pen: Pen) -> None:
        pen.rounded((drop, drop, size + drop, size + drop), size * 0.14, fill=SHADOW)
        paint_square_tile(pen, (0, 0, size, size), fill, symbol)

    return supersampled((size + drop, size + drop), paint)


@lru_cache(maxsize=64)
def marker_tile(size: int, fill: RGB, rim: RGB) -> Image.Image:
    """The first-player marker: a tile showing a big "1" (drawn as a shape, so it reads on
    a small tile too)."""

    def paint(pen: Pen) -> None:
        pen.rounded((0, 0, size, size), size * 0.14, fill=fill, outline=rim, width=size * 0.08)
        s = size
        stem = [(s * 0.46, s * 0.2), (s * 0.58, s * 0.2), (s * 0.58, s * 0.72)]
        stem += [(s * 0.46, s * 0.72), (s * 0.46, s * 0.34), (s * 0.34, s * 0.42)]
        stem += [(s * 0.3, s * 0.33)]
        pen.polygon(stem, fill=INK)
        pen.rect((s * 0.33, s * 0.7, s * 0.71, s * 0.8), fill=INK)

    return supersampled((size, size), paint)


BADGE_HEIGHT = round(MIN_TEXT_SIZE * 1.25)  # a count badge: the smallest text with a rim


@lru_cache(maxsize=256)
def count_badge(count: int) -> Image.Image:
    """A dark pill with a number: how many tiles a pile holds."""
    height = BADGE_HEIGHT
    label = str(count)
    width = max(height, math.ceil(font(MIN_TEXT_SIZE).getlength(label)) + height // 2)

    def paint(pen: Pen) -> None:
        rim = height * 0.08
        pen.rounded((0, 0, width, height), height / 2, fill=INK, outline=WHITE, width=rim)
        pen.text((width / 2, height / 2), label, MIN_TEXT_SIZE, WHITE)

    return supersampled((width, height), paint)


@lru_cache(maxsize=64)
def seat_badge(size: int, seat: int, acting: bool) -> Image.Image:
    """The seat's number (1-based, as the caption's ❶ ❷ ❸) in a disc, gold for a player who
    is to act."""

    def paint(pen: Pen) -> None:
        pen.circle((size / 2, size / 2), size / 2, fill=HIGHLIGHT if acting else INK)
        pen.text((size / 2, size / 2), str(seat + 1), max(MIN_TEXT_SIZE, size * 0.62), WHITE)

    return supersampled((size, size), paint)


@lru_cache(maxsize=32)
def turn_arrow(size: int) -> Image.Image:
    """A gold arrow pointing right: "this player is to act"."""

    def paint(pen: Pen) -> None:
        pen.polygon([(0, size * 0.12), (size * 0.92, size / 2), (0, size * 0.88)], fill=HIGHLIGHT)

    return supersampled((size, size), paint)


@lru_cache(maxsize=512)
def score_plate(width: int, height: int, score: int) -> Image.Image:
    """The score: a dark number on a light plate with a laurel-gold rim."""

    def paint(pen: Pen) -> None:
        pen.rounded(
            (0, 0, width, height), height * 0.3, fill=WHITE, outline=HIGHLIGHT, width=height * 0.07
        )
        size = max(MIN_TEXT_SIZE, height * 0.7)
        pen.text((width / 2, height / 2 + height * 0.02), str(score), size, INK)

    return supersampled((width, height), paint)


def frame(pen: Pen, box: Sequence[float], radius: float, width: float) -> None:
    """The gold frame around the board of a player who is to act."""
    pen.rounded(box, radius, outline=HIGHLIGHT, width=width)
