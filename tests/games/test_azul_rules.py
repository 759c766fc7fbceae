"""Azul rules (docs/rules/azul.md), the rulebook summary's examples and every [decision]."""

import pytest

from games.azul import engine as azul
from games.azul.engine import (
    ENGINE,
    FLOOR_LINE,
    MARKER,
    TILES_PER_COLOUR,
    floor_penalty,
    placement_points,
    row_completable,
)
from games.core import IllegalAction, encode_action
from tests.games.azul_helpers import (
    BLACK,
    BLUE,
    EMPTY_ROW,
    EMPTY_WALL,
    RED,
    WHITE,
    YELLOW,
    cell,
    centre_of,
    colour_wall,
    events,
    factory,
    grey_wall,
    line,
    play,
    rig,
    tiles,
)

# -- components and setup -----------------------------------------------------------------


def test_coloured_wall_is_printed_as_in_the_rulebook():
    printed = [
        "blue yellow red black white",
        "white blue yellow red black",
        "black white blue yellow red",
        "red black white blue yellow",
        "yellow red black white blue",
    ]
    for row, names in enumerate(printed):
        assert [azul.COLOURS[azul.wall_colour(row, c)] for c in range(5)] == names.split()
        for column, name in enumerate(names.split()):
            assert azul.colour_column(row, azul.COLOURS.index(name)) == column


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_fills_5_7_9_factories_with_four_tiles_from_the_bag(players, factories):
    state = ENGINE.new_game(players, seed=11)
    view = ENGINE.view(state, None)
    assert len(view["factories"]) == factories
    assert all(sum(tiles) == 4 for tiles in view["factories"])
    assert sum(state["bag"]) == 5 * TILES_PER_COLOUR - 4 * factories
    assert state["lid"] == [0] * 5 and state["centre"] == [0] * 5
    assert state["marker"] == -1  # in the centre
    assert state["scores"] == [0] * players
    assert state["walls"] == [[-1] * 25] * players and state["floors"] == [[]] * players
    assert ENGINE.to_act(state) == {state["turn"]} and state["turn"] == state["first_player"]
    (start,) = events(state, "round_start")
    assert (start["round"], start["first_player"]) == (1, state["turn"])
    assert start["factories"] == view["factories"]


def test_a_random_player_starts():
    starters = {ENGINE.new_game(3, seed=seed)["first_player"] for seed in range(40)}
    assert starters == {0, 1, 2}


def test_player_count_and_options_are_checked():
    with pytest.raises(ValueError):
        ENGINE.new_game(5)
    with pytest.raises(ValueError):
        ENGINE.new_game(2, {"wall": "pink"})
    assert ENGINE.new_game(2)["options"] == {"wall": "colour"}


# -- the factory offer ----------------------------------------------------------------------


def test_taking_from_a_factory_takes_every_tile_of_the_colour_and_the_rest_goes_to_the_centre():
    state = rig(factories={0: tiles(blue=2, red=1, white=1), 1: tiles(yellow=4)})
    after = play(state, (0, (0, BLUE, 1)))
    assert line(after, 0, 1) == (BLUE, 2)
    assert factory(after, 0) == [0] * 5
    assert after["centre"] == tiles(red=1, white=1)
    assert after["turn"] == 1 and after["marker"] == -1
    assert events(after, "draft") == [
        {
            "type": "draft", "round": 1, "seat": 0, "source": 0, "centre": False,
            "colour": BLUE, "count": 2, "line": 1, "to_line": 2, "to_floor": 0, "to_lid": 0,
            "marker": False,
        }
    ]  # fmt: skip


