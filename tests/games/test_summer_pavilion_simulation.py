"""Seeded random play of Summer Pavilion with every invariant checked at every step: the 132
tiles conserved, only legal placements on the boards, scores never negative, legality,
purity, JSON round-trip, replay and views (games.simulate's checked mode)."""

import random

import pytest

from games.simulate import check_finished, check_step, simulate
from games.summer_pavilion.engine import ENGINE
from tests.games.simulation_helpers import cli_figures

# 600 checked random games across player counts and both variants.
RUNS = [
    (2, {}, 100),
    (2, {"variant1": True}, 50),
    (2, {"variant2": True}, 50),
    (2, {"variant1": True, "variant2": True}, 50),
    (3, {}, 60),
    (3, {"variant1": True}, 40),
    (3, {"variant2": True}, 25),
    (3, {"variant1": True, "variant2": True}, 25),
    (4, {}, 80),
    (4, {"variant1": True}, 40),
    (4, {"variant2": True}, 40),
    (4, {"variant1": True, "variant2": True}, 40),
]


@pytest.mark.parametrize(("players", "options", "games"), RUNS)
def test_random_games_keep_every_invariant(players, options, games):
    report = simulate("summer_pavilion", players, games=games, seed=players, options=options)
    assert report.games == games
    assert report.moves >= games * 6 * players  # six rounds, everybody acts each round


def test_at_least_500_checked_games():
    assert sum(games for _, _, games in RUNS) >= 500
    assert {players for players, _, _ in RUNS} == {2, 3, 4}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_players_keep_every_invariant(players):
    """Autopilot games place many more tiles: in 4-player games the bag and the tower run
    out and factories are filled partially; every step is checked the same way."""
    partial = 0
    for seed in range(4):
        options = {"variant1": seed % 2 == 1, "variant2": seed >= 2}
        state = ENGINE.new_game(players, options, seed=seed)
        chooser = random.Random(seed)
        while not ENGINE.is_over(state):
            seats = sorted(ENGINE.to_act(state))
            check_step(ENGINE, state, seats, chooser)
            state = ENGINE.apply(state, seats[0], ENGINE.default_action(state, seats[0]))
        check_finished(ENGINE, state)
        assert min(state["scores"]) >= 0
        factory_tiles = 4 * len(state["factories"])
        partial += any(e["type"] == "round" and e["drawn"] < factory_tiles for e in state["log"])
    if players == 4:
        assert partial > 0


def test_command_line_prints_one_json_line(capsys):
    options = ("-o", "variant1=true", "-o", "variant2=true")
    figures = cli_figures(capsys, "summer_pavilion", 4, 3, *options)
    assert figures["options"] == {"variant1": True, "variant2": True}
    assert figures["games_per_s"] > 0 and figures["moves"] > 3 * 6 * 4
