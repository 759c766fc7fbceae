"""Draw committed matches in Telegram: announcements, the group board, pings, private prompts.

Publishing reads the committed match from the database and is safe to repeat. Each chat
(a group, or a player's private chat) has at most one flusher at a time; requests that
arrive while it is busy — for example while it waits for the rate limiter — only mark the
chat dirty, and the next pass draws the *latest* state. So under fast play board edits
coalesce, a group never gets more calls than Telegram allows, and the board is never more
than one call behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
from collections.abc import Iterable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Callback
from bot.chat_lifecycle import bot_removed, move_chat
from bot.host import Host
from bot.i18n import Translator
from bot.lobby_view import lobby_screen
from bot.messenger import ChatMoved, MessageGone, Unreachable
from bot.storage import Match, Notice
from bot.timers import format_duration
from bot.ui import get_ui
from bot.ui.base import Button, Names
from games import get_engine

log = logging.getLogger(__name__)

ChatKey = tuple[str, int]  # ("group", chat id) or ("user", user id)


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
                # a selection step also carries the step it was drawn at: a step button
                # from an older version of the prompt is stale
                step = match.seats[seat].draft_step if seat is not None else 0
                data = Callback("d", match.id, token, button.draft or "", step=step).encode()
            buttons.append(InlineKeyboardButton(button.label, callback_data=data))
        if buttons:
            markup.append(buttons)
    return markup


def fingerprint(text: str, markup: list[list]) -> str:
    raw = text + json.dumps([[b.to_dict() for b in row] for row in markup], sort_keys=True)
    digest = hashlib.blake2s(raw.encode(), digest_size=10).hexdigest()
    return ("k:" if markup else "t:") + digest  # "k:" = the message has buttons


class Publisher:
    def __init__(self, host: Host) -> None:
        self.host = host
        self._dirty: dict[ChatKey, set[int]] = {}
        self._tasks: dict[ChatKey, asyncio.Task] = {}
        self._resend: set[tuple[int, int]] = set()  # (match, user): prompt as a new message

    # -- scheduling ------------------------------------------------------------------------
    def request(self, match: Match, chats: Iterable[ChatKey] | None = None) -> None:
        """Bring the group and every player's private chat up to the committed state, in
        the background. Returns at once."""
        keys = (
            list(chats)
            if chats is not None
            else [("group", match.chat_id)] + [("user", seat.user_id) for seat in match.seats]
        )
        for key in keys:
            self._dirty.setdefault(key, set()).add(match.id)
            if key not in self._tasks:
                self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    def resend_prompt(self, match: Match, user_id: int) -> None:
        """Send a player's prompt again as a new message (they asked for it)."""
        self._resend.add((match.id, user_id))
        self.request(match, [("user", user_id)])

    async def idle(self) -> None:
        """Wait until every chat is drawn (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, key: ChatKey) -> None:
        try:
            while self._dirty.get(key):
                match_ids = self._dirty.pop(key)
                for match_id in sorted(match_ids):
                    try:
                        if key[0] == "group":
                            await self._draw_group(match_id)
                        else:
                            await self._draw_private(match_id, key[1])
                    except ChatMoved as moved:  # the group became a supergroup
                        await move_chat(self.host, moved.chat_id, moved.new_chat_id)
                    except Unreachable as error:  # 403 from a group: the bot is not in it
                        log.info("match %s: the bot left chat %s", match_id, error.chat_id)
                        await bot_removed(self.host, error.chat_id)
                    except Exception:
                        log.exception("could not draw match %s in %s", match_id, key)
        finally:
            del self._tasks[key]

    # -- the group -------------------------------------------------------------------------
    async def _draw_group(self, match_id: int) -> None:
        host = self.host
        match = await host.storage.load(match_id)
        if match is None:
            return
        if match.status == "lobby":
            await self._draw_lobby(match)
            return
        if match.state is None or match.status not in ("playing", "finished"):
            return
        if match.published == 0 and match.lobby_message_id is not None:
            await self._close_lobby(match)
        engine = get_engine(match.game)
        ui = get_ui(match.game)
        names = names_of(match)
        t = await host.chat_t(match.chat_id)
        public = engine.view(match.state, None)
        over = engine.is_over(match.state)

        messages: list[tuple[str | None, InlineKeyboardMarkup | None, int | None]] = []
        for notice in await host.storage.unsent_notices(match.id):
            text, markup = self._notice(t, match, notice)
            messages.append((text, markup, notice.id))
        events = public["log"][match.announced :]
        for text in ui.announce(t, events, public, names) if events else []:
            messages.append((text, None, None))
        if messages and match.board_message_id is not None:
            # Keep one board, always below the news: the old board message becomes the
            # first piece of news (one edit, not a delete) and a new board follows.
            text, markup, _ = messages[0]
            try:
                await host.messenger.edit(match.chat_id, match.board_message_id, text, markup)
                messages[0] = (None, None, messages[0][2])
            except MessageGone:
                pass
            match.board_message_id = None
        for text, markup, notice_id in messages:
            if text is not None:
                await self._send(match, text, markup)
            if notice_id is not None:
                await host.storage.mark_notice_sent(notice_id)
        match.announced = len(public["log"])

        board = ui.board(t, public, names)
        rows = keyboard(match, board.rows, None)
        rows += self._clock_buttons(match, t)
        if not over:
            label = ui.private_button_label(t)
            rows.append([InlineKeyboardButton(label, url=host.deep_link(f"m{match.id}"))])
        print_ = fingerprint(board.text, rows)
        if print_ != match.board_print or match.board_message_id is None:
            match.board_message_id = await host.messenger.edit_or_send(
                match.chat_id,
                match.board_message_id,
                board.text,
                InlineKeyboardMarkup(rows) if rows else None,
                thread_id=match.thread_id,
            )
            match.board_print = print_

        if over and match.published < match.version:
            await self._clear_ping(match)
            result = engine.result(match.state)
            rematch = Callback("rm", match.id, 0, match.game).encode()
            button = InlineKeyboardButton(t("play.rematch"), callback_data=rematch)
            await self._send(
                match, ui.final(t, public, result, names), InlineKeyboardMarkup([[button]])
            )
        elif not over:
            await self._ping(match, t)
        match.published = match.version
        await host.storage.save_display(match)

    def _clock_buttons(self, match: Match, t: Translator) -> list[list[InlineKeyboardButton]]:
        """ "Start the clock" for each player the others have waited for too long."""
        rows = []
        for seat in match.seats:
            if self.host.timers.may_start_clock(match, seat):
                data = Callback("ck", match.id, seat.token, str(seat.seat)).encode()
                label = t("clock.button", name=seat.name)
                rows.append([InlineKeyboardButton(label, callback_data=data)])
        return rows

    async def _draw_lobby(self, match: Match) -> None:
        t = await self.host.chat_t(match.chat_id)
        text, markup = lobby_screen(self.host, match, t)
        match.lobby_message_id = await self.host.messenger.edit_or_send(
            match.chat_id, match.lobby_message_id, text, markup, thread_id=match.thread_id
        )
        await self.host.storage.save_display(match)

    async def _close_lobby(self, match: Match) -> None:
        """A started lobby becomes one line without buttons: a clean chat."""
        t = await self.host.chat_t(match.chat_id)
        players = ", ".join(html.escape(seat.name) for seat in match.seats)
        with contextlib.suppress(MessageGone):
            await self.host.messenger.edit(
                match.chat_id, match.lobby_message_id, t("lobby.started_text", players=players)
            )

    def _notice(self, t, match: Match, notice: Notice) -> tuple[str, InlineKeyboardMarkup | None]:
        params = dict(notice.params)
        if "user_id" in params:
            params["name"] = mention(params.pop("user_id"), params["name"])
        for name, key in (("seconds", "left"), ("waited", "waited")):
            if name in params:  # a duration, in the group's language
                params[key] = format_duration(t, params.pop(name))
        markup = None
        if notice.key == "play.unreachable":
            params["bot"] = self.host.bot.username
            link = self.host.deep_link(f"m{match.id}")
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(t("play.open_private"), url=link)]]
            )
        return t(notice.key, **params), markup

    async def _ping(self, match: Match, t) -> None:
        """In turn-based play, a short message that notifies the player whose turn has just
        come (board edits do not notify). Not in simultaneous phases: there everyone got a
        new private prompt, which notifies by itself. The previous ping is removed: one
        ping in the chat at most."""
        acting = sorted(get_engine(match.game).to_act(match.state))
        if len(acting) != 1:
            return
        seat = match.seats[acting[0]]
        if seat.token != match.version or seat.pinged_token == seat.token or seat.autopilot:
            return
        last_pinged = max(match.seats, key=lambda other: other.pinged_token)
        if last_pinged is not seat or match.ping_message_id is None:
            # a new player's turn: one ping; the same player again (several decisions in a
            # row) keeps the ping already there — their private prompt notifies them
            await self._clear_ping(match)
            text = t("play.your_turn", name=mention(seat.user_id, seat.name))
            match.ping_message_id = await self._send(match, text)
        await self.host.storage.save_seat_ping(match.id, seat.seat, seat.token)

    async def _clear_ping(self, match: Match) -> None:
        if match.ping_message_id is not None:
            await self.host.messenger.delete(match.chat_id, match.ping_message_id)
            match.ping_message_id = None

    async def _send(
        self, match: Match, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int:
        message = await self.host.messenger.send(
            match.chat_id, text, markup, thread_id=match.thread_id
        )
        return message.message_id

    # -- private chats -------------------------------------------------------------------
    async def _draw_private(self, match_id: int, user_id: int) -> None:
        host = self.host
        match = await host.storage.load(match_id)
        seat = match.seat_of(user_id) if match else None
        if seat is None or match.state is None or match.status not in ("playing", "finished"):
            return
        engine = get_engine(match.game)
        t = await host.user_t_by_id(user_id)
        view = engine.view(match.state, seat.seat)
        legal = engine.legal_actions(match.state, seat.seat)
        screen = get_ui(match.game).prompt(t, view, seat.seat, legal, seat.draft, names_of(match))
        text = t("play.prompt_header", title=html.escape(match.title or "—")) + "\n" + screen.text
        rows = keyboard(match, screen.rows, seat.seat)
        if seat.autopilot and match.status == "playing":
            text += "\n\n" + t("timer.autopilot_private")
            back = Callback("bk", match.id, 0, "").encode()
            rows.append([InlineKeyboardButton(t("timer.back_button"), callback_data=back)])
        markup = InlineKeyboardMarkup(rows) if rows else None
        print_ = fingerprint(text, rows)
        resend = (match_id, user_id) in self._resend
        self._resend.discard((match_id, user_id))
        # A new decision gets a new message, which notifies the player — unless they made
        # the move that led to it themselves (several choices in a row: bonus tiles, a bid
        # after returning a gem): they are looking at the prompt, so it is edited in place.
        fresh = (
            bool(legal)
            and seat.prompt_token != seat.token
            and not (match.last_mover == seat.seat and seat.prompt_message_id is not None)
        )
        unchanged = print_ == seat.prompt_text and seat.prompt_message_id is not None
        if unchanged and not (fresh or resend):
            return
        try:
            if fresh or resend or seat.prompt_message_id is None:
                if seat.prompt_message_id is not None and (seat.prompt_text or "").startswith("k:"):
                    await host.messenger.drop_keyboard(user_id, seat.prompt_message_id)
                message = await host.messenger.send(user_id, text, markup)
                seat.prompt_message_id = message.message_id
            else:
                try:
                    await host.messenger.edit(user_id, seat.prompt_message_id, text, markup)
                except MessageGone:
                    message = await host.messenger.send(user_id, text, markup)
                    seat.prompt_message_id = message.message_id
            seat.prompt_text = print_
        except Unreachable:
            await host.storage.set_can_message(user_id, False)
            if fresh:  # tell the group once per decision, not at every redraw
                await host.storage.add_notice(
                    match.id, "play.unreachable", {"user_id": user_id, "name": seat.name}
                )
                self.request(match, [("group", match.chat_id)])
        seat.prompt_token = seat.token
        await host.storage.save_seat_display(match.id, seat)
