"""The layouts' backgrounds are drawn once and kept compressed; only the latest stay as
pixels, within their budget — and a picture is the same whichever way its background
came."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.presentation.pictures import backgrounds, render_group, render_private
from bot.presentation.pictures.backgrounds import Backgrounds, pixel_bytes
from tests.bot.presentation.pictures.test_picture_api import busy_position


def drawing(shade: int, drawn: list[int]):
    def draw() -> Image.Image:
        drawn.append(shade)
        image = Image.new("RGB", (300, 200), (shade, 240, 230))
        ImageDraw.Draw(image).ellipse((20, 20, 180, 160), fill=(30, 108, shade), width=3)
        return image

    return draw


def test_a_background_is_drawn_once_and_only_the_latest_stay_as_pixels():
    one = pixel_bytes(Image.new("RGB", (300, 200)))
    store = Backgrounds(decoded_bytes=2 * one)
    drawn: list[int] = []
    first = {shade: store.get(shade, drawing(shade, drawn)).tobytes() for shade in (1, 2, 3)}
    assert drawn == [1, 2, 3]
    assert store.decoded_size() <= 2 * one  # the first one left the pixels
    again = {shade: store.get(shade, drawing(shade, drawn)).tobytes() for shade in (1, 2, 3)}
    assert drawn == [1, 2, 3]  # none drawn again: the first came back from its compressed copy
    assert again == first


def test_pictures_are_the_same_when_their_backgrounds_come_back_compressed(monkeypatch):
    games = ["azul", "summer_pavilion"]
    positions = [busy_position("azul", 2, {"wall": "grey"}), busy_position(games[1], 3, {})]

    def draw_all() -> list[bytes]:
        out = []
        for game, (engine, state) in zip(games, positions, strict=True):
            out.append(render_group(game, engine.view(state, None)))
            out.append(render_private(game, engine.view(state, 1), 1))
        return out

    # at most one background as pixels: each picture of the first round is drawn on its
    # background just drawn, each of the second on its background decompressed
    backgrounds.BACKGROUNDS.clear()
    monkeypatch.setattr(backgrounds.BACKGROUNDS, "decoded_bytes", 1)
    freshly_drawn = draw_all()
    assert draw_all() == freshly_drawn
    assert backgrounds.BACKGROUNDS.decoded_count() == 1
