"""The standings and their tie-breaks, as published in the group.

Order: points, then the tie-breaks in the order the creator chose (by default the format's
own), then the seed. Only entrants are ranked: an AI seat's places order the humans at its
table, and it appears nowhere here.

- **Buchholz**: over a player's finished tables, the mean final points of their human
  tablemates (at 2 players, the classic sum of the opponents' scores). A round without a
  game (a bye, a late joiner's missed round) counts FIDE's *virtual opponent*: one who had
  the player's own score before that round, took the rest of that round's table (a loss
  against a full bye at 2 players), and drew every round after it.
- **Sonneborn–Berger**, multiplayer as its natural extension: over a player's tables, the
  mean over their tablemates of the tablemate's score times the result against them (1 for
  finishing ahead, ½ for a shared place, 0 behind) — at 2 players exactly the classic sum of
  the beaten opponents' scores and half the drawn ones'. A bye is a result against the
  virtual opponent: a full bye at 2 players a win, a middle place (½) at more.
- **Game points**: the scores the games themselves gave (an Azul score, a 5211 total), summed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournaments.model import Bye, ByeKind, TieBreak, Tournament, is_bot
from bot.tournaments.scoring import bye_points, full_bye_points, table_points, win_points


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
    sonneborn_berger: Fraction = Fraction(0)
    # an elimination's own columns: the last round reached, the place at its table there
    # (None for a pass or a table still playing) and how it ended for them
    reached: int = 0
    table_place: int | None = None
    status: str = ""  # elimination: "playing", "advanced", "out", "champion"
    bot_tables: tuple[int, ...] = field(default=())  # rounds in which they sat with bots

    def tie_break(self, kind: TieBreak) -> Fraction:
        if kind is TieBreak.BUCHHOLZ:
            return self.buchholz
        if kind is TieBreak.SONNEBORN_BERGER:
            return self.sonneborn_berger
        return Fraction(self.game_points)


def points_by_player(tournament: Tournament) -> dict[int, Fraction]:
    """Each entrant's points so far (finished tables, byes and late joiners' half byes)."""
    return {player: sum(got, Fraction(0)) for player, got in _by_round(tournament).items()}


def _by_round(tournament: Tournament) -> dict[int, list[Fraction]]:
    """Each entrant's points in each round (its own list: round 1 first)."""
    size = tournament.rules.table_size
    half = bye_points(Bye(0, ByeKind.HALF), size)
    got: dict[int, list[Fraction]] = {e.player: [] for e in tournament.entrants}
    for round_ in tournament.rounds:
        this: dict[int, Fraction] = {}
        for table in round_.tables:
            if table.finished:
                this.update(table_points(table, size))
        for bye in round_.byes:
            this[bye.player] = bye_points(bye, size)
        for entrant in tournament.entrants:
            missed = round_.number <= entrant.late_rounds
            got[entrant.player].append(half if missed else this.get(entrant.player, Fraction(0)))
    return got


def tablemates(tournament: Tournament) -> dict[int, list[int]]:
    """Everyone each player has sat with (once per table, repeats kept; AI seats left out)."""
    met: dict[int, list[int]] = defaultdict(list)
    for round_ in tournament.rounds:
        for table in round_.tables:
            for player in table.players:
                met[player].extend(o for o in table.players if o != player and not is_bot(o))
    return met


@dataclass
class _Tally:
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    game_points: int = 0
    played: int = 0
    byes: int = 0
    bot_rounds: list[int] = field(default_factory=list)


