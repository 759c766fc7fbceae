"""PostgreSQL backend (``DATABASE_URL=postgresql://...``), through asyncpg.

A small pool of connections serves the bot; a save is one statement (the match row, the
seats that changed, the new log entries, the move and the notices in one ``WITH`` query), so
it is atomic and costs one round trip. Saves have connections of their own, each sending one
batch at a time: the saves made while both are busy go together in the next statement (a
group commit, :mod:`bot.storage.postgres_saves`), each guarded as if alone. Under load many
presses share one round trip, and a save never waits behind reads and drawings for a
connection. The SQL the contract writes with ``?`` is given PostgreSQL's ``$1, $2...`` once
and kept.

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
    Storage,
    StorageUnavailable,
)
from bot.storage.migrations.postgres import MIGRATIONS
from bot.storage.postgres_saves import SAVE_MANY, save_many_arguments
from bot.storage.records import MatchRecord, write_record_async
from bot.storage.rows import MATCH_DISPLAY, SEAT_DISPLAY, MatchWrite, Row, dumps, payload
from bot.storage.shared import CONNECT_TIMEOUT, OUTAGE, STATEMENT_SECONDS, Shared

MIGRATION_KEY = 0x7461626C656D6967  # "tablemig": the advisory lock migrating takes

# One bot per database: every instance asks for the same advisory lock (any fixed 64-bit key).
INSTANCE_LOCK_KEY = 0x7461626C65626F74  # "tablebot"
POOL_SIZE = 4  # reads, drawings' writes, the ends of matches
# the saves' own connections, each sending one batch at a time: a save never waits behind
# drawings for a connection, and a new save goes out at once while the other is on its way
SAVE_CONNECTIONS = 2
# the batch's statement planned for its arrays each time: a plan made once for arrays of any
# length reads the whole matches table to find a batch's rows
SAVE_SETTINGS = {"plan_cache_mode": "force_custom_plan"}
# Telegram drops a press's answer after about 15 s, and a PaaS kills a stopping process
# after about 30 s: a server that does not answer within these is taken as down
# (one statement: STATEMENT_SECONDS, and a connection's CONNECT_TIMEOUT, in bot.storage.shared)
CALL_SECONDS = 5.0  # one call: a connection from the pool, its statements, giving it back
CLOSE_SECONDS = 3.0  # closing the connections at shutdown, then they are cut
LOCK_SILENCE_SECONDS = 6.0  # a lock connection silent this long is cut and made afresh
# A save carries a deadline on the server's clock, this long before the client gives up on
# it: a save the server reaches only later (it hung, then resumed with the statement in its
# socket) writes nothing, so a press told "no move was made" never finds its move made
SAVE_DEADLINE_SECONDS = STATEMENT_SECONDS - 1.0

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

    def __init__(self, url: str, instance_lock: bool = True) -> None:
        """``instance_lock``: one instance at a time on the database (else a worker among
        several, :mod:`bot.storage.shared`)."""
        super().__init__()
        self.url = url
        self.instance_lock = instance_lock
        self._pool: asyncpg.Pool | None = None
        self._lock_connection: asyncpg.Connection | None = None
        self._lock_pid: int | None = None  # the server process of the lock's session
        self._lock_silent_since: float | None = None
        self._opening: asyncio.Task | None = None
        self._unavailable: str | None = None  # why calls fail at once, while they do
        self._server_clock_ahead = 0.0  # the server's clock minus ours, in seconds
        self._saves: list[tuple[MatchWrite, asyncio.Future]] = []  # waiting for a batch
        self._save_pool: asyncpg.Pool | None = None  # SAVE_CONNECTIONS, for the batches
        self._committers: set[asyncio.Task] = set()  # sending batches, while saves wait

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
        self._pool, self._save_pool = [
            await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=STATEMENT_SECONDS,
                reset=_nothing_to_reset,
                server_settings=settings,
            )
            for size, settings in ((POOL_SIZE, None), (SAVE_CONNECTIONS, SAVE_SETTINGS))
        ]
        await self._migrate()
        if not self.instance_lock:  # a worker among several: what they share (one alone
            shared = Shared(self.url)  # needs none of it, and pays nothing for it)
            await shared.open()
            self.shared = shared

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
        """Take the instance lock on ``connection`` (a worker among several takes none: the
        connection only watches the server)."""
        if self.instance_lock and not await connection.fetchval(
            "SELECT pg_try_advisory_lock($1)", INSTANCE_LOCK_KEY
        ):
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
        while self._committers:  # the saves queued: committed, or refused
            await asyncio.gather(*map(asyncio.shield, self._committers), return_exceptions=True)
        shared, self.shared = self.shared, None
        pools = [pool for pool in (self._pool, self._save_pool) if pool is not None]
        self._pool = self._save_pool = None
        # all at once, so a server that does not answer holds up a stop CLOSE_SECONDS in all
        await asyncio.gather(
            *map(_close_pool, pools),
            self._release_lock(),
            *([_close_shared(shared)] if shared is not None else []),
        )

    async def _migrate(self) -> None:
        async with self.pool.acquire() as connection, connection.transaction():
            # one process migrates at a time: workers started together on a new database
            # would otherwise race to create the schema (the others wait, then find it done)
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_KEY)
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

    def refuse_if_unavailable(self) -> None:
        if self._unavailable is not None:
            self._refused()
            raise StorageUnavailable(self._unavailable)

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

    # -- the match's revision (a trigger's count of writes to its rows: migration 13) --------
    async def _revision(self, match_id: int) -> int | None:
        rows = await self._rows("SELECT revision FROM matches WHERE id = ?", (match_id,))
        return rows[0][0] if rows else None

    async def _write_match_display(
        self, match_id: int, chat_id: int, values: tuple
    ) -> tuple[int, int | None]:
        args = (*values, match_id, chat_id)
        self.stats.bytes_written += payload(args)  # (as ``_write`` counts it)
        rows = await self._rows(f"{MATCH_DISPLAY} RETURNING revision", args)
        return len(rows), rows[0][0] if rows else None

    async def _write_seat_display(self, match_id: int, seat: int, values: tuple) -> int | None:
        # the seat and its match's revision in one statement, so the revision it returns is
        # this write's (the seats' trigger sees the row written by this transaction already)
        self.stats.bytes_written += payload((*values, match_id, seat))  # the seat's write
        rows = await self._rows(
            f"WITH seat AS ({SEAT_DISPLAY}) "
            "UPDATE matches SET revision = revision WHERE id = ? RETURNING revision",
            (*values, match_id, seat, match_id),
        )
        return rows[0][0] if rows else None

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
        if write.record is not None:
            return await self._write_ending(write)
        if self._unavailable is not None:
            self._refused()
            raise StorageUnavailable(self._unavailable)
        future = asyncio.get_running_loop().create_future()
        self._saves.append((write, future))
        if len(self._committers) < SAVE_CONNECTIONS:
            committer = asyncio.get_running_loop().create_task(self._commit_saves())
            self._committers.add(committer)
            committer.add_done_callback(self._committers.discard)
        return await future

    async def _commit_saves(self) -> None:
        """One of the save connections' senders: the saves that queued up while it (and the
        other) had a batch on its way go together in one statement (one round trip, one
        transaction)."""
        while self._saves:
            batch, later, matches = [], [], set()
            for save in self._saves:  # one save per match in a batch, the first queued
                (later if save[0].match_id in matches else batch).append(save)
                matches.add(save[0].match_id)
            self._saves = later
            await self._commit_batch(batch)

    async def _commit_batch(self, batch: list[tuple[MatchWrite, asyncio.Future]]) -> None:
        try:
            outcomes = await self._save_many([write for write, _ in batch])
        except StorageUnavailable as error:
            outcomes = [_unavailable_like(error) for _ in batch]
        except asyncpg.PostgresError as error:
            if len(batch) == 1:
                outcomes = [error]
            else:  # one save at fault (it should not happen): each alone, the others commit
                for save in batch:
                    await self._commit_batch([save])
                return
        except asyncio.CancelledError:  # the storage is closing under it
            for _, future in batch:
                future.cancel()
            raise
        except Exception as error:
            outcomes = [error] * len(batch)
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue  # its caller was cancelled; the save is done all the same
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def _save_many(
        self, writes: list[MatchWrite], connection: asyncpg.Connection | None = None
    ) -> list[bool | StorageUnavailable]:
        """Each write saved, or not (its row is no longer at its version), or too late."""
        sent = time.monotonic()
        deadline = time.time() + self._server_clock_ahead + SAVE_DEADLINE_SECONDS
        args = save_many_arguments(writes, deadline)
        self.stats.round_trips += 1
        if connection is None:
            if self._save_pool is None:
                raise RuntimeError("storage is not open")
            async with self._answering():
                rows = await self._save_pool.fetch(SAVE_MANY, *args)
        else:
            rows = await connection.fetch(SAVE_MANY, *args)
        saved = {row[0]: row[1] for row in rows}
        for write in writes:
            write.revision = saved.get(write.match_id)
        if time.monotonic() - sent < SAVE_DEADLINE_SECONDS / 2:
            return [write.match_id in saved for write in writes]
        # a save not written this late is most likely past its deadline (a slow server),
        # not behind a newer version: say so
        late = StorageUnavailable(f"{self.describe()} answered a save too late")
        return [write.match_id in saved or _unavailable_like(late) for write in writes]

    async def _write_ending(self, write: MatchWrite) -> bool:
        """The match ends: the save, its record and the ratings in one transaction (the
        record reads the moves the save writes, so it follows in the same transaction)."""
        async with (
            self._answering(),
            self.pool.acquire() as connection,
            connection.transaction(),
        ):
            [saved] = await self._save_many([write], connection)
            if saved is True:
                _, trips = await write_record_async(connection, numbered, write.record, dumps)
                self.stats.round_trips += trips
        if isinstance(saved, StorageUnavailable):
            raise saved
        return saved

    async def _write_record(self, record: MatchRecord) -> bool:
        async with self._answering(), self.pool.acquire() as connection, connection.transaction():
            recorded, trips = await write_record_async(connection, numbered, record, dumps)
        self.stats.round_trips += trips
        return recorded


async def _close_pool(pool: asyncpg.Pool) -> None:
    try:
        await asyncio.wait_for(pool.close(), CLOSE_SECONDS)
    except (*OUTAGE, asyncio.CancelledError):
        pool.terminate()  # a server that does not answer must not hold up a stop


async def _close_shared(shared: Shared) -> None:
    """The workers' side closed within ``CLOSE_SECONDS``, else cut."""
    closing = asyncio.ensure_future(shared.close(CLOSE_SECONDS))
    done, _ = await asyncio.wait({closing}, timeout=CLOSE_SECONDS)
    if not done:
        closing.cancel()
        shared.terminate()


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """The pool's default reset sends a query (UNLISTEN, RESET ALL, ...) each time a connection
    goes back: one more round trip per statement. The bot's connections change no session
    state (no SET, LISTEN or advisory lock: the instance lock has a connection of its own),
    and asyncpg still rolls back a transaction left open."""


def _unavailable_like(error: StorageUnavailable) -> StorageUnavailable:
    """One exception per waiting caller (each raises it in its own task)."""
    copy = StorageUnavailable(*error.args)
    copy.__cause__ = error.__cause__
    return copy


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
