"""The last line of defence: log the failure and tell the user, never crash the bot."""

from __future__ import annotations

import logging

from telegram import Update

from bot.handlers.common import is_private, popup
from bot.operations import error_reports
from bot.presentation.i18n import Translator, negotiate, translator
from bot.storage import StorageUnavailable
from bot.table.host import BotContext
from bot.telegram_api.update_facts import facts_of

log = logging.getLogger(__name__)


async def on_error(update: object, context: BotContext) -> None:
    storage_down = isinstance(context.error, StorageUnavailable)
    facts = facts_of(update)
    if storage_down:  # an outage: one line, not a traceback per press
        log.warning("an update was refused: %s", context.error, extra=facts.as_log_fields())
    else:
        game = await _game_of(context, facts.match)
        with error_reports.about(facts, game):  # an error report, when Sentry is on, says so
            log.error(
                "error while handling an update",
                exc_info=context.error,
                extra={**facts.as_log_fields(), "game": game},
            )
    if not isinstance(update, Update):
        return
    t = await _reader(update, context, storage_down)
    text = t("error.storage") if storage_down else t("error.internal")
    try:
        if update.callback_query is not None:
            await popup(update.callback_query, text, alert=True)
        elif update.effective_message is not None and is_private(update.effective_chat):
            await update.effective_message.reply_text(text)
    except Exception:  # the error report itself failed (Telegram down?): nothing more to do
        log.exception("could not report the error to the user")


async def _game_of(context: BotContext, match_id: int | None) -> str | None:
    if match_id is None:
        return None
    try:
        match = await context.host.storage.load(match_id)
    except Exception:  # the report must not fail on it
        return None
    return match.game if match is not None else None


async def _reader(update: Update, context: BotContext, storage_down: bool) -> Translator:
    """The user's language; while the database does not answer, their Telegram app's."""
    languages = context.host.languages
    user = update.effective_user
    if not storage_down:
        try:
            return await languages.user_t(user)
        except StorageUnavailable:
            pass
    code = user.language_code if user is not None else None
    return translator(negotiate(code, languages.default))
