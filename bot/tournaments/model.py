"""A tournament's state as plain data: its rules, its entrants and the rounds played so far.

Everything else in this package is a function of a :class:`Tournament`; the bot stores one and
builds it back after a restart. A player is an int: a Telegram user id, or a negative id for
an AI seat filling a table — a seat, never an entrant (see :func:`is_bot`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

MIN_TABLE = 2
MAX_TABLE = 5
MAX_ROUNDS = 30


class ByeKind(enum.StrEnum):
    FULL = "full"  # the odd one out of a round: a win, or a middle place's points
    HALF = "half"  # a round missed by a late joiner: half of a full bye
    ADVANCE = "advance"  # elimination: goes on to the next round without playing


class TieBreak(enum.StrEnum):
    BUCHHOLZ = "buchholz"  # the tablemates' scores (a bye: FIDE's virtual opponent)
    SONNEBORN_BERGER = "sonneborn_berger"  # the scores of the tablemates one finished ahead of
    GAME_POINTS = "game_points"  # the scores the games themselves gave


# the orders a creator chooses from; the first of each format's own is its default
TIE_BREAK_ORDERS: tuple[tuple[TieBreak, ...], ...] = (
    (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.GAME_POINTS),
    (TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ, TieBreak.GAME_POINTS),
    (TieBreak.GAME_POINTS, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER),
)


class RulesError(ValueError):
    """Rules that cannot make a tournament (said to the creator in their words, not these)."""


@dataclass(frozen=True)
class Rules:
    format: str  # the name of its format: one file in bot.tournaments.formats
    table_size: int  # players per table
    rounds: int = 0  # Swiss: as chosen; round robin and elimination: from the field
    advance: int = 1  # elimination only
    # the game's own limits: a round's field is split into tables of `table_size` and the
    # sizes next to it within them (3–5-player tables only)
    smallest: int = MIN_TABLE
    largest: int = MAX_TABLE
    bots: bool = False  # AI seats fill every table to `table_size`; they are never entrants
    tie_breaks: tuple[TieBreak, ...] = ()  # empty: the format's default order

    def check(self) -> None:
        if not MIN_TABLE <= self.table_size <= MAX_TABLE:
            raise RulesError(f"tables of {self.table_size}")
        if not self.smallest <= self.table_size <= self.largest:
            raise RulesError(f"tables of {self.table_size} outside {self.smallest}-{self.largest}")


def is_bot(player: int) -> bool:
    """An AI seat: it orders the humans at its table and is ranked nowhere."""
    return player < 0


@dataclass(frozen=True)
class Entrant:
    player: int
    seed: int  # the initial order: lower is seeded higher (order of joining, or rating)
    late_rounds: int = 0  # rounds already started when they joined: a half bye for each
    withdrawn_after: int | None = None  # the last round they were in; never paired after

    def active_in(self, round_number: int) -> bool:
        """Whether they are paired in this round (1-based)."""
        joined = round_number > self.late_rounds
        return joined and (self.withdrawn_after is None or round_number <= self.withdrawn_after)


@dataclass(frozen=True)
class Table:
    players: tuple[int, ...]  # in seat order
    # 1 = first; tied players share a place (1, 1 is a draw; 1, 2, 2, 4 a shared second);
    # None while the match is played
    places: tuple[int, ...] | None = None
    game_points: tuple[int, ...] | None = None  # each seat's score in the game, if it has one

    @property
    def finished(self) -> bool:
        return self.places is not None


@dataclass(frozen=True)
class Bye:
    player: int
    kind: ByeKind


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)


@dataclass(frozen=True)
class Tournament:
    rules: Rules
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = field(default=())

    def entrant(self, player: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.player == player:
                return entrant
        raise KeyError(player)

    def active(self, round_number: int) -> list[Entrant]:
        """Who is paired in this round, by seed."""
        playing = [entrant for entrant in self.entrants if entrant.active_in(round_number)]
        return sorted(playing, key=lambda entrant: entrant.seed)
