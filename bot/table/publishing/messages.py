"""What a chat's messages show: texts that fit Telegram's limits, buttons, the group's news
bundled into few messages, a player's prompt, and each message's fingerprint — what it
shows in a few characters, stored so that an unchanged screen costs no call. Pure: no
Telegram call, no database."""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from bot.presentation.i18n import Translator, format_duration
from bot.presentation.ui.base import Button, Names
from bot.storage import Match
from bot.table.deadlines import LAST_MARK, clock_mark
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.messenger import Markup

TAG = re.compile(r"<[^>]+>")

# buttons as the Bot API's JSON ({"text": ..., "callback_data" or "url": ...}): a screen's
# buttons are drawn at every move, and PTB's button objects cost more than they give here
Rows = list[list[dict[str, str]]]

MAX_CAPTION = 1024  # Telegram's limit for a photo's caption, in characters of plain text
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
    a mark, redrawn as each mark passes: ``bot.table.deadlines``), "less than 30 seconds"."""
    mark = clock_mark(seconds)
    if mark is None:
        return t("clock.under", left=format_duration(t, LAST_MARK))
    return t("clock.over", left=format_duration(t, mark))


def mention(user_id: int, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'


def link_button(label: str, url: str) -> dict[str, str]:
    return {"text": label, "url": url}


def web_app_button(label: str, url: str) -> dict:
    """A button that opens the table app (Telegram takes it in private chats only)."""
    return {"text": label, "web_app": {"url": url}}


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
    if print_ is None or ":v" not in print_:  # (a waiting screen may hold the app's button)
        return None
    return print_.split(":v", 1)[1].split(":p", 1)[0]


def picture_of(print_: str | None) -> str | None:
    """The picture a message with this fingerprint shows (its digest); None: a text."""
    if print_ is None or ":p" not in print_:
        return None
    return print_.rsplit(":p", 1)[1]


def markup_of(rows: Rows) -> Markup:
    return {"inline_keyboard": rows} if rows else None


def rows_of(markup: Markup) -> Rows:
    """The rows of buttons of a markup, PTB's or plain JSON, as plain JSON."""
    if markup is None:
        return []
    if isinstance(markup, dict):
        return markup["inline_keyboard"]
    return markup.to_dict()["inline_keyboard"]


UNKNOWN_PICTURE = "?"  # a photo whose picture the bot does not know (never a digest)


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
    app: Rows = field(default_factory=list)  # "Open the table": no decision, under the rest

    @property
    def buttons(self) -> Rows:
        """Every row of buttons the message shows: its choices, then the table app's."""
        return self.rows + self.app

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
        return fingerprint(self.shown, self.buttons, self.picture, secret)
