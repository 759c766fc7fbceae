"""What the others' face-down bids probably are: the tree search's imagined deals
(:meth:`SultanAI.search_sample`).

A bid's cushion is public at once, its card is not; but where a player put a card says a
lot about the card. A deal that imagines a 1 under the other player's bid on the blue gem,
when a good player bids high there, sends the search after gems it cannot win (a search
told the real cards won 59 of 60 games against hard-v1: docs/ai.md, item 8). So the search
imagines :data:`CANDIDATES` deals of the others' cards at random from what the seat has
not seen (:mod:`games.sultan.sampling`) and keeps one by how likely each makes the bids
that were seen: for each face-down bid, the chance that the normal player, holding that
deal's hand then, would have made it — a softmax of its estimates (points) at
:data:`TEMPERATURE` over the bids that hand allowed. A likelihood weighting; with no
face-down bid of another seat the deal is the sampler's.

The normal player's estimate of a bid reads only what is public (the cushions, the bids
so far, the cards spent, the gems won), never its own hand, which only decides which bids
it may make: so each face-down bid's estimates are worked out once per deal drawn, for
every card, and each candidate hand only picks its own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import NamedTuple

from games.core import Action, State, View
from games.sultan.engine import BID_ACTIONS, CARD_SLOTS, bid_indices, bid_seats
from games.sultan.sampling import deal_hidden_cards, sample_state, unspent

CANDIDATES = 32  # hands of the others imagined for each deal kept
TEMPERATURE = 0.1  # points: how sharply the normal player's estimates shape a bid's odds

ActionValues = Callable[[View, int, list[Action], random.Random], list[float]]
PlayoutView = Callable[[State, int], View]


class Odds(NamedTuple):
    """A face-down bid, and what its bidder could have bid instead (the same in every deal
    of one view)."""

    index: int  # its position among this circle's bids
    bidder: int
    cushion: int
    free: list[int]  # the cushions the bidder could choose then
    own_from_here: list[int]  # the positions of the bidder's bids from this one on
    score: dict[tuple[int, int], float]  # (cushion, card): its estimate / TEMPERATURE


def likely_state(
    view: View,
    seat: int,
    rng: random.Random,
    action_values: ActionValues,
    playout_view: PlayoutView,
) -> State:
    """A deal consistent with ``view``, drawn in proportion to how likely the others'
    face-down bids of this circle are in it."""
    first = sample_state(view, seat, rng)
    hidden = [index for index, (bidder, _) in enumerate(view["bids"]) if bidder != seat]
    if not hidden:
        return first
    odds = [bid_odds(view, first, index, action_values, playout_view) for index in hidden]
    deals = [first]
    for _ in range(CANDIDATES - 1):  # the same bag and future, other cards in the others' hands
        hands, bid_values = deal_hidden_cards(view, seat, rng)
        deals.append({**first, "hands": hands, "bid_values": bid_values})
    # in logarithms: two unlikely bids would make a product too small for a float
    logs = [sum(log_bid_chance(deal, each) for each in odds) for deal in deals]
    top = max(logs)
    return rng.choices(deals, [math.exp(log - top) for log in logs])[0]


def bid_odds(
    view: View, deal: State, index: int, action_values: ActionValues, playout_view: PlayoutView
) -> Odds:
    """The normal player's log-weight of every bid it could have made instead of bid
    ``index`` of this circle, as the position stood before it (any card it has not
    spent)."""
    before = state_before_bid(deal, index)
    seats = bid_seats(deal)
    bidder = seats[index]
    used = {before["bid_cushions"][position] for position in bid_indices(before, bidder)}
    free = [cushion for cushion in range(len(deal["cushions"])) if cushion not in used]
    values = sorted(set(unspent(view, bidder)))
    bids: list[Action] = [BID_ACTIONS[cushion][value] for cushion in free for value in values]
    estimates = action_values(playout_view(before, bidder), bidder, bids, random.Random(0))
    score = {
        (bid[1], bid[2]): estimate / TEMPERATURE
        for bid, estimate in zip(bids, estimates, strict=True)
    }
    own_from_here = [position for position in range(index, len(seats)) if seats[position] == bidder]
    return Odds(index, bidder, deal["bid_cushions"][index], free, own_from_here, score)


def log_bid_chance(deal: State, odds: Odds) -> float:
    """The log of the chance of the face-down bid of ``odds`` in ``deal``: the softmax of
    its estimate among those of the bids that the bidder's hand then allowed."""
    held = deal["hands"][odds.bidder * CARD_SLOTS : (odds.bidder + 1) * CARD_SLOTS]
    cards = {value for value, count in enumerate(held) if count}
    cards.update(deal["bid_values"][position] for position in odds.own_from_here)
    score = odds.score
    allowed = [score[(other, value)] for other in odds.free for value in cards]
    top = max(allowed)
    total = top + math.log(sum(math.exp(each - top) for each in allowed))
    return score[(odds.cushion, deal["bid_values"][odds.index])] - total


def state_before_bid(deal: State, index: int) -> State:
    """``deal`` as it stood before bid ``index`` of this circle: that bid and the later
    ones back in their owners' hands."""
    seats = bid_seats(deal)
    later = len(deal["bid_cushions"]) - index  # until the reveal, the log ends in the bids
    hands = deal["hands"][:]
    for position in range(index, len(deal["bid_cushions"])):
        hands[seats[position] * CARD_SLOTS + deal["bid_values"][position]] += 1
    before = deal.copy()
    before.update(
        hands=hands,
        bid_cushions=deal["bid_cushions"][:index],
        bid_values=deal["bid_values"][:index],
        log=deal["log"][: len(deal["log"]) - later],
    )
    return before
