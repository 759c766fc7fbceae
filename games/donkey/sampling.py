"""A full Who's the Donkey? state consistent with a seat's view, for the AI's search.

What a seat knows: its own hand, every card played (the ``played`` pile and the table),
who holds the donkey, every hand's size, and — from the log — the cards each seat took
in a donkey round of this hand and has not played since (they went into its hand face
up). Those stay with their holders; every other unseen card is dealt at random among
the other hands and the undealt cards.
"""

from __future__ import annotations

import random

from games.core import State, View, shuffle
from games.donkey.engine import (
    DECK_SIZE,
    DONKEY,
    ENGINE,
    FULL_COUNTS,
    HAND_SIZES,
    JOKER,
    K_CARD,
    K_DONKEY,
    K_PASS,
    K_SET,
    SLOTS,
)

KINDS = {"pass": K_PASS, "set": K_SET, "donkey": K_DONKEY, "card": K_CARD}


def engine_plays(view: View) -> list[list[int]]:
    """The round's plays in the engine's layout: ``[seat, kind, value, count, jokers]``."""
    plays = []
    for play in view["plays"]:
        kind = KINDS[play["kind"]]
        cards = play["cards"]
        value = play["value"]
        if kind == K_PASS:
            plays.append([play["seat"], K_PASS, 0, 0, 0])
        elif kind == K_SET:
            jokers = len(cards) if value == JOKER else cards.count(JOKER)
            plays.append([play["seat"], K_SET, value, len(cards), jokers])
        elif kind == K_DONKEY:
            plays.append([play["seat"], K_DONKEY, DONKEY, 1, 0])
        else:
            plays.append([play["seat"], K_CARD, value, 1, int(value == JOKER)])
    return plays


def known_cards(view: View) -> list[list[int]]:
    """Per seat, the cards (counts by value) it is known to hold: taken in a donkey round
    of this hand and not played since. The donkey itself is tracked by the view."""
    n = view["num_players"]
    known = [[0] * SLOTS for _ in range(n)]
    log = view["log"]
    start = len(log)
    while start and log[start - 1]["type"] != "hand_started":
        start -= 1
    for event in log[start:]:
        kind = event["type"]
        if kind == "round_won" and event["donkey"]:
            for card in event["cards"]:
                if card != DONKEY:
                    known[event["seat"]][card] += 1
        elif kind in ("play", "donkey_card"):
            cards = event["cards"] if kind == "play" else [event["card"]]
            for card in cards:
                if known[event["seat"]][card]:
                    known[event["seat"]][card] -= 1
    return known


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    n = view["num_players"]
    plays = engine_plays(view)
    holder = view["donkey_holder"]
    unseen = list(FULL_COUNTS)
    for card in view["hand"]:
        unseen[card] -= 1
    for value in range(SLOTS):
        unseen[value] -= view["played"][value]
    for play in view["plays"]:
        for card in play["cards"]:
            unseen[card] -= 1
    hands = [[0] * SLOTS for _ in range(n)]
    for card in view["hand"]:
        hands[seat][card] += 1
    room = list(view["hand_sizes"])
    room[seat] = 0
    if holder is not None and holder != seat:
        hands[holder][DONKEY] = 1
        unseen[DONKEY] -= 1
        room[holder] -= 1
    for other, cards in enumerate(known_cards(view)):
        if other == seat:
            continue
        for value, count in enumerate(cards):
            hands[other][value] += count
            unseen[value] -= count
            room[other] -= count
    if min(unseen) < 0 or min(room) < 0:
        raise ValueError("donkey: the view shows more cards than the deck holds")
    pool = [value for value, count in enumerate(unseen) for _ in range(count)]
    shuffle(rng, pool)  # rng.shuffle's permutation, cheaper
    for other in range(n):
        for card in pool[: room[other]]:
            hands[other][card] += 1
        del pool[: room[other]]
    if len(pool) != DECK_SIZE - n * HAND_SIZES[n]:
        raise ValueError("donkey: the view's card counts do not add up to the deck")
    undealt = [0] * SLOTS
    for card in pool:
        undealt[card] += 1
    state = ENGINE.new_game(n, view["options"], 0)  # every key of the layout, then the view's
    state.update(
        hand_no=view["hand_no"],
        totals=list(view["totals"]),
        history=[list(row) for row in view["history"]],
        last_hand=view["last_hand"],
        over=view["over"],
        log=list(view["log"]),  # entries are never changed: shared, like the engine does
        hands=[count for hand in hands for count in hand],
        undealt=undealt,
        played=list(view["played"]),
        round_no=view["round_no"],
        plays=plays,
        locked=view["donkey_locked"],
        turn=view["turn"] if view["turn"] is not None else 0,
        seed=rng.getrandbits(64),  # the imagined deals of the later hands
        rng_counter=0,
    )
    return state
