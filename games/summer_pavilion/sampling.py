"""A full Summer Pavilion state consistent with a seat's view, for the AI's search.

Everything is public but the order of the bag. The bag's content is what the 132 tiles
leave once every visible tile is counted; its order, and the later shuffles (the seed),
are imagined.
"""

from __future__ import annotations

import random

from games.core import State, View, clone, shuffle
from games.summer_pavilion.engine import ENGINE, NUM_COLOURS, TILES_PER_COLOUR


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    n = view["num_players"]
    players = view["players"]
    boards = [[tile for star in player["board"] for tile in star] for player in players]
    piles = [view["tower"], view["supply"], view["centre"], *view["factories"]]
    piles += [player["hand"] for player in players] + [player["corners"] for player in players]
    left = [
        TILES_PER_COLOUR
        - sum(pile[colour] for pile in piles)
        - sum(board.count(colour) for board in boards)
        for colour in range(NUM_COLOURS)
    ]
    bag = [colour for colour in range(NUM_COLOURS) for _ in range(left[colour])]
    if len(bag) != view["bag_size"] or min(left, default=0) < 0:
        raise ValueError("summer_pavilion: the view's tiles do not add up to 132")
    shuffle(rng, bag)  # rng.shuffle's permutation, cheaper
    state = ENGINE.new_game(n, view["options"], 0)  # every key of the layout, then the view's
    state.update(
        log=list(view["log"]),  # entries are never changed: shared, like the engine does
        round=view["round"],
        phase=view["phase"],
        current=view["current"] if view["current"] is not None else 0,
        start_player=view["start_player"],
        first_player_tile=view["first_player_tile"],
        bag=bag,
        tower=list(view["tower"]),
        supply=list(view["supply"]),
        centre=list(view["centre"]),
        factories=clone(view["factories"]),
        hands=[list(player["hand"]) for player in players],
        corners=[list(player["corners"]) for player in players],
        boards=boards,
        scores=[player["score"] for player in players],
        passed=[player["passed"] for player in players],
        bonus_due=view["bonus_due"],
        seed=rng.getrandbits(64),  # the imagined later shuffles
        rng_counter=0,
    )
    return state
