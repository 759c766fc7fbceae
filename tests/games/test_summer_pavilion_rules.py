"""Azul Mini: Summer Pavilion rules (docs/rules/summer_pavilion.md), the rulebook's worked
examples (phase 1, placing examples А–Д, Sergiy's wild example) and every [decision]."""

import json
import random

import pytest

from games.core import IllegalAction, InvariantViolation
from games.summer_pavilion.engine import (
    ENGINE,
    SCORE_FLOOR,
    VARIANT1_NUMBERS,
    VARIANT2_WILD_ORDER,
    WILD_ORDER,
    space_index,
)
from tests.games.summer_pavilion_helpers import (
    BLUE,
    CENTRE_STAR,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    STAR_OF,
    YELLOW,
    build,
    events,
    last,
    play,
    tiles,
)

TAKE, PLACE, PASS, BONUS, KEEP, DONE = 0, 1, 2, 3, 4, 5


def place(star, space, colour, wilds=0):
    return (PLACE, star, space, colour, wilds)


def total_tiles(state):
    """Every tile in the game, counted by colour (conservation, seen from the outside)."""
    counts = [0] * 6
    view = ENGINE.view(state, None)
    piles = [view["supply"], view["centre"], view["tower"], *view["factories"]]
    for player in view["players"]:
        piles += [player["hand"], player["corners"]]
        for star in player["board"]:
            for tile in star:
                if tile >= 0:
                    counts[tile] += 1
    for pile in piles:
        for colour in range(6):
            counts[colour] += pile[colour]
    for colour in state["bag"]:
        counts[colour] += 1
    return counts


# -- components and setup -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup_supply_factories_scores(players, factories):
    state = ENGINE.new_game(players, seed=11)
    view = ENGINE.view(state, None)
    assert total_tiles(state) == [22] * 6  # 132 tiles, 22 of each colour
    assert sum(view["supply"]) == 10
    assert len(view["factories"]) == factories
    assert all(sum(factory) == 4 for factory in view["factories"])
    assert view["bag_size"] == 132 - 10 - 4 * factories
    assert [player["score"] for player in view["players"]] == [5] * players
    assert view["round"] == 1 and view["wild"] == PURPLE
    assert view["phase"] == "taking" and view["first_player_tile"] == -1
    assert view["current"] == view["start_player"]
    assert ENGINE.to_act(state) == {view["start_player"]}


def test_supply_is_drawn_before_the_factories():
    state = ENGINE.new_game(2, seed=5)
    bag = [colour for colour in range(6) for _ in range(22)]
    rng = random.Random("5:0")  # the first draw of the game's seeded generator
    rng.shuffle(bag)
    drawn = bag[::-1]  # the bag is drawn from its end
    assert state["supply"] == [drawn[:10].count(c) for c in range(6)]
    assert state["factories"][0] == [drawn[10:14].count(c) for c in range(6)]


