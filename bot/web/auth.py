"""Who is asking: the table app's requests carry Telegram's signed launch data (``initData``,
in ``Authorization: tma <initData>``), checked here on every request as Telegram documents
(core.telegram.org/bots/webapps, "Validating data received via the Mini App").

The data is a query string whose ``hash`` is HMAC-SHA256 of the other fields — sorted by
name, ``name=value`` a line — under a key that is itself HMAC-SHA256 of the bot token keyed
with ``WebAppData``. The hash is compared in constant time, and ``auth_date`` must be at most
24 hours old and not in the future (a minute's difference between clocks allowed). The user
comes from this data alone: nothing else a request says names them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

SCHEME = "tma"  # the Mini Apps convention: Authorization: tma <initData>
MAX_AGE_SECONDS = 24 * 3600
CLOCK_LEEWAY_SECONDS = 60  # Telegram's clock and ours may differ a little
MAX_INIT_DATA = 4096  # bytes: Telegram's launch data is a few hundred


class Refused(Exception):
    """The request does not prove who sent it: missing, malformed, forged or too old."""


@dataclass(frozen=True)
class WebUser:
    """The Telegram user the launch data names."""

    id: int
    first_name: str
    language_code: str | None
    username: str | None
    start_param: str | None = None  # a startapp link's parameter (bot.web.start_param)


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{name}={value}" for name, value in sorted(fields.items()))


def signature(fields: dict[str, str], token: str) -> str:
    return hmac.new(
        secret_key(token), data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()


def user_of(header: str | None, token: str, now: float) -> WebUser:
    """The user an ``Authorization`` header's launch data names, once checked."""
    if not header:
        raise Refused("no Authorization header")
    scheme, _, raw = header.partition(" ")
    if scheme.lower() != SCHEME or not raw:
        raise Refused(f"Authorization must be '{SCHEME} <initData>'")
    return check_init_data(raw.strip(), token, now)


def check_init_data(raw: str, token: str, now: float) -> WebUser:
    if len(raw) > MAX_INIT_DATA:
        raise Refused("initData too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Refused("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Refused("initData names a field twice")
    given = fields.pop("hash", "")
    if not hmac.compare_digest(signature(fields, token).encode(), given.encode()):
        raise Refused("initData's hash does not match")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        person = WebUser(
            id=int(user["id"]),
            first_name=str(user.get("first_name", "")),
            language_code=user.get("language_code"),
            username=user.get("username"),
            start_param=fields.get("start_param"),
        )
    except (KeyError, ValueError, TypeError):
        raise Refused("initData lacks auth_date or user") from None
    if now - auth_date > MAX_AGE_SECONDS:
        raise Refused("initData is older than 24 hours")
    if auth_date > now + CLOCK_LEEWAY_SECONDS:
        raise Refused("initData is dated in the future")
    return person


def signed_init_data(token: str, user: dict, auth_date: int, **extra: str) -> str:
    """Launch data as Telegram signs it, for the tests and the bench (a Telegram client
    makes the real ones)."""
    fields = {"auth_date": str(auth_date), "user": json.dumps(user, separators=(",", ":"))}
    fields.update(extra)
    return urlencode({**fields, "hash": signature(fields, token)})
