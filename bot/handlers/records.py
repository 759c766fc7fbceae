"""Stats, leaderboards, history and forgetting: /stats, /top, /history, /forget and their
buttons. Everything here reads the match records (:mod:`bot.storage.standings`)."""

from __future__ import annotations

import contextlib
import html
import time
from collections.abc import Sequence

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    MessageEntity,
    Update,
    User,
)

from bot.handlers.buttons import button
from bot.handlers.common import display_name, is_group, is_private, on_menu, popup
from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui, playable_games
from bot.presentation.ui.base import Names, medal
from bot.storage import GameStats, Match, PastMatch, Standing, Unrated
from bot.storage.records import PROVISIONAL_GAMES, RATING_START
from bot.storage.seasons import SeasonStanding
from bot.table.host import BotContext, Host
from bot.table.match_log import readable_log, replay_json
from bot.table.place import is_inline_chat
from bot.table.seasons import season_words
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import MessageGone, Unreachable
from games import get_engine
from games.ai import game_ai

HISTORY_BUTTONS_PER_ROW = 2


def day(moment: float) -> str:
    """A date every language reads the same way (UTC)."""
    return time.strftime("%Y-%m-%d", time.gmtime(moment))


def rating_text(t: Translator, shown: int, provisional: bool) -> str:
    """A rating as players read it: "1520", or "1520?" while it is provisional (lichess's
    mark). No thousands separator: a rating reads like a chess rating, not like a count."""
    return t.number(shown, grouped=False) + ("?" if provisional else "")


def rating_legend(t: Translator) -> str:
    """What the number means, in one line (under /top and /stats)."""
    return t.plural("rating.legend", PROVISIONAL_GAMES, start=t.number(RATING_START, grouped=False))


async def _remember(host: Host, user: User | None) -> None:
    if user is not None:
        await host.storage.remember_username(user.id, user.username)


async def _reader(host: Host, update: Update) -> Translator:
    chat = update.effective_chat
    if is_group(chat):
        return await host.languages.chat_t(chat.id, update.effective_user)
    return await host.languages.user_t(update.effective_user)


# -- /stats -------------------------------------------------------------------------------
async def _stats_target(
    host: Host, message: Message, args: list[str], me: User
) -> tuple[int, str] | None:
    """Whose stats: the replied-to user, a mentioned one, or the sender; None if the
    mentioned name is unknown."""
    replied = message.reply_to_message
    # in a forum topic every message "replies" to the topic's first message: not a choice
    in_topic = replied is not None and replied.message_id == message.message_thread_id
    if (
        replied is not None
        and not in_topic
        and replied.from_user is not None
        and not replied.from_user.is_bot
    ):
        return replied.from_user.id, display_name(replied.from_user)
    for entity in message.entities or ():
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return entity.user.id, display_name(entity.user)
    if args:
        name = args[0]
        user_id = await host.storage.user_by_username(name) if name.startswith("@") else None
        if user_id is None:
            return None
        known = await host.storage.user(user_id)
        return user_id, known.name if known else name
    return me.id, display_name(me)


def unrated_words(t: Translator, why: Unrated) -> str:
    """Why a finished game rated nobody, for /top and /stats."""
    return t(f"unrated.{why.reason}", game=html.escape(get_ui(why.game).title(t)))


def stats_line(t: Translator, stats: GameStats, why: Unrated | None = None) -> str:
    title = html.escape(get_ui(stats.game).title(t))
    parts = [
        t.plural("stats.games", stats.games),
        t.plural("stats.wins", stats.wins, rate=t.percent(stats.wins, stats.games)),
    ]
    if stats.average is not None:
        # Who's the Donkey? counts penalty points: the lowest total is the best
        penalties = game_ai(stats.game).lower_is_better
        key, best = (
            ("stats.penalties", stats.lowest) if penalties else ("stats.scores", stats.highest)
        )
        parts.append(t(key, average=t.number(stats.average, 1), best=t.number(best)))
    if stats.shown is not None:
        rating = rating_text(t, stats.shown, stats.provisional)
        parts.append(t.plural("stats.rating", stats.rated_games, rating=rating))
    elif why is not None:  # every game of theirs here was practice, or with bots
        parts.append(t(f"stats.unrated_{why.reason}"))
    else:
        parts.append(t("stats.unrated"))
    return f"<b>{title}</b>: " + " · ".join(parts)


