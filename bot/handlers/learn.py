"""Learning a game by playing it, in the private chat: /learn, "🎓 Learn a game" under
/start, "🎓 Learn it by playing" under a group's /rules (a link into the private chat: the
group sees nothing), and the lesson's own buttons.

A lesson is one message, edited step by step. Its buttons carry the game and the step
(``tu:0:<step>:<game>-<verb><argument>``), so a lesson survives a restart: the step's table
is the script replayed (``games.tutorial``). The step a learner is at, and a selection half
made (a colour chosen, a card ticked), are kept with the user (``context.user_data``, in
memory): a button of an older step is answered "this step is over"; after a restart the
pressed step is taken at its word. The taught move moves the lesson on; any other move is
not played and is answered with the rule against it; 💡 shows the move; 🚪 leaves.

The database counts, per tutorial, how many reached each step and how many finished —
counts only, naming no one — for the owner's /status.
"""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.handlers.buttons import button
from bot.handlers.common import is_group, is_private, popup
from bot.handlers.lobby import create_lobby, lobby_title
from bot.presentation import tutorial as lessons
from bot.presentation.i18n import Translator
from bot.presentation.tutorial import Lesson
from bot.presentation.ui import get_ui, playable_games
from bot.presentation.ui.base import BadDraft, Screen
from bot.table.host import BotContext, Host
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import MessageGone, message_parts
from games import get_engine
from games.core import IllegalAction, decode_action, encode_action
from games.tutorial import LEARNER, get_tutorial

log = logging.getLogger(__name__)

LINK = "learn"  # /start learn: the menu; /start learn_<game>: that game's lesson
SESSION = "lesson"  # the user's lesson in ``context.user_data``: game, step, selection
# the lesson's verbs: a move, a selection step, the hint, leaving; after its end a
# practice game and the full rules
MOVE, DRAFT, HINT, LEAVE, PRACTICE, RULES = "a", "d", "h", "x", "p", "r"


def menu(t: Translator) -> InlineKeyboardMarkup:
    rows = [
        [InlineKeyboardButton(get_ui(game).title(t), callback_data=learn_data(game))]
        for game in playable_games()
    ]
    return InlineKeyboardMarkup(rows)


def learn_data(game: str = "") -> str:
    return Callback(Kind.LEARN, 0, 0, game).encode()


def link(host: Host, game: str | None = None) -> str:
    """The private chat's link that opens a game's lesson (or the menu)."""
    return host.messenger.deep_link(f"{LINK}_{game}" if game else LINK)


def lesson_data(game: str, index: int, verb: str, argument: str = "") -> str:
    return Callback(Kind.TUTORIAL, 0, index, f"{game}-{verb}{argument}").encode()


def markup(t: Translator, lesson: Lesson, screen: Screen) -> InlineKeyboardMarkup:
    """The game's own buttons as the lesson's, then 💡 and 🚪."""
    rows = []
    *game_rows, (hint, leave) = screen.rows
    for row in game_rows:
        keys = []
        for key in row:
            if key.action is not None:
                data = lesson_data(lesson.game, lesson.index, MOVE, encode_action(key.action))
            elif key.draft is not None:
                data = lesson_data(lesson.game, lesson.index, DRAFT, key.draft)
            else:
                continue  # a link (none in a private prompt)
            keys.append(InlineKeyboardButton(key.label, callback_data=data))
        if keys:
            rows.append(keys)
    rows.append(
        [
            InlineKeyboardButton(
                hint.label, callback_data=lesson_data(lesson.game, lesson.index, HINT)
            ),
            InlineKeyboardButton(
                leave.label, callback_data=lesson_data(lesson.game, lesson.index, LEAVE)
            ),
        ]
    )
    return InlineKeyboardMarkup(rows)


def ending_markup(t: Translator, game: str) -> InlineKeyboardMarkup:
    end = len(get_tutorial(game))
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t("tutorial.practice_button"), callback_data=lesson_data(game, end, PRACTICE)
                )
            ],
            [
                InlineKeyboardButton(
                    t("tutorial.rules_button"), callback_data=lesson_data(game, end, RULES)
                )
            ],
        ]
    )