def test_first_from_the_centre_takes_the_marker_onto_the_floor_before_the_tiles():
    state = rig(factories={0: tiles(red=4)}, centre=tiles(yellow=3, blue=1))
    c = centre_of(state)
    state = play(state, (0, (c, YELLOW, 0)))
    assert state["marker"] == 0
    assert state["floors"][0] == [MARKER, YELLOW, YELLOW]  # marker leftmost, then surplus
    assert line(state, 0, 0) == (YELLOW, 1)
    (draft,) = events(state, "draft")
    assert draft["marker"] and draft["centre"] and draft["to_floor"] == 2
    state = play(state, (1, (c, BLUE, 1)))  # second from the centre: no marker
    assert not events(state, "draft")[-1]["marker"] and state["floors"][1] == []
    # Seat 0 puts all four red on its floor: 3 + 4 = 7 spaces, nothing to the lid.
    state = play(state, (0, (0, RED, FLOOR_LINE)))
    assert state["round"] == 2 and state["phase"] == "draft"
    (tiling0,) = [e for e in events(state, "wall_tiling") if e["seat"] == 0]
    assert tiling0["floor"] == [MARKER, YELLOW, YELLOW, RED, RED, RED, RED]
    assert tiling0["wall_points"] == 1 and tiling0["penalty"] == 14
    assert tiling0["unclamped"] == -13 and tiling0["score"] == 0
    # Floor tiles go to the lid (the marker does not); its holder starts the next round.
    assert state["lid"] == tiles(yellow=2, red=4)
    assert state["first_player"] == 0 and state["turn"] == 0 and state["marker"] == -1
    assert events(state, "round_end")[0]["next_player"] == 0


def test_the_marker_costs_the_penalty_of_the_space_it_lands_on():
    # Rulebook summary: on an empty floor the marker costs one point.
    state = rig(factories={0: tiles(red=1)}, centre=tiles(yellow=1), scores=[10, 10])
    state = play(state, (0, (centre_of(state), YELLOW, 0)), (1, (0, RED, 1)))
    assert [e["penalty"] for e in events(state, "wall_tiling")] == [1, 0]
    assert state["scores"] == [10 + 1 - 1, 10]
    # Behind two floor tiles it lands on the third space: -2.
    state = rig(
        factories={0: tiles(red=1)}, centre=tiles(yellow=1), floors={0: [BLACK, BLACK]},
        scores=[10, 10],
    )  # fmt: skip
    state = play(state, (0, (centre_of(state), YELLOW, 0)), (1, (0, RED, 1)))
    (tiling,) = [e for e in events(state, "wall_tiling") if e["seat"] == 0]
    assert tiling["floor"] == [BLACK, BLACK, MARKER] and tiling["penalty"] == 1 + 1 + 2


def test_marker_on_a_full_floor_costs_nothing_and_its_holder_still_starts():
    full = [BLACK] * 7
    state = rig(
        factories={0: tiles(red=4)}, centre=tiles(blue=2), floors={1: full}, turn=1,
        scores=[0, 20],
    )  # fmt: skip
    state = play(state, (1, (centre_of(state), BLUE, 1)))
    assert state["marker"] == 1 and state["floors"][1] == full  # not on the floor
    assert events(state, "draft")[-1]["marker"]
    state = play(state, (0, (0, RED, 3)))
    (tiling,) = [e for e in events(state, "wall_tiling") if e["seat"] == 1]
    assert tiling["penalty"] == 14 and tiling["score"] == 20 + 1 - 14
    assert state["first_player"] == 1 and state["turn"] == 1


def test_nobody_took_the_marker_so_the_same_player_starts_again():
    state = rig(factories={0: tiles(blue=4), 1: tiles(red=4)}, turn=1)
    state = play(state, (1, (0, BLUE, 3)), (0, (1, RED, 3)))
    assert state["round"] == 2 and state["first_player"] == 1 and state["turn"] == 1


def test_only_legal_pattern_lines_are_offered():
    state = rig(
        factories={0: tiles(blue=1, yellow=2, red=1)},
        lines={0: {0: (BLUE, 1), 1: (RED, 1)}},
        walls={0: colour_wall(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "....x", EMPTY_ROW)},
        centre=tiles(black=1),
    )
    assert azul.wall_colour(3, 4) == YELLOW
    c = centre_of(state)
    # Line 0 is full, line 1 holds red, row 3 of the wall already has yellow; the floor is
    # always allowed.
    assert ENGINE.legal_actions(state, 0) == [
        (0, BLUE, 2), (0, BLUE, 3), (0, BLUE, 4), (0, BLUE, 5),
        (0, YELLOW, 2), (0, YELLOW, 4), (0, YELLOW, 5),
        (0, RED, 1), (0, RED, 2), (0, RED, 3), (0, RED, 4), (0, RED, 5),
        (c, BLACK, 2), (c, BLACK, 3), (c, BLACK, 4), (c, BLACK, 5),
    ]  # fmt: skip
    assert ENGINE.legal_actions(state, 1) == []
    refused = [(0, YELLOW, 3), (0, RED, 0), (0, BLUE, 1), (0, BLUE, 0), (0, BLACK, 2)]
    refused += [(1, BLUE, 2), (c + 1, BLACK, 2), (0, 5, 2), (0, BLUE, 6), (0, BLUE), ()]
    for bad in refused:
        assert not ENGINE.is_legal(state, 0, bad)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, (0, BLUE, 2))  # not seat 1's turn
    assert state == rig(
        factories={0: tiles(blue=1, yellow=2, red=1)},
        lines={0: {0: (BLUE, 1), 1: (RED, 1)}},
        walls={0: colour_wall(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "....x", EMPTY_ROW)},
        centre=tiles(black=1),
    )  # refused moves change nothing


