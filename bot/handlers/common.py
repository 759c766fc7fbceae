"""Small helpers shared by the handlers."""

from __future__ import annotations

from telegram import CallbackQuery, Chat, Message, User
from telegram.constants import ChatType
from telegram.error import BadRequest


def thread_of(message: Message | None) -> int:
    """The forum topic of a message (0 outside topics): one match per topic."""
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


def display_name(user: User) -> str:
    return user.full_name or user.username or str(user.id)


def is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def is_private(chat: Chat | None) -> bool:
    return chat is not None and chat.type == ChatType.PRIVATE


async def popup(query: CallbackQuery, text: str | None = None, alert: bool = False) -> None:
    """Answer a button press (every press must be answered, or the button keeps spinning).
    A press older than Telegram's answer window cannot be answered; that is no error."""
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as error:
        if "too old" not in error.message.lower() and "invalid" not in error.message.lower():
            raise
