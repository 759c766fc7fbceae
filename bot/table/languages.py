"""Which language to speak to whom: a user's or a group's choice, else their Telegram app's
language where supported, else the configured default."""

from __future__ import annotations

from telegram import User

from bot.presentation.i18n import Translator, negotiate, translator
from bot.storage import Storage


class Languages:
    def __init__(self, storage: Storage, default: str) -> None:
        self.storage = storage
        self.default = default

    async def user_lang(self, user: User | None) -> str:
        """A user's language: their /language choice, else their Telegram app's language
        where supported, else the default."""
        if user is None:
            return self.default
        record = await self.storage.user(user.id)
        if record and record.lang:
            return record.lang
        return negotiate(user.language_code, self.default)

    async def user_t(self, user: User | None) -> Translator:
        return translator(await self.user_lang(user))

    async def user_t_by_id(self, user_id: int) -> Translator:
        """The same choice for someone known only by id (messages the bot starts itself)."""
        record = await self.storage.user(user_id)
        if record is None:
            return translator(self.default)
        return translator(record.lang or negotiate(record.telegram_lang, self.default))

    async def chat_t(self, chat_id: int, fallback_user: User | None = None) -> Translator:
        lang = await self.storage.chat_lang(chat_id)
        if lang is None:
            lang = negotiate(fallback_user.language_code if fallback_user else None, self.default)
        return translator(lang)
