"""Seeded random play of Azul with every invariant checked at every step."""

import pytest

from games.azul.engine import ENGINE, NUM_COLOURS, TILES_PER_COLOUR
from games.core import InvariantViolation
from games.simulate import simulate
from tests.games.simulation_helpers import cli_figures

CONFIGS = [(players, wall) for players in (2, 3, 4) for wall in ("colour", "grey")]


@pytest.mark.parametrize(("players", "wall"), CONFIGS)
def test_random_games_keep_every_invariant(players, wall):
    # 6 × 167 = 1,002 checked games: 100 tiles conserved across bag, factories, centre,
    # lines, walls, floors and lid; no colour twice in a wall row or column; scores never
    # negative; legality, purity, JSON, replay, views.
    report = simulate(
        "azul", players, games=167, seed=players * 10 + len(wall), options={"wall": wall}
    )
    assert report.games == 167
    assert report.moves >= 167 * 2 * 5 * players  # a round of 5+ factories takes 5+ moves


@pytest.mark.parametrize(("players", "wall"), CONFIGS)
def test_games_of_default_moves_are_legal_and_end(players, wall):
    for seed in range(5):
        state = ENGINE.new_game(players, {"wall": wall}, seed)
        while not ENGINE.is_over(state):
            for seat in sorted(ENGINE.to_act(state)):
                action = ENGINE.default_action(state, seat)
                assert action in ENGINE.legal_actions(state, seat)
                state = ENGINE.apply(state, seat, action)
            ENGINE.check_invariants(state)
        assert state["round"] < 30
        result = ENGINE.result(state)
        assert max(result.scores) > 0 and 1 in result.ranks


def test_the_invariants_catch_a_colour_twice_in_a_grey_column():
    state = ENGINE.new_game(2, {"wall": "grey"}, seed=5)
    state["walls"][0][0] = state["walls"][0][5] = 0  # blue at rows 0 and 1 of column 0
    state["bag"][0] -= 2
    assert sum(state["bag"]) + 20 == NUM_COLOURS * TILES_PER_COLOUR - 2
    with pytest.raises(InvariantViolation, match="twice"):
        ENGINE.check_invariants(state)


def test_command_line_prints_one_json_line(capsys):
    figures = cli_figures(capsys, "azul", 3, 3, "-o", "wall=grey")
    assert figures["options"] == {"wall": "grey"}
    assert figures["moves"] > 3 * 3 * 7 and figures["games_per_s"] > 0
