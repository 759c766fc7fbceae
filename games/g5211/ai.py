"""5211 AI: a small Monte Carlo player for the normal level, a one-step search for hard.

The normal player scores each choice of cards by imagining the rest of the round: the
others reveal cards drawn from those it has not seen (16 draws, the same for every
choice), and it reveals the rest of its own share from the cards it keeps (every way
counted alike). It plays for its lead over the others this round, and keeps its high
cards for a round they can win (cards played are spent whether they score or not).

The hard level tries the normal player's best choices in imagined deals (the other
hands and the draw pile dealt at random from the unseen cards): the others answer as the
normal player would with their imagined hands, the cards are revealed and drawn, and the
position is judged by the normal player's estimate of its best next choice (at the end
of the round: by the points). It sees what its choice leads to once the others answer
and the refills come, with little of the noise of playing every round out.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from games.ai.base import Budget, GameAI
from games.core import Action, State, View
from games.g5211.engine import (
    COLOURS,
    ENGINE,
    PART_SIZES,
    RANK_VALUES,
    colour_limit,
    is_rooster,
    rooster_threshold,
    value_of,
)
from games.g5211.sampling import sample_state, unseen_cards

SAMPLES = 16  # imagined rest-of-rounds per decision, shared by every choice
# Hard: the normal player's best choices, each tried in imagined deals. The last part of
# a round ends it, so a deal costs only the others' answers there: twice as many deals.
BUDGET = Budget(candidates=6, samples=32)
LAST_PART_DEALS = 2
# A card kept in hand may score in a later round: playing it gives up this share of it.
KEEP_SHARE = 0.25


CARD_CODES = range(len(COLOURS) * len(RANK_VALUES))
CARD_COLOUR = [card // len(RANK_VALUES) for card in CARD_CODES]
CARD_VALUE = [value_of(card) for card in CARD_CODES]
CARD_ROOSTER = [int(is_rooster(card)) for card in CARD_CODES]


class Tally:
    """Cards by colour: how many, their values, and how many roosters."""

    __slots__ = ("counts", "roosters", "values")

    def __init__(self, cards: list[int]):
        self.counts = [0] * len(COLOURS)
        self.values = [0] * len(COLOURS)
        self.roosters = 0
        for card in cards:
            colour = CARD_COLOUR[card]
            self.counts[colour] += 1
            self.values[colour] += CARD_VALUE[card]
            self.roosters += CARD_ROOSTER[card]

    def plus(self, cards: list[int]) -> Tally:
        more = Tally(cards)
        more.counts = [a + b for a, b in zip(self.counts, more.counts, strict=True)]
        more.values = [a + b for a, b in zip(self.values, more.values, strict=True)]
        more.roosters += self.roosters
        return more

    def lead_with(self, mine: Tally, num_players: int) -> float:
        """My lead over the others' mean when they show these cards and I show ``mine``."""
        others = num_players - 1
        if self.roosters + mine.roosters >= rooster_threshold(num_players):
            return mine.roosters - self.roosters / others
        counts = [a + b for a, b in zip(self.counts, mine.counts, strict=True)]
        winner = scoring_colour(counts, num_players)
        if winner < 0:
            return 0.0
        return mine.values[winner] - self.values[winner] / others


def scoring_colour(counts: list[int], num_players: int) -> int:
    """The colour that scores with these counts, or -1 (the rules of ``score_round``)."""
    limit = colour_limit(num_players)
    for top in sorted(set(counts), reverse=True):
        if top == 0:
            return -1
        if top <= limit and counts.count(top) == 1:
            return counts.index(top)
    return -1


def lead(points: list[int], seat: int) -> float:
    """``seat``'s points less the mean of the others'."""
    others = (sum(points) - points[seat]) / (len(points) - 1)
    return points[seat] - others


class G5211AI(GameAI):
    engine = ENGINE
    budget = BUDGET

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        return sample_state(view, seat, rng)

    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        n = view["num_players"]
        hand = view["hand"]
        later_mine = sum(PART_SIZES[view["part"] :])  # my cards to reveal after this part
        to_come = sum(PART_SIZES[view["part"] - 1 :])  # each other seat's cards to reveal
        others = n - 1
        unseen = unseen_cards(view)
        # The same imagined cards of the others for every choice: a fair comparison.
        worlds = []
        for _ in range(SAMPLES):
            drawn = rng.sample(unseen, min(len(unseen), to_come * others))
            cards = drawn + [
                card for other, on in enumerate(view["table"]) if other != seat for card in on
            ]
            worlds.append(Tally(cards))
        table_mine = Tally(view["table"][seat])
        keep = 0.0 if view["final_round"] else KEEP_SHARE
        values = []
        for action in legal:
            kept = list(hand)
            for card in action:
                kept.remove(card)
            # Which of the kept cards I reveal later is open: every way counts alike.
            mine = [
                table_mine.plus(list(action) + list(later))
                for later in combinations(kept, later_mine)
            ]
            total = 0.0
            for world in worlds:
                for tally in mine:
                    total += world.lead_with(tally, n)
            values.append(
                total / (len(worlds) * len(mine)) - keep * sum(CARD_VALUE[card] for card in action)
            )
        return values

    def budget_for(self, view: View) -> Budget:
        if view["part"] < len(PART_SIZES):
            return self.budget
        return replace(self.budget, samples=self.budget.samples * LAST_PART_DEALS)

    def horizon_reached(self, start: State, state: State) -> bool:
        """Once the seat's choice and the others' are revealed: the next part, or the end
        of the round."""
        return state["over"] or (state["game_no"], state["round"], state["part"]) != (
            start["game_no"],
            start["round"],
            start["part"],
        )

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        """After a round: the lead in points, with a share of the cards kept in hand.
        Within a round: the normal player's estimate of its best next choice, now that it
        sees what the others revealed and which cards it drew (the cards it has spent since
        ``start`` no longer wait in its hand)."""
        same_round = (state["game_no"], state["round"]) == (start["game_no"], start["round"])
        if state["over"] or not same_round:
            return self.standing(state, seat)
        keep = 0.0 if state["final_round"] else KEEP_SHARE
        legal = ENGINE.legal_actions(state, seat)
        best = max(self.action_values(ENGINE.view(state, seat), seat, legal, rng))
        spent = state["table"][seat][len(start["table"][seat]) :]
        return best - keep * sum(CARD_VALUE[card] for card in spent)

    @staticmethod
    def standing(state: State, seat: int) -> float:
        """The lead in points, counting a share of the cards in hand (kept for later)."""
        if state["over"]:
            return lead([float(score) for score in ENGINE.result(state).scores], seat)
        keep = 0.0 if state["final_round"] else KEEP_SHARE
        points = [
            sum(CARD_VALUE[card] for card in pile)
            + total
            + keep * sum(CARD_VALUE[card] for card in hand)
            for pile, total, hand in zip(
                state["piles"], state["match_points"], state["hands"], strict=True
            )
        ]
        return lead(points, seat)


AI = G5211AI()
