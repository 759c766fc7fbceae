"""Who's the Donkey?'s tutorial: the first rounds of a three-player hand.

The steps teach, each when it first matters: a lead of equal cards, a follow of as many
higher cards, a pass, a joker completing a set, and the donkey: led, everyone plays one
card and the highest takes them all. The last two steps are the learner's own choice
among several legal moves. The opponents' moves are the normal AI's, written down, but for
two that leave the learner that choice (Bot 2's lone 7 after the donkey round, Bot 1's
pass on it).
"""

from __future__ import annotations

from games.core import Action
from games.donkey.engine import (
    DONKEY,
    JOKER,
    JOKER_IN_DONKEY_ROUND,
    JOKERS_ALONE_VALUE,
    PENALTY_DONKEY,
    PENALTY_JOKER,
    SLOTS,
    Card,
    DonkeyState,
    LeadDonkey,
    Pass,
    Play,
    as_action,
    best_play,
    is_donkey_round,
    parse_action,
)
from games.tutorial import LEARNER, Claim, Step, Tutorial, Why


def _held(state: DonkeyState, value: int) -> int:
    return state["hands"][LEARNER * SLOTS + value]


# -- the captions' claims ------------------------------------------------------------------
def leads_set(state: DonkeyState, move: Action) -> bool:
    """The learner leads two or more equal cards, no joker."""
    play = as_action(move)
    return not state["plays"] and isinstance(play, Play) and play.size >= 2 and not play.jokers


def beats(state: DonkeyState, move: Action) -> bool:
    """A follow: as many cards as the lead, of a higher value, no joker."""
    play = as_action(move)
    best = best_play(state["plays"])
    return (
        bool(state["plays"])
        and not is_donkey_round(state["plays"])
        and isinstance(play, Play)
        and best is not None
        and play.value > best[2]
        and not play.jokers
    )


def may_pass(state: DonkeyState, move: Action) -> bool:
    """A pass while the learner could have played (passing is a choice)."""
    return isinstance(as_action(move), Pass) and any(
        _held(state, value) for value in range(best_play(state["plays"])[2] + 1, JOKER)
    )


def uses_joker(state: DonkeyState, move: Action) -> bool:
    play = as_action(move)
    return isinstance(play, Play) and 0 < play.jokers < play.size


def leads_after_win(state: DonkeyState, move: Action) -> bool:
    """The learner leads because they won the last round."""
    won = [event for event in state["log"] if event["type"] == "round_won"]
    return not state["plays"] and bool(won) and won[-1]["seat"] == LEARNER


def leads_donkey(state: DonkeyState, move: Action) -> bool:
    return isinstance(as_action(move), LeadDonkey) and _held(state, DONKEY) == 1


def in_donkey_round(state: DonkeyState, move: Action) -> bool:
    return isinstance(as_action(move), Card) and is_donkey_round(state["plays"])


def in_normal_round(state: DonkeyState, move: Action) -> bool:
    """Someone led a normal round (no donkey) and the learner follows or passes."""
    return bool(state["plays"]) and not is_donkey_round(state["plays"])


def last_equal_takes(state: DonkeyState, move: Action) -> bool:
    """The last donkey round was taken by the last of two or more equal highest cards."""
    log = state["log"]
    won = [i for i, e in enumerate(log) if e["type"] == "round_won" and e["donkey"]]
    if not won:
        return False
    end = won[-1]
    start = max(i for i in range(end) if log[i]["type"] == "donkey_led")
    cards = [e for e in log[start:end] if e["type"] == "donkey_card"]
    top = max(card["worth"] for card in cards)
    highest = [card["seat"] for card in cards if card["worth"] == top]
    return len(highest) >= 2 and highest[-1] == log[end]["seat"]


def joker_values(state: DonkeyState, move: Action, alone: int, in_donkey_round: int) -> bool:
    return (alone, in_donkey_round) == (JOKERS_ALONE_VALUE, JOKER_IN_DONKEY_ROUND)


def penalties(state: DonkeyState, move: Action, joker: int, donkey: int) -> bool:
    """Cards left in hand cost their number, a joker ``joker``, the donkey ``donkey``."""
    return (joker, donkey) == (PENALTY_JOKER, PENALTY_DONKEY)


def any_move(state: DonkeyState, move: Action) -> bool:
    return True


def joker_lead(state: DonkeyState, move: Action) -> bool:
    return leads_after_win(state, move) and uses_joker(state, move)


