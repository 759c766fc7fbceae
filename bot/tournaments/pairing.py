"""The next round, whether the tournament is over, how many rounds it has: each asked of the
tournament's format (:mod:`.formats`), which pairs it.

Pairing a round is the one costly step (FIDE's Dutch system at 2 players, the search for
repeat-free tables at more): :func:`is_over` and :func:`planned_rounds` never pair, so a
round's end pairs the next exactly once (the bot does it off the event loop).
"""

from __future__ import annotations

from fractions import Fraction

from bot.tournaments.formats import format_of, standings
from bot.tournaments.formats.elimination import survivors
from bot.tournaments.formats.swiss import DUTCH_MAX_FIELD
from bot.tournaments.model import Round, Tournament

__all__ = ["DUTCH_MAX_FIELD", "NoNextRound", "elimination_survivors", "is_over", "leaders"]


class NoNextRound(Exception):
    """The tournament is over (or its last round is still being played)."""


def is_over(tournament: Tournament) -> bool:
    if tournament.rounds and not tournament.rounds[-1].finished:
        return False
    return format_of(tournament).is_over(tournament)


def next_round(tournament: Tournament) -> Round:
    """The next round's tables (each in seat order, unplayed) and byes."""
    if tournament.rounds and not tournament.rounds[-1].finished:
        raise NoNextRound("the round is still being played")
    round_ = format_of(tournament).next_round(tournament)
    if round_ is None:
        raise NoNextRound("the tournament is over")
    return round_


def planned_rounds(tournament: Tournament) -> int:
    """How many rounds this tournament has (an elimination: as its field stands now)."""
    return format_of(tournament).planned_rounds(tournament)


def elimination_survivors(tournament: Tournament) -> list[int]:
    """Who is still in an elimination before its next round, best first."""
    return survivors(tournament)


def leaders(tournament: Tournament, count: int = 3) -> list[tuple[int, Fraction]]:
    """The podium: the first `count` of the standings with their points."""
    return [(row.player, row.points) for row in standings(tournament)[:count]]
