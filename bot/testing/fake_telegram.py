"""An in-memory Telegram Bot API, plugged into python-telegram-bot as its request object.

It keeps chats and messages the way Telegram does (ids per chat, edits, deletions, inline
keyboards), answers with Telegram's real error texts (403 for a user who never started the
bot or blocked it, 400 "message is not modified" / "message to edit not found"), and lets
tests inject faults such as 429 with ``retry_after``. Photos (``sendPhoto``,
``editMessageMedia``, ``editMessageCaption``) are checked against Telegram's limits for
photos and captions and kept with their message. ``bot.testing.driver`` plays the
users against it.

Used by the test suite, the benchmark, and anyone who wants to evaluate the bot offline.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import io
import itertools
import json
import re
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError
from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

BOT_ID = 777000111
BOT_USERNAME = "tablebot_test_bot"
TAG = re.compile(r"<[^>]+>")
# Telegram's limits for an uploaded photo, and for a caption
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000  # width + height
MAX_PHOTO_RATIO = 20
MAX_CAPTION = 1024
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024


def plain(text_html: str) -> str:
    """What a user sees of an HTML message: tags removed, entities decoded."""
    return html.unescape(TAG.sub("", text_html))


@dataclass
class Fault:
    """An error to return for the next matching call(s). ``code`` 0 is a time-out: the
    request never gets an answer (PTB raises ``TimedOut``)."""

    method: str
    code: int
    description: str
    chat_id: int | None = None  # None: any chat
    retry_after: int | None = None
    times: int = 1


@dataclass
class StoredMessage:
    """A message: its text, or for a photo its caption (``html``), and its buttons."""

    message_id: int
    chat_id: int
    html: str
    markup: dict | None
    thread_id: int | None = None
    from_bot: bool = True
    deleted: bool = False
    edits: int = 0
    photo: bytes | None = None  # the picture's bytes (only while recording)
    photo_digest: str | None = None  # set for every photo message
    photo_size: tuple[int, int] = (0, 0)  # width, height
    document: bytes | None = None  # a file's content
    filename: str | None = None
    inline_message_id: str | None = None  # sent by a user through the bot's inline mode

    @property
    def text(self) -> str:
        return plain(self.html)

    @property
    def is_photo(self) -> bool:
        return self.photo_digest is not None

    def buttons(self) -> list[dict]:
        if not self.markup:
            return []
        return [button for row in self.markup["inline_keyboard"] for button in row]


@dataclass
class FakeTelegram(BaseRequest):
    bot_id: int = BOT_ID
    username: str = BOT_USERNAME
    chats: dict[int, dict] = field(default_factory=dict)
    messages: dict[int, dict[int, StoredMessage]] = field(default_factory=lambda: defaultdict(dict))
    calls: list[tuple[str, dict]] = field(default_factory=list)
    timeline: list[tuple[float, str, int | None]] = field(default_factory=list)  # when, what, chat
    answers: list[dict] = field(default_factory=list)
    # every call Telegram would refuse (a 4xx answer, not an injected fault): method,
    # chat id, Telegram's description — a bot that spends its rate budget on calls that fail
    refused: list[tuple[str, int | None, str]] = field(default_factory=list)
    started: set[int] = field(default_factory=set)  # users who opened the private chat
    blocked: set[int] = field(default_factory=set)  # users who blocked the bot
    kicked: set[int] = field(default_factory=set)  # groups the bot was removed from
    migrated: dict[int, int] = field(default_factory=dict)  # old group id → supergroup id
    admins: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    # users who are not in a group (getChatMember answers "left"); everyone else is a member
    outsiders: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    faults: list[Fault] = field(default_factory=list)
    pending_updates: list[dict] = field(default_factory=list)  # served by getUpdates
    # False (for benchmarks): keep only what is needed to answer like Telegram, not the
    # history of every call (nor deleted messages, nor the calls to groups longer ago than
    # a minute), so the fake's memory does not hide the bot's
    record: bool = True
    call_counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # told the query id of each press as it is answered: for latency figures
    on_answer: Callable[[str], None] | None = None
    # not recording: each group's calls of the last minute, and the most in any minute
    _recent: dict[int, deque[float]] = field(default_factory=dict)
    _peak: int = 0
    _swept: float = 0.0  # when the quiet groups were last forgotten
    _ids: dict[int, itertools.count] = field(default_factory=dict)
    # inline mode: switched on with @BotFather's /setinline; the messages users sent
    # through it (by inline message id), and the answers to inline queries (by query id)
    inline_mode: bool = True
    inline_messages: dict[str, StoredMessage] = field(default_factory=dict)
    inline_answers: dict[str, dict] = field(default_factory=dict)
    # messages kept for a user to send from a Mini App (savePreparedInlineMessage), by id
    prepared: dict[str, dict] = field(default_factory=dict)
    # photos Telegram already has, by file id: (digest, size, bytes while recording)
    file_ids: dict[str, tuple[str, tuple[int, int], bytes | None]] = field(default_factory=dict)
    _updates_ready: asyncio.Event | None = None

    def __hash__(self) -> int:
        return id(self)

    # -- BaseRequest ---------------------------------------------------------------------
    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        api_method = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        files = _uploads(request_data) if request_data and request_data.contains_files else {}
        if request_data and request_data.contains_files:
            params["_filenames"] = _upload_names(request_data)
        status, body = await self.handle(api_method, params, files)
        if status == 0:
            raise TimedOut(f"{api_method} timed out")
        return status, body

    async def handle(
        self, api_method: str, params: dict, files: dict[str, bytes] | None = None
    ) -> tuple[int, bytes]:
        """Answer one Bot API call: (HTTP status, JSON body). ``files``: the uploaded files
        of a multipart request, by part name."""
        if files:
            params = {**params, "_files": files}
        self.call_counts[api_method] += 1
        chat_id = _int(params.get("chat_id"))
        if chat_id is None and params.get("inline_message_id") in self.inline_messages:
            chat_id = self.inline_messages[params["inline_message_id"]].chat_id
        if self.record:
            self.calls.append((api_method, params))
        if self.record:
            self.timeline.append((time.monotonic(), api_method, chat_id))
        elif chat_id is not None and chat_id < 0 and api_method not in READ_METHODS:
            self._count_group_call(chat_id, time.monotonic())
        if chat_id in self.migrated:  # Telegram's answer for a group that became a supergroup
            body = {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": self.migrated[chat_id]},
            }
            if self.record:
                self.refused.append((api_method, chat_id, body["description"]))
            return 400, json.dumps(body).encode()
        fault = self._take_fault(api_method, chat_id)
        if fault and fault.code == 0:
            return 0, b""
        if fault:
            body: dict[str, Any] = {
                "ok": False,
                "error_code": fault.code,
                "description": fault.description,
            }
            if fault.retry_after is not None:
                body["parameters"] = {"retry_after": fault.retry_after}
            return fault.code, json.dumps(body).encode()
        handler = getattr(self, "_api_" + api_method, None)
        if handler is None:
            return self._error(404, "Not Found: method not found")
        try:
            result = handler(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as error:
            if self.record:
                self.refused.append((api_method, chat_id, error.description))
            return self._error(error.code, error.description)
        return 200, json.dumps({"ok": True, "result": result}).encode()

    @staticmethod
    def _error(code: int, description: str) -> tuple[int, bytes]:
        body = {"ok": False, "error_code": code, "description": description}
        return code, json.dumps(body).encode()

    def _take_fault(self, api_method: str, chat_id: int | None) -> Fault | None:
        """The fault for this call (``chat_id``: its chat, an inline message's included)."""
        for fault in self.faults:
            if fault.method != api_method:
                continue
            if fault.chat_id is not None and chat_id != fault.chat_id:
                continue
            fault.times -= 1
            if fault.times <= 0:
                self.faults.remove(fault)
            return fault
        return None

    # -- helpers -------------------------------------------------------------------------
    def bot_user(self) -> dict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Table Bot",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": self.inline_mode,
        }

    def next_message_id(self, chat_id: int) -> int:
        if chat_id not in self._ids:
            self._ids[chat_id] = itertools.count(1)
        return next(self._ids[chat_id])

    def chat(self, chat_id: int) -> dict:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        raise ApiError(400, "Bad Request: chat not found")

    def message_dict(self, message: StoredMessage) -> dict:
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": self.chat(message.chat_id),
        }
        if message.is_photo:
            width, height = message.photo_size
            data["photo"] = [
                {
                    "file_id": f"photo-{message.photo_digest}",
                    "file_unique_id": f"u{message.photo_digest}",
                    "width": width,
                    "height": height,
                }
            ]
            if message.html:
                data["caption"] = message.text
        else:
            data["text"] = message.text
        if message.from_bot:
            data["from"] = self.bot_user()
        if message.markup and "inline_keyboard" in message.markup:
            data["reply_markup"] = message.markup
        if message.thread_id:
            data["message_thread_id"] = message.thread_id
            data["is_topic_message"] = True
        return data

    def _check_can_write(self, chat_id: int) -> None:
        if chat_id > 0:
            if chat_id in self.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat_id not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat_id in self.kicked:
            raise ApiError(403, "Forbidden: bot was kicked from the group chat")
        else:
            self.chat(chat_id)

    def _kept_text(self, text: str) -> str:
        """The message text as stored: all of it, or (not recording) a digest that still
        tells "not modified" apart."""
        if self.record:
            return text
        return hashlib.blake2s(plain(text).encode(), digest_size=8).hexdigest()

    def _kept_markup(self, raw: Any) -> dict | None:
        markup = _markup(raw)
        if self.record or markup is None:
            return markup
        digest = hashlib.blake2s(json.dumps(markup, sort_keys=True).encode(), digest_size=8)
        return {"digest": digest.hexdigest()}

    def _stored(self, params: dict) -> StoredMessage:
        inline_id = params.get("inline_message_id")
        if inline_id is not None:
            if params.get("chat_id") is not None or params.get("message_id") is not None:
                raise ApiError(400, "Bad Request: chat_id and message_id must be empty")
            message = self.inline_messages.get(inline_id)
            if message is None or message.deleted:
                raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
            return message
        chat_id = _int(params.get("chat_id"))
        message = self.messages[chat_id].get(_int(params.get("message_id")))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        return message

    @staticmethod
    def _chat_of(params: dict) -> int | None:
        """The chat an edit is in; None for an inline message."""
        return None if params.get("inline_message_id") is not None else _int(params["chat_id"])

    def _check_can_edit(self, message: StoredMessage) -> None:
        """An inline message is edited whoever is in its chat; others as their chat allows."""
        if message.inline_message_id is None:
            self._check_can_write(message.chat_id)

    def _edited(self, message: StoredMessage) -> dict | bool:
        """An edit's answer: the message, or ``True`` for an inline message (the bot is
        not told about the chat it is in)."""
        return True if message.inline_message_id is not None else self.message_dict(message)

    # -- Bot API methods -------------------------------------------------------------------
    def _api_getMe(self, params: dict) -> dict:
        return self.bot_user()

    def _api_setMyCommands(self, params: dict) -> bool:
        return True

    def _api_deleteWebhook(self, params: dict) -> bool:
        return True

    def _api_setWebhook(self, params: dict) -> bool:
        return True

    def _api_getChat(self, params: dict) -> dict:
        return self.chat(_int(params["chat_id"]))

    def _api_getChatMember(self, params: dict) -> dict:
        chat_id, user_id = _int(params["chat_id"]), _int(params["user_id"])
        status = "administrator" if user_id in self.admins[chat_id] else "member"
        if user_id in self.outsiders[chat_id]:
            status = "left"
        member: dict[str, Any] = {
            "status": status,
            "user": {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"},
        }
        if status == "administrator":
            member.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=True,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
            )
        return member

    def _api_sendMessage(self, params: dict) -> dict:
        chat_id = _int(params["chat_id"])
        self._check_can_write(chat_id)
        text = params["text"]
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if len(plain(text)) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        _check_markup(params.get("reply_markup"), _int(params["chat_id"]))
        message = StoredMessage(
            message_id=self.next_message_id(chat_id),
            chat_id=chat_id,
            html=self._kept_text(text),
            markup=self._kept_markup(params.get("reply_markup")),
            thread_id=_int(params.get("message_thread_id")) or None,
        )
        self.messages[chat_id][message.message_id] = message
        return self.message_dict(message)

    def _api_editMessageText(self, params: dict) -> dict:
        message = self._stored(params)
        self._check_can_edit(message)
        if message.is_photo:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        markup = self._kept_markup(params.get("reply_markup"))
        _check_markup(params.get("reply_markup"), self._chat_of(params))
        text = self._kept_text(params["text"])
        if plain(text) == message.text and markup == message.markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same as a current content and reply markup "
                "of the message",
            )
        message.html = text
        message.markup = markup
        message.edits += 1
        return self._edited(message)

    def _api_sendPhoto(self, params: dict) -> dict:
        chat_id = _int(params["chat_id"])
        self._check_can_write(chat_id)
        picture = self._upload(params, params.get("photo"))
        caption = self._caption(params)
        _check_markup(params.get("reply_markup"), chat_id)
        message = StoredMessage(
            message_id=self.next_message_id(chat_id),
            chat_id=chat_id,
            html=caption,
            markup=self._kept_markup(params.get("reply_markup")),
            thread_id=_int(params.get("message_thread_id")) or None,
        )
        self._keep_photo(message, picture)
        self.messages[chat_id][message.message_id] = message
        return self._edited(message)

    def _api_sendDocument(self, params: dict) -> dict:
        chat_id = _int(params["chat_id"])
        self._check_can_write(chat_id)
        content = (params.get("_files") or {}).get("document")
        if content is None:
            raise ApiError(400, "Bad Request: there is no document in the request")
        if len(content) > MAX_DOCUMENT_BYTES:
            raise ApiError(400, "Bad Request: file is too big")
        message = StoredMessage(
            message_id=self.next_message_id(chat_id),
            chat_id=chat_id,
            html=self._caption(params),
            markup=self._kept_markup(params.get("reply_markup")),
            thread_id=_int(params.get("message_thread_id")) or None,
            document=content,
            filename=(params.get("_filenames") or {}).get("document"),
        )
        self.messages[chat_id][message.message_id] = message
        return self._edited(message)

    def _api_editMessageMedia(self, params: dict) -> dict:
        """Replace the media (a text message may become a photo, as Telegram allows), its
        caption and the buttons."""
        message = self._stored(params)
        self._check_can_edit(message)
        media = params.get("media")
        media = json.loads(media) if isinstance(media, str) else media
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: can't parse input media JSON object")
        reference = media.get("media")
        if isinstance(reference, str) and reference in self.file_ids:
            known = self.file_ids[reference]  # a file Telegram has: no upload
        elif message.inline_message_id is not None:
            # "When an inline message is edited, a new file can't be uploaded" (the Bot API);
            # the wording of this refusal is the fake's own
            raise ApiError(400, "Bad Request: can't upload a new file to an inline message")
        elif isinstance(reference, str) and not reference.startswith("attach://"):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        else:
            picture = self._upload(params, reference)
            known = (_digest(picture), (0, 0), picture)
        caption = self._caption(media)
        markup = self._kept_markup(params.get("reply_markup"))
        _check_markup(params.get("reply_markup"), self._chat_of(params))
        digest = known[0]
        if (
            digest == message.photo_digest
            and plain(caption) == message.text
            and markup == message.markup
        ):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same as a current content and reply markup "
                "of the message",
            )
        if known[2] is not None:
            self._keep_photo(message, known[2])
        else:
            message.photo_digest, message.photo_size = digest, known[1]
        message.html = caption
        message.markup = markup
        message.edits += 1
        return self._edited(message)

    def _api_editMessageCaption(self, params: dict) -> dict:
        message = self._stored(params)
        self._check_can_edit(message)
        if not message.is_photo:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = self._caption(params)
        markup = self._kept_markup(params.get("reply_markup"))
        _check_markup(params.get("reply_markup"), self._chat_of(params))
        if plain(caption) == message.text and markup == message.markup:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same as a current content and reply markup "
                "of the message",
            )
        message.html = caption
        message.markup = markup
        message.edits += 1
        return self._edited(message)

    def _upload(self, params: dict, reference: Any) -> bytes:
        """The uploaded picture a parameter refers to (``attach://<name>`` or its own
        part), checked as Telegram checks a photo."""
        files = params.get("_files") or {}
        if isinstance(reference, str) and reference.startswith("attach://"):
            picture = files.get(reference.removeprefix("attach://"))
        else:  # sendPhoto: the file is its own part
            picture = files.get("photo")
        if picture is None:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        if len(picture) > MAX_PHOTO_BYTES:
            raise ApiError(400, "Bad Request: PHOTO_SAVE_FILE_INVALID")
        try:
            with Image.open(io.BytesIO(picture)) as image:
                width, height = image.size
        except (UnidentifiedImageError, OSError):
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from None
        long_side, short_side = max(width, height), max(1, min(width, height))
        if width + height > MAX_PHOTO_SIDES or long_side / short_side > MAX_PHOTO_RATIO:
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        return picture

    def _caption(self, params: dict) -> str:
        caption = params.get("caption") or ""
        if len(plain(caption)) > MAX_CAPTION:
            raise ApiError(400, "Bad Request: message caption is too long")
        return self._kept_text(caption) if caption else ""

    def _keep_photo(self, message: StoredMessage, picture: bytes) -> None:
        with Image.open(io.BytesIO(picture)) as image:
            message.photo_size = image.size
        message.photo_digest = _digest(picture)
        message.photo = picture if self.record else None
        kept = picture if self.record else None
        self.file_ids[f"photo-{message.photo_digest}"] = (
            message.photo_digest,
            message.photo_size,
            kept,
        )

    def _api_editMessageReplyMarkup(self, params: dict) -> dict:
        message = self._stored(params)
        markup = self._kept_markup(params.get("reply_markup"))
        _check_markup(params.get("reply_markup"), self._chat_of(params))
        if markup == message.markup:
            raise ApiError(400, "Bad Request: message is not modified")
        message.markup = markup
        message.edits += 1
        return self._edited(message)

    def _api_deleteMessage(self, params: dict) -> bool:
        chat_id = _int(params["chat_id"])
        message = self.messages[chat_id].get(_int(params["message_id"]))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        message.deleted = True
        if not self.record:  # a deleted message answers as one never sent: forget it
            del self.messages[chat_id][message.message_id]
        return True

    def _api_answerCallbackQuery(self, params: dict) -> bool:
        if self.on_answer is not None:
            self.on_answer(str(params.get("callback_query_id")))
        if self.record:
            self.answers.append(params)
        return True

    def _api_answerInlineQuery(self, params: dict) -> bool:
        """Answers to an inline query, checked as Telegram checks them; kept by query id
        for the user to choose from."""
        query_id = str(params.get("inline_query_id"))
        if query_id not in self.inline_answers:
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        raw = params.get("results")
        results = json.loads(raw) if isinstance(raw, str) else raw
        if not isinstance(results, list) or len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = set()
        for result in results:
            result_id = str(result.get("id", ""))
            if not 1 <= len(result_id.encode()) <= 64:
                raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
            if result_id in ids:
                raise ApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
            ids.add(result_id)
            if result.get("type") != "article" or not result.get("title"):
                raise ApiError(400, "Bad Request: RESULT_TYPE_INVALID")
            content = result.get("input_message_content") or {}
            text = content.get("message_text") or ""
            if not text.strip():
                raise ApiError(400, "Bad Request: MESSAGE_EMPTY")
            if len(plain(text)) > 4096:
                raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
            _check_markup(result.get("reply_markup"))
        button = params.get("button")
        button = json.loads(button) if isinstance(button, str) else button
        if button is not None:
            start = button.get("start_parameter", "")
            if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", start) or not button.get("text"):
                raise ApiError(400, "Bad Request: START_PARAM_INVALID")
        self.inline_answers[query_id] = {**params, "results": results, "button": button}
        return True

    def _api_savePreparedInlineMessage(self, params: dict) -> dict:
        """A message a user may send from a Mini App (``shareMessage``), checked as an
        inline query's result is; kept by its id for that user alone."""
        user_id = _int(params.get("user_id"))
        if user_id is None:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        raw = params.get("result")
        result = json.loads(raw) if isinstance(raw, str) else raw
        if not isinstance(result, dict) or result.get("type") != "article":
            raise ApiError(400, "Bad Request: RESULT_TYPE_INVALID")
        text = (result.get("input_message_content") or {}).get("message_text") or ""
        if not text.strip():
            raise ApiError(400, "Bad Request: MESSAGE_EMPTY")
        _check_markup(result.get("reply_markup"))
        kinds = ("allow_user_chats", "allow_bot_chats", "allow_group_chats", "allow_channel_chats")
        allowed = {kind: params.get(kind) in (True, "true", "True", 1, "1") for kind in kinds}
        if not any(allowed.values()):
            raise ApiError(400, "Bad Request: PEER_TYPES_INVALID")
        prepared_id = f"prepared{len(self.prepared) + 1}"
        self.prepared[prepared_id] = {"user_id": user_id, "result": result, **allowed}
        return {"id": prepared_id, "expiration_date": int(time.time()) + 86400}

    async def _api_getUpdates(self, params: dict) -> list[dict]:
        offset = _int(params.get("offset")) or 0
        timeout = float(params.get("timeout") or 0)
        if self._updates_ready is None:
            self._updates_ready = asyncio.Event()
        deadline = time.monotonic() + timeout
        while True:
            ready = [u for u in self.pending_updates if u["update_id"] >= offset]
            self.pending_updates = ready
            if ready or time.monotonic() >= deadline:
                return ready
            self._updates_ready.clear()
            try:
                await asyncio.wait_for(
                    self._updates_ready.wait(), max(0.01, deadline - time.monotonic())
                )
            except TimeoutError:
                return []

    def queue_update(self, update: dict) -> None:
        """Make an update available to getUpdates (for a bot that polls this fake)."""
        self.pending_updates.append(update)
        if self._updates_ready is not None:
            self._updates_ready.set()

    # -- inspection ----------------------------------------------------------------------
    def visible(self, chat_id: int) -> list[StoredMessage]:
        return [m for m in self.messages[chat_id].values() if not m.deleted]

    def last(self, chat_id: int, from_bot: bool = True) -> StoredMessage:
        for message in reversed(self.visible(chat_id)):
            if message.from_bot == from_bot:
                return message
        raise AssertionError(f"no message in chat {chat_id}")

    def count(self, method: str) -> int:
        return self.call_counts[method]

    def reset_counts(self) -> None:
        """Count calls from now on (the bench: after the lobbies are open)."""
        self.call_counts.clear()
        self.timeline.clear()
        self._recent.clear()
        self._peak = 0

    def _count_group_call(self, chat_id: int, now: float) -> None:
        """Not recording: the busiest minute of any group so far, from the group's calls
        of the last minute alone; once a minute the groups quiet for a minute are
        forgotten (whatever they did is counted already)."""
        recent = self._recent.setdefault(chat_id, deque())
        recent.append(now)
        while now - recent[0] >= PEAK_WINDOW:
            recent.popleft()
        self._peak = max(self._peak, len(recent))
        if now - self._swept >= PEAK_WINDOW:
            self._swept = now
            for group, calls in list(self._recent.items()):
                if now - calls[-1] >= PEAK_WINDOW:
                    del self._recent[group]

    def last_group_call(self, chat_id: int) -> float | None:
        """Not recording: when the group last heard a call (``time.monotonic``), if in the
        last minute."""
        recent = self._recent.get(chat_id)
        return recent[-1] if recent else None

    def peak_group_calls_per_minute(self, window: float = 60.0) -> int:
        """The most calls any one group received within any ``window`` seconds (Telegram's
        minute), reads such as ``getChatMember`` aside: they send nothing to the group.
        Not recording, only Telegram's minute is counted."""
        if not self.record:
            if window != PEAK_WINDOW:
                raise ValueError("without recording only a minute's peak is counted")
            return self._peak
        per_group: dict[int, list[float]] = defaultdict(list)
        for when, method, chat_id in self.timeline:
            if chat_id is not None and chat_id < 0 and method not in READ_METHODS:
                per_group[chat_id].append(when)
        peak = 0
        for times in per_group.values():
            start = 0
            for end, when in enumerate(times):
                while when - times[start] >= window:
                    start += 1
                peak = max(peak, end - start + 1)
        return peak

    # -- group changes -------------------------------------------------------------------
    def migrate(self, old: int, new: int) -> None:
        """Upgrade the group ``old`` to a supergroup ``new``, as Telegram does: calls to the
        old id are refused with ``migrate_to_chat_id`` from now on."""
        chat = self.chat(old)
        self.chats[new] = {**chat, "id": new, "type": "supergroup"}
        self.admins[new] = set(self.admins[old])
        self.migrated[old] = new


