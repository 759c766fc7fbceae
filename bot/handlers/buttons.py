"""Button presses: every kind of button (:class:`bot.telegram_api.callbacks.Kind`) is bound
to its one handler here, and ``bot.app`` registers them all from :data:`BUTTONS`.

``@button(kind)`` parses the press's callback data. ``@match_button(kind, ...)`` does that
for a button that belongs to a match, then loads the match, takes its lock and runs the
press's checks in the order given; the first that fails answers the press with its popup
and nothing changes. The handler runs under the lock with a :class:`MatchPress`.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Literal

from telegram import CallbackQuery, Update, User

from bot.handlers.common import managers_only, may_manage, on_menu, popup
from bot.presentation.i18n import Translator
from bot.presentation.ui import playable_games
from bot.storage import Match, Seat
from bot.table.host import BotContext, Host
from bot.telegram_api.callbacks import BadCallback, Callback, Kind, parse
from bot.telegram_api.messenger import MessageGone

PtbHandler = Callable[[Update, BotContext], Awaitable[None]]

# Every kind of button and its handler, filled by the decorators below.
BUTTONS: dict[Kind, PtbHandler] = {}


def _bind(kind: Kind, handler: PtbHandler) -> None:
    if kind in BUTTONS:
        raise ValueError(f"two handlers for {kind.name} buttons")
    BUTTONS[kind] = handler


def button(kind: Kind, inline: bool = False):
    """Bind ``handler(update, context, data)`` to ``kind`` buttons. Malformed data, or a
    press without a chat (an inline message) where ``inline`` does not allow it, gets a
    popup."""

    def bind(handler: Callable[[Update, BotContext, Callback], Awaitable[None]]) -> PtbHandler:
        @wraps(handler)
        async def parsed(update: Update, context: BotContext) -> None:
            query = update.callback_query
            try:
                data = parse(query.data)
                if update.effective_chat is None and not (inline and query.inline_message_id):
                    raise BadCallback(query.data)
            except BadCallback:
                t = await context.host.languages.user_t(query.from_user)
                await popup(query, t("error.bad_button"))
                return
            await handler(update, context, data)

        _bind(kind, parsed)
        return parsed

    return bind


@dataclass
class MatchPress:
    """A press on a match's button, under the match's lock."""

    host: Host
    query: CallbackQuery
    data: Callback
    match: Match
    t: Translator  # in the presser's language, or the group's (``match_button(language=)``)
    seat: Seat | None  # the presser's seat, if they play in the match
    _after_unlock: list[Awaitable[None]] = field(default_factory=list)

    @property
    def user(self) -> User:
        return self.query.from_user

    @property
    def chat_id(self) -> int | None:
        """The chat pressed in (None: an inline message, whose chat the bot is not told)."""
        message = self.query.message
        return message.chat.id if message is not None else None

    async def answer(self, text: str | None = None, alert: bool = False) -> None:
        """Answer the press: a popup with ``text``, or silently."""
        await popup(self.query, text, alert=alert)

    async def tell(self, key: str, alert: bool = False, **values: object) -> None:
        """Answer the press with the message ``key`` in the press's language."""
        await self.answer(self.t(key, **values), alert=alert)

    def after_unlock(self, work: Awaitable[None]) -> None:
        """Slow work (a private message) that must not hold up other presses of the match:
        awaited once the lock is released."""
        self._after_unlock.append(work)


# A check returns the popup key that refuses the press, or None to let it through.
Check = Callable[[MatchPress], Awaitable[str | None]]


def in_status(status: str, refused: str) -> Check:
    """The match is (still) in ``status``."""

    async def check(press: MatchPress) -> str | None:
        return None if press.match.status == status else refused

    return check


def started(refused: str) -> Check:
    """The match is a game, no longer a lobby."""

    async def check(press: MatchPress) -> str | None:
        return refused if press.match.status == "lobby" else None

    return check


def seated(refused: str) -> Check:
    """The presser plays in the match."""

    async def check(press: MatchPress) -> str | None:
        return None if press.seat is not None else refused

    return check


