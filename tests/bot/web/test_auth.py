"""Launch data checked as Telegram documents it: the HMAC under the key derived from the bot
token, compared in constant time, at most 24 hours old and not from the future; the user
named by nothing else."""

from __future__ import annotations

import hmac
import json
import time
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.web import auth
from bot.web.auth import Refused, check_init_data, signed_init_data, user_of

TOKEN = "123456:TEST-TOKEN"
NOW = 1_800_000_000
ALICE = {"id": 101, "first_name": "Alice", "language_code": "it", "username": "alice"}


def test_launch_data_signed_with_the_bot_token_names_its_user():
    user = check_init_data(signed_init_data(TOKEN, ALICE, NOW - 60), TOKEN, NOW)
    assert (user.id, user.first_name, user.language_code, user.username) == (
        101,
        "Alice",
        "it",
        "alice",
    )


def test_the_documented_algorithm_by_hand():
    """secret = HMAC-SHA256(key "WebAppData", token); hash = HMAC-SHA256(key secret, the
    sorted name=value lines): written out here apart from the module's own code."""
    fields = {"auth_date": str(NOW), "query_id": "AAH", "user": json.dumps(ALICE)}
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), "sha256").digest()
    digest = hmac.new(secret, check.encode(), "sha256").hexdigest()
    raw = urlencode({**fields, "hash": digest})
    assert check_init_data(raw, TOKEN, NOW).id == 101


def tampered(raw: str, **changes: str) -> str:
    fields = dict(parse_qsl(raw))
    fields.update(changes)
    return urlencode(fields)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("", "hash"),
        ("not a query string at all", "query string"),
        (signed_init_data("999:OTHER-TOKEN", ALICE, NOW), "hash"),  # another bot's data
        (tampered(signed_init_data(TOKEN, {**ALICE}, NOW), user=json.dumps({"id": 666})), "hash"),
        (tampered(signed_init_data(TOKEN, ALICE, NOW), hash="0" * 64), "hash"),
        (signed_init_data(TOKEN, ALICE, NOW - 24 * 3600 - 1), "older than 24 hours"),
        (signed_init_data(TOKEN, ALICE, NOW + 3600), "future"),
        (signed_init_data(TOKEN, ALICE, NOW) + "&auth_date=1", "twice"),
        ("x" * 5000, "too long"),
    ],
    ids=["empty", "garbage", "other bot", "another user", "zero hash", "expired", "future",
         "field twice", "huge"],
)  # fmt: skip
def test_forged_expired_and_malformed_launch_data_is_refused(raw, why):
    with pytest.raises(Refused, match=why):
        check_init_data(raw, TOKEN, NOW)


def test_a_minute_of_clock_difference_is_allowed_not_more():
    assert check_init_data(signed_init_data(TOKEN, ALICE, NOW + 30), TOKEN, NOW).id == 101
    with pytest.raises(Refused):
        check_init_data(
            signed_init_data(TOKEN, ALICE, NOW + auth.CLOCK_LEEWAY_SECONDS + 1), TOKEN, NOW
        )


def test_signed_data_without_a_user_names_nobody():
    fields = {"auth_date": str(NOW)}
    raw = urlencode({**fields, "hash": auth.signature(fields, TOKEN)})
    with pytest.raises(Refused, match="user"):
        check_init_data(raw, TOKEN, NOW)


@pytest.mark.parametrize("header", [None, "", "tma", "Bearer abc", "Basic dG1hOng="])
def test_the_header_must_be_tma_and_the_data(header):
    with pytest.raises(Refused):
        user_of(header, TOKEN, NOW)


def test_the_comparison_is_constant_time(monkeypatch):
    compared = []
    real = hmac.compare_digest
    monkeypatch.setattr(auth.hmac, "compare_digest", lambda a, b: compared.append(1) or real(a, b))
    with pytest.raises(Refused):
        check_init_data(tampered(signed_init_data(TOKEN, ALICE, NOW), hash="ab" * 32), TOKEN, NOW)
    assert compared == [1]


def test_launch_data_with_start_param_is_checked_like_the_rest():
    now = int(time.time())
    user = {"id": 101, "first_name": "Alice"}
    fine = signed_init_data(TOKEN, user, now, start_param="m42")
    assert check_init_data(fine, TOKEN, now).start_param == "m42"
    with pytest.raises(Refused, match="start_param"):
        check_init_data(signed_init_data(TOKEN, user, now, start_param="m 42/.."), TOKEN, now)


@pytest.mark.parametrize(
    "user",
    [
        '{"id":Infinity}', '{"id":18446744073709551616}', '{"id":101.5}', '{"id":"101"}',
        '{"id":0}', '{"id":101,"language_code":["en"]}', '{"id":101,"first_name":7}',
        '{"id":' + "[" * 650 + "]" * 650 + "}", "[]", "null", "{",
    ],
)  # fmt: skip
def test_an_odd_user_is_refused_even_when_signed(user):
    fields = {"auth_date": str(NOW), "user": user}
    raw = urlencode({**fields, "hash": auth.signature(fields, TOKEN)})
    with pytest.raises(Refused, match="malformed"):
        check_init_data(raw, TOKEN, NOW)


@pytest.mark.parametrize("auth_date", ["1_800_000_000", " 1800000000", "1e9", "9" * 20, "-1"])
def test_an_odd_auth_date_is_refused(auth_date):
    fields = {"auth_date": auth_date, "user": json.dumps(ALICE)}
    raw = urlencode({**fields, "hash": auth.signature(fields, TOKEN)})
    with pytest.raises(Refused, match="auth_date"):
        check_init_data(raw, TOKEN, NOW)
