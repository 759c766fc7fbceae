"""Lobbies: /new (in a group; in the private chat, practice against AI seats), the game menu,
options, AI seats, joining by deep link, leaving, start and cancel."""

from __future__ import annotations

import html

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update, User

from bot.handlers.buttons import (
    KEEP,
    MatchPress,
    button,
    in_status,
    keep_going,
    manager,
    match_button,
    playable,
    pressed_in,
    seated,
    yes_or_keep,
)
from bot.handlers.common import display_name, is_group, is_private, on_menu, popup, thread_of
from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui, playable_games
from bot.settings import TURN_PRESETS
from bot.storage import Match, Seat
from bot.table import flow
from bot.table.ai_moves import LOBBY_LEVELS, NORMAL, ai_name, next_ai_user_id
from bot.table.host import BotContext, Host
from bot.table.place import place_of
from bot.table.publishing.lobby_view import TURN_OPTION, option_choices, turn_label
from bot.telegram_api.callbacks import Callback, Kind
from games import get_engine

# -- /new and the game menu ------------------------------------------------------------------


async def new_command(update: Update, context: BotContext) -> None:
    host = context.host
    message = update.effective_message
    chat = update.effective_chat
    user = update.effective_user
    if is_private(chat):  # practice against AI seats, in this chat
        await host.storage.remember_user(
            user.id, display_name(user), can_message=True, telegram_lang=user.language_code
        )
    elif not is_group(chat):
        await message.reply_text((await host.languages.user_t(user))("lobby.groups_only"))
        return
    t = await host.languages.chat_t(chat.id, user)
    if host.draining.on:
        await message.reply_text(t("drain.paused"))
        return
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
        await create_lobby(host, chat.id, thread, lobby_title(chat, t), wanted, user)
        return
    choose = "lobby.practice_choose" if is_private(chat) else "lobby.choose_game"
    await message.reply_text(t(choose), reply_markup=game_menu(t))


def game_menu(t: Translator) -> InlineKeyboardMarkup:
    """A button per game: the lobby of the one chosen opens in place of the menu."""
    rows = [
        [
            InlineKeyboardButton(
                get_ui(game).title(t), callback_data=Callback(Kind.NEW_GAME, 0, 0, game).encode()
            )
        ]
        for game in playable_games()
    ]
    return InlineKeyboardMarkup(rows)


def welcome_buttons(host: Host, t: Translator) -> InlineKeyboardMarkup:
    """Under /start and /help in private: practice here against bots, or add the bot to a
    group."""
    practice = Callback(Kind.PRACTICE).encode()
    learn = Callback(Kind.LEARN).encode()  # the lessons' menu (bot.handlers.learn)
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(t("tutorial.learn_button"), callback_data=learn)],
            [InlineKeyboardButton(t("start.practice"), callback_data=practice)],
            [InlineKeyboardButton(t("start.add_to_group"), url=host.messenger.group_link())],
        ]
    )


@button(Kind.PRACTICE)
async def practice_button(update: Update, context: BotContext, data: Callback) -> None:
    """ "Practice against bots" under /start or /help: the game menu below, as ``/new``
    would send it here."""
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    user = query.from_user
    t = await host.languages.user_t(user)
    if not is_private(chat) or not on_menu(query, Kind.PRACTICE, Kind.LEARN):
        await popup(query, t("error.bad_button"))
        return
    t = await host.languages.chat_t(chat.id, user)
    if host.draining.on:
        await popup(query, t("drain.paused"), alert=True)
        return
    if await host.storage.active_match_id(chat.id, 0) is not None:
        await popup(query, t("lobby.already_running"), alert=True)
        return
    await popup(query)
    await host.messenger.send(chat.id, html.escape(t("lobby.practice_choose")), game_menu(t))


def lobby_title(chat: Chat, t: Translator) -> str:
    """The group's title, which tells matches apart in private chats; "Practice" in the
    private chat."""
    return t("practice.title") if is_private(chat) else chat.title or ""


