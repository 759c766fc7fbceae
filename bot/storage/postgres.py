"""PostgreSQL backend (``DATABASE_URL=postgresql://...``), through asyncpg.

A small pool of connections serves the bot; a save is one statement (the match row, the
seats that changed, the new log entries, the move and the notices in one ``WITH`` query), so
it is atomic and costs one round trip. The SQL the contract writes with ``?`` is given
PostgreSQL's ``$1, $2...`` once and kept.

One bot instance at a time: a session-level advisory lock, held on a connection of its own
while the storage is open. The server releases it when that connection ends — on a clean
stop, when the process dies, and also when the server restarts or fails over: then every
call fails fast (nothing is written) until the lock watch has taken the lock again, or has
found another instance holding it and stopped this one.

A server that does not answer (a frozen host, a network partition) holds nothing up for
long: every statement has a timeout, every call a deadline; the first call that runs out
marks the database unavailable, so the calls after it fail at once, until the lock watch
hears the server again.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

import asyncpg

from bot.storage.contract import (
    LOCK_POLL_SECONDS,
    InstanceRunning,
    MatchWrite,
    Row,
    Storage,
    StorageUnavailable,
    _dumps,
)
from bot.storage.migrations.postgres import MIGRATIONS
from bot.storage.model import PLAY_SEAT_FIELDS
from bot.storage.records import MatchRecord, write_record_async

# One bot per database: every instance asks for the same advisory lock (any fixed 64-bit key).
INSTANCE_LOCK_KEY = 0x7461626C65626F74  # "tablebot"
POOL_SIZE = 4
CONNECT_TIMEOUT = 10.0
# Telegram drops a press's answer after about 15 s, and a PaaS kills a stopping process
# after about 30 s: a server that does not answer within these is taken as down
STATEMENT_SECONDS = 4.0  # one statement
CALL_SECONDS = 5.0  # one call: a connection from the pool, its statements, giving it back
CLOSE_SECONDS = 3.0  # closing the connections at shutdown, then they are cut
LOCK_SILENCE_SECONDS = 6.0  # a lock connection silent this long is cut and made afresh
# A save carries a deadline on the server's clock, this long before the client gives up on
# it: a save the server reaches only later (it hung, then resumed with the statement in its
# socket) writes nothing, so a press told "no move was made" never finds its move made
SAVE_DEADLINE_SECONDS = STATEMENT_SECONDS - 1.0
# what a server that is down, restarting or out of reach raises
OUTAGE = (
    TimeoutError,
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
)

log = logging.getLogger("bot.storage")


def describe_url(url: str) -> str:
    """host:port/database of a PostgreSQL address, without user or password."""
    parts = urlsplit(url)
    socket = parse_qs(parts.query).get("host", [None])[0]  # a unix socket's folder
    host = parts.hostname or socket or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"PostgreSQL at {host}{port}{parts.path or '/'}"


@lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def changed(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


async def schema_version_of(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


class PostgresStorage(Storage):
    backend = "postgres"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._pool: asyncpg.Pool | None = None
        self._lock_connection: asyncpg.Connection | None = None
        self._lock_pid: int | None = None  # the server process of the lock's session
        self._lock_silent_since: float | None = None
        self._opening: asyncio.Task | None = None
        self._unavailable: str | None = None  # why calls fail at once, while they do
        self._server_clock_ahead = 0.0  # the server's clock minus ours, in seconds

    def describe(self) -> str:
        return describe_url(self.url)

    # -- lifecycle -------------------------------------------------------------------------
    async def _open(self, wait_for_lock: bool) -> None:
        self._opening = asyncio.current_task()
        try:
            await self._take_lock(wait_for_lock)
        finally:
            self._opening = None
        await self._read_server_clock(self._lock_connection)
        self._pool = await asyncpg.create_pool(
            self.url,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=CONNECT_TIMEOUT,
            command_timeout=STATEMENT_SECONDS,
            reset=_nothing_to_reset,
        )
        await self._migrate()

    async def _take_lock(self, wait: bool) -> None:
        self._lock_connection = await self._connect_for_lock()
        started = time.monotonic()
        told = False
        try:
            while not await self._try_lock(self._lock_connection):
                if not wait:
                    raise InstanceRunning(f"another bot instance is running on {self.describe()}")
                if not told:
                    self.waiting_for_lock(self.describe())
                    told = True
                await asyncio.sleep(LOCK_POLL_SECONDS)
        except BaseException:
            await self._release_lock()
            raise
        if told:
            self.took_lock(self.describe(), time.monotonic() - started)

    async def _connect_for_lock(self) -> asyncpg.Connection:
        return await asyncpg.connect(
            self.url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_SECONDS
        )

    async def _try_lock(self, connection: asyncpg.Connection) -> bool:
        if not await connection.fetchval("SELECT pg_try_advisory_lock($1)", INSTANCE_LOCK_KEY):
            return False
        self._lock_pid = connection.get_server_pid()
        self._lock_silent_since = None
        connection.add_termination_listener(self._lock_connection_ended)
        return True

    async def _read_server_clock(self, connection: asyncpg.Connection) -> None:
        """How far the server's clock is ahead of ours (the saves' deadlines are on its
        clock), read at the middle of the round trip."""
        asked = time.time()
        server = await connection.fetchval(
            "SELECT extract(epoch FROM clock_timestamp())::float8", timeout=STATEMENT_SECONDS
        )
        self._server_clock_ahead = server - (asked + time.time()) / 2

    def _lock_connection_ended(self, connection: asyncpg.Connection) -> None:
        """The lock's session ended (a server restart, a failover, a cut connection): the
        server no longer holds the lock for us, so nothing is written until it is ours again."""
        if connection is self._lock_connection and self._pool is not None:
            self._unavailable = "the instance lock is not confirmed"

    async def _keep_lock(self) -> bool:
        connection = self._lock_connection
        if connection is not None and not connection.is_closed():
            try:
                await self._read_server_clock(connection)
            except OUTAGE:
                self._unavailable = f"{self.describe()} does not answer"
                now = time.monotonic()
                self._lock_silent_since = self._lock_silent_since or now
                if now - self._lock_silent_since > LOCK_SILENCE_SECONDS:
                    connection.terminate()  # a half-open connection: make it afresh
                raise
            self._lock_silent_since = None
            self._unavailable = None
            self._answered()  # the server answers: calls go through again
            return True
        self._unavailable = "the instance lock is not confirmed"
        connection = await self._connect_for_lock()
        try:
            taken = await self._try_lock(connection)
            if not taken:
                taken = await self._end_own_stale_session(connection)
        except BaseException:
            connection.terminate()
            raise
        if taken is None:  # our old session still held it: it is ended, try again soon
            await connection.close(timeout=CLOSE_SECONDS)
            raise StorageUnavailable("the instance lock's old session was still ending")
        if not taken:
            await connection.close(timeout=CLOSE_SECONDS)
            return False
        self._lock_connection = connection
        self._unavailable = None
        self._answered()
        log.warning("%s dropped the instance lock (a restart?): took it again", self.describe())
        return True

    async def _end_own_stale_session(self, connection: asyncpg.Connection) -> bool | None:
        """The lock is held: by another instance (False), or by this instance's own old
        session that the server has not ended yet (None: it is ended now)."""
        holder = await connection.fetchval(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 1",
            INSTANCE_LOCK_KEY >> 32,
            INSTANCE_LOCK_KEY & 0xFFFFFFFF,
        )
        if holder is None or holder != self._lock_pid:
            return False if holder is not None else None
        await connection.fetchval("SELECT pg_terminate_backend($1)", holder)
        return None

    async def _release_lock(self) -> None:
        connection, self._lock_connection = self._lock_connection, None
        if connection is not None:
            try:  # ends the session: the server drops its lock
                await connection.close(timeout=CLOSE_SECONDS)
            except (*OUTAGE, asyncio.CancelledError):
                connection.terminate()

    async def _close(self) -> None:
        if self._opening is not None and not self._opening.done():
            self._opening.cancel()  # stopped while waiting for the lock: stop waiting
            await asyncio.gather(self._opening, return_exceptions=True)
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), CLOSE_SECONDS)
            except (*OUTAGE, asyncio.CancelledError):
                pool.terminate()  # a server that does not answer must not hold up a stop
        await self._release_lock()

    async def _migrate(self) -> None:
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            current = await schema_version_of(connection)
            for number, script in enumerate(MIGRATIONS, start=1):
                if number > current:
                    await connection.execute(script)
            if current < len(MIGRATIONS):
                await connection.execute("DELETE FROM schema_version")
                await connection.execute(
                    "INSERT INTO schema_version (version) VALUES ($1)", len(MIGRATIONS)
                )

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            self.stats.round_trips += 2
            return await schema_version_of(connection)

    async def database_size(self) -> int:
        return (await self._rows("SELECT pg_database_size(current_database())"))[0][0]

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("storage is not open")
        return self._pool

    # -- the contract's primitives ---------------------------------------------------------
    @asynccontextmanager
    async def _answering(self) -> AsyncIterator[None]:
        """One call, within ``CALL_SECONDS``; a server that is down (or a lock not confirmed)
        fails it with :class:`StorageUnavailable` — at once once it is known to be down."""
        if self._unavailable is not None:
            self._refused()
            raise StorageUnavailable(self._unavailable)
        try:
            async with asyncio.timeout(CALL_SECONDS):
                yield
        except OUTAGE as error:
            if self._unavailable is None:
                log.warning("%s does not answer: %r", self.describe(), error)
            self._unavailable = f"{self.describe()} does not answer"
            self._refused()
            raise StorageUnavailable(self._unavailable) from error
        self._answered()

    async def _rows(self, sql: str, args: Sequence = ()) -> list[Row]:
        self.stats.round_trips += 1
        async with self._answering():
            return await self.pool.fetch(numbered(sql), *args)

    async def _run(self, sql: str, args: Sequence = ()) -> int:
        self.stats.round_trips += 1
        async with self._answering():
            return changed(await self.pool.execute(numbered(sql), *args))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Transaction]:
        async with (
            self._answering(),
            self.pool.acquire() as connection,
            connection.transaction(),
        ):
            yield _Transaction(self, connection)

    async def _read_match(self, match_id: int) -> tuple[Row, list[Row], list[str]] | None:
        # one snapshot for the three reads: a save in between cannot mix two versions
        async with (
            self._answering(),
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            self.stats.round_trips += 5
            row = await connection.fetchrow("SELECT * FROM matches WHERE id = $1", match_id)
            if row is None:
                return None
            seats = await connection.fetch(
                "SELECT * FROM seats WHERE match_id = $1 ORDER BY seat", match_id
            )
            events = await connection.fetch(
                "SELECT event FROM events WHERE match_id = $1 ORDER BY seq", match_id
            )
        return row, list(seats), [event[0] for event in events]

    async def _write_match(self, write: MatchWrite) -> bool:
        w = write
        seats = list(zip(*w.seats, strict=True)) if w.seats else [()] * (1 + len(PLAY_SEAT_FIELDS))
        events = w.events
        move = [w.move] if w.move else []
        moves = list(zip(*move, strict=True)) if move else [(), (), ()]
        notices = list(zip(*w.notices, strict=True)) if w.notices else [(), ()]
        row = [w.match_id, w.expected, w.status, w.options, w.turn_seconds, w.ends_at,
               w.last_mover, w.version, w.updated_at, w.seat_count]  # fmt: skip
        columns = [list(column) for column in (*seats, *moves, *notices)]
        seat_columns = len(seats)
        args = [*row, *columns[:seat_columns], w.first_event, events, *columns[seat_columns:]]
        if w.state_changed:
            args.append(w.state)
        sent = time.monotonic()
        args.append(time.time() + self._server_clock_ahead + SAVE_DEADLINE_SECONDS)
        self.stats.round_trips += 1
        if w.record is None:
            async with self._answering():
                saved = await self.pool.fetchval(_save_sql(w.state_changed), *args)
        else:
            # the match ends: the save, its record and the ratings in one transaction (the
            # record reads the moves the save writes, so it follows in the same transaction)
            async with (
                self._answering(),
                self.pool.acquire() as connection,
                connection.transaction(),
            ):
                saved = await connection.fetchval(_save_sql(w.state_changed), *args)
                if saved == 1:
                    _, trips = await write_record_async(connection, numbered, w.record, _dumps)
                    self.stats.round_trips += trips
        if saved != 1 and time.monotonic() - sent >= SAVE_DEADLINE_SECONDS / 2:
            # most likely past its deadline (a slow server), not a newer version: say so
            raise StorageUnavailable(f"{self.describe()} answered a save too late")
        return saved == 1

    async def _write_record(self, record: MatchRecord) -> bool:
        async with self._answering(), self.pool.acquire() as connection, connection.transaction():
            recorded, trips = await write_record_async(connection, numbered, record, _dumps)
        self.stats.round_trips += trips
        return recorded


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """The pool's default reset sends a query (UNLISTEN, RESET ALL, ...) each time a connection
    goes back: one more round trip per statement. The bot's connections change no session
    state (no SET, LISTEN or advisory lock: the instance lock has a connection of its own),
    and asyncpg still rolls back a transaction left open."""


@lru_cache(maxsize=2)
def _save_sql(with_state: bool) -> str:
    """The whole save in one statement: the row (guarded by its version, and by a deadline
    on the server's clock) first; every other part runs only if the row was saved."""
    columns = ", ".join(PLAY_SEAT_FIELDS)
    updates = ", ".join(f"{name} = excluded.{name}" for name in PLAY_SEAT_FIELDS)
    seat_types = "int[], bigint[], text[], int[], text[], text[], float8[], bool[], int[], bool[], int[], float8[], bool[], text[]"  # noqa: E501
    unnest = ", ".join(f"${11 + n}::{kind.strip()}" for n, kind in enumerate(seat_types.split(",")))
    first = 11 + len(seat_types.split(","))  # $25: the first event's number
    state = f", state = ${first + 7}" if with_state else ""
    deadline = first + 8 if with_state else first + 7  # the last argument
    return f"""
    WITH saved AS (
        UPDATE matches SET status = $3, options = $4, turn_seconds = $5, ends_at = $6,
            last_mover = $7, version = $8, updated_at = $9{state}
        WHERE id = $1 AND version = $2 AND clock_timestamp() < to_timestamp(${deadline})
        RETURNING id
    ), dropped AS (
        DELETE FROM seats WHERE match_id = $1 AND seat >= $10 AND EXISTS (SELECT 1 FROM saved)
    ), seated AS (
        INSERT INTO seats (match_id, seat, {columns})
        SELECT $1, * FROM unnest({unnest}) WHERE EXISTS (SELECT 1 FROM saved)
        ON CONFLICT (match_id, seat) DO UPDATE SET {updates}
    ), logged AS (
        INSERT INTO events (match_id, seq, event)
        SELECT $1, ${first}::int + (n - 1)::int, event
        FROM unnest(${first + 1}::text[]) WITH ORDINALITY AS new (event, n)
        WHERE EXISTS (SELECT 1 FROM saved)
    ), moved AS (
        INSERT INTO moves (match_id, version, seat, action, automatic, at)
        SELECT $1, $8, seat, action, automatic, $9
        FROM unnest(${first + 2}::int[], ${first + 3}::text[], ${first + 4}::bool[])
            AS move (seat, action, automatic)
        WHERE EXISTS (SELECT 1 FROM saved)
    ), noticed AS (
        INSERT INTO notices (match_id, key, params)
        SELECT $1, key, params FROM unnest(${first + 5}::text[], ${first + 6}::text[])
            AS notice (key, params)
        WHERE EXISTS (SELECT 1 FROM saved)
    )
    SELECT COUNT(*) FROM saved
    """


class _Transaction:
    def __init__(self, storage: PostgresStorage, connection: asyncpg.Connection) -> None:
        self.storage = storage
        self.connection = connection

    async def rows(self, sql: str, args: Sequence = ()) -> list[Row]:
        self.storage.stats.round_trips += 1
        return await self.connection.fetch(numbered(sql), *args)

    async def run(self, sql: str, args: Sequence = ()) -> int:
        self.storage.stats.round_trips += 1
        return changed(await self.connection.execute(numbered(sql), *args))
