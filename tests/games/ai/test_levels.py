"""The one interface of every AI level: a legal move from plain data, the same move for
the same seed, nothing changed in what it was given; and the hint."""

import json
import math

import pytest

from games import get_engine
from games.ai import LEVELS, Hint, choose, hint
from games.arena import play_game
from tests.games.ai.helpers import CONFIG_IDS, CONFIGS, positions


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_every_level_plays_a_legal_move_again_for_the_same_seed(
    game, players, options, small_budgets
):
    engine = get_engine(game)
    for number, state in enumerate(positions(game, players, options, seed=2, every=17)):
        before = json.dumps(state, sort_keys=True)
        for seat in sorted(engine.to_act(state)):
            view = engine.view(state, seat)
            seen = json.dumps(view, sort_keys=True)
            legal = engine.legal_actions(state, seat)
            for level in LEVELS:
                action = choose(game, level, view, seat, legal, seed=number)
                assert action in legal
                assert choose(game, level, view, seat, legal, seed=number) == action
            # plain data from a worker process: JSON lists instead of tuples
            plain_view, plain_legal = json.loads(json.dumps([view, legal]))
            assert choose(game, "normal", plain_view, seat, plain_legal, number) == choose(
                game, "normal", view, seat, legal, number
            )
            assert json.dumps(view, sort_keys=True) == seen  # views are read, never changed
        assert json.dumps(state, sort_keys=True) == before  # (some share lists with the state)


@pytest.mark.parametrize("game", ["azul", "summer_pavilion", "5211", "sultan", "donkey"])
def test_a_whole_game_of_every_level_ends(game, small_budgets):
    players = 4 if game == "donkey" else 2
    options = {"hands": 1} if game == "donkey" else {}
    record = play_game(game, ["hard", "normal", "easy", "random"][:players], 0, 1, options)
    assert sum(record.win_shares) == pytest.approx(1)
    assert all(record.wall_ms[seat] for seat in range(players))


def test_unknown_levels_and_empty_move_lists_are_refused():
    engine = get_engine("azul")
    state = engine.new_game(2, {}, 1)
    view = engine.view(state, state["turn"])
    legal = engine.legal_actions(state, state["turn"])
    with pytest.raises(ValueError, match="unknown level"):
        choose("azul", "expert", view, state["turn"], legal, 1)
    with pytest.raises(ValueError, match="no legal action"):
        choose("azul", "normal", view, state["turn"], [], 1)
    with pytest.raises(KeyError, match="unknown game"):
        hint("chess", view, 0, legal, 1)


def test_a_single_legal_move_is_played_at_once():
    engine = get_engine("donkey")
    state = engine.new_game(4, {}, 3)
    seat = state["turn"]
    view = engine.view(state, seat)
    for level in LEVELS:
        assert choose("donkey", level, view, seat, [(2,)], 9) == (2,)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[::2], ids=CONFIG_IDS[::2])
def test_the_hint_is_the_normal_move_with_the_score_it_expects(
    game, players, options, small_budgets
):
    engine = get_engine(game)
    state = list(positions(game, players, options, seed=6, every=11))[2]
    seat = min(engine.to_act(state))
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    given = hint(game, view, seat, legal, 4)
    assert isinstance(given, Hint)
    assert given.action == choose(game, "normal", view, seat, legal, 4)
    assert math.isfinite(given.expected_score) and given.expected_score >= 0
    assert given.lower_is_better == (game == "donkey")
    assert hint(game, view, seat, legal, 4) == given
