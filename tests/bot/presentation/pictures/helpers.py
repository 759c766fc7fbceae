"""Reading the pictures back: decode the PNG and look at the pixels where the layout says
something is drawn."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image

from games.core import Engine, State

RGB = tuple[int, int, int]


def decode(picture: bytes) -> Image.Image:
    with Image.open(io.BytesIO(picture)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def inside(box: Sequence[float], fx: float = 0.2, fy: float = 0.2) -> tuple[int, int]:
    """A point of ``box`` a fraction in from its top-left corner: inside a tile, clear of
    its rim and of its symbol (drawn in the middle)."""
    left, top, right, bottom = box
    return (round(left + (right - left) * fx), round(top + (bottom - top) * fy))


def pixel(image: Image.Image, point: Sequence[float]) -> RGB:
    return image.getpixel((round(point[0]), round(point[1])))


# Reducing a picture to its palette maps a colour to a palette entry within a few units
# (Pillow looks colours up on a coarse grid); the colours a probe tells apart differ by far
# more than this.
TOLERANCE = 10


def close(colour: RGB, expected: RGB, tolerance: int = TOLERANCE) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def shows(image: Image.Image, point: Sequence[float], expected: RGB) -> bool:
    """Whether the picture has (within :data:`TOLERANCE`) ``expected`` at ``point``."""
    return close(pixel(image, point), expected)


def distance(a: RGB, b: RGB) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def default_move(engine: Engine, state: State) -> State:
    """The engine's sensible default move for the lowest seat to act (deterministic)."""
    seat = min(engine.to_act(state))
    return engine.apply(state, seat, engine.default_action(state, seat))


def play_until(
    engine: Engine, state: State, done: Callable[[State], bool], limit: int = 500
) -> tuple[State, State]:
    """Default moves until ``done(state)``: returns (the state before the last move, the
    state after it)."""
    before = state
    for _ in range(limit):
        if done(state):
            return before, state
        before, state = state, default_move(engine, state)
    raise AssertionError("the position was never reached")
