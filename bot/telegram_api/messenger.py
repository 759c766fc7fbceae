"""Every outgoing Telegram call, with the errors that real chats produce handled in one place.

* 429 ``RetryAfter``: wait as long as Telegram asks, then try again.
* Time-outs and network errors: a few quick retries.
* 400 "message is not modified": harmless (the screen is already right).
* 400 "message to edit not found" / "can't be edited": the caller sends a new message;
  so does a text edit of a photo message (:class:`MessageKindDiffers`), e.g. a board that
  falls back from its picture to text.
* 403 ``Forbidden`` (blocked, never started, kicked): raised as :class:`Unreachable` so the
  caller can tell the group; nothing about the match is lost.
* 400 with ``migrate_to_chat_id`` (the group became a supergroup with a new id): raised as
  :class:`ChatMoved` so the caller moves the chat's matches there.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBUserWarning

from bot.telegram_api.rate_limit import APP_CALL

log = logging.getLogger(__name__)
T = TypeVar("T")

# Buttons: PTB's markup, or the same as plain JSON ({"inline_keyboard": rows of
# {"text": ..., "callback_data" or "url": ...}}), which the publisher builds for every screen
# without making PTB objects.
Markup = InlineKeyboardMarkup | dict[str, Any] | None
NO_PREVIEW = {"is_disabled": True}


MAX_ATTEMPTS = 4
MAX_TEXT = 4096  # Telegram's longest text message, in characters
NETWORK_BACKOFF_S = (0.5, 1.0, 2.0)


class Unreachable(Exception):
    """The bot may not write to this chat (403)."""

    def __init__(self, chat_id: int, reason: str) -> None:
        super().__init__(f"chat {chat_id}: {reason}")
        self.chat_id = chat_id
        self.reason = reason


class ChatMoved(Exception):
    """The group was upgraded to a supergroup: it now lives at ``new_chat_id``."""

    def __init__(self, chat_id: int, new_chat_id: int) -> None:
        super().__init__(f"chat {chat_id} moved to {new_chat_id}")
        self.chat_id = chat_id
        self.new_chat_id = new_chat_id


class MessageGone(Exception):
    """The message to edit no longer exists or can no longer be edited."""


class MessageKindDiffers(MessageGone):
    """The message cannot take this edit: a text edit of a photo, a caption edit of a text.
    Like a vanished message, the caller sends a new one (and may delete the old)."""


PHOTO_NAME = "board.png"  # the uploaded file's name: Telegram reads its type from it
# pictures Telegram already has, remembered by content: an inline message cannot take an
# upload, only a file id (a few recent boards are enough: the one in play is the newest)
KNOWN_PICTURES = 512


def message_parts(text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split a long HTML text into messages of at most ``limit`` characters (tags counted,
    so the visible text is shorter still): between paragraphs where possible, else between
    lines, else between words. Tags must open and close on one line, as in the catalogues."""
    parts: list[str] = []
    current = ""
    for piece in _pieces(text, limit):
        joined = f"{current}{piece}"
        if current.strip() and len(joined.rstrip("\n")) > limit:
            parts.append(current.rstrip("\n"))
            joined = piece
        current = joined
    if current.strip():
        parts.append(current.rstrip("\n"))
    return parts


def _pieces(text: str, limit: int) -> list[str]:
    """Paragraphs (with the line breaks after them); one longer than ``limit`` as lines,
    and a line longer than ``limit`` as words."""
    pieces = []
    for paragraph in re.split(r"(?<=\n\n)", text):
        if len(paragraph) <= limit:
            pieces.append(paragraph)
            continue
        for line in paragraph.splitlines(keepends=True):
            if len(line) <= limit:
                pieces.append(line)
                continue
            for word in re.split(r"(?<= )", line):
                pieces.extend(word[start : start + limit] for start in range(0, len(word), limit))
    return pieces


def _is_not_modified(error: BadRequest) -> bool:
    return "not modified" in error.message.lower()


