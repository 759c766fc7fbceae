"""Swiss: a chosen number of rounds, each pairing players of like score who have not met.

2-player rounds go through FIDE's Dutch system (:mod:`bot.tournaments.dutch`), up to
``DUTCH_MAX_FIELD`` players and while it finds a pairing; otherwise, and at 3–5-player tables,
the field is split into tables (:mod:`bot.tournaments.seating`) and grouped by score
(:mod:`bot.tournaments.grouping`). Late entries are taken until half the rounds have started.
"""

from __future__ import annotations

from collections import Counter

from bot.tournaments.dutch import NoDutchPairing, dutch_round
from bot.tournaments.formats.base import TournamentFormat, fill_with_bots, with_bots
from bot.tournaments.grouping import choose_byes, group_tables, meetings
from bot.tournaments.model import (
    MAX_ROUNDS,
    Bye,
    ByeKind,
    Round,
    Rules,
    RulesError,
    Table,
    TieBreak,
    Tournament,
    is_bot,
)
from bot.tournaments.seating import humans_per_table, split
from bot.tournaments.standings import points_by_player, ranked

# The Dutch system's library weighs every pair of a score group in Python: about 1 s of CPU
# for a first round of 200 players, 50 s for 1,000 (docs/benchmarks.md). Larger fields are
# grouped by score like the multiplayer tables, in milliseconds.
DUTCH_MAX_FIELD = 128


class Swiss(TournamentFormat):
    format = "swiss"
    order = 0
    rounds_chosen = True
    label = "tournament.format.swiss"
    default_tie_breaks = (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.GAME_POINTS)

    def check(self, rules: Rules) -> None:
        if not 1 <= rules.rounds <= MAX_ROUNDS:
            raise RulesError(f"{rules.rounds} rounds")

    def planned_rounds(self, tournament: Tournament) -> int:
        return tournament.rules.rounds

    def late_join_open(self, tournament: Tournament) -> bool:
        """Until half the rounds have started."""
        return 2 * len(tournament.rounds) < tournament.rules.rounds

    def next_round(self, tournament: Tournament) -> Round | None:
        number = len(tournament.rounds) + 1
        if self.is_over(tournament):
            return None
        rules = tournament.rules
        if rules.table_size == 2 and len(tournament.active(number)) <= DUTCH_MAX_FIELD:
            try:
                pairs, bye = dutch_round(tournament)
            except NoDutchPairing:
                pass
            else:
                byes = (Bye(bye, ByeKind.FULL),) if bye is not None else ()
                return with_bots(Round(number, tuple(Table(pair) for pair in pairs), byes), rules)
        return with_bots(score_groups(tournament, number, self.tie_breaks(rules)), rules)


def score_groups(tournament: Tournament, number: int, order: tuple[TieBreak, ...]) -> Round:
    """The round grouped by score: the field split into tables, leaders together, no repeat
    tablemates where a grouping without them exists, the byes (if no split seats everyone)
    to those with the fewest so far, lowest ranked first."""
    rules = tournament.rules
    active = {entrant.player for entrant in tournament.active(number)}
    order = [row.player for row in ranked(tournament, order) if row.player in active]
    full_byes = Counter(
        bye.player for r in tournament.rounds for bye in r.byes if bye.kind is ByeKind.FULL
    )
    sizes, out = split(len(order), rules)
    if rules.bots:
        sizes = humans_per_table(len(order), rules)
    sitting_out = choose_byes(order, out, full_byes)
    seated = [player for player in order if player not in sitting_out]
    humans = [
        tuple(p for p in table.players if not is_bot(p))
        for r in tournament.rounds
        for table in r.tables
    ]
    tables = group_tables(seated, list(sizes), meetings(humans), points_by_player(tournament))
    if rules.bots:
        tables = fill_with_bots(tables, rules.table_size)
    byes = tuple(Bye(player, ByeKind.FULL) for player in sitting_out)
    return Round(number, tuple(Table(table) for table in tables), byes)


FORMAT = Swiss()