def test_surplus_goes_to_the_floor_and_beyond_seven_spaces_to_the_lid():
    state = rig(
        factories={0: tiles(red=4), 1: tiles(blue=1)},
        lines={0: {1: (RED, 1)}},
        floors={0: [BLACK] * 5},
    )
    state = play(state, (0, (0, RED, 1)))
    assert line(state, 0, 1) == (RED, 2)
    assert state["floors"][0] == [BLACK] * 5 + [RED, RED]
    assert state["lid"] == tiles(red=1)
    draft = events(state, "draft")[-1]
    assert (draft["to_line"], draft["to_floor"], draft["to_lid"]) == (1, 2, 1)


def test_all_tiles_may_go_to_the_floor():
    state = rig(factories={0: tiles(yellow=3, red=1), 1: tiles(blue=1)})
    state = play(state, (0, (0, YELLOW, FLOOR_LINE)))
    assert state["floors"][0] == [YELLOW] * 3
    assert state["line_counts"][:5] == [0] * 5


def test_turns_go_clockwise_and_the_offer_ends_when_everything_is_taken():
    state = rig(3, factories={0: tiles(blue=4), 1: tiles(red=4), 2: tiles(black=2, white=2)})
    state = play(state, (0, (0, BLUE, 4)), (1, (1, RED, 4)))
    assert state["turn"] == 2 and state["phase"] == "draft"
    state = play(state, (2, (2, BLACK, 1)))
    assert state["turn"] == 0 and state["centre"] == tiles(white=2)
    state = play(state, (0, (centre_of(state), WHITE, 1)))
    assert state["round"] == 2  # tiled, refilled, a new round
    assert sum(sum(f) for f in ENGINE.view(state, None)["factories"]) == 28


# -- wall tiling ----------------------------------------------------------------------------


def test_full_lines_are_tiled_top_to_bottom_and_incomplete_lines_stay():
    state = rig(
        factories={0: tiles(black=1)},
        lines={0: {1: (YELLOW, 2), 3: (BLACK, 3), 4: (RED, 2)}},
    )
    state = play(state, (0, (0, BLACK, 3)))
    placed = events(state, "tile_placed")
    assert [(e["row"], e["column"], e["colour"]) for e in placed] == [
        (1, azul.colour_column(1, YELLOW), YELLOW),
        (3, azul.colour_column(3, BLACK), BLACK),
    ]
    assert cell(state, 0, 3, 1) == BLACK and cell(state, 0, 1, 2) == YELLOW
    assert line(state, 0, 1) == (-1, 0) and line(state, 0, 3) == (-1, 0)
    assert line(state, 0, 4) == (RED, 2)  # incomplete: stays for the next round
    assert state["lid"] == tiles(yellow=1, black=3)  # the rest of each tiled line
    assert "chosen" not in placed[0]  # the coloured wall has no choice


@pytest.mark.parametrize(
    ("rows", "row", "column", "expected"),
    [
        (EMPTY_WALL, 2, 2, (1, 0, 0)),  # no neighbour: 1
        ((EMPTY_ROW, EMPTY_ROW, "xx...", EMPTY_ROW, EMPTY_ROW), 2, 2, (3, 3, 0)),
        (("..x..", "..x..", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW), 2, 2, (3, 0, 3)),
        ((EMPTY_ROW, EMPTY_ROW, "x.x..", EMPTY_ROW, EMPTY_ROW), 2, 3, (2, 2, 0)),  # gap
        # Joining a row and a column: the new tile counts in both runs.
        ((".xx..", "...x.", "...x.", EMPTY_ROW, EMPTY_ROW), 0, 3, (6, 3, 3)),
        (("xx.x.", "..x..", EMPTY_ROW, "..x..", "..x.."), 0, 2, (6, 4, 2)),
    ],
)
def test_placement_scoring(rows, row, column, expected):
    colour = azul.wall_colour(row, column)
    state = rig(
        factories={0: tiles(**{azul.COLOURS[colour]: 1})},
        lines={0: {row: (colour, row)}} if row else {},
        walls={0: colour_wall(*rows)},
        scores=[5, 0],
    )
    state = play(state, (0, (0, colour, row)))
    (placed,) = events(state, "tile_placed")
    assert (placed["points"], placed["horizontal"], placed["vertical"]) == expected
    assert placed["row"] == row and placed["column"] == column
    assert state["scores"][0] == 5 + expected[0]
    assert placement_points(state["walls"][0], row, column) == expected


