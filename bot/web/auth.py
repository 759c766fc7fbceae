"""Who is asking: the table app's requests carry Telegram's signed launch data (``initData``,
in ``Authorization: tma <initData>``), checked here on every request as Telegram documents
(core.telegram.org/bots/webapps, "Validating data received via the Mini App").

The data is a query string whose ``hash`` is HMAC-SHA256 of the other fields — sorted by
name, ``name=value`` a line — under a key that is itself HMAC-SHA256 of the bot token keyed
with ``WebAppData``. The hash is compared in constant time, and ``auth_date`` must be at most
24 hours old and not in the future (a minute's difference between clocks allowed). The user
comes from this data alone: nothing else a request says names them.

Once the hash checks, the fields are read into typed models (:class:`LaunchData`,
:class:`WebUser`): an id is a JSON integer in range (not a float, a string, ``Infinity`` or
a number past 2^63), a name or language a string, the whole JSON shallow; anything else is
refused like a forged hash, never a fault of the bot.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Annotated
from urllib.parse import parse_qsl, urlencode

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

SCHEME = "tma"  # the Mini Apps convention: Authorization: tma <initData>
MAX_AGE_SECONDS = 24 * 3600
CLOCK_LEEWAY_SECONDS = 60  # Telegram's clock and ours may differ a little
MAX_INIT_DATA = 4096  # bytes: Telegram's launch data is a few hundred
MAX_ID = 2**63 - 1  # Telegram's ids fit a signed 64-bit integer (the database's too)

Text = Annotated[str, StringConstraints(max_length=256)]


class Refused(Exception):
    """The request does not prove who sent it: missing, malformed, forged or too old. The
    ``reason`` says which for the person who sees it (``missing``: no launch data, the page
    opened outside Telegram; ``expired``: more than a day old; ``bad``: anything else); the
    message says it for the log."""

    def __init__(self, message: str, reason: str = "bad") -> None:
        super().__init__(message)
        self.reason = reason


class TelegramUser(BaseModel):
    """The launch data's ``user`` field: the Telegram user who opened the app."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")

    id: int = Field(gt=0, le=MAX_ID)
    first_name: Text = ""
    language_code: Annotated[str, StringConstraints(max_length=35)] | None = None
    username: Text | None = None


class WebUser(TelegramUser):
    """Who asks, and the parameter the app was opened with (``start_param``, from a
    ``startapp`` link)."""

    start_param: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,512}$")] | None = None


class LaunchData(BaseModel):
    """The signed fields the bot reads, as the query string carries them: when Telegram
    signed them, whom they name (JSON), and the ``startapp`` parameter."""

    model_config = ConfigDict(strict=True, extra="ignore")

    auth_date: Annotated[str, StringConstraints(pattern=r"^[0-9]{1,12}$")]
    user: str
    start_param: str | None = None

    def person(self) -> WebUser:
        # pydantic's JSON parser bounds the depth: a deeply nested value is a validation
        # error, not a RecursionError
        user = TelegramUser.model_validate_json(self.user)
        return WebUser(**user.model_dump(), start_param=self.start_param)


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
        raise Refused("no Authorization header", "missing")
    scheme, _, raw = header.partition(" ")
    if scheme.lower() == SCHEME and not raw.strip():
        raise Refused("no initData", "missing")
    if scheme.lower() != SCHEME or not raw:
        raise Refused(f"Authorization must be '{SCHEME} <initData>'")
    return check_init_data(raw.strip(), token, now)


def claimed_language(header: str | None) -> str | None:
    """The language the launch data of a refused request names, unchecked: only to choose
    the words of its refusal (nothing else is read from data that does not check)."""
    raw = (header or "").partition(" ")[2].strip()
    if not raw or len(raw) > MAX_INIT_DATA:
        return None
    try:
        user = json.loads(dict(parse_qsl(raw)).get("user", "null"))
    except (ValueError, RecursionError):  # not a query string, its user not JSON, too deep
        return None
    language = user.get("language_code") if isinstance(user, dict) else None
    return language if isinstance(language, str) and len(language) <= 35 else None


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
        data = LaunchData.model_validate(fields)
        person = data.person()
    except ValidationError as error:
        where = ".".join(str(part) for part in error.errors()[0]["loc"]) or "user"
        raise Refused(f"initData's {where} is missing or malformed") from None
    auth_date = int(data.auth_date)
    if now - auth_date > MAX_AGE_SECONDS:
        raise Refused("initData is older than 24 hours", "expired")
    if auth_date > now + CLOCK_LEEWAY_SECONDS:
        raise Refused("initData is dated in the future")
    return person


def signed_init_data(token: str, user: dict, auth_date: int, **extra: str) -> str:
    """Launch data as Telegram signs it, for the tests and the bench (a Telegram client
    makes the real ones)."""
    fields = {"auth_date": str(auth_date), "user": json.dumps(user, separators=(",", ":"))}
    fields.update(extra)
    return urlencode({**fields, "hash": signature(fields, token)})
