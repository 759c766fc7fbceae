"""Shared services of the running bot, kept in ``application.bot_data["host"]``."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from telegram import Bot, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import Application

from bot.i18n import Translator, negotiate, translator
from bot.messenger import Messenger
from bot.settings import Settings
from bot.storage import Storage

if TYPE_CHECKING:
    from bot.publisher import Publisher
    from bot.timers import Timers

HOST_KEY = "host"


@dataclass
class Host:
    settings: Settings
    storage: Storage
    messenger: Messenger
    job_queue: Any = None  # telegram.ext.JobQueue; None where no scheduler runs
    clock: Callable[[], float] = time.time  # injectable: tests move time by hand
    publisher: Publisher = field(init=False)
    timers: Timers = field(init=False)
    # One lock per match: updates for the same match are handled one at a time, updates for
    # different matches concurrently. Locks vanish with their last user.
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def __post_init__(self) -> None:
        from bot.publisher import Publisher
        from bot.timers import Timers

        self.publisher = Publisher(self)
        self.timers = Timers(self)

    @property
    def bot(self) -> Bot:
        return self.messenger.bot

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    # -- languages -------------------------------------------------------------------------
    async def user_lang(self, user: User | None) -> str:
        """A user's language: their /language choice, else their Telegram app's language
        where supported, else the default."""
        if user is None:
            return self.settings.default_language
        record = await self.storage.user(user.id)
        if record and record.lang:
            return record.lang
        return negotiate(user.language_code, self.settings.default_language)

    async def user_t(self, user: User | None) -> Translator:
        return translator(await self.user_lang(user))

    async def user_t_by_id(self, user_id: int) -> Translator:
        """The same choice for someone known only by id (messages the bot starts itself)."""
        record = await self.storage.user(user_id)
        if record is None:
            return translator(self.settings.default_language)
        return translator(
            record.lang or negotiate(record.telegram_lang, self.settings.default_language)
        )

    async def chat_t(self, chat_id: int, fallback_user: User | None = None) -> Translator:
        lang = await self.storage.chat_lang(chat_id)
        if lang is None:
            lang = negotiate(
                fallback_user.language_code if fallback_user else None,
                self.settings.default_language,
            )
        return translator(lang)

    # -- permissions -----------------------------------------------------------------------
    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot.username}?start={payload}"


def get_host(application: Application) -> Host:
    return application.bot_data[HOST_KEY]
