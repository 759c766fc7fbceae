"""Where a table lives, and what that place allows its board.

A match is played in one of three places:

* a **group**: the lobby, the news and the board are messages the bot posts and edits; news
  is posted below the board, which follows it down when it scrolls out of sight;
* a player's **private chat** (practice against AI seats): the same, the prompt below;
* an **inline message** (inline mode): a message a user sent through the bot, in a chat the
  bot is not in — a private chat between two people, a group without the bot. The bot knows
  only the message's id and the chat's ``chat_instance``; it can edit the message, nothing
  more: it cannot delete it, post below it, or upload a picture into it (only show one
  Telegram already has, by its file id). The lobby becomes the board, the news lives inside
  the board, and the message's chat is given a stand-in id (:func:`inline_chat_id`) for what
  is kept per chat: its language, its records and ratings, its budget of calls a minute.

A **tournament's** match belongs to its group (its records, its watchers) but has no board
there: the group follows it in the tournament's one message, and its players play it from
their private prompts and the table app.

The publisher asks the place what it allows and draws every match the same way otherwise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from bot.storage.model import INLINE_CHATS, Match

PlaceKind = Literal["group", "practice", "inline", "tournament"]


@dataclass(frozen=True)
class Place:
    kind: PlaceKind
    chat_id: int  # the chat (for an inline message, its stand-in)
    thread_id: int = 0
    inline_message_id: str | None = None

    @property
    def news_below(self) -> bool:
        """News is posted as messages below the board, and new pictures are uploaded into
        it; else (an inline message) the news lives inside the board, whose picture can only
        be one Telegram already has (``Publisher._draw_in_board``)."""
        return self.kind != "inline"

    @property
    def lobby_becomes_board(self) -> bool:
        """The lobby's message is edited into the board (else the lobby closes to a line
        and the board is a message of its own)."""
        return self.kind == "inline"

    @property
    def links_private_chat(self) -> bool:
        """The board links to each player's private chat (practice: the prompt is here)."""
        return self.kind != "practice"

    @property
    def watchable(self) -> bool:
        """The group's members may watch the match in the table app (its public view): in
        a private chat or an inline message nobody can be told apart from a stranger."""
        return self.kind in ("group", "tournament")

    @property
    def board_in_group(self) -> bool:
        """The match's lobby, board, news and result are drawn in its chat."""
        return self.kind != "tournament"

    @property
    def bot_in_chat(self) -> bool:
        """The bot is in the chat: it can post there and ask Telegram who administers it."""
        return self.kind != "inline"


def place_of(match: Match) -> Place:
    if match.inline_message_id is not None:
        return Place("inline", match.chat_id, inline_message_id=match.inline_message_id)
    if match.practice:
        return Place("practice", match.chat_id)
    if match.tournament_id is not None:
        return Place("tournament", match.chat_id, match.thread_id)
    return Place("group", match.chat_id, match.thread_id)


def inline_chat_id(chat_instance: str) -> int:
    """A stable stand-in id for the chat of an inline message, from the ``chat_instance``
    Telegram sends with every press in it: below every real chat id, negative like a group's
    (an inline chat is paced, ranked and offered the clock as a group is)."""
    digest = hashlib.blake2b(chat_instance.encode(), digest_size=6).digest()
    return INLINE_CHATS - int.from_bytes(digest, "big")


def is_inline_chat(chat_id: int) -> bool:
    return chat_id <= INLINE_CHATS