def test_a_random_player_starts():
    starts = {ENGINE.new_game(4, seed=seed)["start_player"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}


def test_player_count_outside_2_to_4_is_refused():
    for players in (1, 5):
        with pytest.raises(ValueError):
            ENGINE.new_game(players)


def test_same_seed_same_game():
    assert ENGINE.new_game(3, seed=9) == ENGINE.new_game(3, seed=9)
    assert ENGINE.new_game(3, seed=9) != ENGINE.new_game(3, seed=10)


# -- wild colour ----------------------------------------------------------------------------


def test_wild_colour_order_standard_and_variant2():
    assert WILD_ORDER == (PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED)
    assert VARIANT2_WILD_ORDER == (ORANGE, RED, BLUE, YELLOW, GREEN, PURPLE)  # [decision]
    for round_no in range(1, 7):
        standard = build(round_no=round_no, hands={0: tiles(red=1)})
        other = build(round_no=round_no, variant2=True, hands={0: tiles(red=1)})
        assert ENGINE.view(standard, None)["wild"] == WILD_ORDER[round_no - 1]
        assert ENGINE.view(other, None)["wild"] == VARIANT2_WILD_ORDER[round_no - 1]


def test_rounds_announce_their_wild_colour_in_the_log():
    state = ENGINE.new_game(2, {"variant2": True}, seed=3)
    rng = random.Random(0)
    while not ENGINE.is_over(state):
        seat = next(iter(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    rounds = events(state, "round")
    assert [event["round"] for event in rounds] == [1, 2, 3, 4, 5, 6]
    assert [event["wild"] for event in rounds] == [ORANGE, RED, BLUE, YELLOW, GREEN, PURPLE]


def test_variant2_round1_wild_is_orange_and_purple_is_ordinary():
    state = build(
        phase="taking",
        variant2=True,
        factories=[tiles(purple=2, orange=2), tiles(red=4)] + [tiles()] * 3,
    )
    legal = ENGINE.legal_actions(state, 0)
    assert (TAKE, 1, PURPLE) in legal and (TAKE, 1, ORANGE) not in legal
    state = ENGINE.apply(state, 0, (TAKE, 1, PURPLE))
    assert state["hands"][0] == tiles(purple=2, orange=1)  # + exactly one orange wild
    assert state["centre"] == tiles(orange=1)


def test_a_wild_kept_into_the_next_round_is_an_ordinary_tile():
    # Round 2: green is wild, purple (round 1's wild) is an ordinary colour.
    state = build(round_no=2, hands={0: tiles(purple=3, red=1)})
    legal = ENGINE.legal_actions(state, 0)
    assert place(STAR_OF[RED], 4, RED, 3) not in legal  # purple no longer replaces red
    assert place(STAR_OF[PURPLE], 3, PURPLE) in legal
    assert place(STAR_OF[RED], 1, RED) in legal


# -- phase 1: taking tiles -------------------------------------------------------------------


def test_phase1_rulebook_example():
    """Inna, Andriy and Oksana (3 players, purple wild in round 1)."""
    factories = [tiles() for _ in range(7)]
    factories[0] = tiles(red=2, yellow=2)  # Inna's factory: no purple
    factories[1] = tiles(green=1, purple=2, yellow=1)  # Andriy's factory: two purple wilds
    factories[2] = tiles(blue=4)  # more tiles elsewhere: phase 1 goes on
    state = build(3, phase="taking", factories=factories)

    state = ENGINE.apply(state, 0, (TAKE, 1, RED))
    assert state["hands"][0] == tiles(red=2)
    assert state["centre"] == tiles(yellow=2)  # the rest of the factory
    assert last(state, "take") == {
        "type": "take",
        "seat": 0,
        "source": 1,
        "colour": RED,
        "count": 2,
        "wild": 0,
    }

    state = ENGINE.apply(state, 1, (TAKE, 2, GREEN))
    assert state["hands"][1] == tiles(green=1, purple=1)  # + one purple wild
    assert state["centre"] == tiles(yellow=3, purple=1)  # the other purple goes to the centre
    assert last(state, "take")["wild"] == 1

    state = ENGINE.apply(state, 2, (TAKE, 0, YELLOW))
    assert state["hands"][2] == tiles(yellow=3, purple=1)
    assert state["first_player_tile"] == 2
    assert state["scores"] == [5, 5, 1]  # −4: three yellow and the purple
    assert last(state, "take")["first_player_tile"] == 4
    assert state["centre"] == tiles()
    assert state["phase"] == "taking" and ENGINE.to_act(state) == {0}


def test_only_wild_tiles_take_exactly_one_and_the_rest_goes_to_the_centre():
    factories = [tiles(purple=3), tiles(red=1, purple=1)] + [tiles()] * 3
    state = build(phase="taking", factories=factories)
    legal = ENGINE.legal_actions(state, 0)
    assert (TAKE, 1, PURPLE) in legal
    assert (TAKE, 2, PURPLE) not in legal  # another colour is there: take it instead
    state = ENGINE.apply(state, 0, (TAKE, 1, PURPLE))
    assert state["hands"][0] == tiles(purple=1)
    assert state["centre"] == tiles(purple=2)
    assert ENGINE.legal_actions(state, 1) == [(TAKE, 0, PURPLE), (TAKE, 2, RED)]
    state = ENGINE.apply(state, 1, (TAKE, 0, PURPLE))  # only wilds in the centre too: one
    assert state["hands"][1] == tiles(purple=1) and state["centre"] == tiles(purple=1)
    assert state["scores"][1] == 4 and state["first_player_tile"] == 1


def test_the_wild_colour_cannot_be_taken_as_a_colour():
    state = build(phase="taking", factories=[tiles(purple=2, red=2)] + [tiles()] * 4)
    assert ENGINE.legal_actions(state, 0) == [(TAKE, 1, RED)]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, (TAKE, 1, PURPLE))


def test_first_player_loss_stops_at_zero_and_a_player_at_zero_may_still_take():
    assert SCORE_FLOOR == 0  # [decision] the Mini's floor is 0
    state = build(
        phase="taking",
        scores=[2, 0],
        factories=[tiles(red=2)] + [tiles()] * 4,
        centre=tiles(blue=3, purple=1),
    )
    state = ENGINE.apply(state, 0, (TAKE, 0, BLUE))
    assert state["scores"][0] == 0 and last(state, "take")["first_player_tile"] == 2
    zero = build(phase="taking", scores=[0, 5], centre=tiles(blue=3))
    zero = ENGINE.apply(zero, 0, (TAKE, 0, BLUE))
    assert zero["scores"][0] == 0 and zero["first_player_tile"] == 0


def test_only_the_first_taker_from_the_centre_pays():
    state = build(
        phase="taking", centre=tiles(blue=2, red=2), factories=[tiles(green=1)] + [tiles()] * 4
    )
    state = play(state, (0, (TAKE, 0, BLUE)), (1, (TAKE, 0, RED)))
    assert state["scores"] == [3, 5]
    assert "first_player_tile" not in last(state, "take")


def test_phase2_starts_with_the_first_player_tile_holder():
    state = build(3, phase="taking", centre=tiles(red=1), factories=[tiles(blue=1)] + [tiles()] * 6)
    state = play(state, (0, (TAKE, 1, BLUE)), (1, (TAKE, 0, RED)))
    assert state["phase"] == "placing"
    assert ENGINE.to_act(state) == {1}
    assert last(state, "placing") == {"type": "placing", "first": 1}


def test_nobody_took_the_first_player_tile_the_start_player_begins():
    # [decision] the centre never got a tile: the round's start player begins phase 2.
    factories = [tiles(red=4), tiles(blue=3, purple=1)] + [tiles()] * 5
    state = build(3, phase="taking", start=1, current=1, factories=factories)
    state = play(state, (1, (TAKE, 1, RED)), (2, (TAKE, 2, BLUE)))
    assert state["phase"] == "placing" and state["first_player_tile"] == -1
    assert ENGINE.to_act(state) == {1}


def test_taken_tiles_are_public():
    state = build(phase="taking", factories=[tiles(red=3, blue=1)] + [tiles()] * 4)
    state = ENGINE.apply(state, 0, (TAKE, 1, RED))
    for viewer in (None, 0, 1):
        assert ENGINE.view(state, viewer)["players"][0]["hand"] == tiles(red=3)


# -- phase 2: placing (rulebook examples) ---------------------------------------------------


def test_example_A_seven_blue_on_blue_6():
    state = build(hands={0: tiles(blue=7)})
    state = ENGINE.apply(state, 0, place(STAR_OF[BLUE], 6, BLUE))
    assert state["boards"][0][space_index(STAR_OF[BLUE], 6)] == BLUE
    assert state["hands"][0] == tiles(blue=1)  # one blue left for later
    assert state["tower"] == tiles(blue=5)
    assert state["scores"][0] == 5 + 1
    assert last(state, "place")["points"] == 1


def test_example_B_three_red_on_red_3():
    state = build(hands={0: tiles(red=3)})
    assert ENGINE.legal_actions(state, 0) == [
        place(CENTRE_STAR, 1, RED),
        place(CENTRE_STAR, 2, RED),
        place(CENTRE_STAR, 3, RED),
        place(STAR_OF[RED], 1, RED),
        place(STAR_OF[RED], 2, RED),
        place(STAR_OF[RED], 3, RED),
        (PASS,),
    ]
    state = ENGINE.apply(state, 0, place(STAR_OF[RED], 3, RED))
    assert state["tower"] == tiles(red=2) and state["hands"][0] == tiles()
    assert state["scores"][0] == 6


def test_example_V_three_wilds_for_blue_6_next_to_two_tiles():
    blue = STAR_OF[BLUE]
    state = build(
        hands={0: tiles(blue=3, purple=3)}, boards={0: {(blue, 1): BLUE, (blue, 2): BLUE}}
    )
    state = ENGINE.apply(state, 0, place(blue, 6, BLUE, 3))
    assert state["tower"] == tiles(blue=2, purple=3)
    assert state["hands"][0] == tiles()
    assert state["scores"][0] == 5 + 3  # 1 + a group of 2


def test_example_G_three_wilds_and_one_orange_on_orange_4():
    orange = STAR_OF[ORANGE]
    state = build(
        hands={0: tiles(orange=1, green=1, purple=3)},
        boards={0: {(orange, 3): ORANGE, (orange, 5): ORANGE}},
    )
    state = ENGINE.apply(state, 0, place(orange, 4, ORANGE, 3))
    assert state["tower"] == tiles(purple=3)  # the orange tile is on the board
    assert state["hands"][0] == tiles(green=1)  # kept for next round (green wild then)
    assert state["scores"][0] == 5 + 3


def test_example_G_prime_wild_on_its_own_star():
    purple = STAR_OF[PURPLE]
    state = build(
        hands={0: tiles(purple=2, red=2, green=4)},
        boards={0: {(purple, 1): PURPLE, (purple, 3): PURPLE}},
    )
    legal = ENGINE.legal_actions(state, 0)
    assert place(purple, 2, PURPLE, 1) not in legal  # the wild colour is paid in itself only
    state = ENGINE.apply(state, 0, place(purple, 2, PURPLE))
    assert state["tower"] == tiles(purple=1)
    assert state["hands"][0] == tiles(red=2, green=4)
    assert state["scores"][0] == 5 + 3


def test_example_D_pass_keeps_four_green_and_discards_two_red():
    state = build(hands={0: tiles(green=4, red=2), 1: tiles(blue=1)}, scores=[9, 5])
    state = ENGINE.apply(state, 0, (PASS,))
    assert state["phase"] == "keeping"
    # The default keeps next round's wild colour (green) first.
    for _ in range(4):
        assert ENGINE.default_action(state, 0) == (KEEP, GREEN)
        state = ENGINE.apply(state, 0, (KEEP, GREEN))
    assert state["corners"][0] == tiles(green=4)
    assert state["hands"][0] == tiles()
    assert state["tower"] == tiles(red=2)
    assert state["scores"][0] == 9 - 2
    assert last(state, "pass") == {
        "type": "pass",
        "seat": 0,
        "kept": [GREEN] * 4,
        "discarded": [RED, RED],
        "penalty": 2,
    }
    assert state["passed"][0] and ENGINE.to_act(state) == {1}


def test_sergiy_three_wilds_and_one_green():
    state = build(hands={0: tiles(purple=3, green=1)}, boards={0: {(CENTRE_STAR, 6): BLUE}})
    legal = set(ENGINE.legal_actions(state, 0))
    assert place(STAR_OF[GREEN], 4, GREEN, 3) in legal
    assert place(STAR_OF[GREEN], 5, GREEN, 3) not in legal  # 4 tiles only
    for space in (1, 2, 3):
        assert place(STAR_OF[PURPLE], space, PURPLE) in legal
        assert place(CENTRE_STAR, space, PURPLE) in legal  # no purple in the centre yet
    assert place(STAR_OF[PURPLE], 4, PURPLE) not in legal
    assert place(CENTRE_STAR, 4, GREEN, 3) in legal
    with_purple = build(hands={0: tiles(purple=3, green=1)}, boards={0: {(CENTRE_STAR, 6): PURPLE}})
    assert not any(
        action[1] == CENTRE_STAR and action[3] == PURPLE
        for action in ENGINE.legal_actions(with_purple, 0)
        if action[0] == PLACE
    )


# -- phase 2: placing rules -----------------------------------------------------------------


def test_wilds_need_at_least_one_real_tile_of_the_colour():
    state = build(hands={0: tiles(purple=5)})
    legal = ENGINE.legal_actions(state, 0)
    assert all(action[3] == PURPLE for action in legal if action[0] == PLACE)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, place(STAR_OF[RED], 1, RED, 1))


def test_the_cost_is_exactly_the_printed_number():
    state = build(hands={0: tiles(red=2, purple=3)})
    red = STAR_OF[RED]
    legal = set(ENGINE.legal_actions(state, 0))
    assert {a for a in legal if a[:2] == (PLACE, red) and a[2] == 4} == {
        place(red, 4, RED, 2),
        place(red, 4, RED, 3),
    }
    assert place(red, 6, RED, 3) not in legal  # 2 + 3 < 6
    state = ENGINE.apply(state, 0, place(red, 4, RED, 2))
    assert state["hands"][0] == tiles(purple=1)


def test_outer_stars_take_only_their_colour_and_occupied_spaces_are_closed():
    state = build(hands={0: tiles(red=6, blue=6)}, boards={0: {(STAR_OF[RED], 2): RED}})
    legal = set(ENGINE.legal_actions(state, 0))
    for star in range(1, 7):
        for space in range(1, 7):
            assert (place(star, space, RED) in legal) == (star == STAR_OF[RED] and space != 2)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, place(STAR_OF[RED], 2, RED))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, place(STAR_OF[BLUE], 1, RED))


