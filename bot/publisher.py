"""Draw committed matches in Telegram: the lobby, the group's news and board, the final
result, and each player's private prompt.

Publishing reads the committed match from the database and is safe to repeat. Each chat
(a group, or a player's private chat) has at most one flusher at a time; requests that
arrive while it is busy — for example while it waits for the rate limiter — only mark the
chat dirty, and the next pass draws the *latest* state. So under fast play board edits
coalesce, a group never gets more calls than Telegram allows, and the board is never more
than one call behind.

A drawing is a few named steps, each free to change without touching the others:

* the group (:meth:`Publisher._draw_group`): close the lobby the match started from, post
  the news (notices, then announcements of new events) in one message, show the board
  (edited in place; posted again below the news, silently, only once the news under it
  would push it out of sight; never rewritten into news), then post the final result.
  The group is never pinged about whose turn it is: the board says so, and each player
  to act is notified by their new private prompt — a player the bot cannot reach
  privately is named in the group instead (below);
* a private chat (:meth:`Publisher._draw_private`): build the prompt (with the time left
  to move), decide whether it is a new decision (a new message, which notifies; the old
  prompt is deleted) or an update (an edit; a selection step that changes only the
  buttons edits only them), deliver it, and tell the group when the player cannot be
  reached. A player waiting for the others (:meth:`Publisher._draw_waiting`) is not
  redrawn at their moves — the group's board shows them, and the next turn says what
  happened since — only when their own secrets change; where the game has none (Azul,
  Summer Pavilion) the prompt is deleted at their move. Calls per move, counted:
  ``tests/bot/test_message_counts.py``.

A tile game's board is a photo with a short caption where the group wants pictures, and
the player about to decide gets every board as a photo with the prompt as its caption,
less the text board the picture shows (``bot.board_pictures`` draws them; the photo goes at
their move); a picture that
fails to draw or send gives way to the text screen, and a message of the other kind
(photo or text) is replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from telegram.error import BadRequest

from bot.board_pictures import BoardPictures
from bot.callbacks import Callback, Kind
from bot.deadlines import LAST_MARK, clock_mark, may_start_clock
from bot.i18n import Translator, format_duration
from bot.languages import Languages
from bot.lobby_view import lobby_screen
from bot.messenger import (
    ChatMoved,
    Markup,
    MessageGone,
    MessageKindDiffers,
    Messenger,
    Unreachable,
)
from bot.place import Place, place_of
from bot.storage import Match, Notice, Seat, Storage, StorageUnavailable
from bot.ui import get_ui
from bot.ui.base import Button, GameUI, Names
from games import get_engine

log = logging.getLogger(__name__)
TAG = re.compile(r"<[^>]+>")

ChatKey = tuple[str, int]  # ("group", chat id) or ("user", user id)
# buttons as the Bot API's JSON ({"text": ..., "callback_data" or "url": ...}): a screen's
# buttons are drawn at every move, and PTB's button objects cost more than they give here
Rows = list[list[dict[str, str]]]

# Chats drawn at the same time, per audience; the others wait for a slot as keys, before
# their match is read. Under a backlog (Telegram takes about 30 calls a second from a bot,
# a busy bot may want more) each chat drawing held a read match, its screens and a chain of
# suspended calls — some 30 KB — until its call left, so memory grew with the backlog.
# Groups wait on their own minute's budget as well, so more of them are drawn at once.
DRAWING_SLOTS = {"group": 256, "user": 64}
MAX_CAPTION = 1024  # Telegram's limit for a photo's caption, in characters of plain text
# A message sent while the database briefly refuses writes (a lock being retaken, a short
# outage) is recorded once it answers again, or its buttons would be left live and
# forgotten: tried again for this long
RECORD_RETRY_SECONDS = 10.0
RECORD_RETRY_EVERY = 0.5
# At shutdown (the platform kills the process about 30 s after SIGTERM), the drawings under
# way get this long in all; the next start draws those chats again from the database
STOP_DRAWING_SECONDS = 8.0
CAPTION_NAME = 32  # characters of a player's name under a picture: four long names fit


def names_of(match: Match) -> Names:
    return Names.of([seat.name for seat in match.seats])


def short_names_of(match: Match) -> Names:
    """Names for a caption: the longest are cut, so four of them fit under a picture."""
    return Names.of([shorten(seat.name, CAPTION_NAME) for seat in match.seats])


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plain_length(text: str) -> int:
    """The length of an HTML text as Telegram counts it, without its tags and entities and
    in UTF-16 code units (an emoji outside the BMP counts twice: on the safe side)."""
    return len(html.unescape(TAG.sub("", text)).encode("utf-16-le")) // 2


def fit_caption(text: str) -> str:
    """A caption within Telegram's limit: whole lines dropped from the end (each line's
    tags are balanced), which hold the least important news."""
    lines = text.split("\n")
    while len(lines) > 1 and plain_length("\n".join(lines)) > MAX_CAPTION:
        lines.pop()
    return "\n".join(lines)


def clock_words(t: Translator, seconds: float) -> str:
    """The time left to move, never more than there is: "over 2 minutes" (rounded down to
    a mark, redrawn as each mark passes: ``bot.deadlines``), "less than 30 seconds"."""
    mark = clock_mark(seconds)
    if mark is None:
        return t("clock.under", left=format_duration(t, LAST_MARK))
    return t("clock.over", left=format_duration(t, mark))


def mention(user_id: int, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'


def link_button(label: str, url: str) -> dict[str, str]:
    return {"text": label, "url": url}


def press_button(label: str, data: str) -> dict[str, str]:
    return {"text": label, "callback_data": data}


def keyboard(match: Match, rows: list[list[Button]], default_seat: int | None) -> Rows:
    """Telegram buttons for a screen; moves and selection steps carry the seat's token."""
    markup = []
    for row in rows:
        buttons = []
        for button in row:
            if button.url:
                buttons.append(link_button(button.label, button.url))
                continue
            seat = button.seat if button.seat is not None else default_seat
            token = match.seats[seat].token if seat is not None else match.version
            if button.action is not None:
                payload = ".".join(str(part) for part in button.action)
                data = Callback(Kind.ACTION, match.id, token, payload).encode()
            else:
                # a selection step also carries the step it was drawn at: a step button
                # from an older version of the prompt is stale
                step = match.seats[seat].draft_step if seat is not None else 0
                draft = button.draft or ""
                data = Callback(Kind.DRAFT, match.id, token, draft, step=step).encode()
            buttons.append(press_button(button.label, data))
        if buttons:
            markup.append(buttons)
    return markup


