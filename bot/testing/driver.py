"""Users played against the bot: :class:`Driver` sends their commands, messages, inline
queries and button presses to an ``Application`` wired to a
:class:`~bot.testing.fake_telegram.FakeTelegram`, through ``Application.process_update``,
as Telegram would deliver them."""

from __future__ import annotations

import html
import itertools
import re
import time
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import Application

from bot.testing.fake_telegram import FakeTelegram, StoredMessage, member_extras


@dataclass(frozen=True)
class FakeUser:
    id: int
    first_name: str
    language_code: str = "en"
    username: str | None = None

    def as_dict(self) -> dict:
        user = {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }
        if self.username:
            user["username"] = self.username
        return user


class Driver:
    """Plays users against an Application wired to a :class:`FakeTelegram`."""

    def __init__(self, application: Application, api: FakeTelegram) -> None:
        self.app = application
        self.api = api
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)

    def group(self, chat_id: int, title: str, forum: bool = False) -> int:
        self.api.chats[chat_id] = {
            "id": chat_id,
            "type": "supergroup",
            "title": title,
            **({"is_forum": True} if forum else {}),
        }
        return chat_id

    def _chat_dict(self, chat_id: int, user: FakeUser) -> dict:
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": user.first_name}
        return self.api.chat(chat_id)

    def message_update(
        self, user: FakeUser, chat_id: int, text: str, thread_id: int | None = None
    ) -> dict:
        message_id = self.api.next_message_id(chat_id)
        self.api.messages[chat_id][message_id] = StoredMessage(
            message_id, chat_id, html.escape(text), None, thread_id, from_bot=False
        )
        message: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": self._chat_dict(chat_id, user),
            "from": user.as_dict(),
            "text": text,
        }
        if thread_id:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        return {"update_id": next(self._update_ids), "message": message}

    def press_update(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> dict:
        stored = self.api.messages[chat_id].get(message_id)
        message = (
            self.api.message_dict(stored)
            if stored
            else {"message_id": message_id, "date": 0, "chat": self._chat_dict(chat_id, user)}
        )
        query = {
            "id": str(next(self._query_ids)),
            "from": user.as_dict(),
            "chat_instance": str(chat_id),
            "data": data,
            "message": message,
        }
        return {"update_id": next(self._update_ids), "callback_query": query}

    def migration_updates(self, user: FakeUser, old: int, new: int) -> list[dict]:
        """The two service messages Telegram sends when ``old`` becomes the supergroup
        ``new`` (call :meth:`FakeTelegram.migrate` first)."""
        updates = []
        for chat_id, key, value in ((old, "migrate_to_chat_id", new),
                                    (new, "migrate_from_chat_id", old)):  # fmt: skip
            message = {
                "message_id": self.api.next_message_id(chat_id),
                "date": int(time.time()),
                "chat": self.api.chats.get(chat_id) or self.api.chat(chat_id),
                "from": user.as_dict(),
                key: value,
            }
            updates.append({"update_id": next(self._update_ids), "message": message})
        return updates

    def membership_update(self, user: FakeUser, chat_id: int, old: str, new: str) -> dict:
        """``my_chat_member``: ``user`` changed the bot's status in a chat (e.g. "member" →
        "kicked" when removing it, "left" when it leaves)."""
        bot = self.api.bot_user()
        change = {
            "chat": self.api.chat(chat_id),
            "from": user.as_dict(),
            "date": int(time.time()),
            "old_chat_member": {"status": old, "user": bot},
            "new_chat_member": {"status": new, "user": bot, **member_extras(new)},
        }
        return {"update_id": next(self._update_ids), "my_chat_member": change}

    async def feed(self, update: dict) -> None:
        """Handle one update, then wait until the bot has finished drawing the chats."""
        await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.settle()

    async def settle(self) -> None:
        """Wait until the AI seats have moved and every chat is drawn."""
        host = self.app.bot_data["host"]
        while True:
            await host.ai_seats.idle()
            await host.publisher.idle()
            await host.tournaments.idle()  # the ends of tournaments' matches heard
            await host.publisher.idle()
            if not host.ai_seats.busy:
                return

    async def send(
        self, user: FakeUser, chat_id: int, text: str, thread_id: int | None = None
    ) -> None:
        if chat_id == user.id:
            self.api.started.add(user.id)  # writing to the bot opens the private chat
        await self.feed(self.message_update(user, chat_id, text, thread_id))

    async def press(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> str | None:
        """Press a button by its callback data; returns the popup text of the answer."""
        before = len(self.api.answers)
        await self.feed(self.press_update(user, chat_id, message_id, data))
        answers = self.api.answers[before:]
        assert answers, f"the press {data!r} was not answered"
        return answers[-1].get("text")

    async def press_label(
        self, user: FakeUser, chat_id: int, label: str, message_id: int | None = None
    ) -> str | None:
        """Press the button whose label contains ``label`` on a message (default: the last
        bot message in that chat that has such a button)."""
        message, button = self.find_button(chat_id, label, message_id)
        if "url" in button:
            return await self.follow(user, button["url"])
        return await self.press(user, chat_id, message.message_id, button["callback_data"])

    def find_button(
        self, chat_id: int, label: str, message_id: int | None = None
    ) -> tuple[StoredMessage, dict]:
        candidates = (
            [self.api.messages[chat_id][message_id]]
            if message_id is not None
            else list(reversed(self.api.visible(chat_id)))
        )
        for message in candidates:
            for button in message.buttons():
                if label in button["text"]:
                    return message, button
        raise AssertionError(f"no button {label!r} in chat {chat_id}")

    # -- inline mode -----------------------------------------------------------------------
    @staticmethod
    def chat_instance(chat_id: int) -> str:
        """Telegram's stable, opaque identifier of a chat for callback queries (not its id)."""
        return str(-(abs(chat_id) * 7919 + 13))

    async def inline_query(
        self, user: FakeUser, query: str = "", chat_type: str = "sender"
    ) -> dict:
        """The user types ``@bot query`` in a chat of ``chat_type`` ("sender": their private
        chat with another user; "group", "supergroup"...); returns the bot's answer (its
        ``results``, ``button``, ``cache_time``...)."""
        query_id = str(next(self._query_ids))
        self.api.inline_answers[query_id] = {}
        update = {
            "update_id": next(self._update_ids),
            "inline_query": {
                "id": query_id,
                "from": user.as_dict(),
                "query": query,
                "offset": "",
                "chat_type": chat_type,
            },
        }
        await self.feed(update)
        answer = self.api.inline_answers.pop(query_id)
        assert answer, f"the inline query {query!r} was not answered"
        return answer

    def choose_result(self, user: FakeUser, chat_id: int, result: dict) -> str:
        """The user taps a result: the message it describes appears in ``chat_id``, sent by
        the user via the bot; returns its inline message id (the bot is not told: without
        /setinlinefeedback it learns the id from the first press on the message)."""
        inline_id = f"AgAAA{len(self.api.inline_messages) + 1:06d}{abs(chat_id)}"
        content = result["input_message_content"]
        message = StoredMessage(
            message_id=self.api.next_message_id(chat_id),
            chat_id=chat_id,
            html=self.api._kept_text(content["message_text"]),
            markup=self.api._kept_markup(result.get("reply_markup")),
            inline_message_id=inline_id,
        )
        self.api.messages[chat_id][message.message_id] = message
        self.api.inline_messages[inline_id] = message
        return inline_id

    def share_prepared(self, user: FakeUser, prepared_id: str, chat_id: int) -> str:
        """The user shares a prepared message (a Mini App's ``shareMessage``) into a chat
        Telegram's picker offered: sent through the bot as an inline result is; returns
        its inline message id."""
        prepared = self.api.prepared[prepared_id]
        assert prepared["user_id"] == user.id, "a prepared message is its user's alone"
        return self.choose_result(user, chat_id, prepared["result"])

    async def press_inline(self, user: FakeUser, inline_message_id: str, data: str) -> str | None:
        """Press a button of an inline message: the query carries the inline message id and
        the chat's ``chat_instance``, not the message; returns the popup text."""
        message = self.api.inline_messages[inline_message_id]
        query = {
            "id": str(next(self._query_ids)),
            "from": user.as_dict(),
            "chat_instance": self.chat_instance(message.chat_id),
            "inline_message_id": inline_message_id,
            "data": data,
        }
        before = len(self.api.answers)
        await self.feed({"update_id": next(self._update_ids), "callback_query": query})
        answers = self.api.answers[before:]
        assert answers, f"the press {data!r} was not answered"
        return answers[-1].get("text")

    async def press_inline_label(
        self, user: FakeUser, inline_message_id: str, label: str
    ) -> str | None:
        """Press the button of an inline message whose label contains ``label``."""
        message = self.api.inline_messages[inline_message_id]
        for button in message.buttons():
            if label in button["text"]:
                if "url" in button:
                    return await self.follow(user, button["url"])
                return await self.press_inline(user, inline_message_id, button["callback_data"])
        raise AssertionError(f"no button {label!r} on inline message {inline_message_id}")

    def delete_inline(self, inline_message_id: str) -> None:
        """A user of the chat deletes the inline message."""
        self.api.inline_messages[inline_message_id].deleted = True

    async def follow(self, user: FakeUser, url: str) -> None:
        """Open a t.me deep link: the user's app sends /start <payload> to the bot."""
        match = re.fullmatch(r"https://t\.me/(\w+)\?start=(\w+)", url)
        assert match and match.group(1) == self.api.username, url
        await self.send(user, user.id, f"/start {match.group(2)}")
        return None