def drawn(t: Translator, lesson: Lesson) -> tuple[str, InlineKeyboardMarkup]:
    """The lesson's message: a step, or its end (the last table and what was learned)."""
    if lesson.over:
        text = f"{lessons.final_table(t, lesson.game)}\n\n{lessons.ending(t, lesson.game)}"
        return text, ending_markup(t, lesson.game)
    screen = lessons.screen(t, lesson)
    return screen.text, markup(t, lesson, screen)


# -- starting a lesson -----------------------------------------------------------------------
async def learn_command(update: Update, context: BotContext) -> None:
    """/learn [game]: in the private chat the lessons' menu (or the game's lesson); in a
    group, a button into the private chat, where lessons happen."""
    host = context.host
    chat = update.effective_chat
    message = update.effective_message
    game = context.args[0].lower() if context.args else None
    if game is not None and game not in playable_games():
        game = None
    if is_group(chat):
        t = await host.languages.chat_t(chat.id, update.effective_user)
        keys = [[InlineKeyboardButton(t("tutorial.open_lesson"), url=link(host, game))]]
        await message.reply_text(t("tutorial.in_private"), reply_markup=InlineKeyboardMarkup(keys))
        return
    t = await host.languages.user_t(update.effective_user)
    if not is_private(chat):
        await message.reply_text(t("lobby.groups_only"))
        return
    if game is None:
        await message.reply_text(t("tutorial.choose"), reply_markup=menu(t))
        return
    await begin(host, context, chat.id, t, game)


async def learn_by_link(update: Update, context: BotContext, payload: str) -> bool:
    """``/start learn`` and ``/start learn_<game>``: False if the payload is no such link."""
    name, _, game = payload.partition("_")
    if name != LINK or (game and game not in playable_games()):
        return False
    host = context.host
    t = await host.languages.user_t(update.effective_user)
    if not game:
        await update.effective_message.reply_text(t("tutorial.choose"), reply_markup=menu(t))
    else:
        await begin(host, context, update.effective_chat.id, t, game)
    return True


async def begin(
    host: Host, context: BotContext, chat_id: int, t: Translator, game: str, message_id: int = 0
) -> None:
    """Step 1 of ``game``'s lesson: in place of ``message_id`` (a menu), else a new message."""
    lesson = Lesson(game, 0)
    remember(context, lesson)
    await host.storage.count_tutorial_step(game, 0)
    text, keys = drawn(t, lesson)
    if message_id:
        with contextlib.suppress(MessageGone):
            await host.messenger.edit(chat_id, message_id, text, keys)
            return
    await host.messenger.send(chat_id, text, keys)


@button(Kind.LEARN)
async def learn_button(update: Update, context: BotContext, data: Callback) -> None:
    """A game of the lessons' menu (its lesson replaces the menu), or "🎓 Learn a game"
    under /start (the menu, below)."""
    host = context.host
    query = update.callback_query
    t = await host.languages.user_t(query.from_user)
    chat = update.effective_chat
    if not is_private(chat) or data.payload not in ("", *playable_games()):
        await popup(query, t("error.bad_button"))
        return
    await popup(query)
    if not data.payload:
        await host.messenger.send(chat.id, html.escape(t("tutorial.choose")), menu(t))
        return
    await begin(host, context, chat.id, t, data.payload, query.message.message_id)


# -- the lesson's buttons ---------------------------------------------------------------------
def remember(context: BotContext, lesson: Lesson) -> None:
    context.user_data[SESSION] = {"game": lesson.game, "index": lesson.index, "draft": lesson.draft}


def current(context: BotContext, game: str, index: int) -> Lesson | None:
    """The user's lesson if the pressed step is its step (after a restart, nothing is
    remembered: the press is taken at its word); None: a button of an older step."""
    session: dict[str, Any] | None = context.user_data.get(SESSION)
    if session is None or session["game"] != game:
        return Lesson(game, index)
    if session["index"] != index:
        return None
    return Lesson(game, index, session["draft"])


