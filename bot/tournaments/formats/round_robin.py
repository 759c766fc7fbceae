"""Round robin: 2-player tables, everyone meets everyone once, by Berger's circle.

The schedule is fixed at the start (no late entries); an odd field gives one player a free
round each round (with bots on: a game against an AI seat), and a withdrawn player's
opponents get a bye. Sonneborn–Berger breaks ties first, as in every all-play-all.
"""

from __future__ import annotations

from bot.tournaments.formats.base import TournamentFormat, with_bots
from bot.tournaments.model import Bye, ByeKind, Round, Table, TieBreak, Tournament


class RoundRobin(TournamentFormat):
    format = "round_robin"
    default_tie_breaks = (TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ, TieBreak.GAME_POINTS)
    order = 1
    pairs_any_field = True
    label = "tournament.format.round_robin"

    def fits(self, table_size: int) -> bool:
        return table_size == 2

    def planned_rounds(self, tournament: Tournament) -> int:
        size = len(tournament.entrants)
        return size - 1 if size % 2 == 0 else size

    def next_round(self, tournament: Tournament) -> Round | None:
        if self.is_over(tournament):
            return None
        return with_bots(berger_round(tournament, len(tournament.rounds) + 1), tournament.rules)


def berger_round(tournament: Tournament, number: int) -> Round:
    """Berger's circle: the first seed stays, the others turn one place a round."""
    seeded: list[int | None] = [
        entrant.player for entrant in sorted(tournament.entrants, key=lambda e: e.seed)
    ]
    if len(seeded) % 2:
        seeded.append(None)
    turns = number - 1
    rest = seeded[1:]
    rest = rest[-turns:] + rest[:-turns] if turns else rest
    circle = [seeded[0], *rest]
    half = len(circle) // 2
    tables: list[Table] = []
    byes: list[Bye] = []
    active = {entrant.player for entrant in tournament.active(number)}
    for board in range(half):
        first, second = circle[board], circle[-1 - board]
        if board == 0 and number % 2 == 0:
            first, second = second, first  # the fixed seed alternates its first seat
        playing = [player for player in (first, second) if player in active]
        if len(playing) == 2:
            tables.append(Table((playing[0], playing[1])))
        elif len(playing) == 1:
            byes.append(Bye(playing[0], ByeKind.FULL))  # a free round or a withdrawn opponent
    return Round(number, tuple(tables), tuple(byes))


FORMAT = RoundRobin()
