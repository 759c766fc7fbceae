"""Button presses during a match: moves (``a``), selection steps (``d``), "I'm back" (``bk``)
and "Start the clock" (``ck``).

Order of work for a press: check it (match, chat, seat, token, legality) → commit → answer
the press → everything slower (autopilot moves that follow, drawing, other chats). A press
that fails a check gets a short popup and changes nothing.
"""

from __future__ import annotations

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from bot import flow
from bot.callbacks import Callback
from bot.handlers.common import button_handler, popup
from bot.host import Host, get_host
from bot.i18n import Translator
from bot.storage import Match, Seat
from bot.ui import get_ui
from bot.ui.base import BadDraft
from games import get_engine
from games.core import IllegalAction, decode_action


async def _checked_seat(
    host: Host, query: CallbackQuery, data: Callback, t: Translator
) -> tuple[Match, Seat] | None:
    """The match and the presser's seat, if this press may act; otherwise explain why."""
    match = await host.storage.load(data.match_id)
    if match is None or match.status == "lobby":
        await popup(query, t("play.no_match"))
        return None
    if match.status != "playing":
        await popup(query, t("play.match_over"))
        return None
    seat = match.seat_of(query.from_user.id)
    if seat is None:
        await popup(query, t("play.not_your_match"))
        return None
    if seat.token != data.token:
        await popup(query, t("play.stale"))
        return None
    if query.message.chat.id not in (match.chat_id, query.from_user.id):
        await popup(query, t("error.bad_button"))  # moves belong to the group or the prompt
        return None
    return match, seat


@button_handler
async def press_action(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.user_t(query.from_user)
    async with host.lock(data.match_id):
        checked = await _checked_seat(host, query, data, t)
        if checked is None:
            return
        match, seat = checked
        try:
            action = decode_action(data.payload)
        except IllegalAction:
            await popup(query, t("error.bad_button"))
            return
        await _play(host, query, match, seat, action, t)


@button_handler
async def press_draft(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    host = get_host(context.application)
    query = update.callback_query
    t = await host.user_t(query.from_user)
    async with host.lock(data.match_id):
        checked = await _checked_seat(host, query, data, t)
        if checked is None:
            return
        match, seat = checked
        if data.step != seat.draft_step:  # drawn for an older version of this prompt
            await popup(query, t("play.stale"))
            return
        engine = get_engine(match.game)
        view = engine.view(match.state, seat.seat)
        legal = engine.legal_actions(match.state, seat.seat)
        try:
            step = get_ui(match.game).draft(view, seat.seat, legal, seat.draft, data.payload)
        except BadDraft:
            await popup(query, t("play.stale"))
            return
        if step.action is not None:
            await _play(host, query, match, seat, step.action, t)
            return
        seat.draft = step.draft
        seat.draft_step += 1
        await host.storage.save(match)
        await popup(query)
    host.publisher.request(match, [("user", seat.user_id)])


async def _play(host: Host, query: CallbackQuery, match: Match, seat: Seat, action, t) -> None:
    engine = get_engine(match.game)
    if not engine.is_legal(match.state, seat.seat, tuple(action)):
        key = (
            "play.not_your_turn" if seat.seat not in engine.to_act(match.state) else "play.illegal"
        )
        await popup(query, t(key))
        return
    view_before = engine.view(match.state, seat.seat)
    await flow.commit_move(host.storage, match, seat.seat, tuple(action), host.clock())
    # committed: answer now, before the moves of seats on autopilot and any drawing
    await popup(query, get_ui(match.game).move_label(t, view_before, tuple(action), seat.seat))
    await host.timers.settle(match)
    host.publisher.request(match)


@button_handler
async def press_back(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    """ "I'm back": a player on autopilot takes their seat again."""
    host = get_host(context.application)
    query = update.callback_query
    t = await host.user_t(query.from_user)
    async with host.lock(data.match_id):
        match = await host.storage.load(data.match_id)
        seat = match.seat_of(query.from_user.id) if match else None
        if match is None or match.status != "playing" or seat is None:
            await popup(query, t("play.match_over"))
            return
        if query.message.chat.id != query.from_user.id:  # it lives in the private chat only
            await popup(query, t("error.bad_button"))
            return
        if not seat.autopilot:
            await popup(query, t("timer.not_on_autopilot"))
            return
        await host.timers.come_back(match, seat)
        await popup(query, t("timer.welcome_back"))
    host.publisher.request(match)


@button_handler
async def press_clock(update: Update, context: ContextTypes.DEFAULT_TYPE, data: Callback) -> None:
    """ "Start the clock" on the group board: another player of the match gives the absent
    player a short deadline."""
    host = get_host(context.application)
    query = update.callback_query
    t = await host.user_t(query.from_user)
    async with host.lock(data.match_id):
        match = await host.storage.load(data.match_id)
        if match is None or match.status != "playing":
            await popup(query, t("play.match_over"))
            return
        number = int(data.payload) if data.payload.isdigit() else -1
        if query.message.chat.id != match.chat_id or not 0 <= number < len(match.seats):
            await popup(query, t("error.bad_button"))
            return
        absent = match.seats[number]
        presser = match.seat_of(query.from_user.id)
        if presser is None:
            await popup(query, t("play.not_your_match"))
            return
        if presser is absent:
            await popup(query, t("clock.not_yourself"))
            return
        if absent.token != data.token or not host.timers.may_start_clock(match, absent):
            await popup(query, t("play.stale"))
            return
        await host.timers.start_clock(match, absent, by=presser)
        await popup(query, t("clock.started_popup"))
    host.publisher.request(match)
    await host.timers.tell_clock_started(match, absent)
