"""The group itself changes: it is upgraded to a supergroup, the bot is removed from it, or
a member leaves it."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus

from bot.handlers.common import is_group, is_private
from bot.handlers.tournaments import blocked_the_bot, left_the_group
from bot.table.host import BotContext

GONE = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


async def chat_migrated(update: Update, context: BotContext) -> None:
    """Telegram's service messages of an upgrade: ``migrate_to_chat_id`` in the old group,
    ``migrate_from_chat_id`` in the new supergroup. Either one moves the chat's games."""
    message = update.effective_message
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await context.host.chats.move_chat(old, new)


async def bot_membership(update: Update, context: BotContext) -> None:
    """The bot's own membership changed (``my_chat_member``): removed from a group, it ends
    the games it can no longer show there; blocked by a user, their tournaments lose them."""
    change = update.my_chat_member
    if change is not None and is_private(change.chat) and change.new_chat_member.status in GONE:
        await blocked_the_bot(change.chat.id, context)  # a user blocked the bot
        return
    if change is None or not is_group(change.chat):
        return
    if change.new_chat_member.status in GONE:
        await context.host.chats.bot_removed(change.chat.id)


async def member_left(update: Update, context: BotContext) -> None:
    """A member left the group or was removed: Telegram's service message
    (``left_chat_member``, which bots get in privacy mode too) or, where the bot is an
    admin, a ``chat_member`` update. They lose the tables they watch there at once, and
    leave its tournaments."""
    message = update.effective_message
    if message is not None and message.left_chat_member is not None:
        chat, user = message.chat, message.left_chat_member
    elif update.chat_member is not None:
        change = update.chat_member
        if change.new_chat_member.status not in GONE:
            return
        chat, user = change.chat, change.new_chat_member.user
    else:
        return
    if user.is_bot or not is_group(chat):
        return
    context.host.chats.member_left(chat.id, user.id)
    await left_the_group(chat.id, user.id, context)
