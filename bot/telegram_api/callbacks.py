"""Callback data: ``kind:match:token:payload`` — at most 64 bytes, parsed strictly.

The match id and token bind a button to one match and to the moment it was drawn: a press
whose token is no longer current is stale and changes nothing. A selection step (``d``) also
carries the seat's step counter (``token.step``), so a step button from an older version of
the same prompt is stale too. Who pressed is always taken from the update, never from the
data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """Every kind of button the bot makes. Each is handled by exactly one handler, bound to
    it with ``@button(kind)`` or ``@match_button(kind, ...)`` in ``bot.handlers``."""

    ACTION = "a"  # an engine move
    DRAFT = "d"  # a selection step (toggle a card, pick a source, ...)
    NEW_GAME = "ng"  # /new menu: payload = game id
    OPTION = "op"  # lobby: cycle an option, payload = option name
    LEAVE = "lv"
    START = "st"
    CANCEL_LOBBY = "cx"
    ABORT = "ab"  # /cancel of a running match, after confirmation
    LANGUAGE = "lg"  # payload = language code
    PICTURES = "pc"  # the group's boards as pictures: payload = "on" or "off"
    REMATCH = "rm"  # payload = game id, match = the finished match
    RULES = "rl"  # /rules menu: payload = game id; shows the game's summary
    FULL_RULES = "fr"  # under a summary: payload = game id; shows the full rules
    BACK = "bk"  # back from autopilot
    CLOCK = "ck"  # start the clock: payload = the absent seat, token = its token
    ADD_AI = "ai"  # lobby: seat an AI player, payload = its level
    REMOVE_AI = "ar"  # lobby: remove the last AI seat
    HINT = "hn"  # practice prompt: what the normal AI would play, token = the seat's token
    TOP = "tp"  # /top: payload = game id
    HISTORY = "hs"  # /history: match = the ended match
    FORGET = "fg"  # /forget's confirmation: payload = yes or no
    PRACTICE = "pr"  # under /start and /help in private: the game menu of a practice match
    # inline mode: the table a user sent through the bot, before its first press (the bot
    # learns its message then): payload = game, creator and their seal (``bot.table.place``)
    INLINE_OPEN = "io"
    INLINE_JOIN = "ij"  # an inline lobby's Join: the presser takes a seat
    TOURNAMENT_GAME = "tg"  # /tournament's game menu: payload = game id
    # a tournament's buttons: match = the tournament, payload = what to do (leave, start, an
    # option of its lobby, stop, keep, withdraw)
    TOURNAMENT = "tn"
    LEARN = "le"  # the lessons' menu: payload = game id (empty: show the menu)
    TUTORIAL = "tu"  # a lesson's button: token = its step, payload = game-verb+argument


MAX_BYTES = 64


class BadCallback(ValueError):
    """Callback data this bot did not make (forged, truncated, or from an old version)."""


@dataclass(frozen=True)
class Callback:
    kind: Kind
    match_id: int = 0
    token: int = 0
    payload: str = ""
    step: int | None = None  # selection steps only: the seat's draft step when drawn

    def encode(self) -> str:
        token = str(self.token) if self.step is None else f"{self.token}.{self.step}"
        data = f"{self.kind}:{self.match_id}:{token}:{self.payload}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


def parse(data: str | None) -> Callback:
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallback(data)
    parts = data.split(":", 3)
    if len(parts) != 4 or parts[0] not in _KINDS:
        raise BadCallback(data)
    kind, match_id, token, payload = parts
    token, dot, step = token.partition(".")
    if not (_MATCH_ID.fullmatch(match_id) and _TOKEN.fullmatch(token)):
        raise BadCallback(data)
    if dot and (kind != Kind.DRAFT or not _TOKEN.fullmatch(step)):
        raise BadCallback(data)
    if not _PAYLOAD.fullmatch(payload):
        raise BadCallback(data)
    return Callback(Kind(kind), int(match_id), int(token), payload, int(step) if dot else None)


_KINDS = frozenset(kind.value for kind in Kind)
# ASCII digits only ("³".isdigit() is True, but int("³") fails)
_MATCH_ID = re.compile(r"[0-9]{1,12}")
_TOKEN = re.compile(r"[0-9]{1,9}")
_PAYLOAD = re.compile(r"[A-Za-z0-9._-]*")


def pattern(kind: Kind) -> str:
    """A regex for :class:`telegram.ext.CallbackQueryHandler` selecting one kind."""
    return f"^{kind}:"