def test_floor_penalties_by_space():
    assert [floor_penalty(k) for k in range(8)] == [0, 1, 2, 4, 6, 8, 11, 14]


@pytest.mark.parametrize(("floor", "penalty"), [(1, 1), (2, 2), (3, 4), (5, 8), (7, 14)])
def test_the_floor_costs_its_penalty_at_the_wall_tiling(floor, penalty):
    state = rig(factories={0: tiles(blue=1)}, floors={1: [BLACK] * floor}, scores=[20, 20])
    state = play(state, (0, (0, BLUE, 4)))  # no line completes: only the floor scores
    assert state["scores"] == [20, 20 - penalty]
    assert state["floors"] == [[], []] and state["lid"] == tiles(black=floor)


def test_the_clamp_at_zero_comes_once_after_the_wall_points_and_the_whole_floor():
    # Seat 0: 3 + 3 (a run of three) - 4 = 2 (clamping before the points would give 3).
    # Seat 1: 2 + 1 - 6 = -3, shown as 0.
    state = rig(
        factories={0: tiles(blue=1)},
        lines={0: {2: (BLUE, 2)}, 1: {1: (BLUE, 2)}},
        walls={0: colour_wall(EMPTY_ROW, EMPTY_ROW, "xx...", EMPTY_ROW, EMPTY_ROW)},
        floors={0: [RED] * 3, 1: [RED] * 4},
        scores=[3, 2],
    )
    state = play(state, (0, (0, BLUE, 2)))
    tiling = {e["seat"]: e for e in events(state, "wall_tiling")}
    assert (tiling[0]["score_before_penalty"], tiling[0]["penalty"], tiling[0]["score"]) == (
        6,
        4,
        2,
    )
    assert (tiling[1]["wall_points"], tiling[1]["unclamped"], tiling[1]["score"]) == (1, -3, 0)
    assert state["scores"] == [2, 0]


# -- refill and the end -----------------------------------------------------------------


def test_an_empty_bag_is_refilled_from_the_lid():
    state = rig(factories={0: tiles(red=1)}, bag=tiles(blue=3))
    state = play(state, (0, (0, RED, 0)))
    (refilled,) = events(state, "bag_refilled")
    assert refilled["tiles"] == 100 - 3 - 1  # all but the bag and the tile on the wall
    factories = ENGINE.view(state, None)["factories"]
    assert sum(map(sum, factories)) == 20 and sum(f[BLUE] for f in factories) >= 3
    assert state["lid"] == [0] * 5 and sum(state["bag"]) == 96 - 17


def exhausted_position(lid_tiles: dict[int, int]):
    """Four players, every wall full but one column (so 4 of each colour), 19 tiles on
    incomplete lines, one white tile left on factory 0 for seat 1, bag empty; the tiles
    named in ``lid_tiles`` ({seat's line 4: count removed}) are moved to the lid."""
    walls = {}
    for seat in range(4):
        missing = (4 + seat) % 5
        row = "".join("." if c == missing else "x" for c in range(5))
        walls[seat] = colour_wall(*[row] * 5)
    line4 = {0: BLUE, 1: YELLOW, 2: RED, 3: BLACK}
    lines = {seat: {4: (colour, 4 - lid_tiles.get(seat, 0))} for seat, colour in line4.items()}
    lines[3][3] = (WHITE, 3)
    for rows in lines.values():
        for row, (_, count) in list(rows.items()):
            if not count:
                del rows[row]
    lid = [0] * 5
    for seat, count in lid_tiles.items():
        lid[line4[seat]] += count
    return rig(
        4, factories={0: tiles(white=1)}, lines=lines, walls=walls, turn=1,
        bag=[0] * 5, lid=lid, scores=[10, 12, 9, 12],
    )  # fmt: skip


