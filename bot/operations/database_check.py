"""Is the database usable? Checked before the bot opens it for writing, so a database the
bot cannot use is reported in one line and left exactly as it was: for SQLite a file from a
newer version, damaged, read-only; for PostgreSQL a server that cannot be reached or refuses
the login, or a schema from a newer version."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

import asyncpg

from bot.storage import Storage
from bot.storage.migrations.postgres import MIGRATIONS as POSTGRES_MIGRATIONS
from bot.storage.migrations.sqlite import MIGRATIONS
from bot.storage.postgres import (
    CONNECT_TIMEOUT,
    PostgresStorage,
    describe_url,
    schema_version_of,
)
from bot.storage.sqlite import SQLiteStorage

ELSEWHERE = "or point DATABASE_PATH at another file"


class DatabaseProblem(Exception):
    """The database cannot be used; the message names the file, the problem and the fix."""


def check_database(path: Path) -> None:
    """Raise :class:`DatabaseProblem` unless the bot can read and write ``path`` (a missing
    file is fine: it will be created). Never writes to the file."""
    path = Path(path)
    if path.is_dir():
        raise DatabaseProblem(f"{path}: this is a folder, not a database file; {_fix_path()}")
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseProblem(
            f"{folder}: cannot create the database's folder ({error.strerror}); create it and "
            f"let the bot's user write to it, {ELSEWHERE}"
        ) from None
    if not _folder_writable(folder):
        raise DatabaseProblem(
            f"{folder}: the database's folder is read-only (SQLite keeps its journal files "
            f"next to the database); let the bot's user write to it, {ELSEWHERE}"
        )
    if not path.exists():
        return
    if not _file_writable(path):
        raise DatabaseProblem(
            f"{path}: the database file is read-only; let the bot's user write to it, {ELSEWHERE}"
        )
    version, damage = _inspect(path)
    if damage:
        raise DatabaseProblem(
            f"{path}: the file is not a usable SQLite database ({damage}); restore it from a "
            f"backup, {ELSEWHERE} to start afresh (this file was left unchanged)"
        )
    if version > len(MIGRATIONS):
        raise DatabaseProblem(
            f"{path}: the database was written by a newer version of the bot (schema "
            f"{version}; this version knows up to {len(MIGRATIONS)}); run the newer version, "
            f"or restore a backup made for this one"
        )


async def check_postgres(url: str) -> None:
    """Raise :class:`DatabaseProblem` unless the bot can log in to the PostgreSQL database
    at ``url`` and knows its schema. Changes nothing."""
    where = describe_url(url)
    try:
        connection = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise DatabaseProblem(
            f"DATABASE_URL: cannot connect to {where} ({reason}); check the address, the "
            f"user and password, and that the server is running"
        ) from None
    try:
        version = await schema_version_of(connection)
    finally:
        await connection.close()
    if version > len(POSTGRES_MIGRATIONS):
        raise DatabaseProblem(
            f"DATABASE_URL: the database at {where} was written by a newer version of the "
            f"bot (schema {version}; this version knows up to {len(POSTGRES_MIGRATIONS)}); "
            f"run the newer version, or restore a backup made for this one"
        )


async def check_storage(storage: Storage) -> None:
    """The check for whichever backend ``storage`` is."""
    if isinstance(storage, SQLiteStorage):
        await asyncio.to_thread(check_database, storage.path)
    elif isinstance(storage, PostgresStorage):
        await check_postgres(storage.url)


def _fix_path() -> str:
    return "point DATABASE_PATH at a file, e.g. data/bot.sqlite3"


def _folder_writable(folder: Path) -> bool:
    """Try, rather than ask (``os.access`` ignores capabilities, ACLs, read-only mounts): an
    anonymous temporary file leaves nothing behind."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _file_writable(path: Path) -> bool:
    try:
        descriptor = os.open(path, os.O_RDWR)  # opening for writing writes nothing
    except OSError:
        return False
    os.close(descriptor)
    return True


def _inspect(path: Path) -> tuple[int, str | None]:
    """(schema version, what is damaged or None), read through a read-only connection.
    Without a ``-wal`` file (a clean shutdown) the file is the whole database and is read as
    immutable, which creates no journal files either; after a crash its WAL is read too."""
    wal = path.with_name(path.name + "-wal")
    uri = f"{path.resolve().as_uri()}?{'mode=ro' if wal.exists() else 'immutable=1'}"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:
        return 0, str(error)
    if problems != ["ok"]:
        return version, " ".join(" / ".join(problems).split())  # one line
    return version, None
