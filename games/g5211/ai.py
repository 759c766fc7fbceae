"""5211 AI: a small Monte Carlo player for the normal level, a one-step search for hard.

The normal player scores each choice of cards by imagining the rest of the round: the
others reveal cards drawn from those it has not seen (16 draws, the same for every
choice), and it reveals the rest of its own share from the cards it keeps (every way
counted alike). It plays for its lead over the others this round, and keeps its high
cards for a round they can win (cards played are spent whether they score or not).

The hard level tries the normal player's best choices in imagined deals (the other
hands and the draw pile dealt at random from the unseen cards, the same deals for every
choice): the others answer as the normal player would with their imagined hands, and
everyone plays the round out as the normal player, the others reacting to what it
revealed. The round's points decide, with a share of the cards kept in hand for later.
In the last round with a refill the playout goes on to the game's end, which is judged
by the final lead and by who wins: near the end a sure win is worth more than points.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from games.ai.base import Budget, GameAI
from games.core import Action, State, View
from games.core import sample as draw
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
# Hard, at the game's end: a win is worth this many points of lead (a shared win, its share).
WIN_WORTH = 10.0
# A card kept in hand may score in a later round: playing it gives up this share of it.
KEEP_SHARE = 0.25


CARD_CODES = range(len(COLOURS) * len(RANK_VALUES))
CARD_COLOUR = [card // len(RANK_VALUES) for card in CARD_CODES]
CARD_VALUE = [value_of(card) for card in CARD_CODES]
CARD_ROOSTER = [int(is_rooster(card)) for card in CARD_CODES]


# A colour count per 5 bits of one int: two tallies' counts add up as their codes do, and
# the colour that scores with given counts is looked up once per distinct code.
COUNT_BITS = 5
CARD_CODE = [1 << (COUNT_BITS * colour) for colour in CARD_COLOUR]


class Tally:
    """Cards by colour: how many (as a code), their values, and how many roosters."""

    __slots__ = ("code", "roosters", "values")

    def __init__(self, cards: list[int]):
        values = [0] * len(COLOURS)
        for card in cards:
            values[CARD_COLOUR[card]] += CARD_VALUE[card]
        self.values = values
        self.code = sum(map(CARD_CODE.__getitem__, cards))
        self.roosters = sum(map(CARD_ROOSTER.__getitem__, cards))

    def plus(self, cards: list[int]) -> Tally:
        more = Tally(cards)
        more.code += self.code
        more.values = [a + b for a, b in zip(self.values, more.values, strict=True)]
        more.roosters += self.roosters
        return more


def total_lead(worlds: list[Tally], mine: list[Tally], num_players: int) -> float:
    """The sum, over every ``world`` (the others' cards) and every ``tally`` of mine, of my
    lead over the others' mean when they show ``world`` and I show ``tally``: the normal
    player's inner loop, one function so that the colour lookup stays inline."""
    others = num_players - 1
    threshold = rooster_threshold(num_players)
    total = 0.0
    for world in worlds:
        code, roosters, values = world.code, world.roosters, world.values
        for tally in mine:
            if roosters + tally.roosters >= threshold:
                total += tally.roosters - roosters / others
                continue
            winner = _SCORING.get((num_players, code + tally.code))
            if winner is None:
                winner = scoring_colour_of(code + tally.code, num_players)
            if winner >= 0:
                total += tally.values[winner] - values[winner] / others
    return total


def decode_counts(code: int) -> list[int]:
    mask = (1 << COUNT_BITS) - 1
    return [(code >> (COUNT_BITS * colour)) & mask for colour in range(len(COLOURS))]


def scoring_colour(counts: list[int], num_players: int) -> int:
    """The colour that scores with these counts, or -1 (the rules of ``score_round``)."""
    limit = colour_limit(num_players)
    for top in sorted(set(counts), reverse=True):
        if top == 0:
            return -1
        if top <= limit and counts.count(top) == 1:
            return counts.index(top)
    return -1


# (players, colour counts as a code) -> the colour that scores, filled as codes turn up.
_SCORING: dict[tuple[int, int], int] = {}


def scoring_colour_of(code: int, num_players: int) -> int:
    """:func:`scoring_colour` of the counts a tally code holds, remembered."""
    key = (num_players, code)
    winner = _SCORING.get(key)
    if winner is None:
        winner = _SCORING[key] = scoring_colour(decode_counts(code), num_players)
    return winner


def lead(points: list[int], seat: int) -> float:
    """``seat``'s points less the mean of the others'."""
    others = (sum(points) - points[seat]) / (len(points) - 1)
    return points[seat] - others


class G5211AI(GameAI):
    engine = ENGINE
    budget = BUDGET
    # The hard level plays hard-v1's flat search: over 400 games the tree search was only at
    # parity with it, for about 7× its CPU per decision (docs/ai.md, "The hard level in 5211")
    hard_search = "flat"
    # the tree search's settings, for the arena's experiments and the search's own tests
    iterations = 1000  # the tree search's 1×: 0.6–0.8 s of CPU when all run (docs/ai.md)
    paired_root = True  # hidden hands and cards to come: compare moves on the same deals

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
            drawn = draw(rng, unseen, min(len(unseen), to_come * others))
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
            values.append(
                total_lead(worlds, mine, n) / (len(worlds) * len(mine))
                - keep * sum(CARD_VALUE[card] for card in action)
            )
        return values

    def budget_for(self, view: View) -> Budget:
        """The budget is for two players: a playout costs about one normal decision per
        seat and part, so larger tables imagine fewer deals."""
        samples = max(1, self.budget.samples * 2 // view["num_players"])
        if view["part"] == len(PART_SIZES):
            samples *= LAST_PART_DEALS
        return replace(self.budget, samples=samples)

    def horizon_reached(self, start: State, state: State) -> bool:
        """At the end of the round (the next one has begun), or of the game when the round
        after this one is the last."""
        if state["over"]:
            return True
        if (state["game_no"], state["round"]) == (start["game_no"], start["round"]):
            return False
        return not state["final_round"]

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        return self.standing(state, seat)

    @staticmethod
    def standing(state: State, seat: int) -> float:
        """The lead in points, counting a share of the cards in hand (kept for later); at
        the game's end, the final lead and the seat's share of the win."""
        if state["over"]:
            result = ENGINE.result(state)
            share = 1 / len(result.winners) if seat in result.winners else 0.0
            return lead([float(score) for score in result.scores], seat) + WIN_WORTH * share
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
