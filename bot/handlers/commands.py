"""Commands outside the lobby and the play loop: /start, /help, /rules, /language, /cancel,
and a clear answer to anything the bot does not understand."""

from __future__ import annotations

import contextlib
import html
import logging
import re

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.callbacks import Callback
from bot.handlers.common import (
    button_handler,
    display_name,
    is_group,
    is_private,
    on_menu,
    popup,
    thread_of,
)
from bot.handlers.lobby import join_by_link, managed_match, may_manage
from bot.host import Host, get_host
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, translator
from bot.messenger import ChatMoved, MessageGone, Unreachable
from bot.ui import get_ui, playable_games

log = logging.getLogger(__name__)

MATCH_ID = re.compile(r"[0-9]{1,12}")  # as in callback data: fits SQLite's integers
ECHOED_COMMAND = 64  # characters of an unknown command quoted in the answer


async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Private /start: the deep links ``j<id>`` (join a lobby) and ``m<id>`` (show my cards),
    or a welcome. Any /start proves the bot may now write to this user."""
    host = get_host(context.application)
    user = update.effective_user
    message = update.effective_message
    if not is_private(update.effective_chat):
        await help_command(update, context)
        return
    await host.storage.remember_user(
        user.id, display_name(user), can_message=True, telegram_lang=user.language_code
    )
    t = await host.user_t(user)
    payload = context.args[0] if context.args else ""
    if payload[:1] in ("j", "m") and MATCH_ID.fullmatch(payload[1:]):
        match_id = int(payload[1:])
        if payload[0] == "j":
            await join_by_link(update, context, match_id)
        else:
            await resend_prompt(update, context, match_id)
        return
    if payload:
        await message.reply_text(t("start.bad_link"))
        return
    await message.reply_html(t("start.welcome", name=html.escape(user.first_name)))
    for match_id in await host.storage.active_matches_of(user.id):
        await resend_prompt(update, context, match_id, quiet=True)


async def resend_prompt(
    update: Update, context: ContextTypes.DEFAULT_TYPE, match_id: int, quiet: bool = False
) -> None:
    """Send a player's private prompt for a match again, as a new message."""
    host = get_host(context.application)
    user = update.effective_user
    t = await host.user_t(user)
    match = await host.storage.load(match_id)
    seat = match.seat_of(user.id) if match else None
    if match is None or seat is None or match.status != "playing":
        if not quiet:
            await update.effective_message.reply_text(t("start.no_cards"))
        return
    host.publisher.resend_prompt(match, user.id)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    host = get_host(context.application)
    chat = update.effective_chat
    if is_group(chat):
        t = await host.chat_t(chat.id, update.effective_user)
    else:
        t = await host.user_t(update.effective_user)
    lines = [t("help.text")]
    for game in playable_games():
        lines.append(f"• <b>{html.escape(get_ui(game).title(t))}</b> — <code>/rules {game}</code>")
    await update.effective_message.reply_html("\n".join(lines))


async def rules_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    host = get_host(context.application)
    chat = update.effective_chat
    t = await (host.chat_t(chat.id) if is_group(chat) else host.user_t(update.effective_user))
    games = playable_games()
    if context.args:
        game = context.args[0].lower()
        if game not in games:
            await update.effective_message.reply_text(t("rules.unknown", games=", ".join(games)))
            return
        ui = get_ui(game)
        await update.effective_message.reply_html(
            f"<b>{html.escape(ui.title(t))}</b>\n\n{ui.rules(t)}"
        )
        return
    rows = [
        [
            InlineKeyboardButton(
                get_ui(game).title(t), callback_data=Callback("rl", 0, 0, game).encode()
            )
        ]
        for game in games
    ]
    await update.effective_message.reply_text(
        t("rules.choose"), reply_markup=InlineKeyboardMarkup(rows)
    )


