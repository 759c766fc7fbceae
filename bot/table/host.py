"""The running bot's services in one container, and the typed context that hands it to every
handler (``context.host``).

``bot.app`` builds each service with what it needs and puts them here; nothing in this
module builds or imports its way back up.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot
from telegram.ext import Application, CallbackContext, ExtBot, JobQueue

from bot.operations.draining import Draining
from bot.operations.error_count import ErrorCount
from bot.operations.outage_notice import OutageNotice
from bot.settings import Settings
from bot.storage import Match, Seat, Storage
from bot.table import flow
from bot.table.ai_seats import AISeats
from bot.table.chat_lifecycle import ChatLifecycle
from bot.table.hints import Hints
from bot.table.languages import Languages
from bot.table.locks import MatchLocks
from bot.table.publishing.publisher import Publisher
from bot.table.seasons import SeasonPodiums
from bot.table.timers import Timers
from bot.table.tournaments.service import Tournaments
from bot.telegram_api.messenger import Messenger
from bot.telegram_api.sent_recently import SentRecently
from games.core import Action

HOST_KEY = "host"  # where the Host lives in ``application.bot_data``


@dataclass
class Host:
    settings: Settings
    storage: Storage
    messenger: Messenger
    languages: Languages
    lock: MatchLocks  # ``async with host.lock(match_id):`` one update of a match at a time
    publisher: Publisher
    timers: Timers
    chats: ChatLifecycle
    ai_seats: AISeats  # plays the AI seats off the event loop
    hints: Hints  # practice hints, in a lane of their own
    outage: OutageNotice  # tells the groups of a database outage, and of its end
    draining: Draining  # no new games before an upgrade (/drain)
    tournaments: Tournaments  # tournaments in groups: their lobbies, rounds and messages
    seasons: SeasonPodiums  # a season's end told in each group once
    errors: ErrorCount = field(default_factory=ErrorCount)  # errors logged lately (/status)
    started_at: float = field(default_factory=time.monotonic)  # for /status's uptime
    # /history's matches sent to someone's private chat lately: (user id, match id)
    history_sent: SentRecently = field(default_factory=SentRecently)

    @property
    def bot(self) -> Bot:
        return self.messenger.bot

    @property
    def clock(self) -> Callable[[], float]:
        """The bot's time: the timers' clock (tests replace it to move time by hand)."""
        return self.timers.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.timers.clock = clock  # the AI seats' commits use it too
        self.publisher.clock = clock  # the time left shown on boards and prompts

    @property
    def job_queue(self) -> JobQueue | None:
        return self.timers.job_queue

    async def play(
        self,
        match: Match,
        seat: Seat,
        action: Action,
        answer: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """A player's own move, from a chat button or the table app — one path for both
        windows, under the match's lock (the caller holds it), the move already checked:
        commit it, answer the player, let the seats on autopilot follow, draw it everywhere."""
        await flow.commit_move(self.storage, match, seat.seat, tuple(action), self.clock())
        if answer is not None:  # committed: answered before anything slower
            await answer()
        await self.timers.settle(match)
        self.publisher.request(match)


def get_host(application: Application) -> Host:
    return application.bot_data[HOST_KEY]


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The context every handler receives (``ContextTypes(context=BotContext)`` in
    ``bot.app``): ``context.host`` is the running bot's services."""

    @property
    def host(self) -> Host:
        return self.bot_data[HOST_KEY]
