"""Outgoing calls paced to Telegram's limits: about 30 a second in all, and at most 19 calls
in any rolling minute to one group (Telegram allows about 20).

PTB's ``AIORateLimiter`` spaces a group's calls when they *enter* the limiter; a call that
then waits for the overall limiter goes out later, closer to the next one, and a busy
minute reached 21 calls. Here a group's budget is charged when its call actually leaves,
one call of a group at a time, so the bound holds whatever the load:

* a hard rule: at most ``GROUP_CALLS`` calls in any ``window`` (plus a second's margin for
  delivery jitter);
* pacing within it: a burst of up to ``GROUP_BURST`` calls (a move's news and the board
  posted anew below it go out together), then one call every
  ``window / (GROUP_CALLS - GROUP_BURST)`` seconds, so under fast play the board keeps
  moving instead of stalling once the budget is spent;
* at least a second between two calls to the same group.

Overall, calls are spaced by :class:`Pacing` (a burst of ``overall_per_second`` calls, then
one call every ``1 / overall_per_second`` seconds, first come first served): 30 by default,
``TELEGRAM_CALLS_PER_SECOND`` where the operator pays for more (``PAID_BROADCAST``).

An inline message's edit names no chat: the messenger passes the chat it is in (its stand-in
id, ``bot.table.place``) as ``rate_limit_args``, and it is paced as a group's call — a private chat
between two people allows no more.

While a group waits here the publisher's requests for it coalesce: the next call draws the
latest state. Reads (``getChatMember``...) are not messages and are not held back, so a
press that needs an admin check is still answered at once. Answers to presses carry no
chat and are never held back either.

**The table app's share.** A call the table app makes on a user's request (whether they
are a member of a group; "Play with a friend"'s ``savePreparedInlineMessage``) is marked
``rate_limit_args=APP_CALL``. Those calls have a share of the overall budget they may
never exceed (``app_share``, a tenth: 3 calls a second, a burst of 3, at the free 30), and
they never wait for it: past the share the call is refused at once (:class:`ShareSpent`),
and the app answers "try again in a minute". Within the share they still queue behind every
call of the games (the overall pacing releases the games' calls first), so a flood of the
app's requests never delays a group's move. The share is a property of this one limiter,
so it holds wherever its budget is kept.

**Groups first.** When the overall budget is spent, the calls waiting for it leave in three
lanes, each first come first served: the groups' calls (and reads, and calls to no chat)
first, then the calls to private chats (a practice match's board, a player's hand), then the
app's. So a crowd playing practice matches as fast as they can — a hundred users take the
whole budget — slows their own boards, never a group's move.

**Several workers, one budget.** Where several workers serve the token (PostgreSQL), the
limits above order each worker's own calls, and then every call also reserves its moment in
the budget the workers share (:class:`SharedBudget`, ``bot.storage.shared``): the bot's ~30
a second in all, and each group's minute, as one process would spend them. A shared budget
that does not answer is left aside (one log line) and the local limits alone pace the calls:
the bot slows no one for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

GROUP_CALLS = 19  # per window and group: Telegram allows about 20 a minute
GROUP_BURST = 3
OVERALL_PER_SECOND = 30  # Telegram: about 30 messages a second per bot (TELEGRAM_CALLS_PER_SECOND)
READS = frozenset(
    {"getChat", "getChatMember", "getChatAdministrators", "getChatMemberCount", "getMe"}
)
MAX_IDLE_GROUPS = 1000  # idle groups' bookkeeping is dropped beyond this many
APP_CALL = "app"  # rate_limit_args of a call the table app makes on a user's request
APP_SHARE = 0.1  # of the overall budget: the most the app's calls may ever take


class ShareSpent(Exception):
    """A call of the table app past its share of the budget: refused, not sent."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"the app's share of Telegram's budget is spent ({retry_after:.1f} s)")
        self.retry_after = retry_after


class SharedBudget(Protocol):
    """Telegram's budget shared by several workers (``bot.storage.shared.Shared``)."""

    async def reserve_call(
        self, overall: tuple[float, float], group: tuple[int, float, float] | None = None
    ) -> float:
        """The seconds until a call may leave: ``overall`` (spacing, burst tolerance) for the
        bot's calls in all, ``group`` (id, spacing, tolerance) for a group's."""
        ...


