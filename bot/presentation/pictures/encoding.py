"""From a drawn RGB picture to the bytes sent to Telegram: a PNG with a 256-colour palette.

Why a palette PNG and not JPEG: a board is flat colours, sharp edges and small digits —
JPEG smears exactly those (ringing around every tile and digit) and is larger at a quality
that hides it (measured on 4-player boards: JPEG quality 85 weighs 145–210 KB, the palette
PNG 50–100 KB); a palette PNG keeps every flat colour clean, and reducing an image to a fixed
palette costs about two milliseconds. The palette of each game is learnt once from specimen
pictures (median cut), with the game's key colours (tiles, markers, boards) put first so
each has its own entry; Pillow maps a pixel to an entry within a few units, and the
anti-aliased edges to the nearest of the remaining colours. Telegram converts every photo
to JPEG on its side anyway; it starts from a clean source.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.presentation.pictures.drawing import RGB

PALETTE_SIZE = 256
# zlib level. Encoding is most of a picture's cost; measured (CPU, median of 21) on mid-game
# 4-player pictures, Azul / Summer Pavilion: level 2 takes 3.2 / 4.6 ms for 52 / 94 KB,
# level 4 4.8 / 6.4 ms for 46 / 84 KB, level 6 (Pillow's default) 6.6 / 10.1 ms for
# 40 / 78 KB, level 9 37 / 54 ms. Every level is far under the 150 KB target: speed wins.
COMPRESS_LEVEL = 2


def build_palette(key_colours: Sequence[RGB], specimens: Sequence[Image.Image]) -> Image.Image:
    """A "P" image holding the palette: ``key_colours`` first, exactly, then the median cut
    of the specimens for the rest (shades of anti-aliased edges and text)."""
    keys = list(dict.fromkeys(key_colours))[:PALETTE_SIZE]
    width = sum(image.width for image in specimens)
    height = max(image.height for image in specimens)
    sheet = Image.new("RGB", (width, height), keys[0] if keys else (0, 0, 0))
    x = 0
    for image in specimens:
        sheet.paste(image, (x, 0))
        x += image.width
    rest = sheet.quantize(
        colors=PALETTE_SIZE - len(keys),
        method=Image.Quantize.MEDIANCUT,
        dither=Image.Dither.NONE,
    ).getpalette()
    assert rest is not None
    flat = [channel for colour in keys for channel in colour] + rest
    flat = (flat + [0] * (3 * PALETTE_SIZE))[: 3 * PALETTE_SIZE]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def to_png(picture: Image.Image, palette: Image.Image) -> bytes:
    reduced = picture.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    reduced.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