async def stats_command(update: Update, context: BotContext) -> None:
    """/stats: your games, wins, scores and rating per game — everywhere in private, within
    the group in a group; ``/stats @user`` or a reply: someone else's."""
    host = context.host
    message = update.effective_message
    chat = update.effective_chat
    await _remember(host, update.effective_user)
    t = await _reader(host, update)
    target = await _stats_target(host, message, context.args or [], update.effective_user)
    if target is None:
        await message.reply_text(t("stats.unknown_user", name=(context.args or [""])[0]))
        return
    user_id, name = target
    group = chat.id if is_group(chat) else None
    found = {stats.game: stats for stats in await host.storage.player_stats(user_id, group)}
    escaped = html.escape(name)
    header = t("stats.header_group", name=escaped) if group else t("stats.header", name=escaped)
    if not found:
        await message.reply_html(header + "\n" + t("stats.none"))
        return
    played = [found[game] for game in playable_games() if game in found]
    why = {
        stats.game: await host.storage.last_unrated(stats.game, group, user_id)
        for stats in played
        if stats.rating is None
    }
    lines = [header, *(stats_line(t, stats, why.get(stats.game)) for stats in played)]
    if any(stats.rating is not None for stats in played):
        lines += ["", rating_legend(t)]
    if any(why.values()):
        lines += ["", t("unrated.how")]
    await message.reply_html("\n".join(lines))


# -- /top ---------------------------------------------------------------------------------
ALL_TIME = ".all"  # a /top button's payload ending: the all-time ladder (else this season's)


def top_text(
    t: Translator,
    game: str,
    board: Sequence[Standing | SeasonStanding],
    group: bool,
    season_line: str | None = None,
) -> str:
    """A ladder: this season's (``season_line`` says which season) or the all-time one."""
    title = html.escape(get_ui(game).title(t))
    lines = [t("top.title_group", game=title) if group else t("top.title_global", game=title)]
    for place, standing in enumerate(board, start=1):
        lines.append(
            t(
                "top.line",
                place=medal(place),
                name=html.escape(standing.name),
                rating=rating_text(t, standing.shown, standing.provisional),
                games=t.plural("stats.games", standing.games),
            )
        )
    if season_line is not None:
        if not board:
            lines.append(t("season.empty"))
        lines += ["", season_line]
    else:
        lines += ["", t("season.all_time_shown")]
    lines += ["", rating_legend(t), t("top.rule")]
    return "\n".join(lines)


async def empty_top_text(
    host: Host, t: Translator, game: str, group: int | None, user: User
) -> str:
    """No leaderboard yet: where the last finished game here (in private, the asker's last)
    rated nobody, why, and what makes a rated game."""
    why = await host.storage.last_unrated(game or None, group, None if group else user.id)
    if why is None:
        return html.escape(
            t("top.empty") if not game else t("top.empty_game", game=get_ui(game).title(t))
        )
    title = html.escape(get_ui(game).title(t)) if game else ""
    first = t("top.empty_game", game=title) if game else t("top.none")
    return "\n".join((first, unrated_words(t, why), t("unrated.how")))


