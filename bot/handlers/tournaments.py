"""Tournaments: /tournament (a lobby in a group, the running one's message again, ``cancel``;
in private, one's tournaments to withdraw from), joining by deep link, the lobby's buttons,
and a player who leaves the group or blocks the bot withdrawn."""

from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, User

from bot.handlers.buttons import button
from bot.handlers.common import display_name, is_group, is_private, on_menu, popup, thread_of
from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui, playable_games
from bot.storage.tournaments import StoredTournament
from bot.table.host import BotContext, Host
from bot.table.tournaments.service import GAME_OPTION
from bot.telegram_api.callbacks import Callback, Kind

LOBBY_OPTIONS = ("format", "size", "rounds", "ties", "clock", "bots", "when")
STOP, KEEP = "stop", "keep"


def game_menu(t: Translator) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                get_ui(game).title(t),
                callback_data=Callback(Kind.TOURNAMENT_GAME, 0, 0, game).encode(),
            )
        ]
        for game in playable_games()
    ]
    return InlineKeyboardMarkup(rows)


async def may_manage(host: Host, stored: StoredTournament, user_id: int) -> bool:
    """The creator or an admin of the group starts, changes and cancels a tournament."""
    if user_id == stored.creator_id:
        return True
    return await host.messenger.is_admin(stored.chat_id, user_id)


async def tournament_command(update: Update, context: BotContext) -> None:
    host = context.host
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if is_private(chat):
        await my_tournaments(update, context)
        return
    if not is_group(chat):
        await message.reply_text((await host.languages.user_t(user))("lobby.groups_only"))
        return
    t = await host.languages.chat_t(chat.id, user)
    wanted = context.args[0].lower() if context.args else ""
    running = await host.storage.active_tournament(chat.id, thread_of(message))
    if running is not None:
        if wanted == "cancel":
            await ask_to_stop(update, context, running, t)
        else:
            await host.tournaments.repost(running)
        return
    if wanted == "cancel":
        await message.reply_text(t("tournament.nothing_to_cancel"))
        return
    if host.draining.on:
        await message.reply_text(t("drain.paused"))
        return
    if wanted:
        if wanted not in playable_games():
            await message.reply_text(
                t("tournament.unknown_game", games=", ".join(playable_games()))
            )
            return
        await open_lobby(host, chat.id, thread_of(message), wanted, user)
        return
    await message.reply_text(t("tournament.choose_game"), reply_markup=game_menu(t))


async def open_lobby(host: Host, chat_id: int, thread_id: int, game: str, user: User) -> int | None:
    if await host.storage.chat_lang(chat_id) is None:
        await host.storage.set_chat_lang(chat_id, await host.languages.user_lang(user))
    tournament_id = await host.tournaments.open(
        chat_id, thread_id, game, user.id, display_name(user)
    )
    await host.tournaments.idle()
    return tournament_id


@button(Kind.TOURNAMENT_GAME)
async def choose_game(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    t = await host.languages.chat_t(chat.id, query.from_user)
    if (
        not is_group(chat)
        or data.payload not in playable_games()
        or not on_menu(query, Kind.TOURNAMENT_GAME)
    ):
        await popup(query, t("error.bad_button"))
        return
    if host.draining.on:
        await popup(query, t("drain.paused"), alert=True)
        return
    user = query.from_user
    opened = await open_lobby(host, chat.id, thread_of(query.message), data.payload, user)
    if opened is None:
        await popup(query, t("tournament.already_running"), alert=True)
        return
    await popup(query)
    await host.messenger.delete(chat.id, query.message.message_id)  # the lobby replaces it


async def ask_to_stop(
    update: Update, context: BotContext, tournament_id: int, t: Translator
) -> None:
    host = context.host
    stored = await host.storage.tournament(tournament_id)
    if not await may_manage(host, stored, update.effective_user.id):
        await update.effective_message.reply_text(t("tournament.managers_only"))
        return
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t("tournament.stop_yes"),
                    callback_data=Callback(Kind.TOURNAMENT, tournament_id, 0, STOP).encode(),
                ),
                InlineKeyboardButton(
                    t("tournament.stop_no"),
                    callback_data=Callback(Kind.TOURNAMENT, tournament_id, 0, KEEP).encode(),
                ),
            ]
        ]
    )
    await update.effective_message.reply_text(t("tournament.stop_ask"), reply_markup=markup)


async def join_by_link(update: Update, context: BotContext, tournament_id: int) -> None:
    """``/start t<id>`` in the private chat: the deep link behind a tournament's Join."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    key = await host.tournaments.enter(tournament_id, user.id, display_name(user))
    stored = await host.storage.tournament(tournament_id)
    game = html.escape(get_ui(stored.game).title(t)) if stored else ""
    await update.effective_message.reply_html(t(key, game=game))
    await host.tournaments.idle()


PAGE_LINK = "p"  # /start p<id>: the tournament message's link to its page in the app


async def open_page_by_link(update: Update, context: BotContext, tournament_id: int) -> None:
    """``/start p<id>``, the tournament message's "🏆 Tournament page": the button that opens
    it in the table app (Telegram takes such buttons in private chats only) — for its
    entrants and the members of its group."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    stored = await host.storage.tournament(tournament_id)
    link = host.publisher.tables.tournament_link(tournament_id)
    if stored is None or link is None:
        await update.effective_message.reply_text(t("tournament.page.none"))
        return
    entrant = any(entrant.player == user.id for entrant in stored.state.entrants)
    if not entrant and not await host.messenger.is_member(stored.chat_id, user.id):
        await update.effective_message.reply_text(t("tournament.page.not_yours"))
        return
    game = html.escape(get_ui(stored.game).title(t))
    button = {"text": t("tournament.page.open_button"), "web_app": {"url": link}}
    await host.messenger.send(
        user.id, t("tournament.page.open_text", game=game), {"inline_keyboard": [[button]]}
    )


