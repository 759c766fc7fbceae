"""Sultan rules (docs/rules/sultan.md), the rulebook's worked examples and its edge cases."""

from collections import Counter

import pytest

from games.core import IllegalAction, InvariantViolation
from games.sultan.engine import (
    CARD_SLOTS,
    CLOCKWISE_STEP,
    ENGINE,
    FIRST_START_PLAYER,
    GEM_COUNTS_PUBLIC,
    GEM_NAMES,
    GEM_VALUES,
    GEMS_IN_BAG,
    NUM_COLOURS,
    TWO_PLAYER_BID_ORDER,
    score_gems,
    set_bonus,
)

WHITE, RED, YELLOW, GREEN, BLUE = range(5)
RETURN, BID = 0, 1


# -- helpers --------------------------------------------------------------------------------


def rigged(players, start=0, drawn=None, hands=None, seed=0):
    """A new game at the first circle: ``start`` is the start player, ``drawn`` the gems
    just drawn, ``hands[seat]`` the card values in that seat's hand (the deck is the rest).
    """
    state = ENGINE.new_game(players, seed=seed)
    state["start"] = start
    if drawn is not None:
        for colour in state["drawn"]:
            state["bag"][colour] += 1
        for colour in drawn:
            state["bag"][colour] -= 1
        state["drawn"] = sorted(drawn)
    for seat, values in (hands or {}).items():
        set_hand(state, seat, values)
    state["log"] = [
        {"type": "game_start", "start": start},
        {"type": "round_start", "round": 1},
        {"type": "gems_drawn", "round": 1, "circle": 1, "start": start, "gems": state["drawn"]},
    ]
    ENGINE.check_invariants(state)
    return state


def set_hand(state, seat, values):
    base = seat * CARD_SLOTS
    state["hands"][base : base + CARD_SLOTS] = [0] * CARD_SLOTS
    for value in values:
        state["hands"][base + value] += 1


def set_screens(state, screens):
    """Put ``screens[seat]`` (gem counts per colour) behind the screens, from the bag."""
    for seat, counts in screens.items():
        for colour in range(NUM_COLOURS):
            index = seat * NUM_COLOURS + colour
            state["bag"][colour] += state["gems"][index] - counts[colour]
            state["gems"][index] = counts[colour]
    ENGINE.check_invariants(state)


def bid(state, seat, cushion, value):
    return ENGINE.apply(state, seat, (BID, cushion, value))


def events(state, kind):
    return [event for event in state["log"] if event["type"] == kind]


def play_out(state):
    """Finish the game with every seat on autopilot."""
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    return state


# -- components and setup -------------------------------------------------------------------


def test_bag_holds_fifty_gems_worth_one_to_five():
    assert dict(zip(GEM_NAMES, GEMS_IN_BAG, strict=True)) == {
        "white": 12,
        "red": 11,
        "yellow": 10,
        "green": 9,
        "blue": 8,
    }
    assert sum(GEMS_IN_BAG) == 50
    assert dict(zip(GEM_NAMES, GEM_VALUES, strict=True)) == {
        "white": 1,
        "red": 2,
        "yellow": 3,
        "green": 4,
        "blue": 5,
    }


@pytest.mark.parametrize(
    ("players", "hand", "deck", "draw", "cushions"),
    [(3, 5, 10, 3, 2), (4, 5, 10, 4, 3), (5, 5, 10, 4, 3), (2, 8, 16, 4, 3)],
)
def test_setup_deals_hands_and_draws_gems_by_player_count(players, hand, deck, draw, cushions):
    state = ENGINE.new_game(players, seed=3)
    public = ENGINE.view(state, None)
    assert public["hand_sizes"] == [hand] * players
    assert public["deck_size"] == deck
    assert public["phase"] == "return" and public["round"] == 1 and public["circle"] == 1
    assert len(public["drawn"]) == draw
    assert public["bag_size"] == 50 - draw
    state = ENGINE.apply(state, state["start"], ENGINE.legal_actions(state, state["start"])[0])
    assert len(ENGINE.view(state, None)["cushions"]) == cushions


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players_own_one_set_of_fifteen_cards(players):
    state = ENGINE.new_game(players, seed=5)
    for seat in range(players):
        assert sorted(ENGINE.view(state, seat)["hand"] + ENGINE.deck(state, seat)) == list(
            range(1, 16)
        )