def test_when_bag_and_lid_run_out_the_factories_are_partly_filled():
    state = exhausted_position({0: 4, 1: 2})  # six tiles in the lid
    state = play(state, (1, (0, WHITE, 1)))
    assert state["phase"] == "draft" and state["round"] == 2
    factories = ENGINE.view(state, None)["factories"]
    assert [sum(f) for f in factories] == [4, 2, 0, 0, 0, 0, 0, 0, 0]
    assert [sum(f[colour] for f in factories) for colour in range(5)] == tiles(blue=4, yellow=2)
    assert state["bag"] == [0] * 5 and state["lid"] == [0] * 5


def test_decision_no_tile_to_draw_ends_the_game_at_once():
    assert azul.END_WHEN_NO_TILE_CAN_BE_DRAWN
    state = exhausted_position({})
    state = play(state, (1, (0, WHITE, 1)))
    assert ENGINE.is_over(state) and state["end_reason"] == "no_tiles"
    assert ENGINE.to_act(state) == frozenset()
    assert events(state, "game_end_triggered") == [
        {"type": "game_end_triggered", "round": 1, "reason": "no_tiles", "seats": []}
    ]
    # Final scoring: four complete columns each (+28), no row, no colour with five tiles.
    bonuses = events(state, "final_bonus")
    assert [(b["rows"], b["columns"], b["colours"], b["bonus"]) for b in bonuses] == [
        (0, 4, 0, 28)
    ] * 4
    result = ENGINE.result(state)
    assert result.scores == [38, 40, 37, 40]
    assert result.ranks == [3, 1, 4, 1]  # equal points and equal rows: a shared win


def test_a_complete_row_ends_the_game_after_that_tiling_with_the_bonuses():
    state = rig(
        factories={0: tiles(blue=1)},
        lines={1: {1: (BLACK, 2)}},
        walls={0: colour_wall(".xxxx", "xx...", "x.x..", "x..x.", "x...x")},
        scores=[30, 50],
    )
    state = play(state, (0, (0, BLUE, 0)))
    assert ENGINE.is_over(state) and state["end_reason"] == "row"
    placed = {e["seat"]: e for e in events(state, "tile_placed")}
    assert (placed[0]["points"], placed[0]["horizontal"], placed[0]["vertical"]) == (10, 5, 5)
    assert placed[1]["points"] == 1  # the other seat's lines are still tiled
    assert events(state, "game_end_triggered")[0]["seats"] == [0]
    bonus = {e["seat"]: e for e in events(state, "final_bonus")}
    assert (bonus[0]["row_points"], bonus[0]["column_points"], bonus[0]["colour_points"]) == (
        2,
        7,
        10,
    )
    assert bonus[0]["score"] == 30 + 10 + 19 and bonus[1]["bonus"] == 0
    result = ENGINE.result(state)
    assert result.scores == [59, 51] and result.ranks == [1, 2] and result.winners == [0]
    assert result.details["rows"] == [1, 0] and result.details["bonuses"] == [19, 0]
    assert events(state, "game_over")[0]["ranks"] == [1, 2]
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, (0, BLUE, 0))


def test_tie_on_points_is_won_by_more_complete_rows():
    state = rig(
        factories={0: tiles(blue=1)},
        walls={0: colour_wall(".xxxx", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)},
        scores=[20, 27],
    )
    state = play(state, (0, (0, BLUE, 0)))  # 20 + 5 (row of five) + 2 (row bonus) = 27
    result = ENGINE.result(state)
    assert result.scores == [27, 27] and result.ranks == [1, 2]


# -- grey wall ------------------------------------------------------------------------------


def test_grey_wall_player_chooses_the_column():
    state = rig(wall="grey", factories={0: tiles(red=1)}, lines={0: {2: (RED, 2)}})
    state = play(state, (0, (0, RED, 2)))
    assert state["phase"] == "wall" and ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [(0,), (1,), (2,), (3,), (4,)]
    assert ENGINE.legal_actions(state, 1) == []
    view = ENGINE.view(state, 1)
    assert view["pending_rows"] == [2, -1] and view["pending_columns"][0] == [0, 1, 2, 3, 4]
    state = play(state, (0, (3,)))
    assert cell(state, 0, 2, 3) == RED and state["scores"][0] == 1
    (placed,) = events(state, "tile_placed")
    assert placed["chosen"] and placed["column"] == 3
    assert state["phase"] == "draft" and state["round"] == 2


