"""Moves copy only what they change: the copy-on-write helpers of games.core, the cheaper
draws engines use, and, for every game, that no move ever changes an earlier state."""

from __future__ import annotations

import json
import random

import pytest

from games import GAME_MODULES, get_engine
from games.core import below, clone_state, detach, own, own_item, sample, shuffle

PLAYERS = {"5211": 4, "sultan": 3, "donkey": 4, "azul": 3, "summer_pavilion": 4}
OPTIONS = {
    "5211": [{}, {"match_target": 50}],
    "sultan": [{}],
    "donkey": [{"hands": 2}],
    "azul": [{}, {"wall": "grey"}],
    "summer_pavilion": [{}, {"variant1": True, "variant2": True}],
}


def test_below_draws_what_randrange_draws():
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        sizes = [1, 2, 3, 7, 8, 9, 39, 100, 132, 2**20 + 1]
        assert [below(ours, n) for n in sizes * 5] == [theirs.randrange(n) for n in sizes * 5]


def test_shuffle_gives_the_permutation_random_shuffle_gives():
    for seed in range(50):
        for size in (0, 1, 2, 5, 100, 132):
            ours, theirs = list(range(size)), list(range(size))
            shuffle(random.Random(seed), ours)
            random.Random(seed).shuffle(theirs)
            assert ours == theirs


def test_sample_picks_what_random_sample_picks():
    for seed in range(30):
        for size, k in [
            (0, 0),
            (1, 1),
            (5, 5),
            (15, 5),
            (21, 5),
            (22, 5),
            (24, 8),
            (85, 8),
            (86, 8),
            (40, 21),
            (100, 30),
            (80, 4),
            (60, 21),
            (10, 0),
        ]:
            population = list(range(100, 100 + size))
            ours, theirs = random.Random(seed), random.Random(seed)
            assert sample(ours, population, k) == theirs.sample(population, k)
            assert ours.random() == theirs.random()  # the generators are left alike


def test_own_copies_a_shared_list_once():
    previous = {"scores": [1, 2], "round": 3}
    state = previous.copy()
    scores = own(state, previous, "scores")
    assert scores == [1, 2] and scores is not previous["scores"]
    scores[0] = 9
    assert own(state, previous, "scores") is scores  # already its own: not copied again
    assert previous == {"scores": [1, 2], "round": 3}
    fresh = {"scores": [0, 0]}
    assert own(fresh, {}, "scores") is fresh["scores"]  # nothing shared while dealing


def test_own_item_copies_the_inner_list_and_its_container():
    previous = {"hands": [[1, 2], [3, 4]]}
    state = previous.copy()
    hand = own_item(state, previous, "hands", 1)
    hand.append(5)
    assert state["hands"] == [[1, 2], [3, 4, 5]]
    assert previous == {"hands": [[1, 2], [3, 4]]}
    assert state["hands"][0] is previous["hands"][0]  # the untouched hand stays shared
    assert own_item(state, previous, "hands", 1) is hand


def test_detach_leaves_nothing_shared_but_the_options_and_the_log_entries():
    event = {"type": "x"}
    previous = {
        "options": {"wall": "grey"},
        "log": [event],
        "bag": [1, 2],
        "walls": [[0, 1], [2, 3]],
        "chosen": [None, [4]],
        "round": 1,
    }
    state = previous.copy()
    state["walls"] = previous["walls"][:]  # the move has copied the outer list only
    detach(state, previous)
    for key in ("log", "bag", "walls", "chosen"):
        assert state[key] == previous[key] and state[key] is not previous[key]
    assert state["walls"][0] is not previous["walls"][0]
    assert state["chosen"][1] is not previous["chosen"][1]
    assert state["options"] is previous["options"] and state["log"][0] is event


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_no_move_changes_an_earlier_state(game):
    """States share the lists a move leaves alone; at the end of whole games every state
    that was passed through is still exactly what it was."""
    engine = get_engine(game)
    for options in OPTIONS[game]:
        for seed in range(3):
            chooser = random.Random(seed)
            state = engine.new_game(PLAYERS[game], options, seed)
            history = []
            while not engine.is_over(state):
                history.append((state, json.dumps(state, sort_keys=True)))
                seat = chooser.choice(sorted(engine.to_act(state)))
                state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
            for earlier, snapshot in history:
                assert json.dumps(earlier, sort_keys=True) == snapshot


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_editing_a_clone_state_copy_leaves_the_game_alone(game):
    """clone_state is the way to rig a position: editing the copy leaves the game alone."""
    engine = get_engine(game)
    state = engine.new_game(PLAYERS[game], None, 5)
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    after = engine.apply(state, seat, action)
    copy = clone_state(after)
    for value in copy.values():
        if isinstance(value, list) and value and isinstance(value[0], list):
            value[0].clear()
    assert json.dumps(after, sort_keys=True) == json.dumps(
        engine.apply(state, seat, action), sort_keys=True
    )
