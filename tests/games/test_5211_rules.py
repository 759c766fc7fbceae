"""5211 rules (docs/rules/5211.md), the rulebook's worked examples and its edge cases."""

from collections import Counter

import pytest

from games.core import IllegalAction, InvariantViolation
from games.g5211.engine import (
    COLOURS,
    ENGINE,
    FULL_DECK,
    colour_limit,
    rooster_threshold,
    score_round,
    value_of,
)

BLUE, YELLOW, ORANGE, GREEN, TURQUOISE = range(5)


def card(colour: int, value: int) -> int:
    """A card code; value 1 is the rooster."""
    return colour * 6 + value - 1


def rooster(colour: int) -> int:
    return card(colour, 1)


def play_part(state, choices):
    """Every seat chooses its cards for the current part (choices[seat] = card codes)."""
    for seat, cards in enumerate(choices):
        state = ENGINE.apply(state, seat, tuple(sorted(cards)))
    return state


def rigged(num_players, hands, deck=None, seed=0):
    """A new game whose hands (and optionally draw pile, top last) are set by the test."""
    state = ENGINE.new_game(num_players, seed=seed)
    pool = Counter(FULL_DECK)
    pool.subtract(state["removed"])
    for hand in hands:
        pool.subtract(hand)
    assert all(count >= 0 for count in pool.values()), "test asks for more cards than exist"
    state["hands"] = [sorted(hand) for hand in hands]
    rest = sorted(pool.elements())
    state["deck"] = list(deck) if deck is not None else rest
    if deck is not None:
        leftover = Counter(rest)
        leftover.subtract(deck)
        state["discard"] = sorted(leftover.elements())  # kept out of play, still counted
    ENGINE.check_invariants(state)
    return state


# -- components and setup -----------------------------------------------------------------


