"""Pictures a phone can read: a phone shows a picture about 400 px wide, and there every
text a picture draws — numbers and names — is at least ``MIN_TEXT_HEIGHT`` pixels tall;
the players' names are drawn on their boards, in every script the bot speaks, and a name
the font cannot draw still shows something."""

from __future__ import annotations

import pytest

from bot.presentation import pictures
from bot.presentation.pictures import azul, drawing, render_group, render_private, summer_pavilion
from bot.presentation.pictures.drawing import (
    DISPLAY_WIDTH,
    MIN_TEXT_HEIGHT,
    MIN_TEXT_SIZE,
    PICTURE_WIDTH,
    drawable,
    font,
    name_label,
    recording_texts,
    text_height,
)
from games import get_engine
from tests.bot.presentation.pictures.helpers import close, decode, default_move

NAMES = ("Alice", "Борис Ґалушка-Їжаченко", "Niccolò dell'Àrca", "Юлія Євтушенко")
GAMES = [
    ("azul", {"wall": "colour"}),
    ("azul", {"wall": "grey"}),
    ("summer_pavilion", {}),
    ("summer_pavilion", {"variant1": True}),
]


def forget_drawn() -> None:
    """Empty the caches of backgrounds and sprites, so that every text is drawn again."""
    for module in (drawing, azul, summer_pavilion):
        for value in vars(module).values():
            if hasattr(value, "cache_clear") and value is not drawing.font:
                value.cache_clear()


def position(game: str, options: dict, players: int, moves: int = 12):
    engine = get_engine(game)
    state = engine.new_game(players, engine.options(options).model_dump(), 3)
    for _ in range(moves):
        state = default_move(engine, state)
    return engine, state


def shown(pixels: float, width: int) -> float:
    """A length in picture pixels as a phone shows it."""
    return pixels * DISPLAY_WIDTH / width


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-{o}" for g, o in GAMES])
def test_every_text_a_picture_draws_is_readable_on_a_phone(game, options, players):
    """Every text of the group picture and of each player's prompt picture — numbers and
    names — measured as drawn (the height of its font's capitals and digits at the size it
    was drawn), as a phone shows the picture."""
    engine, state = position(game, options, players)
    names = NAMES[:players]
    kinds = [("group", None)] + [("private", seat) for seat in range(players)]
    for kind, seat in kinds:
        forget_drawn()
        with recording_texts() as texts:
            if kind == "group":
                picture = render_group(game, engine.view(state, None), names=names)
            else:
                picture = render_private(game, engine.view(state, seat), seat, names=names)
        image = decode(picture)
        assert image.width == PICTURE_WIDTH
        assert texts, "no text recorded"
        for label, size in texts:
            height = shown(text_height(size), image.width)
            assert height >= MIN_TEXT_HEIGHT, (kind, label, size, height)
        labels = {label for label, _ in texts}
        for name in names:  # every name, the long ones shortened
            assert name in labels or any(
                label.endswith("…") and name.startswith(label[:-1]) for label in labels
            ), (name, labels)
        if game == "azul":
            assert {"1", "2", "3", "4", "5"} <= labels  # the factories' numbers
            if kind == "private" or options["wall"] == "colour":
                assert {"−1", "−2", "−3"} <= labels  # the floor's penalties
        else:
            assert {"1", "2", "3", "4", "5", "6"} <= labels  # stars' spaces, the round track


def ink_height(image, box, ink, tolerance: int = 30) -> int:
    """How many rows of ``box`` hold a pixel of colour ``ink``: the height of a text."""
    left, top, right, bottom = (round(v) for v in box)
    rows = [
        y
        for y in range(top, bottom)
        if any(close(image.getpixel((x, y)), ink, tolerance) for x in range(left, right))
    ]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_the_floor_penalties_measure_readable_in_the_group_picture():
    """Measured in the pixels: a penalty's digits, on the floor's space or under it."""
    engine, state = position("azul", {"wall": "colour"}, 4, moves=0)
    view = engine.view(state, None)
    image = decode(render_group("azul", view))
    board = azul.group_layout(view).boards[0]
    for index in range(7):
        left, top, right, bottom = board.floor_slot(index)
        height = ink_height(image, (left, top, right, bottom + 30), drawing.SOFT_INK)
        assert shown(height, image.width) >= MIN_TEXT_HEIGHT, (index, height)


