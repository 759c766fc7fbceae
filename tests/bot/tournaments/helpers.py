"""Playing a tournament's rounds out in tests: results decided by a rule, not by chance."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from bot.tournaments import formats
from bot.tournaments.entries import add_round, finish_table
from bot.tournaments.model import Entrant, Rules, Tournament
from bot.tournaments.pairing import next_round

# a table's places from its players, e.g. "the lower id wins"
Decide = Callable[[tuple[int, ...]], tuple[int, ...]]


def by_lowest_id(players: tuple[int, ...]) -> tuple[int, ...]:
    """The player with the lowest id comes first, and so on: a field of stable strengths."""
    order = sorted(players)
    return tuple(order.index(player) + 1 for player in players)


def new(rules: Rules, players: int) -> Tournament:
    formats.check(rules)
    return Tournament(rules, tuple(Entrant(player, player) for player in range(1, players + 1)))


def play_round(tournament: Tournament, decide: Decide = by_lowest_id) -> Tournament:
    round_ = next_round(tournament)
    tournament = add_round(tournament, round_)
    for index, table in enumerate(round_.tables):
        tournament = finish_table(tournament, round_.number, index, decide(table.players))
    return tournament


def pairs_met(tournament: Tournament) -> list[frozenset[int]]:
    return [
        frozenset(pair)
        for round_ in tournament.rounds
        for table in round_.tables
        for pair in combinations(table.players, 2)
    ]