def test_the_centre_star_accepts_each_colour_once():
    state = build(hands={0: tiles(purple=6, green=6, orange=6, yellow=6, blue=6, red=6)})
    colours = [RED, BLUE, YELLOW, ORANGE, GREEN, PURPLE]
    for space, colour in enumerate(colours, start=1):
        legal = set(ENGINE.legal_actions(state, 0))
        free = [c for c in colours if c not in colours[: space - 1]]
        for other in range(6):
            assert (place(CENTRE_STAR, space, other) in legal) == (other in free)
        state = ENGINE.apply(state, 0, place(CENTRE_STAR, space, colour))
        assert ENGINE.to_act(state) == {0}  # seat 1 has no tiles: it passed automatically
    assert state["boards"][0][:6] == colours
    assert not any(a[1] == CENTRE_STAR for a in ENGINE.legal_actions(state, 0) if a[0] == PLACE)


def test_the_wild_tile_goes_on_its_own_star_or_the_centre_only():
    state = build(hands={0: tiles(purple=6)})
    stars = {action[1] for action in ENGINE.legal_actions(state, 0) if action[0] == PLACE}
    assert stars == {CENTRE_STAR, STAR_OF[PURPLE]}
    assert all(action[4] == 0 for action in ENGINE.legal_actions(state, 0) if action[0] == PLACE)


