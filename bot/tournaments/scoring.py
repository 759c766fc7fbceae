"""What a finished table and a bye are worth.

2-player tournaments: a win is 1, a draw ½. At 3–5-player tables a round's tables may differ
in size (:mod:`.seating`), so a place is worth the share of tablemates it beats, the same at
every size: the winner earns 12 and the last 0 at any table, the places between evenly
spaced (four players: 12, 8, 4, 0; three: 12, 6, 0; five: 12, 9, 6, 3, 0). Every table is then
worth the same on average, 6 a player: no table is worth more for being smaller. Players
sharing a place split the points of the places they cover. A full bye is worth a win at 2
players and that average, 6, at more; a late joiner's bye is half of it. An AI seat takes its
place like anyone (the humans below it place lower) and scores for nobody.
"""

from __future__ import annotations

from fractions import Fraction

from bot.tournaments.model import Bye, ByeKind, Table, is_bot

MULTIPLAYER_WIN = 12  # divisible by 1, 2, 3 and 4: every place of a 2–5-player table whole


def place_points(seats: int, table_size: int | None = None) -> tuple[Fraction, ...]:
    """Points of the 1st, 2nd, … place at a table of `seats` in a tournament of
    `table_size`-player tables (by default, the same)."""
    chosen = seats if table_size is None else table_size
    return _spread(seats, 1 if chosen == 2 else MULTIPLAYER_WIN)


def _spread(seats: int, win: int) -> tuple[Fraction, ...]:
    if seats == 1:
        return (Fraction(win),)
    return tuple(Fraction(win * (seats - 1 - place), seats - 1) for place in range(seats))


def table_points(table: Table, table_size: int | None = None) -> dict[int, Fraction]:
    """Each human's points from a finished table (shared places split)."""
    if table.places is None:
        raise ValueError("the table is still playing")
    ladder = place_points(len(table.players), table_size)
    points: dict[int, Fraction] = {}
    for player, place in zip(table.players, table.places, strict=True):
        if is_bot(player):
            continue
        sharing = sum(1 for other in table.places if other == place)
        covered = ladder[place - 1 : place - 1 + sharing]
        points[player] = Fraction(sum(covered), sharing)
    return points


def full_bye_points(table_size: int) -> Fraction:
    """A full bye: a win at 2 players, a table's average at more."""
    return Fraction(1) if table_size == 2 else Fraction(MULTIPLAYER_WIN, 2)


def bye_points(bye: Bye, table_size: int) -> Fraction:
    full = full_bye_points(table_size)
    if bye.kind is ByeKind.FULL:
        return full
    if bye.kind is ByeKind.HALF:
        return full / 2
    return Fraction(0)  # an elimination's pass to the next round scores nothing


def win_points(table_size: int) -> Fraction:
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