@button(Kind.TUTORIAL)
async def lesson_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    t = await host.languages.user_t(query.from_user)
    game, _, command = data.payload.partition("-")
    verb, argument = command[:1], command[1:]
    if not is_private(update.effective_chat) or game not in playable_games():
        await popup(query, t("error.bad_button"))
        return
    end = len(get_tutorial(game))
    if verb in (PRACTICE, RULES):
        if data.token != end:
            await popup(query, t("error.bad_button"))
        elif verb == PRACTICE:
            await practice(host, query, t, game)
        else:
            await full_rules(host, query, t, game)
        return
    if data.token >= end or verb not in (MOVE, DRAFT, HINT, LEAVE):
        await popup(query, t("error.bad_button"))
        return
    lesson = current(context, game, data.token)
    if lesson is None:
        await popup(query, t("tutorial.stale"))
        return
    if verb == HINT:
        await popup(query, lessons.hint(t, lesson), alert=True)
    elif verb == LEAVE:
        context.user_data.pop(SESSION, None)
        await popup(query)
        await show(host, query, t("tutorial.left"))
    elif verb == DRAFT:
        await select(host, context, query, t, lesson, argument)
    else:
        await move(host, context, query, t, lesson, argument)


async def select(
    host: Host, context: BotContext, query: CallbackQuery, t: Translator, lesson: Lesson, step: str
) -> None:
    """A selection step (a colour, a card ticked): the same step, drawn again."""
    engine = get_engine(lesson.game)
    state = lesson.tutorial.state_at(lesson.index)
    view = engine.view(state, LEARNER)
    legal = engine.legal_actions(state, LEARNER)
    try:
        outcome = get_ui(lesson.game).draft(view, LEARNER, legal, lesson.draft, step)
    except BadDraft:
        await popup(query, t("error.bad_button"))
        return
    if outcome.action is not None:  # the selection made a whole move
        remember(context, Lesson(lesson.game, lesson.index))
        await move(host, context, query, t, lesson, encode_action(outcome.action))
        return
    await popup(query)
    lesson = Lesson(lesson.game, lesson.index, outcome.draft)
    remember(context, lesson)
    await show(host, query, *drawn(t, lesson))


async def move(
    host: Host, context: BotContext, query: CallbackQuery, t: Translator, lesson: Lesson, text: str
) -> None:
    """The taught move moves the lesson on; another is not played: the rule against it."""
    try:
        action = decode_action(text)
    except IllegalAction:
        await popup(query, t("error.bad_button"))
        return
    if action != lesson.taught:
        why = lessons.why_text(t, lesson.game, lesson.tutorial.explain(lesson.index, action))
        await popup(query, t("tutorial.wrong", detail=why), alert=True)
        return
    following = Lesson(lesson.game, lesson.index + 1)
    remember(context, following)
    await host.storage.count_tutorial_step(lesson.game, following.index)
    await popup(query, t("tutorial.right"))
    await show(host, query, *drawn(t, following))
    if following.over:
        context.user_data.pop(SESSION, None)


async def show(
    host: Host, query: CallbackQuery, text: str, keys: InlineKeyboardMarkup | None = None
) -> None:
    """The lesson's message, redrawn in place (pressed twice, the second edit is no error)."""
    message = query.message
    with contextlib.suppress(MessageGone):
        await host.messenger.edit(message.chat.id, message.message_id, text, keys)


async def practice(host: Host, query: CallbackQuery, t: Translator, game: str) -> None:
    """ "🤖 Play a practice game" at the end: the game's practice lobby, with its bots."""
    chat = query.message.chat
    if host.draining.on:
        await popup(query, t("drain.paused"), alert=True)
        return
    title = lobby_title(chat, t)
    match = await create_lobby(host, chat.id, 0, title, game, query.from_user)
    await popup(query, None if match else t("lobby.already_running"), alert=match is None)


async def full_rules(host: Host, query: CallbackQuery, t: Translator, game: str) -> None:
    """ "📖 Full rules" at the end: the rules below the lesson, which stays."""
    await popup(query)
    ui = get_ui(game)
    for part in message_parts(f"<b>{html.escape(ui.title(t))}</b>\n\n{ui.rules(t)}"):
        await host.messenger.send(query.message.chat.id, part)