def test_grey_wall_no_colour_twice_in_a_column_nor_in_a_row():
    walls = {0: grey_wall(".R...", EMPTY_ROW, "B....", EMPTY_ROW, "....R")}
    state = rig(wall="grey", factories={0: tiles(red=1)}, lines={0: {2: (RED, 2)}}, walls=walls)
    assert (0, RED, 2) in ENGINE.legal_actions(state, 0)
    state = play(state, (0, (0, RED, 2)))
    assert ENGINE.legal_actions(state, 0) == [(2,), (3,)]
    for column in (0, 1, 4):  # taken, or red already in that column
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, (column,))
    # Drafting: red may not go to a line whose row already has red.
    walls = {0: grey_wall(EMPTY_ROW, EMPTY_ROW, "...R.", EMPTY_ROW, EMPTY_ROW)}
    state = rig(wall="grey", factories={0: tiles(red=1)}, walls=walls)
    assert [a[2] for a in ENGINE.legal_actions(state, 0)] == [0, 1, 3, 4, FLOOR_LINE]


def test_grey_wall_a_single_legal_column_is_chosen_automatically():
    walls = {0: grey_wall("R....", ".R...", EMPTY_ROW, "..R..", "...R.")}
    state = rig(wall="grey", factories={0: tiles(red=1)}, lines={0: {2: (RED, 2)}}, walls=walls)
    state = play(state, (0, (0, RED, 2)))
    assert state["phase"] == "draft" and state["round"] == 2  # nobody was asked
    (placed,) = events(state, "tile_placed")
    assert (placed["row"], placed["column"], placed["chosen"], placed["points"]) == (
        2,
        4,
        False,
        1,
    )


def test_decision_grey_wall_no_legal_column_sends_the_whole_line_to_the_floor():
    assert azul.UNPLACEABLE_LINE_TO_FLOOR
    walls = {0: grey_wall("R....", ".R...", "....B", "..R..", "...R.")}
    state = rig(
        wall="grey", factories={0: tiles(red=1)}, lines={0: {2: (RED, 2)}}, walls=walls,
        floors={0: [BLACK] * 5}, scores=[20, 0],
    )  # fmt: skip
    assert (0, RED, 2) in ENGINE.legal_actions(state, 0)  # drafting does not look ahead
    state = play(state, (0, (0, RED, 2)))
    assert events(state, "tile_placed") == []
    (moved,) = events(state, "line_to_floor")
    assert (moved["count"], moved["to_floor"], moved["to_lid"]) == (3, 2, 1)
    (tiling,) = [e for e in events(state, "wall_tiling") if e["seat"] == 0]
    assert tiling["floor"] == [BLACK] * 5 + [RED, RED] and tiling["penalty"] == 14
    assert state["scores"][0] == 6 and line(state, 0, 2) == (-1, 0)
    assert state["lid"][RED] == 3 and state["lid"][BLACK] == 5


def grey_two_choices():
    """Seat 0 has red lines 1 and 3 to place and two black floor tiles; seat 1 a blue line 0."""
    return rig(
        wall="grey",
        factories={0: tiles(yellow=1)},
        lines={0: {1: (RED, 2), 3: (RED, 4)}, 1: {0: (BLUE, 1)}},
        floors={0: [BLACK, BLACK]},
        scores=[5, 0],
    )


def test_grey_wall_choices_are_simultaneous_and_each_players_lines_go_top_to_bottom():
    state = play(grey_two_choices(), (0, (0, YELLOW, 4)))
    assert ENGINE.to_act(state) == {0, 1}
    assert state["pending"] == [1, 0]
    state = play(state, (1, (2,)))  # applied at once, seat 0 still choosing
    assert cell(state, 1, 0, 2) == BLUE and ENGINE.to_act(state) == {0}
    assert [e["seat"] for e in events(state, "wall_tiling")] == [1]
    state = play(state, (0, (2,)))
    assert cell(state, 0, 1, 2) == RED and state["pending"][0] == 3
    # The later choice sees the earlier one: red is now in column 2.
    assert ENGINE.legal_actions(state, 0) == [(0,), (1,), (3,), (4,)]
    assert state["scores"][0] == 6 and state["floors"][0] == [BLACK, BLACK]  # not yet
    state = play(state, (0, (1,)))
    tiling = [e for e in events(state, "wall_tiling") if e["seat"] == 0]
    assert tiling[0]["wall_points"] == 2 and tiling[0]["penalty"] == 2
    assert state["scores"] == [5, 1] and state["phase"] == "draft"