def tallies(tournament: Tournament) -> tuple[dict[int, Fraction], dict[int, _Tally]]:
    """Each entrant's points and tie-break measures."""
    size = tournament.rules.table_size
    per_round = _by_round(tournament)
    points = {player: sum(got, Fraction(0)) for player, got in per_round.items()}
    win = win_points(size)
    draw = full_bye_points(size) / 2 if size == 2 else full_bye_points(size)
    finished = sum(1 for round_ in tournament.rounds if round_.finished)
    tally = {player: _Tally() for player in points}

    def virtual(player: int, number: int) -> Fraction:
        """FIDE's virtual opponent's score for the player's round `number` without a game."""
        before = sum(per_round[player][: number - 1], Fraction(0))
        got = per_round[player][number - 1]
        return before + (win - got) + draw * max(0, finished - number)

    for round_ in tournament.rounds:
        seen: set[int] = set()
        for table in round_.tables:
            if not table.finished:
                seen.update(table.players)
                continue
            for seat, player in enumerate(table.players):
                if is_bot(player) or player not in tally:
                    continue
                seen.add(player)
                mine = tally[player]
                mine.played += 1
                if table.game_points is not None:
                    mine.game_points += table.game_points[seat]
                if any(is_bot(other) for other in table.players):
                    mine.bot_rounds.append(round_.number)
                place = table.places[seat]
                others = [
                    (other, table.places[at])
                    for at, other in enumerate(table.players)
                    if at != seat and not is_bot(other) and other in points
                ]
                if not others:  # only AI seats beside them: the virtual opponent
                    opponent = virtual(player, round_.number)
                    mine.buchholz += opponent
                    mine.sonneborn_berger += opponent * per_round[player][round_.number - 1] / win
                    continue
                mine.buchholz += sum((points[o] for o, _ in others), Fraction(0)) / len(others)
                mine.sonneborn_berger += sum(
                    (points[o] * _result(place, theirs) for o, theirs in others), Fraction(0)
                ) / len(others)
        for bye in round_.byes:
            if bye.kind is ByeKind.FULL:
                tally[bye.player].byes += 1
            if bye.kind is not ByeKind.ADVANCE and round_.finished:
                seen.add(bye.player)
                _add_virtual(tally[bye.player], virtual(bye.player, round_.number),
                             per_round[bye.player][round_.number - 1] / win)  # fmt: skip
        if not round_.finished:
            continue
        for entrant in tournament.entrants:  # a late joiner's missed round
            if entrant.player not in seen and round_.number <= entrant.late_rounds:
                share = per_round[entrant.player][round_.number - 1] / win
                _add_virtual(tally[entrant.player], virtual(entrant.player, round_.number), share)
    return points, tally


def _add_virtual(mine: _Tally, opponent: Fraction, share: Fraction) -> None:
    mine.buchholz += opponent
    mine.sonneborn_berger += opponent * share


def _result(mine: int, theirs: int) -> Fraction:
    if mine < theirs:
        return Fraction(1)
    return Fraction(1, 2) if mine == theirs else Fraction(0)


Prefix = Callable[[int], tuple]


def ranked(
    tournament: Tournament,
    order: tuple[TieBreak, ...],
    prefix: Prefix | None = None,
    columns: Callable[[int], dict] | None = None,
) -> list[Row]:
    """Rows best first: by `prefix` (a format's own, e.g. an elimination's round reached),
    points, the tie-breaks in `order`, then the seed. `columns`: a format's own fields."""
    points, tally = tallies(tournament)
    seeds = {entrant.player: entrant.seed for entrant in tournament.entrants}

    def measure(player: int, kind: TieBreak) -> Fraction:
        mine = tally[player]
        if kind is TieBreak.BUCHHOLZ:
            return mine.buchholz
        if kind is TieBreak.SONNEBORN_BERGER:
            return mine.sonneborn_berger
        return Fraction(mine.game_points)

    withdrawn = {e.player for e in tournament.entrants if e.withdrawn_after is not None}
    keys = {  # each player's key once: a big field's Fractions are not cheap
        player: (
            *(prefix(player) if prefix is not None else ()),
            -points[player],
            *(-measure(player, kind) for kind in order),
        )
        for player in points
    }
    ranked = sorted(points, key=lambda player: (keys[player], seeds[player]))
    rows: list[Row] = []
    for position, player in enumerate(ranked, start=1):
        tied_above = rows and keys[rows[-1].player] == keys[player]
        mine = tally[player]
        rows.append(
            Row(
                rank=rows[-1].rank if tied_above else position,
                player=player,
                points=points[player],
                buchholz=mine.buchholz,
                game_points=mine.game_points,
                played=mine.played,
                byes=mine.byes,
                withdrawn=player in withdrawn,
                sonneborn_berger=mine.sonneborn_berger,
                bot_tables=tuple(mine.bot_rounds),
                **(columns(player) if columns is not None else {}),
            )
        )
    return rows
