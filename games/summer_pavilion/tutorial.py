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
    Done,
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


def any_take(state: SummerPavilionState, move: Action) -> bool:
    return isinstance(as_action(move), Take)


def any_place(state: SummerPavilionState, move: Action) -> bool:
    return isinstance(as_action(move), Place)


def keeps_or_done(state: SummerPavilionState, move: Action) -> bool:
    """After a pass: a tile kept on a corner, or ✅ Done (the rest to the tower)."""
    return isinstance(as_action(move), Keep | Done)


def wild_named(state: SummerPavilionState, move: Action, colour: int) -> bool:
    """This round's wild colour is ``colour`` (round 1's is the first colour)."""
    return round_wild(state) == colour


PREDICATES.update(
    any_take=any_take, any_place=any_place, keeps_or_done=keeps_or_done, wild_named=wild_named
)


def why(
    state: SummerPavilionState, taught: Action, pressed: Action, goal: str | None = None
) -> Why:
    lesson, move = as_action(taught), parse_action(pressed)
    if move is None:
        return Why("not_now")
    if isinstance(move, Done) and isinstance(lesson, Keep):
        return Why("keep_first")
    if type(move) is not type(lesson) and not isinstance(lesson, Place):
        return Why("not_now")
    if isinstance(move, Take):
        if goal == "takes_first_tile" and move.source != 0:
            return Why("centre_first")
        if move.source > len(state["factories"]) or move.colour >= len(state["centre"]):
            return Why("not_now")  # no such source or colour: no button makes it
        if goal == "with_wild" and not with_wild(state, move):
            return Why("with_wild")
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


RULES = ("with_wild", "not_now", "other_take", "centre_first", "place_first", "use_wilds",
         "save_wilds", "other_space", "keep_other", "keep_first")  # fmt: skip

SYLLABUS = {  # the rules a first game needs -> the heading of docs/rules/summer_pavilion.md
    "take": "Phase 1: taking tiles",
    "wild_with_colour": "Phase 1: taking tiles",
    "first_player": "Phase 1: taking tiles",
    "wild_by_round": "Wild colour",
    "place_cost": "Phase 2: placing tiles",
    "wilds_pay": "Phase 2: placing tiles",
    "placement_scoring": "Phase 2: placing tiles",
    "pass": "Phase 2: placing tiles",
    "corners": "Phase 2: placing tiles",
    "end_scoring": "End (after round 6)",
    "winner": "End (after round 6)",
}

TUTORIAL = Tutorial(
    game="summer_pavilion",
    players=2,
    seed=0,
    steps=(
        Step(
            "take",
            (0, 1, 2),
            (Claim("with_wild"),),
            ((1, (0, 5, 5)),),
            goal="with_wild",
            teaches=("take", "wild_with_colour"),
        ),
        Step(
            "centre",
            (0, 0, 1),
            (Claim("takes_first_tile"),),
            ((1, (0, 2, 4)),),
            goal="takes_first_tile",
            teaches=("first_player",),
        ),
        Step(
            "more",
            (0, 0, 2),
            (Claim("wild_named", (0,)),),
            ((1, (0, 0, 3)),),
            teaches=("wild_by_round",),
        ),
        Step("again", (0, 3, 2), (Claim("any_take"),), ((1, (0, 0, 3)),), goal="any_take"),
        Step("again", (0, 0, 4), (Claim("any_take"),), goal="any_take"),
        Step(
            "place",
            (1, 0, 1, 1, 0),
            (Claim("places_plain"),),
            ((1, (1, 3, 6, 5, 2)),),
            teaches=("place_cost", "placement_scoring"),
        ),
        Step(
            "wild",
            (1, 0, 2, 2, 1),
            (Claim("places_with_wilds"),),
            ((1, (1, 1, 1, 0, 0)),),
            teaches=("wilds_pay",),
        ),
        Step(
            "cover",
            (1, 0, 3, 0, 0),
            (Claim("any_place"),),
            ((1, (1, 5, 1, 3, 0)),),
            goal="any_place",
        ),
        Step(
            "cover",
            (1, 2, 1, 2, 0),
            (Claim("any_place"),),
            ((1, (1, 5, 2, 3, 1)),),
            goal="any_place",
        ),
        Step(
            "cover",
            (1, 4, 1, 4, 0),
            (Claim("any_place"),),
            ((1, (1, 4, 1, 4, 0)),),
            goal="any_place",
        ),
        Step("pass", (2,), (Claim("passes_with_tiles"),), (), teaches=("pass",)),
        Step(
            "keep",
            (4, 2),
            (Claim("keeps"),),
            (),
            goal="keeps_or_done",
            teaches=("corners", "end_scoring", "winner"),
        ),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    syllabus=SYLLABUS,
    opening=((1, (0, 4, 5)),),
)