def fingerprint(text: str, markup: Rows, picture: bytes | None = None, secret: str = "") -> str:
    """What a message shows, in a few characters: "k:" when it has buttons ("t:" when
    not), the digest of its text, "~" and the digest of its buttons (a selection step that
    changes only the buttons edits only them), for a waiting screen ":v" and the digest of
    the player's secrets it shows (``secret_digest``), and for a photo ":p" and its
    picture's digest."""
    words = hashlib.blake2s(text.encode(), digest_size=8).hexdigest()
    raw = json.dumps(markup, sort_keys=True).encode()
    buttons = hashlib.blake2s(raw, digest_size=5).hexdigest()
    print_ = ("k:" if markup else "t:") + words + "~" + buttons  # "k:" = it has buttons
    if secret:
        print_ += ":v" + secret
    if picture is not None:
        print_ += ":p" + picture_digest(picture)
    return print_


def picture_digest(picture: bytes) -> str:
    return hashlib.blake2s(picture, digest_size=6).hexdigest()


def words_of(print_: str | None) -> str | None:
    """The digest of the text (or caption) a message with this fingerprint shows; None
    where unknown (a fingerprint stored before buttons were digested apart)."""
    if print_ is None or "~" not in print_:
        return None
    return print_[2:].split("~", 1)[0]


