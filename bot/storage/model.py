"""What the storage keeps: matches and their seats, users, notices — plain dataclasses,
the same for every backend."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.core import clone

ACTIVE = ("lobby", "playing")
# The chat ids given to chats known only through inline mode (``bot.table.place.inline_chat_id``):
# below every Telegram chat id, which fit in 52 bits
INLINE_CHATS = -(2**53)


class StaleMatch(Exception):
    """The match changed since it was loaded (another update won the race)."""


@dataclass
class Seat:
    seat: int
    user_id: int
    name: str
    # -- play (saved with the match) --
    token: int = 0  # version at which this seat's choices last changed; buttons carry it
    prompt_sig: str | None = None  # fingerprint of the choices the token belongs to
    draft: Any = None  # UI selection in progress (e.g. cards toggled but not confirmed)
    deadline: float | None = None  # when an absent player's move is made for them
    reminded: bool = False  # the half-time reminder for the current deadline was sent
    timeouts: int = 0  # timeouts in a row; at AUTOPILOT_AFTER the seat goes on autopilot
    autopilot: bool = False
    draft_step: int = 0  # counts selection steps: a step button from an older prompt is stale
    waiting_since: float | None = None  # when the current decision began (None: no decision)
    clock_offered: bool = False  # the others were offered to start this decision's clock
    # -- display (saved by the publisher) --
    prompt_message_id: int | None = None  # the private message holding this seat's prompt
    prompt_text: str | None = None  # fingerprint of what that message shows
    prompt_token: int = 0  # token of the decision that message was sent for
    ai: str | None = None  # an AI seat's level (random, easy, normal, hard); None: a human

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


PLAY_SEAT_FIELDS = ("user_id", "name", "token", "prompt_sig", "draft", "deadline", "reminded",
                    "timeouts", "autopilot", "draft_step", "waiting_since",
                    "clock_offered", "ai")  # fmt: skip
BOOLEAN_SEAT_FIELDS = ("reminded", "autopilot", "clock_offered")
DISPLAY_SEAT_FIELDS = ("prompt_message_id", "prompt_text", "prompt_token")


@dataclass
class Match:
    id: int
    chat_id: int
    thread_id: int
    game: str
    options: dict[str, Any]
    status: str
    creator_id: int
    version: int = 0
    # Never changed in place: engines return a new state (``apply`` is pure), so copies of a
    # match share it. Its ``log`` (append-only, entries never changed) is stored as events.
    state: dict[str, Any] | None = None
    turn_seconds: int = 0  # move time limit; 0 = none
    ends_at: float | None = None  # a timed match's end (the engine is told when it passes)
    last_mover: int | None = None  # the seat whose own press made the latest move
    title: str = ""  # the group's title, to tell matches apart in private chats
    rematch_of: int | None = None  # a rematch lobby: the finished match whose players manage it
    # played in an inline message (inline mode: a chat the bot is not in), edited by this id;
    # ``chat_id`` is then the chat's stand-in (``INLINE_CHATS``)
    inline_message_id: str | None = None
    # a tournament's match (its table is drawn in the tournament's message, not as a board):
    # the tournament its end is reported to
    tournament_id: int | None = None
    seats: list[Seat] = field(default_factory=list)
    created_at: float = 0.0
    updated_at: float = 0.0
    # -- display (saved by the publisher) --
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    board_print: str | None = None  # fingerprint of the board as last drawn
    # phone-screen rows of the bot's news posted below the board (a board that holds its
    # news, in an inline message: where in the log that news starts)
    board_below: int = 0
    announced: int = 0  # how many log events have been announced in the group
    published: int = 0  # the last version the group has been shown
    # -- storage's own bookkeeping --
    logged: int = field(default=0, repr=False, compare=False)  # log entries already stored
    # the database's count of writes to the match's rows when this copy was read or written
    # (PostgreSQL keeps it, for several workers: a cached copy at the count the database
    # still holds is fresh); None: not known
    revision: int | None = field(default=None, repr=False, compare=False)

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_ai]

    @property
    def inline(self) -> bool:
        """Played in an inline message, in a chat the bot cannot write to."""
        return self.inline_message_id is not None

    @property
    def practice(self) -> bool:
        """Played in a player's private chat with the bot (chat ids of users are
        positive, of groups negative): a practice match against AI seats."""
        return self.chat_id > 0


DISPLAY_MATCH_FIELDS = ("lobby_message_id", "board_message_id", "board_print", "board_below",
                        "announced", "published")  # fmt: skip


def _shallow(value):
    """A new object with the same attributes (the dataclasses' fields), without the cost of
    ``dataclasses.replace`` (which runs ``__init__`` again)."""
    copied = object.__new__(type(value))
    copied.__dict__.update(value.__dict__)
    return copied


def copy_match(match: Match) -> Match:
    """An independent copy: the cache hands out copies, so a handler that changes a match and
    then fails to save it never corrupts what others read. The state is shared (it is never
    changed in place); seats, options and drafts are copied."""
    copied = _shallow(match)
    copied.options = dict(match.options)
    copied.seats = [_shallow(seat) for seat in match.seats]
    for seat in copied.seats:
        if seat.draft is not None:
            seat.draft = clone(seat.draft)
    return copied


@dataclass
class User:
    user_id: int
    name: str
    lang: str | None  # chosen with /language
    can_message: bool
    telegram_lang: str | None = None  # the language of their Telegram app


@dataclass
class Notice:
    id: int
    key: str
    params: dict[str, Any]
