"""Commands outside the lobby and the play loop: /start, /help, /rules, /language, /cancel,
/board, and a clear answer to anything the bot does not understand."""

from __future__ import annotations

import contextlib
import html
import logging
import re

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError

from bot.handlers import learn
from bot.handlers.buttons import (
    KEEP,
    MatchPress,
    button,
    in_status,
    keep_going,
    manager,
    match_button,
    pressed_in,
    yes_or_keep,
)
from bot.handlers.common import (
    display_name,
    is_group,
    is_private,
    managers_only,
    may_manage,
    on_menu,
    popup,
    thread_of,
)
from bot.handlers.inline import START_PARAMETER as INLINE_START
from bot.handlers.lobby import join_by_link, welcome_buttons
from bot.handlers.records import HISTORY_LINK, history_by_link
from bot.handlers.tournaments import PAGE_LINK, open_page_by_link
from bot.handlers.tournaments import join_by_link as tournament_join
from bot.presentation.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, translator
from bot.presentation.ui import get_ui, playable_games
from bot.table.host import BotContext, Host
from bot.table.place import place_of
from bot.table.publishing.messages import Ending
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import ChatMoved, MessageGone, Unreachable, message_parts

log = logging.getLogger(__name__)

MATCH_ID = re.compile(r"[0-9]{1,12}")  # as in callback data: fits SQLite's integers
ECHOED_COMMAND = 64  # characters of an unknown command quoted in the answer


async def start_command(update: Update, context: BotContext) -> None:
    """Private /start: the deep links ``j<id>`` (join a lobby), ``t<id>`` (join a
    tournament), ``p<id>`` (its page in the app), ``m<id>`` (show my cards) and ``h<id>``
    (a match of /history), or a welcome. Any /start proves the bot may now write to this user."""
    host = context.host
    user = update.effective_user
    message = update.effective_message
    if not is_private(update.effective_chat):
        await help_command(update, context)
        return
    await host.storage.remember_user(
        user.id, display_name(user), can_message=True, telegram_lang=user.language_code
    )
    await host.storage.remember_username(user.id, user.username)  # for /stats @username
    t = await host.languages.user_t(user)
    payload = context.args[0] if context.args else ""
    if payload[:1] in ("j", "m", "w", "t", PAGE_LINK, HISTORY_LINK) and MATCH_ID.fullmatch(
        payload[1:]
    ):
        match_id = int(payload[1:])
        if payload[0] == "t":  # a tournament's Join
            await tournament_join(update, context, match_id)
        elif payload[0] == PAGE_LINK:
            await open_page_by_link(update, context, match_id)
        elif payload[0] == "j":
            await join_by_link(update, context, match_id)
        elif payload[0] == HISTORY_LINK:
            await history_by_link(update, context, match_id)
        elif payload[0] == "w":
            await open_table_by_link(update, context, match_id)
        else:
            await resend_prompt(update, context, match_id)
        return
    if payload.startswith(learn.LINK) and await learn.learn_by_link(update, context, payload):
        return
    if payload and payload != INLINE_START:  # (the button above inline results: a welcome)
        await message.reply_text(t("start.bad_link"))
        return
    await message.reply_html(
        t("start.welcome", name=html.escape(user.first_name)),
        reply_markup=welcome_buttons(host, t),
    )
    for match_id in await host.storage.active_matches_of(user.id):
        await resend_prompt(update, context, match_id, quiet=True)


async def resend_prompt(
    update: Update, context: BotContext, match_id: int, quiet: bool = False
) -> None:
    """Send a player's private prompt for a match again, as a new message."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    match = await host.storage.load(match_id)
    seat = match.seat_of(user.id) if match else None
    if match is None or seat is None or match.status != "playing":
        if not quiet:
            await update.effective_message.reply_text(t("start.no_cards"))
        return
    host.publisher.resend_prompt(match, user.id)


async def open_table_by_link(update: Update, context: BotContext, match_id: int) -> None:
    """``/start w<id>``, the group board's "🎲 The table": the button that opens the match's
    table in the app (Telegram takes such buttons in private chats only) — for its players,
    and for the members of its group, who watch."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    match = await host.storage.load(match_id)
    link = host.publisher.tables.link(match) if match is not None else None
    if match is None or link is None or match.status != "playing":
        await update.effective_message.reply_text(t("start.no_cards"))
        return
    if match.seat_of(user.id) is None and not (
        place_of(match).watchable and await host.messenger.is_member(match.chat_id, user.id)
    ):
        await update.effective_message.reply_text(t("app.not_your_table"))
        return
    game = html.escape(get_ui(match.game).title(t))
    text = t("app.watch_text", game=game, title=html.escape(match.title or "—"))
    button = {"text": t("app.open_table"), "web_app": {"url": link}}
    await host.messenger.send(user.id, text, {"inline_keyboard": [[button]]})


