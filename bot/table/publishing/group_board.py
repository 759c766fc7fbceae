"""A match as its group sees it: the lobby, the news (notices, then the game's announcements)
in one message, the board (edited in place; posted again below the news, silently, only
once the news under it would push it out of sight; never rewritten into news), and the
final result. The group is never pinged about whose turn it is: the board says so, and each
player to act is notified by their private prompt (``prompts``).

A tile game's board is a photo with a short caption where the group wants pictures
(``board_pictures`` draws it); a picture that fails to draw or send gives way to the text
screen, and a message of the other kind (photo or text) is replaced. Where nothing can
follow the board (an inline message: ``Place.news_below`` is False), the news lives inside
it."""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram.error import BadRequest

from bot.presentation.i18n import Translator, format_duration
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import GameUI, Names
from bot.storage import Match, Notice
from bot.table.deadlines import may_start_clock
from bot.table.place import Place, place_of
from bot.table.publishing.drawing import ChatWatcher, Drawing, Services, record_shown
from bot.table.publishing.lobby_view import lobby_screen
from bot.table.publishing.messages import (
    MAX_NEWS,
    SCREEN_ROWS,
    UNKNOWN_PICTURE,
    News,
    Rows,
    bundle,
    clock_words,
    fingerprint,
    fit_caption,
    joins,
    keyboard,
    link_button,
    markup_of,
    mention,
    names_of,
    picture_digest,
    picture_of,
    press_button,
    rows_of,
    screen_rows,
    short_names_of,
)
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import (
    ChatMoved,
    Markup,
    MessageGone,
    MessageKindDiffers,
    Unreachable,
)
from games import get_engine

log = logging.getLogger(__name__)
# A hidden choice's ✔ waits this long for the others' before the group's board shows it
# (while every player's table is open: ``GroupBoard._may_wait``)
MARK_WAIT_SECONDS = 5.0


@dataclass
class GroupScene:
    """A committed match as its group sees it: read once, used by every step of a drawing."""

    match: Match
    t: Translator
    ui: GameUI
    names: Names
    public: Any  # the engine's public view
    over: bool


