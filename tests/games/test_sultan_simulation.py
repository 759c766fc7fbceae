"""Seeded random play of Sultan with every invariant checked at every step."""

import pytest

from games.simulate import simulate
from tests.games.simulation_helpers import cli_figures

MOVES_PER_GAME = {2: 12 * (1 + 4), 3: 15 * (1 + 3), 4: 15 * (1 + 4), 5: 15 * (1 + 5)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(players):
    # 4 × 250 = 1,000 checked games: gems and cards conserved, legality, purity, JSON,
    # replay, and no view showing a hand, a bid value, a screened gem or the bag.
    report = simulate("sultan", players, games=250, seed=players)
    assert report.games == 250
    # a return decision and one card per seat (two with two players) in every circle
    assert report.moves == 250 * MOVES_PER_GAME[players]


def test_command_line_prints_one_json_line(capsys):
    figures = cli_figures(capsys, "sultan", 5, 3)
    assert figures["moves"] == 3 * MOVES_PER_GAME[5]
    assert figures["games_per_s"] > 0 and figures["seconds"] > 0