def secret_digest(view: dict[str, Any], public: dict[str, Any]) -> str:
    """What a seat's view shows that the group's does not (a hand, a bid's card), in a few
    characters; "" where the game has no secrets (Azul, Summer Pavilion)."""
    secret = {
        key: value
        for key, value in view.items()
        if public.get(key) != value and key != "seat"  # the viewer's own seat is no secret
    }
    if not secret:
        return ""
    raw = json.dumps(secret, sort_keys=True, default=str)
    return hashlib.blake2s(raw.encode(), digest_size=6).hexdigest()


def secret_of(print_: str | None) -> str | None:
    """The secrets a waiting screen with this fingerprint shows (their digest); None: the
    message is no waiting screen."""
    if print_ is None or not print_.startswith("t:") or ":v" not in print_:
        return None
    return print_.split(":v", 1)[1].split(":p", 1)[0]


def picture_of(print_: str | None) -> str | None:
    """The picture a message with this fingerprint shows (its digest); None: a text."""
    if print_ is None or ":p" not in print_:
        return None
    return print_.rsplit(":p", 1)[1]


def markup_of(rows: Rows) -> Markup:
    return {"inline_keyboard": rows} if rows else None


def _rows_of(markup: Markup) -> Rows:
    """The rows of buttons of a markup, PTB's or plain JSON, as plain JSON."""
    if markup is None:
        return []
    if isinstance(markup, dict):
        return markup["inline_keyboard"]
    return markup.to_dict()["inline_keyboard"]


UNKNOWN_PICTURE = "?"  # a photo whose picture the bot does not know (never a digest)


class ChatWatcher(Protocol):
    """Who hears what drawing finds out about a group (``bot.chat_lifecycle``)."""

    async def move_chat(self, old: int, new: int) -> None: ...

    async def bot_removed(self, chat_id: int) -> None: ...

    async def place_gone(self, match_id: int) -> None:
        """The message a match is played in is gone (an inline message deleted)."""


@dataclass
class GroupScene:
    """A committed match as its group sees it: read once, used by every step of a drawing."""

    match: Match
    t: Translator
    ui: GameUI
    names: Names
    public: Any  # the engine's public view
    over: bool


@dataclass
class News:
    """One piece of news for the group: a stored notice or a game's announcement."""

    text: str
    markup: Markup = None
    notice_ids: list[int] = field(default_factory=list)  # stored notices: marked sent once shown


MAX_NEWS = 4000  # characters of one news message (Telegram takes up to 4,096)
ROW_CHARS = 36  # characters of a line that fit in one row of a message on a phone
SCREEN_ROWS = 25  # rows of messages a phone shows: news below the board that fills more
# than this has pushed the board out of sight


