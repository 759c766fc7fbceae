"""Persistence: one contract (:class:`Storage`), two backends — SQLite by default, PostgreSQL
when ``DATABASE_URL`` is set."""

from __future__ import annotations

from pathlib import Path

from bot.storage.contract import (
    Activity,
    InstanceRunning,
    Storage,
    StorageStats,
    StorageUnavailable,
)
from bot.storage.model import ACTIVE, Match, Notice, Seat, StaleMatch, User, copy_match
from bot.storage.standings import GameStats, PastMatch, PastPlayer, Standing, Unrated

__all__ = [
    "ACTIVE",
    "Activity",
    "GameStats",
    "InstanceRunning",
    "Match",
    "Notice",
    "PastMatch",
    "PastPlayer",
    "Seat",
    "StaleMatch",
    "Standing",
    "Storage",
    "StorageStats",
    "StorageUnavailable",
    "Unrated",
    "User",
    "copy_match",
    "is_postgres_url",
    "storage_for",
]

POSTGRES_SCHEMES = ("postgres://", "postgresql://")


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and url.startswith(POSTGRES_SCHEMES)


def storage_for(
    database_url: str | None, database_path: Path | str, several_workers: bool = False
) -> Storage:
    """The backend the settings ask for (not opened yet): PostgreSQL for a ``postgres://``
    or ``postgresql://`` address, else the SQLite file. ``several_workers``: PostgreSQL
    takes no instance lock, the workers share it (``bot.storage.shared``); SQLite always
    serves one process."""
    if is_postgres_url(database_url):
        from bot.storage.postgres import PostgresStorage  # asyncpg only where it is used

        return PostgresStorage(database_url, instance_lock=not several_workers)
    from bot.storage.sqlite import SQLiteStorage

    return SQLiteStorage(database_path)
