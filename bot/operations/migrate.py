"""``python -m bot.migrate --to "$DATABASE_URL"``: move house from SQLite to PostgreSQL.

Copies everything in the SQLite database (``--from``, default ``$DATABASE_PATH`` or
``data/bot.sqlite3``) — chats, users, matches, seats, moves, the public logs, notices, match
records, ratings and the marks /forget leaves on running matches — into the PostgreSQL
database at ``--to``, in one transaction, then checks that every table holds as many rows as
the source. The source is only read: a
snapshot of it is brought up to the current schema in a temporary folder and copied from
there.

Running it again changes nothing (rows already there are overwritten with the same values);
after more play on SQLite it brings the copy up to date. It refuses to copy while a bot runs
on either database, and into a database that holds anything else (matches, users or chats
the source does not have, or matches played further than the source).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import asyncpg

from bot.operations.database_check import DatabaseProblem, check_database, check_postgres
from bot.storage import InstanceRunning, is_postgres_url
from bot.storage.postgres import PostgresStorage, describe_url
from bot.storage.sqlite import InstanceLock, SQLiteStorage

# Parents before children; each with the columns that identify a row.
TABLES: dict[str, tuple[str, ...]] = {
    "chats": ("chat_id",),
    "users": ("user_id",),
    "matches": ("id",),
    "seats": ("match_id", "seat"),
    "moves": ("match_id", "version"),
    "events": ("match_id", "seq"),
    "notices": ("id",),
    "forgotten_players": ("match_id", "user_id"),
    "match_records": ("match_id",),
    "match_players": ("match_id", "seat"),
    "ratings": ("scope", "game", "user_id"),
    "usernames": ("username",),
    "bot_flags": ("name",),  # an operator's switches (draining) move with the data
    "tournaments": ("id",),
    "tournament_entrants": ("tournament_id", "user_id"),
    "tournament_rounds": ("tournament_id", "number"),
    "tournament_tables": ("tournament_id", "round", "table_no"),
    "tournament_byes": ("tournament_id", "round", "user_id"),
    "season_ratings": ("season", "scope", "game", "user_id"),
    "season_podiums": ("scope", "season"),
    "tutorial_steps": ("game", "step"),  # how far learners got: counts only
    "lessons": ("user_id", "game"),  # each learner's place in each lesson
}
IDENTITIES = ("matches", "notices", "tournaments")  # their ids continue after the copied ones
CHUNK = 5000


class MigrationProblem(Exception):
    """Why the copy cannot be made; one line for the operator."""


def snapshot(source: Path, folder: Path) -> Path:
    """A consistent copy of the source (SQLite's backup API), upgraded to the current
    schema, in ``folder``; the source itself is only read."""
    copy = folder / "snapshot.sqlite3"
    reading = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    with closing(reading), closing(sqlite3.connect(copy)) as writing:
        reading.backup(writing)

    async def upgrade() -> None:
        storage = SQLiteStorage(copy)
        await storage.open(wait_for_lock=False)
        await storage.close()

    asyncio.run(upgrade())
    return copy


def source_rows(db: sqlite3.Connection, table: str) -> Iterator[list[tuple]]:
    cursor = db.execute(f"SELECT * FROM {table}")
    while chunk := cursor.fetchmany(CHUNK):
        yield chunk


def columns_of(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def converter(kind: str):
    """SQLite's values as PostgreSQL's column types want them."""
    if kind == "boolean":
        return lambda value: None if value is None else bool(value)
    if kind == "double precision":
        return lambda value: None if value is None else float(value)
    return lambda value: value


async def copy_into(snapshot_path: Path, url: str) -> dict[str, dict[str, int]]:
    target = PostgresStorage(url)
    try:
        await target.open(wait_for_lock=False)  # the schema, and no bot running on it
    except InstanceRunning:
        raise MigrationProblem(
            f"a bot is running on {describe_url(url)}; stop it, then copy again"
        ) from None
    try:
        with closing(sqlite3.connect(snapshot_path)) as db:
            async with target.pool.acquire() as connection, connection.transaction():
                await refuse_other_data(db, connection)
                for table, key in TABLES.items():
                    await copy_table(db, connection, table, key)
                for table in IDENTITIES:
                    await connection.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"GREATEST((SELECT MAX(id) FROM {table}), 1))"
                    )
                counts = {}
                for table in TABLES:
                    source = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                    copied = await connection.fetchval(f"SELECT COUNT(*) FROM {table}")
                    counts[table] = {"source": source, "target": copied}
                wrong = [name for name, count in counts.items() if len(set(count.values())) > 1]
                if wrong:  # leaving the transaction by an exception rolls it all back
                    raise MigrationProblem(
                        f"the copy does not match the source in {', '.join(wrong)}: "
                        f"{json.dumps(counts)}; nothing was changed"
                    )
    finally:
        await target.close()
    return counts


async def refuse_other_data(db: sqlite3.Connection, connection: asyncpg.Connection) -> None:
    for table, column in (("matches", "id"), ("users", "user_id"), ("chats", "chat_id")):
        theirs = {row[0] for row in await connection.fetch(f"SELECT {column} FROM {table}")}
        ours = {row[0] for row in db.execute(f"SELECT {column} FROM {table}")}
        if theirs - ours:
            raise MigrationProblem(
                f"the target database already holds {table} the SQLite database does not "
                f"have ({len(theirs - ours)}); copy into an empty database"
            )
    versions = dict(db.execute("SELECT id, version FROM matches").fetchall())
    for row in await connection.fetch("SELECT id, version FROM matches"):
        if row["version"] > versions[row["id"]]:
            raise MigrationProblem(
                f"match {row['id']} went further in the target database than in the SQLite "
                f"one (version {row['version']} against {versions[row['id']]}): the bot has "
                f"been running on PostgreSQL since; nothing was copied"
            )


async def copy_table(
    db: sqlite3.Connection, connection: asyncpg.Connection, table: str, key: tuple[str, ...]
) -> None:
    columns = columns_of(db, table)
    kinds = dict(
        await connection.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = $1 AND table_schema = current_schema()",
            table,
        )
    )
    convert = [converter(kinds[column]) for column in columns]
    staging = f"incoming_{table}"
    await connection.execute(
        f"CREATE TEMPORARY TABLE {staging} (LIKE {table} INCLUDING DEFAULTS) ON COMMIT DROP"
    )
    for chunk in source_rows(db, table):
        records = [tuple(f(value) for f, value in zip(convert, row, strict=True)) for row in chunk]
        await connection.copy_records_to_table(staging, records=records, columns=columns)
    if table == "seats":  # a lobby may have lost seats since an earlier copy
        await connection.execute(
            f"DELETE FROM seats WHERE match_id IN (SELECT DISTINCT match_id FROM {staging})"
        )
    names = ", ".join(columns)
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    # a table of keys alone (forgotten_players) has nothing to update
    action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
    await connection.execute(
        f"INSERT INTO {table} ({names}) SELECT {names} FROM {staging} "
        f"ON CONFLICT ({', '.join(key)}) {action}"
    )


def migrate(source: Path, url: str) -> dict[str, dict[str, int]]:
    if not is_postgres_url(url):
        raise MigrationProblem("--to must be a PostgreSQL address (postgresql://...)")
    if not source.is_file():
        raise MigrationProblem(f"{source}: no SQLite database there (see --from)")
    check_database(source)
    asyncio.run(check_postgres(url))
    lock = InstanceLock(source)
    if not lock.try_take():
        raise MigrationProblem(f"a bot is running on {source}; stop it, then copy again")
    try:
        with tempfile.TemporaryDirectory() as folder:
            copied = snapshot(source, Path(folder))
            return asyncio.run(copy_into(copied, url))
    finally:
        lock.release()


def main(argv: list[str] | None = None) -> None:
    summary = __doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bot.migrate", description=summary)
    parser.add_argument("--to", required=True, help="the PostgreSQL address (DATABASE_URL)")
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=Path(os.environ.get("DATABASE_PATH") or "data/bot.sqlite3"),
        help="the SQLite file (default: $DATABASE_PATH or data/bot.sqlite3)",
    )
    args = parser.parse_args(argv)
    try:
        counts = migrate(args.source, args.to)
    except (MigrationProblem, DatabaseProblem) as problem:
        sys.exit(f"bot.migrate: {problem}")
    print(json.dumps({"copied": counts, "into": describe_url(args.to)}))
