"""A database outage, told to the groups with a running match: one message when the storage
starts refusing calls (moves wait), edited when it takes them again (play on).

The database is not asked (it is down): the storage's memory of the running matches names
their chats and topics, and their languages where it knows them."""

from __future__ import annotations

import asyncio
import logging

from bot.presentation.i18n import translator
from bot.storage import Storage
from bot.telegram_api.messenger import Messenger

log = logging.getLogger(__name__)


class OutageNotice:
    """The storage's ``on_outage`` hook."""

    def __init__(self, storage: Storage, messenger: Messenger, default_language: str) -> None:
        self.storage = storage
        self.messenger = messenger
        self.default_language = default_language
        self._posted: dict[tuple[int, int], tuple[int, str]] = {}  # (chat, topic): (id, lang)
        self._turn = asyncio.Lock()  # a notice's edit waits until it is sent
        self._tasks: set[asyncio.Task] = set()

    def __call__(self, started: bool) -> None:
        # the chats now, at the first refusal: a refused save forgets its match's cached copy
        chats = self.storage.running_chats() if started else []
        task = asyncio.get_running_loop().create_task(self._tell(started, chats))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Until the notices under way are sent (at shutdown; and for tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _tell(self, started: bool, chats: list[tuple[int, int, str | None]]) -> None:
        async with self._turn:
            if started:
                await self._post(chats)
            else:
                await self._clear()

    async def _post(self, chats: list[tuple[int, int, str | None]]) -> None:
        log.warning("the storage refuses calls: telling %s groups with a running match", len(chats))
        for chat_id, thread_id, lang in chats:
            if (chat_id, thread_id) in self._posted:
                continue  # told already in this outage
            lang = lang or self.default_language
            try:
                message_id = await self.messenger.send(
                    chat_id, translator(lang)("outage.started"), thread_id=thread_id
                )
            except Exception as error:  # Telegram refused it: the players are told on a press
                log.warning("could not tell chat %s of the outage: %r", chat_id, error)
                continue
            self._posted[chat_id, thread_id] = (message_id, lang)

    async def _clear(self) -> None:
        posted, self._posted = self._posted, {}
        for (chat_id, _), (message_id, lang) in posted.items():
            try:
                await self.messenger.edit(chat_id, message_id, translator(lang)("outage.over"))
            except Exception as error:  # deleted meanwhile, or Telegram refused: play goes on
                log.warning("could not tell chat %s the outage is over: %r", chat_id, error)