def screen_rows(text: str) -> int:
    """About how many rows an HTML message takes in a phone's chat: each line, wrapped every
    ``ROW_CHARS`` characters, and one for the bubble's margins."""
    lines = html.unescape(re.sub(r"<[^>]+>", "", text)).split("\n")
    return 1 + sum(max(1, -(-len(line) // ROW_CHARS)) for line in lines)


def bundle(news: list[News]) -> list[News]:
    """The news of one drawing in as few messages as fit: one, unless it is very long."""
    messages: list[News] = []
    for item in news:
        last = messages[-1] if messages else None
        if last is not None and fit_together(last.text, item.text):
            last.text += "\n\n" + item.text
            last.markup = last.markup or item.markup
            last.notice_ids += item.notice_ids
        else:
            messages.append(News(item.text, item.markup, list(item.notice_ids)))
    return messages


def joins(news: News, result: News) -> bool:
    """Whether the last news can go in the final result's message: it has no buttons of
    its own, and both fit."""
    return news.markup is None and fit_together(news.text, result.text)


def fit_together(first: str, second: str) -> bool:
    """Whether two texts fit in one message, a blank line between them."""
    return len(first) + 2 + len(second) <= MAX_NEWS


@dataclass(frozen=True)
class Ending:
    """How a match ended that did not finish, for its players' prompts: a message key
    (given the match's ``title`` and ``game``, and ``params``), and whether the line comes
    as a new message, which notifies (where nobody in the group said so)."""

    key: str
    params: dict[str, str] = field(default_factory=dict)
    notify: bool = False


@dataclass
class Prompt:
    """A seat's private message: the screen, and whether it offers a decision."""

    text: str
    rows: Rows
    decides: bool  # the seat has legal moves
    closed: str  # the one line an older prompt shrinks to where it cannot be deleted
    picture: bytes | None = None  # a photo with the caption (or the text) under it
    caption: str | None = None  # the text without the boards the picture shows
    secret: str = ""  # the digest of the seat's secrets (``secret_digest``); "": none

    @property
    def shown(self) -> str:
        """What the message says: the caption under the picture, else the whole text."""
        if self.picture is not None and self.caption is not None:
            return self.caption
        return self.text

    @property
    def waiting(self) -> bool:
        """A screen without buttons while the match goes on: the player waits for the
        others (no decision, not on autopilot)."""
        return not self.rows and not self.decides

    @property
    def print(self) -> str:
        secret = self.secret if self.waiting else ""
        return fingerprint(self.shown, self.rows, self.picture, secret)


class Publisher:
    def __init__(
        self,
        storage: Storage,
        messenger: Messenger,
        languages: Languages,
        pictures: BoardPictures,
    ) -> None:
        self.storage = storage
        self.messenger = messenger
        self.languages = languages
        self.pictures = pictures
        self._chats: ChatWatcher | None = None
        self._dirty: dict[ChatKey, set[int]] = {}
        self._tasks: dict[ChatKey, asyncio.Task] = {}
        self._resend: set[tuple[int, int]] = set()  # (match, user): prompt as a new message
        self._repost: set[int] = set()  # matches whose board goes to the bottom of the group
        self._endings: dict[tuple[int, int], Ending] = {}  # (match, user): the prompt's last line
        self._slots = {
            audience: asyncio.Semaphore(slots) for audience, slots in DRAWING_SLOTS.items()
        }
        self.clock: Callable[[], float] = time.time  # the host's clock (tests move it)

    def watch_chats(self, chats: ChatWatcher) -> None:
        """Tell ``chats`` when drawing finds that a group moved or no longer has the bot.
        (``bot.app`` connects it: the watcher is built after the publisher, which it uses.)"""
        self._chats = chats

    # -- scheduling ------------------------------------------------------------------------
    def request(self, match: Match, chats: Iterable[ChatKey] | None = None) -> None:
        """Bring the group and every player's private chat up to the committed state, in
        the background. Returns at once."""
        keys = (
            list(chats)
            if chats is not None
            else [("group", match.chat_id)] + [("user", seat.user_id) for seat in match.humans]
        )
        for key in keys:
            self._dirty.setdefault(key, set()).add(match.id)
            if key not in self._tasks:
                self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    def resend_prompt(self, match: Match, user_id: int) -> None:
        """Send a player's prompt again as a new message (they asked for it)."""
        self._resend.add((match.id, user_id))
        self.request(match, [("user", user_id)])

    def repost_board(self, match: Match) -> None:
        """Post the board again at the bottom of the group (``/board``); the old one goes."""
        self._repost.add(match.id)
        self.request(match, [("group", match.chat_id)])

    def end_prompts(self, match: Match, ending: Ending) -> None:
        """A match stopped or abandoned: each player's prompt becomes the line saying so,
        without buttons — drawn in turn with the chat's other drawings, so no drawing of the
        running match lands after it."""
        for seat in match.humans:
            self._endings[(match.id, seat.user_id)] = ending
        self.request(match, [("user", seat.user_id) for seat in match.humans])

    async def idle(self) -> None:
        """Wait until every chat is drawn (tests, the bench)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def finish(self, within: float = STOP_DRAWING_SECONDS) -> None:
        """Shutdown: wait for the drawings under way, ``within`` seconds in all, then drop
        the rest — a database or a Telegram that does not answer must not hold up the stop.
        :func:`bot.app.restore_matches` draws those chats again at the next start."""
        drawn = asyncio.ensure_future(self.idle())
        done, _ = await asyncio.wait({drawn}, timeout=within)
        if not done:
            log.warning(
                "%d chats still drawing at shutdown: left to the next start", len(self._tasks)
            )
            for task in list(self._tasks.values()):
                task.cancel()
        await drawn

    async def _run(self, key: ChatKey) -> None:
        try:
            # a practice match's board and prompt share the chat: the prompt comes below
            # the board drawn with it, its buttons in sight
            board = self._tasks.get(("group", key[1])) if key[0] == "user" else None
            if board is not None:
                await asyncio.wait([board])
            async with self._slots[key[0]]:
                await self._flush(key)
        finally:
            del self._tasks[key]

    async def _flush(self, key: ChatKey) -> None:
        while self._dirty.get(key):
            match_ids = self._dirty.pop(key)
            for match_id in sorted(match_ids):
                try:
                    if key[0] == "group":
                        await self._draw_group(match_id)
                    else:
                        await self._draw_private(match_id, key[1])
                except ChatMoved as moved:  # the group became a supergroup
                    await self._watcher().move_chat(moved.chat_id, moved.new_chat_id)
                except Unreachable as error:  # 403 from a group: the bot is not in it
                    log.info("match %s: the bot left chat %s", match_id, error.chat_id)
                    await self._watcher().bot_removed(error.chat_id)
                except Exception:
                    log.exception("could not draw match %s in %s", match_id, key)

    @staticmethod
    async def _record_shown(save: Callable[[], Awaitable[None]]) -> None:
        """Record what a chat now shows, waiting out a database that briefly refuses."""
        deadline = time.monotonic() + RECORD_RETRY_SECONDS
        while True:
            try:
                return await save()
            except StorageUnavailable:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(RECORD_RETRY_EVERY)

    def _watcher(self) -> ChatWatcher:
        if self._chats is None:
            raise RuntimeError("Publisher.watch_chats was never called")
        return self._chats

    # -- the lobby -------------------------------------------------------------------------
    async def _draw_lobby(self, match: Match) -> None:
        t = await self.languages.chat_t(match.chat_id)
        text, markup = lobby_screen(match, t, self.messenger.deep_link(f"j{match.id}"))
        place = place_of(match)
        if place.lobby_becomes_board:
            if await self._edit_in_place(match, place, text, markup):
                await self._record_shown(lambda: self.storage.save_display(match))
            return
        match.lobby_message_id = await self.messenger.edit_or_send(
            match.chat_id, match.lobby_message_id, text, markup, thread_id=match.thread_id
        )
        await self._record_shown(lambda: self.storage.save_display(match))

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

    # -- the group -------------------------------------------------------------------------
    async def _draw_group(self, match_id: int) -> None:
        match = await self.storage.load(match_id)
        if match is None:
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
        if result is not None and news and joins(news[-1], result):
            # the final result and, below it, the last news: one message and one
            # notification, whose preview says who won
            last = news.pop()
            result = News(f"{result.text}\n\n{last.text}", result.markup, last.notice_ids)
        match.board_below += await self._post_news(scene, news)
        repost = match.id in self._repost
        self._repost.discard(match.id)
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
        await self._record_shown(lambda: self.storage.save_display(match))

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

    # news: notices and announcements, one message per drawing
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

    # the board: one message, edited in place
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

    # -- a board that holds its news (an inline message) -----------------------------------
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
            rows = _rows_of(final.markup)
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
            await self._record_shown(lambda: self.storage.save_display(match))

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
            prompt = self._tasks.get(("user", seat.user_id))
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
        rows = _rows_of(markup)
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

    # the end
    def _result(self, scene: GroupScene) -> News:
        """The final result, with a button for a new game of the same kind."""
        match, t = scene.match, scene.t
        result = get_engine(match.game).result(match.state)
        rematch = Callback(Kind.REMATCH, match.id, 0, match.game).encode()
        button = press_button(t("play.rematch"), rematch)
        return News(scene.ui.final(t, scene.public, result, scene.names), markup_of([[button]]))

    async def _send(self, match: Match, text: str, markup: Markup = None) -> int:
        return await self.messenger.send(match.chat_id, text, markup, thread_id=match.thread_id)

    # -- private chats -------------------------------------------------------------------
    async def _draw_private(self, match_id: int, user_id: int) -> None:
        match = await self.storage.load(match_id)
        seat = match.seat_of(user_id) if match else None
        if seat is not None and match.status == "cancelled":
            await self._draw_ending(match, seat)
            return
        if seat is None or match.state is None or match.status not in ("playing", "finished"):
            return
        prompt = await self._prompt(match, seat)
        await self._illustrate(match, seat, prompt)
        resend = (match_id, user_id) in self._resend
        self._resend.discard((match_id, user_id))
        fresh = self._is_new_decision(match, seat, prompt)
        unchanged = prompt.print == seat.prompt_text and seat.prompt_message_id is not None
        if unchanged and not (fresh or resend):
            return
        if match.status == "playing" and prompt.waiting and not resend:
            await self._draw_waiting(match, seat, prompt)
            return
        try:
            # the final screen of a player whose prompt went at their move (Azul, Summer
            # Pavilion) comes as a new message: silently, as the edit it replaces
            notify = fresh or resend or match.status != "finished"
            await self._deliver_prompt(seat, prompt, as_new_message=fresh or resend, notify=notify)
        except Unreachable:
            await self._player_unreachable(match, seat, tell_group=fresh)
        seat.prompt_token = seat.token
        await self._record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _draw_waiting(self, match: Match, seat: Seat, prompt: Prompt) -> None:
        """A player who waits for the others. Their screen is not redrawn for the others'
        moves (the group's board shows them; their turn comes as a new message, which
        says what happened since): only when their own secrets change (a hand that took
        cards). Where the game has no secrets (Azul, Summer Pavilion) there is nothing the
        board does not show: the prompt they decided on is deleted at their move, and
        their next turn has no old prompt to delete."""
        if not prompt.secret:
            old = seat.prompt_message_id
            if old is None:
                return
            photo = picture_of(seat.prompt_text) is not None
            try:
                await self.messenger.retire(seat.user_id, old, prompt.closed, photo=photo)
            except Unreachable:  # blocked the bot meanwhile: the message is theirs to clear
                await self._player_unreachable(match, seat, tell_group=False)
            seat.prompt_message_id, seat.prompt_text = None, None
        elif secret_of(seat.prompt_text) == prompt.secret and seat.prompt_message_id is not None:
            return  # only the others moved
        else:
            try:
                await self._deliver_prompt(seat, prompt, as_new_message=False)
            except Unreachable:
                await self._player_unreachable(match, seat, tell_group=False)
        seat.prompt_token = seat.token
        await self._record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _draw_ending(self, match: Match, seat: Seat) -> None:
        """The prompt of a match that ended unfinished becomes the line saying how (a photo
        keeps its picture); as a new message where it notifies, the old prompt retired."""
        ending = self._endings.pop((match.id, seat.user_id), None)
        if ending is None:
            return
        t = await self.languages.user_t_by_id(seat.user_id)
        title, game = html.escape(match.title or "—"), html.escape(get_ui(match.game).title(t))
        text = t(ending.key, title=title, game=game, **ending.params)
        try:
            if ending.notify or not await self._edit_ending(seat, text):
                old = seat.prompt_message_id
                seat.prompt_message_id = await self.messenger.send(
                    seat.user_id, text, notify=ending.notify
                )
                if old is not None:
                    photo = picture_of(seat.prompt_text) is not None
                    await self.messenger.retire(seat.user_id, old, text, photo=photo)
        except Unreachable:  # blocked the bot meanwhile: nothing to say it with
            return
        seat.prompt_text = fingerprint(text, [])
        await self._record_shown(lambda: self.storage.save_seat_display(match.id, seat))

    async def _edit_ending(self, seat: Seat, text: str) -> bool:
        """The prompt edited into ``text`` without buttons; False where there is none."""
        if seat.prompt_message_id is None:
            return False
        try:
            if picture_of(seat.prompt_text) is not None:  # a photo: its caption
                await self.messenger.edit_caption(seat.user_id, seat.prompt_message_id, text)
            else:
                await self.messenger.edit(seat.user_id, seat.prompt_message_id, text)
        except MessageGone:
            return False
        return True

    async def _prompt(self, match: Match, seat: Seat) -> Prompt:
        """The seat's secrets and choices under the match's title; a decision opens with
        what the others did since the seat's turn; on autopilot, a way back."""
        engine = get_engine(match.game)
        t = await self.languages.user_t_by_id(seat.user_id)
        view = engine.view(match.state, seat.seat)
        secret = secret_digest(view, engine.view(match.state, None))
        legal = engine.legal_actions(match.state, seat.seat)
        ui, names = get_ui(match.game), names_of(match)
        screen = ui.prompt(t, view, seat.seat, legal, seat.draft, names)
        title = html.escape(match.title or "—")
        text = t("play.prompt_header", title=title) + "\n"
        since = ui.since_your_turn(t, view, seat.seat, names) if legal else ""
        if since:
            text += since + "\n\n"
        text += screen.text
        rows = keyboard(match, screen.rows, seat.seat)
        if match.practice and legal and match.status == "playing":
            hint = Callback(Kind.HINT, match.id, seat.token).encode()
            rows.append([press_button(t("hint.button"), hint)])
        if seat.autopilot and match.status == "playing":
            text += "\n\n" + t("timer.autopilot_private")
            back = Callback(Kind.BACK, match.id, 0, "").encode()
            rows.append([press_button(t("timer.back_button"), back)])
        elif legal and seat.deadline is not None and match.status == "playing":
            text += "\n\n" + self._clock_line(t, match, seat)
        elif not legal and match.status == "playing":  # a waiting screen, drawn seldom
            text += "\n\n" + t("play.waiting_note")
        closed = t("play.prompt_closed", title=title)
        prompt = Prompt(text, rows, decides=bool(legal), closed=closed, secret=secret)
        if screen.caption is not None:  # the same text, the boards left to the picture,
            # without blank lines: a few lines, to fit one phone screen with the picture
            caption = text.replace(screen.text, screen.caption, 1)
            caption = "\n".join(line for line in caption.split("\n") if line.strip())
            if since:  # the others' moves stand apart from the choice to make
                caption = caption.replace(since + "\n", since + "\n\n", 1)
            prompt.caption = caption
        return prompt

    def _clock_line(self, t: Translator, match: Match, seat: Seat) -> str:
        """The time the player has left for this decision: after the half-time reminder
        with a word of warning; a clock the other players started says so."""
        left = clock_words(t, seat.deadline - self.clock())
        if not match.turn_seconds:
            return t("clock.prompt_started", left=left)
        if seat.reminded:
            return t("clock.prompt_hurry", left=left)
        return t("clock.prompt", left=left)

    async def _illustrate(self, match: Match, seat: Seat, prompt: Prompt) -> None:
        """The player about to decide in a tile game sees every board and the supply as a
        picture (their own board in full), the prompt without its text board as its
        caption. A prompt too long for a caption (only with names and a group title near
        Telegram's longest) stays text: it shows the same board in emoji, so nothing is
        lost."""
        if not prompt.decides or plain_length(prompt.caption or prompt.text) > MAX_CAPTION:
            return
        view = get_engine(match.game).view(match.state, seat.seat)
        prompt.picture = await self.pictures.private(match, view, seat.seat)

    @staticmethod
    def _is_new_decision(match: Match, seat: Seat, prompt: Prompt) -> bool:
        """A new decision gets a new message, which notifies the player — unless they made
        the move that led to it themselves (several choices in a row: bonus tiles, a bid
        after returning a gem): they are looking at the prompt, so it is edited in place."""
        return (
            prompt.decides
            and seat.prompt_token != seat.token
            and not (match.last_mover == seat.seat and seat.prompt_message_id is not None)
        )

    async def _deliver_prompt(
        self, seat: Seat, prompt: Prompt, as_new_message: bool, notify: bool = True
    ) -> None:
        """Send the prompt as a new message, which notifies (the old one is removed: one
        live prompt per match in the chat), or edit it in place; a prompt message that is
        gone is sent anew (``notify``: whether a message sent where there was none
        notifies)."""
        user_id, markup = seat.user_id, markup_of(prompt.rows)
        if as_new_message or seat.prompt_message_id is None:
            old = seat.prompt_message_id
            seat.prompt_message_id = await self._send_prompt(
                user_id, prompt, markup, notify=as_new_message or notify
            )
            if old is not None:
                photo = picture_of(seat.prompt_text) is not None
                await self.messenger.retire(user_id, old, prompt.closed, photo=photo)
        else:
            try:
                seat.prompt_message_id = await self._edit_prompt(
                    user_id, seat.prompt_message_id, seat.prompt_text, prompt, markup
                )
            except MessageGone:
                seat.prompt_message_id = await self._send_prompt(user_id, prompt, markup)
        seat.prompt_text = prompt.print

    async def _send_prompt(
        self,
        user_id: int,
        prompt: Prompt,
        markup: Markup,
        notify: bool = True,
    ) -> int:
        """A prompt as a new message: a photo with the prompt as its caption, or text —
        also when Telegram refuses the picture."""
        if prompt.picture is not None:
            try:
                return await self.messenger.send_photo(
                    user_id, prompt.picture, prompt.shown, markup, notify=notify
                )
            except BadRequest:
                log.exception("the prompt's picture for %s was refused; sending text", user_id)
                prompt.picture = None
        return await self.messenger.send(user_id, prompt.text, markup, notify=notify)

    async def _edit_prompt(
        self,
        user_id: int,
        message_id: int,
        shown: str | None,
        prompt: Prompt,
        markup: Markup,
    ) -> int:
        """Edit a prompt in place: text as text; a picture by its caption alone when the
        message shows it already (a selection step), else by its media. A message of the
        other kind (a photo prompt becoming text, or the reverse where Telegram refuses)
        is replaced: deleted, and sent anew. Returns the prompt's message id."""
        try:
            if prompt.picture is None and picture_of(shown) is not None:
                # a photo prompt becoming text: Telegram would refuse the text edit
                raise MessageKindDiffers(message_id)
            same_picture = picture_of(shown) == (
                picture_digest(prompt.picture) if prompt.picture is not None else None
            )
            if same_picture and words_of(shown) == words_of(prompt.print):
                # a selection step: only the buttons change
                await self.messenger.edit_markup(user_id, message_id, markup)
            elif prompt.picture is None:
                await self.messenger.edit(user_id, message_id, prompt.text, markup)
            elif same_picture:
                await self.messenger.edit_caption(user_id, message_id, prompt.shown, markup)
            else:
                await self.messenger.edit_photo(
                    user_id, message_id, prompt.picture, prompt.shown, markup
                )
            return message_id
        except MessageKindDiffers:  # not a new decision: the new message is silent
            photo = picture_of(shown) is not None
            await self.messenger.retire(user_id, message_id, prompt.closed, photo=photo)
            return await self._send_prompt(user_id, prompt, markup, notify=False)
        except BadRequest:
            if prompt.picture is None:
                raise
            log.exception("the prompt's picture for %s was refused; showing text", user_id)
            prompt.picture = None
            return await self._edit_prompt(user_id, message_id, shown, prompt, markup)

    async def _player_unreachable(self, match: Match, seat: Seat, tell_group: bool) -> None:
        """The player blocked the bot or never opened the private chat: remember it, and
        tell the group once per decision (not at every redraw)."""
        await self.storage.set_can_message(seat.user_id, False)
        if tell_group:
            await self.storage.add_notice(
                match.id, "play.unreachable", {"user_id": seat.user_id, "name": seat.name}
            )
            self.request(match, [("group", match.chat_id)])
