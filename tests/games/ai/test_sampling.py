"""The AI imagines hidden information only in ways the view allows: every sampled state
shows the seat exactly what it saw, keeps every card, tile and gem, and is a valid
position of the game."""

import json
import random

import pytest

from games import get_engine
from games.ai import game_ai
from tests.games.ai.helpers import CONFIG_IDS, CONFIGS, positions


def containers(data, skip_log=True) -> set[int]:
    """The ids of every list and dict inside ``data`` (the log's entries aside: they are
    never changed, so states share them on purpose)."""
    found = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.add(id(item))
            stack += [value for key, value in item.items() if not (skip_log and key == "log")]
            if skip_log and "log" in item:
                found.add(id(item["log"]))
        elif isinstance(item, list):
            found.add(id(item))
            stack += item
    return found


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=CONFIG_IDS)
def test_sampled_states_agree_with_the_view_and_keep_every_invariant(game, players, options):
    engine = get_engine(game)
    ai = game_ai(game)
    rng = random.Random(7)
    checked = 0
    for seed in (1, 2):
        for state in positions(game, players, options, seed, every=9):
            for seat in range(players):
                view = engine.view(state, seat)
                sample = ai.sample(view, seat, rng)
                engine.check_invariants(sample)  # cards / tiles / gems conserved, sizes
                assert engine.view(sample, seat) == view
                assert engine.to_act(sample) == engine.to_act(state)
                assert engine.legal_actions(sample, seat) == engine.legal_actions(state, seat)
                assert json.loads(json.dumps(sample)) == sample
                assert not containers(sample) & containers(view)  # nothing shared to spoil
                checked += 1
    assert checked >= 10 * players


HIDDEN = {  # what each game keeps from a seat, as state keys
    "5211": ("hands", "chosen", "deck", "removed"),
    "sultan": ("hands", "bid_values", "gem_rolls"),
    "donkey": ("hands", "undealt"),
    "summer_pavilion": ("bag",),
}


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_samples_imagine_different_hidden_information(game):
    players = 4 if game == "donkey" else 2
    engine = get_engine(game)
    state = list(positions(game, players, {}, seed=3, every=5))[3]
    view = engine.view(state, 0)
    rng = random.Random(1)
    samples = [game_ai(game).sample(view, 0, rng) for _ in range(6)]
    hidden = {json.dumps([sample[key] for key in HIDDEN[game]]) for sample in samples}
    assert len(hidden) > 1


def test_a_5211_sample_keeps_the_seats_own_cards_and_what_the_table_showed():
    engine = get_engine("5211")
    state = list(positions("5211", 3, {}, seed=4, every=7))[5]
    view = engine.view(state, 1)
    sample = game_ai("5211").sample(view, 1, random.Random(2))
    assert sample["hands"][1] == state["hands"][1]
    assert sample["table"] == state["table"]
    assert sample["piles"] == state["piles"]
    assert sorted(sample["discard"]) == sorted(state["discard"])


def test_a_donkey_sample_leaves_cards_taken_in_a_donkey_round_with_their_taker():
    from games.donkey.engine import SLOTS
    from games.donkey.sampling import known_cards

    engine = get_engine("donkey")
    for state in positions("donkey", 4, {}, seed=11, every=1):
        view = engine.view(state, 0)
        known = known_cards(view)
        if any(any(cards) for cards in known[1:]):
            break
    else:
        pytest.fail("no donkey round was taken in this game")
    rng = random.Random(3)
    for _ in range(5):
        sample = game_ai("donkey").sample(view, 0, rng)
        for seat in range(1, 4):
            hand = sample["hands"][seat * SLOTS : (seat + 1) * SLOTS]
            real = state["hands"][seat * SLOTS : (seat + 1) * SLOTS]
            assert all(hand[v] >= known[seat][v] for v in range(SLOTS))
            assert all(real[v] >= known[seat][v] for v in range(SLOTS))