def _is_gone(error: BadRequest) -> bool:
    text = error.message.lower()
    return any(
        phrase in text
        for phrase in (
            "message to edit not found",
            "message can't be edited",
            "message to delete not found",
            "message not found",
            "message_id_invalid",
        )
    )


def _is_other_kind(error: BadRequest) -> bool:
    text = error.message.lower()
    return any(
        phrase in text
        for phrase in (
            "there is no text in the message to edit",
            "there is no caption in the message to edit",
            "there is no media in the message to edit",
        )
    )


class Messenger:
    def __init__(
        self,
        bot: Bot,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        paid_broadcast: bool = False,
    ) -> None:
        self.bot = bot
        self.sleep = sleep  # injectable so tests can observe waits without waiting
        # PAID_BROADCAST: new messages may go beyond 30 a second, each one above that paid
        # with 0.1 Stars from the bot's balance (Telegram offers it on sends only)
        self._paid = {"allow_paid_broadcast": True} if paid_broadcast else {}
        # Calls go out through ``Bot.do_api_request`` with plain JSON: PTB's own methods build
        # request objects and parse the returned Message, which nobody here reads but for its
        # id (about a third of drawing's CPU). PTB warns that a method of that name exists:
        # known, and silenced for these calls only.
        warnings.filterwarnings(
            "ignore",
            message=r"Please use 'Bot\.\w+' instead of 'Bot\.do_api_request",
            category=PTBUserWarning,
            module=re.escape(__name__) + "$",
        )

        self._file_ids: OrderedDict[str, str] = OrderedDict()

    def deep_link(self, payload: str) -> str:
        """A link that opens the private chat with the bot and sends ``/start <payload>``."""
        return f"https://t.me/{self.bot.username}?start={payload}"

    def main_app_link(self, parameter: str) -> str:
        """A link that opens the bot's Main Mini App where it is tapped (a group too), with
        ``parameter`` in its signed launch data (``start_param``)."""
        return f"https://t.me/{self.bot.username}?startapp={parameter}"

    def group_link(self) -> str:
        """A link that lets the user pick a group and add the bot to it."""
        return f"https://t.me/{self.bot.username}?startgroup=new"

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group; a check that fails answers no."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    async def is_member(self, chat_id: int, user_id: int, for_app: bool = False) -> bool:
        """Whether the user is in the group now; a check that fails answers no. ``for_app``:
        asked for the table app, within its share of the budget (past it,
        :class:`~bot.telegram_api.rate_limit.ShareSpent` is raised: neither yes nor no)."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id, **self._share(for_app))
        except TelegramError:
            return False
        return member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)

    async def is_member_for_app(self, chat_id: int, user_id: int) -> bool:
        return await self.is_member(chat_id, user_id, for_app=True)

    async def prepare_inline_message(self, user_id: int, result: Any) -> tuple[str, float]:
        """A message kept by Telegram for ``user_id`` to send from the table app
        (``savePreparedInlineMessage``), within the app's share of the budget: its id and
        when it expires (a Unix time)."""
        prepared = await self.bot.save_prepared_inline_message(
            user_id=user_id,
            result=result,
            allow_user_chats=True,
            allow_group_chats=True,
            allow_bot_chats=False,
            allow_channel_chats=False,
            **self._share(True),
        )
        return prepared.id, prepared.expiration_date.timestamp()

    def _share(self, for_app: bool) -> dict[str, Any]:
        if for_app and getattr(self.bot, "rate_limiter", None) is not None:
            return {"rate_limit_args": APP_CALL}
        return {}

    async def _call(self, chat_id: int, make_call: Callable[[], Awaitable[T]]) -> T:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await make_call()
            except RetryAfter as error:
                if attempt == MAX_ATTEMPTS:
                    raise
                delay = error.retry_after
                seconds = delay if isinstance(delay, int | float) else delay.total_seconds()
                log.warning("429 in chat %s: waiting %.1f s", chat_id, seconds)
                await self.sleep(seconds)
            except Forbidden as error:
                raise Unreachable(chat_id, error.message) from error
            except ChatMigrated as error:
                raise ChatMoved(chat_id, error.new_chat_id) from error
            except BadRequest:
                raise
            except (TimedOut, NetworkError) as error:
                if attempt == MAX_ATTEMPTS:
                    raise
                log.warning("network error in chat %s (%s); retrying", chat_id, error)
                await self.sleep(NETWORK_BACKOFF_S[attempt - 1])
        raise AssertionError("unreachable")

    async def _api(
        self, chat_id: int, method: str, params: dict[str, Any], limit_as: int | None = None
    ) -> Any:
        """One Bot API call with plain JSON parameters (None values are left out), its
        errors handled by :meth:`_call`; returns Telegram's raw result. ``limit_as``: the
        chat whose rate budget a call without a ``chat_id`` spends (an inline message's)."""
        extra: dict[str, Any] = {}
        if limit_as is not None and getattr(self.bot, "rate_limiter", None) is not None:
            extra["rate_limit_args"] = limit_as
        return await self._call(
            chat_id, lambda: self.bot.do_api_request(method, api_kwargs=params, **extra)
        )

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup = None,
        thread_id: int = 0,
        notify: bool = True,
    ) -> int:
        """Send an HTML message; returns its id."""
        sent = await self._api(
            chat_id,
            "sendMessage",
            {
                **self._paid,
                "chat_id": chat_id,
                "text": text,
                "parse_mode": ParseMode.HTML.value,
                "reply_markup": markup,
                "message_thread_id": thread_id or None,
                "disable_notification": not notify,
                "link_preview_options": NO_PREVIEW,
            },
        )
        return sent["message_id"]

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup = None,
    ) -> None:
        """Edit a message in place; raises :class:`MessageGone` if it cannot be edited."""
        try:
            await self._api(
                chat_id,
                "editMessageText",
                {
                    "chat_id": chat_id,
                    "message_id": message_id,
                    "text": text,
                    "parse_mode": ParseMode.HTML.value,
                    "reply_markup": markup,
                    "link_preview_options": NO_PREVIEW,
                },
            )
        except BadRequest as error:
            _raise_edit_error(error, message_id)

    async def edit_or_send(
        self,
        chat_id: int,
        message_id: int | None,
        text: str,
        markup: Markup = None,
        thread_id: int = 0,
    ) -> int:
        """Edit the message if it still exists, else send a new one; returns the message id.
        A photo cannot become text: it is deleted and the text sent in its place."""
        if message_id is not None:
            try:
                await self.edit(chat_id, message_id, text, markup)
                return message_id
            except MessageGone as gone:
                await self._replaced(chat_id, message_id, gone)
        return await self.send(chat_id, text, markup, thread_id=thread_id, notify=False)

    async def edit_markup(self, chat_id: int, message_id: int, markup: Markup) -> None:
        """Change only a message's buttons (its text or photo and caption stay); raises
        :class:`MessageGone` if it cannot be edited."""
        try:
            await self._api(
                chat_id,
                "editMessageReplyMarkup",
                {"chat_id": chat_id, "message_id": message_id, "reply_markup": markup},
            )
        except BadRequest as error:
            _raise_edit_error(error, message_id)

    async def drop_keyboard(self, chat_id: int, message_id: int) -> None:
        try:
            await self._api(
                chat_id, "editMessageReplyMarkup", {"chat_id": chat_id, "message_id": message_id}
            )
        except BadRequest as error:
            if not (_is_not_modified(error) or _is_gone(error)):
                raise

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message; returns False where Telegram no longer allows it (a message
        older than 48 hours). A message already gone counts as deleted."""
        try:
            await self._api(
                chat_id, "deleteMessage", {"chat_id": chat_id, "message_id": message_id}
            )
        except BadRequest as error:
            if _is_gone(error):
                return True
            if "can't be deleted" not in error.message.lower():
                raise
            return False
        return True

    async def retire(self, chat_id: int, message_id: int, line: str, photo: bool = False) -> None:
        """Take a message that has been superseded out of the chat: delete it, or where
        that is no longer allowed, shrink it to ``line`` without buttons (the caption of a
        ``photo``), so no stale text or button stays behind."""
        if await self.delete(chat_id, message_id):
            return
        with contextlib.suppress(MessageGone):
            if photo:
                await self.edit_caption(chat_id, message_id, line)
                return
            try:
                await self.edit(chat_id, message_id, line)
            except MessageKindDiffers:
                await self.edit_caption(chat_id, message_id, line)

    # -- photos: the board pictures ----------------------------------------------------------
    async def send_photo(
        self,
        chat_id: int,
        photo: bytes,
        caption: str,
        markup: Markup = None,
        thread_id: int = 0,
        notify: bool = True,
    ) -> int:
        """Send a picture (PNG or JPEG bytes) with an HTML caption (at most 1,024
        characters) and buttons; returns its message id."""
        sent = await self._api(
            chat_id,
            "sendPhoto",
            {
                **self._paid,
                "chat_id": chat_id,
                "photo": InputFile(photo, filename=PHOTO_NAME),
                "caption": caption,
                "parse_mode": ParseMode.HTML.value,
                "reply_markup": markup,
                "message_thread_id": thread_id or None,
                "disable_notification": not notify,
            },
        )
        self._remember_picture(photo, sent)
        return sent["message_id"]

    async def send_document(
        self, chat_id: int, content: bytes, filename: str, caption: str, thread_id: int = 0
    ) -> int:
        """Send a file (a match's move log) with an HTML caption; returns its message id."""
        sent = await self._api(
            chat_id,
            "sendDocument",
            {
                **self._paid,
                "chat_id": chat_id,
                "document": InputFile(content, filename=filename),
                "caption": caption,
                "parse_mode": ParseMode.HTML.value,
                "message_thread_id": thread_id or None,
            },
        )
        return sent["message_id"]

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes,
        caption: str,
        markup: Markup = None,
    ) -> None:
        """Replace a message's picture, caption and buttons at once (a text message becomes
        a photo); raises :class:`MessageGone` if it cannot be edited."""
        media = InputMediaPhoto(
            InputFile(photo, filename=PHOTO_NAME, attach=True),
            caption=caption,
            parse_mode=ParseMode.HTML,
        )
        try:
            edited = await self._api(
                chat_id,
                "editMessageMedia",
                {
                    "chat_id": chat_id,
                    "message_id": message_id,
                    "media": media,
                    "reply_markup": markup,
                },
            )
        except BadRequest as error:
            _raise_edit_error(error, message_id)
        else:
            self._remember_picture(photo, edited)

    async def edit_caption(
        self,
        chat_id: int,
        message_id: int,
        caption: str,
        markup: Markup = None,
    ) -> None:
        """Change only the caption and buttons of a photo (no upload: the picture is the
        same); raises :class:`MessageGone` if it cannot be edited."""
        try:
            await self._api(
                chat_id,
                "editMessageCaption",
                {
                    "chat_id": chat_id,
                    "message_id": message_id,
                    "caption": caption,
                    "parse_mode": ParseMode.HTML.value,
                    "reply_markup": markup,
                },
            )
        except BadRequest as error:
            _raise_edit_error(error, message_id)

    async def edit_photo_or_send(
        self,
        chat_id: int,
        message_id: int | None,
        photo: bytes,
        caption: str,
        markup: Markup = None,
        thread_id: int = 0,
    ) -> int:
        """Edit the photo if the message still exists, else send a new one (silently, like
        :meth:`edit_or_send`); returns the message id. A message Telegram will not turn into
        a photo is deleted and the photo sent in its place."""
        if message_id is not None:
            try:
                await self.edit_photo(chat_id, message_id, photo, caption, markup)
                return message_id
            except MessageGone as gone:
                await self._replaced(chat_id, message_id, gone)
        return await self.send_photo(
            chat_id, photo, caption, markup, thread_id=thread_id, notify=False
        )

    # -- pictures Telegram already has --------------------------------------------------------
    def _remember_picture(self, photo: bytes, sent: Any) -> None:
        """Keep the file id Telegram gave a picture it received (its largest size)."""
        sizes = sent.get("photo") if isinstance(sent, dict) else None
        if not sizes:
            return
        key = _picture_key(photo)
        self._file_ids[key] = sizes[-1]["file_id"]
        self._file_ids.move_to_end(key)
        while len(self._file_ids) > KNOWN_PICTURES:
            self._file_ids.popitem(last=False)

    def file_id(self, photo: bytes) -> str | None:
        """The file id of a picture this bot has sent before (to any chat), if remembered."""
        return self._file_ids.get(_picture_key(photo))

    # -- inline messages: sent by users through inline mode, edited by their id -------------
    async def edit_inline(
        self, inline_message_id: str, text: str, markup: Markup = None, limit_as: int = 0
    ) -> None:
        """Edit an inline message's text and buttons; raises :class:`MessageGone` if it
        was deleted (or cannot be edited), :class:`MessageKindDiffers` if it is a photo."""
        params = {
            "inline_message_id": inline_message_id,
            "text": text,
            "parse_mode": ParseMode.HTML.value,
            "reply_markup": markup,
            "link_preview_options": NO_PREVIEW,
        }
        await self._edit_inline("editMessageText", params, limit_as)

    async def edit_inline_caption(
        self, inline_message_id: str, caption: str, markup: Markup = None, limit_as: int = 0
    ) -> None:
        """Edit the caption and buttons of an inline message that shows a photo."""
        params = {
            "inline_message_id": inline_message_id,
            "caption": caption,
            "parse_mode": ParseMode.HTML.value,
            "reply_markup": markup,
        }
        await self._edit_inline("editMessageCaption", params, limit_as)

    async def edit_inline_photo(
        self,
        inline_message_id: str,
        file_id: str,
        caption: str,
        markup: Markup = None,
        limit_as: int = 0,
    ) -> None:
        """Show a photo Telegram already has (``file_id``) in an inline message — a text
        message becomes a photo — with its caption and buttons. An inline message takes no
        upload (the Bot API: "a new file can't be uploaded")."""
        media = {"type": "photo", "media": file_id, "caption": caption, "parse_mode": "HTML"}
        params = {"inline_message_id": inline_message_id, "media": media, "reply_markup": markup}
        await self._edit_inline("editMessageMedia", params, limit_as)

    async def _edit_inline(self, method: str, params: dict[str, Any], limit_as: int) -> None:
        try:
            await self._api(limit_as, method, params, limit_as=limit_as or None)
        except BadRequest as error:
            _raise_edit_error(error, 0)  # an inline message has no message id: 0

    async def _replaced(self, chat_id: int, message_id: int, gone: MessageGone) -> None:
        """A message that could not be edited is about to be sent anew: one of the other
        kind (photo or text) still stands, so it goes first — one board, one prompt."""
        if isinstance(gone, MessageKindDiffers):
            log.info(
                "message %s in chat %s is of the other kind; replacing it", message_id, chat_id
            )
            await self.delete(chat_id, message_id)
        else:
            log.info("message %s in chat %s is gone; sending anew", message_id, chat_id)


def _picture_key(photo: bytes) -> str:
    return hashlib.blake2s(photo, digest_size=12).hexdigest()


def _raise_edit_error(error: BadRequest, message_id: int) -> None:
    """An edit's 400: "not modified" is success; a message gone or of the other kind raises
    :class:`MessageGone`; anything else is re-raised."""
    if _is_not_modified(error):
        return
    if _is_other_kind(error):
        raise MessageKindDiffers(message_id) from error
    if _is_gone(error):
        raise MessageGone(message_id) from error
    raise error
