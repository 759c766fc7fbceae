"""The next round, as a pure function of the tournament so far.

Swiss at 2 players is the FIDE Dutch system (:mod:`.dutch`); where its absolute rules leave no
pairing, in fields above :data:`DUTCH_MAX_FIELD` and at 3–5 players, tables are grouped by
score (:mod:`.grouping`). A round robin
follows Berger's circle from the seeds. An elimination seats who is still in, best first,
snaked over the tables so the leaders are spread; the top `advance` of each table go on (a
place shared at the cut takes everyone sharing it), and whoever the tables cannot hold passes
to the next round, the best-placed first. One table holding everyone left is the final.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from bot.tournaments.dutch import NoDutchPairing, dutch_round
from bot.tournaments.grouping import choose_byes, group_tables, meetings
from bot.tournaments.model import Bye, ByeKind, Format, Round, Table, Tournament
from bot.tournaments.standings import points_by_player, standings

# The Dutch system's library weighs every pair of a score group in Python: about 1 s of CPU
# for a first round of 200 players, 50 s for 1,000 (docs/benchmarks.md). Larger fields are
# grouped by score like the multiplayer tables, in milliseconds.
DUTCH_MAX_FIELD = 128


class NoNextRound(Exception):
    """The tournament is over (or its last round is still being played)."""


def is_over(tournament: Tournament) -> bool:
    if tournament.rounds and not tournament.rounds[-1].finished:
        return False
    return _next_round_or_none(tournament) is None


def next_round(tournament: Tournament) -> Round:
    """The next round's tables (each in seat order, unplayed) and byes."""
    if tournament.rounds and not tournament.rounds[-1].finished:
        raise NoNextRound("the round is still being played")
    round_ = _next_round_or_none(tournament)
    if round_ is None:
        raise NoNextRound("the tournament is over")
    return round_


def planned_rounds(tournament: Tournament) -> int:
    """How many rounds this tournament has (an elimination: as its field stands now)."""
    rules = tournament.rules
    if rules.format is Format.SWISS:
        return rules.rounds
    if rules.format is Format.ROUND_ROBIN:
        size = len(tournament.entrants)
        return size - 1 if size % 2 == 0 else size
    return len(tournament.rounds) + _elimination_rounds_left(tournament)


def _next_round_or_none(tournament: Tournament) -> Round | None:
    number = len(tournament.rounds) + 1
    if tournament.rules.format is Format.ELIMINATION:
        return _elimination_round(tournament, number)
    if number > planned_rounds(tournament) or len(tournament.active(number)) < 2:
        return None
    if tournament.rules.format is Format.ROUND_ROBIN:
        return _round_robin_round(tournament, number)
    return _swiss_round(tournament, number)


def _swiss_round(tournament: Tournament, number: int) -> Round:
    size = tournament.rules.table_size
    if size == 2 and len(tournament.active(number)) <= DUTCH_MAX_FIELD:
        try:
            pairs, bye = dutch_round(tournament)
        except NoDutchPairing:
            pass
        else:
            byes = (Bye(bye, ByeKind.FULL),) if bye is not None else ()
            return Round(number, tuple(Table(pair) for pair in pairs), byes)
    active = {entrant.player for entrant in tournament.active(number)}
    order = [row.player for row in standings(tournament) if row.player in active]
    full_byes = Counter(
        bye.player for r in tournament.rounds for bye in r.byes if bye.kind is ByeKind.FULL
    )
    sitting_out = choose_byes(order, len(order) % size, full_byes)
    seated = [player for player in order if player not in sitting_out]
    met = meetings([table.players for r in tournament.rounds for table in r.tables])
    tables = group_tables(seated, size, met, points_by_player(tournament))
    byes = tuple(Bye(player, ByeKind.FULL) for player in sitting_out)
    return Round(number, tuple(Table(table) for table in tables), byes)


def _round_robin_round(tournament: Tournament, number: int) -> Round:
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


def elimination_survivors(tournament: Tournament) -> list[int]:
    """Who is still in before the next round, best first."""
    number = len(tournament.rounds) + 1
    active = {entrant.player for entrant in tournament.active(number)}
    seeds = {entrant.player: entrant.seed for entrant in tournament.entrants}
    if not tournament.rounds:
        return [player for player in sorted(active, key=seeds.__getitem__)]
    last = tournament.rounds[-1]
    points = points_by_player(tournament)
    ranked: list[tuple[tuple, int]] = []
    for bye in last.byes:
        ranked.append(((0, -points[bye.player], seeds[bye.player]), bye.player))
    for table in last.tables:
        if table.places is None:
            raise NoNextRound("the round is still being played")
        for seat, player in enumerate(table.players):
            place = table.places[seat]
            if place <= tournament.rules.advance:
                ranked.append(((place, -points[player], seeds[player]), player))
    return [player for _, player in sorted(ranked) if player in active]


def _elimination_round(tournament: Tournament, number: int) -> Round | None:
    if tournament.rounds and _is_final(tournament.rounds[-1]):
        return None
    survivors = elimination_survivors(tournament)
    size = tournament.rules.table_size
    if len(survivors) < 2:
        return None
    if len(survivors) <= size:
        return Round(number, (Table(tuple(survivors)),))
    passing = len(survivors) % size
    byes = tuple(Bye(player, ByeKind.ADVANCE) for player in survivors[:passing])
    seated = survivors[passing:]
    count = len(seated) // size
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, player in enumerate(seated):
        lap, position = divmod(index, count)
        tables[position if lap % 2 == 0 else count - 1 - position].append(player)
    return Round(number, tuple(Table(tuple(table)) for table in tables), byes)


def _is_final(round_: Round) -> bool:
    return len(round_.tables) == 1 and not round_.byes


def _elimination_rounds_left(tournament: Tournament) -> int:
    rules = tournament.rules
    if tournament.rounds and _is_final(tournament.rounds[-1]):
        return 0
    if tournament.rounds and not tournament.rounds[-1].finished:
        last = tournament.rounds[-1]
        field = len(last.tables) * rules.advance + len(last.byes)  # its survivors, at least
        counting = 0  # the round being played is already counted in len(rounds)
    else:
        field = len(elimination_survivors(tournament))
        counting = 0
    while field > 1:
        counting += 1
        if field <= rules.table_size:
            break
        field = (field // rules.table_size) * rules.advance + field % rules.table_size
    return counting


def leaders(tournament: Tournament, count: int = 3) -> list[tuple[int, Fraction]]:
    """The podium: the first `count` of the standings with their points."""
    return [(row.player, row.points) for row in standings(tournament)[:count]]
