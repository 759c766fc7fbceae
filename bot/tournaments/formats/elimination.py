"""Elimination: 3–5-player tables, the top `advance` of each go on, until one table — the
final — holds everyone left.

Seeds come from the group's rating in the game (newcomers last, in order of joining; the bot
sets them at the start). Each round's field is split like a Swiss round's
(:mod:`bot.tournaments.seating`) and dealt to its tables in a snake by seed, so the leaders
are spread and the tables balanced. A free pass to the next round is given only where the
field cannot be split into tables, to the top seeds, and never twice to one player while
another can take it. A place shared at the cut takes everyone sharing it on. AI seats fill
tables (with bots on) but never go on: the top humans of each table do, ordered by places
the bots' included.
"""

from __future__ import annotations

from bot.tournaments import standings as ranking
from bot.tournaments.formats.base import TournamentFormat, fill_with_bots
from bot.tournaments.model import (
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
from bot.tournaments.seating import allowed_sizes, humans_per_table, split

PLAYING, ADVANCED, OUT, CHAMPION = "playing", "advanced", "out", "champion"


class Elimination(TournamentFormat):
    format = "elimination"
    default_tie_breaks = (TieBreak.GAME_POINTS, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER)
    order = 2
    seeds_by_rating = True
    label = "tournament.format.elimination"
    label_counts_advance = True
    own_standings = "elimination"  # tournament.standings_head/row.elimination, its rule

    def fits(self, table_size: int) -> bool:
        return table_size >= 3

    def check(self, rules: Rules) -> None:
        super().check(rules)
        if not 1 <= rules.advance < rules.table_size:
            raise RulesError(f"top {rules.advance} of {rules.table_size}")

    def planned_rounds(self, tournament: Tournament) -> int:
        rules = tournament.rules
        if tournament.rounds and is_final(tournament.rounds[-1]):
            return len(tournament.rounds)
        if tournament.rounds and not tournament.rounds[-1].finished:
            field = _going_on(tournament.rounds[-1], rules)
        else:
            field = len(survivors(tournament))
        return len(tournament.rounds) + rounds_for(field, rules)

    def is_over(self, tournament: Tournament) -> bool:
        if tournament.rounds and is_final(tournament.rounds[-1]):
            return True
        return len(survivors(tournament)) < 2

    def next_round(self, tournament: Tournament) -> Round | None:
        if self.is_over(tournament):
            return None
        rules = tournament.rules
        number = len(tournament.rounds) + 1
        field = survivors(tournament)
        if is_final_field(len(field), rules):
            final = (tuple(field),)
            if rules.bots:
                final = tuple(fill_with_bots(list(final), rules.table_size))
            return Round(number, tuple(Table(table) for table in final))
        sizes, out = split(len(field), rules)
        if rules.bots:
            sizes = humans_per_table(len(field), rules)
        passed = {bye.player for r in tournament.rounds for bye in r.byes}
        fresh = [player for player in field if player not in passed]
        # the top seeds who never had a pass; only if too few, one who had (unavoidable)
        passing = (fresh + [p for p in field if p in passed])[:out]
        seated = [player for player in field if player not in passing]
        tables = snake(seated, sizes)
        if rules.bots:
            tables = fill_with_bots(tables, rules.table_size)
        byes = tuple(Bye(player, ByeKind.ADVANCE) for player in passing)
        return Round(number, tuple(Table(table) for table in tables), byes)

    def standings(self, tournament: Tournament) -> list[ranking.Row]:
        columns = _columns(tournament)

        def prefix(player: int) -> tuple:
            column = columns[player]
            return (-column["reached"], column["table_place"] or 0)

        order = self.tie_breaks(tournament.rules)
        return ranking.ranked(tournament, order, prefix, columns.__getitem__)


def is_final(round_: Round) -> bool:
    return len(round_.tables) == 1 and not round_.byes


def is_final_field(field: int, rules: Rules) -> bool:
    """Whether one table holds the whole field (a field smaller than a table: a final too,
    its empty seats taken by AI seats)."""
    return field <= max(allowed_sizes(rules))


def snake(players: list[int], sizes: tuple[int, ...] | list[int]) -> list[tuple[int, ...]]:
    """Players in seed order dealt to the tables there and back (1, 2, 3, 3, 2, 1, …), a full
    table skipped: every table gets a top seed and a like share of the rest."""
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    position = 0
    for player in players:
        while len(tables[position]) >= sizes[position]:
            position, forward = _step(position, forward, len(sizes))
        tables[position].append(player)
        position, forward = _step(position, forward, len(sizes))
    return [tuple(table) for table in tables]


def _step(position: int, forward: bool, count: int) -> tuple[int, bool]:
    if count == 1:
        return 0, forward
    if forward:
        return (position + 1, True) if position + 1 < count else (position, False)
    return (position - 1, False) if position > 0 else (position, True)


def advancing(table: Table, rules: Rules) -> list[int]:
    """The humans who go on from a finished table: its top `advance` humans (at most all but
    one of them), a place shared at the cut taking everyone sharing it."""
    humans = [(place, p) for p, place in zip(table.players, table.places or (), strict=False)]
    humans = [(place, p) for place, p in humans if not is_bot(p)]
    going = min(rules.advance, max(1, len(humans) - 1))
    ranks = sorted(place for place, _ in humans)
    cut = ranks[going - 1] if ranks else 0
    return [p for place, p in sorted(humans) if place <= cut]


def _going_on(round_: Round, rules: Rules) -> int:
    """How many go on from a round (its unfinished tables counted by their cut)."""
    count = len(round_.byes)
    for table in round_.tables:
        humans = sum(1 for p in table.players if not is_bot(p))
        count += min(rules.advance, max(1, humans - 1))
    return count


def rounds_for(field: int, rules: Rules) -> int:
    """Rounds a field of `field` still needs, the final included."""
    rounds = 0
    while field >= 2:
        rounds += 1
        if is_final_field(field, rules):
            break
        sizes, out = split(field, rules)
        if rules.bots:
            sizes = humans_per_table(field, rules)
        field = out + sum(min(rules.advance, max(1, size - 1)) for size in sizes)
    return rounds


def survivors(tournament: Tournament) -> list[int]:
    """Who is still in before the next round, best first: by seed at the start, then by
    place at their table (a pass first), then by seed."""
    number = len(tournament.rounds) + 1
    active = {entrant.player for entrant in tournament.active(number)}
    seeds = {entrant.player: entrant.seed for entrant in tournament.entrants}
    if not tournament.rounds:
        return sorted(active, key=seeds.__getitem__)
    last = tournament.rounds[-1]
    ranked: list[tuple[tuple[int, int], int]] = [
        ((0, seeds[b.player]), b.player) for b in last.byes
    ]
    for table in last.tables:
        if table.places is None:
            return []  # the round is still being played
        places = dict(zip(table.players, table.places, strict=True))
        for player in advancing(table, tournament.rules):
            ranked.append(((places[player], seeds[player]), player))
    return [player for _, player in sorted(ranked) if player in active]


def _columns(tournament: Tournament) -> dict[int, dict]:
    """Each entrant's round reached, place at its table there, and how it stands."""
    columns = {e.player: {"reached": 0, "table_place": None, "status": PLAYING}
               for e in tournament.entrants}  # fmt: skip
    rules = tournament.rules
    for round_ in tournament.rounds:
        final = is_final(round_)
        for table in round_.tables:
            going = set(advancing(table, rules)) if table.finished else set()
            humans = [pl for pl, p in zip(table.places or (), table.players, strict=False)
                      if not is_bot(p)]  # fmt: skip
            for seat, player in enumerate(table.players):
                if player not in columns:
                    continue
                place = table.places[seat] if table.places is not None else None
                if place is None:
                    status = PLAYING
                elif final:
                    status = CHAMPION if place == min(humans) else OUT
                else:
                    status = ADVANCED if player in going else OUT
                columns[player] = {"reached": round_.number, "table_place": place,
                                   "status": status}  # fmt: skip
        for bye in round_.byes:
            columns[bye.player] = {"reached": round_.number, "table_place": None,
                                   "status": ADVANCED}  # fmt: skip
    return columns


FORMAT = Elimination()
