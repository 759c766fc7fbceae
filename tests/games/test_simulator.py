"""What ``games.simulate`` promises for every game: a seed and its moves replay the same game,
a broken engine is caught, and the command line refuses a player count the game does not
allow. (Each game's own simulations are in its ``test_<game>_simulation.py``.)"""

from __future__ import annotations

import json

import pytest

from games import GAME_MODULES, get_engine
from games.core import InvariantViolation
from games.simulate import main, play_random_game, replay, simulate

REPLAYED = [  # game, players, options
    ("5211", 4, {"match_target": 0}),
    ("sultan", 4, {}),
    ("donkey", 5, {"hands": 3, "time_limit_minutes": 0}),
    ("azul", 3, {"wall": "grey"}),
    ("summer_pavilion", 3, {"variant1": True, "variant2": False}),
]


@pytest.mark.parametrize(("game", "players", "options"), REPLAYED)
def test_same_seed_and_moves_replay_the_same_game(game, players, options):
    engine = get_engine(game)
    state, moves = play_random_game(engine, players, options, seed=42)
    assert replay(engine, players, options, 42, moves) == state
    other, _ = play_random_game(engine, players, options, seed=43)
    assert other != state


def lose_a_card(state):
    if state["deck"]:
        state["deck"].pop()


def lose_one_of_the_first_colour(state):
    if state["bag"][0]:
        state["bag"][0] -= 1


def lose_a_tile(state):
    if state["bag"]:
        state["bag"].pop()


BROKEN = [  # game, players, what the broken engine loses, what the report says
    ("5211", 2, lose_a_card, None),
    ("sultan", 3, lose_one_of_the_first_colour, None),
    ("azul", 2, lose_one_of_the_first_colour, "not conserved"),
    ("summer_pavilion", 2, lose_a_tile, None),
]


@pytest.mark.parametrize(("game", "players", "damage", "report"), BROKEN)
def test_the_simulator_reports_a_broken_engine(monkeypatch, game, players, damage, report):
    engine = get_engine(game)

    def damaged(state):  # the engine loses a piece just before its invariants are checked
        damage(state)
        type(engine).check_invariants(engine, state)

    monkeypatch.setattr(engine, "check_invariants", damaged)
    with pytest.raises(InvariantViolation, match=report):
        simulate(game, players, games=1, seed=1)


TOO_MANY = [  # game, a player count it refuses, the range the command line names
    ("5211", 7, "2-5"),
    ("sultan", 6, "2-5"),
    ("donkey", 13, "3-12"),
    ("azul", 5, "2-4"),
    ("summer_pavilion", 5, "2-4"),
]


@pytest.mark.parametrize(("game", "players", "allowed"), TOO_MANY)
def test_command_line_refuses_a_bad_player_count(capsys, game, players, allowed):
    assert main([game, "--players", str(players), "--games", "1"]) == 2
    assert f"{allowed} players" in capsys.readouterr().err


def test_every_game_is_replayed_and_has_its_player_count_refused():
    assert [row[0] for row in REPLAYED] == list(GAME_MODULES)
    assert [row[0] for row in TOO_MANY] == list(GAME_MODULES)


def digest_of(capsys, game, *args):
    assert main([game, "--players", "4", "--games", "3", *args]) == 0
    return json.loads(capsys.readouterr().out).get("digest")


@pytest.mark.parametrize("game", ["donkey", "sultan"])
def test_digest_tells_whether_the_same_games_were_played(capsys, game):
    """``--digest`` hashes the final states (logs included) and moves: the same arguments
    give the same digest, another seed another one, and it is printed only when asked for."""
    fast = digest_of(capsys, game, "--seed", "5", "--fast", "--digest")
    assert len(fast) == 64
    assert digest_of(capsys, game, "--seed", "5", "--fast", "--digest") == fast
    assert digest_of(capsys, game, "--seed", "6", "--fast", "--digest") != fast
    checked = digest_of(capsys, game, "--seed", "5", "--digest")  # (checks draw from the chooser)
    assert digest_of(capsys, game, "--seed", "5", "--digest") == checked
    assert digest_of(capsys, game, "--seed", "5", "--fast") is None