async def help_command(update: Update, context: BotContext) -> None:
    host = context.host
    chat = update.effective_chat
    if is_group(chat):
        t = await host.languages.chat_t(chat.id, update.effective_user)
    else:
        t = await host.languages.user_t(update.effective_user)
    lines = [t("help.text")]
    for game in playable_games():
        lines.append(f"• <b>{html.escape(get_ui(game).title(t))}</b> — <code>/rules {game}</code>")
    lines.append("")
    lines.append(t("help.records"))
    if is_group(chat):
        await update.effective_message.reply_html("\n".join(lines))
        return
    lines += ["", t("help.practice"), t("tutorial.help")]
    await update.effective_message.reply_html(
        "\n".join(lines), reply_markup=welcome_buttons(host, t)
    )


async def rules_command(update: Update, context: BotContext) -> None:
    """``/rules game``: the game's rules in brief, with a button for the full text;
    ``/rules``: a menu of the games first."""
    host = context.host
    chat = update.effective_chat
    t = await (
        host.languages.chat_t(chat.id)
        if is_group(chat)
        else host.languages.user_t(update.effective_user)
    )
    games = playable_games()
    if context.args:
        game = context.args[0].lower()
        if game not in games:
            await update.effective_message.reply_text(t("rules.unknown", games=", ".join(games)))
            return
        text, markup = summary_screen(t, game, learn.link(host, game))
        await update.effective_message.reply_html(text, reply_markup=markup)
        return
    rows = [
        [
            InlineKeyboardButton(
                get_ui(game).title(t), callback_data=Callback(Kind.RULES, 0, 0, game).encode()
            )
        ]
        for game in games
    ]
    await update.effective_message.reply_text(
        t("rules.choose"), reply_markup=InlineKeyboardMarkup(rows)
    )


def summary_screen(t: Translator, game: str, learn_link: str) -> tuple[str, InlineKeyboardMarkup]:
    """A game's rules in 3–5 lines (how to win, what a turn is), the full rules' button and
    "Learn it by playing": a link that opens the lesson in the private chat (a group sees
    nothing of it)."""
    ui = get_ui(game)
    data = Callback(Kind.FULL_RULES, 0, 0, game).encode()
    markup = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(t("rules.full"), callback_data=data)],
            [InlineKeyboardButton(t("tutorial.learn_by_playing"), url=learn_link)],
        ]
    )
    return f"<b>{html.escape(ui.title(t))}</b>\n\n{ui.summary(t)}", markup


async def rules_language(host: Host, query: CallbackQuery) -> Translator:
    """The language of a rules screen: the group's, or in a private chat the reader's."""
    chat = query.message.chat
    if is_group(chat):
        return await host.languages.chat_t(chat.id)
    return await host.languages.user_t(query.from_user)


@button(Kind.RULES)
async def rules_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    t = await rules_language(host, query)
    # the choice replaces the menu with the summary: only on the menu itself
    if data.payload not in playable_games() or not on_menu(query, Kind.RULES):
        await popup(query, t("error.bad_button"))
        return
    await popup(query)
    text, markup = summary_screen(t, data.payload, learn.link(host, data.payload))
    await replace_menu(host, query, text, markup)


@button(Kind.FULL_RULES)
async def full_rules_button(update: Update, context: BotContext, data: Callback) -> None:
    """The full rules in place of the summary; a text longer than one message continues in
    the messages below it."""
    host = context.host
    query = update.callback_query
    t = await rules_language(host, query)
    if data.payload not in playable_games() or not on_menu(query, Kind.FULL_RULES):
        await popup(query, t("error.bad_button"))
        return
    await popup(query)
    ui = get_ui(data.payload)
    first, *rest = message_parts(f"<b>{html.escape(ui.title(t))}</b>\n\n{ui.rules(t)}")
    await replace_menu(host, query, first)
    for part in rest:
        await host.messenger.send(query.message.chat.id, part, thread_id=thread_of(query.message))


