"""The layouts' backgrounds, kept in little memory: each drawn once, kept compressed, and
only the ones used last kept as pixels too.

A background — everything printed on the boards and the supply, for one layout — is 2.6 to
5.6 MB of pixels (Pillow keeps 4 bytes a pixel) and takes 0.1–0.3 s of CPU to draw. Every
layout of both games (2–4 players, each option, group and prompt) held 78 MB as pixels;
compressed (zlib level 1) a background weighs 0.06–0.2 MB, since most of it is flat
colour, and decompressing one costs 3–6 ms. So every background drawn stays compressed,
and the most recently used stay as pixels up to :data:`DECODED_BYTES` (the layouts a
bot plays at once — a bench of 3-player games uses four); a picture of another layout
decompresses its background rather than draw it again. The pixels are the same either
way, so the pictures are byte for byte the same.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any

from PIL import Image

DECODED_BYTES = 24 * 2**20  # backgrounds kept as pixels, the most recently used
PACKED_COUNT = 64  # compressed ones: more than the 24 layouts both games have
LEVEL = 1  # zlib: backgrounds are flat colour; a higher level takes longer for little


def pixel_bytes(image: Image.Image) -> int:
    return image.width * image.height * 4  # Pillow's RGB: 4 bytes a pixel


class Backgrounds:
    """Backgrounds by key (the drawing function and its arguments). Safe to use from
    several threads (a background wanted twice at once may be drawn twice, the same)."""

    def __init__(self, decoded_bytes: int = DECODED_BYTES, packed_count: int = PACKED_COUNT):
        self.decoded_bytes = decoded_bytes
        self.packed_count = packed_count
        self._decoded: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._packed: OrderedDict[Hashable, tuple[tuple[int, int], bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], Image.Image]) -> Image.Image:
        """The background of ``key`` (an RGB image: copy it to draw on it)."""
        with self._lock:
            image = self._decoded.get(key)
            if image is not None:
                self._decoded.move_to_end(key)
                return image
            packed = self._packed.get(key)
        if packed is None:
            image = draw()
            packed = (image.size, zlib.compress(image.tobytes(), LEVEL))
        else:
            size, data = packed
            image = Image.frombytes("RGB", size, zlib.decompress(data))
        with self._lock:
            self._packed[key] = packed
            self._packed.move_to_end(key)
            while len(self._packed) > self.packed_count:
                self._packed.popitem(last=False)
            self._decoded[key] = image
            self._decoded.move_to_end(key)
            while self.decoded_size() > self.decoded_bytes and len(self._decoded) > 1:
                self._decoded.popitem(last=False)
        return image

    def decoded_count(self) -> int:
        return len(self._decoded)

    def decoded_size(self) -> int:
        return sum(pixel_bytes(image) for image in self._decoded.values())

    def clear(self) -> None:
        with self._lock:
            self._decoded.clear()
            self._packed.clear()


BACKGROUNDS = Backgrounds()  # one budget for every game's backgrounds


def kept(draw: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """``draw(*args)`` kept in :data:`BACKGROUNDS` by its arguments (hashable, like
    ``functools.cache``'s); ``cache_clear()`` forgets every background."""

    @wraps(draw)
    def background(*args: Any) -> Image.Image:
        return BACKGROUNDS.get((draw.__module__, draw.__qualname__, args), lambda: draw(*args))

    background.cache_clear = BACKGROUNDS.clear  # type: ignore[attr-defined]
    return background
