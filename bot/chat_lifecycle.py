"""What happens to a group's matches when the group itself changes: it is upgraded to a
supergroup (a new chat id), or the bot is removed from it."""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass

from telegram.error import TelegramError

from bot.languages import Languages
from bot.locks import MatchLocks
from bot.messenger import Messenger, Unreachable
from bot.publisher import Publisher
from bot.storage import ACTIVE, Match, Storage
from bot.timers import Timers
from bot.ui import get_ui

log = logging.getLogger(__name__)


@dataclass(eq=False)  # compared and hashed by identity, like any service
class ChatLifecycle:
    storage: Storage
    messenger: Messenger
    languages: Languages
    lock: MatchLocks
    publisher: Publisher  # draws the moved matches in their new chat
    timers: Timers  # stops the timers of the matches that end

    async def move_chat(self, old: int, new: int) -> None:
        """The group ``old`` is now the supergroup ``new`` (Telegram said so with a service
        message or by refusing a call): its lobbies, matches and language move there, and
        their lobby or board is posted anew in it. Safe to repeat."""
        moved = await self.storage.move_chat(old, new)
        log.info("chat %s became %s: %d unfinished matches moved", old, new, len(moved))
        for match_id in moved:
            match = await self.storage.load(match_id)
            if match is not None:
                self.publisher.request(match, [("group", new)])

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: it can no longer show its games there, so they
        end (lobbies close), their timers stop, and the players hear it privately."""
        for match_id in await self.storage.active_in_chat(chat_id):
            async with self.lock(match_id):
                match = await self.storage.load(match_id)
                if match is None or match.status not in ACTIVE or match.chat_id != chat_id:
                    continue
                was_playing = match.status == "playing"
                match.status = "cancelled"
                await self.storage.save(match, ended="abandoned")
                self.timers.arm(match)  # a stopped match has no timer
            log.info("match %s ended: the bot is no longer in chat %s", match_id, chat_id)
            if was_playing:
                await self._tell_players(match)

    async def _tell_players(self, match: Match) -> None:
        for seat in match.humans:
            t = await self.languages.user_t_by_id(seat.user_id)
            text = t(
                "removed.private",
                title=html.escape(match.title or "—"),
                game=html.escape(get_ui(match.game).title(t)),
            )
            try:
                if seat.prompt_message_id is not None:
                    await self.messenger.drop_keyboard(seat.user_id, seat.prompt_message_id)
                await self.messenger.send(seat.user_id, text)
            except (Unreachable, TelegramError) as error:
                log.info(
                    "could not tell %s that match %s ended (%s)", seat.user_id, match.id, error
                )
