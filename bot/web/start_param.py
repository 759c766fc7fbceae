"""The start parameter of a link that opens the table app from the group
(``https://t.me/<bot>?startapp=<parameter>``, with ``WEB_APP_MAIN``): which match it opens,
or which tournament's page (``t`` and its number: the page reads it and asks for the
tournament, whose own route decides who may see it).

Telegram passes the parameter to the app in the signed launch data (``start_param``), so it
is checked with everything else in it (``bot.web.auth``); it only names the match — whether
the asker sits at it, may watch it or is refused is decided as for any other table. Telegram
allows ``A-Z a-z 0-9 _ -`` and at most 64 characters: ``m`` and the match's number."""

from __future__ import annotations

import re

PREFIX = "m"
PARAMETER = re.compile(rf"{PREFIX}([0-9]{{1,18}})")


def encode(match_id: int) -> str:
    return f"{PREFIX}{match_id}"


def decode(parameter: str | None) -> int | None:
    """The match a start parameter names; None for anything else (absent, or not ours)."""
    if parameter is None:
        return None
    found = PARAMETER.fullmatch(parameter)
    return int(found.group(1)) if found else None


TOURNAMENT_PREFIX = "t"


def encode_tournament(tournament_id: int) -> str:
    return f"{TOURNAMENT_PREFIX}{tournament_id}"