@pytest.mark.parametrize(
    ("filled", "space", "points"),
    [
        ([], 1, 1),
        ([2], 1, 2),
        ([6], 1, 2),  # space 6 neighbours space 1
        ([5, 6, 2, 3], 1, 5),
        ([2, 3, 4, 5, 6], 1, 6),  # the last space of a ring: the whole star
        ([3], 1, 1),  # not a neighbour
        ([1, 2, 4], 6, 3),  # 6-1-2 on one side; 5 is empty, so 4 is not joined
        ([1, 2, 4, 5], 6, 5),  # 5-4 on one side, 1-2 on the other: 1 + 2 + 2
    ],
)
def test_points_count_the_connected_tiles_of_the_ring(filled, space, points):
    red = STAR_OF[RED]
    state = build(hands={0: tiles(red=6)}, boards={0: {(red, p): RED for p in filled}})
    state = ENGINE.apply(state, 0, place(red, space, RED))
    assert last(state, "place")["points"] == points
    assert state["scores"][0] == 5 + points


def test_spaces_of_different_stars_never_connect():
    # Red space 2 and 3 sit next to centre spaces 1 and 2 (the red pillar), but only the
    # ring of the same star counts.
    state = build(
        hands={0: tiles(red=2)},
        boards={0: {(CENTRE_STAR, 1): BLUE, (CENTRE_STAR, 2): GREEN, (STAR_OF[BLUE], 3): BLUE}},
    )
    state = ENGINE.apply(state, 0, place(STAR_OF[RED], 2, RED))
    assert last(state, "place")["points"] == 1


# -- structures and bonus tiles ---------------------------------------------------------------


def spec_structures():
    """The 18 structures written from the spec's formulas: (kind, star, spaces, bonus)."""
    found = []
    for star in range(1, 7):
        a = (star + 3) % 6 + 1
        nxt = star % 6 + 1
        found.append(("pillar", star, [(star, 2), (star, 3), (0, a), (0, a % 6 + 1)], 1))
        found.append(("statue", star, [(star, 1), (star, 2), (nxt, 3), (nxt, 4)], 2))
        found.append(("window", star, [(star, 5), (star, 6)], 3))
    return found


STAR_COLOUR_OF = {star: colour for colour, star in STAR_OF.items()}


def test_structure_examples_from_the_spec():
    found = {(kind, star): spaces for kind, star, spaces, _ in spec_structures()}
    assert found["pillar", 1] == [(1, 2), (1, 3), (0, 5), (0, 6)]
    assert found["pillar", 3] == [(3, 2), (3, 3), (0, 1), (0, 2)]
    assert found["statue", 1] == [(1, 1), (1, 2), (2, 3), (2, 4)]
    assert found["statue", 6] == [(6, 1), (6, 2), (1, 3), (1, 4)]


@pytest.mark.parametrize(
    ("kind", "star", "spaces", "bonus"),
    spec_structures(),
    ids=[f"{kind}-{star}" for kind, star, _, _ in spec_structures()],
)
def test_completing_a_structure_gives_bonus_tiles(kind, star, spaces, bonus):
    last_star, last_space = spaces[0]
    colour = STAR_COLOUR_OF[last_star]
    filled = {}
    centre_colours = iter(c for c in (RED, BLUE, GREEN) if c != colour)
    for s, p in spaces[1:]:
        filled[s, p] = STAR_COLOUR_OF[s] if s else next(centre_colours)
    supply = tiles(purple=2, green=2, orange=1, yellow=3, blue=1, red=1)
    state = build(hands={0: _hand(colour, 6)}, boards={0: filled}, supply=supply)
    state = ENGINE.apply(state, 0, place(last_star, last_space, colour, 0))
    event = last(state, "place")
    assert event["structures"] == [[["pillar", "statue", "window"].index(kind), star]]
    assert event["bonus"] == [bonus, bonus]
    assert state["phase"] == "bonus" and state["bonus_due"] == bonus
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [(BONUS, c) for c in range(6)]  # no pass
    hand_before = list(state["hands"][0])
    bag_before = len(state["bag"])
    for _ in range(bonus):
        state = ENGINE.apply(state, 0, (BONUS, YELLOW))
    assert state["hands"][0][YELLOW] == hand_before[YELLOW] + bonus
    assert sum(state["hands"][0]) == sum(hand_before) + bonus
    assert sum(state["supply"]) == 10  # refilled after the turn
    assert len(state["bag"]) == bag_before - bonus
    assert state["phase"] == "placing" and ENGINE.to_act(state) == {0}  # seat 1 has no tiles


def _hand(colour, count):
    vector = [0] * 6
    vector[colour] = count
    return vector


def test_three_of_four_spaces_give_nothing():
    purple = STAR_OF[PURPLE]
    state = build(hands={0: tiles(purple=6)}, boards={0: {(purple, 3): PURPLE}})
    state = ENGINE.apply(state, 0, place(purple, 2, PURPLE))  # pillar: centre 5, 6 empty
    assert "structures" not in last(state, "place") and state["phase"] == "placing"


def test_the_centre_space_can_complete_a_pillar():
    red = STAR_OF[RED]
    state = build(
        hands={0: tiles(blue=2)},
        boards={0: {(red, 2): RED, (red, 3): RED, (CENTRE_STAR, 1): GREEN}},
    )
    state = ENGINE.apply(state, 0, place(CENTRE_STAR, 2, BLUE))
    assert last(state, "place")["structures"] == [[0, red]]
    assert state["bonus_due"] == 1


