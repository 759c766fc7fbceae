"""Small helpers shared by the handlers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import wraps

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.callbacks import BadCallback, Callback, parse
from bot.host import get_host

CallbackHandler = Callable[[Update, ContextTypes.DEFAULT_TYPE, Callback], Awaitable[None]]


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


def on_menu(query: CallbackQuery, kind: str) -> bool:
    """Whether the pressed message is a menu of ``kind`` buttons (every button on it is one).
    Telegram sends the real message with a press, so forged data pressed on another message
    (a board, a lobby) is told apart from a press on the menu itself."""
    message = query.message
    markup = message.reply_markup if isinstance(message, Message) else None
    if markup is None:
        return False
    kinds = {
        (button.callback_data or "").split(":", 1)[0]
        for row in markup.inline_keyboard
        for button in row
        if button.callback_data is not None
    }
    return kinds == {kind}


def button_handler(handler: CallbackHandler):
    """Parse the press's callback data for ``handler``; malformed data, or a press without a
    chat (an inline message), gets a popup."""

    @wraps(handler)
    async def wrapper(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        try:
            data = parse(query.data)
            if update.effective_chat is None:
                raise BadCallback(query.data)
        except BadCallback:
            t = await get_host(context.application).user_t(query.from_user)
            await popup(query, t("error.bad_button"))
            return
        await handler(update, context, data)

    return wrapper
