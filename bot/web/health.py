"""Whether this instance serves, for a platform's health checks: it holds the instance lock
and its database answers. A waiting instance (another holds the lock) and one whose
database is out are unhealthy, so a platform routes to, or restarts, the right one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.storage import Storage

# A health probe that waits longer than this for the database reports it as down: platforms
# give a check a few seconds in all
PING_SECONDS = 2.0


@dataclass(frozen=True)
class Health:
    serving: bool
    reason: str  # for people reading the check's answer: why not, or "serving"


class HealthCheck:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # the database's answer to the last probe, while it is still awaited: a hung server
        # is asked once, not once per probe
        self._ping: asyncio.Task | None = None

    async def __call__(self) -> Health:
        storage = self.storage
        if not storage.holds_lock:
            return Health(False, "waiting for the instance lock (another instance serves)")
        if storage.out_of_service:
            return Health(False, f"{storage.describe()} refuses writes")
        if self._ping is None or self._ping.done():
            self._ping = asyncio.get_running_loop().create_task(storage.ping())
        # not wait_for: a cancelled query can itself hang on a server that does not answer
        done, _ = await asyncio.wait({self._ping}, timeout=PING_SECONDS)
        if not done:
            return Health(False, f"{storage.describe()} does not answer")
        error = self._ping.exception()
        if error is not None:
            return Health(False, f"{storage.describe()} does not answer ({type(error).__name__})")
        return Health(True, "serving")