def test_one_placement_completing_two_structures_adds_the_bonuses():
    # Purple space 2 belongs to the purple pillar and to the purple/orange statue.
    purple, orange = STAR_OF[PURPLE], STAR_OF[ORANGE]
    filled = {
        (purple, 3): PURPLE,
        (CENTRE_STAR, 5): RED,
        (CENTRE_STAR, 6): BLUE,
        (purple, 1): PURPLE,
        (orange, 3): ORANGE,
        (orange, 4): ORANGE,
    }
    supply = tiles(purple=2, green=2, orange=1, yellow=2, blue=1, red=2)
    state = build(hands={0: tiles(purple=2)}, boards={0: filled}, supply=supply)
    state = ENGINE.apply(state, 0, place(purple, 2, PURPLE))
    event = last(state, "place")
    assert sorted(event["structures"]) == [[0, purple], [1, purple]]
    assert event["bonus"] == [3, 3] and state["bonus_due"] == 3
    assert event["points"] == 3  # purple 1-2-3
    state = play(state, (0, (BONUS, RED)), (0, (BONUS, RED)), (0, (BONUS, BLUE)))
    assert state["hands"][0] == tiles(red=2, blue=1)
    assert [e["colour"] for e in events(state, "bonus")] == [RED, RED, BLUE]


def test_bonus_tiles_may_be_wild():
    state = build(hands={0: tiles(red=6)}, boards={0: {(STAR_OF[RED], 6): RED}})
    state = ENGINE.apply(state, 0, place(STAR_OF[RED], 5, RED, 0))
    assert (BONUS, PURPLE) in ENGINE.legal_actions(state, 0)
    assert ENGINE.default_action(state, 0) == (BONUS, PURPLE)  # the wild colour first


def test_a_short_supply_gives_what_there_is_then_refills_from_the_tower():
    # [decision] take what there is: 3 bonus tiles owed, the supply holds 1, bag empty.
    red = STAR_OF[RED]
    state = build(
        4,
        hands={0: tiles(red=6)},
        boards={0: {(red, 5): RED}},
        supply=tiles(green=1),
        rest=(1, 2, 3, 0),
    )
    assert state["bag"] == [] and state["tower"] == tiles()
    state = ENGINE.apply(state, 0, place(red, 6, RED, 0))
    assert last(state, "place")["bonus"] == [3, 1]
    assert state["bonus_due"] == 1
    state = ENGINE.apply(state, 0, (BONUS, GREEN))
    # The turn ends: the 5 red tiles paid went to the tower, which now refills the supply.
    assert state["hands"][0] == tiles(green=1)
    assert state["supply"] == tiles(red=5) and state["tower"] == tiles() and state["bag"] == []
    assert last(state, "bag_refilled") == {"type": "bag_refilled", "tiles": 5}
    assert last(state, "supply_refilled") == {"type": "supply_refilled", "drawn": 5}


def test_an_empty_bag_is_refilled_from_the_tower():
    red = STAR_OF[RED]
    state = build(hands={0: tiles(red=6)}, boards={0: {(red, 5): RED}}, rest="tower")
    assert state["bag"] == []
    in_tower = sum(state["tower"])
    state = play(state, (0, place(red, 6, RED)), *[(0, (BONUS, PURPLE))] * 2)
    state = ENGINE.apply(state, 0, (BONUS, GREEN))
    assert sum(state["supply"]) == 10
    assert state["tower"] == tiles()
    assert len(state["bag"]) == in_tower + 5 - 3  # tower + the 5 red paid, 3 drawn
    assert total_tiles(state) == [22] * 6


def test_nothing_to_take_no_bonus_step():
    red = STAR_OF[RED]
    state = build(
        4,
        hands={0: tiles(red=6, blue=1)},
        boards={0: {(red, 5): RED}},
        supply=tiles(),
        rest=(1, 2, 3, 0),
    )
    state = ENGINE.apply(state, 0, place(red, 6, RED))
    assert last(state, "place")["bonus"] == [3, 0]
    assert state["phase"] == "placing" and state["bonus_due"] == 0
    assert state["supply"] == tiles(red=5)  # the tower refilled it after the turn


def test_the_supply_is_refilled_after_a_pass_so_its_discards_can_be_the_next_bonus():
    # [decision] refill after every turn of phase 2, passes included. Bag and tower are
    # empty and the supply holds one tile; seat 3 passes and discards 5 blue tiles, then
    # seat 0 completes the red window (3 bonus tiles).
    red = STAR_OF[RED]
    state = build(
        4,
        current=3,
        hands={0: tiles(red=6), 3: tiles(blue=5)},
        boards={0: {(red, 5): RED}},
        passed=[False, True, True, False],
        supply=tiles(green=1),
        rest=(1, 2, 3, 0),
    )
    assert state["bag"] == [] and state["tower"] == tiles()
    state = play(state, (3, (PASS,)), (3, (DONE,)))
    assert state["supply"] == tiles(green=1, blue=5) and state["tower"] == tiles()
    assert last(state, "supply_refilled") == {"type": "supply_refilled", "drawn": 5}
    assert ENGINE.view(state, None)["supply"] == tiles(green=1, blue=5)
    state = ENGINE.apply(state, 0, place(red, 6, RED))
    assert last(state, "place")["bonus"] == [3, 3]
    state = play(state, *[(0, (BONUS, BLUE))] * 3)
    assert state["hands"][0] == tiles(blue=3)


def test_the_last_pass_of_a_round_refills_the_supply_before_the_factories():
    # The pass that ends phase 2 is a turn too: its discards refill the supply first, and
    # the next round's factories get what is left.
    state = build(
        4,
        hands={0: tiles(blue=5)},
        passed=[False, True, True, True],
        supply=tiles(green=7),
        rest=(1, 2, 3, 0),
    )
    assert state["bag"] == [] and state["tower"] == tiles()
    state = play(state, (0, (PASS,)), (0, (DONE,)))
    assert state["round"] == 2 and state["phase"] == "taking"
    assert state["supply"] == tiles(green=7, blue=3)
    assert [sum(factory) for factory in state["factories"]] == [2] + [0] * 8


# -- passing ------------------------------------------------------------------------------------


def test_keep_at_most_four_and_the_rest_is_discarded_at_minus_one():
    state = build(hands={0: tiles(red=3, blue=3), 1: tiles(green=1)}, scores=[10, 5])
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)), (0, (KEEP, BLUE)), (0, (KEEP, RED)))
    assert state["phase"] == "keeping"
    state = ENGINE.apply(state, 0, (KEEP, BLUE))  # the fourth: no more room
    assert state["corners"][0] == tiles(red=2, blue=2)
    assert state["tower"] == tiles(red=1, blue=1)
    assert state["scores"][0] == 8 and state["phase"] == "placing"


