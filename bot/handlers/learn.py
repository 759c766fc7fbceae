"""Learning a game by playing it, in the private chat: /learn, "🎓 Learn a game" under
/start, "🎓 Learn it by playing" under a group's /rules (a link into the private chat: the
group sees nothing), and the lesson's own buttons.

A lesson is one message, edited step by step. Its buttons carry the game and the step
(``tu:0:<step>:<game>-<verb><argument>``). The learner's place — their moves so far — is
stored (``Storage.save_lesson``, shared with the table app), so a lesson resumes where it
was left, after a restart too; a selection half made (a colour chosen, a card ticked) is
kept with the user in memory (``context.user_data``). A button of a step other than the
stored one is answered "this step is over". A move that reaches the step's goal moves the
lesson on from the position it made; any other is not played and is answered with why it
misses the goal; 💡 names the move and marks its next button 👉; ↩️ retries the step before;
🔁 starts again; 🚪 leaves (the place is kept).

The database counts, per tutorial, how many learners reached each step and how many
finished — each learner once — for the owner's /status.
"""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update, User

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
# the lesson's verbs: a move, a selection step, the hint, leaving, the step before again,
# the lesson again; after its end a practice game and the full rules
MOVE, DRAFT, HINT, LEAVE, BACK, RESTART, PRACTICE, RULES = "a", "d", "h", "x", "b", "s", "p", "r"
DONE = "✓"  # a finished lesson in the menu


def menu_label(t: Translator, game: str, reached: int) -> str:
    """A game's title, ✓ when its lesson is finished, its step when begun."""
    title = get_ui(game).title(t)
    steps = len(get_tutorial(game))
    if reached >= steps:
        return f"{DONE} {title}"
    return f"{title} · {reached + 1}/{steps}" if reached > 0 else title


def menu(t: Translator, reached: dict[str, int]) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                menu_label(t, game, reached.get(game, 0)), callback_data=learn_data(game)
            )
        ]
        for game in playable_games()
    ]
    return InlineKeyboardMarkup(rows)


async def menu_for(host: Host, user_id: int, t: Translator) -> InlineKeyboardMarkup:
    return menu(t, await host.storage.lessons_reached(user_id))


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
    own = 2 if lesson.index else 1  # the lesson's own rows: 💡 🚪, then ↩️ 🔁
    game_rows, own_rows = screen.rows[:-own], screen.rows[-own:]
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
    for row, verbs in zip(own_rows, ((HINT, LEAVE), (BACK, RESTART)), strict=False):
        rows.append(
            [
                InlineKeyboardButton(
                    key.label, callback_data=lesson_data(lesson.game, lesson.index, verb)
                )
                for key, verb in zip(row, verbs, strict=True)
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
            [
                InlineKeyboardButton(
                    t("tutorial.back_button"), callback_data=lesson_data(game, end, BACK)
                ),
                InlineKeyboardButton(
                    t("tutorial.restart_button"), callback_data=lesson_data(game, end, RESTART)
                ),
            ],
        ]
    )


def drawn(
    t: Translator, lesson: Lesson, learner: str = "", point: bool = False
) -> tuple[str, InlineKeyboardMarkup]:
    """The lesson's message: a step, or its end (the last table and what was learned)."""
    if lesson.over:
        table = lessons.final_table(t, lesson, learner)
        return f"{table}\n\n{lessons.ending(t, lesson.game)}", ending_markup(t, lesson.game)
    screen = lessons.screen(t, lesson, learner, point)
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
        keys = await menu_for(host, update.effective_user.id, t)
        await message.reply_text(t("tutorial.choose"), reply_markup=keys)
        return
    await begin(host, context, chat.id, t, game, update.effective_user)


async def learn_by_link(update: Update, context: BotContext, payload: str) -> bool:
    """``/start learn`` and ``/start learn_<game>``: False if the payload is no such link."""
    name, _, game = payload.partition("_")
    if name != LINK or (game and game not in playable_games()):
        return False
    host = context.host
    t = await host.languages.user_t(update.effective_user)
    user = update.effective_user
    if not game:
        keys = await menu_for(host, user.id, t)
        await update.effective_message.reply_text(t("tutorial.choose"), reply_markup=keys)
    else:
        await begin(host, context, update.effective_chat.id, t, game, user)
    return True


async def begin(
    host: Host,
    context: BotContext,
    chat_id: int,
    t: Translator,
    game: str,
    user: User,
    message_id: int = 0,
) -> None:
    """``game``'s lesson where the learner left it (a finished or new one from step 1): in
    place of ``message_id`` (a menu), else a new message."""
    lesson = lessons.resumed(game, await host.storage.lesson_path(user.id, game))
    remember(context, lesson)
    await host.storage.save_lesson(user.id, game, lesson.path)
    text, keys = drawn(t, lesson, user.first_name)
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
        keys = await menu_for(host, query.from_user.id, t)
        await host.messenger.send(chat.id, html.escape(t("tutorial.choose")), keys)
        return
    await begin(host, context, chat.id, t, data.payload, query.from_user, query.message.message_id)