@button(Kind.NEW_GAME)
async def choose_game(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    if not (is_group(chat) or is_private(chat)):  # lobbies live in groups and, for practice,
        # in the private chat with the bot
        await popup(query, (await host.languages.user_t(query.from_user))("lobby.groups_only"))
        return
    t = await host.languages.chat_t(chat.id, query.from_user)
    # the menu message becomes the lobby: it must be the menu, not a board or a result
    if data.payload not in playable_games() or not on_menu(query, Kind.NEW_GAME):
        await popup(query, t("error.bad_button"))
        return
    if host.draining.on:  # a menu sent before the drain began
        await popup(query, t("drain.paused"), alert=True)
        return
    match = await create_lobby(
        host,
        chat.id,
        thread_of(query.message),
        lobby_title(chat, t),
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
    rematch_of: Match | None = None,
    inline_message_id: str | None = None,
) -> Match | None:
    """Open a lobby (``None`` if this chat or topic already has a match). The creator takes
    the first seat at once when the bot can already write to them privately; a rematch
    seats the finished match's players instead, in their order, AI seats included. A
    practice lobby (in the private chat) starts with enough normal AI seats to play."""
    engine = get_engine(game)
    chosen = engine.options(options).model_dump()
    if await host.storage.chat_lang(chat_id) is None:
        await host.storage.set_chat_lang(chat_id, await host.languages.user_lang(creator))
    if turn_seconds is None:
        turn_seconds = host.settings.default_turn_seconds
    match = await host.storage.create_lobby(
        chat_id,
        thread_id,
        game,
        chosen,
        creator.id,
        title,
        turn_seconds,
        rematch_of=rematch_of.id if rematch_of else None,
        inline_message_id=inline_message_id,
    )
    if match is None:
        return None
    if rematch_of is None:
        players = [(creator.id, display_name(creator), None)]
    else:
        players = [(seat.user_id, seat.name, seat.ai) for seat in rematch_of.seats]
    async with host.lock(match.id):
        for user_id, name, level in players:
            if level is not None:
                seat_ai(match, name, level)
                continue
            record = await host.storage.user(user_id)
            if record and record.can_message:  # else they join by the link, which opens the chat
                match.seats.append(Seat(seat=len(match.seats), user_id=user_id, name=name))
        if match.practice and rematch_of is None:
            t = await host.languages.chat_t(chat_id)
            while len(match.seats) < engine.min_players:
                seat_ai(match, ai_name(t, NORMAL), NORMAL)
        await host.storage.save(match)
        match.lobby_message_id = menu_message_id  # the menu becomes the lobby
        await host.storage.save_display(match)
    host.publisher.request(match, [("group", chat_id)])
    return match


# -- joining and leaving ----------------------------------------------------------------------


async def join_by_link(update: Update, context: BotContext, match_id: int) -> None:
    """``/start j<id>`` in the private chat: the deep link behind the lobby's Join button."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    async with host.lock(match_id):
        match = await host.storage.load(match_id)
        if match is None or match.status != "lobby" or match.practice:
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


# a lobby's buttons live in its group and change nothing once it has closed
OPEN_LOBBY = (in_status("lobby", "lobby.closed"), pressed_in("group"))


@match_button(
    Kind.LEAVE,
    language="group",
    missing="lobby.closed",
    checks=(*OPEN_LOBBY, seated("lobby.not_joined")),
)
async def leave(press: MatchPress) -> None:
    match = press.match
    match.seats = [other for other in match.seats if other.user_id != press.user.id]
    for number, other in enumerate(match.seats):
        other.seat = number
    await press.host.storage.save(match)
    await press.tell("lobby.left")
    press.host.publisher.request(match, [("group", match.chat_id)])


# -- AI seats ---------------------------------------------------------------------------------


def seat_ai(match: Match, name: str, level: str) -> None:
    """An AI seat at the end of the table."""
    seat = Seat(seat=len(match.seats), user_id=next_ai_user_id(match), name=name, ai=level)
    match.seats.append(seat)


@match_button(Kind.ADD_AI, language="group", missing="lobby.closed", checks=(*OPEN_LOBBY, manager))
async def add_ai(press: MatchPress) -> None:
    match, level = press.match, press.data.payload
    engine = get_engine(match.game)
    if level not in LOBBY_LEVELS:
        await press.tell("error.bad_button")
        return
    if len(match.seats) >= engine.max_players:
        await press.tell("lobby.full", max=engine.max_players)
        return
    name = ai_name(press.t, level)
    seat_ai(match, name, level)
    await press.host.storage.save(match)
    await press.tell("lobby.ai_added", name=name)
    press.host.publisher.request(match, [("group", match.chat_id)])


@match_button(
    Kind.REMOVE_AI, language="group", missing="lobby.closed", checks=(*OPEN_LOBBY, manager)
)
async def remove_ai(press: MatchPress) -> None:
    """The last AI seat leaves the table; the seats after it move up."""
    match = press.match
    bots = [seat for seat in match.seats if seat.is_ai]
    if not bots:
        await press.tell("lobby.no_ai")
        return
    match.seats.remove(bots[-1])
    for number, seat in enumerate(match.seats):
        seat.seat = number
    await press.host.storage.save(match)
    await press.tell("lobby.ai_removed", name=bots[-1].name)
    press.host.publisher.request(match, [("group", match.chat_id)])


# -- creator's controls -----------------------------------------------------------------------


@match_button(Kind.OPTION, language="group", missing="lobby.closed", checks=(*OPEN_LOBBY, manager))
async def cycle_option(press: MatchPress) -> None:
    match, t, name = press.match, press.t, press.data.payload
    choices = option_choices(match.game)
    if name not in choices and name != TURN_OPTION:
        await press.tell("error.bad_button")
        return
    if name == TURN_OPTION:
        match.turn_seconds = next_value(TURN_PRESETS, match.turn_seconds)
        label = turn_label(t, match.turn_seconds)
    else:
        value = next_value(choices[name], match.options.get(name))
        match.options[name] = value
        label = get_ui(match.game).option_label(t, name, value)
    await press.host.storage.save(match)
    await press.answer(label)
    press.host.publisher.request(match, [("group", match.chat_id)])


def next_value(values: tuple, current: object) -> object:
    position = values.index(current) if current in values else -1
    return values[(position + 1) % len(values)]


async def not_draining(press: MatchPress) -> str | None:
    """No match starts, and no rematch opens, while the bot drains before an upgrade."""
    return "drain.paused" if press.host.draining.on else None


@match_button(
    Kind.START,
    language="group",
    missing="lobby.closed",
    checks=(*OPEN_LOBBY, manager, not_draining),
)
async def start(press: MatchPress) -> None:
    host, match = press.host, press.match
    engine = get_engine(match.game)
    if len(match.seats) < engine.min_players:
        await press.tell("lobby.need_players", alert=True, min=engine.min_players)
        return
    if not match.humans:  # AI seats alone are no match
        await press.tell("lobby.need_human", alert=True)
        return
    await flow.start_match(host.storage, match, host.clock())
    await press.tell("lobby.started")
    await host.timers.settle(match)
    host.publisher.request(match)  # closes the lobby message, draws the board, deals


@match_button(
    Kind.CANCEL_LOBBY,
    language="group",
    missing="lobby.closed",
    checks=(*OPEN_LOBBY, manager, yes_or_keep),
)
async def cancel(press: MatchPress) -> None:
    """The lobby's Cancel button, or "Yes" and "No" under /cancel's question."""
    match = press.match
    if press.data.payload == KEEP:
        if not on_menu(press.query, Kind.CANCEL_LOBBY):  # only the question turns into a line
            await press.tell("error.bad_button")
            return
        await keep_going(press, "cancel.kept_lobby")
        return
    match.status = "cancelled"
    await press.host.storage.save(match)
    await press.tell("lobby.cancelled")
    await press.host.publisher.close_lobby(match, press.t("lobby.cancelled_text"))


async def played_or_admin(press: MatchPress) -> str | None:
    """A rematch is for the finished match's players: one of them, or an admin, opens it."""
    if press.seat is not None:
        return None
    if not place_of(press.match).bot_in_chat:  # an inline message's chat: none it can ask
        return "inline.rematch_players_only"
    if await press.host.messenger.is_admin(press.match.chat_id, press.user.id):
        return None
    return "rematch.players_only"


@match_button(
    Kind.REMATCH,
    language="group",
    missing="error.bad_button",
    checks=(
        pressed_in("group"),
        in_status("finished", "error.bad_button"),
        playable,
        played_or_admin,
        not_draining,
    ),
)
async def rematch(press: MatchPress) -> None:
    """The rematch button under a final result: a lobby for the same game and options with
    the same players seated; each may leave, others may join while seats are free, and the
    finished match's players (or an admin) start it."""
    old = press.match
    if old.inline:  # the same message becomes the rematch's lobby (the press has no message)
        chat_id, title = old.chat_id, old.title
    else:
        chat = press.query.message.chat
        chat_id, title = chat.id, lobby_title(chat, press.t)
    opened = await open_rematch(press.host, old, press.user, chat_id, title)
    await press.tell(opened)


async def open_rematch(host: Host, old: Match, user: User, chat_id: int, title: str) -> str:
    """A lobby for ``old``'s game and options with its players seated, opened by ``user``
    (a player, or an admin) where ``old`` was played: the message key of what happened.
    The chat's Rematch button and the table app's Play again both open it here."""
    match = await create_lobby(
        host,
        chat_id,
        old.thread_id,
        title,
        old.game,
        user,
        options=old.options,
        turn_seconds=old.turn_seconds,
        rematch_of=old,
        inline_message_id=old.inline_message_id,
    )
    return "rematch.opened" if match else "lobby.already_running"


def rematch_offered(match: Match) -> bool:
    """Whether a finished match offers a rematch: where its board and final result are
    drawn (a tournament's table has neither: the tournament pairs the next)."""
    return place_of(match).board_in_group


async def rematch_from_app(host: Host, old: Match, user: User) -> str:
    """The table app's 🔁 Play again under a finished match (the asker played it, as the
    app checked): the chat's rematch, with the button's own checks — its game still
    offered, the bot not draining; the match's chat and title as it was played."""
    if old.status != "finished" or old.game not in playable_games() or not rematch_offered(old):
        return "error.bad_button"
    if host.draining.on:
        return "drain.paused"
    return await open_rematch(host, old, user, old.chat_id, old.title or "")
