"""A decision reads what it is given and changes nothing, not even for a moment: views
share their lists with the state (copy-on-write engines), so an AI that wrote into a
view, even to undo it afterwards, would edit the real game."""

import json
import random

import pytest

from games import get_engine
from games.ai import LEVELS, choose, game_ai, hint
from tests.games.ai.helpers import CONFIG_IDS, CONFIGS, positions


def refuse(self, *args, **kwargs):
    raise TypeError(f"a {type(self).__name__} is read, never changed")


class ReadOnlyList(list):
    __setitem__ = __delitem__ = __iadd__ = __imul__ = refuse
    append = extend = insert = pop = remove = clear = sort = reverse = refuse


class ReadOnlyDict(dict):
    __setitem__ = __delitem__ = __ior__ = refuse
    clear = pop = popitem = setdefault = update = refuse


def read_only(data):
    if isinstance(data, list):
        return ReadOnlyList(read_only(item) for item in data)
    if isinstance(data, dict):
        return ReadOnlyDict((key, read_only(value)) for key, value in data.items())
    return data


def test_read_only_containers_refuse_every_change():
    data = read_only({"a": [1, [2]]})
    for change in (
        lambda: data.__setitem__("b", 1),
        lambda: data["a"].append(3),
        lambda: data["a"][1].__setitem__(0, 5),
        lambda: data["a"].sort(),
    ):
        with pytest.raises(TypeError, match="read, never changed"):
            change()
    assert data == {"a": [1, [2]]}


@pytest.fixture
def read_only_search(monkeypatch):
    """Inside the hard level's search and the hint, every state the playouts reach and
    every view of it reaches the heuristics and the evaluation read-only too (they share
    lists with the imagined state the other candidate moves start from). The samplers
    get a plain copy of the view: a sample is a new state that the engine plays on
    (tests/games/ai/test_sampling.py checks that it shares nothing with the view)."""
    for game in {game for game, _, _ in CONFIGS}:
        ai = game_ai(game)
        sample, values = ai.sample, ai.action_values
        evaluate, horizon = ai.evaluate, ai.horizon_reached

        def plain_sample(view, seat, rng, sample=sample):
            return sample(json.loads(json.dumps(view)), seat, rng)

        def locked_values(view, seat, legal, rng, values=values):
            return values(read_only(view), seat, legal, rng)

        def locked_evaluate(start, state, seat, rng, evaluate=evaluate):
            return evaluate(read_only(start), read_only(state), seat, rng)

        def locked_horizon(start, state, horizon=horizon):
            return horizon(read_only(start), read_only(state))

        monkeypatch.setattr(ai, "sample", plain_sample)
        monkeypatch.setattr(ai, "action_values", locked_values)
        monkeypatch.setattr(ai, "evaluate", locked_evaluate)
        monkeypatch.setattr(ai, "horizon_reached", locked_horizon)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_no_level_and_no_hint_writes_into_the_view_or_the_state(
    game, players, options, small_budgets, read_only_search
):
    engine = get_engine(game)
    decided = 0
    for number, state in enumerate(positions(game, players, options, seed=12, every=19)):
        before = json.dumps(state, sort_keys=True)
        for seat in sorted(engine.to_act(state)):
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            locked = read_only(view)
            for level in LEVELS:
                seed = random.Random(number).getrandbits(32)
                action = choose(game, level, locked, seat, legal, seed)
                assert action == choose(game, level, view, seat, legal, seed)
                decided += 1
            assert hint(game, locked, seat, legal, number) == hint(game, view, seat, legal, number)
        assert json.dumps(state, sort_keys=True) == before
    assert decided >= 4 * players