def test_keep_fewer_then_done():
    state = build(hands={0: tiles(red=3), 1: tiles(green=1)}, scores=[1, 5])
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)), (0, (DONE,)))
    assert state["corners"][0] == tiles(red=1)
    assert state["scores"][0] == 0  # 2 discarded, but the score stops at 0 ([decision])
    assert last(state, "pass")["penalty"] == 1


def test_keeping_everything_when_the_hand_runs_out():
    state = build(hands={0: tiles(red=1, blue=1), 1: tiles(red=1)})
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)), (0, (KEEP, BLUE)))
    assert state["corners"][0] == tiles(red=1, blue=1) and state["scores"][0] == 5
    assert ENGINE.to_act(state) == {1}


def test_a_passed_player_is_skipped_and_the_phase_ends_when_all_passed():
    state = build(3, hands={0: tiles(red=6), 1: tiles(blue=6), 2: tiles(green=2)})
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)), (0, (DONE,)))
    state = ENGINE.apply(state, 1, place(STAR_OF[BLUE], 1, BLUE))
    state = ENGINE.apply(state, 2, place(STAR_OF[GREEN], 2, GREEN))
    # Seat 2 is out of tiles; seat 0 passed: back to seat 1.
    assert ENGINE.to_act(state) == {1}
    state = ENGINE.apply(state, 1, place(STAR_OF[BLUE], 2, BLUE))
    assert ENGINE.to_act(state) == {1}
    state = play(state, (1, (PASS,)), (1, (KEEP, BLUE)), (1, (DONE,)))
    assert state["round"] == 2 and state["phase"] == "taking"
    passes = [(event["seat"], event.get("auto", False)) for event in events(state, "pass")]
    assert passes == [(0, False), (2, True), (1, False)]


def test_a_player_without_tiles_passes_automatically():
    state = build(3, hands={0: tiles(red=1)})
    state = ENGINE.apply(state, 0, place(STAR_OF[RED], 1, RED))
    autos = [event for event in events(state, "pass") if event.get("auto")]
    assert [event["seat"] for event in autos] == [1, 2, 0]
    assert state["round"] == 2


def test_passing_is_always_allowed_and_is_the_default_without_a_placement():
    state = build(hands={0: tiles(red=1, purple=1)}, boards={0: {(STAR_OF[RED], 1): RED}})
    legal = ENGINE.legal_actions(state, 0)
    assert (PASS,) in legal
    only_pass = build(
        hands={0: tiles(red=3)},
        boards={0: {**{(STAR_OF[RED], p): RED for p in (1, 2, 3)}, (CENTRE_STAR, 4): RED}},
    )
    assert ENGINE.legal_actions(only_pass, 0) == [(PASS,)]
    assert ENGINE.default_action(only_pass, 0) == (PASS,)


# -- phase 3 and the next round --------------------------------------------------------------


def test_next_round_corners_return_and_the_first_player_tile_holder_starts():
    state = build(
        3,
        hands={0: tiles(red=1), 1: tiles(green=5)},
        first_player_tile=1,
        start=0,
        passed=[False, False, True],
    )
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)))
    state = play(state, (1, (PASS,)), (1, (KEEP, GREEN)), (1, (KEEP, GREEN)), (1, (DONE,)))
    assert state["round"] == 2 and state["phase"] == "taking"
    assert state["hands"][0] == tiles(red=1) and state["hands"][1] == tiles(green=2)
    assert state["corners"] == [tiles()] * 3
    assert state["first_player_tile"] == -1 and state["start_player"] == 1
    assert ENGINE.to_act(state) == {1}
    assert all(sum(factory) == 4 for factory in state["factories"])
    assert last(state, "round") == {
        "type": "round",
        "round": 2,
        "wild": GREEN,
        "start": 1,
        "drawn": 28,
    }


def test_factories_are_filled_partially_when_bag_and_tower_run_out():
    state = build(
        4,
        hands={0: tiles(red=1)},
        passed=[False, True, True, True],
        bag=[BLUE] * 4 + [GREEN] * 2,
        rest=(1, 2, 3),
    )
    state = play(state, (0, (PASS,)), (0, (DONE,)))
    # The discarded red went to the tower, then into the bag: 7 tiles for 9 factories.
    assert [sum(factory) for factory in state["factories"]] == [4, 3, 0, 0, 0, 0, 0, 0, 0]
    assert state["phase"] == "taking" and state["bag"] == []


def test_no_tile_for_the_factories_goes_straight_to_phase2():
    # [decision] nothing to draw at all: phase 2 at once, with the corner tiles back in hand.
    state = build(4, hands={0: tiles(red=1)}, passed=[False, True, True, True], rest=(1, 2, 3))
    assert state["bag"] == [] and state["tower"] == tiles()
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)))
    assert state["round"] == 2 and state["phase"] == "placing"
    assert last(state, "round")["drawn"] == 0
    assert ENGINE.to_act(state) == {0} and state["hands"][0] == tiles(red=1)
    state = ENGINE.apply(state, 0, place(STAR_OF[RED], 1, RED))
    # Nobody has a tile any more: rounds 3 to 6 pass by themselves and the game ends.
    assert ENGINE.is_over(state)
    assert [event["round"] for event in events(state, "round")][1:] == [2, 3, 4, 5, 6]
    assert [event["drawn"] for event in events(state, "round")][1:] == [0] * 5


# -- end of the game --------------------------------------------------------------------------


def finish(state, seat=0):
    """Seat ``seat`` passes keeping nothing; everybody else has passed already."""
    state = ENGINE.apply(state, seat, (PASS,))
    if state["phase"] == "keeping":
        state = ENGINE.apply(state, seat, (DONE,))
    return state


@pytest.mark.parametrize(
    ("colour", "value"),
    [(RED, 14), (BLUE, 15), (YELLOW, 16), (ORANGE, 17), (GREEN, 18), (PURPLE, 20)],
)
def test_a_complete_outer_star_scores_its_value(colour, value):
    star = STAR_OF[colour]
    state = build(
        round_no=6,
        hands={0: _hand(colour, 1)},
        boards={0: {(star, p): colour for p in range(2, 7)}},
        passed=[False, True],
        scores=[0, 3],
    )
    state = ENGINE.apply(state, 0, place(star, 1, colour))
    assert ENGINE.is_over(state)
    final = last(state, "final")
    assert final["players"][0]["stars"] == [[star, value]]
    assert state["scores"][0] == 6 + value  # 6 points for closing the ring, then the star
    assert ENGINE.result(state).scores == [6 + value, 3]


