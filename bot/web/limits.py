"""What one user, one client address, and everyone together may spend through the table app:
one table of actions and their budgets (:data:`BUDGETS`), counted by one mechanism
(:class:`Budgets`), plus a request's size and how many live connections stay open.

A budget is a leaky bucket (aiolimiter's ``AsyncLimiter``): ``burst`` at once, then
``per_minute`` a minute, kept per user, per client address or for everyone. It is charged
for the thing that costs — a request, launch data that does not check, a prepared
invitation, a practice match, a question to Telegram — not for every request that could
lead to one, so a valid user is never refused for someone else's spending (OWASP's
authentication throttling; lichess's ``RateLimit`` per action; GitHub's and Telegram's
limits per action). A request over a budget is refused at once (429, with ``Retry-After``
and a message in the asker's language); nothing waits in line.

The bot's own Telegram budget is guarded where its calls leave: the calls the app makes
(``getChatMember``, ``savePreparedInlineMessage``) have a share of it they may never exceed,
and the groups' calls go first (``bot.telegram_api.rate_limit``)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

from aiolimiter import AsyncLimiter

MAX_BODY_BYTES = 2048  # a move is a few numbers
LIVE_PER_USER = 4  # open live connections of one user (a table in a few windows)
LIVE_IN_ALL = 5000  # open live connections of everyone
KEYS_KEPT = 10_000  # users (or addresses) whose budgets are remembered; the oldest go first


@dataclass(frozen=True)
class Budget:
    """``burst`` at once, then ``per_minute`` a minute, for each ``per`` (a user, a client
    address, or everyone together); ``refusal``: the message key of the answer past it."""

    burst: int
    per_minute: float
    per: Literal["user", "address", "everyone"]
    refusal: str

    @property
    def error(self) -> str:
        """The answer's ``error`` key: the page tells the refusals apart by it."""
        return self.refusal.removeprefix("app.")

    @property
    def retry_after(self) -> int:
        """Seconds until one more is allowed, at most, once the budget is spent."""
        return max(1, math.ceil(60 / self.per_minute))


# The table: every action that spends something, and what it may spend.
BUDGETS: dict[str, Budget] = {
    # any API request of a signed user: a page's first load and a few fast taps at once
    "request": Budget(burst=20, per_minute=600, per="user", refusal="app.too_fast"),
    # launch data that does not check, per client address: only those failing requests are
    # refused past it; a valid signature from the same address is served on its user's pace
    "failed_sign_in": Budget(
        burst=20, per_minute=30, per="address", refusal="app.sign_ins_failing"
    ),
    # "Play with a friend": a new prepared message (savePreparedInlineMessage); the same game
    # asked again gets the one already prepared, while Telegram keeps it
    "invitation": Budget(burst=3, per_minute=3, per="user", refusal="app.invitations_spent"),
    # the end screen's Play again: a rematch's lobby drawn in the match's chat (its calls)
    "rematch": Budget(burst=3, per_minute=3, per="user", refusal="app.rematches_spent"),
    # a new practice match against bots (its board and prompts: a private chat's calls)
    "practice": Budget(burst=3, per_minute=3, per="user", refusal="app.practice_spent"),
    # ... and of everyone: each new match's board and prompt are a few calls to Telegram,
    # so a crowd of accounts cannot start enough of them to crowd out the groups
    "practices": Budget(burst=20, per_minute=60, per="everyone", refusal="app.busy"),
    # whether someone is a member of a group (getChatMember), asked of Telegram when it is
    # not known from the last minute; asking about a table or tournament that is not there
    # is charged to the asker as if it were (so the answers cannot tell them apart)
    "look_up": Budget(burst=10, per_minute=10, per="user", refusal="app.look_ups_spent"),
    "look_ups": Budget(burst=60, per_minute=120, per="everyone", refusal="app.busy"),
}
# Lessons (their steps and moves) spend nothing but the request's own pace: a lesson's
# start and finish are counted once per user and game, in storage (bot.storage).


class Spent(Exception):
    """An action over its budget: the refusal's message key and when to try again."""

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.action = action
        self.budget = BUDGETS[action]


class Budgets:
    """Every action's budget, each key's bucket made on its first use (the ``KEYS_KEPT``
    most recent keys of each action kept)."""

    def __init__(self, table: dict[str, Budget] | None = None) -> None:
        self.table = dict(BUDGETS if table is None else table)
        self._buckets: dict[str, OrderedDict[Hashable, AsyncLimiter]] = {
            action: OrderedDict() for action in self.table
        }

    def _bucket(self, action: str, key: Hashable) -> AsyncLimiter:
        buckets = self._buckets[action]
        bucket = buckets.get(key)
        if bucket is None:
            budget = self.table[action]
            # aiolimiter's bucket holds ``burst`` and leaks it in burst / rate seconds
            bucket = AsyncLimiter(budget.burst, budget.burst * 60 / budget.per_minute)
            buckets[key] = bucket
            while len(buckets) > KEYS_KEPT:
                buckets.popitem(last=False)
        buckets.move_to_end(key)
        return bucket

    def has(self, action: str, key: Hashable = None) -> bool:
        """Whether ``key`` may spend one more now (nothing is charged)."""
        bucket = self._buckets[action].get(key)
        return bucket is None or bucket.has_capacity()

    def require(self, action: str, key: Hashable = None) -> None:
        """:class:`Spent` where ``key`` may not spend one more of ``action`` now (nothing
        is charged)."""
        if not self.has(action, key):
            raise Spent(action)

    async def spend(self, action: str, key: Hashable = None) -> None:
        """Charge one to ``key``'s budget of ``action``; :class:`Spent` where it is spent
        (and nothing is charged)."""
        bucket = self._bucket(action, key)
        if not bucket.has_capacity():
            raise Spent(action)
        await bucket.acquire()  # has capacity: does not wait

    async def allow(self, action: str, key: Hashable = None) -> bool:
        """:meth:`spend`, as a yes or no."""
        try:
            await self.spend(action, key)
        except Spent:
            return False
        return True