def test_grey_wall_choices_are_independent_of_the_order_of_the_players():
    start = play(grey_two_choices(), (0, (0, YELLOW, 4)))
    first = play(start, (1, (2,)), (0, (2,)), (0, (1,)))
    second = play(start, (0, (2,)), (1, (2,)), (0, (1,)))
    for key in ("walls", "scores", "lid", "factories", "bag", "turn", "round"):
        assert first[key] == second[key]


def test_grey_wall_floor_penalty_comes_after_every_line_including_moved_tiles():
    walls = {0: grey_wall("B....", ".B...", "..B..", "....Y", "...B.")}
    state = rig(
        wall="grey", factories={0: tiles(blue=1)}, lines={0: {1: (RED, 2), 3: (BLUE, 3)}},
        walls=walls, scores=[10, 0],
    )  # fmt: skip
    state = play(state, (0, (0, BLUE, 3)))
    assert state["pending"][0] == 1 and state["floors"][0] == []
    state = play(state, (0, (0,)))  # red next to a blue above and a blue on the right
    assert events(state, "tile_placed")[-1]["points"] == 4
    (moved,) = events(state, "line_to_floor")
    assert moved["row"] == 3 and moved["to_floor"] == 4
    (tiling,) = [e for e in events(state, "wall_tiling") if e["seat"] == 0]
    assert tiling["floor"] == [BLUE] * 4 and tiling["wall_points"] == 4
    assert tiling["penalty"] == 6 and tiling["score"] == 8


def test_grey_wall_colour_bonus_counts_five_tiles_anywhere():
    walls = {0: grey_wall("YRKW.", "B....", ".B...", "..B..", "...B.")}
    state = rig(wall="grey", factories={0: tiles(blue=1)}, walls=walls)
    state = play(state, (0, (0, BLUE, 0)))
    assert ENGINE.is_over(state)
    (bonus,) = [e for e in events(state, "final_bonus") if e["seat"] == 0]
    assert (bonus["rows"], bonus["columns"], bonus["colours"], bonus["bonus"]) == (1, 0, 1, 12)
    assert state["scores"][0] == 5 + 12


def test_row_completable_on_the_grey_wall():
    assert row_completable(grey_wall(*EMPTY_WALL), 0)
    assert row_completable(grey_wall("YRKWB", *EMPTY_WALL[1:]), 0)
    dead = grey_wall("YRKW.", EMPTY_ROW, "....B", EMPTY_ROW, EMPTY_ROW)
    assert not row_completable(dead, 0)  # blue must go to column 4, which has blue
    two = grey_wall("YR.W.", EMPTY_ROW, "....B", EMPTY_ROW, EMPTY_ROW)
    assert row_completable(two, 0)  # blue to column 2, black to column 4
    blocked = grey_wall("YR.W.", EMPTY_ROW, "....B", "..B..", EMPTY_ROW)
    assert not row_completable(blocked, 0)  # now blue fits neither column 2 nor 4


def test_decision_grey_wall_game_ends_when_no_row_can_be_completed():
    assert azul.END_WHEN_NO_ROW_CAN_BE_COMPLETED
    walls = {
        0: grey_wall("RYK.B", "BRYW.", ".BWYK", "K.RBW", "WKB.R"),
        1: grey_wall("B.KWR", ".WBRY", "WRYK.", "KYR.B", "RK.BW"),
    }
    assert not any(row_completable(walls[s], r) for s in (0, 1) for r in range(5))
    state = rig(wall="grey", factories={0: tiles(black=1)}, walls=walls, scores=[10, 8])
    state = play(state, (0, (0, BLACK, FLOOR_LINE)))
    assert ENGINE.is_over(state) and state["end_reason"] == "no_row_possible"
    bonus = {e["seat"]: e for e in events(state, "final_bonus")}
    # Seat 0: column 2 complete and five blue; seat 1: five red.
    assert (bonus[0]["columns"], bonus[0]["colours"], bonus[0]["bonus"]) == (1, 1, 17)
    assert (bonus[1]["columns"], bonus[1]["colours"], bonus[1]["bonus"]) == (0, 1, 10)
    assert state["scores"] == [10 - 1 + 17, 8 + 10]


