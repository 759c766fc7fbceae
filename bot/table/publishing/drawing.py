"""What every drawing of a match uses: the database, Telegram, the languages, the board
pictures and the host's clock; recording what a chat now shows; who hears what drawing
finds out about a group; and the table app's open tables."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.storage import Match, Storage, StorageUnavailable
from bot.table.languages import Languages
from bot.table.publishing.board_pictures import BoardPictures
from bot.telegram_api.messenger import Messenger

ChatKey = tuple[str, int]  # ("group", chat id) or ("user", user id)

# A message sent while the database briefly refuses writes (a lock being retaken, a short
# outage) is recorded once it answers again, or its buttons would be left live and
# forgotten: tried again for this long
RECORD_RETRY_SECONDS = 10.0
RECORD_RETRY_EVERY = 0.5


class ChatWatcher(Protocol):
    """Who hears what drawing finds out about a group (``bot.table.chat_lifecycle``)."""

    async def move_chat(self, old: int, new: int) -> None: ...

    async def bot_removed(self, chat_id: int) -> None: ...

    async def place_gone(self, match_id: int) -> None:
        """The message a match is played in is gone (an inline message deleted)."""


class OpenTables(Protocol):
    """The table app's side of publishing (``bot.web`` provides it, ``bot.app`` connects
    it): whom a change is told to, whose table is open, and the app's address for a match."""

    def changed(self, match: Match) -> None:
        """A match has a new version: the open tables read it again."""

    def is_open(self, match_id: int, user_id: int) -> bool:
        """The player has the match's table open and connected: their chat prompt waits."""

    def member_left(self, chat_id: int, user_id: int) -> None:
        """The user left the group or was removed: they no longer watch its tables."""

    def link(self, match: Match) -> str | None:
        """The address that opens the match's table; None: the app does not show it."""

    def replay_link(self, match: Match) -> str | None:
        """The address that replays the ended match; None: the app does not show it."""

    def tournament_link(self, tournament_id: int) -> str | None:
        """The address of a tournament's page; None: no table app."""

    def tournament_start_param(self, tournament_id: int) -> str | None:
        """The start parameter of a link that opens a tournament's page in the group itself
        (``WEB_APP_MAIN``); None: the private chat hands out the app's button."""

    def start_param(self, match: Match) -> str | None:
        """The start parameter of a link that opens the match's table in the group itself
        (``t.me/<bot>?startapp=``: the app is the bot's Main Mini App, ``WEB_APP_MAIN``);
        None: the private chat hands out the app's button."""


class NoTables:
    """No table app (``WEB_APP_URL`` unset): the chats are all there is."""

    def changed(self, match: Match) -> None:
        return None

    def is_open(self, match_id: int, user_id: int) -> bool:
        return False

    def member_left(self, chat_id: int, user_id: int) -> None:
        return None

    def link(self, match: Match) -> str | None:
        return None

    def replay_link(self, match: Match) -> str | None:
        return None

    def tournament_link(self, tournament_id: int) -> str | None:
        return None

    def tournament_start_param(self, tournament_id: int) -> str | None:
        return None

    def start_param(self, match: Match) -> str | None:
        return None


async def record_shown(save: Callable[[], Awaitable[None]]) -> None:
    """Record what a chat now shows, waiting out a database that briefly refuses."""
    deadline = time.monotonic() + RECORD_RETRY_SECONDS
    while True:
        try:
            return await save()
        except StorageUnavailable:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(RECORD_RETRY_EVERY)


@dataclass(frozen=True)
class Services:
    """What a drawing calls: the database, Telegram, the languages, the board pictures."""

    storage: Storage
    messenger: Messenger
    languages: Languages
    pictures: BoardPictures


class Drawing:
    """The services at hand, and the host's clock (tests move it): shared by the group's
    side and the private chats'."""

    def __init__(self, services: Services) -> None:
        self.storage, self.messenger = services.storage, services.messenger
        self.languages, self.pictures = services.languages, services.pictures
        self.clock: Callable[[], float] = time.time
        self.tables: OpenTables = NoTables()  # the table app's, once ``bot.app`` connects it
