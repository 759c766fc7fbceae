"""Azul pictures: the pixels where the layout draws each thing show what the state says."""

from __future__ import annotations

import pytest

from bot.presentation.pictures import azul as pictures
from bot.presentation.pictures import render_group, render_private
from bot.presentation.pictures.drawing import HIGHLIGHT
from games.azul.engine import ENGINE, MARKER, SIZE, centre_source, wall_colour
from tests.bot.presentation.pictures.helpers import (
    close,
    decode,
    default_move,
    distance,
    inside,
    pixel,
    play_until,
    shows,
)


def new_game(players: int = 2, wall: str = "colour", seed: int = 1):
    return ENGINE.new_game(players, {"wall": wall}, seed)


def group(state):
    view = ENGINE.view(state, None)
    return decode(render_group("azul", view)), pictures.group_layout(view)


def tiles_on_walls(state) -> int:
    return sum(cell >= 0 for wall in state["walls"] for cell in wall)


def test_empty_coloured_wall_shows_its_colour_pattern_faintly():
    image, layout = group(new_game())
    faint = [pictures.faint(colour) for colour in range(5)]
    tiles = list(pictures.TILE_RGB)
    # five distinct washed-out colours, none to be mistaken for a placed tile
    assert all(distance(a, b) > 30 for i, a in enumerate(faint) for b in faint[i + 1 :])
    assert all(distance(a, b) > 30 for a in faint for b in tiles)
    for board in layout.boards.values():
        for row in range(SIZE):
            for column in range(SIZE):
                point = inside(board.wall_cell(row, column))
                assert shows(image, point, pictures.faint(wall_colour(row, column))), (row, column)


def test_a_tile_placed_on_the_wall_shows_its_colour_on_that_space():
    before, after = play_until(ENGINE, new_game(), lambda s: tiles_on_walls(s) > 0)
    image_before, layout = group(before)
    image_after, _ = group(after)
    checked = 0
    for seat, wall in enumerate(after["walls"]):
        board = layout.boards[seat]
        for index, colour in enumerate(wall):
            if colour < 0:
                continue
            point = inside(board.wall_cell(*divmod(index, SIZE)))
            assert shows(image_before, point, pictures.faint(colour))
            assert shows(image_after, point, pictures.TILE_RGB[colour])
            checked += 1
    assert checked == tiles_on_walls(after)


