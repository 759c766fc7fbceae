"""Seeded random play of Who's the Donkey? with every invariant checked at every step.

Checked mode (``games.simulate``): cards conserved (110 by value), legal actions sorted,
unique and accepted, illegal ones refused, ``apply`` pure, JSON round-trip, no view shows
another seat's hand or the undealt cards, and replay of every game.
"""

import json
import random

import pytest

from games.donkey.engine import ENGINE, TIMED_MATCH_MAX_HANDS
from games.simulate import main, play_random_game, simulate
from tests.games.simulation_helpers import cli_figures

# (players, matches, hands per match): 1,010 checked hands over every player count. Hands
# with many players cost more (more moves, more views to check), so the cheap small games
# get the larger share; some matches have the default 3 hands, some 5.
PLAN = [
    (3, 280, 1),
    (3, 20, 3),
    (4, 200, 1),
    (4, 20, 3),
    (5, 100, 1),
    (5, 6, 5),
    (6, 80, 1),
    (7, 50, 1),
    (8, 40, 1),
    (9, 30, 1),
    (10, 30, 1),
    (11, 25, 1),
    (12, 25, 1),
]


def test_the_plan_covers_at_least_1000_hands_and_every_player_count():
    assert sum(matches * hands for _, matches, hands in PLAN) >= 1000
    assert {players for players, _, _ in PLAN} == set(range(3, 13))


@pytest.mark.parametrize(("players", "matches", "hands"), PLAN)
def test_random_matches_keep_every_invariant(players, matches, hands):
    report = simulate(
        "donkey", players, games=matches, seed=players * 10 + hands, options={"hands": hands}
    )
    assert report.games == matches
    # A hand lasts at least until someone sheds a whole hand of cards.
    assert report.moves >= matches * hands * 2


def test_a_random_timed_match_without_time_up_stops_at_the_safety_cap():
    options = {"hands": 3, "time_limit_minutes": 15}
    state, moves = play_random_game(ENGINE, 4, options, seed=5, checked=False)
    ENGINE.check_invariants(state)
    assert len(state["history"]) == TIMED_MATCH_MAX_HANDS
    assert len(moves) > TIMED_MATCH_MAX_HANDS


@pytest.mark.parametrize("players", [3, 7, 12])
def test_time_up_at_a_random_moment_ends_the_match_after_that_hand(players):
    chooser = random.Random(players)
    for seed in range(8):
        state = ENGINE.new_game(players, {"time_limit_minutes": 30}, seed=seed)
        call_at = chooser.randrange(1, 400)
        moves = 0
        hand_when_called = None
        while not ENGINE.is_over(state):
            if moves == call_at:
                hand_when_called = state["hand_no"]
                untouched = state["round_no"] == 1 and not state["plays"]
                state = ENGINE.time_up(state)
            ENGINE.check_invariants(state)
            if ENGINE.is_over(state):
                break
            (seat,) = ENGINE.to_act(state)
            assert ENGINE.default_action(state, seat) in ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
            moves += 1
        ENGINE.check_invariants(state)
        ENGINE.check_views(state)
        played = len(state["history"])
        if hand_when_called is None:  # the match hit the safety cap first
            assert played == TIMED_MATCH_MAX_HANDS
        elif untouched and hand_when_called > 1:
            assert played == hand_when_called - 1
        else:
            assert played == hand_when_called


@pytest.mark.parametrize("players", range(3, 13))
def test_absent_players_default_moves_are_legal_and_finish_the_match(players):
    state = ENGINE.new_game(players, {"hands": 3}, seed=players)
    while not ENGINE.is_over(state):
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.default_action(state, seat)
        assert ENGINE.is_legal(state, seat, action)
        if action == (2,):  # never the donkey for an absent player, unless it is all they hold
            assert ENGINE.view(state, seat)["hand"] == [0]
        state = ENGINE.apply(state, seat, action)
    assert len(state["history"]) == 3


def test_command_line_prints_one_json_line(capsys):
    figures = cli_figures(capsys, "donkey", 4, 3)
    assert figures["options"] == {"hands": 3, "time_limit_minutes": 0}
    assert figures["moves"] > 3 * 3 * 2 and figures["games_per_s"] > 0


def test_command_line_takes_options(capsys):
    assert main(["donkey", "--players", "12", "--games", "2", "-o", "hands=1", "--fast"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["hands"] == 1