async def language_command(update: Update, context: BotContext) -> None:
    host = context.host
    chat = update.effective_chat
    if is_group(chat):
        t = await host.languages.chat_t(chat.id, update.effective_user)
        text = t("language.choose_group")
    else:
        t = await host.languages.user_t(update.effective_user)
        text = t("language.choose_private")
    rows = [
        [
            InlineKeyboardButton(
                LANGUAGE_NAMES[lang], callback_data=Callback(Kind.LANGUAGE, 0, 0, lang).encode()
            )
            for lang in LANGUAGES
        ]
    ]
    await update.effective_message.reply_text(text, reply_markup=InlineKeyboardMarkup(rows))


@button(Kind.LANGUAGE)
async def language_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    user = query.from_user
    if data.payload not in LANGUAGES or not on_menu(query, Kind.LANGUAGE):
        await popup(query, (await host.languages.user_t(user))("error.bad_button"))
        return
    t = translator(data.payload)
    if is_group(chat):
        if not await host.messenger.is_admin(chat.id, user.id):
            await popup(query, (await host.languages.chat_t(chat.id))("language.admins_only"))
            return
        await host.storage.set_chat_lang(chat.id, data.payload)
        text = t("language.group_set")
    else:
        await host.storage.set_user_lang(user.id, display_name(user), data.payload)
        text = t("language.private_set")
    await popup(query, text)
    await replace_menu(host, query, html.escape(text))


PICTURE_CHOICES = ("on", "off")


async def pictures_command(update: Update, context: BotContext) -> None:
    """/pictures in a group: the tile games' boards as pictures (the default) or as text;
    the way in use is ticked."""
    host = context.host
    chat = update.effective_chat
    if not is_group(chat):
        t = await host.languages.user_t(update.effective_user)
        await update.effective_message.reply_text(t("pictures.groups_only"))
        return
    t = await host.languages.chat_t(chat.id, update.effective_user)
    shown = "on" if await host.storage.chat_pictures(chat.id) else "off"
    rows = [
        [
            InlineKeyboardButton(
                ("✅ " if choice == shown else "") + t(f"pictures.button.{choice}"),
                callback_data=Callback(Kind.PICTURES, 0, 0, choice).encode(),
            )
            for choice in PICTURE_CHOICES
        ]
    ]
    await update.effective_message.reply_text(
        t(f"pictures.choose.{shown}"), reply_markup=InlineKeyboardMarkup(rows)
    )


@button(Kind.PICTURES)
async def pictures_button(update: Update, context: BotContext, data: Callback) -> None:
    """An admin's choice; the group's running games are redrawn at once in the new way."""
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    user = query.from_user
    if not (data.payload in PICTURE_CHOICES and is_group(chat) and on_menu(query, Kind.PICTURES)):
        await popup(query, (await host.languages.user_t(user))("error.bad_button"))
        return
    t = await host.languages.chat_t(chat.id)
    if not await host.messenger.is_admin(chat.id, user.id):
        await popup(query, t("pictures.admins_only"))
        return
    await host.storage.set_chat_pictures(chat.id, data.payload == "on")
    text = t(f"pictures.set.{data.payload}")
    await popup(query, text)
    await replace_menu(host, query, html.escape(text))
    for match_id in await host.storage.active_in_chat(chat.id):
        match = await host.storage.load(match_id)
        if match is not None and match.status == "playing":
            host.publisher.request(match)