def test_deck_has_100_cards_20_per_colour_with_the_printed_values():
    assert len(FULL_DECK) == 100
    per_colour = Counter(code // 6 for code in FULL_DECK)
    assert per_colour == {colour: 20 for colour in range(len(COLOURS))}
    blue_values = Counter(value_of(code) for code in FULL_DECK if code // 6 == BLUE)
    assert blue_values == {1: 5, 2: 6, 3: 5, 4: 2, 5: 1, 6: 1}


@pytest.mark.parametrize(
    ("players", "removed", "pile"), [(2, 10, 80), (3, 13, 72), (4, 0, 80), (5, 15, 60)]
)
def test_setup_removes_cards_by_player_count_and_deals_five(players, removed, pile):
    state = ENGINE.new_game(players, seed=3)
    assert len(state["removed"]) == removed
    assert [len(hand) for hand in state["hands"]] == [5] * players
    assert len(state["deck"]) == pile
    public = ENGINE.view(state, None)
    assert public["deck_size"] == pile
    assert "removed" not in public


def test_player_count_outside_2_to_5_is_refused():
    for players in (1, 6):
        with pytest.raises(ValueError):
            ENGINE.new_game(players)


# -- the three simultaneous parts ---------------------------------------------------------


def test_part_one_is_two_cards_from_everyone_at_once_and_stays_hidden_until_all_chose():
    state = ENGINE.new_game(3, seed=1)
    assert ENGINE.to_act(state) == {0, 1, 2}
    assert all(len(action) == 2 for action in ENGINE.legal_actions(state, 0))
    choice = ENGINE.legal_actions(state, 0)[0]
    state = ENGINE.apply(state, 0, choice)
    assert ENGINE.to_act(state) == {1, 2}
    public = ENGINE.view(state, None)
    assert public["ready"] == [True, False, False]
    assert public["table"] == [[], [], []]
    assert "chosen" not in public and "hand" not in public
    assert ENGINE.view(state, 0)["chosen"] == list(choice)
    assert ENGINE.view(state, 1)["chosen"] is None
    with pytest.raises(IllegalAction):  # no second choice in the same part
        ENGINE.apply(state, 0, ENGINE.legal_actions(state, 1)[0])


def test_reveal_puts_all_choices_face_up_and_everyone_refills_to_five():
    hands = [
        [card(BLUE, 2), card(BLUE, 3), card(YELLOW, 2), card(GREEN, 4), card(ORANGE, 6)],
        [card(BLUE, 2), card(ORANGE, 3), card(YELLOW, 3), card(GREEN, 2), card(ORANGE, 5)],
    ]
    state = rigged(2, hands)
    deck_before = len(state["deck"])
    state = play_part(state, [[card(BLUE, 2), card(BLUE, 3)], [card(ORANGE, 3), card(ORANGE, 5)]])
    public = ENGINE.view(state, None)
    assert public["table"] == [[card(BLUE, 2), card(BLUE, 3)], [card(ORANGE, 3), card(ORANGE, 5)]]
    assert public["ready"] == [False, False]
    assert public["part"] == 2 and public["part_size"] == 1
    assert public["hand_sizes"] == [5, 5]
    assert public["deck_size"] == deck_before - 4
    reveal = public["log"][-1]
    assert reveal["type"] == "revealed" and reveal["part"] == 1


def test_parts_two_and_three_take_one_card_and_the_round_leaves_four_face_up():
    state = ENGINE.new_game(2, seed=5)
    state = play_part(state, [ENGINE.legal_actions(state, seat)[0] for seat in (0, 1)])
    assert all(len(action) == 1 for action in ENGINE.legal_actions(state, 0))
    state = play_part(state, [ENGINE.legal_actions(state, seat)[0] for seat in (0, 1)])
    assert [len(cards) for cards in state["table"]] == [3, 3]
    assert ENGINE.view(state, None)["part"] == 3
    state = play_part(state, [ENGINE.legal_actions(state, seat)[0] for seat in (0, 1)])
    scored = state["log"][-1]
    assert scored["type"] == "round_scored"
    assert sum(len(cards) for cards in state["log"][-2]["cards"]) == 2
    assert state["round"] == 2 and state["table"] == [[], []]
    assert [len(hand) for hand in state["hands"]] == [5, 5]


def test_cards_not_in_hand_or_a_wrong_count_are_refused_and_change_nothing():
    hands = [
        [card(BLUE, 2), card(BLUE, 3), card(YELLOW, 2), card(GREEN, 4), card(ORANGE, 6)],
        [card(BLUE, 2), card(ORANGE, 3), card(YELLOW, 3), card(GREEN, 2), card(ORANGE, 5)],
    ]
    state = rigged(2, hands)
    before = ENGINE.view(state, 0)
    for bad in [
        (card(BLUE, 2),),  # one card in part 1
        (card(BLUE, 2), card(BLUE, 3), card(YELLOW, 2)),  # three cards
        (card(BLUE, 2), card(BLUE, 2)),  # only one blue 2 in hand
        (card(TURQUOISE, 6), card(BLUE, 2)),  # not in hand (and unsorted)
        (card(BLUE, 3), card(BLUE, 2)),  # unsorted
    ]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad)
    assert ENGINE.view(state, 0) == before


def test_equal_cards_give_one_legal_choice_not_two():
    hands = [
        [card(BLUE, 2), card(BLUE, 2), card(BLUE, 2), card(GREEN, 4), card(GREEN, 4)],
        [card(BLUE, 3), card(ORANGE, 3), card(YELLOW, 3), card(GREEN, 2), card(ORANGE, 5)],
    ]
    state = rigged(2, hands)
    assert ENGINE.legal_actions(state, 0) == sorted(
        {
            (card(BLUE, 2), card(BLUE, 2)),
            (card(BLUE, 2), card(GREEN, 4)),
            (card(GREEN, 4), card(GREEN, 4)),
        }
    )


# -- scoring: roosters ------------------------------------------------------------------


def test_rulebook_example_four_players_six_roosters_only_roosters_score():
    table = [
        [rooster(BLUE), rooster(GREEN), card(GREEN, 6), card(GREEN, 5)],
        [rooster(YELLOW), card(GREEN, 4), card(GREEN, 3), card(GREEN, 2)],
        [rooster(ORANGE), rooster(TURQUOISE), card(BLUE, 6), card(BLUE, 5)],
        [rooster(BLUE), card(YELLOW, 2), card(YELLOW, 3), card(ORANGE, 2)],
    ]
    event = score_round(table, 4)
    assert event["mode"] == "roosters" and event["roosters"] == 6
    assert event["points"] == [2, 1, 2, 1]
    assert event["scored"][0] == [rooster(BLUE), rooster(GREEN)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rooster_threshold_is_players_plus_two_and_reaching_it_exactly_counts(players):
    threshold = rooster_threshold(players)
    assert threshold == {2: 4, 3: 5, 4: 6, 5: 7}[players]

    def table_with(roosters: int):
        # roosters spread over the seats, plus two blue 6s on seat 0 so colour play would differ
        table = [[] for _ in range(players)]
        for i in range(roosters):
            table[i % players].append(rooster(i % 5))
        table[0] += [card(BLUE, 6), card(BLUE, 5)]
        return table

    at = score_round(table_with(threshold), players)
    assert at["mode"] == "roosters"
    assert sum(at["points"]) == threshold
    below = score_round(table_with(threshold - 1), players)
    assert below["mode"] != "roosters"


# -- scoring: majority colour -----------------------------------------------------------


def test_roosters_count_for_their_colour_and_values_are_ignored_for_the_majority():
    table = [
        [rooster(YELLOW), rooster(YELLOW), card(YELLOW, 2), card(BLUE, 6)],
        [card(BLUE, 5), card(ORANGE, 6), card(ORANGE, 4), card(GREEN, 6)],
    ]
    event = score_round(table, 2)
    assert event["mode"] == "colour" and event["colour"] == YELLOW
    assert event["points"] == [4, 0]


def test_rulebook_example_four_players_eight_green_over_the_limit_yellow_scores():
    table = [
        [card(GREEN, 2), card(GREEN, 3), card(YELLOW, 2), card(YELLOW, 6)],
        [card(GREEN, 2), card(GREEN, 4), card(YELLOW, 3), card(BLUE, 2)],
        [card(GREEN, 2), card(GREEN, 3), card(YELLOW, 4), card(ORANGE, 2)],
        [card(GREEN, 5), card(GREEN, 6), card(TURQUOISE, 2), card(ORANGE, 3)],
    ]
    event = score_round(table, 4)
    assert event["over_limit"] == [GREEN]
    assert event["colour"] == YELLOW
    assert event["points"] == [8, 3, 4, 0]


def test_rulebook_example_one_tie_eliminates_both_and_orange_scores():
    table = [
        [card(YELLOW, 2), card(YELLOW, 3), card(GREEN, 2), card(ORANGE, 5)],
        [card(YELLOW, 2), card(GREEN, 3), card(GREEN, 2), card(ORANGE, 6)],
        [card(YELLOW, 4), card(YELLOW, 2), card(GREEN, 6), card(BLUE, 2)],
        [card(GREEN, 4), card(ORANGE, 2), card(TURQUOISE, 2), card(ORANGE, 3)],
    ]
    event = score_round(table, 4)
    assert event["tied"] == [[YELLOW, GREEN]]
    assert event["colour"] == ORANGE
    assert event["points"] == [5, 6, 0, 5]


def test_rulebook_example_two_every_colour_ties_away_and_nobody_scores():
    table = [
        [card(YELLOW, 2), card(YELLOW, 3), card(GREEN, 2), card(BLUE, 5)],
        [card(YELLOW, 2), card(GREEN, 3), card(GREEN, 2), card(ORANGE, 6)],
        [card(YELLOW, 4), card(GREEN, 6), card(BLUE, 2), card(TURQUOISE, 4)],
        [card(ORANGE, 4), card(TURQUOISE, 2), card(YELLOW, 6), card(GREEN, 4)],
    ]
    event = score_round(table, 4)
    assert event["tied"] == [[YELLOW, GREEN], [BLUE, ORANGE, TURQUOISE]]
    assert event["mode"] == "none" and event["colour"] is None
    assert event["points"] == [0, 0, 0, 0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_colour_limit_edges_exactly_the_limit_scores_one_more_is_eliminated(players):
    limit = colour_limit(players)
    assert limit == {2: 5, 3: 6, 4: 7, 5: 8}[players]

    def table_with(greens: int):
        table = [[] for _ in range(players)]
        for i in range(greens):
            table[i % players].append(card(GREEN, 2))
        table[0].append(card(BLUE, 3))  # the runner-up colour
        return table

    at_limit = score_round(table_with(limit), players)
    assert at_limit["colour"] == GREEN
    assert sum(at_limit["points"]) == 2 * limit
    over = score_round(table_with(limit + 1), players)
    assert over["over_limit"] == [GREEN]
    assert over["colour"] == BLUE and over["points"][0] == 3


def test_limit_then_tie_then_a_single_colour_wins_in_that_order():
    # 2 players: limit 5. Six blue (out), then 2 yellow vs 2 orange (tie, out), 1 green scores.
    table = [
        [card(BLUE, 2), card(BLUE, 2), card(BLUE, 3), card(YELLOW, 2), card(ORANGE, 3)],
        [card(BLUE, 4), card(BLUE, 5), card(BLUE, 6), card(YELLOW, 3), card(ORANGE, 4)],
    ]
    table[1].append(card(GREEN, 6))
    event = score_round(table, 2)
    assert event["over_limit"] == [BLUE]
    assert event["tied"] == [[YELLOW, ORANGE]]
    assert event["colour"] == GREEN and event["points"] == [0, 6]


def test_scored_cards_go_to_their_owners_pile_and_the_rest_is_discarded():
    hands = [
        [card(YELLOW, 6), card(YELLOW, 5), card(YELLOW, 4), card(BLUE, 2), card(BLUE, 3)],
        [card(YELLOW, 2), card(ORANGE, 3), card(ORANGE, 4), card(ORANGE, 2), card(GREEN, 3)],
    ]
    state = rigged(2, hands)
    state = play_part(
        state, [[card(YELLOW, 6), card(YELLOW, 5)], [card(YELLOW, 2), card(ORANGE, 3)]]
    )
    state["hands"][0] = sorted(
        [card(YELLOW, 4), card(BLUE, 2), card(BLUE, 3), *state["hands"][0][3:]]
    )
    state = play_part(state, [[card(YELLOW, 4)], [card(ORANGE, 4)]])
    state = play_part(state, [[card(BLUE, 2)], [card(ORANGE, 2)]])
    event = state["log"][-1]
    # yellow 4 cards vs orange 3 → yellow scores 6 + 5 + 4 for seat 0 and 2 for seat 1
    assert event["colour"] == YELLOW and event["points"] == [15, 2]
    public = ENGINE.view(state, None)
    assert public["points"] == [15, 2] and public["pile_sizes"] == [3, 1]
    assert card(ORANGE, 3) in state["discard"] and card(BLUE, 2) in state["discard"]


# -- end of the game --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 11), (3, 7), (4, 6), (5, 4)])
def test_game_ends_after_a_last_round_without_refill(players, rounds):
    state = ENGINE.new_game(players, seed=11)
    seen_final = False
    while not ENGINE.is_over(state):
        if state["final_round"] and not seen_final:
            seen_final = True
            assert state["round"] == rounds and not state["deck"]
            assert [len(hand) for hand in state["hands"]] == [5] * players
        state = play_part(state, [ENGINE.default_action(state, seat) for seat in range(players)])
        if state["final_round"] and not ENGINE.is_over(state):
            # no refill in the last round: hands shrink 5 → 3 → 2
            assert len(state["hands"][0]) == 5 - sum((2, 1, 1)[: state["part"] - 1])
    assert seen_final
    scores = [event for event in state["log"] if event["type"] == "round_scored"]
    assert len(scores) == rounds
    assert all(hand == [] for hand in state["hands"])
    assert ENGINE.to_act(state) == frozenset()
    ENGINE.check_invariants(state)


def test_points_are_card_values_roosters_worth_one_and_ties_go_to_more_cards():
    state = ENGINE.new_game(3, seed=2)
    state["piles"] = [
        [card(BLUE, 6)],  # 6 points, 1 card
        [rooster(BLUE), rooster(GREEN), card(GREEN, 4)],  # 6 points, 3 cards
        [card(ORANGE, 5)],  # 5 points
    ]
    state["over"] = True
    result = ENGINE.result(state)
    assert result.scores == [6, 6, 5]
    assert result.ranks == [2, 1, 3]
    assert result.winners == [1]


def test_equal_points_and_equal_cards_share_the_victory():
    state = ENGINE.new_game(2, seed=2)
    state["piles"] = [[card(BLUE, 6), rooster(BLUE)], [card(GREEN, 5), card(GREEN, 2)]]
    state["over"] = True
    assert ENGINE.result(state).winners == [0, 1]


def test_a_pile_running_short_mid_refill_is_an_internal_error():
    state = ENGINE.new_game(2, seed=4)
    state["discard"] = state["deck"][:-1]
    state["deck"] = state["deck"][-1:]
    with pytest.raises(InvariantViolation):
        play_part(state, [ENGINE.legal_actions(state, seat)[0] for seat in (0, 1)])


# -- long variant -----------------------------------------------------------------------


def test_long_variant_deals_new_games_until_someone_reaches_the_target():
    state = ENGINE.new_game(2, {"match_target": 50}, seed=8)
    games_seen = {1}
    while not ENGINE.is_over(state):
        state = play_part(state, [ENGINE.default_action(state, seat) for seat in (0, 1)])
        games_seen.add(state["game_no"])
    ended = [event for event in state["log"] if event["type"] == "game_ended"]
    assert len(ended) == len(games_seen) >= 2
    totals = [sum(event["points"][seat] for event in ended) for seat in (0, 1)]
    assert state["match_points"] == totals
    assert max(totals) >= 50
    # nobody had reached the target before the last game ended
    assert max(ended[-2]["match_points"]) < 50
    assert ENGINE.result(state).scores == totals


def test_long_variant_several_over_the_target_the_highest_total_wins_then_more_cards():
    state = ENGINE.new_game(3, {"match_target": 100}, seed=8)
    state.update(match_points=[104, 107, 107], match_cards=[60, 52, 55], over=True)
    result = ENGINE.result(state)
    assert result.ranks == [3, 2, 1]
    assert result.details["cards"] == [60, 52, 55]


def test_long_variant_options_are_single_50_and_100_only():
    assert ENGINE.options({}).match_target == 0
    with pytest.raises(ValueError):
        ENGINE.options({"match_target": 70})


# -- views and absent players -----------------------------------------------------------


def test_views_show_only_the_viewers_own_hand():
    state = ENGINE.new_game(3, seed=9)
    state = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    assert ENGINE.view(state, 0)["hand"] == state["hands"][0]
    assert "hand" not in ENGINE.view(state, None)
    assert "hands" not in ENGINE.view(state, 0) and "deck" not in ENGINE.view(state, 0)
    ENGINE.check_views(state)


def test_check_views_catches_a_leaking_view():
    class Leaky(type(ENGINE)):
        def view(self, state, seat):
            view = super().view(state, seat)
            view["peek"] = state["hands"][(seat or 0) - 1]
            return view

    with pytest.raises(InvariantViolation):
        Leaky().check_views(ENGINE.new_game(3, seed=9))


def test_default_action_for_an_absent_player_gives_away_the_cheapest_cards():
    hands = [
        [card(BLUE, 6), card(YELLOW, 5), rooster(GREEN), card(GREEN, 2), card(ORANGE, 4)],
        [card(BLUE, 2), card(ORANGE, 3), card(YELLOW, 3), card(GREEN, 3), card(ORANGE, 5)],
    ]
    state = rigged(2, hands)
    assert ENGINE.default_action(state, 0) == (rooster(GREEN), card(GREEN, 2))
    assert ENGINE.is_legal(state, 0, ENGINE.default_action(state, 0))