GROUPS, PRIVATE, APP = 0, 1, 2  # the lanes of the overall budget, first to last


class Pacing:
    """At most ``burst`` calls at once and ``per_second`` a second on average: in any span
    of ``s`` seconds at most ``burst + s * per_second`` calls go, also after the event loop
    stalled (the budget is counted in real time and never grows beyond ``burst``). A call
    within the budget goes at once, without an await; the calls that wait are released by
    one timer. (aiolimiter's ``AsyncLimiter``, used before, kept a heap entry, callbacks and
    a rescheduled timer for every waiting call: a fifth of the drawing's CPU under load.)
    The calls that wait do so in ``lanes``: a call leaves only when no call waits in an
    earlier lane, and within a lane first come first served."""

    def __init__(self, per_second: float, burst: int, lanes: int = 3) -> None:
        self.per_second = per_second
        self.burst = burst
        self._budget = float(burst)  # calls that may go now
        self._counted = 0.0  # when the budget was last brought up to date (loop time)
        self._lanes: tuple[deque[asyncio.Future[None]], ...] = tuple(deque() for _ in range(lanes))
        self._timer: asyncio.TimerHandle | None = None

    async def wait(self, lane: int = GROUPS) -> None:
        loop = asyncio.get_running_loop()
        if not any(self._lanes[: lane + 1]):  # nothing waits before it
            self._count(loop.time())
            if self._budget >= 1:
                self._budget -= 1
                return
        waiting = loop.create_future()
        self._lanes[lane].append(waiting)
        if self._timer is None:
            self._release_later(loop)
        await waiting

    def take_now(self) -> bool:
        """One call of the budget if it may go at once (nothing waits); else False, and
        nothing is taken."""
        if any(self._lanes):
            return False
        self._count(asyncio.get_running_loop().time())
        if self._budget < 1:
            return False
        self._budget -= 1
        return True

    def seconds_to_next(self) -> float:
        """How long until one more call may go."""
        self._count(asyncio.get_running_loop().time())
        return max(0.0, (1 - self._budget) / self.per_second)

    def _count(self, now: float) -> None:
        self._budget = min(self.burst, self._budget + (now - self._counted) * self.per_second)
        self._counted = now

    def _release_later(self, loop: asyncio.AbstractEventLoop) -> None:
        delay = (1 - self._budget) / self.per_second
        self._timer = loop.call_at(self._counted + delay, self._release)

    def _release(self) -> None:
        loop = asyncio.get_running_loop()
        self._timer = None
        self._count(loop.time())
        for queue in self._lanes:
            while queue and self._budget >= 1:
                waiting = queue.popleft()
                if not waiting.done():  # else its caller was cancelled
                    self._budget -= 1
                    waiting.set_result(None)
        if any(self._lanes):
            self._release_later(loop)


@dataclass
class _Group:
    tokens: float
    checked: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sent: deque[float] = field(default_factory=deque)  # when its recent calls left


