"""An AI decides from its seat's view and legal actions only: dealing the hidden
information of the real state again (other hands, hidden bids, the bag, the future)
changes none of its choices, at any level."""

import json
import random

import pytest

from games import get_engine
from games.ai import LEVELS, choose, game_ai
from tests.games.ai.helpers import CONFIG_IDS, CONFIGS, positions, reshuffled


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_choices_ignore_the_hidden_information_of_the_real_state(
    game, players, options, small_budgets
):
    engine = get_engine(game)
    rng = random.Random(5)
    changed = 0
    for number, state in enumerate(positions(game, players, options, seed=8, every=13)):
        for seat in sorted(engine.to_act(state)):
            other = reshuffled(game, state, seat, rng)
            engine.check_invariants(other)
            view = engine.view(state, seat)
            assert engine.view(other, seat) == view  # the seat cannot tell them apart
            changed += json.dumps(other, sort_keys=True) != json.dumps(state, sort_keys=True)
            legal = engine.legal_actions(state, seat)
            assert engine.legal_actions(other, seat) == legal
            for level in LEVELS:
                seed = number * 10 + seat
                assert choose(game, level, engine.view(other, seat), seat, legal, seed) == choose(
                    game, level, view, seat, legal, seed
                )
    assert changed  # the test did rearrange something


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_the_playouts_normal_player_is_given_only_what_the_seat_sees(game, players, options):
    """A playout builds a cheaper view for each decision (``GameAI.playout_view``): every
    key it holds is the seat's own view's, and the normal player chooses from it what it
    would from the whole view."""
    engine = get_engine(game)
    ai = game_ai(game)
    decisions = 0
    for number, state in enumerate(positions(game, players, options, seed=4, every=3)):
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat)
            cheap = ai.playout_view(state, seat)
            assert {key: view[key] for key in cheap} == cheap
            if len(legal) > 1:
                decisions += 1
                assert ai.normal(cheap, seat, legal, random.Random(number)) == ai.normal(
                    view, seat, legal, random.Random(number)
                )
    assert decisions > 10