def test_a_complete_centre_star_scores_12():
    colours = [RED, BLUE, YELLOW, ORANGE, GREEN]
    state = build(
        round_no=6,
        hands={0: tiles(purple=6)},
        boards={0: {(CENTRE_STAR, p): colours[p - 1] for p in range(1, 6)}},
        passed=[False, True],
        scores=[0, 0],
    )
    state = ENGINE.apply(state, 0, place(CENTRE_STAR, 6, PURPLE))
    assert last(state, "final")["players"][0]["stars"] == [[0, 12]]
    assert state["scores"][0] == 6 + 12


@pytest.mark.parametrize(("number", "value"), [(1, 4), (2, 8), (3, 12), (4, 16)])
def test_every_space_of_a_number_covered(number, value):
    board = {(star, number): STAR_COLOUR_OF[star] for star in range(2, 7)}
    board[CENTRE_STAR, number] = RED
    purple = STAR_OF[PURPLE]
    state = build(
        round_no=6,
        hands={0: _hand(PURPLE, number)},
        boards={0: board},
        passed=[False, True],
        scores=[0, 0],
    )
    unfinished = finish(state)
    assert last(unfinished, "final")["players"][0]["numbers"] == []  # purple still missing
    state = ENGINE.apply(state, 0, place(purple, number, PURPLE))
    assert last(state, "final")["players"][0]["numbers"] == [[number, value]]
    assert state["scores"][0] == 1 + value


def test_corner_tiles_cost_one_each_after_the_end_bonuses():
    number_ones = {(star, 1): STAR_COLOUR_OF[star] for star in range(1, 7)}
    state = build(
        round_no=6,
        hands={0: tiles(red=1, blue=3)},
        boards={0: {**number_ones}},
        passed=[False, True],
        scores=[0, 2],
    )
    state = play(state, (0, place(CENTRE_STAR, 1, RED)), (0, (PASS,)))
    state = play(state, (0, (KEEP, BLUE)), (0, (KEEP, BLUE)), (0, (DONE,)))
    # 0 + 1 point, −1 for the discarded blue (→ 0), all 1s +4, then −2 corners → 2.
    assert state["scores"] == [2, 2]
    breakdown = last(state, "final")["players"][0]
    assert breakdown["numbers"] == [[1, 4]]
    assert breakdown["corner_tiles"] == 2 and breakdown["corner_penalty"] == 2
    assert ENGINE.result(state).ranks == [1, 1]  # ties are shared


def test_corner_penalty_stops_at_zero():
    state = build(round_no=6, hands={0: tiles(red=3)}, passed=[False, True], scores=[1, 0])
    state = play(state, (0, (PASS,)), (0, (KEEP, RED)), (0, (KEEP, RED)), (0, (KEEP, RED)))
    assert state["scores"] == [0, 0]
    assert last(state, "final")["players"][0]["corner_penalty"] == 1


def test_highest_score_wins():
    state = finish(
        build(3, round_no=6, scores=[7, 9, 8], passed=[False, True, True], hands={0: tiles(red=1)})
    )
    result = ENGINE.result(state)
    assert result.scores == [6, 9, 8] and result.ranks == [3, 1, 2] and result.winners == [1]
    assert ENGINE.to_act(state) == frozenset() and ENGINE.legal_actions(state, 1) == []


# -- Variant 1 -----------------------------------------------------------------------------------


def test_variant1_numbers():
    assert VARIANT1_NUMBERS[0] == (3, 3, 3, 3, 3, 3)  # [decision] centre all 3s
    assert all(row == (3, 2, 1, 4, 5, 6) for row in VARIANT1_NUMBERS[1:])
    state = build(variant1=True, hands={0: tiles(red=3)})
    legal = set(ENGINE.legal_actions(state, 0))
    for star in range(1, 7):
        assert place(star, 3, RED) in legal  # printed 1
        assert place(star, 2, RED) in legal  # printed 2
        assert place(star, 1, RED) in legal  # printed 3
        assert place(star, 4, RED) not in legal  # printed 4
    assert all(place(CENTRE_STAR, space, RED) in legal for space in range(1, 7))
    state = ENGINE.apply(state, 0, place(CENTRE_STAR, 5, RED))
    assert state["tower"] == tiles(red=2)  # a centre space costs 3


def test_variant1_star_colour_rules():
    state = build(
        variant1=True,
        hands={0: tiles(red=6, blue=6, green=6)},
        boards={0: {(1, 1): RED, (2, 1): RED, (2, 2): RED, (3, 1): RED, (3, 2): BLUE}},
    )
    legal = set(ENGINE.legal_actions(state, 0))

    def colours_on(star):
        return {a[3] for a in legal if a[0] == PLACE and a[1] == star}

    assert colours_on(4) == {RED, BLUE, GREEN}  # empty: any colour
    assert colours_on(1) == {RED, BLUE, GREEN}  # one tile: any colour
    assert colours_on(2) == {RED}  # two alike: only that colour
    assert colours_on(3) == {GREEN}  # two different: only new colours
    assert colours_on(CENTRE_STAR) == {RED, BLUE, GREEN}


def test_variant1_wild_may_go_on_any_star_that_takes_its_colour():
    state = build(variant1=True, hands={0: tiles(purple=3, red=1)}, boards={0: {(2, 1): RED}})
    legal = set(ENGINE.legal_actions(state, 0))
    assert place(4, 1, PURPLE) in legal and place(2, 2, PURPLE) in legal
    assert place(4, 1, RED, 2) in legal  # printed 3: one red + two wilds
    assert place(4, 1, PURPLE, 1) not in legal