async def replace_menu(
    host: Host, query: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Show a menu's outcome in place of the menu. Pressed twice before the first edit
    arrived, the second edit changes nothing, and that is no error."""
    message = query.message
    with contextlib.suppress(MessageGone):
        await host.messenger.edit(message.chat.id, message.message_id, text, markup)


async def cancel_command(update: Update, context: BotContext) -> None:
    """/cancel in a group (or, for practice, the private chat): close the lobby, or (after a
    confirmation) stop the running game."""
    host = context.host
    chat = update.effective_chat
    message = update.effective_message
    if not (is_group(chat) or is_private(chat)):
        await message.reply_text(
            (await host.languages.user_t(update.effective_user))("lobby.groups_only")
        )
        return
    t = await host.languages.chat_t(chat.id, update.effective_user)
    match_id = await host.storage.active_match_id(chat.id, thread_of(message))
    match = await host.storage.load(match_id) if match_id else None
    if match is None:
        await message.reply_text(t("cancel.nothing"))
        return
    if not await may_manage(host, match, update.effective_user.id):
        await message.reply_text(t(managers_only(match)))
        return
    lobby = match.status == "lobby"
    kind = Kind.CANCEL_LOBBY if lobby else Kind.ABORT
    keep = t("cancel.keep_lobby") if lobby else t("cancel.keep")
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t("cancel.confirm"), callback_data=Callback(kind, match.id).encode()
                ),
                InlineKeyboardButton(
                    keep, callback_data=Callback(kind, match.id, 0, KEEP).encode()
                ),
            ]
        ]
    )
    await message.reply_text(t("cancel.ask"), reply_markup=markup)


@match_button(
    Kind.ABORT,
    language="group",
    missing="play.match_over",
    checks=(in_status("playing", "play.match_over"), pressed_in("group"), manager, yes_or_keep),
    menu_only=True,  # the confirmation under /cancel, nothing else
)
async def abort_button(press: MatchPress) -> None:
    host, match, t = press.host, press.match, press.t
    if press.data.payload == KEEP:
        await keep_going(press, "cancel.kept")
        return
    match.status = "cancelled"
    await host.storage.save(match)
    host.timers.arm(match)  # a stopped match has no timer
    await press.tell("cancel.done")
    name = html.escape(display_name(press.user))
    await replace_menu(host, press.query, t("cancel.stopped", name=name))
    # each player's prompt says so (the group has just heard it), the board keeps no buttons
    key = "ended.practice_stopped" if match.practice else "ended.stopped"
    host.publisher.end_prompts(match, Ending(key, {"name": name}))
    if match.board_message_id is not None:
        try:
            await host.messenger.drop_keyboard(match.chat_id, match.board_message_id)
        except (Unreachable, ChatMoved, TelegramError):
            log.info("could not clear the buttons of message %s", match.board_message_id)


async def board_command(update: Update, context: BotContext) -> None:
    """/board in a group: the running game's board again at the bottom of the chat, where
    everyone sees it (the old board message goes: one board per match); in the private chat,
    the practice match's board."""
    host = context.host
    chat = update.effective_chat
    message = update.effective_message
    if not (is_group(chat) or is_private(chat)):
        await message.reply_text(
            (await host.languages.user_t(update.effective_user))("lobby.groups_only")
        )
        return
    match_id = await host.storage.active_match_id(chat.id, thread_of(message))
    match = await host.storage.load(match_id) if match_id else None
    if match is None or match.status != "playing":
        t = await host.languages.chat_t(chat.id, update.effective_user)
        await message.reply_text(t("cancel.nothing"))
        return
    host.publisher.repost_board(match)


async def unknown_command(update: Update, context: BotContext) -> None:
    host = context.host
    message = update.effective_message
    chat = update.effective_chat
    text = message.text or ""
    command = text.split()[0] if text else ""
    if is_group(chat) and not command.lower().endswith("@" + (host.bot.username or "").lower()):
        return  # in groups, only commands addressed to this bot deserve an answer
    t = await (
        host.languages.chat_t(chat.id)
        if is_group(chat)
        else host.languages.user_t(update.effective_user)
    )
    if len(command) > ECHOED_COMMAND:  # echoed back, it must fit in a message
        command = command[: ECHOED_COMMAND - 1] + "…"
    await message.reply_text(t("error.unknown_command", command=command))


async def private_text(update: Update, context: BotContext) -> None:
    """Free text in the private chat: point the user at the buttons and /help."""
    host = context.host
    t = await host.languages.user_t(update.effective_user)
    await update.effective_message.reply_text(t("error.use_buttons"))


async def bad_callback(update: Update, context: BotContext) -> None:
    """Any press no other handler took: forged, truncated or from an older bot version."""
    host = context.host
    query = update.callback_query
    t = await host.languages.user_t(query.from_user)
    await popup(query, t("error.bad_button"))
