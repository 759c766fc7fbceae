"""5211's tutorial: the first two rounds of a two-player game.

The steps teach, each when it first matters: a secret choice of two cards, then one and
one, revealed together; the colour with the most cards face up scores (a pair of one
colour weighs twice); a colour over the limit is out; the points of a round scored. The
opponent's choices are the normal AI's, written down (both choose at once: the opponent's
choice is applied after the learner's).
"""

from __future__ import annotations

from itertools import chain

from games.core import Action
from games.g5211.engine import (
    CARD_VALUES,
    ENGINE,
    PART_SIZES,
    RANK_VALUES,
    State5211,
    colour_limit,
    colour_of,
    is_rooster,
)
from games.tutorial import LEARNER, Claim, Step, Tutorial, Why


def _face_up(state: State5211) -> list[int]:
    return list(chain.from_iterable(state["table"]))


def _count(state: State5211, colour: int) -> int:
    return sum(colour_of(card) == colour for card in _face_up(state))


# -- the captions' claims ------------------------------------------------------------------
def pair_of_one_colour(state: State5211, move: Action) -> bool:
    return len(move) == 2 and colour_of(move[0]) == colour_of(move[1])


def leading_colour(state: State5211, move: Action) -> bool:
    """The card is of the colour with the most cards face up, which the learner has there."""
    colour = colour_of(move[0])
    counts = [_count(state, c) for c in range(5)]
    mine = [colour_of(card) for card in state["table"][LEARNER]]
    return counts[colour] == max(counts) and colour in mine


def within_limit(state: State5211, move: Action) -> bool:
    """Even with this card, its colour stays within the limit (at most 5 with two)."""
    return _count(state, colour_of(move[0])) + 1 <= colour_limit(state["num_players"])


def round_scored(state: State5211, move: Action) -> bool:
    """Round 1 was scored by its majority colour, and the learner's cards of it count."""
    scored = [event for event in state["log"] if event["type"] == "round_scored"]
    return (
        state["round"] == 2
        and len(scored) == 1
        and scored[0]["mode"] == "colour"
        and scored[0]["points"][LEARNER] > 0
    )


def rooster(state: State5211, move: Action) -> bool:
    return any(is_rooster(card) for card in move)


def numbers_are_points(state: State5211, move: Action) -> bool:
    """A card's points are its number (a rooster's: 1)."""
    return all(CARD_VALUES[card] == RANK_VALUES[card % 6] for card in range(len(CARD_VALUES)))


def ranked_by_points_then_cards(state: State5211, move: Action) -> bool:
    """The engine ranks a finished game by points, then by cards in the pile: checked on
    two made-up finishes (equal points, more cards ahead; more points ahead)."""
    tie = dict(state, piles=[[0, 1, 2], [1, 3]])  # 1 + 2 + 3 against 2 + 4
    ahead = dict(state, piles=[[0, 1], [5]])  # 1 + 2 against 6
    return ENGINE.result(tie).ranks == [1, 2] and ENGINE.result(ahead).ranks == [2, 1]


def any_move(state: State5211, move: Action) -> bool:
    return True


def leading_within_limit(state: State5211, move: Action) -> bool:
    return leading_colour(state, move) and within_limit(state, move)


PREDICATES = {
    "numbers_are_points": numbers_are_points,
    "any_move": any_move,
    "ranked_by_points_then_cards": ranked_by_points_then_cards,
    "leading_within_limit": leading_within_limit,
    "pair_of_one_colour": pair_of_one_colour,
    "leading_colour": leading_colour,
    "within_limit": within_limit,
    "round_scored": round_scored,
    "rooster": rooster,
}


def why(state: State5211, taught: Action, pressed: Action, goal: str | None = None) -> Why:
    size = PART_SIZES[state["part"] - 1]
    hand = list(state["hands"][LEARNER])
    if len(pressed) != size:
        return Why("part_size", {"count": size})
    for card in pressed:
        if card not in hand:
            return Why("not_in_hand")
        hand.remove(card)
    colour = colour_of(taught[0])
    limit = colour_limit(state["num_players"])
    for card in pressed:
        if _count(state, colour_of(card)) + list(pressed).count(card) > limit:
            return Why("over_limit", {"colour": colour_of(card), "limit": limit, "count": limit})
    if size == 2 and colour_of(pressed[0]) != colour_of(pressed[1]):
        return Why("split", {"colour": colour, "count": 2})
    return Why("other_colour", {"colour": colour})


RULES = ("part_size", "not_in_hand", "over_limit", "split", "other_colour")

SYLLABUS = {  # the rules a first game needs -> the heading of docs/rules/5211.md
    "secret_choice": "A round = three parts, all simultaneous",
    "parts": "A round = three parts, all simultaneous",
    "points": "End of the game",
    "majority": "Scoring at the end of each round",
    "limit": "Scoring at the end of each round",
    "scored": "Scoring at the end of each round",
    "roosters": "Scoring at the end of each round",
    "tie_next": "Scoring at the end of each round",
    "game_end": "End of the game",
    "winner": "End of the game",
}

TUTORIAL = Tutorial(
    game="5211",
    players=2,
    seed=3,
    steps=(
        Step(
            "pick_two",
            (19, 20),
            (Claim("pair_of_one_colour"), Claim("numbers_are_points")),
            ((1, (12, 24)),),
            goal="pair_of_one_colour",
            teaches=("secret_choice", "parts", "points"),
        ),
        Step(
            "one",
            (19,),
            (
                Claim("leading_colour"),
                Claim("within_limit"),
            ),
            ((1, (25,)),),
            goal="leading_within_limit",
            teaches=("majority",),
        ),
        Step(
            "last",
            (20,),
            (
                Claim("leading_colour"),
                Claim("within_limit"),
            ),
            ((1, (22,)),),
            goal="leading_within_limit",
            teaches=("limit",),
        ),
        Step(
            "scored",
            (20, 20),
            (
                Claim("round_scored"),
                Claim("pair_of_one_colour"),
            ),
            (),
            goal="pair_of_one_colour",
            teaches=("scored", "roosters", "tie_next"),
        ),
        Step(
            "alone",
            (26,),
            (Claim("ranked_by_points_then_cards"),),
            (),
            goal="any_move",
            teaches=("game_end", "winner"),
        ),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    syllabus=SYLLABUS,
)
