"""The arena: seats rotate, shared wins are split, the figures are the same whatever the
number of worker processes, and the command prints one JSON line."""

import json

import pytest

from games.arena import arena, main, mean_ci, percentile, seating

TIMINGS = (
    "ms_per_decision_p50",
    "ms_per_decision_p99",
    "cpu_ms_per_decision_p50",
    "cpu_ms_per_decision_p99",
)


def without_timings(report: dict) -> dict:
    return {
        level: {key: value for key, value in figures.items() if key not in TIMINGS}
        for level, figures in report["levels"].items()
    }


def test_levels_move_one_seat_round_the_table_each_game():
    levels = ["hard", "normal", "random"]
    assert [seating(levels, index) for index in range(4)] == [
        ["hard", "normal", "random"],
        ["random", "hard", "normal"],
        ["normal", "random", "hard"],
        ["hard", "normal", "random"],
    ]


def test_results_do_not_depend_on_the_number_of_worker_processes():
    alone = arena("sultan", ["normal", "random"], games=6, seed=3, jobs=1)
    shared = arena("sultan", ["normal", "random"], games=6, seed=3, jobs=2)
    assert without_timings(alone) == without_timings(shared)
    figures = alone["levels"]
    assert figures["normal"]["win_rate"] + figures["random"]["win_rate"] == pytest.approx(1)
    assert figures["normal"]["decisions"] == figures["random"]["decisions"] == 6 * 30


def test_shared_wins_are_split_and_equal_levels_pool_their_seats():
    report = arena("azul", ["normal", "normal"], games=2, seed=1)
    assert report["levels"]["normal"]["seats"] == 2
    assert report["levels"]["normal"]["win_rate"] == 0.5  # one of two seats wins each game


def test_the_command_prints_one_json_line(capsys):
    code = main(
        [
            "donkey",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "4",
            "--seats",
            "normal,random,random",
            "-o",
            "hands=1",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "donkey" and report["players"] == 3 and report["games"] == 2
    assert report["lower_is_better"] is True
    normal = report["levels"]["normal"]
    for key in ("win_rate", "win_rate_ci95", "mean_score", "mean_score_ci95", *TIMINGS):
        assert key in normal
    low, high = normal["mean_score_ci95"]
    assert low <= normal["mean_score"] <= high


@pytest.mark.parametrize(
    "argv",
    [
        ["azul", "--players", "2", "--seats", "normal"],
        ["azul", "--players", "2", "--seats", "normal,genius"],
        ["azul", "--players", "5", "--seats", "normal,normal,normal,normal,normal"],
        ["azul", "--players", "2", "--seats", "normal,normal", "--games", "0"],
    ],
)
def test_bad_arguments_are_refused(argv, capsys):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_the_statistics():
    assert percentile([5, 1, 4, 2, 3], 0.5) == 3
    assert percentile(list(range(1, 101)), 0.99) == 99
    mean, (low, high) = mean_ci([0, 1, 0, 1])
    assert mean == 0.5 and low < 0.5 < high
    assert mean_ci([2]) == (2, [2, 2])
