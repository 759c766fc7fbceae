"""Positions to test the AI players on: seeded games of random legal moves, and ways to
rearrange the hidden information of a real state without changing what a seat sees."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games import get_engine
from games.core import State
from games.donkey.engine import DONKEY, SLOTS
from games.sultan.engine import CARD_SLOTS, bid_indices, cards_of

# (game, players, options): every game, the usual and the unusual set-ups.
CONFIGS = [
    ("azul", 2, {}),
    ("azul", 3, {"wall": "grey"}),
    ("summer_pavilion", 2, {}),
    ("summer_pavilion", 3, {"variant1": True, "variant2": True}),
    ("5211", 2, {}),
    ("5211", 3, {"match_target": 50}),
    ("5211", 5, {}),
    ("sultan", 2, {}),
    ("sultan", 3, {}),
    ("donkey", 4, {}),
    ("donkey", 3, {"hands": 2}),
]
CONFIG_IDS = [
    f"{game}-{players}p-{'-'.join(map(str, options.values())) or 'default'}"
    for game, players, options in CONFIGS
]


def positions(game: str, players: int, options: dict, seed: int, every: int) -> Iterator[State]:
    """Every ``every``-th position of a game of random legal moves (game over excluded)."""
    engine = get_engine(game)
    chooser = random.Random(seed)
    state = engine.new_game(players, options, seed)
    moves = 0
    while not engine.is_over(state):
        if moves % every == 0:
            yield state
        seat = chooser.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
        moves += 1


def reshuffled(game: str, state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything ``seat`` cannot see dealt again at random: the other
    hands, hidden choices and bids, the order of the bag or pile, the future draws."""
    return RESHUFFLERS[game](state, seat, rng)


def _new_future(state: State, rng: random.Random) -> State:
    return {**state, "seed": rng.getrandbits(64), "rng_counter": rng.randrange(1000)}


def _azul(state: State, seat: int, rng: random.Random) -> State:
    return _new_future(state, rng)


def _summer_pavilion(state: State, seat: int, rng: random.Random) -> State:
    bag = list(state["bag"])
    rng.shuffle(bag)
    return {**_new_future(state, rng), "bag": bag}


def _g5211(state: State, seat: int, rng: random.Random) -> State:
    n = state["num_players"]
    others = [other for other in range(n) if other != seat]
    pool = list(state["deck"]) + list(state["removed"])
    for other in others:
        pool += state["hands"][other] + (state["chosen"][other] or [])
    rng.shuffle(pool)
    hands = [list(hand) for hand in state["hands"]]
    chosen = [None if cards is None else list(cards) for cards in state["chosen"]]
    for other in others:
        size = len(hands[other])
        hands[other] = sorted(pool[:size])
        del pool[:size]
        if chosen[other] is not None:
            size = len(chosen[other])
            chosen[other] = sorted(pool[:size])
            del pool[:size]
    removed = sorted(pool[: len(state["removed"])])
    deck = pool[len(state["removed"]) :]
    return {
        **_new_future(state, rng),
        "hands": hands,
        "chosen": chosen,
        "removed": removed,
        "deck": deck,
    }


def _sultan(state: State, seat: int, rng: random.Random) -> State:
    hands = list(state["hands"])
    bid_values = list(state["bid_values"])
    for other in range(state["num_players"]):
        if other == seat:
            continue
        indices = bid_indices(state, other)
        held = cards_of(state["hands"], other)
        pool = (
            held
            + [state["bid_values"][index] for index in indices]
            + get_engine("sultan").deck(state, other)
        )
        rng.shuffle(pool)
        base = other * CARD_SLOTS
        hands[base : base + CARD_SLOTS] = [0] * CARD_SLOTS
        for value in pool[: len(held)]:
            hands[base + value] += 1
        for position, index in enumerate(indices):
            bid_values[index] = pool[len(held) + position]
    rolls = [rng.getrandbits(30) for _ in state["gem_rolls"]]
    return {**_new_future(state, rng), "hands": hands, "bid_values": bid_values, "gem_rolls": rolls}


def _donkey(state: State, seat: int, rng: random.Random) -> State:
    n = state["num_players"]
    hands = list(state["hands"])
    pool = [value for value, count in enumerate(state["undealt"]) for _ in range(count)]
    sizes = {}
    for other in range(n):
        if other == seat:
            continue
        base = other * SLOTS
        cards = [v for v in range(1, SLOTS) for _ in range(hands[base + v])]
        sizes[other] = len(cards)
        pool += cards
        hands[base + 1 : base + SLOTS] = [0] * (SLOTS - 1)  # the donkey stays where it is
    rng.shuffle(pool)
    for other, size in sizes.items():
        for value in pool[:size]:
            hands[other * SLOTS + value] += 1
        del pool[:size]
    undealt = [0] * SLOTS
    for value in pool:
        undealt[value] += 1
    assert undealt[DONKEY] == 0
    return {**_new_future(state, rng), "hands": hands, "undealt": undealt}


RESHUFFLERS = {
    "azul": _azul,
    "summer_pavilion": _summer_pavilion,
    "5211": _g5211,
    "sultan": _sultan,
    "donkey": _donkey,
}
