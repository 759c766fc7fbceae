"""The standings and their tie-breaks, as published in the group.

Order: points, then Buchholz, then game points, then the seed. Buchholz is the sum, over a
player's finished tables, of the mean final points of their tablemates (at 2 players, the
classic sum of the opponents' scores); a bye adds no tablemate. Game points are the scores
the games themselves gave (an Azul score, a 5211 total), summed. An elimination ranks first by
the round reached, then by the place in it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.model import Bye, ByeKind, Format, Tournament
from bot.tournaments.scoring import bye_points, table_points


@dataclass(frozen=True)
class Row:
    rank: int  # tied rows (same points and tie-breaks) share a rank
    player: int
    points: Fraction
    buchholz: Fraction
    game_points: int
    played: int  # finished tables
    byes: int  # full byes (the ones a player may not get twice while another can)
    withdrawn: bool


def points_by_player(tournament: Tournament) -> dict[int, Fraction]:
    """Each entrant's points so far (finished tables, byes and late joiners' half byes)."""
    size = tournament.rules.table_size
    points: dict[int, Fraction] = {entrant.player: Fraction(0) for entrant in tournament.entrants}
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.finished:
                for player, got in table_points(table).items():
                    points[player] += got
        for bye in round_.byes:
            points[bye.player] += bye_points(bye, size)
    for entrant in tournament.entrants:
        points[entrant.player] += entrant.late_rounds * bye_points(Bye(0, ByeKind.HALF), size)
    return points


def tablemates(tournament: Tournament) -> dict[int, list[int]]:
    """Everyone each player has sat with (once per table, repeats kept)."""
    met: dict[int, list[int]] = defaultdict(list)
    for round_ in tournament.rounds:
        for table in round_.tables:
            for player in table.players:
                met[player].extend(other for other in table.players if other != player)
    return met


def standings(tournament: Tournament) -> list[Row]:
    points = points_by_player(tournament)
    buchholz: dict[int, Fraction] = defaultdict(Fraction)
    game_points: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for round_ in tournament.rounds:
        for table in round_.tables:
            if not table.finished:
                continue
            for seat, player in enumerate(table.players):
                others = [other for other in table.players if other != player]
                buchholz[player] += Fraction(sum(points[other] for other in others), len(others))
                if table.game_points is not None:
                    game_points[player] += table.game_points[seat]
                played[player] += 1
        for bye in round_.byes:
            if bye.kind is ByeKind.FULL:
                byes[bye.player] += 1
    reached = _elimination_reach(tournament)
    seeds = {entrant.player: entrant.seed for entrant in tournament.entrants}

    def key(player: int) -> tuple:
        return (*reached.get(player, ()), -points[player], -buchholz[player], -game_points[player])

    order = sorted(points, key=lambda player: (key(player), seeds[player]))
    rows: list[Row] = []
    for position, player in enumerate(order, start=1):
        tied_above = rows and key(rows[-1].player) == key(player)
        rows.append(
            Row(
                rank=rows[-1].rank if tied_above else position,
                player=player,
                points=points[player],
                buchholz=buchholz[player],
                game_points=game_points[player],
                played=played[player],
                byes=byes[player],
                withdrawn=tournament.entrant(player).withdrawn_after is not None,
            )
        )
    return rows


def _elimination_reach(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Elimination: (minus the last round reached, the place there) for each player."""
    if tournament.rules.format is not Format.ELIMINATION:
        return {}
    reach: dict[int, tuple[int, int]] = {}
    for round_ in tournament.rounds:
        for table in round_.tables:
            for seat, player in enumerate(table.players):
                place = table.places[seat] if table.places is not None else 0
                reach[player] = (-round_.number, place)
        for bye in round_.byes:
            reach[bye.player] = (-round_.number, 0)
    return {entrant.player: reach.get(entrant.player, (0, 0)) for entrant in tournament.entrants}