# -- the lesson's buttons ---------------------------------------------------------------------
def remember(context: BotContext, lesson: Lesson, point: bool = False) -> None:
    context.user_data[SESSION] = {
        "game": lesson.game,
        "index": lesson.index,
        "draft": lesson.draft,
        "point": point,
    }


async def current(
    host: Host, context: BotContext, user_id: int, game: str, index: int
) -> tuple[Lesson, bool] | None:
    """The learner's lesson (their stored place) if the pressed step is its step, with the
    selection they made there and whether 💡 was asked; None: a button of another step."""
    lesson = lessons.resumed(game, await host.storage.lesson_path(user_id, game))
    if lesson.index != index:
        return None
    session: dict[str, Any] = context.user_data.get(SESSION) or {}
    if session.get("game") != game or session.get("index") != index:
        return lesson, False
    return Lesson(game, lesson.path, session["draft"]), bool(session.get("point"))


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
    if data.token > end or verb not in (MOVE, DRAFT, HINT, LEAVE, BACK, RESTART):
        await popup(query, t("error.bad_button"))
        return
    user = query.from_user
    if data.token == end and verb in (BACK, RESTART):  # after the end: the lesson again
        stored = await host.storage.lesson_path(user.id, game) or []
        if len(stored) != end:
            await popup(query, t("tutorial.stale"))
            return
        finished = Lesson(game, tuple(tuple(move) for move in stored))
        await again(host, context, query, t, finished, 0 if verb == RESTART else end - 1)
        return
    if data.token == end:
        await popup(query, t("error.bad_button"))
        return
    found = await current(host, context, user.id, game, data.token)
    if found is None:
        await popup(query, t("tutorial.stale"))
        return
    lesson, point = found
    if verb == HINT:
        await popup(query, lessons.hint(t, lesson), alert=True)
        remember(context, lesson, point=True)
        await show(host, query, *drawn(t, lesson, user.first_name, point=True))
    elif verb == LEAVE:
        context.user_data.pop(SESSION, None)
        await popup(query)
        await show(host, query, t("tutorial.left", number=lesson.index + 1))
    elif verb in (BACK, RESTART):
        await again(host, context, query, t, lesson, 0 if verb == RESTART else lesson.index - 1)
    elif verb == DRAFT:
        await select(host, context, query, t, lesson, argument, point)
    else:
        await move(host, context, query, t, lesson, argument)


async def again(
    host: Host, context: BotContext, query: CallbackQuery, t: Translator, lesson: Lesson, index: int
) -> None:
    """The lesson from step ``index`` again (0: from its start): the moves after it undone."""
    user = query.from_user
    back = Lesson(lesson.game, lesson.path[: max(index, 0)])
    remember(context, back)
    await host.storage.save_lesson(user.id, back.game, back.path)
    await popup(query)
    await show(host, query, *drawn(t, back, user.first_name))


async def select(
    host: Host,
    context: BotContext,
    query: CallbackQuery,
    t: Translator,
    lesson: Lesson,
    step: str,
    point: bool,
) -> None:
    """A selection step (a colour, a card ticked): the same step, drawn again."""
    engine = get_engine(lesson.game)
    state = lesson.state
    view = engine.view(state, LEARNER)
    legal = engine.legal_actions(state, LEARNER)
    try:
        outcome = get_ui(lesson.game).draft(view, LEARNER, legal, lesson.draft, step)
    except BadDraft:
        await popup(query, t("error.bad_button"))
        return
    if outcome.action is not None:  # the selection made a whole move
        remember(context, Lesson(lesson.game, lesson.path), point)
        await move(host, context, query, t, lesson, encode_action(outcome.action))
        return
    await popup(query)
    lesson = Lesson(lesson.game, lesson.path, outcome.draft)
    remember(context, lesson, point)
    await show(host, query, *drawn(t, lesson, query.from_user.first_name, point))


async def move(
    host: Host, context: BotContext, query: CallbackQuery, t: Translator, lesson: Lesson, text: str
) -> None:
    """A move that reaches the step's goal moves the lesson on from the position it made;
    another is not played: why it misses the goal."""
    try:
        action = decode_action(text)
    except IllegalAction:
        await popup(query, t("error.bad_button"))
        return
    if not lesson.accepts(action):
        why = lessons.why_text(t, lesson.game, lesson.why(action))
        await popup(query, t("tutorial.wrong", detail=why), alert=True)
        return
    following = lesson.then(action)
    remember(context, following)
    await host.storage.save_lesson(query.from_user.id, lesson.game, following.path)
    await popup(query, lessons.well_done(t, lesson, action))
    await show(host, query, *drawn(t, following, query.from_user.first_name))
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
