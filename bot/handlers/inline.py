"""Inline mode: a table in any chat — typing ``@bot`` offers the games; the chosen one is a
message the user sends through the bot, which becomes the lobby and then the board.

Telegram tells the bot nothing when a result is chosen (that would need /setinlinefeedback),
so the result's Join button carries what the lobby needs: the game and its creator, sealed
with the bot's token so nobody can open a table in someone else's name. The first press on
the message opens the lobby, bound to the message's ``inline_message_id`` and to its chat's
stand-in id (``bot.table.place.inline_chat_id``): every later press finds it there.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import re

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
    User,
)
from telegram.constants import ParseMode

from bot.handlers.buttons import MatchPress, button, in_status, match_button, pressed_in
from bot.handlers.common import display_name, popup
from bot.handlers.lobby import create_lobby
from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui, playable_games
from bot.storage import Seat
from bot.table.host import BotContext, Host
from bot.table.place import inline_chat_id
from bot.telegram_api.callbacks import Callback, Kind
from games import get_engine

# Telegram may show the same answer again for this long (per user: ``is_personal``, as the
# results name their creator and speak their language)
CACHE_SECONDS = 30
START_PARAMETER = "inline"  # the button above the results opens the private chat with this
SEAL_CHARACTERS = 10
TAG = re.compile(r"<[^>]+>")


def seal(host: Host, game: str, creator_id: int) -> str:
    """A short signature of (game, creator) with the bot's token: the Join button of a table
    not yet opened is proof of who offered it."""
    key = host.settings.telegram_bot_token.get_secret_value().encode()
    digest = hmac.new(key, f"{game}.{creator_id}".encode(), hashlib.sha256).hexdigest()
    return digest[:SEAL_CHARACTERS]


def unseal(host: Host, payload: str) -> tuple[str, int] | None:
    """The game and creator of an unopened table's button, if its seal is right."""
    game, _, rest = payload.partition(".")
    creator, _, signature = rest.partition(".")
    if not creator.isascii() or not creator.isdigit():
        return None
    if not hmac.compare_digest(signature, seal(host, game, int(creator))):
        return None
    return game, int(creator)


def one_line(text: str) -> str:
    """A summary's first line, as plain text (a result's description shows no HTML)."""
    return html.unescape(TAG.sub("", text.split("\n", 1)[0])).strip()


def invitation(
    host: Host, t: Translator, creator_id: int, creator: str, game: str
) -> InlineQueryResultArticle:
    """A game's invitation: its summary and player count, and the Join button that opens
    its table (sealed with its creator, ``creator`` their escaped name)."""
    ui, engine = get_ui(game), get_engine(game)
    title = ui.title(t)
    players = t("inline.players", min=engine.min_players, max=engine.max_players)
    summary = one_line(ui.summary(t))
    data = Callback(Kind.INLINE_OPEN, 0, 0, f"{game}.{creator_id}.{seal(host, game, creator_id)}")
    text = t("inline.invitation", game=html.escape(title), name=creator, players=players)
    return InlineQueryResultArticle(
        id=game,
        title=title,
        description=f"{players} · {summary}",
        input_message_content=InputTextMessageContent(
            f"{text}\n\n{html.escape(summary)}", parse_mode=ParseMode.HTML
        ),
        reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton(t("lobby.join"), callback_data=data.encode())]]
        ),
    )


async def remember_creator(host: Host, user: User):
    """An invitation's creator, kept: a table's first press may come from someone else, who
    sees its creator's name and language (written only when they change: a query comes with
    every letter typed). Their record, as now kept."""
    record = await host.storage.user(user.id)
    if record is None or (record.name, record.telegram_lang) != (
        display_name(user),
        user.language_code,
    ):
        await host.storage.remember_user(
            user.id, display_name(user), telegram_lang=user.language_code
        )
        record = await host.storage.user(user.id)
    return record


async def prepare_invitation(host: Host, user: User, game: str) -> tuple[str, float]:
    """The table app's "Play with a friend": the invitation kept by Telegram for ``user``
    to send (``savePreparedInlineMessage``, within the app's share of the bot's Telegram
    budget); the app then opens Telegram's chat picker (``shareMessage``) with the returned
    id, valid until the returned time. The friend's tap on Join opens the table as any
    inline table's, with its creator's name and language as kept here. Raises
    :class:`telegram.error.TelegramError` when Telegram refuses."""
    t = await host.languages.user_t(user)
    result = invitation(host, t, user.id, html.escape(display_name(user)), game)
    prepared = await host.messenger.prepare_inline_message(user.id, result)
    await remember_creator(host, user)  # once Telegram has kept it: nothing for a refusal
    return prepared


