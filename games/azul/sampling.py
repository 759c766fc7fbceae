"""A full Azul state consistent with a seat's view, for the AI's search.

Everything in Azul is public except the future: the state keeps no bag order (tiles are
drawn at refill time from the seed), so the view holds the whole position and only the
seed, the source of every later draw, is imagined.
"""

from __future__ import annotations

import random

from games.azul.engine import ENGINE
from games.core import State, View, clone


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    n = view["num_players"]
    state = ENGINE.new_game(n, view["options"], 0)  # every key of the layout, then the view's
    scores = list(view["scores"])
    state.update(
        phase=view["phase"],
        round=view["round"],
        turn=view["turn"],
        first_player=view["first_player"],
        marker=view["marker"],
        bag=list(view["bag"]),
        lid=list(view["lid"]),
        centre=list(view["centre"]),
        factories=[count for factory in view["factories"] for count in factory],
        scores=scores,
        line_colours=[colour for line in view["line_colours"] for colour in line],
        line_counts=[count for line in view["line_counts"] for count in line],
        walls=clone(view["walls"]),
        floors=clone(view["floors"]),
        pending=list(view["pending_rows"]),
        tiling_scores=tiling_scores(view),
        end_reason=view["end_reason"],
        log=list(view["log"]),  # entries are never changed: shared, like the engine does
        seed=rng.getrandbits(64),  # the imagined future draws
        rng_counter=0,
    )
    return state


def tiling_scores(view: View) -> list[int]:
    """Each seat's score when this round's wall tiling began (it only words the log): the
    score less the points of the tiles it has placed since."""
    scores = list(view["scores"])
    if view["phase"] != "wall":
        return scores
    for event in reversed(view["log"]):
        if event["type"] == "round_start":
            break
        if event["type"] == "tile_placed":
            scores[event["seat"]] -= event["points"]
    return scores
