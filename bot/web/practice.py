"""A practice match started from the app's home: the asker against bots of the level they
chose, in their private chat with the bot (where /new would have opened it), started at once
— the app then opens its table, and the chat shows its board and prompt as for any practice
match. One match at a time in that chat: a running one is named instead. The chat must be
open (the user pressed Start once): the board and the prompts go there."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.storage import Match, Seat
from bot.table import flow
from bot.table.ai_moves import LOBBY_LEVELS, ai_name, next_ai_user_id
from bot.table.host import Host
from bot.web import tables
from bot.web.auth import WebUser
from games import get_engine

LEVELS = LOBBY_LEVELS
# "Play with a friend": the games two can play (an invitation, as inline mode sends it)
FRIEND_GAMES = tuple(game for game in tables.TABLE_GAMES if get_engine(game).min_players == 2)
PRACTICE_TEXTS = ("title", "start", "level", "game")
FRIEND_TEXTS = ("title", "note", "needs_telegram")


def choices(t: Translator) -> dict[str, Any]:
    """The games the app draws and the bots' levels, by name."""
    return {
        "games": [{"game": game, "title": get_ui(game).title(t)} for game in tables.TABLE_GAMES],
        "levels": [{"level": level, "name": ai_name(t, level)} for level in LEVELS],
        "friend": [{"game": game, "title": get_ui(game).title(t)} for game in FRIEND_GAMES],
    }


def texts(t: Translator) -> dict[str, str]:
    return {
        **{f"practice_{key}": t(f"home.practice_{key}") for key in PRACTICE_TEXTS},
        **{f"friend_{key}": t(f"home.friend_{key}") for key in FRIEND_TEXTS},
    }


async def start(
    host: Host,
    user: WebUser,
    t: Translator,
    game: str,
    level: str,
    spend: Callable[[], Awaitable[None]],
) -> Match | str:
    """The started match, or why not (a message key): the bot is draining, or the private
    chat already has a match (its table is named then: that match is returned). ``spend``
    charges a new match to the asker's budget (it raises past it): the running match named
    again costs nothing."""
    if host.draining.on:
        return "drain.paused"
    storage = host.storage
    record = await storage.user(user.id)
    if record is None or not record.can_message:  # its board and prompts need the chat
        return "home.practice_needs_chat"
    running = await running_match(storage, user.id)
    if running is not None:
        return running
    await spend()
    if await storage.chat_lang(user.id) is None:
        await storage.set_chat_lang(user.id, t.lang)
    engine = get_engine(game)
    match = await storage.create_lobby(
        user.id,
        0,
        game,
        engine.options(None).model_dump(),
        user.id,
        t("practice.title"),
        host.settings.default_turn_seconds,
    )
    if match is None:  # a lobby opened in the chat a moment earlier
        return await running_match(storage, user.id) or "lobby.already_running"
    async with host.lock(match.id):
        match.seats.append(Seat(seat=0, user_id=user.id, name=user.first_name or "—"))
        while len(match.seats) < max(2, engine.min_players):
            seat = Seat(len(match.seats), next_ai_user_id(match), ai_name(t, level), ai=level)
            match.seats.append(seat)
        await flow.start_match(storage, match, host.clock())
        await host.timers.settle(match)
    host.publisher.request(match)  # the board and the prompt in the private chat
    return match


async def running_match(storage, user_id: int) -> Match | str | None:
    """The match in the asker's private chat: a running one (its table opens), or the
    message key for a lobby there; None where the chat has none."""
    running = await storage.active_match_id(user_id, 0)
    if running is None:
        return None
    found = await storage.load(running)
    return found if found is not None and found.status == "playing" else "lobby.already_running"
