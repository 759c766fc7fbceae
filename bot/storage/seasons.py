"""Seasons of the ratings: calendar quarters by default (``SEASON_MONTHS``), a ladder per
season beside the all-time one, a soft reset into each new season, the season's podium told
once. Part of the storage contract (:class:`bot.storage.Storage` inherits the reads).

A season is numbered by the month it starts in (``year * 12 + month - 1``): with quarters,
January, April, July and October. A player's first rated match of a season starts their
season rating from their all-time rating pulled halfway toward a newcomer's (μ toward 25,
σ halfway back up toward 25/3): what they showed still counts, but the new season is open.
Their season rating then moves with each rated match, as the all-time one does, in the same
transaction (:mod:`bot.storage.records`, where the reset is, :func:`soft_reset`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage.records import GLOBAL, provisional, shown_rating

SEASON_LENGTHS = (1, 2, 3, 4, 6, 12)  # months: each divides a year, so seasons align to it
SEASON_TOP = 10


def season_of(moment: float, months: int) -> int:
    """The season a moment (a Unix time) falls in: the number of its first month."""
    when = datetime.fromtimestamp(moment, UTC)
    month = (when.month - 1) // months * months
    return when.year * 12 + month


def season_start(season: int) -> datetime:
    year, month = divmod(season, 12)
    return datetime(year, month + 1, 1, tzinfo=UTC)


def previous_season(season: int, months: int) -> int:
    return season - months


@dataclass(frozen=True)
class SeasonStanding:
    user_id: int
    name: str
    rating: float  # the ordinal
    games: int  # rated games this season

    @property
    def shown(self) -> int:
        return shown_rating(self.rating)

    @property
    def provisional(self) -> bool:
        return provisional(self.games)


class SeasonReads:
    """The season ladders' reads and the podium's once-only mark: mixed into
    :class:`bot.storage.Storage`."""

    season_months: int = 3

    def season_now(self, now: float) -> int:
        return season_of(now, self.season_months)

    async def season_leaderboard(
        self, game: str, season: int, chat_id: int | None = None
    ) -> list[SeasonStanding]:
        rows = await self._rows(
            "SELECT user_id, name, ordinal, games FROM season_ratings WHERE season = ? "
            "AND scope = ? AND game = ? ORDER BY ordinal DESC, user_id DESC "
            f"LIMIT {SEASON_TOP}",
            (season, chat_id or GLOBAL, game),
        )
        return [SeasonStanding(row[0], row[1], row[2], row[3]) for row in rows]

    async def season_games(self, season: int, chat_id: int) -> list[str]:
        """The games rated in a group this season."""
        rows = await self._rows(
            "SELECT DISTINCT game FROM season_ratings WHERE season = ? AND scope = ? ORDER BY game",
            (season, chat_id),
        )
        return [row[0] for row in rows]

    async def season_groups(self, season: int) -> list[int]:
        rows = await self._rows(
            "SELECT DISTINCT scope FROM season_ratings WHERE season = ? AND scope < 0 "
            "ORDER BY scope",
            (season,),
        )
        return [row[0] for row in rows]

    async def claim_season_podium(self, chat_id: int, season: int) -> bool:
        """True once per group and season: the podium is told by whoever claims it first."""
        rows = await self._rows(
            "INSERT INTO season_podiums (scope, season) VALUES (?, ?) "
            "ON CONFLICT DO NOTHING RETURNING season",
            (chat_id, season),
        )
        return bool(rows)