def top_buttons(
    t: Translator, games: list[str], shown: str, all_time: bool
) -> InlineKeyboardMarkup:
    """The other games' ladders (in the same view), and this season's or the all-time one."""
    suffix = ALL_TIME if all_time else ""

    def press(label: str, payload: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=Callback(Kind.TOP, 0, 0, payload).encode())

    buttons = [press(get_ui(game).title(t), game + suffix) for game in games if game != shown]
    rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    if all_time:
        rows.append([press(t("season.this_season_button"), shown)])
    else:
        rows.append([press(t("season.all_time_button"), shown + ALL_TIME)])
    return InlineKeyboardMarkup(rows)


async def ladder(host: Host, t: Translator, game: str, group: int | None, all_time: bool) -> str:
    """/top's text: this season's ladder of a game, or its all-time one."""
    if all_time:
        return top_text(t, game, await host.storage.leaderboard(game, group), group is not None)
    season = host.storage.season_now(host.clock())
    board = await host.storage.season_leaderboard(game, season, group)
    words = season_words(t, season, host.storage.season_months)
    return top_text(t, game, board, group is not None, t("season.shown", season=words))


async def top_command(update: Update, context: BotContext) -> None:
    """/top [game]: the group's leaderboard (in private: everyone's); ``/top off`` and
    ``/top on``: an admin switches the group's leaderboard."""
    host = context.host
    message = update.effective_message
    chat = update.effective_chat
    await _remember(host, update.effective_user)
    t = await _reader(host, update)
    group = chat.id if is_group(chat) else None
    wanted = (context.args or [""])[0].lower()
    if wanted in ("on", "off"):
        if group is None or not await host.messenger.is_admin(chat.id, update.effective_user.id):
            await message.reply_text(t("top.admins_only"))
            return
        await host.storage.set_leaderboard(chat.id, wanted == "on")
        await message.reply_text(t("top.switched_on") if wanted == "on" else t("top.switched_off"))
        return
    if group is not None and not await host.storage.leaderboard_on(group):
        await message.reply_text(t("top.off"))
        return
    games = await host.storage.rated_games(playable_games(), group)
    rated = set(games)
    if wanted and wanted not in playable_games():
        await message.reply_text(t("rules.unknown", games=", ".join(playable_games())))
        return
    game = wanted or (games[0] if games else "")
    if game not in rated:
        await message.reply_html(
            await empty_top_text(host, t, wanted, group, update.effective_user)
        )
        return
    await message.reply_html(
        await ladder(host, t, game, group, all_time=False),
        reply_markup=top_buttons(t, games, game, all_time=False),
    )


@button(Kind.TOP)
async def top_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    t = await (
        host.languages.chat_t(chat.id) if is_group(chat) else host.languages.user_t(query.from_user)
    )
    game, all_time = data.payload.removesuffix(ALL_TIME), data.payload.endswith(ALL_TIME)
    if game not in playable_games() or not on_menu(query, Kind.TOP):
        await popup(query, t("error.bad_button"))
        return
    group = chat.id if is_group(chat) else None
    if group is not None and not await host.storage.leaderboard_on(group):
        await popup(query, t("top.off"))
        return
    games = await host.storage.rated_games(playable_games(), group)
    text = await ladder(host, t, game, group, all_time)
    await popup(query)
    with contextlib.suppress(MessageGone):
        await host.messenger.edit(
            chat.id, query.message.message_id, text, top_buttons(t, games, game, all_time)
        )


# -- /history -----------------------------------------------------------------------------
def outcome_text(t: Translator, outcome: str) -> str:
    """How a match that did not finish ended."""
    return t("history.abandoned") if outcome == "abandoned" else t("history.cancelled")


def history_line(t: Translator, past: PastMatch) -> str:
    title = html.escape(get_ui(past.game).title(t))
    if past.outcome == "finished":
        players = ", ".join(
            f"{'🏆 ' if p.rank == 1 else ''}{html.escape(p.name)} {t.number(p.score)}"
            for p in past.players
        )
    else:
        names = ", ".join(html.escape(p.name) for p in past.players)
        players = f"{names} — {outcome_text(t, past.outcome)}"
    return t("history.line", id=past.match_id, game=title, date=day(past.ended_at), players=players)


