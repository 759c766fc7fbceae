"""Small helpers shared by the handlers."""

from __future__ import annotations

from telegram import CallbackQuery, Chat, Message, User
from telegram.constants import ChatType
from telegram.error import BadRequest

from bot.storage import Match
from bot.table.host import Host
from bot.table.place import place_of


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


async def popup(
    query: CallbackQuery, text: str | None = None, alert: bool = False, url: str | None = None
) -> None:
    """Answer a button press (every press must be answered, or the button keeps spinning);
    ``url``: a t.me link to the bot's private chat, which the user's app opens. A press
    older than Telegram's answer window cannot be answered; that is no error."""
    try:
        await query.answer(text, show_alert=alert, url=url)
    except BadRequest as error:
        if "too old" not in error.message.lower() and "invalid" not in error.message.lower():
            raise


def on_menu(query: CallbackQuery, kind: str, *also: str) -> bool:
    """Whether the pressed message is a menu of ``kind`` buttons (every button on it is one,
    or of the kinds ``also`` allows beside it).
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
    return kind in kinds and kinds <= {kind, *also}


async def may_manage(host: Host, match: Match, user_id: int) -> bool:
    """Whether the user may change, start or stop the match: its creator, a group admin,
    or, in a rematch's lobby, any player of the finished match."""
    if user_id == match.creator_id or await played_before(host, match, user_id):
        return True
    if not place_of(match).bot_in_chat:  # (an inline message's chat: the bot is not in it)
        return False
    return await host.messenger.is_admin(match.chat_id, user_id)


async def played_before(host: Host, match: Match, user_id: int) -> bool:
    """In a rematch's lobby: whether the user played the finished match it follows."""
    if match.status != "lobby" or match.rematch_of is None:
        return False
    finished = await host.storage.load(match.rematch_of)
    return finished is not None and finished.seat_of(user_id) is not None


def managers_only(match: Match) -> str:
    """The popup key refusing someone who may not manage the match (see ``may_manage``)."""
    if match.status == "lobby" and match.rematch_of is not None:
        return "lobby.rematch_players_only"
    return "lobby.creator_only"
