"""One lock per match: updates for the same match are handled one at a time, updates for
different matches concurrently.

Where one process serves (SQLite, long polling) the lock is an ``asyncio.Lock``. Where
several workers serve one PostgreSQL, it is that lock and then the match's advisory lock across
workers (:meth:`bot.storage.shared.Shared.match_lock`): a worker's own presses queue in
memory and hold one database connection at a time, and two workers' presses for one match
apply one after the other. Under it the match's cached copy is dropped if another worker
has written the match since (its revision moved on), so each update reads the state the
other workers left."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from bot.storage import Storage, StorageUnavailable
from bot.storage.workers import MatchHeld

# the tournaments' locks across workers: keys of their own, far above any match's id
TOURNAMENT_LOCKS = 1 << 62


class MatchLocks:
    """``async with locks(match_id):`` — the match's lock, made on first use. Locks vanish
    with their last user. ``storage``: where a lock across workers is asked for, if its
    database is shared (``Storage.shared``); none, or SQLite: this process's lock only."""

    def __init__(self, storage: Storage | None = None) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._storage = storage

    def _local(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def __call__(self, match_id: int) -> AbstractAsyncContextManager[object]:
        local = self._local(match_id)
        if self._storage is None or self._storage.shared is None:
            return local
        return self._across_workers(local, self._storage, match_id)

    @staticmethod
    @asynccontextmanager
    async def _across_workers(
        local: asyncio.Lock, storage: Storage, match_id: int
    ) -> AsyncIterator[None]:
        async with local:
            shared = storage.shared
            if shared is None:  # the storage closed meanwhile: this process's lock only
                yield
                return
            storage.refuse_if_unavailable()  # a server known not to answer: at once
            entered = False
            try:
                async with shared.match_lock(match_id):
                    entered = True
                    # read afresh if another worker changed its play or what its chats
                    # show (the publisher's fields change no version, but its revision)
                    await storage.forget_if_changed(match_id)
                    yield
            except MatchHeld as error:  # the database answers: refused like an outage's
                if entered:
                    raise
                raise StorageUnavailable(str(error)) from error