def test_two_players_own_two_sets_of_one_to_twelve():
    state = ENGINE.new_game(2, seed=5)
    for seat in range(2):
        cards = ENGINE.view(state, seat)["hand"] + ENGINE.deck(state, seat)
        assert Counter(cards) == {value: 2 for value in range(1, 13)}


def test_player_count_outside_2_to_5_is_refused():
    for players in (1, 6):
        with pytest.raises(ValueError):
            ENGINE.new_game(players)


def test_decision_a_random_player_starts():
    assert FIRST_START_PLAYER == "random"
    starts = {ENGINE.new_game(4, seed=seed)["start"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    state = ENGINE.new_game(4, seed=9)
    assert state["log"][0] == {"type": "game_start", "start": state["start"]}
    assert ENGINE.to_act(state) == {state["start"]}


# -- drawing gems and returning one ---------------------------------------------------------


def test_start_player_draws_four_public_gems_and_chooses_the_one_that_goes_back():
    state = rigged(4, start=1, drawn=[WHITE, RED, RED, BLUE])
    public = ENGINE.view(state, None)
    assert public["drawn"] == [WHITE, RED, RED, BLUE]
    assert public["pending"] == {"kind": "return", "seat": 1}
    assert ENGINE.to_act(state) == {1}
    # one button per colour drawn: two reds are one choice
    assert ENGINE.legal_actions(state, 1) == [(RETURN, WHITE), (RETURN, RED), (RETURN, BLUE)]
    assert ENGINE.legal_actions(state, 0) == []
    bag_before = public["bag_size"]
    state = ENGINE.apply(state, 1, (RETURN, RED))
    public = ENGINE.view(state, None)
    assert public["cushions"] == [WHITE, RED, BLUE]
    assert public["drawn"] == []
    assert public["bag_size"] == bag_before + 1
    assert state["log"][-1] == {
        "type": "gem_returned",
        "seat": 1,
        "gem": RED,
        "cushions": [WHITE, RED, BLUE],
    }
    assert public["phase"] == "bid" and public["pending"] == {"kind": "bid", "seat": 1}


def test_three_players_draw_three_and_use_two_cushions():
    state = rigged(3, start=2, drawn=[GREEN, YELLOW, WHITE])
    with pytest.raises(IllegalAction):  # not drawn
        ENGINE.apply(state, 2, (RETURN, BLUE))
    with pytest.raises(IllegalAction):  # not the start player
        ENGINE.apply(state, 0, (RETURN, WHITE))
    state = ENGINE.apply(state, 2, (RETURN, WHITE))
    assert state["cushions"] == [YELLOW, GREEN]
    assert {action[1] for action in ENGINE.legal_actions(state, 2)} == {0, 1}
    with pytest.raises(IllegalAction):
        bid(state, 2, 2, ENGINE.legal_actions(state, 2)[0][2])


def test_gems_are_drawn_from_the_bag_in_proportion_to_its_contents():
    drawn = Counter()
    for seed in range(1500):
        drawn.update(ENGINE.new_game(4, seed=seed)["drawn"])
    total = sum(drawn.values())
    assert total == 1500 * 4
    for colour, count in enumerate(GEMS_IN_BAG):
        expected = total * count / 50
        assert abs(drawn[colour] - expected) < 0.1 * expected


def test_the_gem_draw_is_logged_for_every_circle():
    state = play_out(ENGINE.new_game(4, seed=2))
    drawn = events(state, "gems_drawn")
    assert len(drawn) == 15
    assert [(event["round"], event["circle"]) for event in drawn] == [
        (round_no, circle) for round_no in (1, 2, 3) for circle in range(1, 6)
    ]
    assert all(len(event["gems"]) == 4 for event in drawn)
    assert len(events(state, "gem_returned")) == 15


# -- bidding ------------------------------------------------------------------------------


def test_bids_go_clockwise_from_the_start_player_one_card_each():
    state = rigged(
        4,
        start=2,
        drawn=[WHITE, RED, GREEN, BLUE],
        hands={seat: [1, 2, 3, 4, 5] for seat in range(4)},
    )
    state = ENGINE.apply(state, 2, (RETURN, WHITE))
    order = []
    for _ in range(4):
        (seat,) = ENGINE.to_act(state)
        order.append(seat)
        for other in range(4):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == []
                with pytest.raises(IllegalAction):
                    bid(state, other, 0, 1)
        state = bid(state, seat, 0, 1)
    assert order == [2, 3, 0, 1]
    assert CLOCKWISE_STEP == 1


def test_which_cushion_is_public_at_once_but_the_value_is_secret_until_the_reveal():
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands={0: [7, 8, 9, 10, 11]})
    state = ENGINE.apply(state, 0, (RETURN, WHITE))
    state = bid(state, 0, 2, 9)
    assert state["log"][-1] == {"type": "bid", "seat": 0, "cushion": 2}
    for viewer in (None, 1, 2, 3):
        shown = ENGINE.view(state, viewer)
        assert shown["bids"] == [[0, 2]]
        assert 9 not in shown["spent"][0]
        assert shown.get("my_bids", []) == []
        assert "hand" not in shown or viewer is not None
    own = ENGINE.view(state, 0)
    assert own["my_bids"] == [[2, 9]]
    assert own["hand"] == [7, 8, 10, 11]
    assert ENGINE.view(state, None)["hand_sizes"][0] == 4


def test_a_card_must_be_in_hand_and_the_cushion_must_exist():
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands={0: [1, 2, 3, 4, 5]})
    state = ENGINE.apply(state, 0, (RETURN, WHITE))
    before = ENGINE.view(state, 0)
    for action in [(BID, 0, 6), (BID, 3, 1), (BID, 0, 0), (BID, 0, 16), (RETURN, RED), (BID, 0)]:
        assert not ENGINE.is_legal(state, 0, action)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, action)
    assert ENGINE.view(state, 0) == before
    assert ENGINE.legal_actions(state, 0) == [
        (BID, cushion, value) for cushion in range(3) for value in range(1, 6)
    ]


