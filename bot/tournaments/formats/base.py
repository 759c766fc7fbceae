"""One interface for every format: its pairing, its scoring's ranking, its tie-breaks and the
words it is shown in.

A format is one object (one file in this package, registered by its name): the bot
and the screens ask it, never ``if format == …``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from bot.tournaments import standings as ranking
from bot.tournaments.model import (
    Bye,
    ByeKind,
    Round,
    Rules,
    RulesError,
    Table,
    TieBreak,
    Tournament,
)


class TournamentFormat(ABC):
    format: ClassVar[str]
    default_tie_breaks: ClassVar[tuple[TieBreak, ...]]
    order: ClassVar[int]  # its place among the lobby's choices
    rounds_chosen: ClassVar[bool] = False  # the creator picks the rounds (else the field)
    pairs_any_field: ClassVar[bool] = False  # needs no table's worth of players to start
    seeds_by_rating: ClassVar[bool] = False  # seeds by the group's rating, not by joining
    # its words: the message key of its name (counted by `advance` where it is plural), of
    # its own standings' heading, row and rule (None: the points columns and rule)
    label: ClassVar[str]
    label_counts_advance: ClassVar[bool] = False
    own_standings: ClassVar[str | None] = None

    def fits(self, table_size: int) -> bool:
        """Whether it is played at tables of this size."""
        return True

    def check(self, rules: Rules) -> None:
        """Rules it cannot be played by: a :class:`RulesError` (the tables' sizes every
        format asks for are ``Rules.check``'s)."""
        if not self.fits(rules.table_size):
            raise RulesError(f"{self.format} is not played at tables of {rules.table_size}")

    @abstractmethod
    def next_round(self, tournament: Tournament) -> Round | None:
        """The next round's tables (each in seat order) and byes; None: it is over."""

    @abstractmethod
    def planned_rounds(self, tournament: Tournament) -> int:
        """How many rounds it has (as its field stands now)."""

    def is_over(self, tournament: Tournament) -> bool:
        """Whether no round follows the last (finished) one — without pairing it."""
        number = len(tournament.rounds) + 1
        return number > self.planned_rounds(tournament) or len(tournament.active(number)) < 2

    def late_join_open(self, tournament: Tournament) -> bool:
        """Whether late entries are taken now (not in a round robin, whose schedule is fixed
        at the start, nor in an elimination)."""
        return False

    def tie_breaks(self, rules: Rules) -> tuple[TieBreak, ...]:
        return rules.tie_breaks or self.default_tie_breaks

    def standings(self, tournament: Tournament) -> list[ranking.Row]:
        return ranking.ranked(tournament, self.tie_breaks(tournament.rules))


def with_bots(round_: Round, rules: Rules) -> Round:
    """With bots on, a player who would sit out a 2-player round plays an AI seat instead."""
    if not rules.bots:
        return round_
    sitting = [bye for bye in round_.byes if bye.kind is ByeKind.FULL]
    if not sitting:
        return round_
    tables = (*round_.tables, *(Table((bye.player, -1 - n)) for n, bye in enumerate(sitting)))
    kept: tuple[Bye, ...] = tuple(bye for bye in round_.byes if bye.kind is not ByeKind.FULL)
    return Round(round_.number, tables, kept)


def fill_with_bots(tables: list[tuple[int, ...]], size: int) -> list[tuple[int, ...]]:
    """Every table to `size` seats, AI seats (-1, -2, … in the round) after the humans."""
    filled, bot = [], -1
    for table in tables:
        missing = size - len(table)
        filled.append((*table, *range(bot, bot - missing, -1)))
        bot -= missing
    return filled