class GroupBoard(Drawing):
    """Draws a match's group messages (or its inline message)."""

    def __init__(
        self,
        services: Services,
        watcher: Callable[[], ChatWatcher],
        prompt_task: Callable[[int], asyncio.Task | None],
    ) -> None:
        super().__init__(services)
        self._watcher = watcher
        # the drawing of a player's prompt under way, if any: an inline board shows the
        # picture sent with it
        self._prompt_task = prompt_task
        self.repost: set[int] = set()  # matches whose board goes to the bottom of the group
        self.waited: dict[int, int] = {}  # match → the version whose board waited once

    async def draw(self, match_id: int) -> float | None:
        """Bring the group's messages of a match up to its committed state; or, where the
        board may wait (:meth:`_may_wait`), the seconds after which to draw it again."""
        match = await self.storage.load(match_id)
        if match is None or not place_of(match).board_in_group:  # (a tournament's: its message)
            return
        if match.status == "lobby":
            await self._draw_lobby(match)
            return
        if match.state is None or match.status not in ("playing", "finished"):
            return
        scene = await self._group_scene(match)
        place = place_of(match)
        if not place.news_below:
            await self._draw_in_board(scene, place)
            return
        if match.published == 0 and match.lobby_message_id is not None:
            await self._close_started_lobby(match, scene.t)
        news = bundle(await self._news(scene))
        result = self._result(scene) if scene.over and match.published < match.version else None
        if not news and result is None and self._may_wait(scene):
            return MARK_WAIT_SECONDS  # drawn then, or sooner with the next change
        if result is not None and news and joins(news[-1], result):
            # the final result and, below it, the last news: one message and one
            # notification, whose preview says who won
            last = news.pop()
            result = News(f"{result.text}\n\n{last.text}", result.markup, last.notice_ids)
        match.board_below += await self._post_news(scene, news)
        repost = match.id in self.repost
        self.repost.discard(match.id)
        # the board follows the news down only when it would be out of sight (the bot
        # cannot see the group's other messages: /board brings it down at will), and not
        # at the end, where the final result says it all; a board sent anew is silent —
        # the news above it notified
        board = match.board_message_id
        out_of_sight = match.board_below > SCREEN_ROWS and not scene.over
        await self._show_board(scene, at_bottom=repost or out_of_sight)
        if match.board_message_id != board:
            match.board_below = 0
        if result is not None:
            await self._post(match, result)
        match.published = match.version
        self.waited.pop(match.id, None)
        await record_shown(lambda: self.storage.save_display(match))

    def _may_wait(self, scene: GroupScene) -> bool:
        """A hidden choice (5211's ✔) made while others still choose, every player's table
        open — they see each ✔ there: the group's board waits for the part's cards to be
        shown, or ``MARK_WAIT_SECONDS``, so a part costs one edit, not one a player. Once
        a version has waited, it is drawn."""
        match = scene.match
        if self.waited.get(match.id) == match.version:
            return False
        humans = match.humans
        if not humans or not scene.ui.board_may_wait(scene.public):
            return False
        if not all(self.tables.is_open(match.id, seat.user_id) for seat in humans):
            return False
        self.waited[match.id] = match.version
        return True

    async def _draw_lobby(self, match: Match) -> None:
        t = await self.languages.chat_t(match.chat_id)
        text, markup = lobby_screen(match, t, self.messenger.deep_link(f"j{match.id}"))
        place = place_of(match)
        if place.lobby_becomes_board:
            if await self._edit_in_place(match, place, text, markup):
                await record_shown(lambda: self.storage.save_display(match))
            return
        match.lobby_message_id = await self.messenger.edit_or_send(
            match.chat_id, match.lobby_message_id, text, markup, thread_id=match.thread_id
        )
        await record_shown(lambda: self.storage.save_display(match))

    async def close_lobby(self, match: Match, text: str) -> None:
        """Replace a lobby that closed without a game (cancelled, expired) with a line of
        text and no buttons: a finished lobby leaves a clean chat."""
        place = place_of(match)
        if place.inline_message_id is not None:
            inline, budget = place.inline_message_id, place.chat_id
            with contextlib.suppress(MessageGone, BadRequest):
                try:
                    await self.messenger.edit_inline(inline, text, limit_as=budget)
                except MessageKindDiffers:  # a photo (a rematch after a tile game)
                    await self.messenger.edit_inline_caption(inline, text, limit_as=budget)
            return
        if match.lobby_message_id is None:
            return
        # the lobby message is cosmetic: if it is gone or the group unreachable, so be it
        try:
            with contextlib.suppress(MessageGone, Unreachable, BadRequest):
                await self.messenger.edit(match.chat_id, match.lobby_message_id, text)
        except ChatMoved as moved:  # the group became a supergroup: its other matches follow
            await self._watcher().move_chat(moved.chat_id, moved.new_chat_id)

    async def _close_started_lobby(self, match: Match, t: Translator) -> None:
        """A started lobby becomes one line without buttons: a clean chat."""
        players = ", ".join(html.escape(seat.name) for seat in match.seats)
        with contextlib.suppress(MessageGone):
            await self.messenger.edit(
                match.chat_id, match.lobby_message_id, t("lobby.started_text", players=players)
            )

    async def _group_scene(self, match: Match) -> GroupScene:
        engine = get_engine(match.game)
        return GroupScene(
            match=match,
            t=await self.languages.chat_t(match.chat_id),
            ui=get_ui(match.game),
            names=names_of(match),
            public=engine.view(match.state, None),
            over=engine.is_over(match.state),
        )

    async def _post_news(self, scene: GroupScene, news: list[News]) -> int:
        """Post what happened since the last drawing (``bundle``: one message, which
        notifies). Returns the rows it takes on a phone's screen: the board follows the news
        down only when the news below it would push it out of sight."""
        for item in news:
            await self._post(scene.match, item)
        scene.match.announced = len(scene.public["log"])
        return sum(screen_rows(item.text) for item in news)

    async def _post(self, match: Match, item: News) -> None:
        await self._send(match, item.text, item.markup)
        for notice_id in item.notice_ids:
            await self.storage.mark_notice_sent(notice_id)

    async def _news(self, scene: GroupScene) -> list[News]:
        """Stored notices (timeouts, the clock, unreachable players), then the game's
        announcements of its new public events. Players who ran out of time together are
        named in one line."""
        match, t = scene.match, scene.t
        news = []
        timed_out: News | None = None
        names: list[str] = []
        for notice in await self.storage.unsent_notices(match.id):
            if notice.key == "timer.timeout":
                name = mention(notice.params["user_id"], notice.params["name"])
                if name not in names:  # timed out again before the group heard of it
                    names.append(name)
                if timed_out is None:
                    timed_out = News("", notice_ids=[])
                    news.append(timed_out)
                timed_out.notice_ids.append(notice.id)
                continue
            text, markup = self._notice(t, match, notice)
            news.append(News(text, markup, [notice.id]))
        if timed_out is not None:
            timed_out.text = t.plural("timer.timeout", len(names), names=", ".join(names))
        events = scene.public["log"][match.announced :]
        if events:
            for text in scene.ui.announce(t, events, scene.public, scene.names):
                news.append(News(text))
        return news

    def _notice(self, t: Translator, match: Match, notice: Notice) -> tuple[str, Markup]:
        params = dict(notice.params)
        if "user_id" in params:
            params["name"] = mention(params.pop("user_id"), params["name"])
        for name, key in (("seconds", "left"), ("waited", "waited")):
            if name in params:  # a duration, in the group's language
                params[key] = format_duration(t, params.pop(name))
        markup = None
        if notice.key == "play.unreachable":
            params["bot"] = self.messenger.bot.username
            link = self.messenger.deep_link(f"m{match.id}")
            markup = markup_of([[link_button(t("play.open_private"), link)]])
        return t(notice.key, **params), markup

    async def _show_board(self, scene: GroupScene, at_bottom: bool = False) -> None:
        """Edit the board in place (or send it anew when there is none); an unchanged
        board costs no call. ``at_bottom``: post it anew below everything, the old one
        removed — one board per match. A tile game's board is a picture with a short
        caption where the group wants pictures, else (or when the picture fails) text."""
        match = scene.match
        text, rows = self._board_screen(scene)
        picture = await self.pictures.group(match, scene.public)
        if picture is not None:
            text = self._caption(scene)
        print_ = fingerprint(text, rows, picture)
        if at_bottom and match.board_message_id is not None:
            photo = picture_of(match.board_print) is not None
            await self.messenger.retire(
                match.chat_id, match.board_message_id, scene.t("play.board_moved"), photo=photo
            )
            match.board_message_id = None
        if print_ == match.board_print and match.board_message_id is not None:
            return
        if picture is not None:
            try:
                match.board_message_id = await self._show_picture(
                    match.chat_id,
                    match.board_message_id,
                    match.board_print,
                    picture,
                    text,
                    rows,
                    thread_id=match.thread_id,
                )
                match.board_print = print_
                return
            except BadRequest:  # Telegram refused the picture: the text board instead
                log.exception("match %s: the board picture was refused", match.id)
                text, rows = self._board_screen(scene)
                print_ = fingerprint(text, rows)
        if picture_of(match.board_print) is not None and match.board_message_id is not None:
            # a picture board becoming text (/pictures): replaced, as Telegram would refuse
            # the text edit of a photo
            await self.messenger.retire(
                match.chat_id, match.board_message_id, scene.t("play.board_moved"), photo=True
            )
            match.board_message_id = None
        match.board_message_id = await self.messenger.edit_or_send(
            match.chat_id,
            match.board_message_id,
            text,
            markup_of(rows),
            thread_id=match.thread_id,
        )
        match.board_print = print_

    async def _draw_in_board(self, scene: GroupScene, place: Place) -> None:
        """Draw a match where nothing can follow the board (``Place.news_below`` is False):
        the news lives inside it — the notices and the game's announcements since the last
        news (a round's results), in view until newer news replaces them, above the board,
        which names the moves since the player to act last moved (the tile games' "Latest
        moves", Sultan's bids, the Donkey's plays) — and at the end the final result takes
        its place, with the rematch button. A tile game's board is the picture the player
        to act was just sent (no picture can be uploaded here: Telegram's file is reused),
        text until there is one; once a photo, the message stays one (Telegram cannot turn
        it back into text)."""
        match = scene.match
        notices, news = await self._board_news(scene)
        picture, file_id = await self._known_picture(scene)
        photo = file_id is not None or picture_of(match.board_print) is not None
        if scene.over:
            final = self._result(scene)
            rows = rows_of(final.markup)
            # a caption keeps its first lines (``fit_caption``): the result before the news
            parts = (final.text, news) if photo else (news, final.text)
            text = "\n\n".join(part for part in parts if part)
            if len(text) > MAX_NEWS:
                text = final.text
        elif photo:
            rows = self._board_screen(scene)[1]
            text = "\n\n".join(part for part in (self._caption(scene), news) if part)
        else:
            board, rows = self._board_screen(scene)
            text = "\n\n".join(part for part in (news, board) if part)
            if len(text) > MAX_NEWS:
                text = board
        if photo:
            text = fit_caption(text)
        if await self._edit_in_place(match, place, text, markup_of(rows), picture, file_id):
            for notice_id in notices:
                await self.storage.mark_notice_sent(notice_id)
            match.published = match.version
            await record_shown(lambda: self.storage.save_display(match))

    async def _board_news(self, scene: GroupScene) -> tuple[list[int], str]:
        """The news shown inside the board, and the stored notices among it (marked sent
        once shown): the notices not yet shown, and the game's announcements of the latest
        events that had any — ``board_below`` keeps where they start in the log (a board
        that holds its news has nothing below it)."""
        match, t, public = scene.match, scene.t, scene.public
        log_ = public["log"]
        if len(log_) > match.announced:
            fresh = scene.ui.announce(t, log_[match.announced :], public, scene.names)
            if any(fresh):
                match.board_below = match.announced
            match.announced = len(log_)
        items = await self._news(scene)  # notices, then announcements since ``announced``:
        # none, as it was just brought up to date
        texts = [item.text for item in items if item.text]
        window = log_[match.board_below : match.announced]
        texts += [text for text in scene.ui.announce(t, window, public, scene.names) if text]
        notices = [notice_id for item in items for notice_id in item.notice_ids]
        return notices, "\n\n".join(texts)

    async def _known_picture(self, scene: GroupScene) -> tuple[bytes | None, str | None]:
        """The picture of the board Telegram already has (its bytes and file id): the one
        the player to act was sent with their prompt — every board and the supply, public
        in the tile games — drawn first if it is being drawn now; (None, None) if none."""
        match = scene.match
        if scene.over or not await self.pictures.wanted(match):
            return None, None
        engine = get_engine(match.game)
        for number in sorted(engine.to_act(match.state)):
            seat = match.seats[number]
            if seat.is_ai:
                continue
            prompt = self._prompt_task(seat.user_id)
            if prompt is not None and prompt is not asyncio.current_task():
                await asyncio.wait([prompt])
            view = engine.view(match.state, number)
            picture = await self.pictures.private(match, view, number)
            file_id = self.messenger.file_id(picture) if picture is not None else None
            if file_id is not None:
                return picture, file_id
        return None, None

    async def _edit_in_place(
        self,
        match: Match,
        place: Place,
        text: str,
        markup: Markup,
        picture: bytes | None = None,
        file_id: str | None = None,
    ) -> bool:
        """Show ``text`` in the place's one message — as the caption of the picture Telegram
        has by ``file_id``, or of the photo the message already is; an unchanged screen
        costs no call. False if the message is gone: the match ends (``place_gone``)."""
        rows = rows_of(markup)
        print_ = fingerprint(text, rows, picture)
        if print_ == match.board_print:
            return True
        inline, budget = place.inline_message_id, place.chat_id
        shown = picture_of(match.board_print)
        try:
            try:
                if file_id is not None and shown != picture_digest(picture):
                    await self.messenger.edit_inline_photo(
                        inline, file_id, text, markup, limit_as=budget
                    )
                elif shown is not None:
                    await self.messenger.edit_inline_caption(inline, text, markup, limit_as=budget)
                else:
                    await self.messenger.edit_inline(inline, text, markup, limit_as=budget)
            except MessageKindDiffers:  # a photo already (a rematch after a tile game)
                await self.messenger.edit_inline_caption(
                    inline, fit_caption(text), markup, limit_as=budget
                )
                print_ += ":p" + UNKNOWN_PICTURE
        except MessageGone:
            log.info("match %s: its inline message is gone", match.id)
            await self._watcher().place_gone(match.id)
            return False
        match.board_print = print_
        return True

    def _caption(self, scene: GroupScene) -> str:
        """The caption under the board picture: the game's short text (names cut where
        long) and the time left to move, within Telegram's limit."""
        match, t = scene.match, scene.t
        text = scene.ui.caption(t, scene.public, short_names_of(match))
        left = self._time_left(match, scene.over)
        if left is not None:
            text += "\n\n" + t("clock.board", left=clock_words(t, left))
        return fit_caption(text)

    async def _show_picture(
        self,
        chat_id: int,
        message_id: int | None,
        shown: str | None,
        picture: bytes,
        caption: str,
        rows: Rows,
        thread_id: int = 0,
    ) -> int:
        """Show a picture in a message: a new photo, a caption edit when the message shows
        this picture already (no upload), else a media edit; a message that cannot take
        the edit (gone, or a text Telegram will not turn into a photo) is replaced."""
        markup = markup_of(rows)
        if message_id is not None and picture_of(shown) == picture_digest(picture):
            try:
                await self.messenger.edit_caption(chat_id, message_id, caption, markup)
                return message_id
            except MessageGone:
                pass  # below: the whole picture, or a new message
        return await self.messenger.edit_photo_or_send(
            chat_id, message_id, picture, caption, markup, thread_id=thread_id
        )

    def _board_screen(self, scene: GroupScene) -> tuple[str, Rows]:
        """The board's text and buttons: the game's own, "Start the clock" where the others
        may press it, and a link to the private chat while the game goes on."""
        match, t = scene.match, scene.t
        board = scene.ui.board(t, scene.public, scene.names)
        text = board.text
        left = self._time_left(match, scene.over)
        if left is not None:
            text += "\n\n" + t("clock.board", left=clock_words(t, left))
        rows = keyboard(match, board.rows, None)
        rows += self._clock_buttons(match, t)
        if not scene.over and place_of(match).links_private_chat:
            label = scene.ui.private_button_label(t)
            link = self.messenger.deep_link(f"m{match.id}")
            rows.append([link_button(label, link)])
            if self.tables.link(match) is not None and place_of(match).watchable:
                # the table app, for its players and for the group's members to watch: the
                # Main Mini App opens in the group itself (WEB_APP_MAIN), else the private
                # chat answers with the button that opens it (a group takes none)
                param = self.tables.start_param(match)
                if param is not None:
                    watch = self.messenger.main_app_link(param)
                else:
                    watch = self.messenger.deep_link(f"w{match.id}")
                rows[-1].append(link_button(t("app.watch_button"), watch))
        return text, rows

    def _time_left(self, match: Match, over: bool) -> float | None:
        """Seconds until the next default move of a player to act (None: no clock runs).
        Shown on the board and refreshed when it is drawn anyway, and at half time."""
        if over or match.status != "playing":
            return None
        deadlines = [
            seat.deadline
            for seat in match.seats
            if seat.deadline is not None and not seat.autopilot
        ]
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - self.clock())

    def _clock_buttons(self, match: Match, t: Translator) -> Rows:
        """ "Start the clock" for each player the others have waited for too long."""
        rows = []
        for seat in match.seats:
            if may_start_clock(match, seat):
                data = Callback(Kind.CLOCK, match.id, seat.token, str(seat.seat)).encode()
                label = t("clock.button", name=seat.name)
                rows.append([press_button(label, data)])
        return rows

    def _result(self, scene: GroupScene) -> News:
        """The final result, with a button for a new game of the same kind."""
        match, t = scene.match, scene.t
        result = get_engine(match.game).result(match.state)
        rematch = Callback(Kind.REMATCH, match.id, 0, match.game).encode()
        button = press_button(t("play.rematch"), rematch)
        return News(scene.ui.final(t, scene.public, result, scene.names), markup_of([[button]]))

    async def _send(self, match: Match, text: str, markup: Markup = None) -> int:
        return await self.messenger.send(match.chat_id, text, markup, thread_id=match.thread_id)