PREDICATES = {
    "last_equal_takes": last_equal_takes,
    "in_normal_round": in_normal_round,
    "joker_values": joker_values,
    "penalties": penalties,
    "any_move": any_move,
    "joker_lead": joker_lead,
    "leads_set": leads_set,
    "beats": beats,
    "may_pass": may_pass,
    "uses_joker": uses_joker,
    "leads_donkey": leads_donkey,
    "leads_after_win": leads_after_win,
    "in_donkey_round": in_donkey_round,
}


def why(state: DonkeyState, taught: Action, pressed: Action, goal: str | None = None) -> Why:
    lesson, move = as_action(taught), parse_action(pressed)
    if move is None:
        return Why("not_now")
    if isinstance(move, Pass):
        return Why("no_pass" if not state["plays"] else "play_now")
    if isinstance(move, LeadDonkey):
        return Why("donkey_later")
    if isinstance(move, Card):
        return Why("highest_takes")
    if isinstance(lesson, LeadDonkey):
        return Why("lead_donkey")
    best = best_play(state["plays"])
    if best is not None and not is_donkey_round(state["plays"]):
        count = state["plays"][0][3]
        if move.size != count:
            return Why("same_count", {"count": count})
        if move.value <= best[2]:
            return Why("higher", {"value": best[2]})
    if isinstance(lesson, Pass):
        return Why("keep_cards")
    if move.jokers and not (isinstance(lesson, Play) and lesson.jokers):
        return Why("save_jokers")
    if isinstance(lesson, Play) and move.size < lesson.size:
        return Why("more_cards", {"count": lesson.size})
    return Why("low_first")


RULES = ("lead_donkey", "not_now", "no_pass", "play_now", "donkey_later", "highest_takes",
         "same_count", "higher", "keep_cards", "save_jokers", "more_cards",
         "low_first")  # fmt: skip

SYLLABUS = {  # the rules a first game needs -> the heading of docs/rules/donkey.md
    "goal": "End of a hand and scoring",
    "lead": "A normal round",
    "pass": "A normal round",
    "follow": "A normal round",
    "winner_leads": "A normal round",
    "joker": "A normal round",
    "donkey_round": "The donkey round",
    "no_pass_donkey": "The donkey round",
    "last_equal": "The donkey round",
    "joker_donkey": "The donkey round",
    "hand_end": "End of a hand and scoring",
    "loser": "End of a hand and scoring",
}

TUTORIAL = Tutorial(
    game="donkey",
    players=3,
    seed=58,
    steps=(
        Step(
            "lead",
            (1, 1, 2, 0),
            (Claim("leads_set"),),
            (
                (1, (1, 7, 2, 0)),
                (2, (1, 12, 2, 0)),
                (2, (1, 11, 2, 0)),
            ),
            goal="leads_set",
            teaches=("goal", "lead"),
        ),
        Step(
            "pass",
            (0,),
            (Claim("may_pass"),),
            (
                (1, (0,)),
                (2, (1, 5, 2, 0)),
            ),
            goal="may_pass",
            teaches=("pass",),
        ),
        Step(
            "follow",
            (1, 8, 2, 0),
            (Claim("beats"),),
            ((1, (0,)),),
            goal="beats",
            teaches=("follow", "winner_leads"),
        ),
        Step(
            "joker",
            (1, 10, 4, 2),
            (
                Claim("leads_after_win"),
                Claim("uses_joker"),
            ),
            (
                (1, (0,)),
                (2, (0,)),
            ),
            goal="joker_lead",
            teaches=("joker",),
        ),
        Step(
            "donkey",
            (2,),
            (Claim("leads_donkey"),),
            # Bot 2, who took the donkey, leads its lowest lone card: the learner, holding
            # four lone cards, then has a choice at each of the last two steps.
            ((1, (3, 2)), (2, (3, 2)), (2, (1, 7, 1, 0))),
            teaches=("donkey_round",),
        ),
        Step(
            "equal",
            (1, 13, 1, 0),
            (
                Claim("last_equal_takes"),
                Claim("joker_values", (14, 1)),
                Claim("in_normal_round"),
            ),
            # Bot 1 keeps its cards: after a pass, Bot 2 wins and leads the donkey, so the
            # last step is a choice on that path too (a card of the donkey round).
            ((1, (0,)),),
            goal="any_move",
            teaches=("no_pass_donkey", "last_equal", "joker_donkey"),
        ),
        Step(
            "end",
            (1, 2, 1, 0),
            (Claim("penalties", (14, 20)),),
            goal="any_move",
            teaches=("hand_end", "loser"),
        ),
    ),
    predicates=PREDICATES,
    why=why,
    rules=RULES,
    syllabus=SYLLABUS,
)
