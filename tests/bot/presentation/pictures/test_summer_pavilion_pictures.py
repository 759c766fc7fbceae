"""Summer Pavilion pictures: the printed geometry, and the pixels where the layout draws
each thing show what the state says."""

from __future__ import annotations

import math

import pytest

from bot.presentation.pictures import render_group, render_private
from bot.presentation.pictures import summer_pavilion as pictures
from bot.presentation.pictures.drawing import HIGHLIGHT
from games.summer_pavilion.engine import (
    ENGINE,
    STAR_COLOURS,
    STRUCTURES,
    TAKE,
    VARIANT2_WILD_ORDER,
    WILD_ORDER,
)
from tests.bot.presentation.pictures.helpers import close, decode, inside, pixel, play_until, shows


def new_game(players: int = 2, seed: int = 1, **options):
    return ENGINE.new_game(players, options, seed)


def group(state):
    view = ENGINE.view(state, None)
    return decode(render_group("summer_pavilion", view)), pictures.group_layout(view)


def tiles_on_boards(state) -> int:
    return sum(tile >= 0 for board in state["boards"] for tile in board)


def test_outer_stars_surround_the_centre_star_as_printed():
    board = pictures.BoardGeometry(0, 0, 40)
    cx, cy = board.star_centre(0)
    left = board.star_centre(1)
    assert left[0] < cx and math.isclose(left[1], cy)  # star 1 on the left
    upper_left, upper_right = board.star_centre(2), board.star_centre(3)
    assert upper_left[1] < cy and upper_left[0] < cx < upper_right[0]  # then clockwise
    for star in range(1, 7):
        # spaces 2 and 3 face the centre, 5 and 6 face away from it
        near = [math.dist(board.space_point(star, space), (cx, cy)) for space in range(1, 7)]
        by_distance = sorted(range(1, 7), key=lambda space: near[space - 1])
        assert set(by_distance[:2]) == {2, 3} and set(by_distance[-2:]) == {5, 6}
        # space 1 faces the next star clockwise, space 4 the previous one
        nxt, prev = board.star_centre(star % 6 + 1), board.star_centre((star + 4) % 6 + 1)
        assert math.dist(board.space_point(star, 1), nxt) < math.dist(
            board.space_point(star, 4), nxt
        )
        assert math.dist(board.space_point(star, 4), prev) < math.dist(
            board.space_point(star, 1), prev
        )


