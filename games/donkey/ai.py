"""Who's the Donkey? AI: a card-shedding heuristic for the normal level, playouts to the
end of the hand for hard.

The normal player gets rid of penalty points. It leads the donkey whenever it may; as a
leader it plays its biggest sets, low values first (high cards can still be shed when
following, low ones only when leading), and gladly fills a set with jokers; as a
follower it plays whenever it can beat, shedding the most points; in a donkey round it
sheds the costliest card that cannot be the highest, or the one least likely to be.
"""

from __future__ import annotations

import random

from games.ai.base import Budget, GameAI
from games.core import Action, State, View
from games.donkey.engine import (
    DONKEY,
    ENGINE,
    JOKER,
    JOKER_IN_DONKEY_ROUND,
    K_DONKEY,
    K_PASS,
    PENALTY_DONKEY,
    PENALTY_JOKER,
    SLOTS,
    card_worth_in_donkey_round,
    cards_of,
    hand_of,
    penalty,
    pending_move,
    public_plays,
)
from games.donkey.sampling import sample_state

LEAD_DONKEY_VALUE = 1000.0  # leading the donkey sheds 20 points at no risk: always
EMPTY_HAND_BONUS = 60.0  # a play that empties the hand ends it with no penalty
LEAD_CARD = 8.0  # each card a lead sheds (a big lead is also hard to beat)
LEAD_RANK = 0.6  # per rank of a lead: low cards are only shed by leading them
FOLLOW_PLAY = 4.0  # beating rather than passing (the round may bring the lead)
JOKER_KEEP = 6.0  # a joker is a flexible card: spending one costs this much
TAKE_COST = PENALTY_DONKEY + 10  # taking a donkey round: the donkey and the cards
RELATIVE_SHARE = 0.3  # evaluation: the others' mean penalty counts this much


def card_penalty(card: int) -> int:
    if card == JOKER:
        return PENALTY_JOKER
    return PENALTY_DONKEY if card == DONKEY else card


def set_penalty(value: int, count: int, jokers: int) -> int:
    if value == JOKER:
        return PENALTY_JOKER * count
    return value * (count - jokers) + PENALTY_JOKER * jokers


class DonkeyAI(GameAI):
    engine = ENGINE
    budget = Budget(candidates=5, samples=6, rollout_moves=300)
    iterations = 600  # the tree search's 1×: 0.6–0.8 s of CPU when all run (docs/ai.md)
    paired_root = True  # hidden hands and cards to come: compare moves on the same deals
    lower_is_better = True

    def sample(self, view: View, seat: int, rng: random.Random) -> State:
        return sample_state(view, seat, rng)

    def playout_view(self, state: State, seat: int) -> View:
        """The keys :meth:`action_values` reads: the plays only in a donkey round."""
        pending = pending_move(state)
        view = {
            "num_players": state["num_players"],
            "pending": pending,
            "hand": cards_of(hand_of(state, seat)),
        }
        if pending == "donkey_card":
            view["plays"] = public_plays(state["plays"])
        return view

    def action_values(
        self, view: View, seat: int, legal: list[Action], rng: random.Random
    ) -> list[float]:
        hand = view["hand"]
        size = len(hand)
        if view["pending"] == "donkey_card":
            return self.donkey_card_values(view, legal)
        following = view["pending"] == "follow"
        values = []
        for action in legal:
            kind = action[0]
            if kind == K_PASS:
                values.append(0.0)
            elif kind == K_DONKEY:
                values.append(LEAD_DONKEY_VALUE)
            else:
                _, value, count, jokers = action
                shed = set_penalty(value, count, jokers) - JOKER_KEEP * jokers
                if following:
                    worth = FOLLOW_PLAY + shed
                else:
                    rank = value if value != JOKER else JOKER
                    worth = LEAD_CARD * count + shed - LEAD_RANK * rank
                if count == size:
                    worth += EMPTY_HAND_BONUS
                values.append(worth)
        return values

    @staticmethod
    def donkey_card_values(view: View, legal: list[Action]) -> list[float]:
        """One card each, the highest takes everything (the last of equal highest): a card
        below the highest so far is safe, and so is one worth 1 when someone plays after
        it (they cannot go lower); otherwise the risk grows with the card's worth."""
        plays = view["plays"]
        top = max(
            (card_worth_in_donkey_round(play["value"]) for play in plays[1:]),
            default=0,
        )
        after = view["num_players"] - len(plays) - 1
        on_table = sum(card_penalty(card) for play in plays for card in play["cards"])
        values = []
        for _, card in legal:
            worth = card_worth_in_donkey_round(card)
            shed = card_penalty(card)
            if worth < top or (after and worth == JOKER_IN_DONKEY_ROUND):
                risk = 0.0
            elif not after:
                risk = 1.0
            else:
                risk = ((worth - 1) / 13) ** after * 0.5 + 0.5 * (worth - 1) / 13
            values.append((1 - risk) * shed - risk * (TAKE_COST + on_table))
        return values

    def horizon_reached(self, start: State, state: State) -> bool:
        return state["hand_no"] != start["hand_no"] or state["over"]

    def evaluate(self, start: State, state: State, seat: int, rng: random.Random) -> float:
        """Minus the penalty of this hand (a finished hand's, or the cards still held),
        plus a share of the others' mean: a cheap hand for me, a dear one for them."""
        n = state["num_players"]
        if len(state["history"]) > len(start["history"]):
            penalties = state["history"][len(start["history"])]
        else:
            hands = state["hands"]
            penalties = [penalty(hands[s * SLOTS : (s + 1) * SLOTS]) for s in range(n)]
        others = (sum(penalties) - penalties[seat]) / (n - 1)
        return -penalties[seat] + RELATIVE_SHARE * others


AI = DonkeyAI()
