"""Sultan's hard level values the end of a round by the final points the gems held foresee
(``games.sultan.round_values``, learned from games of the normal player): the table says
what a player would expect, the tree search uses it, and hard-v1 (the arena's baseline)
does not."""

from __future__ import annotations

import random

import pytest

from games import get_engine
from games.ai import choose
from games.sultan.ai import AI, SultanAI
from games.sultan.engine import NUM_COLOURS, gems_of
from games.sultan.learn_round_values import collect
from games.sultan.round_values import TABLE_FILE, colour_points, expected_points, table

ENGINE = get_engine("sultan")


def test_more_gems_of_a_colour_foresee_more_points_and_the_others_gems_fewer():
    cells = table()
    assert len(cells) > 200  # both rounds, every colour, the usual counts
    for (finished, colour, mine, theirs), points in cells.items():
        assert points >= colour_points(colour, mine)  # a gem won is never lost
        more = cells.get((finished, colour, mine + 1, theirs))
        assert more is None or more > points
        crowded = cells.get((finished, colour, mine, theirs + 1))
        assert crowded is None or crowded < points


def test_the_table_is_counted_from_whole_games_the_same_each_time():
    made = collect(12, seed=7)
    assert made == collect(12, seed=7)
    # each game: two rounds end before the last, each seen by two seats in five colours
    assert sum(seen for _, seen in made.values()) == 12 * 2 * 2 * NUM_COLOURS
    for (finished, colour, mine, _), (points, _) in made.items():
        assert finished in (1, 2)
        assert points >= colour_points(colour, mine)


def test_the_shipped_table_names_the_command_that_made_it():
    assert TABLE_FILE.read_text(encoding="utf-8").startswith('{"games": 30000, "seed": 2,')


def round_end() -> tuple[dict, dict]:
    """A two-player game of normal players: (its start, its state once round 1 ended)."""
    start = state = ENGINE.new_game(2, {}, 11)
    rng = random.Random(11)
    while state["round"] == 1:
        for seat in sorted(ENGINE.to_act(state)):
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, AI.normal(ENGINE.view(state, seat), seat, legal, rng))
    return start, state


def test_the_search_values_a_rounds_end_by_the_points_it_foresees():
    start, state = round_end()
    gems = [gems_of(state["gems"], seat) for seat in range(2)]
    foreseen = [expected_points(1, gems[seat], gems[1 - seat]) for seat in range(2)]
    rng = random.Random(1)
    assert AI.search_value(start, state, 0, rng) == pytest.approx(foreseen[0] - foreseen[1])
    assert AI.search_value(start, state, 1, rng) == pytest.approx(foreseen[1] - foreseen[0])
    assert AI.search_value(start, state, 0, rng) != AI.evaluate(start, state, 0, rng)


def test_the_tree_search_uses_the_table_and_hard_v1_does_not(monkeypatch):
    _, state = round_end()
    seat = min(ENGINE.to_act(state))
    view, legal = ENGINE.view(state, seat), ENGINE.legal_actions(state, seat)
    baseline = choose("sultan", "hard-v1", view, seat, legal, 3)

    def unreachable(*args):
        raise AssertionError("the search's value was asked for")

    monkeypatch.setattr(SultanAI, "search_value", unreachable)
    assert choose("sultan", "hard-v1", view, seat, legal, 3) == baseline
    with pytest.raises(AssertionError, match="the search's value was asked for"):
        choose("sultan", "hard", view, seat, legal, 3, iterations=16)