def play_circle(state, bids_by_seat):
    """Return the first drawn gem's colour, then each seat bids in turn: (cushion, value)."""
    state = ENGINE.apply(state, state["start"], (RETURN, state["drawn"][0]))
    while bids_by_seat:
        (seat,) = ENGINE.to_act(state)
        cushion, value = bids_by_seat[seat].pop(0)
        if not bids_by_seat[seat]:
            del bids_by_seat[seat]
        state = bid(state, seat, cushion, value)
    return state


def test_single_bid_wins_highest_bid_wins_and_an_unbid_gem_returns_to_the_bag():
    # Anna (seat 0) alone on the red gem; Peter's 9 beats Oleg's 8 on the green gem;
    # nobody bids on the blue gem, which goes back into the bag.
    hands = {0: [3, 4, 5, 6, 7], 1: [9, 1, 2, 3, 4], 2: [8, 1, 2, 3, 4]}
    state = rigged(3, start=0, drawn=[WHITE, RED, GREEN], hands=hands)
    state = play_circle(state, {0: [(0, 3)], 1: [(1, 9)], 2: [(1, 8)]})
    reveals = events(state, "reveal")
    assert reveals[0]["gem"] == RED and reveals[0]["winner"] == 0
    assert reveals[0]["bids"] == [[0, 3]]
    assert reveals[1]["gem"] == GREEN and reveals[1]["winner"] == 1
    assert reveals[1]["bids"] == [[1, 9], [2, 8]]
    assert ENGINE.view(state, 0)["my_gems"] == [0, 1, 0, 0, 0]
    assert ENGINE.view(state, 1)["my_gems"] == [0, 0, 0, 1, 0]
    assert ENGINE.view(state, None)["gem_counts"] == [1, 1, 0]

    hands = {seat: [1, 2, 3, 4, 5] for seat in range(4)}
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    bag_blue = state["bag"][BLUE]
    state = play_circle(state, {0: [(0, 1)], 1: [(0, 2)], 2: [(1, 3)], 3: [(1, 4)]})
    blue = events(state, "reveal")[2]
    assert blue["gem"] == BLUE and blue["bids"] == [] and blue["winner"] is None
    assert blue["returned"] is True
    assert state["bag"][BLUE] == bag_blue + 1
    assert sum(state["gems"]) == 2


