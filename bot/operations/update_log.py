"""One log line per update handled, with its latency: how long the bot took from picking the
update up to the end of its handlers (the messages it drew may go out later), and what it
was about (kind, chat, match; never its text)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from telegram.ext import Application

from bot.telegram_api.update_facts import facts_of

log = logging.getLogger("bot.updates")


async def _nothing(update: object) -> None:
    pass


class LoggedApplication(Application):
    # called once an update's handlers have run, whatever they did (bot.app: the inbox
    # marks the update handled)
    after_update: Callable[[object], Awaitable[None]] = staticmethod(_nothing)

    async def process_update(self, update: object) -> None:
        started = time.perf_counter()
        try:
            await super().process_update(update)
        finally:
            if log.isEnabledFor(logging.INFO):
                latency = round((time.perf_counter() - started) * 1000, 1)
                facts = facts_of(update)
                log.info(
                    "%s handled in %.1f ms",
                    facts.kind,
                    latency,
                    extra={**facts.as_log_fields(), "latency_ms": latency},
                )
            await self.after_update(update)
