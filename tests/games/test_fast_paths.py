"""The engines list their legal moves from tables and check one move without listing them
(fast paths). Two independent answers to one question must agree: over many random
positions of every game, ``legal_actions`` is exactly the moves of the game's whole action
set that ``is_legal`` accepts, for the seat to act and for every other seat."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product

import pytest

from games import get_engine
from games.core import Action, State
from games.donkey import engine as donkey
from games.g5211 import engine as g5211
from games.sultan import engine as sultan
from games.summer_pavilion import engine as summer_pavilion

DONKEY_ACTIONS: list[Action] = sorted(
    {
        donkey.PASS,
        donkey.LEAD_DONKEY,
        *donkey.CARDS,
        *(
            play
            for by_count in donkey.PLAYS
            for by_jokers in by_count
            for play in by_jokers  # values 0..14, counts 0..13, jokers 0..5: most illegal
        ),
    }
)
CARDS_5211 = range(len(g5211.COLOURS) * 6)
ACTIONS_5211: list[Action] = sorted(
    [(card,) for card in CARDS_5211] + list(product(CARDS_5211, CARDS_5211))
)
SULTAN_ACTIONS: list[Action] = sorted(
    [*sultan.RETURN_ACTIONS, *(bid for row in sultan.BID_ACTIONS for bid in row)]
)
SUMMER_PAVILION_ACTIONS: list[Action] = sorted(
    [
        *(take for by_colour in summer_pavilion.TAKES for take in by_colour),
        *(
            place
            for by_space in summer_pavilion.PLACES
            for by_colour in by_space
            for by_wilds in by_colour
            for place in by_wilds  # every star, space, colour and number of wild tiles
        ),
        summer_pavilion.PASS_ACTION,
        *summer_pavilion.BONUSES,
        *summer_pavilion.KEEPS,
        summer_pavilion.DONE_ACTION,
    ]
)
EVERY_ACTION = {
    "donkey": DONKEY_ACTIONS,
    "5211": ACTIONS_5211,
    "sultan": SULTAN_ACTIONS,
    "summer_pavilion": SUMMER_PAVILION_ACTIONS,
}


def random_positions(
    game: str, players: int, games: int, every: int, options: dict | None = None
) -> Iterator[State]:
    """Every ``every``-th position of ``games`` random games, the last ones included."""
    engine = get_engine(game)
    for seed in range(games):
        chooser = random.Random(seed)
        state = engine.new_game(players, options, seed)
        step = 0
        while not engine.is_over(state):
            if step % every == 0:
                yield state
            seat = chooser.choice(sorted(engine.to_act(state)))
            state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
            step += 1
        yield state


@pytest.mark.parametrize(
    ("game", "players", "games", "every", "options"),
    [
        ("donkey", 3, 6, 2, None),
        ("donkey", 4, 6, 2, None),
        ("donkey", 6, 3, 3, None),
        ("5211", 2, 6, 1, None),
        ("5211", 4, 6, 1, None),
        ("5211", 5, 4, 1, None),
        ("sultan", 2, 10, 1, None),
        ("sultan", 3, 10, 1, None),
        ("sultan", 5, 10, 1, None),
        ("summer_pavilion", 2, 4, 2, None),
        ("summer_pavilion", 4, 2, 3, None),
        ("summer_pavilion", 3, 2, 3, {"variant1": True, "variant2": True}),
    ],
)
def test_legal_actions_are_the_moves_is_legal_accepts(game, players, games, every, options):
    engine = get_engine(game)
    every_action = EVERY_ACTION[game]
    positions = 0
    for state in random_positions(game, players, games, every, options):
        for seat in range(players):
            accepted = [a for a in every_action if engine.is_legal(state, seat, a)]
            assert engine.legal_actions(state, seat) == accepted
        positions += 1
    assert positions > 50


def test_donkey_follower_tables_list_every_split_into_real_cards_and_jokers():
    """A follower's moves come from three paths (one card; no jokers; jokers): each gives
    what the general table of splits gives, for every hand that can face every lead."""
    engine = donkey.ENGINE
    state = engine.new_game(4, None, seed=1)
    for count, best, real, jokers in product(range(1, 6), range(1, 14), range(9), range(6)):
        if real + jokers > 13:
            continue
        hand = [0] * donkey.SLOTS
        hand[5], hand[9], hand[13], hand[donkey.JOKER] = real, min(real, 2), 1, jokers
        lead = [0, donkey.K_SET, best, count, 0]
        rigged = {**state, "plays": [lead], "turn": 1, "hands": [0] * 15 + hand + [0] * 30}
        expected = [donkey.PASS]
        for value in range(best + 1, donkey.JOKER):
            expected += donkey.follow_plays(value, count, hand[value], jokers)
        if jokers >= count:
            expected.append(donkey.PLAYS[donkey.JOKER][count][count])
        assert engine.legal_actions(rigged, 1) == expected
