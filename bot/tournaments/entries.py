"""Changes to a tournament's state: entries, withdrawals, rounds paired, tables finished.

Each returns a new :class:`Tournament`; the bot stores the change and builds the same state
back from the database after a restart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from bot.tournaments.formats import format_of
from bot.tournaments.model import Entrant, Round, Table, Tournament


class EntryClosed(Exception):
    """Late entry is over (or this format takes none), or they are already in."""


def enter(tournament: Tournament, player: int) -> Tournament:
    """A player joins: before the start, or late (a half bye for each round already started)."""
    if any(entrant.player == player for entrant in tournament.entrants):
        raise EntryClosed("already in")
    if tournament.rounds and not format_of(tournament).late_join_open(tournament):
        raise EntryClosed("late entry is over")
    seed = max((entrant.seed for entrant in tournament.entrants), default=0) + 1
    entrant = Entrant(player, seed, late_rounds=len(tournament.rounds))
    return dataclasses.replace(tournament, entrants=(*tournament.entrants, entrant))


def withdraw(tournament: Tournament, player: int) -> Tournament:
    """Never paired again; the round being played (if they are in it) still counts."""
    entrants = []
    for entrant in tournament.entrants:
        if entrant.player == player and entrant.withdrawn_after is None:
            entrant = dataclasses.replace(entrant, withdrawn_after=len(tournament.rounds))
        entrants.append(entrant)
    return dataclasses.replace(tournament, entrants=tuple(entrants))


def add_round(tournament: Tournament, round_: Round) -> Tournament:
    if round_.number != len(tournament.rounds) + 1:
        raise ValueError(f"round {round_.number} after {len(tournament.rounds)}")
    return dataclasses.replace(tournament, rounds=(*tournament.rounds, round_))


def finish_table(
    tournament: Tournament,
    round_number: int,
    table_index: int,
    places: tuple[int, ...],
    game_points: tuple[int, ...] | None = None,
) -> Tournament:
    """A table's match ended: each seat's place (shared places equal) and game score."""
    round_ = tournament.rounds[round_number - 1]
    table = round_.tables[table_index]
    if len(places) != len(table.players):
        raise ValueError("a place for each seat")
    finished = Table(table.players, tuple(places), game_points)
    tables = (*round_.tables[:table_index], finished, *round_.tables[table_index + 1 :])
    rounds = list(tournament.rounds)
    rounds[round_number - 1] = dataclasses.replace(round_, tables=tables)
    return dataclasses.replace(tournament, rounds=tuple(rounds))


def table_result(
    players: tuple[int, ...],
    ranks: Mapping[int, int | None],
    scores: Mapping[int, int | None],
    lower_is_better: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A table's places and game points from its match's record (each seat's rank and score
    by player). A seat without a rank comes last; places are ranks made dense from 1 (two
    sharing 1st, then 3rd); game points count up — a penalty game's go in as negatives."""
    seat_ranks = [ranks.get(player) or len(players) for player in players]
    places = tuple(1 + sum(other < rank for other in seat_ranks) for rank in seat_ranks)
    sign = -1 if lower_is_better else 1
    return places, tuple(sign * (scores.get(player) or 0) for player in players)


def seeded_by_rating(tournament: Tournament, ratings: Mapping[int, float]) -> Tournament:
    """Seeds by the group's rating in the game, best first; newcomers (no rating) after
    everyone rated, in their order of joining."""
    by_joining = sorted(tournament.entrants, key=lambda entrant: entrant.seed)
    rated = sorted((e for e in by_joining if e.player in ratings), key=lambda e: -ratings[e.player])
    newcomers = [e for e in by_joining if e.player not in ratings]
    entrants = tuple(
        dataclasses.replace(entrant, seed=seed)
        for seed, entrant in enumerate([*rated, *newcomers], start=1)
    )
    return dataclasses.replace(tournament, entrants=entrants)
