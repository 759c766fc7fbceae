"""A full Sultan state consistent with a seat's view, for the AI's search.

What a seat knows: its own hand, its own bids, every card revealed (``spent``), the gems
on the board and — from the log's reveals, as anyone at the table saw them — which gems
each seat won. What it does not: the cards in the other hands and under the other
seats' unrevealed bids (drawn at random from the cards each of them has not spent yet),
and the future draws from the bag (imagined rolls).
"""

from __future__ import annotations

import random

from games.core import State, View, shuffle
from games.sultan.engine import (
    CARD_SLOTS,
    ENGINE,
    GEMS_IN_BAG,
    NUM_COLOURS,
    ROLL_BITS,
    SETUPS,
)


def won_gems(view: View, seat: int) -> list[list[int]]:
    """Gem counts by colour behind each screen: the seat's own from its view, the others'
    from the public reveals in the log."""
    n = view["num_players"]
    gems = [[0] * NUM_COLOURS for _ in range(n)]
    for event in view["log"]:
        if event["type"] == "reveal" and event["winner"] is not None:
            gems[event["winner"]][event["gem"]] += 1
    gems[seat] = list(view["my_gems"])
    return gems


def unspent(view: View, other: int) -> list[int]:
    """The sorted card values ``other`` has not revealed yet: hand, hidden bids, deck."""
    left = list(SETUPS[view["num_players"]].card_values)
    for value in view["spent"][other]:
        left.remove(value)
    return left


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    n = view["num_players"]
    setup = SETUPS[n]
    gems = won_gems(view, seat)
    bag = list(GEMS_IN_BAG)
    for colour in view["drawn"] + view["cushions"]:
        bag[colour] -= 1
    for counts in gems:
        for colour in range(NUM_COLOURS):
            bag[colour] -= counts[colour]
    if min(bag) < 0 or sum(bag) != view["bag_size"]:
        raise ValueError("sultan: the view's gems do not add up to the bag")
    hands, bid_values = deal_hidden_cards(view, seat, rng)
    circles_left = 0 if view["phase"] == "over" else setup.circles - view["circle"]
    state = ENGINE.new_game(n, view["options"], 0)  # every key of the layout, then the view's
    state.update(
        phase=view["phase"],
        round=view["round"],
        circle=view["circle"],
        start=view["start"],
        bag=bag,
        gem_rolls=[rng.getrandbits(ROLL_BITS) for _ in range(circles_left * setup.draw)],
        drawn=list(view["drawn"]),
        cushions=list(view["cushions"]),
        bid_cushions=[bid[1] for bid in view["bids"]],
        bid_values=bid_values,
        hands=hands,
        spent=spent_counts(view),
        gems=[count for counts in gems for count in counts],
        log=list(view["log"]),  # entries are never changed: shared, like the engine does
        seed=rng.getrandbits(64),  # the imagined deals of the later rounds
        rng_counter=0,
    )
    return state


def deal_hidden_cards(view: View, seat: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """Every seat's hand (card counts by value, flat) and the values of this circle's bids:
    the seat's own as its view has them, the others' drawn at random from the cards each
    has not spent."""
    n = view["num_players"]
    hands = [0] * (n * CARD_SLOTS)
    bid_seats = [bid[0] for bid in view["bids"]]
    bid_values = [0] * len(bid_seats)
    mine = iter(value for _, value in view["my_bids"])
    for other in range(n):
        positions = [index for index, bidder in enumerate(bid_seats) if bidder == other]
        if other == seat:
            held = list(view["hand"])
            for index in positions:
                bid_values[index] = next(mine)
        else:
            pool = unspent(view, other)
            shuffle(rng, pool)  # rng.shuffle's permutation, cheaper
            held = pool[: view["hand_sizes"][other]]
            for index, value in zip(positions, pool[len(held) :], strict=False):
                bid_values[index] = value
        base = other * CARD_SLOTS
        for value in held:
            hands[base + value] += 1
    return hands, bid_values


def spent_counts(view: View) -> list[int]:
    """Every seat's revealed cards as counts by value (flat), as the state keeps them."""
    spent = [0] * (view["num_players"] * CARD_SLOTS)
    for other, values in enumerate(view["spent"]):
        for value in values:
            spent[other * CARD_SLOTS + value] += 1
    return spent