class TelegramLimits(BaseRateLimiter[int | str]):
    """``window`` is Telegram's minute; tests shrink it (and ``margin``) to see many minutes
    of play in a few seconds. ``app_share``: the part of ``overall_per_second`` the table
    app's calls may take (``APP_CALL``)."""

    def __init__(
        self,
        window: float = 60.0,
        margin: float = 1.0,
        group_calls: int = GROUP_CALLS,
        burst: int = GROUP_BURST,
        overall_per_second: float = OVERALL_PER_SECOND,
        app_share: float = APP_SHARE,
    ) -> None:
        self.group_calls = group_calls
        self.burst = burst
        self.guard = window + margin  # any window this long holds at most group_calls
        # burst + guard / refill ≤ group_calls + a fraction: the bucket alone keeps the rule
        self.refill = window / (group_calls - burst)
        self.min_gap = window / 60
        self.overall = Pacing(overall_per_second, burst=max(1, int(overall_per_second)))
        app_pace = overall_per_second * app_share
        self.app = Pacing(app_pace, burst=max(1, int(app_pace)))
        self._groups: dict[int | str, _Group] = {}
        # several workers: the budget they share, in GCRA's terms (a call's spacing, and the
        # burst allowed ahead of it), the same limits as this process's
        self.shared: SharedBudget | None = None
        spacing = 1 / overall_per_second
        self._overall_terms = (spacing, (self.overall.burst - 1) * spacing)
        self._group_terms = (self.refill, (burst - 1) * self.refill)
        self._shared_failing = False

    def share(self, budget: SharedBudget | None) -> None:
        """Spend the budget several workers share, besides this process's own limits."""
        self.shared = budget

    async def _shared_turn(self, group: int | str | None = None) -> None:
        """Wait for the call's moment in the workers' shared budget, if there is one."""
        budget = self.shared
        if budget is None:
            return
        terms = (group, *self._group_terms) if isinstance(group, int) else None
        try:
            wait = await budget.reserve_call(self._overall_terms, terms)
        except Exception as error:  # the database does not answer: the local limits alone
            if not self._shared_failing:
                log.warning("the workers' shared Telegram budget does not answer: %r", error)
            self._shared_failing = True
            return
        self._shared_failing = False
        if wait > 0:
            await asyncio.sleep(wait)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | str | None,
    ) -> Any:
        if rate_limit_args == APP_CALL:  # within the app's share, after the games' calls
            if not self.app.take_now():
                raise ShareSpent(self.app.seconds_to_next())
            await self.overall.wait(APP)
            await self._shared_turn()
            return await callback(*args, **kwargs)
        chat_id = data.get("chat_id")
        if chat_id is None:  # an inline message's edit: the chat it is in (``Messenger``)
            chat_id = rate_limit_args
        if chat_id is None:  # answers to presses, getMe...: no chat, no limit
            return await callback(*args, **kwargs)
        group = _group_id(chat_id)
        if endpoint in READS:
            await self.overall.wait(GROUPS)
            await self._shared_turn()
            return await callback(*args, **kwargs)
        if group is None:  # a private chat: after the groups' calls
            await self.overall.wait(PRIVATE)
            await self._shared_turn()
            return await callback(*args, **kwargs)
        state = self._group(group)
        async with state.lock:
            await self._wait_for_budget(state)
            await self.overall.wait()
            await self._shared_turn(group)
            now = _now()
            self._refill(state, now)
            state.tokens -= 1
            state.sent.append(now)
            return await callback(*args, **kwargs)

    def _group(self, group: int | str) -> _Group:
        state = self._groups.get(group)
        if state is None:
            if len(self._groups) > MAX_IDLE_GROUPS:
                self._forget_idle()
            state = self._groups[group] = _Group(tokens=self.burst, checked=_now())
        return state

    def _refill(self, state: _Group, now: float) -> None:
        state.tokens = min(self.burst, state.tokens + (now - state.checked) / self.refill)
        state.checked = now
        while state.sent and state.sent[0] <= now - self.guard:
            state.sent.popleft()

    async def _wait_for_budget(self, state: _Group) -> None:
        while True:
            now = _now()
            self._refill(state, now)
            waits = []
            if state.tokens < 1:
                waits.append((1 - state.tokens) * self.refill)
            if state.sent and now - state.sent[-1] < self.min_gap:
                waits.append(state.sent[-1] + self.min_gap - now)
            if len(state.sent) >= self.group_calls:
                waits.append(state.sent[0] + self.guard - now)
            if not waits:
                return
            await asyncio.sleep(max(waits))

    def _forget_idle(self) -> None:
        now = _now()
        for group, state in list(self._groups.items()):
            idle = not state.sent or state.sent[-1] <= now - self.guard
            if idle and not state.lock.locked():
                del self._groups[group]


def _group_id(chat_id: Any) -> int | str | None:
    """Groups and channels have negative ids (or ``@names``); private chats positive ones."""
    with contextlib.suppress(ValueError, TypeError):
        chat_id = int(chat_id)
    if isinstance(chat_id, str) or (isinstance(chat_id, int) and chat_id < 0):
        return chat_id
    return None


def _now() -> float:
    return asyncio.get_running_loop().time()