READ_METHODS = frozenset({"getChat", "getChatMember", "getChatAdministrators"})
PEAK_WINDOW = 60.0  # Telegram's minute, in seconds


class ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


def _digest(picture: bytes) -> str:
    return hashlib.blake2s(picture, digest_size=8).hexdigest()


def _uploads(request_data: RequestData) -> dict[str, bytes]:
    """The files of a multipart request by part name (PTB gives bytes or a file handle)."""
    files = {}
    for name, part in request_data.multipart_data.items():
        content = part[1] if isinstance(part, tuple) else part
        files[name] = content if isinstance(content, bytes) else content.read()
    return files


def _upload_names(request_data: RequestData) -> dict[str, str]:
    """The file names of a multipart request's files, by part name."""
    return {
        name: part[0]
        for name, part in request_data.multipart_data.items()
        if isinstance(part, tuple) and isinstance(part[0], str)
    }


def _int(value: Any) -> int | None:
    if value is None:
        return None
    return int(value)


def _markup(raw: Any) -> dict | None:
    if raw is None:
        return None
    markup = json.loads(raw) if isinstance(raw, str) else raw
    if not markup.get("inline_keyboard"):
        return None
    return markup


def _check_markup(raw: Any, chat_id: int | None = None) -> None:
    """Buttons as Telegram checks them: callback data of 1–64 bytes; a ``web_app`` button
    (a Mini App) only in a private chat with the bot (``chat_id`` None: an inline message)."""
    markup = _markup(raw)
    if not markup:
        return
    for row in markup["inline_keyboard"]:
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= 64:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if "web_app" in button and (chat_id is None or chat_id < 0):
                raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")


def member_extras(status: str) -> dict:
    """The fields Telegram adds to a ChatMember of this status."""
    return {"until_date": 0} if status == "kicked" else {}
