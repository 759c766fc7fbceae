"""What several bot workers on one PostgreSQL share, so that any of them may take any update.

- **The workers.** Each process is a worker with a name of its own (a restarted process is a
  new worker), heard from every ``HEARTBEAT_SECONDS`` on the server's clock (``workers``).
  One not heard from for ``WORKER_SILENCE_SECONDS`` is gone.
- **The inbox** (``inbox``): one row per Telegram ``update_id``, written before the webhook
  answers 200, so an update Telegram sends twice (or to two workers) is taken once; the row
  is the worker's until it is handled, and a gone worker's unhandled updates are taken over
  by the others (``take_orphans``).
- **A match's lock:** a transaction-scoped advisory lock per match, held on a connection of
  its own for as long as the update that took it runs; the server ends it with the
  transaction, or with the session if the worker dies. A deadline is played by whichever
  worker's sweep finds it due and its match not held (``match_busy``, the advisory lock's
  ``SKIP LOCKED``), under the lock and against the state read afresh, so it fires once.
- **The leader:** one worker holds a session advisory lock (``LEADER_KEY``) on a connection
  of its own and runs the singletons (tournaments' timed starts, seasons' podiums, lobbies'
  expiry). Every worker tries for it each ``HEARTBEAT_SECONDS``: when the leader dies its
  session ends, and another leads within a second or two.

- **One Telegram budget** (``telegram_pace``): every outgoing call reserves its moment on
  the server's clock (``reserve_call``), for the bot's calls in all and for its group's, so
  the workers together keep within Telegram's limits as one process would.
- **A chat's writer** (``chat_writers``): the worker that draws a chat's messages (the
  group's board, a player's prompt), as long as it is heard from, so edits leave in the
  order they were drawn. Another worker that changed a match hands its drawing to the
  writer (``hand_over``); the writer takes what it was handed every
  ``HANDED_LOOK_SECONDS``; a gone writer's chats are taken by the next worker to draw them,
  with what it had been handed.

- **Live tables** (LISTEN/NOTIFY on ``TABLES_CHANNEL``): a worker that changed a match says
  "match M is at version N" (``tell_tables``); every worker listens on a connection of its
  own and tells the table app's pages connected to it (``hear_tables``).

SQLite serves one process (its file lock), and has none of this.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg

from bot.storage.contract import StorageUnavailable
from bot.storage.workers import MatchHeld

log = logging.getLogger(__name__)

# the leader's advisory lock (session-level; any fixed 64-bit key apart from the instance
# lock's and from match ids)
LEADER_KEY = 0x7461626C656C6561  # "tablelea"
INBOX_KEY = 0x7461626C65696E62  # "tableinb": taking over a gone worker's updates
HEARTBEAT_SECONDS = 1.0
TABLES_CHANNEL = "tables"  # NOTIFY payloads: "<match id>:<version>"
WORKER_SILENCE_SECONDS = 5.0  # a worker silent this long is gone: its updates are taken over
# a match's lock waited for at most this long (as long as one call to the database may take)
MATCH_LOCK_SECONDS = 5.0
RELEASE_SECONDS = 1.0  # letting a match's lock go: a server silent this long has it cut
MATCH_LOCK_CONNECTIONS = 16  # matches one worker holds at once; more wait for a connection
KEEP_HANDLED_SECONDS = 24 * 3600  # Telegram keeps an unconfirmed update for a day at most
ORPHANS_AT_ONCE = 100
# a chat's writer, alive (``i``: its ``chat_writers`` row; $2: the silence allowed)
WRITER_ALIVE = (
    "EXISTS (SELECT 1 FROM workers w WHERE w.name = c.worker "
    "AND w.seen_at > now() - make_interval(secs => $2))"
)
# an inbox row ``i`` whose worker is gone ($1: the worker asking, $2: the silence allowed)
ORPHANED = (
    "i.done_at IS NULL AND i.worker <> $1 AND NOT EXISTS (SELECT 1 FROM workers w "
    "WHERE w.name = i.worker AND w.seen_at > now() - make_interval(secs => $2))"
)
# every PostgreSQL connection of the bot's (bot.storage.postgres's too): how long one may take
# to open and one statement to answer, and what a server that is down, restarting or out of
# reach raises
CONNECT_TIMEOUT = 10.0
STATEMENT_SECONDS = 4.0
OUTAGE = (
    TimeoutError,
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
)


def worker_name() -> str:
    """This process's name among the workers: the platform's name for its machine (a dyno's
    ``DYNO``, else the host name), its process id, and a few random letters, so a restarted
    worker is never taken for the one that died."""
    place = os.environ.get("DYNO") or socket.gethostname()
    return f"{place}-{os.getpid()}-{secrets.token_hex(2)}"


@dataclass(frozen=True)
class Worker:
    name: str
    seen_seconds_ago: float
    alive: bool


class Shared:
    """One worker's side of the shared database (``open`` after the storage has migrated)."""

    def __init__(self, url: str, name: str | None = None) -> None:
        self.url = url
        self.name = name or worker_name()
        self._pool: asyncpg.Pool | None = None
        self._locks: asyncpg.Pool | None = None
        self._heartbeat: asyncio.Task | None = None
        self._leader: asyncpg.Connection | None = None  # asks for LEADER_KEY, holds it
        self._leading = False
        self._listener: asyncpg.Connection | None = None  # LISTENs on TABLES_CHANNEL
        self._heard: Callable[[int, int], None] | None = None
        self._listening_again: Callable[[], Awaitable[None]] | None = None

    async def open(self) -> None:
        self._pool = await asyncpg.create_pool(  # (every call to Telegram reserves on it)
            self.url,
            min_size=1,
            max_size=4,
            timeout=CONNECT_TIMEOUT,
            command_timeout=STATEMENT_SECONDS,
        )
        self._locks = await asyncpg.create_pool(
            self.url,
            min_size=1,
            max_size=MATCH_LOCK_CONNECTIONS,
            timeout=CONNECT_TIMEOUT,
            command_timeout=STATEMENT_SECONDS,
            reset=_nothing_to_reset,  # each lock's transaction ends before it goes back
        )
        await self.beat()
        await self.try_to_lead()
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat_forever())

    async def close(self, within: float = 3.0) -> None:
        """Leave: the worker's row goes, so what it had not handled is taken over at once
        (``within`` seconds, a server that does not answer is cut)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()  # (a beat cut short on a silent server is not waited for)
            await asyncio.wait({self._heartbeat}, timeout=within / 4)
            self._heartbeat = None
        await self._stop_leading()
        self._stop_listening()
        pools = [pool for pool in (self._pool, self._locks) if pool is not None]
        if self._pool is not None:
            try:
                await self._pool.execute(
                    "DELETE FROM workers WHERE name = $1", self.name, timeout=within / 2
                )
            except (*OUTAGE, asyncpg.PostgresError):
                pass  # the others see it silent soon enough
        self._pool = self._locks = None
        for pool in pools:
            try:
                await asyncio.wait_for(pool.close(), within / 2)
            except (*OUTAGE, asyncpg.PostgresError):
                pool.terminate()

    def terminate(self) -> None:
        """Cut every connection at once (a stop that a silent server would hold up)."""
        for pool in (self._pool, self._locks):
            if pool is not None:
                pool.terminate()
        if self._leader is not None:
            self._leader.terminate()
        self._stop_listening()
        self._pool = self._locks = self._leader = None
        self._leading = False

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the shared database is not open")
        return self._pool

    # -- the workers -----------------------------------------------------------------------
    async def beat(self) -> None:
        await self.pool.execute(
            "INSERT INTO workers (name) VALUES ($1) "
            "ON CONFLICT (name) DO UPDATE SET seen_at = now()",
            self.name,
        )

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.beat()
                await self.try_to_lead()
                await self._keep_listening()
            except (*OUTAGE, asyncpg.PostgresError):
                await self._stop_leading()  # not sure to hold it: another may lead
                # the database does not answer: the next beat tries again

    # -- live tables -----------------------------------------------------------------------
    async def tell_tables(self, match_id: int, version: int) -> None:
        """Tell every worker's pages that the match is at ``version`` (this worker's own
        hear it too, harmlessly: a stream is told only of newer versions)."""
        await self.pool.execute(
            "SELECT pg_notify($1, $2)", TABLES_CHANNEL, f"{int(match_id)}:{int(version)}"
        )

    async def hear_tables(
        self,
        heard: Callable[[int, int], None],
        listening_again: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Call ``heard(match, version)`` for every change any worker tells. The connection
        that listens is watched with the heartbeat: one that dropped is opened again within
        a second, and ``listening_again`` is awaited then — what was told meanwhile is not
        heard, so the pages' matches are read again there."""
        self._heard, self._listening_again = heard, listening_again
        await self._keep_listening()

    async def versions(self, match_ids: list[int]) -> dict[int, int]:
        """The committed version of each match (one read, for the pages after a gap)."""
        rows = await self.pool.fetch(
            "SELECT id, version FROM matches WHERE id = ANY($1::bigint[])", match_ids
        )
        return {row[0]: row[1] for row in rows}

    async def _keep_listening(self) -> None:
        if self._heard is None or (self._listener is not None and not self._listener.is_closed()):
            return
        again = self._listener is not None
        connection = await asyncpg.connect(
            self.url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_SECONDS
        )
        await connection.add_listener(TABLES_CHANNEL, self._notified)
        self._listener = connection
        if again and self._listening_again is not None:
            await self._listening_again()

    def _notified(self, connection: object, pid: int, channel: str, payload: str) -> None:
        match_id, _, version = payload.partition(":")
        if self._heard is not None and match_id.isdigit() and version.isdigit():
            self._heard(int(match_id), int(version))

    def _stop_listening(self) -> None:
        connection, self._listener, self._heard = self._listener, None, None
        if connection is not None:
            connection.terminate()

    # -- the leader ------------------------------------------------------------------------
    @property
    def leading(self) -> bool:
        connection = self._leader
        return self._leading and connection is not None and not connection.is_closed()

    async def try_to_lead(self) -> bool:
        """Lead if nobody does (the lock is the session's of a connection kept for it); a
        leader makes sure its session still answers. True while this worker leads."""
        connection = self._leader
        if connection is None or connection.is_closed():
            self._leading = False
            connection = self._leader = await asyncpg.connect(
                self.url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_SECONDS
            )
        if self.leading:
            await connection.fetchval("SELECT 1")
            return True
        if not await connection.fetchval("SELECT pg_try_advisory_lock($1)", LEADER_KEY):
            return False
        try:
            await self.pool.execute("UPDATE workers SET led_at = now() WHERE name = $1", self.name)
        except BaseException:
            await self._stop_leading()  # not said: let go, for another to take
            raise
        self._leading = True
        return True

    async def _stop_leading(self) -> None:
        connection, self._leader, self._leading = self._leader, None, False
        if connection is not None:
            connection.terminate()  # its session ends: the lock is free for another

    async def leader(self) -> str | None:
        """The worker that leads now, by its name (the latest to take the lead that is
        still heard from)."""
        return await self.pool.fetchval(
            "SELECT name FROM workers WHERE led_at IS NOT NULL AND seen_at > now() - "
            "make_interval(secs => $1) ORDER BY led_at DESC LIMIT 1",
            WORKER_SILENCE_SECONDS,
        )

    async def workers(self) -> list[Worker]:
        """Every worker heard from in the last minute, the longest-running first."""
        rows = await self.pool.fetch(
            "SELECT name, extract(epoch FROM now() - seen_at)::float8 AS ago FROM workers "
            "WHERE seen_at > now() - interval '1 minute' ORDER BY started_at, name"
        )
        return [Worker(row[0], row[1], row[1] < WORKER_SILENCE_SECONDS) for row in rows]

    # -- the inbox -------------------------------------------------------------------------
    async def take_update(self, update_id: int, body: str) -> bool:
        """Keep an update before it is answered: True if it is new, False if it was taken
        already (Telegram sent it again, or to another worker): then there is nothing to do."""
        status = await self.pool.execute(
            "INSERT INTO inbox (update_id, body, worker) VALUES ($1, $2, $3) "
            "ON CONFLICT (update_id) DO NOTHING",
            update_id,
            body,
            self.name,
        )
        return status == "INSERT 0 1"

    async def handled(self, update_id: int) -> None:
        """The update's handlers have run: it is done (its body is no longer needed; its id
        is kept a day, to know it again)."""
        await self.pool.execute(
            "UPDATE inbox SET done_at = now(), body = '' WHERE update_id = $1", update_id
        )

    async def take_orphans(self) -> list[str]:
        """Take over the updates of workers gone before handling them (a crash, a kill, a
        stop cut short), in the order Telegram numbered them; returns their bodies. Two
        workers looking at once take different ones (``SKIP LOCKED``)."""
        # one worker at a time takes over (a lock for the transaction, then the statement's
        # own snapshot): two at once could both find a row orphaned and both take it
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", INBOX_KEY)
            rows = await connection.fetch(
                f"UPDATE inbox i SET worker = $1, taken_at = now() WHERE update_id IN ("
                f" SELECT update_id FROM inbox i WHERE {ORPHANED}"
                f" ORDER BY update_id LIMIT $3 FOR UPDATE SKIP LOCKED) AND {ORPHANED} "
                "RETURNING update_id, body",
                self.name,
                WORKER_SILENCE_SECONDS,
                ORPHANS_AT_ONCE,
            )
        return [row[1] for row in sorted(rows, key=lambda row: row[0])]

    async def forget_old(self) -> None:
        """Drop the inbox's handled updates older than Telegram would send again, and the
        workers long gone."""
        await self.pool.execute(
            "DELETE FROM inbox WHERE done_at < now() - make_interval(secs => $1)",
            KEEP_HANDLED_SECONDS,
        )
        await self.pool.execute(
            "DELETE FROM workers w WHERE seen_at < now() - interval '1 hour' AND NOT EXISTS "
            "(SELECT 1 FROM inbox i WHERE i.worker = w.name AND i.done_at IS NULL)"
        )

    async def waiting(self) -> int:
        """Updates taken and not handled yet, by any worker: the shared queue's depth."""
        return await self.pool.fetchval("SELECT COUNT(*) FROM inbox WHERE done_at IS NULL")

    # -- one Telegram budget ---------------------------------------------------------------
    async def reserve_call(
        self, overall: tuple[float, float], group: tuple[int, float, float] | None = None
    ) -> float:
        """Reserve an outgoing call's moment in the workers' one budget: ``overall`` is the
        bot's (spacing, burst tolerance) in seconds, ``group`` a group's (id, spacing,
        tolerance) where the call is to one. Returns the seconds to wait before it leaves
        (one round trip; the server's clock, so the workers' clocks need not agree)."""
        spacing, tolerance = overall
        if group is None:
            return await self.pool.fetchval(
                "SELECT telegram_reserve(0, $1, $2, 0) - extract(epoch FROM clock_timestamp())",
                spacing,
                tolerance,
            )
        chat_id, chat_spacing, chat_tolerance = group
        # the group's moment first, then the bot's from it: the call waits for both
        return await self.pool.fetchval(
            "SELECT telegram_reserve(0, $1, $2, telegram_reserve($3, $4, $5, 0))"
            " - extract(epoch FROM clock_timestamp())",
            spacing,
            tolerance,
            chat_id,
            chat_spacing,
            chat_tolerance,
        )

    # -- a chat's writer -------------------------------------------------------------------
    async def claim_chat(self, chat_id: int) -> tuple[bool, list[str]]:
        """Whether this worker is the chat's writer: it is if it was, if nobody was, or if
        the writer is gone. Returns (is the writer, the drawings handed over and not drawn
        yet, now this worker's to draw: each is marked with :meth:`drawn` once drawn)."""
        # the common case in one round trip: this worker's chat, nothing handed over (nobody
        # takes a chat from a writer that is heard from)
        if await self.pool.fetchval(
            "SELECT worker = $2 AND dirty = '{}' FROM chat_writers WHERE chat_id = $1",
            chat_id,
            self.name,
        ):
            return True, []
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO chat_writers (chat_id, worker) VALUES ($1, $2) "
                "ON CONFLICT (chat_id) DO NOTHING",
                chat_id,
                self.name,
            )
            mine, alive, dirty, drawing = await connection.fetchrow(
                f"SELECT worker = $3, {WRITER_ALIVE}, dirty, drawing FROM chat_writers c "
                "WHERE chat_id = $1 FOR UPDATE",
                chat_id,
                WORKER_SILENCE_SECONDS,
                self.name,
            )
            if not mine and alive:
                return False, []
            # this worker's own drawings under way stay as they are; a gone writer's are
            # this worker's now
            taken = list(dirty) + ([] if mine else list(drawing))
            await connection.execute(
                "UPDATE chat_writers SET worker = $2, dirty = '{}', drawing = $3 "
                "WHERE chat_id = $1",
                chat_id,
                self.name,
                sorted(set(drawing if mine else ()) | set(taken)),
            )
            return True, taken

    async def hand_over(self, chat_id: int, drawing: str) -> None:
        """Leave a drawing of the chat (``drawing``: what the writer is to draw) to its
        writer."""
        await self.pool.execute(
            "UPDATE chat_writers SET dirty = array_append(dirty, $2) "
            "WHERE chat_id = $1 AND NOT ($2 = ANY(dirty))",
            chat_id,
            drawing,
        )

    async def take_handed(self) -> list[tuple[int, str]]:
        """The drawings other workers handed this one, and those a gone writer left (its
        chats become this worker's): (chat, drawing) pairs, each marked :meth:`drawn` once
        drawn."""
        rows = await self.pool.fetch(
            "WITH taken AS (SELECT chat_id, worker = $1 AS mine, dirty, drawing "
            "FROM chat_writers c WHERE (worker = $1 AND dirty <> '{}') OR (worker <> $1 AND "
            f"(dirty <> '{{}}' OR drawing <> '{{}}') AND NOT {WRITER_ALIVE}) "
            "FOR UPDATE SKIP LOCKED) "
            "UPDATE chat_writers c SET worker = $1, dirty = '{}', drawing = ARRAY(SELECT "
            "DISTINCT unnest(taken.dirty || taken.drawing)) FROM taken "
            "WHERE c.chat_id = taken.chat_id RETURNING c.chat_id, taken.mine, taken.dirty, "
            "taken.drawing",
            self.name,
            WORKER_SILENCE_SECONDS,
        )
        handed = []
        for chat_id, mine, dirty, drawing in rows:
            for item in sorted(set(dirty) | (set() if mine else set(drawing))):
                handed.append((chat_id, item))
        return handed

    async def drawn(self, chat_id: int, drawings: list[str]) -> None:
        """The writer drew what it was handed."""
        await self.pool.execute(
            "UPDATE chat_writers SET drawing = ARRAY(SELECT unnest(drawing) EXCEPT "
            "SELECT unnest($2::text[])) WHERE chat_id = $1 AND worker = $3",
            chat_id,
            drawings,
            self.name,
        )

    async def handed_waiting(self) -> int:
        """Chats with drawings handed over and not yet drawn by their writer (any worker's)."""
        return await self.pool.fetchval(
            "SELECT COUNT(*) FROM chat_writers WHERE dirty <> '{}' OR drawing <> '{}'"
        )

    # -- a match's lock --------------------------------------------------------------------
    async def match_busy(self, match_id: int) -> bool:
        """Whether another worker holds the match's lock right now (asked without waiting,
        and let go at once)."""
        return await self.pool.fetchval("SELECT NOT pg_try_advisory_xact_lock($1)", match_id)

    @asynccontextmanager
    async def match_lock(self, match_id: int) -> AsyncIterator[None]:
        """The match's advisory lock across workers, for as long as the block runs: taken in
        a transaction of its own on a connection of its own, and released when that
        transaction ends (or its session: a worker that dies holds nothing). A database that
        does not answer raises :class:`StorageUnavailable`, a lock not had in
        ``MATCH_LOCK_SECONDS`` :class:`MatchHeld` (nothing was done either way)."""
        if self._locks is None:
            raise RuntimeError("the shared database is not open")
        try:
            connection = await self._locks.acquire(timeout=MATCH_LOCK_SECONDS)
        except TimeoutError as error:  # this worker's other matches hold every connection
            raise MatchHeld(f"no connection free for match {match_id}'s lock") from error
        except OUTAGE as error:
            raise StorageUnavailable(f"no connection for match {match_id}'s lock") from error
        try:
            try:  # one round trip: the transaction and its lock (an integer, inlined)
                await connection.execute(
                    f"BEGIN; SELECT pg_advisory_xact_lock({int(match_id)})",
                    timeout=MATCH_LOCK_SECONDS,
                )
            except TimeoutError as error:  # held all that time (or a server that hangs)
                connection.terminate()
                raise MatchHeld(f"match {match_id}'s lock was not had in time") from error
            except OUTAGE as error:
                connection.terminate()
                raise StorageUnavailable(f"match {match_id}'s lock was not had") from error
            try:
                yield
            finally:
                # nothing was written in it: its end lets the lock go; a server that does
                # not answer has the session cut, which lets it go too
                try:
                    await connection.execute("ROLLBACK", timeout=RELEASE_SECONDS)
                except (*OUTAGE, asyncpg.PostgresError):
                    connection.terminate()
        finally:
            await self._locks.release(connection)


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """The pool's default reset is one more round trip per lock (UNLISTEN, RESET ALL, ...):
    a lock's connection changes no session state, and its transaction has ended."""
