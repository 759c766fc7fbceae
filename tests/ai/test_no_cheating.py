"""An AI decides from its seat's view and legal actions only: dealing the hidden
information of the real state again (other hands, hidden bids, the bag, the future)
changes none of its choices, at any level."""

import json
import random

import pytest

from games import get_engine
from games.ai import LEVELS, choose
from tests.ai.helpers import CONFIG_IDS, CONFIGS, positions, reshuffled


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
