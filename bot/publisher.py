"""Draw a committed match in Telegram: announcements, the group board, private prompts.

Publishing only reads the committed state and is safe to repeat: after a crash between a
commit and its messages, start-up publishes again every match whose ``published`` version
is behind, and players see exactly what they would have seen.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Callback
from bot.host import Host
from bot.messenger import MessageGone, Unreachable
from bot.storage import Match, Seat
from bot.ui import get_ui
from bot.ui.base import Button, Names
from games import get_engine

log = logging.getLogger(__name__)


def names_of(match: Match) -> Names:
    return Names.of([seat.name for seat in match.seats])


def mention(user_id: int, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'


def keyboard(match: Match, rows: list[list[Button]], default_seat: int | None) -> list[list]:
    """Telegram buttons for a screen; moves and selection steps carry the seat's token."""
    markup = []
    for row in rows:
        buttons = []
        for button in row:
            if button.url:
                buttons.append(InlineKeyboardButton(button.label, url=button.url))
                continue
            seat = button.seat if button.seat is not None else default_seat
            token = match.seats[seat].token if seat is not None else match.version
            if button.action is not None:
                payload = ".".join(str(part) for part in button.action)
                data = Callback("a", match.id, token, payload).encode()
            else:
                data = Callback("d", match.id, token, button.draft or "").encode()
            buttons.append(InlineKeyboardButton(button.label, callback_data=data))
        if buttons:
            markup.append(buttons)
    return markup


def fingerprint(text: str, markup: list[list]) -> str:
    raw = text + json.dumps([[b.to_dict() for b in row] for row in markup], sort_keys=True)
    digest = hashlib.blake2s(raw.encode(), digest_size=10).hexdigest()
    return ("k:" if markup else "t:") + digest  # "k:" = the message has buttons


async def publish(host: Host, match: Match, fresh: set[int] | frozenset = frozenset()) -> None:
    """Bring the group and the players' private chats up to the match's committed version."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    names = names_of(match)
    t = await host.chat_t(match.chat_id)
    public = engine.view(match.state, None)
    over = engine.is_over(match.state)

    events = public["log"][match.announced :]
    messages = ui.announce(t, events, public, names) if events else []
    for text in messages:
        await send_to_group(host, match, text)
    match.announced = len(public["log"])

    board = ui.board(t, public, names)
    rows = keyboard(match, board.rows, None)
    if not over:
        rows.append([InlineKeyboardButton(t("play.my_cards"), url=host.deep_link(f"m{match.id}"))])
    if messages and match.board_message_id is not None:
        # keep the board below the latest announcements: one board, always in view
        await host.messenger.delete(match.chat_id, match.board_message_id)
        match.board_message_id = None
    try:
        match.board_message_id = await host.messenger.edit_or_send(
            match.chat_id,
            match.board_message_id,
            board.text,
            InlineKeyboardMarkup(rows) if rows else None,
            thread_id=match.thread_id,
        )
    except Unreachable as error:
        log.warning("match %s: cannot write to the group (%s)", match.id, error.reason)

    if over:
        result = engine.result(match.state)
        rematch = Callback("rm", match.id, 0, match.game).encode()
        await send_to_group(
            host,
            match,
            ui.final(t, public, result, names),
            InlineKeyboardMarkup(
                [[InlineKeyboardButton(t("play.rematch"), callback_data=rematch)]]
            ),
        )

    for seat in match.seats:
        await update_prompt(host, match, seat, fresh=seat.seat in fresh)
    match.published = match.version
    await host.storage.save(match)


async def send_to_group(
    host: Host, match: Match, text: str, markup: InlineKeyboardMarkup | None = None
) -> int | None:
    try:
        message = await host.messenger.send(match.chat_id, text, markup, thread_id=match.thread_id)
    except Unreachable as error:
        log.warning("match %s: cannot write to the group (%s)", match.id, error.reason)
        return None
    return message.message_id


async def update_prompt(host: Host, match: Match, seat: Seat, fresh: bool = False) -> None:
    """Send or edit one seat's private message. A new decision gets a new message (it
    notifies); anything else is an edit, skipped when nothing changed."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    t = await host.user_t_by_id(seat.user_id)
    view = engine.view(match.state, seat.seat)
    legal = engine.legal_actions(match.state, seat.seat)
    screen = ui.prompt(t, view, seat.seat, legal, seat.draft, names_of(match))
    text = t("play.prompt_header", title=html.escape(match.title or "—")) + "\n" + screen.text
    rows = keyboard(match, screen.rows, seat.seat)
    markup = InlineKeyboardMarkup(rows) if rows else None
    print_ = fingerprint(text, rows)
    if not fresh and seat.prompt_message_id is not None and print_ == seat.prompt_text:
        return
    try:
        if fresh or seat.prompt_message_id is None:
            if seat.prompt_message_id is not None and (seat.prompt_text or "").startswith("k:"):
                await host.messenger.drop_keyboard(seat.user_id, seat.prompt_message_id)
            message = await host.messenger.send(seat.user_id, text, markup)
            seat.prompt_message_id = message.message_id
        else:
            try:
                await host.messenger.edit(seat.user_id, seat.prompt_message_id, text, markup)
            except MessageGone:
                message = await host.messenger.send(seat.user_id, text, markup)
                seat.prompt_message_id = message.message_id
        seat.prompt_text = print_
    except Unreachable:
        await host.storage.set_can_message(seat.user_id, False)
        if fresh or seat.prompt_message_id is None:
            await tell_group_unreachable(host, match, seat)


async def tell_group_unreachable(host: Host, match: Match, seat: Seat) -> None:
    t = await host.chat_t(match.chat_id)
    link = host.deep_link(f"m{match.id}")
    await send_to_group(
        host,
        match,
        t("play.unreachable", name=mention(seat.user_id, seat.name), bot=host.bot.username),
        InlineKeyboardMarkup([[InlineKeyboardButton(t("play.open_private"), url=link)]]),
    )
