"""Lobbies: /new, the game menu, options, joining by deep link, leaving, start and cancel."""

from __future__ import annotations

import contextlib
import html

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import flow
from bot.callbacks import Callback
from bot.chat_lifecycle import move_chat
from bot.handlers.common import (
    button_handler,
    display_name,
    is_group,
    on_menu,
    popup,
    thread_of,
)
from bot.host import Host, get_host
from bot.i18n import Translator
from bot.lobby_view import TURN_OPTION, option_choices
from bot.messenger import ChatMoved, MessageGone, Unreachable
from bot.storage import Match, Seat
from bot.timers import TURN_PRESETS, turn_label
from bot.ui import get_ui, playable_games
from games import get_engine

# -- /new and the game menu ------------------------------------------------------------------


async def new_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    host = get_host(context.application)
    message = update.effective_message
    chat = update.effective_chat
    user = update.effective_user
    if not is_group(chat):
        await message.reply_text((await host.user_t(user))("lobby.groups_only"))
        return
    t = await host.chat_t(chat.id, user)
    thread = thread_of(message)
    if await host.storage.active_match_id(chat.id, thread) is not None:
        await message.reply_text(t("lobby.already_running"))
        return
    games = playable_games()
    if context.args:
        wanted = context.args[0].lower()
        if wanted not in games:
            await message.reply_text(t("lobby.unknown_game", games=", ".join(games)))
            return
        await create_lobby(host, chat.id, thread, chat.title or "", wanted, user)
        return
    rows = [
        [
            InlineKeyboardButton(
                get_ui(game).title(t), callback_data=Callback("ng", 0, 0, game).encode()
            )
        ]
        for game in games
    ]
    await message.reply_text(t("lobby.choose_game"), reply_markup=InlineKeyboardMarkup(rows))


