"""Sultan AI: bid what a gem is worth (normal), playouts to the end of the round (hard),
valued with two players by the final points the gems held then foresee (round_values),
over deals that make the others' face-down bids likely (bid_belief).

A gem's worth to a seat is its value plus what it adds to that seat's set bonus (and a
share of the next step). The normal player weighs each bid by the chance that the card
wins the cushion — against the cards the others may put there, drawn from the cards they
have not spent, on the cushions that matter to them — times the gem's worth to it plus
the worth it denies the others, less the card's worth for later cushions. As the start
player it sends back the gem that helps the others most against itself.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import cache

from games.ai.base import Budget, GameAI
from games.core import Action, State, View
from games.sultan.bid_belief import likely_state
from games.sultan.engine import (
    ENGINE,
    GEM_VALUES,
    NUM_COLOURS,
    SETUPS,
    gems_of,
    public_bids,
    score_gems,
    set_bonus,
    spent_cards,
)
from games.sultan.round_values import PLAYERS, expected_points
from games.sultan.sampling import sample_state, unspent, won_gems

NEXT_STEP_SHARE = 0.3  # a gem's worth includes this share of the bonus step after it
DENIAL_SHARE = 0.8  # a gem won is also a gem the best placed other seat does not get
CARD_COST = 0.3  # points a card's value is worth as strength for the later cushions
POTENTIAL_SHARE = 0.5  # evaluation: share of the next bonus step a set already promises


def gem_worth(counts: list[int], colour: int, num_players: int) -> float:
    return worth_with(counts[colour], colour, num_players)


@cache  # a few hundred (count, colour, players) and the search asks millions of times
def worth_with(have: int, colour: int, num_players: int) -> float:
    """A gem's worth to a seat that holds ``have`` of its colour."""
    step = set_bonus(have + 1, num_players) - set_bonus(have, num_players)
    after = set_bonus(have + 2, num_players) - set_bonus(have + 1, num_players)
    return GEM_VALUES[colour] + step + NEXT_STEP_SHARE * after


def beat_chance(pool: list[int], value: int, ties_beat: bool) -> float:
    """The chance that a card drawn from ``pool`` (sorted) beats ``value`` (or ties, if a
    tie goes to that card)."""
    if not pool:
        return 0.0
    weaker = bisect_left(pool, value) if ties_beat else bisect_right(pool, value)
    return (len(pool) - weaker) / len(pool)


class SultanAI(GameAI):
    engine = ENGINE
    budget = Budget(candidates=8, samples=12)
    iterations = 700  # the tree search's 1×: 0.6–0.8 s of CPU when all run (docs/ai.md)
    paired_root = True  # hidden hands and cards to come: compare moves on the same deals

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        return sample_state(view, seat, rng)

    def search_sample(self, view: View, seat: int, rng: random.Random) -> State:
        """A deal weighed by how likely it makes the others' face-down bids
        (:mod:`games.sultan.bid_belief`)."""
        return likely_state(view, seat, rng, self.action_values, self.playout_view)

    def playout_view(self, state: State, seat: int) -> View:
        """The keys :meth:`action_values` reads (and :func:`won_gems`, :func:`unspent`)."""
        return {
            "num_players": state["num_players"],
            "phase": state["phase"],
            "start": state["start"],
            "cushions": state["cushions"],
            "bids": public_bids(state),
            "spent": spent_cards(state),
            "log": state["log"],
            "my_gems": gems_of(state["gems"], seat),
        }

    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        n = view["num_players"]
        gems = won_gems(view, seat)
        others = [other for other in range(n) if other != seat]
        if view["phase"] == "return":
            values = []
            for _, colour in legal:
                mine = gem_worth(gems[seat], colour, n)
                theirs = max(gem_worth(gems[other], colour, n) for other in others)
                values.append(theirs - mine)  # send back what helps them, not me
            return values
        cushions = view["cushions"]
        swing = [
            gem_worth(gems[seat], colour, n)
            + DENIAL_SHARE * max(gem_worth(gems[other], colour, n) for other in others)
            for colour in cushions
        ]
        chance = self.win_chances(view, seat, gems)
        return [
            chance(cushion, value) * swing[cushion] - CARD_COST * value
            for _, cushion, value in legal
        ]

    @staticmethod
    def win_chances(view: View, seat: int, gems: list[list[int]]) -> Callable[[int, int], float]:
        """A function (cushion, value) -> the chance that a bid there wins it."""
        n = view["num_players"]
        setup = SETUPS[n]
        start = view["start"]
        two = n == 2
        bids = view["bids"]
        pools = {other: unspent(view, other) for other in range(n) if other != seat}
        cushions = view["cushions"]
        # later bids of the circle by other seats: each goes to a cushion it has not bid on
        # yet, the likelier the more the gem is worth to that seat
        later = []
        used = {other: {cushion for bidder, cushion in bids if bidder == other} for other in pools}
        for index in range(len(bids) + 1, len(setup.bid_order)):
            other = (start + setup.bid_order[index]) % n
            if other == seat:
                continue
            free = [c for c in range(len(cushions)) if c not in used[other]]
            worth = {c: gem_worth(gems[other], cushions[c], n) for c in free}
            total = sum(worth.values())
            later.append((other, {c: w / total for c, w in worth.items()}))
            if setup.bids_per_player > 1:
                used[other].add(max(free, key=lambda c: worth[c]))

        def chance(cushion: int, value: int) -> float:
            win = 1.0
            for bidder, where in bids:
                if bidder != seat and where == cushion:
                    # two players: the start player wins ties; else the earlier card does
                    ties = bidder == start if two else True
                    win *= 1 - beat_chance(pools[bidder], value, ties)
            for other, likely in later:
                ties = two and other == start
                win *= 1 - likely.get(cushion, 0.0) * beat_chance(pools[other], value, ties)
            return win

        return chance

    def horizon_reached(self, start: State, state: State) -> bool:
        return state["round"] != start["round"] or state["phase"] == "over"

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        n = state["num_players"]
        standings = [self.standing(state, other) for other in range(n)]
        mine = standings.pop(seat)
        return mine - max(standings)

    def search_value(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        """At a round's end with two players, the lead in final points that the gems held
        foresee (:mod:`games.sultan.round_values`); else :meth:`evaluate`."""
        if state["num_players"] != PLAYERS or state["phase"] == "over":
            return self.evaluate(start, state, seat, rng)
        finished = state["round"] - 1
        mine, theirs = gems_of(state["gems"], seat), gems_of(state["gems"], 1 - seat)
        return expected_points(finished, mine, theirs) - expected_points(finished, theirs, mine)

    @staticmethod
    def standing(state: State, seat: int) -> float:
        """The gem score, plus a share of the next bonus step while the game goes on."""
        n = state["num_players"]
        counts = gems_of(state["gems"], seat)
        score = float(score_gems(counts, n)["total"])
        if state["phase"] != "over":
            for colour in range(NUM_COLOURS):
                if counts[colour]:
                    step = set_bonus(counts[colour] + 1, n) - set_bonus(counts[colour], n)
                    score += POTENTIAL_SHARE * step
        return score


AI = SultanAI()
