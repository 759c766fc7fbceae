"""A full 5211 state consistent with a seat's view, for the AI's search.

What a seat knows: its own hand (and its own hidden choice), every card revealed in this
game (the log's ``revealed`` events) and so which of them scored and which were
discarded. Every other card of the 100 is unseen: the other hands, their hidden
choices, the removed cards and the draw pile are dealt from those at random.
"""

from __future__ import annotations

import random
from collections import Counter

from games.core import State, View, shuffle
from games.g5211.engine import ENGINE, FULL_DECK, PART_SIZES, REMOVED_BY_PLAYERS


def game_events(view: View) -> list[dict]:
    """The log's events of the game in progress (a long match deals several games)."""
    game_no = view["game_no"]
    return [event for event in view["log"] if event.get("game_no") == game_no]


def seen_cards(view: View) -> tuple[list[list[int]], list[int]]:
    """This game's score piles by seat and its discarded cards, from the log."""
    n = view["num_players"]
    piles: list[list[int]] = [[] for _ in range(n)]
    discard: list[int] = []
    revealed: list[list[int]] = [[] for _ in range(n)]
    for event in game_events(view):
        if event["type"] == "revealed":
            for seat, cards in enumerate(event["cards"]):
                revealed[seat] += cards
        elif event["type"] == "round_scored":
            for seat, scored in enumerate(event["scored"]):
                piles[seat] += scored
                left = Counter(revealed[seat])
                left.subtract(scored)
                discard += sorted(left.elements())
            revealed = [[] for _ in range(n)]
    return piles, discard


DECK_COUNTS = [FULL_DECK.count(card) for card in range(max(FULL_DECK) + 1)]


def unseen_cards(view: View) -> list[int]:
    """The sorted cards ``view``'s seat cannot see: all the others' hands and choices,
    the removed cards and the draw pile."""
    # Every card seen in this game was revealed (the log's ``revealed`` events: the
    # table, and what scored or was discarded since), is in the hand or chosen.
    left = DECK_COUNTS[:]
    for event in game_events(view):
        if event["type"] == "revealed":
            for cards in event["cards"]:
                for card in cards:
                    left[card] -= 1
    for card in view["hand"]:
        left[card] -= 1
    for card in view["chosen"] or ():
        left[card] -= 1
    if min(left) < 0:
        raise ValueError("5211: the view shows more cards than the deck holds")
    return [card for card, count in enumerate(left) for _ in range(count)]


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    n = view["num_players"]
    piles, discard = seen_cards(view)
    hidden = unseen_cards(view)
    shuffle(rng, hidden)  # rng.shuffle's permutation, cheaper
    part_size = PART_SIZES[view["part"] - 1]
    hands: list[list[int]] = []
    chosen: list[list[int] | None] = []
    for other in range(n):
        if other == seat:
            hands.append(list(view["hand"]))
            chosen.append(list(view["chosen"]) if view["chosen"] is not None else None)
            continue
        size = view["hand_sizes"][other]
        hands.append(sorted(hidden[:size]))
        del hidden[:size]
        if view["ready"][other]:
            chosen.append(sorted(hidden[:part_size]))
            del hidden[:part_size]
        else:
            chosen.append(None)
    removed = REMOVED_BY_PLAYERS[n]
    if len(hidden) != removed + view["deck_size"]:
        raise ValueError("5211: the view's card counts do not add up to the deck")
    match_cards = [0] * n
    for event in view["log"]:
        if event["type"] == "game_ended":
            for other, count in enumerate(event["cards"]):
                match_cards[other] += count
    state = ENGINE.new_game(n, view["options"], 0)  # every key of the layout, then the view's
    state.update(
        game_no=view["game_no"],
        match_points=list(view["match_points"]),
        match_cards=match_cards,
        log=list(view["log"]),  # entries are never changed: shared, like the engine does
        over=view["over"],
        removed=sorted(hidden[:removed]),
        deck=hidden[removed:],  # the imagined order of the draw pile
        hands=hands,
        round=view["round"],
        part=view["part"],
        final_round=view["final_round"],
        chosen=chosen,
        table=[list(cards) for cards in view["table"]],
        piles=piles,
        discard=discard,
        seed=rng.getrandbits(64),  # the imagined shuffle of a next game in a long match
        rng_counter=0,
    )
    return state