async def history_command(update: Update, context: BotContext) -> None:
    """/history in a group: its last matches in one message, each with a button that sends
    its final screen and move log to the presser's private chat; in the private chat, the
    user's own practice matches, whose buttons send them right there."""
    host = context.host
    message = update.effective_message
    chat = update.effective_chat
    await _remember(host, update.effective_user)
    t = await _reader(host, update)
    if not (is_group(chat) or is_private(chat)):
        await message.reply_text(t("lobby.groups_only"))
        return
    practice = is_private(chat)  # a practice match's chat is its player's private chat
    past = await host.storage.history(chat.id)
    # in private, also the user's matches in inline messages (chats without the bot)
    elsewhere = await host.storage.inline_history(chat.id) if practice else []
    if not past and not elsewhere:
        await message.reply_text(t("history.empty_practice") if practice else t("history.empty"))
        return
    title, hint = (
        (t("history.title_practice"), t("history.hint_practice"))
        if practice
        else (t("history.title"), t("history.hint"))
    )
    lines = [title, *(history_line(t, p) for p in past)] if past else []
    if elsewhere:
        lines += [""] if lines else []
        lines += [t("history.title_inline"), *(history_line(t, p) for p in elsewhere)]
    lines += ["", hint]
    past = past + elsewhere
    buttons = [
        InlineKeyboardButton(
            t("history.button", id=p.match_id, game=get_ui(p.game).title(t)),
            callback_data=Callback(Kind.HISTORY, p.match_id).encode(),
        )
        for p in past
    ]
    rows = [
        buttons[i : i + HISTORY_BUTTONS_PER_ROW]
        for i in range(0, len(buttons), HISTORY_BUTTONS_PER_ROW)
    ]
    await message.reply_html("\n".join(lines), reply_markup=InlineKeyboardMarkup(rows))


HISTORY_LINK = "h"  # /start h<id>: a match of /history, sent to the private chat


@button(Kind.HISTORY)
async def history_button(update: Update, context: BotContext, data: Callback) -> None:
    """A match of /history: its final screen, readable log and replay, sent to the presser's
    private chat — never to the group, whose budget of messages belongs to its running
    matches. Asking again within a few minutes sends nothing new."""
    host = context.host
    query = update.callback_query
    chat = update.effective_chat
    user = query.from_user
    t = await host.languages.user_t(user)
    past = await host.storage.past_match(data.match_id)
    match = await host.storage.load(data.match_id) if past else None
    # a match of this chat; in private, also one of the user's in an inline message
    mine_inline = (
        match is not None
        and is_private(chat)
        and is_inline_chat(match.chat_id)
        and match.seat_of(user.id) is not None
    )
    if (
        past is None
        or match is None
        or (past.chat_id != chat.id and not mine_inline)
        or not on_menu(query, Kind.HISTORY)
    ):
        await popup(query, t("error.bad_button"))
        return
    sent = (user.id, match.id)
    if not host.history_sent.claim(sent, host.clock()):
        await popup(query, t("history.already_sent", id=match.id))
        return
    try:
        await host.messenger.send(
            user.id, history_screen(t, past, match), replay_button(host, t, match)
        )
    except Unreachable:  # never started the bot, or blocked it: the link opens its chat
        host.history_sent.release(sent)
        link = host.messenger.deep_link(f"{HISTORY_LINK}{match.id}")
        await popup(query, t("history.open_private", id=match.id), alert=True, url=link)
        return
    here = chat.id == user.id  # /history of practice matches, in the private chat
    await popup(
        query, t("history.sent_here", id=match.id) if here else t("history.sent", id=match.id)
    )
    await _send_files(host, t, user.id, past, match)