@button_handler
async def choose_game(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    chat = update.effective_chat
    if not is_group(chat):  # lobbies live in groups only
        await popup(query, (await host.user_t(query.from_user))("lobby.groups_only"))
        return
    t = await host.chat_t(chat.id, query.from_user)
    # the menu message becomes the lobby: it must be the menu, not a board or a result
    if data.payload not in playable_games() or not on_menu(query, "ng"):
        await popup(query, t("error.bad_button"))
        return
    match = await create_lobby(
        host,
        chat.id,
        thread_of(query.message),
        chat.title or "",
        data.payload,
        query.from_user,
        menu_message_id=query.message.message_id if query.message else None,
    )
    await popup(query, None if match else t("lobby.already_running"))


async def create_lobby(
    host: Host,
    chat_id: int,
    thread_id: int,
    title: str,
    game: str,
    creator: User,
    menu_message_id: int | None = None,
    options: dict | None = None,
    turn_seconds: int | None = None,
) -> Match | None:
    """Open a lobby (``None`` if this chat or topic already has a match). The creator takes
    the first seat at once when the bot can already write to them privately."""
    engine = get_engine(game)
    chosen = engine.options(options).model_dump()
    if await host.storage.chat_lang(chat_id) is None:
        await host.storage.set_chat_lang(chat_id, await host.user_lang(creator))
    if turn_seconds is None:
        turn_seconds = host.settings.default_turn_seconds
    match = await host.storage.create_lobby(
        chat_id, thread_id, game, chosen, creator.id, title, turn_seconds
    )
    if match is None:
        return None
    async with host.lock(match.id):
        record = await host.storage.user(creator.id)
        if record and record.can_message:
            match.seats.append(Seat(seat=0, user_id=creator.id, name=display_name(creator)))
        await host.storage.save(match)
        match.lobby_message_id = menu_message_id  # the menu becomes the lobby
        await host.storage.save_display(match)
    host.publisher.request(match, [("group", chat_id)])
    return match


# -- joining and leaving ----------------------------------------------------------------------


async def join_by_link(update: Update, context: ContextTypes.DEFAULT_TYPE, match_id: int) -> None:
    """``/start j<id>`` in the private chat: the deep link behind the lobby's Join button."""
    host = get_host(context.application)
    user = update.effective_user
    t = await host.user_t(user)
    async with host.lock(match_id):
        match = await host.storage.load(match_id)
        if match is None or match.status != "lobby":
            await update.effective_message.reply_text(t("lobby.closed"))
            return
        engine = get_engine(match.game)
        game = html.escape(get_ui(match.game).title(t))
        where = html.escape(match.title or "—")
        if match.seat_of(user.id):
            await update.effective_message.reply_html(t("lobby.already_joined", game=game))
            return
        if len(match.seats) >= engine.max_players:
            await update.effective_message.reply_text(t("lobby.full", max=engine.max_players))
            return
        match.seats.append(Seat(seat=len(match.seats), user_id=user.id, name=display_name(user)))
        await host.storage.save(match)
        await update.effective_message.reply_html(t("lobby.joined", game=game, group=where))
    host.publisher.request(match, [("group", match.chat_id)])


@button_handler
async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.chat_t(update.effective_chat.id)
    async with host.lock(data.match_id):
        match = await host.storage.load(data.match_id)
        if match is None or match.status != "lobby":
            await popup(query, t("lobby.closed"))
            return
        if update.effective_chat.id != match.chat_id:  # a lobby's buttons live in its group
            await popup(query, t("error.bad_button"))
            return
        seat = match.seat_of(query.from_user.id)
        if seat is None:
            await popup(query, t("lobby.not_joined"))
            return
        match.seats = [other for other in match.seats if other.user_id != query.from_user.id]
        for number, other in enumerate(match.seats):
            other.seat = number
        await host.storage.save(match)
        await popup(query, t("lobby.left"))
    host.publisher.request(match, [("group", match.chat_id)])


# -- creator's controls -----------------------------------------------------------------------


async def may_manage(host: Host, match: Match, user_id: int) -> bool:
    return user_id == match.creator_id or await host.is_admin(match.chat_id, user_id)


async def managed_match(
    host: Host, query: CallbackQuery, match_id: int, t: Translator, status: str = "lobby"
) -> Match | None:
    """The match a creator's button refers to, if it is still in ``status``, the press comes
    from the match's group and the presser may manage it (its creator or a group admin);
    otherwise the press is answered."""
    match = await host.storage.load(match_id)
    if match is None or match.status != status:
        gone = "lobby.closed" if status == "lobby" else "play.match_over"
        await popup(query, t(gone))
        return None
    if query.message is None or query.message.chat.id != match.chat_id:
        await popup(query, t("error.bad_button"))
        return None
    if not await may_manage(host, match, query.from_user.id):
        await popup(query, t("lobby.creator_only"))
        return None
    return match


@button_handler
async def cycle_option(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.chat_t(update.effective_chat.id)
    async with host.lock(data.match_id):
        match = await managed_match(host, query, data.match_id, t)
        if match is None:
            return
        choices = option_choices(match.game)
        if data.payload not in choices and data.payload != TURN_OPTION:
            await popup(query, t("error.bad_button"))
            return
        if data.payload == TURN_OPTION:
            match.turn_seconds = next_value(TURN_PRESETS, match.turn_seconds)
            label = turn_label(t, match.turn_seconds)
        else:
            value = next_value(choices[data.payload], match.options.get(data.payload))
            match.options[data.payload] = value
            label = get_ui(match.game).option_label(t, data.payload, value)
        await host.storage.save(match)
        await popup(query, label)
    host.publisher.request(match, [("group", match.chat_id)])


def next_value(values: tuple, current: object) -> object:
    position = values.index(current) if current in values else -1
    return values[(position + 1) % len(values)]


@button_handler
async def start(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.chat_t(update.effective_chat.id)
    async with host.lock(data.match_id):
        match = await managed_match(host, query, data.match_id, t)
        if match is None:
            return
        engine = get_engine(match.game)
        if len(match.seats) < engine.min_players:
            await popup(query, t("lobby.need_players", min=engine.min_players), alert=True)
            return
        await flow.start_match(host.storage, match, host.clock())
        await popup(query, t("lobby.started"))
        await host.timers.settle(match)
    host.publisher.request(match)  # closes the lobby message, draws the board, deals


@button_handler
async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.chat_t(update.effective_chat.id)
    async with host.lock(data.match_id):
        match = await managed_match(host, query, data.match_id, t)
        if match is None:
            return
        match.status = "cancelled"
        await host.storage.save(match)
        await popup(query, t("lobby.cancelled"))
        await close_lobby_message(host, match, t("lobby.cancelled_text"))


async def close_lobby_message(host: Host, match: Match, text: str) -> None:
    """Replace the lobby with a line of text and no buttons: a finished lobby leaves a clean
    chat."""
    if match.lobby_message_id is None:
        return
    # the lobby message is cosmetic: if it is gone or the group unreachable, so be it
    try:
        with contextlib.suppress(MessageGone, Unreachable, BadRequest):
            await host.messenger.edit(match.chat_id, match.lobby_message_id, text)
    except ChatMoved as moved:  # the group became a supergroup: its other matches follow
        await move_chat(host, moved.chat_id, moved.new_chat_id)


@button_handler
async def rematch(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    """The "new game" button under a final result: a lobby for the same game and options."""
    host = get_host(context.application)
    query = update.callback_query
    chat = update.effective_chat
    t = await host.chat_t(chat.id)
    old = await host.storage.load(data.match_id)
    if old is None or old.chat_id != chat.id or old.game not in playable_games():
        await popup(query, t("error.bad_button"))
        return
    match = await create_lobby(
        host,
        chat.id,
        old.thread_id,
        chat.title or "",
        old.game,
        query.from_user,
        options=old.options,
        turn_seconds=old.turn_seconds,
    )
    await popup(query, None if match else t("lobby.already_running"))