async def current_token(press: MatchPress) -> str | None:
    """The button was drawn for the presser's current decision."""
    return None if press.seat is not None and press.seat.token == press.data.token else "play.stale"


Place = Literal["group", "private"]


def pressed_in(*places: Place) -> Check:
    """The button was pressed where it belongs: the match's group (for a match played in an
    inline message, that message), the presser's private chat, or either."""

    async def check(press: MatchPress) -> str | None:
        match, inline_id = press.match, press.query.inline_message_id
        here: set[str] = set()
        if inline_id is not None:  # a press on an inline message: the match's own only
            if inline_id == match.inline_message_id:
                here.add("group")
        else:  # (a practice match's group is the presser's private chat)
            if press.chat_id == match.chat_id and not match.inline:
                here.add("group")
            if press.chat_id == press.user.id:
                here.add("private")
        return None if here.intersection(places) else "error.bad_button"

    return check


async def manager(press: MatchPress) -> str | None:
    """The presser may manage the match: its creator, an admin of its group, or a player
    of the finished match a rematch's lobby follows."""
    if await may_manage(press.host, press.match, press.user.id):
        return None
    return managers_only(press.match)


KEEP = "keep"  # the payload of "No" under /cancel's question ("Yes" has none)


async def yes_or_keep(press: MatchPress) -> str | None:
    """A button of /cancel's question: "Yes" (no payload) or "No" (``KEEP``)."""
    return None if press.data.payload in ("", KEEP) else "error.bad_button"


async def keep_going(press: MatchPress, key: str) -> None:
    """ "No" under /cancel's question: nothing changes, and the question becomes the line
    ``key`` without buttons."""
    await press.tell(key)
    message = press.query.message
    with contextlib.suppress(MessageGone):  # pressed twice: the first press tidied it
        await press.host.messenger.edit(
            message.chat.id, message.message_id, html.escape(press.t(key))
        )


async def names_a_seat(press: MatchPress) -> str | None:
    """The payload is a seat of the match."""
    payload = press.data.payload
    number = int(payload) if payload.isdigit() else -1
    return None if 0 <= number < len(press.match.seats) else "error.bad_button"


async def playable(press: MatchPress) -> str | None:
    """The match's game is still offered."""
    return None if press.match.game in playable_games() else "error.bad_button"


def match_button(
    kind: Kind,
    *,
    language: Literal["presser", "group"],
    missing: str,
    checks: Sequence[Check],
    menu_only: bool = False,
):
    """Bind ``handler(press)`` to ``kind`` buttons of a match. ``language``: the popups'
    language (the presser's, or the chat's where the press is about the group);
    ``missing``: the popup when the match does not exist; ``checks``: run in order under
    the match's lock; ``menu_only``: the press must come from a menu of ``kind`` buttons
    (a confirmation), checked first."""

    def bind(handler: Callable[[MatchPress], Awaitable[None]]) -> PtbHandler:
        @button(kind, inline=True)
        @wraps(handler)
        async def checked(update: Update, context: BotContext, data: Callback) -> None:
            host = context.host
            query = update.callback_query
            if language == "presser" or update.effective_chat is None:
                t = await host.languages.user_t(query.from_user)
            else:
                t = await host.languages.chat_t(update.effective_chat.id)
            if menu_only and not on_menu(query, kind):
                await popup(query, t("error.bad_button"))
                return
            async with host.lock(data.match_id):
                match = await host.storage.load(data.match_id)
                if match is None:
                    await popup(query, t(missing))
                    return
                seat = match.seat_of(query.from_user.id)
                press = MatchPress(host, query, data, match, t, seat)
                for check in checks:
                    refused = await check(press)
                    if refused is not None:  # (a popup may name the bot: "@{bot}")
                        await press.tell(refused, bot=host.messenger.bot.username)
                        return
                await handler(press)
            for work in press._after_unlock:
                await work

        return checked

    return bind