def test_grey_wall_is_plain_until_a_tile_is_placed_in_the_chosen_column():
    state = new_game(wall="grey", seed=3)
    image, layout = group(state)
    for row in range(SIZE):
        for column in range(SIZE):
            point = inside(layout.boards[0].wall_cell(row, column))
            assert shows(image, point, pictures.GREY_SPACE_RGB)
    _, state = play_until(ENGINE, state, lambda s: s["phase"] == "wall")
    seat = min(ENGINE.to_act(state))
    row = state["pending"][seat]
    colour = state["line_colours"][seat * SIZE + row]
    columns = ENGINE.view(state, None)["pending_columns"][seat]
    image, layout = group(state)
    board = layout.boards[seat]
    for column in columns:  # the columns the tile may go to are ringed in gold
        left, top, _, bottom = board.wall_cell(row, column)
        assert close(pixel(image, (left + 1, (top + bottom) // 2)), HIGHLIGHT, 30)
    after = ENGINE.apply(state, seat, (columns[-1],))
    image, _ = group(after)
    point = inside(board.wall_cell(row, columns[-1]))
    assert shows(image, point, pictures.TILE_RGB[colour])


def test_the_first_player_marker_is_drawn_where_the_state_says():
    state = new_game(players=3, seed=4)
    image, layout = group(state)
    centre_marker = inside(layout.supply.centre_slot(0))
    assert state["marker"] == -1
    assert shows(image, centre_marker, pictures.MARKER_RGB)
    # a draft from a factory puts tiles in the centre; the next player takes from the centre
    seat = state["turn"]
    factory_move = next(a for a in ENGINE.legal_actions(state, seat) if a[0] == 0)
    state = ENGINE.apply(state, seat, factory_move)
    seat = state["turn"]
    centre = centre_source(3)
    centre_move = next(a for a in ENGINE.legal_actions(state, seat) if a[0] == centre)
    state = ENGINE.apply(state, seat, centre_move)
    assert state["marker"] == seat
    image, layout = group(state)
    assert not shows(image, centre_marker, pictures.MARKER_RGB)
    slot = state["floors"][seat].index(MARKER)
    assert shows(image, inside(layout.boards[seat].floor_slot(slot)), pictures.MARKER_RGB)
    for other in range(3):
        for index in range(7):
            if other != seat or index != slot:
                point = inside(layout.boards[other].floor_slot(index))
                assert not shows(image, point, pictures.MARKER_RGB)


def test_factories_pattern_lines_and_floor_show_their_tiles():
    state = new_game(players=4, seed=5)
    image, layout = group(state)
    for factory, counts in enumerate(ENGINE.view(state, None)["factories"]):
        colours = [colour for colour, count in enumerate(counts) for _ in range(count)]
        for index, colour in enumerate(colours):
            point = inside(layout.supply.factory_slot(factory, index))
            assert shows(image, point, pictures.TILE_RGB[colour])
    seat = state["turn"]
    source, colour, line = next(a for a in ENGINE.legal_actions(state, seat) if a[2] == 2)
    state = ENGINE.apply(state, seat, (source, colour, line))
    image, layout = group(state)
    board = layout.boards[seat]
    placed = state["line_counts"][seat * SIZE + 2]
    for k in range(3):  # line 3 has three spaces, filled from the right
        expected = pictures.TILE_RGB[colour] if k < placed else pictures.SLOT_RGB
        assert shows(image, inside(board.line_slot(2, k)), expected)
    seat = state["turn"]
    move = next(a for a in ENGINE.legal_actions(state, seat) if a[2] == 5)  # to the floor
    state = ENGINE.apply(state, seat, move)
    image, layout = group(state)
    for index, item in enumerate(state["floors"][seat]):
        expected = pictures.MARKER_RGB if item == MARKER else pictures.TILE_RGB[item]
        assert shows(image, inside(layout.boards[seat].floor_slot(index)), expected)


def test_the_player_to_act_is_framed_in_gold():
    state = new_game(players=4, seed=6)
    image, layout = group(state)
    for seat, board in layout.boards.items():
        left, top, _, bottom = board.box
        edge = pixel(image, (left + 2, (top + bottom) // 2))
        assert close(edge, HIGHLIGHT, 12) == (seat == state["turn"]), seat


def test_acting_seats_can_be_given():
    view = ENGINE.view(new_game(players=2, seed=6), None)
    image = decode(render_group("azul", view, acting_seats=[0, 1]))
    for board in pictures.group_layout(view).boards.values():
        left, top, _, bottom = board.box
        assert close(pixel(image, (left + 2, (top + bottom) // 2)), HIGHLIGHT, 12)


def test_the_score_is_drawn():
    view = ENGINE.view(new_game(), None)
    board = pictures.group_layout(view).boards[1]
    left, top = board.score_xy
    width, height = board.score_size
    box = (left, top, left + width, top + height)
    plain = decode(render_group("azul", view)).crop(box)
    scored = decode(render_group("azul", {**view, "scores": [0, 37]})).crop(box)
    assert plain.tobytes() != scored.tobytes()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("wall", ["colour", "grey"])
def test_private_picture_shows_every_board_the_readers_in_full(wall, players):
    """The prompt's picture: the reader's board first and largest, every other board beside
    it, each showing its own wall, pattern lines and floor."""
    _, state = play_until(
        ENGINE, new_game(players=players, wall=wall, seed=7), lambda s: s["round"] == 2
    )
    state = default_move(ENGINE, state)  # tiles on the pattern lines and a floor
    for seat in range(players):
        view = ENGINE.view(state, seat)
        image = decode(render_private("azul", view, seat))
        layout = pictures.private_layout(view, seat)
        assert image.size == layout.size
        assert sorted(layout.boards) == list(range(players))
        own = layout.boards[seat]
        assert next(iter(layout.boards)) == seat and not own.compact
        assert all(own.cell >= board.cell for board in layout.boards.values())
        if players > 2:  # the others compact, so that the picture stays a phone's screen
            assert all(layout.boards[other].compact for other in layout.boards if other != seat)
        for other, board in layout.boards.items():
            assert_board_shows(image, board, view, other, wall)


def assert_board_shows(image, board, view, seat: int, wall: str) -> None:
    for index, colour in enumerate(view["walls"][seat]):
        row, column = divmod(index, SIZE)
        point = inside(board.wall_cell(row, column))
        if colour >= 0:
            assert shows(image, point, pictures.TILE_RGB[colour])
        elif wall == "grey":
            assert shows(image, point, pictures.GREY_SPACE_RGB)
        else:
            assert shows(image, point, pictures.faint(wall_colour(row, column)))
    for row, count in enumerate(view["line_counts"][seat]):
        colour = view["line_colours"][seat][row]
        for k in range(row + 1):
            expected = pictures.TILE_RGB[colour] if k < count else pictures.SLOT_RGB
            assert shows(image, inside(board.line_slot(row, k)), expected)
    for index, item in enumerate(view["floors"][seat]):
        expected = pictures.MARKER_RGB if item == MARKER else pictures.TILE_RGB[item]
        assert shows(image, inside(board.floor_slot(index)), expected)
