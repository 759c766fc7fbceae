"""Seeded random play of 5211 with every invariant checked at every step."""

import pytest

from games.simulate import simulate
from tests.games.simulation_helpers import cli_figures


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


def test_command_line_prints_one_json_line(capsys):
    figures = cli_figures(capsys, "5211", 4, 3)
    assert figures["moves"] == 3 * 6 * 3 * 4
    assert figures["games_per_s"] > 0 and figures["seconds"] > 0