async def inline_query(update: Update, context: BotContext) -> None:
    """``@bot [words]`` in any chat: the games whose name matches the words, each with its
    summary and player count; choosing one sends the table's invitation to that chat."""
    host = context.host
    query = update.inline_query
    user = query.from_user
    record = await remember_creator(host, user)
    t = await host.languages.user_t(user)
    wanted = query.query.strip().casefold()
    creator = html.escape(display_name(user))
    results = []
    for game in playable_games():
        title = get_ui(game).title(t)
        if wanted and wanted not in title.casefold() and wanted not in game:
            continue
        results.append(invitation(host, t, user.id, creator, game))
    start = None
    if record is None or not record.can_message:  # private hands need the private chat
        start = InlineQueryResultsButton(t("inline.start_private"), start_parameter=START_PARAMETER)
    await query.answer(results, cache_time=CACHE_SECONDS, is_personal=True, button=start)


@button(Kind.INLINE_OPEN, inline=True)
async def open_table(update: Update, context: BotContext, data: Callback) -> None:
    """The first press on a table sent through inline mode opens its lobby (the creator
    seated where the bot can write to them), then seats the presser; a later press on a
    table already open is a Join."""
    host = context.host
    query = update.callback_query
    user = query.from_user
    t = await host.languages.user_t(user)
    offered = unseal(host, data.payload)
    inline_id = query.inline_message_id
    if inline_id is None or offered is None or offered[0] not in playable_games():
        await popup(query, t("error.bad_button"))
        return
    game, creator_id = offered
    match_id = await host.storage.inline_match_id(inline_id)
    if match_id is None and await host.storage.inline_match_id(inline_id, active=False):
        await popup(query, t("lobby.closed"))  # an old invitation's button: its table ended
        return
    if match_id is None:
        creator = await known_user(host, creator_id, user)
        chat_id = inline_chat_id(query.chat_instance)
        chat_t = await host.languages.user_t(creator)
        title = chat_t("inline.title", name=display_name(creator))
        match = await create_lobby(
            host, chat_id, 0, title, game, creator, inline_message_id=inline_id
        )
        # None: a press a moment earlier opened it
        match_id = match.id if match else await host.storage.inline_match_id(inline_id)
    if match_id is None:
        await popup(query, t("lobby.closed"))
        return
    async with host.lock(match_id):
        match = await host.storage.load(match_id)
        if match is None or match.status != "lobby":
            await popup(query, t("lobby.closed"))
            return
        await take_seat(host, query, user, t, match)


async def known_user(host: Host, user_id: int, presser: User) -> User:
    """The creator of a table as Telegram described them at their inline query (the
    presser, when it is them)."""
    if presser.id == user_id:
        return presser
    record = await host.storage.user(user_id)
    name = record.name if record else str(user_id)
    lang = record.telegram_lang if record else None
    return User(user_id, name, is_bot=False, language_code=lang)


@match_button(
    Kind.INLINE_JOIN,
    language="presser",
    missing="lobby.closed",
    checks=(in_status("lobby", "lobby.closed"), pressed_in("group")),
)
async def join(press: MatchPress) -> None:
    await take_seat(press.host, press.query, press.user, press.t, press.match)


async def take_seat(host: Host, query, user: User, t: Translator, match) -> None:
    """Seat the presser in an inline lobby (under its lock) where the bot can already write
    to them; else open the private chat, which seats them (``/start j<id>``)."""
    await host.storage.remember_user(user.id, display_name(user), telegram_lang=user.language_code)
    game = get_ui(match.game).title(t)
    if match.seat_of(user.id) is not None:
        await popup(query, t("lobby.already_joined", game=game))
        host.publisher.request(match, [("group", match.chat_id)])  # a new table: drawn
        return
    engine = get_engine(match.game)
    if len(match.seats) >= engine.max_players:
        await popup(query, t("lobby.full", max=engine.max_players))
        return
    record = await host.storage.user(user.id)
    if record is None or not record.can_message:
        link = host.messenger.deep_link(f"j{match.id}")
        await popup(query, t("inline.open_private"), url=link)
        host.publisher.request(match, [("group", match.chat_id)])
        return
    match.seats.append(Seat(seat=len(match.seats), user_id=user.id, name=display_name(user)))
    await host.storage.save(match)
    await popup(query, t("inline.joined", game=game))
    host.publisher.request(match, [("group", match.chat_id)])
