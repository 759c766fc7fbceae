"""The last line of defence: log the failure and tell the user, never crash the bot."""

from __future__ import annotations

import logging

from telegram import Update

from bot.handlers.common import is_private, popup
from bot.host import BotContext

log = logging.getLogger(__name__)


async def on_error(update: object, context: BotContext) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update):
        return
    t = await context.host.languages.user_t(update.effective_user)
    try:
        if update.callback_query is not None:
            await popup(update.callback_query, t("error.internal"), alert=True)
        elif update.effective_message is not None and is_private(update.effective_chat):
            await update.effective_message.reply_text(t("error.internal"))
    except Exception:  # the error report itself failed (Telegram down?): nothing more to do
        log.exception("could not report the error to the user")
