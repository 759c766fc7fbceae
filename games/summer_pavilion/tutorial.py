"""Summer Pavilion's tutorial: the first round of a two-player game.

The steps teach, each when it first matters: a take (every tile of one colour, and a wild
tile along with it), the centre and its first-player tile, then covering a space (as many
tiles of the star's colour as the space's number), wild tiles paying for the rest, and a
pass that keeps tiles on the corners for the next round. Between the steps the learner's
other takes are made for them (the caption says so), and the opponent's moves are the
normal AI's, written down.
"""

from __future__ import annotations

from games.core import Action
from games.summer_pavilion.engine import (
    CORNERS,
    ENGINE,
    Keep,
    Pass,
    Place,
    SummerPavilionState,
    Take,
    as_action,
    parse_action,
    round_wild,
)
from games.tutorial import LEARNER, Claim, Step, Tutorial, Why


def _source(state: SummerPavilionState, source: int) -> list[int]:
    return state["centre"] if source == 0 else state["factories"][source - 1]


# -- the captions' claims ------------------------------------------------------------------
def with_wild(state: SummerPavilionState, move: Action) -> bool:
    """A take from a factory of a colour that is not wild, where a wild tile lies too."""
    take = as_action(move)
    wild = round_wild(state)
    return (
        isinstance(take, Take)
        and take.source > 0
        and take.colour != wild
        and _source(state, take.source)[wild] > 0
    )


def takes_first_tile(state: SummerPavilionState, move: Action) -> bool:
    take = as_action(move)
    return isinstance(take, Take) and take.source == 0 and state["first_player_tile"] < 0


def places_plain(state: SummerPavilionState, move: Action) -> bool:
    """A placement paid with tiles of its colour only."""
    place = as_action(move)
    return (
        state["phase"] == "placing"
        and isinstance(place, Place)
        and place.wilds == 0
        and place.colour != round_wild(state)
    )


def places_with_wilds(state: SummerPavilionState, move: Action) -> bool:
    place = as_action(move)
    return isinstance(place, Place) and place.wilds > 0


def passes_with_tiles(state: SummerPavilionState, move: Action) -> bool:
    """A pass with tiles still in hand (some may wait on the corners), none of which can
    cover a space any more."""
    return (
        isinstance(as_action(move), Pass)
        and sum(state["hands"][LEARNER]) > 0
        and not any(isinstance(a, Place) for a in ENGINE.legal_actions(state, LEARNER))
    )


def keeps(state: SummerPavilionState, move: Action) -> bool:
    return isinstance(as_action(move), Keep) and sum(state["corners"][LEARNER]) < CORNERS


PREDICATES = {
    "with_wild": with_wild,
    "takes_first_tile": takes_first_tile,
    "places_plain": places_plain,
    "places_with_wilds": places_with_wilds,
    "passes_with_tiles": passes_with_tiles,
    "keeps": keeps,
}


def why(state: SummerPavilionState, taught: Action, pressed: Action) -> Why:
    lesson, move = as_action(taught), parse_action(pressed)
    if move is None or (type(move) is not type(lesson) and not isinstance(lesson, Place)):
        return Why("not_now")
    if isinstance(move, Take):
        return Why("other_take", {"colour": lesson.colour})
    if isinstance(lesson, Place):
        if isinstance(move, Pass):
            return Why("place_first")
        if not isinstance(move, Place):
            return Why("not_now")
        if lesson.wilds and not move.wilds:
            return Why("use_wilds")
        if move.wilds and not lesson.wilds:
            return Why("save_wilds")
        return Why("other_space", {"star": lesson.star, "space": lesson.space})
    if isinstance(move, Keep):
        return Why("keep_other", {"colour": lesson.colour})
    return Why("not_now")


RULES = ("not_now", "other_take", "place_first", "use_wilds", "save_wilds", "other_space",
         "keep_other")  # fmt: skip

TUTORIAL = Tutorial(
    game="summer_pavilion",
    players=2,
    seed=0,
    steps=(
        Step("take", (0, 1, 2), (Claim("with_wild"),), ((1, (0, 5, 5)),)),
        Step(
            "centre",
            (0, 0, 1),
            (Claim("takes_first_tile"),),
            (
                (1, (0, 2, 4)),
                (0, (0, 0, 2)),
                (1, (0, 0, 3)),
                (0, (0, 3, 2)),
                (1, (0, 0, 3)),
                (0, (0, 0, 4)),
            ),
        ),
        Step("place", (1, 0, 1, 1, 0), (Claim("places_plain"),), ((1, (1, 3, 6, 5, 2)),)),
        Step(
            "wild",
            (1, 0, 2, 2, 1),
            (Claim("places_with_wilds"),),
            (
                (1, (1, 1, 1, 0, 0)),
                (0, (1, 0, 3, 0, 0)),
                (1, (1, 5, 1, 3, 0)),
                (0, (1, 2, 1, 2, 0)),
                (1, (1, 5, 2, 3, 1)),
                (0, (1, 4, 1, 4, 0)),
                (1, (1, 4, 1, 4, 0)),
            ),
        ),
        Step("pass", (2,), (Claim("passes_with_tiles"),), ()),
        Step("keep", (4, 2), (Claim("keeps"),), ()),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    opening=((1, (0, 4, 5)),),
)