def test_rulebook_example_equal_bids_the_card_played_earlier_wins():
    # Seva (seat 3) and Nadezhda (seat 0) both play 12 on the blue gem; Seva played first.
    hands = {seat: [12, 1, 2, 3, 4] for seat in range(4)}
    state = rigged(4, start=3, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = play_circle(state, {3: [(2, 12)], 0: [(2, 12)], 1: [(0, 1)], 2: [(1, 1)]})
    blue = events(state, "reveal")[2]
    assert blue["gem"] == BLUE
    assert blue["bids"] == [[3, 12], [0, 12]]
    assert blue["winner"] == 3  # the earlier card, although seat 0 has the lower number
    assert state["gems"][3 * NUM_COLOURS + BLUE] == 1


def test_a_higher_later_card_beats_an_earlier_equal_pair():
    hands = {seat: [5, 6, 1, 2, 3] for seat in range(5)}
    state = rigged(5, start=1, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = play_circle(state, {1: [(1, 5)], 2: [(1, 5)], 3: [(1, 6)], 4: [(0, 1)], 0: [(2, 1)]})
    green = events(state, "reveal")[1]
    assert green["bids"] == [[1, 5], [2, 5], [3, 6]] and green["winner"] == 3


def test_after_the_reveal_cards_leave_the_game_and_the_start_player_passes_left():
    hands = {seat: [1, 2, 3, 4, 5] for seat in range(4)}
    state = rigged(4, start=3, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = play_circle(state, {3: [(0, 5)], 0: [(1, 4)], 1: [(2, 3)], 2: [(2, 2)]})
    public = ENGINE.view(state, None)
    assert public["spent"] == [[4], [3], [2], [5]]
    assert public["hand_sizes"] == [4] * 4
    assert public["start"] == 0 and public["circle"] == 2
    assert public["phase"] == "return" and ENGINE.to_act(state) == {0}
    assert public["bids"] == [] and public["cushions"] == []
    assert len(public["drawn"]) == 4
    assert ENGINE.view(state, 3)["hand"] == [1, 2, 3, 4]


def test_five_circles_a_round_three_rounds_and_new_hands_each_round():
    state = ENGINE.new_game(5, seed=4)
    first = state["start"]
    rounds_seen = []
    while not ENGINE.is_over(state):
        if state["phase"] == "return" and state["circle"] == 1:
            rounds_seen.append(state["round"])
            assert ENGINE.view(state, None)["hand_sizes"] == [5] * 5
            assert ENGINE.view(state, None)["deck_size"] == 15 - 5 * state["round"]
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    assert rounds_seen == [1, 2, 3]
    assert len(events(state, "round_start")) == 3
    assert len(events(state, "reveal")) == 15 * 3
    assert ENGINE.to_act(state) == frozenset()
    assert state["start"] == (first + 15) % 5
    # every card of every seat played exactly once
    played = Counter()
    for event in events(state, "reveal"):
        for seat, value in event["bids"]:
            played[(seat, value)] += 1
    assert played == Counter({(seat, value): 1 for seat in range(5) for value in range(1, 16)})


# -- two players ----------------------------------------------------------------------------


def test_two_players_bid_twice_alternating_and_on_two_different_gems():
    assert TWO_PLAYER_BID_ORDER == (0, 1, 0, 1)
    hands = {0: [1, 2, 3, 4, 5, 6, 7, 8], 1: [1, 2, 3, 4, 5, 6, 7, 8]}
    state = rigged(2, start=1, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = ENGINE.apply(state, 1, (RETURN, WHITE))
    order = []
    state = bid(state, 1, 0, 3)
    order.append(1)
    assert ENGINE.to_act(state) == {0}
    state = bid(state, 0, 0, 4)
    order.append(0)
    assert ENGINE.to_act(state) == {1}
    # the start player's second card must go to another gem
    assert all(action[1] != 0 for action in ENGINE.legal_actions(state, 1))
    with pytest.raises(IllegalAction):
        bid(state, 1, 0, 8)
    state = bid(state, 1, 2, 8)
    order.append(1)
    with pytest.raises(IllegalAction):
        bid(state, 0, 0, 8)
    state = bid(state, 0, 1, 8)
    order.append(0)
    assert order == [1, 0, 1, 0]
    reveals = events(state, "reveal")
    assert [event["winner"] for event in reveals] == [0, 0, 1]
    assert state["start"] == 0  # the start player alternates every circle
    assert ENGINE.view(state, None)["hand_sizes"] == [6, 6]


def test_two_players_equal_bids_go_to_the_start_player_even_if_played_later():
    hands = {0: [7, 5, 1, 2, 3, 4, 6, 8], 1: [7, 5, 1, 2, 3, 4, 6, 8]}
    state = rigged(2, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    # start (0): 5 on red; other (1): 7 on blue; start: 7 on blue; other: 5 on red
    state = play_circle(state, {0: [(0, 5), (2, 7)], 1: [(2, 7), (0, 5)]})
    red, green, blue = events(state, "reveal")
    assert blue["bids"] == [[1, 7], [0, 7]] and blue["winner"] == 0
    assert red["bids"] == [[0, 5], [1, 5]] and red["winner"] == 0
    assert green["winner"] is None
    assert state["gems"][:NUM_COLOURS] == [0, 1, 0, 0, 1]


def test_two_players_have_three_rounds_of_four_circles_and_eight_card_hands():
    state = ENGINE.new_game(2, seed=8)
    first = state["start"]
    starts = []
    while not ENGINE.is_over(state):
        if state["phase"] == "return":
            starts.append(state["start"])
            if state["circle"] == 1:
                assert ENGINE.view(state, None)["hand_sizes"] == [8, 8]
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    assert len(starts) == 12
    assert starts == [(first + circle) % 2 for circle in range(12)]
    assert [(e["round"], e["circle"]) for e in events(state, "gems_drawn")] == [
        (round_no, circle) for round_no in (1, 2, 3) for circle in range(1, 5)
    ]
    for seat in range(2):
        assert sorted(ENGINE.view(state, None)["spent"][seat]) == sorted(list(range(1, 13)) * 2)


# -- scoring -------------------------------------------------------------------------------


def test_rulebook_example_three_white_five_red_one_blue_scores_30():
    line = score_gems([3, 5, 0, 0, 1], 4)
    assert line["gem_points_by_colour"] == [3, 10, 0, 0, 5]
    assert line["gem_points"] == 18
    assert line["bonuses"] == [2, 10, 0, 0, 0]
    assert line["total"] == 30


def test_rulebook_example_at_the_end_of_a_real_game():
    """Anna (seat 0) ends with 3 white, 5 red, 1 blue: the final breakdown shows 30."""
    state = ENGINE.new_game(4, seed=6)
    while not (state["round"] == 3 and state["circle"] == 5):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    set_screens(
        state,
        {0: [3, 5, 0, 0, 1], 1: [1, 1, 1, 1, 1], 2: [0, 0, 0, 0, 0], 3: [2, 0, 0, 0, 0]},
    )
    start = state["start"]
    state = ENGINE.apply(state, start, (RETURN, state["drawn"][0]))
    # last card of the game: Anna holds the 1, everyone else the 15, all on cushion 0
    for seat in range(4):
        kept = 1 if seat == 0 else 15
        set_hand(state, seat, [kept])
        base = seat * CARD_SLOTS
        state["spent"][base : base + CARD_SLOTS] = [
            0 if value in (0, kept) else 1 for value in range(CARD_SLOTS)
        ]
    ENGINE.check_invariants(state)
    for _ in range(4):
        (seat,) = ENGINE.to_act(state)
        state = bid(state, seat, 0, 1 if seat == 0 else 15)
    assert ENGINE.is_over(state)
    final = state["log"][-1]
    assert final["type"] == "final_scoring"
    anna = final["players"][0]
    assert anna["gems"] == [3, 5, 0, 0, 1]
    assert anna["gem_points"] == 18 and anna["bonus_points"] == 12 and anna["total"] == 30
    result = ENGINE.result(state)
    assert result.scores[0] == 30
    assert result.details["players"][0] == anna
    public = ENGINE.view(state, None)
    assert public["gems"][0] == [3, 5, 0, 0, 1]  # the screens come down at the end
    assert public["scores"] == result.scores


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bonus_table_for_three_to_five_players(players):
    assert [set_bonus(count, players) for count in range(10)] == [0, 0, 0, 2, 5, 10, 20, 20, 20, 20]


def test_bonus_table_for_two_players():
    assert [set_bonus(count, 2) for count in range(10)] == [0, 0, 0, 0, 2, 5, 10, 20, 20, 20]
    # the same collection scores differently: 6 blue, 4 white
    assert score_gems([4, 0, 0, 0, 6], 2)["total"] == 4 + 30 + 2 + 10
    assert score_gems([4, 0, 0, 0, 6], 4)["total"] == 4 + 30 + 5 + 20


def test_one_bonus_per_colour_for_each_colour():
    line = score_gems([6, 3, 4, 5, 7], 3)
    assert line["bonuses"] == [20, 2, 5, 10, 20]
    assert line["total"] == 6 * 1 + 3 * 2 + 4 * 3 + 5 * 4 + 7 * 5 + 57


def finished(players, screens):
    """A state whose screens hold ``screens[seat]``; only the result is looked at."""
    state = ENGINE.new_game(players, seed=1)
    state["phase"] = "over"
    state["gems"] = [count for counts in screens for count in counts]
    return state


def test_highest_total_wins_then_more_gems_then_a_shared_win():
    # seat 0: 5 red = 10 + 10 = 20 points, 5 gems; seat 1: 4 blue = 20 + 5 = 25;
    # seat 2: 5 blue = 25 + 10 = 35 — the winner
    result = ENGINE.result(finished(3, [[0, 5, 0, 0, 0], [0, 0, 0, 0, 4], [0, 0, 0, 0, 5]]))
    assert result.scores == [20, 25, 35] and result.ranks == [3, 2, 1]
    # equal totals, more gems wins:
    # seat 0: 2 white + 2 green = 2 + 8 = 10 points, 4 gems; seat 1: 2 blue = 10, 2 gems
    result = ENGINE.result(finished(3, [[2, 0, 0, 2, 0], [0, 0, 0, 0, 2], [0, 0, 0, 0, 0]]))
    assert result.scores == [10, 10, 0] and result.ranks == [1, 2, 3]
    assert result.details["gem_counts"] == [4, 2, 0]
    # equal totals and gem counts share the win:
    # seat 0: 1 white + 1 green = 5 points, 2 gems; seat 1: 1 red + 1 yellow = 5, 2 gems
    result = ENGINE.result(finished(4, [[1, 0, 0, 1, 0], [0, 1, 1, 0, 0], [0] * 5, [0] * 5]))
    assert result.scores == [5, 5, 0, 0] and result.ranks == [1, 1, 3, 3]
    assert result.winners == [0, 1]


# -- information ----------------------------------------------------------------------------


def test_decision_gem_counts_are_public_but_not_which_gems():
    assert GEM_COUNTS_PUBLIC is True
    hands = {seat: [1, 2, 3, 4, 5] for seat in range(4)}
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = play_circle(state, {0: [(2, 5)], 1: [(1, 4)], 2: [(0, 1)], 3: [(0, 2)]})
    public = ENGINE.view(state, None)
    assert public["gem_counts"] == [1, 1, 0, 1]
    assert "gems" not in public and "my_gems" not in public
    assert ENGINE.view(state, 0)["my_gems"] == [0, 0, 0, 0, 1]
    assert ENGINE.view(state, 1)["my_gems"] == [0, 0, 0, 1, 0]
    assert "bag" not in public and "gem_rolls" not in public and "seed" not in public


def test_views_hold_no_hand_no_bid_value_no_screened_gem_and_no_deck():
    state = ENGINE.new_game(5, seed=12)
    state = ENGINE.apply(state, state["start"], ENGINE.default_action(state, state["start"]))
    (seat,) = ENGINE.to_act(state)
    state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    for viewer in [None, *range(5)]:
        shown = ENGINE.view(state, viewer)
        forbidden = {"hands", "bid_values", "gem_rolls", "bag", "seed", "rng_counter", "deck"}
        assert not forbidden & set(shown)
        if viewer is None:
            assert not {"hand", "my_gems", "my_bids"} & set(shown)
        else:
            assert shown["hand"] == sorted(shown["hand"])
    ENGINE.check_views(state)


@pytest.mark.parametrize(
    "leak",
    [
        lambda state: {"peek_hands": list(state["hands"])},
        lambda state: {"peek_bids": list(state["bid_values"])},
        lambda state: {"peek_gems": list(state["gems"])},
    ],
)
def test_check_views_catches_a_view_that_shows_secrets(monkeypatch, leak):
    hands = {seat: [1, 2, 3, 4, 5] for seat in range(4)}
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    state = play_circle(state, {0: [(2, 5)], 1: [(1, 4)], 2: [(0, 1)], 3: [(0, 2)]})
    state = ENGINE.apply(state, 1, (RETURN, state["drawn"][0]))
    state = bid(state, 1, 0, 3)
    ENGINE.check_views(state)
    honest = ENGINE.view

    def leaky(state, seat):
        return {**honest(state, seat), **leak(state)}

    monkeypatch.setattr(ENGINE, "view", leaky)
    with pytest.raises(InvariantViolation):
        ENGINE.check_views(state)


# -- invariants ------------------------------------------------------------------------------


def test_gems_are_conserved_between_bag_table_and_screens_through_a_game():
    state = ENGINE.new_game(3, seed=21)
    while not ENGINE.is_over(state):
        on_table = len(state["drawn"]) + len(state["cushions"])
        assert sum(state["bag"]) + on_table + sum(state["gems"]) == 50
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    assert sum(state["bag"]) + sum(state["gems"]) == 50
    lost = dict(state)
    lost["bag"] = list(state["bag"])
    lost["bag"][WHITE] -= 1
    with pytest.raises(InvariantViolation):
        ENGINE.check_invariants(lost)


def test_a_card_played_twice_or_lost_is_an_internal_error():
    state = ENGINE.new_game(4, seed=2)
    hand = ENGINE.view(state, 0)["hand"]
    twice = dict(state)
    twice["spent"] = list(state["spent"])
    twice["spent"][hand[0]] += 1  # seat 0 spent a card it still holds
    with pytest.raises(InvariantViolation):
        ENGINE.check_invariants(twice)
    lost = dict(state)
    lost["hands"] = list(state["hands"])
    lost["hands"][hand[0]] -= 1
    with pytest.raises(InvariantViolation):
        ENGINE.check_invariants(lost)


def test_a_short_bag_is_an_internal_error():
    hands = {seat: [1, 2, 3, 4, 5] for seat in range(4)}
    state = rigged(4, start=0, drawn=[WHITE, RED, GREEN, BLUE], hands=hands)
    # not a game situation (the rules never empty the bag): every gem left in the bag
    # is moved behind seat 0's screen
    for colour in range(NUM_COLOURS):
        state["gems"][colour] += state["bag"][colour]
        state["bag"][colour] = 0
    state = ENGINE.apply(state, 0, (RETURN, WHITE))
    state = bid(state, 0, 0, 1)
    state = bid(state, 1, 0, 2)
    state = bid(state, 2, 0, 3)
    # the white gem and the two unbid gems go back: three gems for a draw of four
    with pytest.raises(InvariantViolation):
        bid(state, 3, 0, 4)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_bag_never_runs_short_with_these_rules(players):
    # at most (circles × cushions) gems leave the bag for good: 45 / 36 / 30, so at
    # least 5 / 14 / 20 stay for a draw of 4 / 4 / 3
    most_out = {2: 36, 3: 30, 4: 45, 5: 45}[players]
    draw = 3 if players == 3 else 4
    assert 50 - most_out >= draw
    state = ENGINE.new_game(players, seed=31)
    while not ENGINE.is_over(state):
        if state["phase"] == "return":
            assert sum(state["gems"]) <= most_out
            assert ENGINE.view(state, None)["bag_size"] + draw >= 50 - most_out
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))


# -- autopilot ------------------------------------------------------------------------------


def test_default_return_is_the_cheapest_drawn_gem():
    state = rigged(4, start=2, drawn=[BLUE, GREEN, RED, RED])
    assert ENGINE.default_action(state, 2) == (RETURN, RED)


def test_default_bid_is_the_lowest_card_on_the_most_valuable_gem_not_yet_bid_on():
    hands = {0: [9, 4, 12, 2, 7, 8, 10, 11], 1: [1, 2, 3, 4, 5, 6, 7, 8]}
    state = rigged(2, start=0, drawn=[WHITE, RED, BLUE, GREEN], hands=hands)
    state = ENGINE.apply(state, 0, (RETURN, WHITE))
    assert state["cushions"] == [RED, GREEN, BLUE]
    assert ENGINE.default_action(state, 0) == (BID, 2, 2)
    state = bid(state, 0, 2, 2)
    state = bid(state, 1, 0, 1)
    # blue taken by this seat already: next best is green, with the lowest card left
    assert ENGINE.default_action(state, 0) == (BID, 1, 4)
    with pytest.raises(IllegalAction):
        ENGINE.default_action(state, 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_default_actions_are_always_legal_and_finish_the_game(players):
    state = ENGINE.new_game(players, seed=17)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.default_action(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, action)
        ENGINE.check_invariants(state)
    assert ENGINE.result(state).ranks.count(1) >= 1
