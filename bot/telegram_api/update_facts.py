"""What an update is about, without anything private in it: its kind, its chat, the match a
button belongs to. Logged with each update's latency, and tagged on error reports."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Update

from bot.telegram_api import callbacks


@dataclass(frozen=True)
class UpdateFacts:
    kind: str  # "message", "command", "callback_query", "my_chat_member", ...
    chat: int | None
    match: int | None  # the match a button press belongs to (0 and unknown: None)
    button: str | None  # the kind of button pressed, e.g. "action"

    def as_log_fields(self) -> dict[str, object]:
        return {"update_kind": self.kind, "chat": self.chat, "match": self.match}


def facts_of(update: object) -> UpdateFacts:
    if not isinstance(update, Update):
        return UpdateFacts(type(update).__name__, None, None, None)
    chat = update.effective_chat.id if update.effective_chat is not None else None
    if update.callback_query is not None:
        try:
            data = callbacks.parse(update.callback_query.data)
        except (ValueError, TypeError):
            return UpdateFacts("callback_query", chat, None, None)
        return UpdateFacts("callback_query", chat, data.match_id or None, data.kind.name.lower())
    message = update.effective_message
    if message is not None and message.text and message.text.startswith("/"):
        return UpdateFacts("command", chat, None, None)
    kind = next(
        (str(name) for name in Update.ALL_TYPES if getattr(update, name, None) is not None),
        "update",
    )
    return UpdateFacts(kind, chat, None, None)
