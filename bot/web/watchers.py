"""Who may watch a match from the table app: a member of the group it is played in (its
public view), asked of Telegram and then known for ``MEMBERSHIP_SECONDS``. In an inline
message or a private chat nobody but its players may. When the bot hears that a member
left or was removed, what it knew of them is forgotten at once (``forget``), so their next
request asks Telegram again.

Asking Telegram spends everyone's ``look_ups`` budget (``bot.web.limits``) and the app's
share of the bot's Telegram budget; when either is spent the answer is
:class:`~bot.web.limits.Spent` ("try again in a minute"), never a guess — not a wrong yes,
and not a no that would be remembered. Who may ask, and what a refusal costs the asker, is
the API's (``bot.web.api``)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.telegram_api.rate_limit import ShareSpent
from bot.web.limits import Budgets, Spent

MEMBERSHIP_SECONDS = 60  # a member's right to watch, asked of Telegram this seldom
MEMBERSHIPS_KEPT = 10_000


class Watchers:
    def __init__(
        self, is_member: Callable[[int, int], Awaitable[bool]], budgets: Budgets | None = None
    ) -> None:
        self.is_member = is_member
        self.budgets = budgets or Budgets()
        self._known: OrderedDict[tuple[int, int], tuple[bool, float]] = OrderedDict()
        self.clock: Callable[[], float] = time.monotonic
        self.asked = 0  # questions put to Telegram, for the figures

    def known(self, chat_id: int, user_id: int) -> bool | None:
        """Whether the user is a member of the group, as Telegram said within the last
        ``MEMBERSHIP_SECONDS``; None where that is not known."""
        known = self._known.get((chat_id, user_id))
        if known is not None and self.clock() - known[1] < MEMBERSHIP_SECONDS:
            return known[0]
        return None

    async def ask(self, chat_id: int, user_id: int) -> bool:
        """Ask Telegram whether the user is a member of the group now, charged to everyone's
        ``look_ups`` (the caller checks the budgets first: ``bot.web.api``)."""
        await self.budgets.spend("look_ups")
        try:
            member = await self.is_member(chat_id, user_id)
        except ShareSpent:
            raise Spent("look_ups") from None
        self.asked += 1
        key = (chat_id, user_id)
        self._known[key] = (member, self.clock())
        self._known.move_to_end(key)
        while len(self._known) > MEMBERSHIPS_KEPT:
            self._known.popitem(last=False)
        return member

    def forget(self, chat_id: int, user_id: int) -> None:
        self._known.pop((chat_id, user_id), None)
