"""The 5211 engine. Rules: ``docs/rules/5211.md``.

Cards are ints: ``colour * 6 + rank`` with ranks 0..5 worth 1 (the rooster), 2, 3, 4, 5, 6.
Every hand and choice is a sorted list of card codes, so equal cards are interchangeable
and the legal choices are unique multisets. There is one kind of action, :data:`Choice`:
the cards a seat chooses for the current part, sorted (two in part 1, one in parts 2 and
3) — a tuple of card codes rather than a record of named fields.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import chain, combinations, compress, filterfalse
from operator import add, not_
from typing import Any, Literal, NotRequired, TypedDict

from games.core import (
    Action,
    BaseState,
    Engine,
    GameOptions,
    IllegalAction,
    InvariantViolation,
    Result,
    draw_rng,
    rank_by,
    shuffle,
)

COLOURS = ("blue", "yellow", "orange", "green", "turquoise")
RANK_VALUES = (1, 2, 3, 4, 5, 6)
RANK_COPIES = (5, 6, 5, 2, 1, 1)  # per colour: five roosters, six 2s, five 3s, two 4s, 5, 6
HAND_SIZE = 5
PART_SIZES = (2, 1, 1)  # cards chosen in parts 1, 2 and 3 of a round
REMOVED_BY_PLAYERS = {2: 10, 3: 13, 4: 0, 5: 15}
FULL_DECK = sorted(
    colour * 6 + rank
    for colour in range(len(COLOURS))
    for rank, copies in enumerate(RANK_COPIES)
    for _ in range(copies)
)


def colour_of(card: int) -> int:
    return card // 6


def value_of(card: int) -> int:
    return RANK_VALUES[card % 6]


def is_rooster(card: int) -> bool:
    return card % 6 == 0


Choice = tuple[int, ...]  # the only kind of action: the chosen card codes, sorted


def as_action(action: Sequence[int]) -> Choice:
    """The cards of a plain action tuple (a button's data), as a :data:`Choice`."""
    return tuple(action)


# The same facts looked up by card code: scoring runs once a round, in every game.
CARD_COLOURS = tuple(colour_of(card) for card in range(len(COLOURS) * 6))
CARD_VALUES = tuple(value_of(card) for card in range(len(COLOURS) * 6))
CARD_IS_ROOSTER = tuple(int(is_rooster(card)) for card in range(len(COLOURS) * 6))
# Which cards score in a round won by a colour (by card code), or when nothing scores.
COLOUR_SCORES = tuple(
    tuple(int(CARD_COLOURS[card] == colour) for card in range(len(COLOURS) * 6))
    for colour in range(len(COLOURS))
)
NOTHING_SCORES = (0,) * (len(COLOURS) * 6)
COLOUR_CODES = range(len(COLOURS))


def rooster_count(cards: list[int]) -> int:
    return sum(map(CARD_IS_ROOSTER.__getitem__, cards))


def colour_counts(cards: list[int]) -> Counter[int]:
    """How many of ``cards`` each colour has (colours without a card left out)."""
    return Counter(map(CARD_COLOURS.__getitem__, cards))


def points_of(cards: list[int]) -> int:
    return sum(map(CARD_VALUES.__getitem__, cards))


def rooster_threshold(num_players: int) -> int:
    """Roosters on the table needed for a rooster round (rulebook: "equal or greater")."""
    return num_players + 2


SEATS = range(max(REMOVED_BY_PLAYERS))  # the seat numbers of the largest table (five)


@cache
def waiting_seats(waiting: tuple[bool, ...]) -> frozenset[int]:
    """The seats whose ``waiting`` is true: ``to_act`` while the seats choose, one set for
    each of the few patterns (made once)."""
    return frozenset(compress(SEATS, waiting))


def colour_limit(num_players: int) -> int:
    """A colour with more cards than this is eliminated (exactly the limit still scores)."""
    return num_players + 3


# -- state and view --------------------------------------------------------------------------
class State5211(BaseState):
    game_no: int  # the game of a long match, from 1
    match_points: list[int]  # [seat]: long variant, points of the finished games
    match_cards: list[int]  # [seat]: long variant, cards scored in them (the tie-break)
    over: bool
    removed: list[int]  # cards set aside unseen at the deal, sorted
    hands: list[list[int]]  # [seat]: card codes, sorted
    deck: list[int]  # the draw pile; its end is the top
    round: int
    part: int  # 1..3: 2, 1 and 1 cards chosen
    final_round: bool  # the pile is empty: no refills, the last card of a hand is discarded
    chosen: list[list[int] | None]  # [seat]: the hidden choice of this part; None: not yet
    table: list[list[int]]  # [seat]: face-up cards of this round
    piles: list[list[int]]  # [seat]: cards scored in this game
    discard: list[int]


class View5211(TypedDict):
    """The public view; a seat's view adds its ``hand`` and its ``chosen`` cards."""

    game: str
    num_players: int
    options: dict[str, Any]
    game_no: int
    round: int
    part: int
    part_size: int  # cards to choose in this part
    final_round: bool
    deck_size: int
    hand_sizes: list[int]
    ready: list[bool]  # [seat]: has chosen for this part
    table: list[list[int]]  # [seat]: face-up cards of this round
    points: list[int]  # [seat]: this game's points so far (public: scored face up)
    pile_sizes: list[int]
    match_points: list[int]
    log: list[dict[str, Any]]
    over: bool
    hand: NotRequired[list[int]]
    chosen: NotRequired[list[int] | None]


class Options5211(GameOptions):
    # 0 = a single game; 50 or 100 = the long variant, a match played to that many points.
    match_target: Literal[0, 50, 100] = 0


def score_round(table: list[list[int]], num_players: int) -> dict:
    """Score one round from the face-up cards in front of each seat.

    Returns a public event: which rule applied (``roosters``, ``colour`` or ``none``), the
    colours eliminated over the limit or by a tie, and each seat's scored cards and points.
    """
    cards = list(chain.from_iterable(table))
    roosters = rooster_count(cards)
    over_limit: list[int] = []
    tied: list[list[int]] = []
    winner: int | None = None
    if roosters >= rooster_threshold(num_players):
        mode = "roosters"
        scores = CARD_IS_ROOSTER
    else:
        limit = colour_limit(num_players)
        colours = list(map(CARD_COLOURS.__getitem__, cards))
        counts = list(map(colours.count, COLOUR_CODES))  # cards of each colour
        for top in sorted(set(counts), reverse=True):  # the most common colours first
            if not top:
                break
            leaders = [colour for colour in COLOUR_CODES if counts[colour] == top]
            if top > limit:
                over_limit.extend(leaders)
            elif len(leaders) > 1:
                tied.append(leaders)
            else:
                winner = leaders[0]
                break
        mode = "none" if winner is None else "colour"
        scores = NOTHING_SCORES if winner is None else COLOUR_SCORES[winner]
    scoring = [list(compress(cards, map(scores.__getitem__, cards))) for cards in table]
    return {
        "type": "round_scored",
        "mode": mode,
        "roosters": roosters,
        "colour": winner,
        "over_limit": over_limit,
        "tied": tied,
        "scored": scoring,
        "points": list(map(points_of, scoring)),
    }


class Engine5211(Engine[State5211, View5211]):
    id = "5211"
    min_players = 2
    max_players = 5
    Options = Options5211

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, state: State5211, options: GameOptions) -> None:
        n = state["num_players"]
        state.update(
            {
                "game_no": 1,
                "match_points": [0] * n,  # long variant: totals of finished games
                "match_cards": [0] * n,  # long variant: cards scored in finished games (tie-break)
                "log": [],
                "over": False,
            }
        )
        self._deal(state)

    def _deal(self, state: State5211) -> None:
        n = state["num_players"]
        deck = list(FULL_DECK)
        shuffle(draw_rng(state), deck)
        removed = REMOVED_BY_PLAYERS[n]
        state["removed"] = sorted(deck[:removed])
        deck = deck[removed:]
        state["hands"] = [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(n)]
        state["deck"] = deck[n * HAND_SIZE :]  # the draw pile; its end is the top
        state["round"] = 1
        state["part"] = 1
        state["final_round"] = False
        state["chosen"] = [None] * n  # hidden choices of the current part
        state["table"] = [[] for _ in range(n)]  # face-up cards of the current round
        state["piles"] = [[] for _ in range(n)]  # scored cards of the current game
        state["discard"] = []

    # -- play ----------------------------------------------------------------------------
    def to_act(self, state: State5211) -> frozenset[int]:
        if state["over"]:
            return frozenset()
        return waiting_seats(tuple(map(not_, state["chosen"])))  # None: not chosen yet

    def part_size(self, state: State5211) -> int:
        return PART_SIZES[state["part"] - 1]

    def legal_actions(self, state: State5211, seat: int) -> list[Choice]:
        if state["over"] or state["chosen"][seat] is not None:
            return []
        # The hand is sorted, so its combinations, without repeats, come out sorted.
        return list(
            dict.fromkeys(combinations(state["hands"][seat], PART_SIZES[state["part"] - 1]))
        )

    def is_legal(self, state: State5211, seat: int, action: Action) -> bool:
        """Exactly ``action in legal_actions(state, seat)``, without listing them: sorted
        cards of the hand, as many as the part asks for (two or one)."""
        if state["over"] or not 0 <= seat < state["num_players"]:
            return False
        if state["chosen"][seat] is not None or len(action) != PART_SIZES[state["part"] - 1]:
            return False
        hand = state["hands"][seat]
        if len(action) == 1:
            return action[0] in hand
        first, second = action
        if first == second:
            return hand.count(first) >= 2
        return first < second and first in hand and second in hand

    # Moves never change a list of the state they are given: they put new lists in a shallow
    # copy (copy-on-write), so a choice costs a hand and the choices, not the whole state.
    def _next_state(self, state: State5211, seat: int, action: Action) -> State5211:
        new = state.copy()
        hands = new["hands"] = state["hands"][:]
        hand = hands[seat] = hands[seat][:]
        for card in action:
            hand.remove(card)
        chosen = new["chosen"] = state["chosen"][:]
        chosen[seat] = list(action)
        if None not in chosen:
            self._reveal(new)
        return new

    def _reveal(self, state: State5211) -> None:
        n = state["num_players"]
        chosen = state["chosen"]
        state["log"] = [
            *state["log"],
            {
                "type": "revealed",
                "game_no": state["game_no"],
                "round": state["round"],
                "part": state["part"],
                "cards": chosen,
            },
        ]
        state["table"] = list(map(add, state["table"], chosen))  # all have chosen (lists)
        state["chosen"] = [None] * n
        if not state["final_round"]:
            self._refill(state)
        if state["part"] < len(PART_SIZES):
            state["part"] += 1
            return
        self._score_round(state)

    def _refill(self, state: State5211) -> None:
        """Each hand draws up to five from the top of the pile (its end), seat by seat."""
        deck = state["deck"]
        top = len(deck)
        hands = []
        for hand in state["hands"]:
            need = HAND_SIZE - len(hand)
            if need > top:
                raise InvariantViolation("5211: the draw pile ran short in the middle of a refill")
            hands.append(sorted(hand + deck[top - need : top]))
            top -= need
        state["hands"] = hands
        state["deck"] = deck[:top]

    def _score_round(self, state: State5211) -> None:
        n = state["num_players"]
        event = score_round(state["table"], n)
        event.update(game_no=state["game_no"], round=state["round"])
        discard = state["discard"][:]
        for cards, scored in zip(state["table"], event["scored"], strict=True):
            discard += filterfalse(scored.__contains__, cards)  # all copies of a card score
        state["discard"] = discard
        state["piles"] = list(map(add, state["piles"], event["scored"]))
        state["table"] = [[] for _ in range(n)]
        event["totals"] = self.game_points(state)
        state["log"] = [*state["log"], event]
        if state["final_round"]:
            self._end_game(state)
            return
        state["round"] += 1
        state["part"] = 1
        state["final_round"] = not state["deck"]

    def _end_game(self, state: State5211) -> None:
        n = state["num_players"]
        # the last card in each hand is discarded
        state["discard"] = state["discard"] + [card for hand in state["hands"] for card in hand]
        state["hands"] = [[] for _ in range(n)]
        points = self.game_points(state)
        state["match_points"] = [
            total + gained for total, gained in zip(state["match_points"], points, strict=True)
        ]
        state["match_cards"] = [
            total + len(pile)
            for total, pile in zip(state["match_cards"], state["piles"], strict=True)
        ]
        target = state["options"]["match_target"]
        state["log"] = [
            *state["log"],
            {
                "type": "game_ended",
                "game_no": state["game_no"],
                "points": points,
                "cards": [len(pile) for pile in state["piles"]],
                "match_points": list(state["match_points"]),
            },
        ]
        if not target or max(state["match_points"]) >= target:
            state["over"] = True
            return
        state["game_no"] += 1
        self._deal(state)

    # -- scores --------------------------------------------------------------------------
    def game_points(self, state: State5211) -> list[int]:
        return list(map(points_of, state["piles"]))

    def is_over(self, state: State5211) -> bool:
        return state["over"]

    def result(self, state: State5211) -> Result:
        if state["options"]["match_target"]:
            scores = list(state["match_points"])
            cards = list(state["match_cards"])
        else:
            scores = self.game_points(state)
            cards = [len(pile) for pile in state["piles"]]
        return Result(
            scores=scores,
            ranks=rank_by([(score, count) for score, count in zip(scores, cards, strict=True)]),
            details={"cards": cards},
        )

    # -- information ---------------------------------------------------------------------
    def view(self, state: State5211, seat: int | None) -> View5211:
        view: View5211 = {
            "game": self.id,
            "num_players": state["num_players"],
            "options": state["options"],
            "game_no": state["game_no"],
            "round": state["round"],
            "part": state["part"],
            "part_size": self.part_size(state),
            "final_round": state["final_round"],
            "deck_size": len(state["deck"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "ready": [chosen is not None for chosen in state["chosen"]],
            "table": state["table"],
            "points": self.game_points(state),
            "pile_sizes": [len(pile) for pile in state["piles"]],
            "match_points": state["match_points"],
            "log": state["log"],
            "over": state["over"],
        }
        if seat is not None:
            view["hand"] = state["hands"][seat]
            view["chosen"] = state["chosen"][seat]
        return view

    def default_action(self, state: State5211, seat: int) -> Choice:
        """The cheapest cards in hand: an absent player gives away as little as possible."""
        hand = sorted(state["hands"][seat], key=lambda card: (value_of(card), card))
        if state["chosen"][seat] is not None or state["over"]:
            raise IllegalAction(f"5211: seat {seat} has no move")
        return tuple(sorted(hand[: self.part_size(state)]))

    # -- testing -------------------------------------------------------------------------
    def check_invariants(self, state: State5211) -> None:
        n = state["num_players"]
        everywhere = (
            state["deck"]
            + state["removed"]
            + state["discard"]
            + [card for hand in state["hands"] for card in hand]
            + [card for chosen in state["chosen"] if chosen for card in chosen]
            + [card for cards in state["table"] for card in cards]
            + [card for pile in state["piles"] for card in pile]
        )
        if sorted(everywhere) != FULL_DECK:
            raise InvariantViolation("5211: the 100 cards are not all accounted for")
        if len(state["removed"]) != REMOVED_BY_PLAYERS[n]:
            raise InvariantViolation("5211: wrong number of removed cards")
        for seat in range(n):
            played = len(state["table"][seat]) + len(state["chosen"][seat] or [])
            expected_played = sum(PART_SIZES[: state["part"] - 1])
            if state["chosen"][seat] is not None:
                expected_played += self.part_size(state)
            if not state["over"] and played != expected_played:
                raise InvariantViolation(f"5211: seat {seat} has {played} cards in play")
            hand = len(state["hands"][seat])
            if state["over"]:
                expected_hand = 0
            elif state["final_round"]:
                expected_hand = HAND_SIZE - expected_played
            else:
                expected_hand = HAND_SIZE - len(state["chosen"][seat] or [])
            if hand != expected_hand:
                raise InvariantViolation(f"5211: seat {seat} holds {hand} cards")
        if state["final_round"] != (not state["deck"]) and not state["over"]:
            raise InvariantViolation("5211: the final round must start exactly when the pile ends")

    def check_views(self, state: State5211) -> None:
        """No view may depend on another seat's hand or unrevealed choice.

        Every hidden card (hands, unrevealed choices, the pile, the removed cards) is
        reshuffled among the other seats' hidden places; each seat's view must not change,
        and the public view must not change either.
        """
        n = state["num_players"]
        for keeper in [None, *range(n)]:
            hidden = list(state["deck"]) + list(state["removed"])
            for seat in range(n):
                if seat != keeper:
                    hidden += state["hands"][seat] + (state["chosen"][seat] or [])
            shuffled = sorted(hidden, reverse=True)
            if shuffled == sorted(hidden):
                continue  # every hidden card alike: nothing could leak
            other: State5211 = {
                **state,
                "deck": [],
                "removed": [],
                "hands": list(state["hands"]),
                "chosen": list(state["chosen"]),
            }
            for seat in range(n):
                if seat == keeper:
                    continue
                size = len(state["hands"][seat])
                other["hands"][seat] = sorted(shuffled[:size])
                shuffled = shuffled[size:]
                chosen = state["chosen"][seat]
                if chosen is not None:
                    size = len(chosen)
                    other["chosen"][seat] = sorted(shuffled[:size])
                    shuffled = shuffled[size:]
            other["removed"] = sorted(shuffled[: len(state["removed"])])
            other["deck"] = shuffled[len(state["removed"]) :]
            if self.view(other, keeper) != self.view(state, keeper):
                raise InvariantViolation(f"5211: the view of seat {keeper} leaks hidden cards")


ENGINE = Engine5211()