def test_variant1_several_stars_may_share_a_colour_and_end_scoring():
    boards = {(1, p): RED for p in range(1, 7)}
    boards.update({(2, p): RED for p in range(2, 7)})
    boards.update(
        {
            (0, p): c
            for p, c in zip((1, 2, 4, 5, 6), [RED, BLUE, GREEN, ORANGE, YELLOW], strict=True)
        }
    )
    state = build(
        variant1=True,
        round_no=6,
        hands={0: tiles(red=3, purple=3)},
        boards={0: boards},
        passed=[False, True],
        scores=[0, 0],
    )
    state = play(state, (0, place(2, 1, RED)), (0, place(0, 3, PURPLE)))
    breakdown = last(state, "final")["players"][0]
    assert breakdown["stars"] == [[0, 12], [1, 14], [2, 14]]  # multicolour 12, red 14 twice
    # Printed 3s: every outer space 1 (stars 1 and 2 only) and all six centre spaces: no.
    assert breakdown["numbers"] == []


def test_variant1_all_threes_include_the_centre_star():
    boards = {(star, 1): RED for star in range(1, 7)}
    boards.update(
        {(0, p): c for p, c in zip(range(1, 6), [RED, BLUE, GREEN, ORANGE, YELLOW], strict=True)}
    )
    state = build(
        variant1=True,
        round_no=6,
        hands={0: tiles(purple=3)},
        boards={0: boards},
        passed=[False, True],
        scores=[0, 0],
    )
    state = ENGINE.apply(state, 0, place(0, 6, PURPLE))
    breakdown = last(state, "final")["players"][0]
    assert breakdown["numbers"] == [[3, 12]]
    assert breakdown["stars"] == [[0, 12]]
    assert state["scores"][0] == 6 + 12 + 12  # the centre ring closed, then the bonuses


def test_variant1_all_ones_are_the_outer_spaces_3():
    boards = {(star, 3): BLUE for star in range(2, 7)}
    state = build(
        variant1=True,
        round_no=6,
        hands={0: tiles(blue=1)},
        boards={0: boards},
        passed=[False, True],
        scores=[0, 0],
    )
    state = ENGINE.apply(state, 0, place(1, 3, BLUE))
    assert last(state, "final")["players"][0]["numbers"] == [[1, 4]]


def test_variant1_a_single_colour_star_scores_its_colour():
    state = build(
        variant1=True,
        round_no=6,
        hands={0: tiles(purple=4)},
        boards={0: {(5, p): GREEN for p in range(1, 7) if p != 4}},
        passed=[False, True],
        scores=[0, 0],
    )
    # Round 6: red is wild; purple is ordinary. A green star needs green: nothing to do.
    assert ENGINE.legal_actions(state, 0)[-1] == (PASS,)
    assert not any(a[1] == 5 for a in ENGINE.legal_actions(state, 0) if a[0] == PLACE)
    green = build(
        variant1=True,
        round_no=6,
        hands={0: tiles(green=1, red=3)},
        boards={0: {(5, p): GREEN for p in range(1, 7) if p != 4}},
        passed=[False, True],
        scores=[0, 0],
    )
    green = ENGINE.apply(green, 0, place(5, 4, GREEN, 3))
    assert last(green, "final")["players"][0]["stars"] == [[5, 18]]


def test_variant1_structures_sit_at_the_same_places():
    state = build(variant1=True, hands={0: tiles(blue=6)}, boards={0: {(4, 6): BLUE}})
    state = ENGINE.apply(state, 0, place(4, 5, BLUE))  # printed 5
    assert last(state, "place")["structures"] == [[2, 4]] and state["bonus_due"] == 3


# -- views, defaults, illegal actions ------------------------------------------------------------


def test_views_hide_only_the_bag_order():
    state = ENGINE.new_game(3, seed=2)
    public = ENGINE.view(state, None)
    assert public["bag_size"] == len(state["bag"])
    assert "bag" not in public
    for seat in range(3):
        seen = ENGINE.view(state, seat)
        assert seen.pop("seat") == seat and seen == public
    json.dumps(public)
    ENGINE.check_views(state)


def test_check_views_catches_a_leak(monkeypatch):
    state = ENGINE.new_game(2, seed=2)
    original = ENGINE.__class__.view

    def leaky(self, state, seat):
        view = original(self, state, seat)
        view["next_tile"] = state["bag"][-1]
        return view

    monkeypatch.setattr(ENGINE.__class__, "view", leaky)
    with pytest.raises(InvariantViolation):
        ENGINE.check_views(state)


def test_check_invariants_catches_a_lost_tile():
    state = ENGINE.new_game(2, seed=1)
    state["bag"].pop()
    with pytest.raises(InvariantViolation):
        ENGINE.check_invariants(state)


def test_illegal_actions_raise_and_change_nothing():
    state = build(hands={0: tiles(red=2)})
    snapshot = json.dumps(state, sort_keys=True)
    for seat, action in [
        (1, (PASS,)),  # not seat 1's turn
        (0, place(STAR_OF[RED], 3, RED)),  # 3 tiles needed
        (0, (TAKE, 1, RED)),  # not phase 1
        (0, (BONUS, RED)),  # no bonus due
        (0, (KEEP, RED)),
        (0, (PLACE, 9, 1, RED, 0)),
        (0, (PLACE, 3, 0, RED, 0)),
        (0, ()),
        (2, (PASS,)),
    ]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == snapshot


def test_default_take_prefers_the_most_tiles():
    factories = [tiles(red=1, blue=1, green=1, yellow=1), tiles(orange=3, purple=1)]
    state = build(phase="taking", factories=factories + [tiles()] * 3, centre=tiles(blue=2))
    assert ENGINE.default_action(state, 0) == (TAKE, 2, ORANGE)  # 3 orange + 1 wild


def test_default_placement_scores_most():
    red = STAR_OF[RED]
    state = build(hands={0: tiles(red=3, blue=1)}, boards={0: {(red, 2): RED, (red, 4): RED}})
    assert ENGINE.default_action(state, 0) == place(red, 3, RED)  # joins 2 and 4: 3 points


@pytest.mark.parametrize("seed", range(12))
def test_default_actions_are_always_legal_and_finish_a_game(seed):
    options = {"variant1": seed % 2 == 1, "variant2": seed % 3 == 0}
    state = ENGINE.new_game(2 + seed % 3, options, seed=seed)
    while not ENGINE.is_over(state):
        seat = next(iter(ENGINE.to_act(state)))
        action = ENGINE.default_action(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, action)
    assert all(score >= 0 for score in state["scores"])
    assert total_tiles(state) == [22] * 6
    assert sum(ENGINE.result(state).details["tiles_placed"]) > 0
