"""What one user, and everyone together, may ask of the table app: a request's size, a
pace of requests per user (and per client address, for launch data that does not check),
and how many live connections stay open. A request over a limit is refused at once (413,
429, 503); nothing waits in line."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from aiolimiter import AsyncLimiter

MAX_BODY_BYTES = 2048  # a move is a few numbers
REQUESTS_PER_SECOND = 10  # per user, sustained
REQUEST_BURST = 20  # per user, at once (a page's first load and a few fast taps)
LIVE_PER_USER = 4  # open live connections of one user (a table in a few windows)
LIVE_IN_ALL = 5000  # open live connections of everyone
PACED_USERS = 10_000  # users (or addresses) whose pace is remembered; the oldest go first


class Pace:
    """Each user's (or client address's) requests, a leaky bucket of ``REQUEST_BURST`` that
    drains at ``REQUESTS_PER_SECOND`` (aiolimiter's ``AsyncLimiter``)."""

    def __init__(self, per_second: float = REQUESTS_PER_SECOND, burst: int = REQUEST_BURST) -> None:
        self.per_second, self.burst = per_second, burst
        self._buckets: OrderedDict[Hashable, AsyncLimiter] = OrderedDict()

    def has_capacity(self, key: Hashable) -> bool:
        """Whether ``key`` may make one more request now (nothing is counted)."""
        bucket = self._buckets.get(key)
        return bucket is None or bucket.has_capacity()

    async def allow(self, key: Hashable) -> bool:
        """Count one request of ``key``; False where it is over its pace."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = AsyncLimiter(self.burst, self.burst / self.per_second)
            self._buckets[key] = bucket
            while len(self._buckets) > PACED_USERS:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(key)
        if not bucket.has_capacity():
            return False
        await bucket.acquire()  # has capacity: does not wait
        return True
