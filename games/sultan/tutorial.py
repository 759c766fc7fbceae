"""Sultan's tutorial: the first circles of a two-player game.

The steps teach, each when it first matters: the start player's gem sent back, the
face-down bid at the first bid, two cards on two cushions (two players), the reveal (the
highest card wins, every card is spent), and a hand that must last the round. The
opponent's moves are the normal AI's, written down.
"""

from __future__ import annotations

from games.core import Action
from games.sultan.engine import (
    BONUS_2_PLAYERS,
    CARD_SLOTS,
    Bid,
    Return,
    SultanState,
    as_action,
    bid_indices,
    cards_of,
    gems_of,
)
from games.tutorial import LEARNER, Claim, Step, Tutorial, Why


def _hand(state: SultanState) -> list[int]:
    return cards_of(state["hands"], LEARNER)


def _my_cushions(state: SultanState) -> list[int]:
    return [state["bid_cushions"][index] for index in bid_indices(state, LEARNER)]


# -- the captions' claims ------------------------------------------------------------------
def returns_cheapest(state: SultanState, move: Action) -> bool:
    """The learner starts the circle and sends back the cheapest drawn gem."""
    gem = as_action(move)
    return state["phase"] == "return" and gem.gem == min(state["drawn"])


def first_bid(state: SultanState, move: Action) -> bool:
    """The first bid of the game, on the most valuable cushion, with the highest card."""
    bid = as_action(move)
    return (
        not any(state["spent"])
        and not state["bid_cushions"]
        and state["cushions"][bid.cushion] == max(state["cushions"])
        and bid.value == max(_hand(state))
    )


def second_cushion(state: SultanState, move: Action) -> bool:
    """The learner already has a card on another cushion this circle."""
    mine = _my_cushions(state)
    return len(mine) == 1 and mine[0] != as_action(move).cushion


def won_gems(state: SultanState, move: Action) -> bool:
    """A circle was revealed: the learner holds a gem, and spent cards are out."""
    return sum(gems_of(state["gems"], LEARNER)) > 0 and any(state["spent"])


def opponent_starts(state: SultanState, move: Action) -> bool:
    return state["start"] != LEARNER


def highest_on_best(state: SultanState, move: Action) -> bool:
    """The learner's highest card on the most valuable gem."""
    bid = as_action(move)
    return state["cushions"][bid.cushion] == max(state["cushions"]) and bid.value == max(
        _hand(state)
    )


def lowest_card(state: SultanState, move: Action) -> bool:
    return as_action(move).value == min(_hand(state))


def on_cheapest(state: SultanState, move: Action) -> bool:
    """The bid goes on the cheapest gem the learner may still bid on."""
    open_cushions = [c for c in range(len(state["cushions"])) if c not in _my_cushions(state)]
    return state["cushions"][as_action(move).cushion] == min(
        state["cushions"][c] for c in open_cushions
    )


def unbid_returned(state: SultanState, move: Action) -> bool:
    """The last reveal sent a gem nobody bid on back to the bag."""
    reveals = [event for event in state["log"] if event["type"] == "reveal"]
    last = [e for e in reveals if reveals and (e["round"], e["circle"]) ==
            (reveals[-1]["round"], reveals[-1]["circle"])]  # fmt: skip
    return any(event["returned"] for event in last)


def two_player_bonus(state: SultanState, move: Action, *table: int) -> bool:
    """Two players, and their bonus table is ``table`` (count, bonus, count, bonus…)."""
    pairs = dict(zip(table[::2], table[1::2], strict=True))
    return state["num_players"] == 2 and pairs == BONUS_2_PLAYERS


def any_move(state: SultanState, move: Action) -> bool:
    return True


def low_on_cheapest(state: SultanState, move: Action) -> bool:
    return second_cushion(state, move) and on_cheapest(state, move) and lowest_card(state, move)


def low_on_second(state: SultanState, move: Action) -> bool:
    return second_cushion(state, move) and lowest_card(state, move)


PREDICATES = {
    "unbid_returned": unbid_returned,
    "two_player_bonus": two_player_bonus,
    "any_move": any_move,
    "low_on_cheapest": low_on_cheapest,
    "low_on_second": low_on_second,
    "returns_cheapest": returns_cheapest,
    "first_bid": first_bid,
    "second_cushion": second_cushion,
    "won_gems": won_gems,
    "lowest_card": lowest_card,
    "opponent_starts": opponent_starts,
    "highest_on_best": highest_on_best,
    "on_cheapest": on_cheapest,
}