@button_handler
async def rules_button(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    chat = update.effective_chat
    t = await (host.chat_t(chat.id) if is_group(chat) else host.user_t(query.from_user))
    # the choice replaces the menu with the rules: only on the menu itself
    if data.payload not in playable_games() or not on_menu(query, "rl"):
        await popup(query, t("error.bad_button"))
        return
    ui = get_ui(data.payload)
    await popup(query)
    await replace_menu(host, query, f"<b>{html.escape(ui.title(t))}</b>\n\n{ui.rules(t)}")


async def language_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    host = get_host(context.application)
    chat = update.effective_chat
    if is_group(chat):
        t = await host.chat_t(chat.id, update.effective_user)
        text = t("language.choose_group")
    else:
        t = await host.user_t(update.effective_user)
        text = t("language.choose_private")
    rows = [
        [
            InlineKeyboardButton(
                LANGUAGE_NAMES[lang], callback_data=Callback("lg", 0, 0, lang).encode()
            )
            for lang in LANGUAGES
        ]
    ]
    await update.effective_message.reply_text(text, reply_markup=InlineKeyboardMarkup(rows))


@button_handler
async def language_button(
    update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback
) -> None:
    host = get_host(context.application)
    query = update.callback_query
    chat = update.effective_chat
    user = query.from_user
    if data.payload not in LANGUAGES or not on_menu(query, "lg"):
        await popup(query, (await host.user_t(user))("error.bad_button"))
        return
    t = translator(data.payload)
    if is_group(chat):
        if not await host.is_admin(chat.id, user.id):
            await popup(query, (await host.chat_t(chat.id))("language.admins_only"))
            return
        await host.storage.set_chat_lang(chat.id, data.payload)
        text = t("language.group_set")
    else:
        await host.storage.set_user_lang(user.id, display_name(user), data.payload)
        text = t("language.private_set")
    await popup(query, text)
    await replace_menu(host, query, html.escape(text))


async def replace_menu(host: Host, query: CallbackQuery, text: str) -> None:
    """Show a menu's outcome in place of the menu. Pressed twice before the first edit
    arrived, the second edit changes nothing, and that is no error."""
    message = query.message
    with contextlib.suppress(MessageGone):
        await host.messenger.edit(message.chat.id, message.message_id, text)


async def cancel_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/cancel in a group: close the lobby, or (after a confirmation) stop the running game."""
    host = get_host(context.application)
    chat = update.effective_chat
    message = update.effective_message
    if not is_group(chat):
        await message.reply_text((await host.user_t(update.effective_user))("lobby.groups_only"))
        return
    t = await host.chat_t(chat.id, update.effective_user)
    match_id = await host.storage.active_match_id(chat.id, thread_of(message))
    match = await host.storage.load(match_id) if match_id else None
    if match is None:
        await message.reply_text(t("cancel.nothing"))
        return
    if not await may_manage(host, match, update.effective_user.id):
        await message.reply_text(t("lobby.creator_only"))
        return
    kind = "cx" if match.status == "lobby" else "ab"
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t("cancel.confirm"), callback_data=Callback(kind, match.id).encode()
                )
            ]
        ]
    )
    await message.reply_text(t("cancel.ask"), reply_markup=markup)


@button_handler
async def abort_button(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.chat_t(update.effective_chat.id)
    if not on_menu(query, "ab"):  # the confirmation under /cancel, nothing else
        await popup(query, t("error.bad_button"))
        return
    async with host.lock(data.match_id):
        match = await managed_match(host, query, data.match_id, t, status="playing")
        if match is None:
            return
        match.status = "cancelled"
        await host.storage.save(match)
        host.timers.arm(match)  # a stopped match has no timer
        await popup(query, t("cancel.done"))
        text = t("cancel.stopped", name=html.escape(display_name(query.from_user)))
        await replace_menu(host, query, text)
        # a stopped match leaves no live buttons (where the bot can still reach them)
        screens = [(match.chat_id, match.board_message_id)] + [
            (seat.user_id, seat.prompt_message_id) for seat in match.seats
        ]
        for chat_id, message_id in screens:
            if message_id is not None:
                try:
                    await host.messenger.drop_keyboard(chat_id, message_id)
                except (Unreachable, ChatMoved, TelegramError):
                    log.info("could not clear the buttons of message %s", message_id)


async def unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    host = get_host(context.application)
    message = update.effective_message
    chat = update.effective_chat
    text = message.text or ""
    command = text.split()[0] if text else ""
    if is_group(chat) and not command.lower().endswith("@" + (host.bot.username or "").lower()):
        return  # in groups, only commands addressed to this bot deserve an answer
    t = await (host.chat_t(chat.id) if is_group(chat) else host.user_t(update.effective_user))
    if len(command) > ECHOED_COMMAND:  # echoed back, it must fit in a message
        command = command[: ECHOED_COMMAND - 1] + "…"
    await message.reply_text(t("error.unknown_command", command=command))


async def private_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Free text in the private chat: point the user at the buttons and /help."""
    host = get_host(context.application)
    t = await host.user_t(update.effective_user)
    await update.effective_message.reply_text(t("error.use_buttons"))


async def bad_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any press no other handler took: forged, truncated or from an older bot version."""
    host = get_host(context.application)
    query = update.callback_query
    t = await host.user_t(query.from_user)
    await popup(query, t("error.bad_button"))
