"""What happens to a group's matches when the group itself changes: it is upgraded to a
supergroup (a new chat id), the bot is removed from it, or a member leaves it — and to a
match whose one message is gone (an inline message deleted)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.storage import ACTIVE, Storage
from bot.table.languages import Languages
from bot.table.locks import MatchLocks
from bot.table.publishing.messages import Ending
from bot.table.publishing.publisher import Publisher
from bot.table.timers import Timers
from bot.telegram_api.messenger import Messenger

log = logging.getLogger(__name__)


@dataclass(eq=False)  # compared and hashed by identity, like any service
class ChatLifecycle:
    storage: Storage
    messenger: Messenger
    languages: Languages
    lock: MatchLocks
    publisher: Publisher  # draws the moved matches in their new chat, the ended ones' prompts
    timers: Timers  # stops the timers of the matches that end

    def member_left(self, chat_id: int, user_id: int) -> None:
        """A member left the group or was removed: they stop watching its tables in the
        app at once. A seat of theirs plays on (its clock and autopilot see to it)."""
        self.publisher.tables.member_left(chat_id, user_id)

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
            if was_playing:  # each prompt says so, as a new message: nobody else will
                self.publisher.end_prompts(match, Ending("removed.private", notify=True))

    async def place_gone(self, match_id: int) -> None:
        """The message a match is played in is gone (its chat's users deleted the inline
        message, or Telegram no longer lets it be edited): the match cannot be shown any
        more, so it ends (a lobby closes), its timers stop, and the players hear it
        privately."""
        async with self.lock(match_id):
            match = await self.storage.load(match_id)
            if match is None or match.status not in ACTIVE:
                return
            was_playing = match.status == "playing"
            match.status = "cancelled"
            await self.storage.save(match, ended="abandoned")
            self.timers.arm(match)
        log.info("match %s ended: its message is gone", match_id)
        if was_playing:  # each prompt says so, as a new message: nobody else can
            self.publisher.end_prompts(match, Ending("inline.gone_private", notify=True))