async def history_by_link(update: Update, context: BotContext, match_id: int) -> None:
    """``/start h<id>`` in the private chat: the link of a /history button pressed before
    the bot could write to the user. Sent to members of the match's group only (a link
    can be typed by anyone)."""
    host = context.host
    user = update.effective_user
    t = await host.languages.user_t(user)
    past = await host.storage.past_match(match_id)
    match = await host.storage.load(match_id) if past else None
    if past is None or match is None or not await host.messenger.is_member(past.chat_id, user.id):
        await update.effective_message.reply_text(t("start.bad_link"))
        return
    if not host.history_sent.claim((user.id, match.id), host.clock()):
        await update.effective_message.reply_text(t("history.already_sent", id=match.id))
        return
    await host.messenger.send(
        user.id, history_screen(t, past, match), replay_button(host, t, match)
    )
    await _send_files(host, t, user.id, past, match)


def replay_button(host: Host, t: Translator, match: Match) -> dict | None:
    """The table app's replay of the match, where the app is on and draws the game."""
    link = host.publisher.tables.replay_link(match)
    if link is None:
        return None
    return {"inline_keyboard": [[{"text": t("app.replay"), "web_app": {"url": link}}]]}


def history_screen(t: Translator, past: PastMatch, match: Match) -> str:
    """The match's final screen (or its last board and how it ended), under a title."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    names = Names.of([seat.name for seat in match.seats])
    public = engine.view(match.state, None)
    title = t("history.screen", id=match.id, game=html.escape(ui.title(t)), date=day(past.ended_at))
    if past.outcome == "finished":
        screen = ui.final(t, public, engine.result(match.state), names)
    else:
        screen = ui.board(t, public, names).text + "\n\n" + outcome_text(t, past.outcome)
    return f"{title}\n\n{screen}"


async def _send_files(
    host: Host, t: Translator, user_id: int, past: PastMatch, match: Match
) -> None:
    """The readable move log and the JSON replay, to the user's private chat."""
    moves = await host.storage.moves(match.id)
    plain_title = f"{get_ui(match.game).title(t)} #{match.id} · {day(past.ended_at)}"
    log = readable_log(t, match, moves, plain_title).encode()
    replay = replay_json(match, moves).encode()
    with contextlib.suppress(Unreachable):  # blocked in between: the screen said enough
        await host.messenger.send_document(
            user_id, log, f"match-{match.id}.txt", t("history.log", id=match.id)
        )
        await host.messenger.send_document(
            user_id,
            replay,
            f"match-{match.id}.json",
            t(f"history.replay.{match.game}", id=match.id),
        )


# -- /forget ------------------------------------------------------------------------------
async def forget_command(update: Update, context: BotContext) -> None:
    """/forget in private: after a confirmation, the user's stats and ratings are deleted."""
    host = context.host
    message = update.effective_message
    t = await _reader(host, update)
    if not is_private(update.effective_chat):
        await message.reply_text(t("forget.private_only"))
        return
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t("forget.yes"), callback_data=Callback(Kind.FORGET, 0, 0, "yes").encode()
                ),
                InlineKeyboardButton(
                    t("forget.no"), callback_data=Callback(Kind.FORGET, 0, 0, "no").encode()
                ),
            ]
        ]
    )
    await message.reply_text(t("forget.ask"), reply_markup=markup)


@button(Kind.FORGET)
async def forget_button(update: Update, context: BotContext, data: Callback) -> None:
    host = context.host
    query = update.callback_query
    user = query.from_user
    t = await host.languages.user_t(user)
    chat = update.effective_chat
    if data.payload not in ("yes", "no") or not on_menu(query, Kind.FORGET) or chat.id != user.id:
        await popup(query, t("error.bad_button"))
        return
    if data.payload == "yes":
        await host.storage.forget(user.id)
    text = t("forget.done") if data.payload == "yes" else t("forget.kept")
    await popup(query, text)
    with contextlib.suppress(MessageGone):
        await host.messenger.edit(chat.id, query.message.message_id, html.escape(text))
