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


async def check(storage: Storage | None) -> Health:
    if storage is None or not storage.holds_lock:
        return Health(False, "waiting for the instance lock (another instance serves)")
    if storage.out_of_service:
        return Health(False, f"{storage.describe()} refuses writes")
    try:
        await asyncio.wait_for(storage.ping(), PING_SECONDS)
    except Exception as error:  # a timeout, a dropped connection: the database is out
        return Health(False, f"{storage.describe()} does not answer ({type(error).__name__})")
    return Health(True, "serving")
