"""What a finished table and a bye are worth.

2-player tables: a win is 1, a draw ½. Larger tables: place points as on Board Game Arena,
2 a place from the bottom (four players: 6, 4, 2, 0); players sharing a place split the
points of the places they cover. A full bye is worth a win at 2 players and a middle place's
points at more (the mean of the places: 3 for four); a late joiner's bye is half of that.
"""

from __future__ import annotations

from fractions import Fraction

from bot.tournaments.model import Bye, ByeKind, Table


def place_points(table_size: int) -> tuple[int, ...]:
    """Points of the 1st, 2nd, … place at a table of this size."""
    if table_size == 2:
        return (1, 0)
    return tuple(2 * (table_size - 1 - place) for place in range(table_size))


def table_points(table: Table) -> dict[int, Fraction]:
    """Each player's points from a finished table (shared places split)."""
    if table.places is None:
        raise ValueError("the table is still playing")
    ladder = place_points(len(table.players))
    points: dict[int, Fraction] = {}
    for player, place in zip(table.players, table.places, strict=True):
        sharing = sum(1 for other in table.places if other == place)
        covered = ladder[place - 1 : place - 1 + sharing]
        points[player] = Fraction(sum(covered), sharing)
    return points


def bye_points(bye: Bye, table_size: int) -> Fraction:
    full = Fraction(1) if table_size == 2 else Fraction(sum(place_points(table_size)), table_size)
    if bye.kind is ByeKind.FULL:
        return full
    if bye.kind is ByeKind.HALF:
        return full / 2
    return Fraction(0)  # an elimination's pass to the next round scores nothing


def win_points(table_size: int) -> int:
    """The most a table can give: the top of the ladder."""
    return place_points(table_size)[0]


def format_points(points: Fraction) -> str:
    """3, ½ or 2½: halves as players write them; other fractions (rare splits) to one decimal."""
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return f"{float(points):.1f}"
