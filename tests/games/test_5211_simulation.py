"""Seeded random play of 5211 with every invariant checked at every step."""

import json

import pytest

from games.core import InvariantViolation
from games.g5211.engine import ENGINE
from games.simulate import main, play_random_game, replay, simulate


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    # 4 × 250 = 1,000 checked games: cards conserved, legality, purity, JSON, replay, views.
    report = simulate("5211", players, games=250, seed=players)
    assert report.games == 250
    assert report.moves >= 250 * 4 * 3 * players  # at least four rounds of three parts


@pytest.mark.parametrize("target", [50, 100])
def test_random_long_variant_matches_keep_every_invariant(target):
    report = simulate("5211", 3, games=10, seed=7, options={"match_target": target})
    assert report.moves > 10 * 7 * 3 * 3  # more than one game per match


def test_same_seed_and_moves_replay_the_same_game():
    state, moves = play_random_game(ENGINE, 4, {"match_target": 0}, seed=42)
    assert replay(ENGINE, 4, {"match_target": 0}, 42, moves) == state
    other, _ = play_random_game(ENGINE, 4, {"match_target": 0}, seed=43)
    assert other != state


def test_the_simulator_reports_a_broken_engine(monkeypatch):
    def lose_a_card(state):
        if state["deck"]:
            state["deck"].pop()
        ENGINE.__class__.check_invariants(ENGINE, state)

    monkeypatch.setattr(ENGINE, "check_invariants", lose_a_card)
    with pytest.raises(InvariantViolation):
        simulate("5211", 2, games=1, seed=1)


def test_command_line_prints_one_json_line(capsys):
    assert main(["5211", "--players", "4", "--games", "3", "--seed", "1"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(line)
    assert figures["game"] == "5211" and figures["players"] == 4 and figures["games"] == 3
    assert figures["moves"] == 3 * 6 * 3 * 4
    assert figures["games_per_s"] > 0 and figures["seconds"] > 0


def test_command_line_refuses_a_bad_player_count(capsys):
    assert main(["5211", "--players", "7", "--games", "1"]) == 2
    assert "2-5 players" in capsys.readouterr().err