@pytest.mark.parametrize("wall", ["colour", "grey"])
def test_decision_the_game_ends_after_the_round_limit(wall):
    state = rig(wall=wall, factories={0: tiles(red=1)}, scores=[4, 6])
    state["round"] = azul.MAX_ROUNDS - 1
    state = play(state, (0, (0, RED, 4)))
    assert not ENGINE.is_over(state) and state["round"] == azul.MAX_ROUNDS
    state = rig(wall=wall, factories={0: tiles(red=1)}, scores=[4, 6])
    state["round"] = azul.MAX_ROUNDS
    state = play(state, (0, (0, RED, 4)))
    assert ENGINE.is_over(state) and state["end_reason"] == "round_limit"
    assert events(state, "game_end_triggered")[0]["reason"] == "round_limit"
    assert ENGINE.result(state).ranks == [2, 1]


# -- default moves, views, actions -----------------------------------------------------------


def test_default_draft_fills_a_line_completely_without_waste():
    state = rig(factories={0: tiles(blue=3, red=1), 1: tiles(yellow=4)})
    assert ENGINE.default_action(state, 0) == (1, YELLOW, 3)  # four tiles, line complete


def test_default_draft_prefers_completing_a_line_to_more_tiles():
    state = rig(
        factories={0: tiles(red=3, yellow=1), 1: tiles(blue=2, white=2)},
        lines={0: {2: (YELLOW, 1), 3: (BLACK, 1)}},
    )
    assert ENGINE.default_action(state, 0) == (1, BLUE, 1)


def test_default_draft_wastes_as_little_as_possible_and_avoids_the_marker():
    lines = {0: {row: (BLUE, 1) for row in (1, 2, 3, 4)}}
    state = rig(factories={0: tiles(red=4)}, lines=lines)
    assert ENGINE.default_action(state, 0) == (0, RED, 0)  # 3 on the floor, not 4
    state = rig(factories={0: tiles(red=1)}, centre=tiles(yellow=1))
    assert ENGINE.default_action(state, 0) == (0, RED, 0)  # the centre would cost the marker


def test_default_draft_on_the_grey_wall_avoids_a_line_that_fits_no_column():
    walls = {0: grey_wall("..R..", "...R.", "YK..B", EMPTY_ROW, EMPTY_ROW)}
    state = rig(wall="grey", factories={0: tiles(red=3)}, walls=walls)
    assert (0, RED, 2) in ENGINE.legal_actions(state, 0)
    # Line 2 would be completed, but red fits none of its row's empty columns (2 and 3).
    assert ENGINE.default_action(state, 0) == (0, RED, 3)


def test_default_column_on_the_grey_wall_scores_most_leftmost_on_ties():
    walls = {0: grey_wall(EMPTY_ROW, ".Y...", "....B", EMPTY_ROW, EMPTY_ROW)}
    state = rig(wall="grey", factories={0: tiles(red=1)}, lines={0: {2: (RED, 2)}}, walls=walls)
    state = play(state, (0, (0, RED, 2)))
    assert ENGINE.legal_actions(state, 0) == [(0,), (1,), (2,), (3,)]
    assert ENGINE.default_action(state, 0) == (1,)  # 2 points, as column 3; 1 elsewhere
    with pytest.raises(IllegalAction):
        ENGINE.default_action(state, 1)


def test_views_are_all_public_and_hold_no_bag_order():
    state = play(grey_two_choices(), (0, (0, YELLOW, 4)))
    public = ENGINE.view(state, None)
    assert all(ENGINE.view(state, seat) == public for seat in (0, 1))
    assert "seed" not in public and "rng_counter" not in public
    assert public["bag"] == state["bag"] and public["to_act"] == [0, 1]
    assert public["pending_columns"] == [[0, 1, 2, 3, 4]] * 2
    assert public["line_colours"][0] == [-1, RED, -1, RED, YELLOW]
    ENGINE.check_views(state)
    reseeded = {**state, "seed": 999, "rng_counter": 3}
    assert ENGINE.view(reseeded, 0) == public


def test_actions_are_compact():
    state = ENGINE.new_game(4, seed=3)
    for action in ENGINE.legal_actions(state, state["turn"]):
        assert len(encode_action(action)) <= 8