def test_the_star_numbers_measure_readable_in_the_group_picture():
    """Measured in the pixels: the printed number of each space of an outer star."""
    engine, state = position("summer_pavilion", {}, 4, moves=0)
    view = engine.view(state, None)
    image = decode(render_group("summer_pavilion", view))
    board = summer_pavilion.group_layout(view).boards[0]
    s = board.side
    for star in range(1, 7):
        colour = view["star_colours"][star]
        ink = drawing.darker(summer_pavilion.TILE_RGB[colour], 0.3)
        for space in range(1, 7):
            x, y = board.space_point(star, space, 0.56)
            box = (x - 0.4 * s, y - 0.45 * s, x + 0.4 * s, y + 0.45 * s)
            height = ink_height(image, box, ink, tolerance=24)
            assert shown(height, image.width) >= MIN_TEXT_HEIGHT, (star, space, height)


# -- names --------------------------------------------------------------------------------------
def header_box(board) -> tuple[int, int, int, int]:
    """The band of a board above its tiles: its seat number, name and score."""
    left, top, right, _ = board.box
    if hasattr(board, "board_box"):  # Summer Pavilion
        return (left, top, right, board.board_box[1])
    return (left, top, right, board.top)


@pytest.mark.parametrize("game", ["azul", "summer_pavilion"])
def test_every_board_shows_its_players_name(game):
    engine, state = position(game, {}, 4)
    module = pictures._module(game)
    view = engine.view(state, None)
    plain = decode(render_group(game, view))
    named = decode(render_group(game, view, names=NAMES))
    for board in module.group_layout(view).boards.values():
        box = header_box(board)
        assert plain.crop(box).tobytes() != named.crop(box).tobytes()
    for seat in range(4):
        view = engine.view(state, seat)
        plain = decode(render_private(game, view, seat))
        named = decode(render_private(game, view, seat, names=NAMES))
        for board in module.private_layout(view, seat).boards.values():
            box = header_box(board)
            assert plain.crop(box).tobytes() != named.crop(box).tobytes()


def test_the_font_draws_every_letter_of_the_bots_languages():
    """Latin with the Italian accents, Russian and Ukrainian Cyrillic."""
    for name in (
        "Niccolò Àèéìíòóù ÀÈÉÌÒÙ",
        "Съешь же ещё этих мягких французских булок",
        "Ґанна Їжак: є, і, ї, ґ — Єва Іванівна",
        "Zoë Ærøskøbing Łódź Ştefan",
    ):
        assert drawable(name) == name
    # distinct glyphs, not the font's box for a missing one
    assert len({font(MIN_TEXT_SIZE).getmask(char).getbbox() for char in "ґєіїҐЄІЇ"}) > 1


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Anna 🦊", "Anna"),
        ("🦊🐻", "?"),  # nothing drawable: a question mark
        ("𝓐𝓷𝓷𝓪 Léa", "Anna Léa"),  # fancy letters (a compatibility form): the plain ones
        ("李雷 Li", "Li"),  # a script the font lacks is left out
        ("Bob\u200d\u2060", "Bob"),  # invisible formatting characters
    ],
)
def test_a_name_the_font_cannot_draw_still_shows_something(name, expected):
    assert name_label(name, MIN_TEXT_SIZE, 400) == expected
    engine, state = position("azul", {}, 2)
    view = engine.view(state, None)
    plain = decode(render_group("azul", view))
    named = decode(render_group("azul", view, names=(name, "Bob")))
    box = header_box(azul.group_layout(view).boards[0])
    assert plain.crop(box).tobytes() != named.crop(box).tobytes()


def test_long_names_are_shortened_to_their_boards_width():
    long = "Bartholomew-Maximilian von Hohenzollern-Sigmaringen"
    label = name_label(long, MIN_TEXT_SIZE, 200)
    assert label.endswith("…") and long.startswith(label[:-1]) and len(label) > 5
    assert font(MIN_TEXT_SIZE).getlength(label) <= 200
    assert name_label("Alice", MIN_TEXT_SIZE, 200) == "Alice"
    engine, state = position("summer_pavilion", {}, 4)
    render_private("summer_pavilion", engine.view(state, 1), 1, names=(long,) * 4)
