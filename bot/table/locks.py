"""One lock per match: updates for the same match are handled one at a time, updates for
different matches concurrently."""

from __future__ import annotations

import asyncio
import weakref


class MatchLocks:
    """``async with locks(match_id):`` — the match's lock, made on first use. Locks vanish
    with their last user."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock
