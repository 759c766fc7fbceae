"""The timing command: positions from whole seeded games, every level asked and the
hint, one JSON line."""

import json

import pytest

from games.ai.timing import collect_positions, main


def test_positions_are_real_decisions_with_a_choice():
    positions = collect_positions("sultan", 2, {}, 12, seed=3)
    assert len(positions) == 12
    assert all(len(legal) > 1 for _, _, legal in positions)
    assert {seat for _, seat, _ in positions} == {0, 1}
    assert len({json.dumps(view) for view, _, _ in positions}) == 12
    for view, _, legal in positions:
        assert view["num_players"] == 2 and legal == sorted(legal)
    assert collect_positions("sultan", 2, {}, 12, seed=3) == positions


def test_the_command_prints_one_json_line(capsys, small_budgets):
    assert main(["azul", "--players", "2", "--positions", "4", "--runs", "2", "--seed", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "azul" and report["positions"] == 4 and report["runs"] == 2
    assert set(report["levels"]) == {"normal", "hard", "hint"}
    for figures in report["levels"].values():
        assert 0 <= figures["cpu_ms_p50"] <= figures["cpu_ms_p99"]
        assert 0 <= figures["ms_p50"] <= figures["ms_p99"]


@pytest.mark.parametrize(
    "argv",
    [
        ["azul", "--players", "2", "--levels", "genius"],
        ["azul", "--players", "2", "--positions", "0"],
        ["azul", "--players", "9"],
    ],
)
def test_bad_arguments_are_refused(argv, capsys):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err