def test_every_structure_sits_among_the_spaces_that_complete_it():
    board = pictures.BoardGeometry(0, 0, 40)
    for kind, star, indices in STRUCTURES:
        centre = board.structure_centre(kind, star)
        around = [board.space_point(i // 6, i % 6 + 1, 0.75) for i in indices]
        others = [
            board.space_point(s, p, 0.75)
            for s in range(7)
            for p in range(1, 7)
            if s * 6 + p - 1 not in indices
        ]
        farthest_own = max(math.dist(centre, point) for point in around)
        nearest_other = min(math.dist(centre, point) for point in others)
        assert farthest_own < nearest_other, (kind, star)


def test_empty_spaces_show_their_stars_colour_and_the_centre_star_is_neutral():
    image, layout = group(new_game())
    faint = [pictures.empty_space_rgb(colour) for colour in range(6)]
    for board in layout.boards.values():
        for star in range(7):
            expected = pictures.NEUTRAL_RGB if star == 0 else faint[STAR_COLOURS[star]]
            for space in range(1, 7):
                assert shows(image, board.space_point(star, space, 0.8), expected), (star, space)


def test_variant1_stars_have_no_colour():
    image, layout = group(new_game(variant1=True))
    for board in layout.boards.values():
        for star in range(7):
            for space in range(1, 7):
                point = board.space_point(star, space, 0.8)
                assert shows(image, point, pictures.NEUTRAL_RGB)


@pytest.mark.parametrize("variant1", [False, True])
def test_a_placed_tile_shows_its_colour_on_its_space(variant1):
    state = new_game(seed=2, variant1=variant1)
    before, after = play_until(ENGINE, state, lambda s: tiles_on_boards(s) > 0)
    image_before, layout = group(before)
    image_after, _ = group(after)
    for seat, spaces in enumerate(after["boards"]):
        for index, colour in enumerate(spaces):
            if colour < 0:
                continue
            star, space = divmod(index, 6)
            point = layout.boards[seat].space_point(star, space + 1, 0.75)
            star_colour = -1 if variant1 else STAR_COLOURS[star]
            assert shows(image_before, point, pictures.empty_space_rgb(star_colour))
            assert shows(image_after, point, pictures.TILE_RGB[colour])


def completes_a_structure(state) -> bool:
    return any(event.get("structures") for event in state["log"] if event["type"] == "place")


def test_a_completed_structure_is_marked():
    before, after = play_until(ENGINE, new_game(seed=3), completes_a_structure)
    event = next(e for e in after["log"] if e["type"] == "place" and e.get("structures"))
    image_before, layout = group(before)
    image_after, _ = group(after)
    board = layout.boards[event["seat"]]
    radius = pictures.MEDALLION * board.side
    for kind, star in event["structures"]:
        cx, cy = board.structure_centre(kind, star)
        point = (cx + 0.68 * radius, cy)  # beside the icon, inside the medallion
        assert shows(image_before, point, pictures.MEDALLION_RGB)
        assert shows(image_after, point, HIGHLIGHT)
    done = {tuple(pair) for pair in event["structures"]}
    for kind, star, _ in STRUCTURES:
        if (kind, star) not in done:
            cx, cy = board.structure_centre(kind, star)
            assert not shows(image_after, (cx + 0.68 * radius, cy), HIGHLIGHT)


def test_the_first_player_tile_is_drawn_where_the_state_says():
    state = new_game(players=3, seed=4)
    image, layout = group(state)
    in_centre = inside(layout.supply.centre_slot(0))
    assert shows(image, in_centre, pictures.MARKER_RGB)
    for board in layout.boards.values():
        x, y = board.marker_xy
        assert not shows(
            image, inside((x, y, x + board.marker, y + board.marker)), pictures.MARKER_RGB
        )
    _, state = play_until(ENGINE, state, lambda s: s["first_player_tile"] >= 0)
    holder = state["first_player_tile"]
    image, layout = group(state)
    assert not shows(image, in_centre, pictures.MARKER_RGB)
    for seat, board in layout.boards.items():
        x, y = board.marker_xy
        header_tile = inside((x, y, x + board.marker, y + board.marker))
        assert shows(image, header_tile, pictures.MARKER_RGB) == (seat == holder)


def test_supply_factories_centre_and_hand_show_their_tiles():
    state = new_game(players=4, seed=5)
    image, layout = group(state)
    view = ENGINE.view(state, None)
    for factory, counts in enumerate(view["factories"]):
        colours = [c for c, count in enumerate(counts) for _ in range(count)]
        for index, colour in enumerate(colours):
            assert shows(
                image, inside(layout.supply.factory_slot(factory, index)), pictures.TILE_RGB[colour]
            )
    supply = [c for c, count in enumerate(view["supply"]) for _ in range(count)]
    assert len(supply) == 10
    for index, colour in enumerate(supply):
        assert shows(image, inside(layout.supply.supply_slot(index)), pictures.TILE_RGB[colour])
    seat = state["current"]
    take = next(a for a in ENGINE.legal_actions(state, seat) if a[0] == TAKE and a[1] == 1)
    state = ENGINE.apply(state, seat, take)
    image, layout = group(state)
    hand = [(c, n) for c, n in enumerate(state["hands"][seat]) if n]
    assert hand
    board = layout.boards[seat]
    for index, (colour, _) in enumerate(hand):
        assert shows(image, inside(board.hand_slot(index, len(hand))), pictures.TILE_RGB[colour])
    centre = [c for c, n in enumerate(state["centre"]) if n]
    for index, colour in enumerate(centre, start=1):  # after the first-player tile
        assert shows(image, inside(layout.supply.centre_slot(index)), pictures.TILE_RGB[colour])


def test_tiles_kept_for_the_next_round_lie_on_the_corners():
    state = new_game(players=3, seed=6)
    _, state = play_until(ENGINE, state, lambda s: any(map(any, s["corners"])))
    image, layout = group(state)
    for seat, corners in enumerate(state["corners"]):
        kept = [colour for colour, count in enumerate(corners) for _ in range(count)]
        board = layout.boards[seat]
        for index in range(4):
            point = inside(board.corner_slot(index))
            if index < len(kept):
                assert shows(image, point, pictures.TILE_RGB[kept[index]])
            else:
                assert not any(shows(image, point, rgb) for rgb in pictures.TILE_RGB)


@pytest.mark.parametrize(("variant2", "order"), [(False, WILD_ORDER), (True, VARIANT2_WILD_ORDER)])
def test_the_round_track_shows_the_wild_colour_of_each_round(variant2, order):
    state = new_game(seed=7, variant2=variant2)
    _, state = play_until(ENGINE, state, lambda s: s["round"] == 3)
    image, layout = group(state)
    for index, colour in enumerate(order):
        slot = layout.supply.round_slot(index)
        shown = shows(image, inside(slot), pictures.TILE_RGB[colour])
        assert shown == (index >= 2), index  # past rounds are washed out
        left, top, _, bottom = slot
        ring = close(pixel(image, (left - 2, (top + bottom) // 2)), HIGHLIGHT, 40)
        assert ring == (index == 2), index  # the current round's wild colour is ringed


def test_the_player_to_act_is_framed_in_gold():
    state = new_game(players=3, seed=8)
    image, layout = group(state)
    for seat, board in layout.boards.items():
        left, top, _, bottom = board.box
        edge = pixel(image, (left + 2, (top + bottom) // 2))
        assert close(edge, HIGHLIGHT, 12) == (seat == state["current"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_private_picture_shows_every_board_the_readers_largest(players):
    """The prompt's picture: the reader's board first and largest, every other board
    beside it, each showing the tiles on its stars."""
    _, state = play_until(
        ENGINE, new_game(players=players, seed=9), lambda s: tiles_on_boards(s) >= 2 * players
    )
    for seat in range(players):
        view = ENGINE.view(state, seat)
        image = decode(render_private("summer_pavilion", view, seat))
        layout = pictures.private_layout(view, seat)
        assert image.size == layout.size
        assert sorted(layout.boards) == list(range(players))
        own = layout.boards[seat]
        assert next(iter(layout.boards)) == seat and not own.compact
        others = [board for other, board in layout.boards.items() if other != seat]
        assert all(board.side < own.side and board.compact for board in others)
        for other, board in layout.boards.items():
            for index, colour in enumerate(state["boards"][other]):
                star, space = divmod(index, 6)
                expected = (
                    pictures.TILE_RGB[colour]
                    if colour >= 0
                    else pictures.empty_space_rgb(STAR_COLOURS[star])
                )
                assert shows(image, board.space_point(star, space + 1, 0.75), expected)
