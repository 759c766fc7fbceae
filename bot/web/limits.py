"""What one user, and everyone together, may ask of the table app: a request's size, a
pace of requests per user, and how many live connections stay open. A request over a limit
is refused at once (413, 429, 503); nothing waits in line."""

from __future__ import annotations

from collections import OrderedDict

from aiolimiter import AsyncLimiter

MAX_BODY_BYTES = 2048  # a move is a few numbers
REQUESTS_PER_SECOND = 10  # per user, sustained
REQUEST_BURST = 20  # per user, at once (a page's first load and a few fast taps)
LIVE_PER_USER = 4  # open live connections of one user (a table in a few windows)
LIVE_IN_ALL = 5000  # open live connections of everyone
PACED_USERS = 10_000  # users whose pace is remembered; the oldest are forgotten first


class Pace:
    """Each user's requests, a leaky bucket of ``REQUEST_BURST`` that drains at
    ``REQUESTS_PER_SECOND`` (aiolimiter's ``AsyncLimiter``)."""

    def __init__(self, per_second: float = REQUESTS_PER_SECOND, burst: int = REQUEST_BURST) -> None:
        self.per_second, self.burst = per_second, burst
        self._buckets: OrderedDict[int, AsyncLimiter] = OrderedDict()

    async def allow(self, user_id: int) -> bool:
        bucket = self._buckets.get(user_id)
        if bucket is None:
            bucket = AsyncLimiter(self.burst, self.burst / self.per_second)
            self._buckets[user_id] = bucket
            while len(self._buckets) > PACED_USERS:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(user_id)
        if not bucket.has_capacity():
            return False
        await bucket.acquire()  # has capacity: does not wait
        return True
