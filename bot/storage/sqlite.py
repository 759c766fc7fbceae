"""SQLite backend (the default): one file, WAL, one connection on its own thread.

Every call to the database is a hand-off to that thread, so the work of a call is done in one
go: a save runs all its statements in one hand-off. Calls that arrive while the thread is busy
are committed together in the next hand-off (a group commit), each in its own savepoint, so
one call's failure never undoes another's; each caller still gets its answer only once its
work is committed.

One bot instance at a time: a lock file next to the database (``bot.sqlite3.lock``) is held
with ``flock`` while the storage is open; the kernel releases it when the process exits,
however it exits. A lock file deleted or replaced under a running instance would let another
start beside it: every write first makes sure the file at that path is still the one locked,
and the lock watch takes a new one (or stops the instance if another took it).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.storage.contract import (
    LOCK_POLL_SECONDS,
    InstanceRunning,
    Storage,
    StorageUnavailable,
)
from bot.storage.migrations.sqlite import MIGRATIONS
from bot.storage.records import MatchRecord, write_record
from bot.storage.rows import SEAT_UPSERT, MatchWrite, Row, dumps

Work = Callable[[sqlite3.Connection], Any]
# SQLite's errors that say the disk, not the call, is at fault: a full disk, a file made
# read-only, an I/O error, a database locked past the busy timeout
OUTAGE_CODES = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_BUSY", "SQLITE_CANTOPEN")

log = logging.getLogger("bot.storage")


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class InstanceLock:
    """``flock`` on the lock file next to the database."""

    def __init__(self, database: Path) -> None:
        self.path = lock_path(database)
        self._fd: int | None = None

    def try_take(self) -> bool:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # for people: who holds it
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = None

    def still_ours(self) -> bool:
        """The file at the lock's path is the one we hold: not deleted or replaced (another
        instance would then lock the new file and start)."""
        if self._fd is None:
            return False
        try:
            at_path = os.stat(self.path)
        except FileNotFoundError:
            return False
        held = os.fstat(self._fd)
        return (at_path.st_dev, at_path.st_ino) == (held.st_dev, held.st_ino)

    def take_again(self) -> bool:
        """The lock file was deleted or replaced: lock the one at the path now (False if
        another instance holds it)."""
        old, self._fd = self._fd, None
        if old is not None:
            os.close(old)
        return self.try_take()


class SQLiteStorage(Storage):
    backend = "sqlite"

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._queue: list[tuple[Work, bool, asyncio.Future]] = []
        self._drainer: asyncio.Task | None = None
        self._turn = asyncio.Lock()  # one batch, or one multi-step transaction, at a time
        self._lock = InstanceLock(self.path)
        self._opening: asyncio.Task | None = None

    def describe(self) -> str:
        return f"the SQLite file {self.path}"

    # -- lifecycle -------------------------------------------------------------------------
    async def _open(self, wait_for_lock: bool) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._opening = asyncio.current_task()
        try:
            await self._take_lock(wait_for_lock)
        finally:
            self._opening = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        self._db = await self._call(self._connect)
        await self._migrate()

    async def _take_lock(self, wait: bool) -> None:
        started = time.monotonic()
        told = False
        while not self._lock.try_take():
            if not wait:
                raise InstanceRunning(f"another bot instance is running on {self.describe()}")
            if not told:
                self.waiting_for_lock(self.describe())
                told = True
            await asyncio.sleep(LOCK_POLL_SECONDS)
        if told:
            self.took_lock(self.describe(), time.monotonic() - started)

    async def _keep_lock(self) -> bool:
        if self._lock.still_ours():
            return True
        if not self._lock.take_again():
            return False
        log.warning("the lock file %s was deleted or replaced: took it again", self._lock.path)
        return True

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL + WAL: a committed move survives a killed process; only an OS crash or
        # power cut could lose the very last commits.
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    async def _close(self) -> None:
        if self._opening is not None and not self._opening.done():
            # stopped while waiting for the lock (SIGTERM during a deploy): stop waiting
            self._opening.cancel()
            await asyncio.gather(self._opening, return_exceptions=True)
        if self._db is not None:
            while self._drainer is not None:
                await asyncio.gather(asyncio.shield(self._drainer), return_exceptions=True)
            async with self._turn:
                await self._call(self._db.close)  # the last connection: checkpoints the WAL
            self._db = None
        if self._thread is not None:
            self._thread.shutdown()
            self._thread = None
        self._lock.release()

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number > current:
                await self._call(self._apply_migration, number, script)

    def _apply_migration(self, number: int, script: str) -> None:
        db = self.db
        try:
            db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {number}; COMMIT;")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    async def schema_version(self) -> int:
        return (await self._rows("PRAGMA user_version"))[0][0]

    async def database_size(self) -> int:
        files = (self.path, self.path.with_name(self.path.name + "-wal"))
        return sum(file.stat().st_size for file in files if file.exists())

    async def integrity_check(self) -> str:
        return (await self._rows("PRAGMA integrity_check"))[0][0]

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    # -- the database thread ---------------------------------------------------------------
    async def _call(self, fn: Callable, *args: Any) -> Any:
        """One hand-off to the database thread."""
        self.stats.round_trips += 1
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def _submit(self, work: Work, writes: bool = True) -> Any:
        """Run ``work(connection)`` in a transaction, with whatever else is waiting."""
        if self._db is None:
            raise RuntimeError("storage is not open")
        future = asyncio.get_running_loop().create_future()
        self._queue.append((work, writes, future))
        if self._drainer is None:
            self._drainer = asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._queue:
                async with self._turn:
                    batch, self._queue = self._queue, []
                    writes = any(writes for _, writes, _ in batch)
                    try:
                        outcomes = await self._call(
                            self._run_batch, [work for work, _, _ in batch], writes
                        )
                    except BaseException as error:  # the commit itself failed: nothing holds
                        outcomes = [(False, error)] * len(batch)
                if writes and all(ok for ok, _ in outcomes):
                    self._answered()  # writes committed: the disk takes them (again)
                for (_, _, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue  # its caller was cancelled; the work is done all the same
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(self._outage(value))
        finally:
            self._drainer = None

    def _run_batch(self, works: list[Work], writes: bool) -> list[tuple[bool, Any]]:
        """On the database thread: every work in one transaction, each in a savepoint."""
        db = self.db
        outcomes: list[tuple[bool, Any]] = []
        if writes:
            self._fence()
        db.execute("BEGIN IMMEDIATE" if writes else "BEGIN")
        try:
            for work in works:
                db.execute("SAVEPOINT work")
                try:
                    outcomes.append((True, work(db)))
                except Exception as error:
                    if not db.in_transaction:  # SQLite rolled it all back (a full disk, an
                        raise  # I/O error): nothing of the batch holds, every work fails
                    db.execute("ROLLBACK TO work")
                    outcomes.append((False, error))
                db.execute("RELEASE work")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return outcomes

    def _outage(self, error: BaseException) -> BaseException:
        """A disk that is full, read-only or failing, as :class:`StorageUnavailable` (the
        player is told to try again shortly); any other error as it is."""
        name = getattr(error, "sqlite_errorname", None) or ""
        if isinstance(error, sqlite3.Error) and name.startswith(OUTAGE_CODES):
            unavailable = StorageUnavailable(f"{self.describe()}: {error} ({name})")
            unavailable.__cause__ = error
            error = unavailable
        if isinstance(error, StorageUnavailable):
            self._refused()
        return error

    def _fence(self) -> None:
        """Write only while the lock file is ours (a stat: microseconds)."""
        if not self._lock.still_ours():
            raise StorageUnavailable(f"the lock file {self._lock.path} is no longer ours")

    # -- the contract's primitives ---------------------------------------------------------
    async def _rows(self, sql: str, args: Sequence = ()) -> list[Row]:
        if sql.startswith("PRAGMA"):  # outside any transaction (user_version, checks)
            return await self._call(lambda: self.db.execute(sql, args).fetchall())
        return await self._submit(
            lambda db: db.execute(sql, args).fetchall(), writes=not sql.startswith("SELECT")
        )

    async def _run(self, sql: str, args: Sequence = ()) -> int:
        return await self._submit(lambda db: db.execute(sql, args).rowcount)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Transaction]:
        async with self._turn:
            try:
                self._fence()
            except StorageUnavailable:
                self._refused()
                raise
            await self._call(self.db.execute, "BEGIN IMMEDIATE")
            try:
                yield _Transaction(self)
            except BaseException:
                await self._call(self.db.execute, "ROLLBACK")
                raise
            await self._call(self.db.execute, "COMMIT")
        self._answered()

    async def _read_match(self, match_id: int) -> tuple[Row, list[Row], list[str]] | None:
        def read(db: sqlite3.Connection):
            row = db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            seats = db.execute(
                "SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            ).fetchall()
            events = db.execute(
                "SELECT event FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
            return row, seats, [event[0] for event in events]

        return await self._submit(read, writes=False)

    async def _write_match(self, write: MatchWrite) -> bool:
        return await self._submit(lambda db: _write_match(db, write))

    async def _write_record(self, record: MatchRecord) -> bool:
        return await self._submit(lambda db: write_record(db, record, dumps))


class _Transaction:
    def __init__(self, storage: SQLiteStorage) -> None:
        self.storage = storage

    async def rows(self, sql: str, args: Sequence = ()) -> list[Row]:
        db = self.storage.db
        return await self.storage._call(lambda: db.execute(sql, args).fetchall())

    async def run(self, sql: str, args: Sequence = ()) -> int:
        db = self.storage.db
        return await self.storage._call(lambda: db.execute(sql, args).rowcount)


def _write_match(db: sqlite3.Connection, w: MatchWrite) -> bool:
    """On the database thread: one save, the row first (its version guards the rest)."""
    state = ", state = ?" if w.state_changed else ""
    args = [w.status, w.options, w.turn_seconds, w.ends_at, w.last_mover, w.version, w.updated_at]
    if w.state_changed:
        args.append(w.state)
    cursor = db.execute(
        "UPDATE matches SET status = ?, options = ?, turn_seconds = ?, ends_at = ?, "
        f"last_mover = ?, version = ?, updated_at = ?{state} WHERE id = ? AND version = ?",
        (*args, w.match_id, w.expected),
    )
    if cursor.rowcount != 1:
        return False
    if w.seat_count is not None:
        db.execute("DELETE FROM seats WHERE match_id = ? AND seat >= ?", (w.match_id, w.seat_count))
    if w.seats:
        db.executemany(SEAT_UPSERT, [(w.match_id, *seat) for seat in w.seats])
    if w.events:
        db.executemany(
            "INSERT INTO events (match_id, seq, event) VALUES (?, ?, ?)",
            [(w.match_id, w.first_event + n, event) for n, event in enumerate(w.events)],
        )
    if w.move:
        db.execute(
            "INSERT INTO moves (match_id, version, seat, action, automatic, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (w.match_id, w.version, *w.move, w.updated_at),
        )
    if w.notices:
        db.executemany(
            "INSERT INTO notices (match_id, key, params) VALUES (?, ?, ?)",
            [(w.match_id, key, params) for key, params in w.notices],
        )
    if w.record is not None:  # after the move: its seat's moves count for the rating
        write_record(db, w.record, dumps)
    return True
