"""Seeded random play of Sultan with every invariant checked at every step."""

import json

import pytest

from games.core import InvariantViolation
from games.simulate import main, play_random_game, replay, simulate
from games.sultan.engine import ENGINE

MOVES_PER_GAME = {2: 12 * (1 + 4), 3: 15 * (1 + 3), 4: 15 * (1 + 4), 5: 15 * (1 + 5)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    # 4 × 250 = 1,000 checked games: gems and cards conserved, legality, purity, JSON,
    # replay, and no view showing a hand, a bid value, a screened gem or the bag.
    report = simulate("sultan", players, games=250, seed=players)
    assert report.games == 250
    # a return decision and one card per seat (two with two players) in every circle
    assert report.moves == 250 * MOVES_PER_GAME[players]


def test_same_seed_and_moves_replay_the_same_game():
    state, moves = play_random_game(ENGINE, 4, {}, seed=42)
    assert replay(ENGINE, 4, {}, 42, moves) == state
    other, _ = play_random_game(ENGINE, 4, {}, seed=43)
    assert other != state


def test_the_simulator_reports_a_broken_engine(monkeypatch):
    def lose_a_gem(state):
        if state["bag"][0]:
            state["bag"][0] -= 1
        ENGINE.__class__.check_invariants(ENGINE, state)

    monkeypatch.setattr(ENGINE, "check_invariants", lose_a_gem)
    with pytest.raises(InvariantViolation):
        simulate("sultan", 3, games=1, seed=1)


def test_command_line_prints_one_json_line(capsys):
    assert main(["sultan", "--players", "5", "--games", "3", "--seed", "1"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(line)
    assert figures["game"] == "sultan" and figures["players"] == 5 and figures["games"] == 3
    assert figures["moves"] == 3 * MOVES_PER_GAME[5]
    assert figures["games_per_s"] > 0 and figures["seconds"] > 0


def test_command_line_refuses_a_bad_player_count(capsys):
    assert main(["sultan", "--players", "6", "--games", "1"]) == 2
    assert "2-5 players" in capsys.readouterr().err