def why(state: SultanState, taught: Action, pressed: Action, goal: str | None = None) -> Why:
    lesson = as_action(taught)
    try:
        move = as_action(pressed)
    except ValueError:
        return Why("not_now")
    if type(move) is not type(lesson):
        return Why("not_now")
    if isinstance(move, Return):
        if move.gem not in state["drawn"]:
            return Why("not_now")
        return Why("return_cheapest", {"gem": lesson.gem})
    assert isinstance(move, Bid) and isinstance(lesson, Bid)
    if not 0 <= move.cushion < len(state["cushions"]):
        return Why("not_now")
    if move.cushion in _my_cushions(state):
        return Why("two_cushions")
    if not 0 < move.value < CARD_SLOTS or not state["hands"][LEARNER * CARD_SLOTS + move.value]:
        return Why("no_card", {"value": move.value})
    if goal in ("low_on_cheapest", "low_on_second") and move.value > min(_hand(state)):
        return Why("save_card", {"value": move.value})
    if move.cushion != lesson.cushion:
        gem = state["cushions"][lesson.cushion]
        if goal == "low_on_cheapest":
            return Why("cheapest", {"gem": gem, "number": lesson.cushion + 1})
        return Why("other_cushion", {"gem": gem, "number": lesson.cushion + 1})
    if move.value < lesson.value:
        return Why("too_low", {"value": move.value})
    return Why("save_card", {"value": move.value})


RULES = ("cheapest", "not_now", "return_cheapest", "two_cushions", "no_card", "other_cushion",
         "too_low", "save_card")  # fmt: skip

SYLLABUS = {  # the rules a first game needs -> the heading of docs/rules/sultan.md
    "goal": "Scoring",
    "return_gem": "Structure (3–5 players)",
    "face_down": "Structure (3–5 players)",
    "two_cushions": "Two players",
    "spent": "Structure (3–5 players)",
    "highest_wins": "Structure (3–5 players)",
    "tie_start_player": "Two players",
    "hand_lasts": "Two players",
    "unbid": "Structure (3–5 players)",
    "bonus": "Two players",
    "game_end": "Two players",
    "winner": "Scoring",
}

TUTORIAL = Tutorial(
    game="sultan",
    players=2,
    seed=0,
    steps=(
        Step(
            "return",
            (0, 0),
            (Claim("returns_cheapest"),),
            (),
            goal="returns_cheapest",
            teaches=("goal", "return_gem"),
        ),
        Step(
            "bid",
            (1, 2, 12),
            (Claim("first_bid"),),
            ((1, (1, 2, 11)),),
            goal="first_bid",
            teaches=("face_down",),
        ),
        Step(
            "second",
            (1, 0, 2),
            (
                Claim("second_cushion"),
                Claim("on_cheapest"),
                Claim("lowest_card"),
            ),
            (
                (1, (1, 1, 1)),
                (1, (0, 0)),
                (1, (1, 2, 9)),
            ),
            goal="low_on_cheapest",
            teaches=("two_cushions", "spent"),
        ),
        Step(
            "reveal",
            (1, 2, 12),
            (
                Claim("opponent_starts"),
                Claim("highest_on_best"),
                Claim("won_gems"),
            ),
            ((1, (1, 1, 1)),),
            goal="highest_on_best",
            teaches=("highest_wins", "tie_start_player"),
        ),
        Step(
            "last",
            (1, 1, 4),
            (
                Claim("second_cushion"),
                Claim("lowest_card"),
            ),
            (),
            goal="low_on_second",
            teaches=("hand_lasts",),
        ),
        Step(
            "unbid",
            (0, 0),
            (Claim("unbid_returned"), Claim("returns_cheapest")),
            (),
            goal="returns_cheapest",
            teaches=("unbid",),
        ),
        Step(
            "alone",
            (1, 0, 10),
            (Claim("two_player_bonus", (4, 2, 5, 5, 6, 10, 7, 20)),),
            (),
            goal="any_move",
            teaches=("bonus", "game_end", "winner"),
        ),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    syllabus=SYLLABUS,
)