async def my_tournaments(update: Update, context: BotContext) -> None:
    """/tournament in private: each tournament one is in, with a button to withdraw."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    rows = []
    for tournament_id in await host.storage.tournaments_of(user.id):
        stored = await host.storage.tournament(tournament_id)
        key = "tournament.leave_button" if stored.status == "lobby" else "tournament.withdraw"
        label = t(key, game=get_ui(stored.game).title(t))
        payload = "withdraw"
        rows.append(
            [
                InlineKeyboardButton(
                    label,
                    callback_data=Callback(Kind.TOURNAMENT, tournament_id, 0, payload).encode(),
                )
            ]
        )
    if not rows:
        await update.effective_message.reply_text(t("tournament.none_of_yours"))
        return
    await update.effective_message.reply_text(
        t("tournament.yours"), reply_markup=InlineKeyboardMarkup(rows)
    )


@button(Kind.TOURNAMENT)
async def tournament_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    user = query.from_user
    chat = update.effective_chat
    stored = await host.storage.tournament(data.match_id)
    if stored is None:
        await popup(query, (await host.languages.user_t(user))("tournament.closed"))
        return
    if data.payload == "withdraw":
        await withdraw_button(update, context, stored)
        return
    t = await host.languages.chat_t(stored.chat_id, user)
    if chat.id != stored.chat_id:  # its buttons live in its group
        await popup(query, t("error.bad_button"))
        return
    if data.payload in (STOP, KEEP):
        await stop_button(update, context, stored, t, data.payload)
        return
    if stored.status != "lobby":
        await popup(query, t("tournament.closed"))
        return
    if data.payload == "leave":
        left = await host.tournaments.leave(stored.id, user.id)
        await popup(query, t("tournament.left") if left else t("tournament.not_in"))
        await host.tournaments.idle()
        return
    game_option = data.payload.startswith(GAME_OPTION)
    if data.payload not in (*LOBBY_OPTIONS, "start", "cancel") and not game_option:
        await popup(query, t("error.bad_button"))
        return
    if not await may_manage(host, stored, user.id):
        await popup(query, t("tournament.managers_only"))
        return
    if data.payload == "start":
        if host.draining.on:
            await popup(query, t("drain.paused"), alert=True)
            return
        refused = await host.tournaments.start(stored.id)
        if refused is not None:
            await popup(query, t(refused, size=stored.state.rules.table_size), alert=True)
        else:
            await popup(query, t("tournament.started"))
    elif data.payload == "cancel":
        await host.tournaments.cancel(stored.id)
        await popup(query, t("tournament.cancelled"))
    elif await host.tournaments.change(stored, data.payload):
        await popup(query)
    else:
        await popup(query, t("error.bad_button"))
    await host.tournaments.idle()


async def stop_button(
    update: Update, context: BotContext, stored: StoredTournament, t: Translator, payload: str
) -> None:
    host = context.host
    query = update.callback_query
    if stored.status != "running":
        await popup(query, t("tournament.closed"))
        return
    if not on_menu(query, Kind.TOURNAMENT):
        await popup(query, t("error.bad_button"))
        return
    if not await may_manage(host, stored, query.from_user.id):
        await popup(query, t("tournament.managers_only"))
        return
    if payload == KEEP:
        await popup(query)
        await host.messenger.edit(stored.chat_id, query.message.message_id, t("tournament.kept"))
        return
    await host.tournaments.cancel(stored.id)
    await popup(query, t("tournament.cancelled"))
    name = html.escape(display_name(query.from_user))
    await host.messenger.edit(
        stored.chat_id, query.message.message_id, t("tournament.stopped", name=name)
    )
    await host.tournaments.idle()


async def withdraw_button(update: Update, context: BotContext, stored: StoredTournament) -> None:
    host = context.host
    query = update.callback_query
    user = query.from_user
    t = await host.languages.user_t(user)
    if not is_private(update.effective_chat) or not on_menu(query, Kind.TOURNAMENT):
        await popup(query, t("error.bad_button"))
        return
    if stored.status == "lobby":
        done = await host.tournaments.leave(stored.id, user.id)
    elif stored.status == "running":
        done = await host.tournaments.withdraw(stored.id, user.id)
    else:
        done = False
    if not done:
        await popup(query, t("tournament.not_in"))
        return
    await popup(query, t("tournament.withdrawn"))
    game = html.escape(get_ui(stored.game).title(t))
    await host.messenger.edit(
        user.id, query.message.message_id, t("tournament.withdrawn_text", game=game)
    )
    await host.tournaments.idle()


async def left_the_group(chat_id: int, user_id: int, context: BotContext) -> None:
    """A member left the group (or was removed): out of its tournaments, cleanly."""
    context.host.tournaments.forget_member(chat_id, user_id)
    await context.host.tournaments.withdraw_everywhere(user_id, chat_id)
    await context.host.tournaments.idle()


async def blocked_the_bot(user_id: int, context: BotContext) -> None:
    """A player blocked the bot: they can no longer be told of their matches."""
    await context.host.tournaments.withdraw_everywhere(user_id)
    await context.host.tournaments.idle()
