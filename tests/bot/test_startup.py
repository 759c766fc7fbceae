"""``python -m bot`` refuses what cannot work — settings, a token, the database — with one
clear line and a non-zero exit, never a traceback and never a changed database; and a
webhook never accepts an update without the secret."""

from __future__ import annotations

import json
import re
import socket
import sqlite3

import httpx
import pytest

from bot.settings import Settings
from bot.storage.migrations.sqlite import MIGRATIONS
from bot.storage.sqlite import SQLiteStorage
from bot.testing.driver import Driver
from bot.testing.fake_server import free_port
from bot.testing.fake_telegram import Fault
from tests.bot.conftest import GROUP, MALLORY
from tests.bot.process import BotProcess, run_to_exit, until, without_write_override

TOKEN = "123456:STARTUP-TEST"


# a failed test's bot process never outlives it (the fixtures are in conftest.py)
pytestmark = pytest.mark.usefixtures("no_bot_left_running")


def env_for(server, db_path, **extra) -> dict[str, str]:
    return {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": server.url,
        "DATABASE_PATH": str(db_path),
        "RATE_LIMIT": "false",
        **extra,
    }


def assert_one_clear_line(status: int, stderr: str, *phrases: str) -> None:
    assert status != 0
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


# -- the token and other settings ------------------------------------------------------------


async def test_a_missing_token_says_where_to_put_it(server, tmp_path):
    env = env_for(server, tmp_path / "bot.sqlite3")
    del env["TELEGRAM_BOT_TOKEN"]
    status, stderr = await run_to_exit(env, cwd=tmp_path)  # no .env there either
    assert_one_clear_line(
        status, stderr, "TELEGRAM_BOT_TOKEN is not set", "run `cp .env.example .env`, then put"
    )
    (tmp_path / ".env").write_text("DEFAULT_LANGUAGE=it\n")  # a .env without the token
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(
        status, stderr, "TELEGRAM_BOT_TOKEN is not set: add the line", ".env.example"
    )
    assert not server.api.calls  # nothing was tried


@pytest.mark.parametrize(
    ("token", "phrase"),
    [
        ("replace-me", "does not look like a bot token"),
        ("123456:has spaces in it", "does not look like a bot token"),
        ("123456789:replace-with-your-token", "is still the example value from .env.example"),
    ],
)
async def test_a_malformed_token_is_refused_before_any_network_call(
    server, tmp_path, token, phrase
):
    env = env_for(server, tmp_path / "bot.sqlite3", TELEGRAM_BOT_TOKEN=token)
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(status, stderr, "TELEGRAM_BOT_TOKEN", phrase, "@BotFather", ".env")
    assert not re.search(r"\([^)]*\(", stderr), stderr  # one clean sentence, no nested asides
    assert token not in stderr  # a secret is never echoed
    assert not server.api.calls


async def test_a_token_telegram_rejects_is_one_line_too(server, tmp_path):
    server.api.faults.append(Fault("getMe", 401, "Unauthorized"))
    status, stderr = await run_to_exit(env_for(server, tmp_path / "bot.sqlite3"), cwd=tmp_path)
    assert_one_clear_line(
        status, stderr, "Telegram rejected TELEGRAM_BOT_TOKEN", server.url, "@BotFather"
    )


async def test_telegram_out_of_reach_at_start_up_is_one_line_naming_the_address(server, tmp_path):
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    env = env_for(server, tmp_path / "bot.sqlite3", TELEGRAM_API_URL=closed)
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(
        status,
        stderr,
        f"Telegram's Bot API at {closed} could not be reached",
        "check this machine's internet connection",
        "TELEGRAM_API_URL",
    )
    assert "123456:STARTUP-TEST" not in stderr


async def test_telegram_silent_at_start_up_is_one_line_too(server, tmp_path):
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"http://127.0.0.1:{silent.getsockname()[1]}"
        env = env_for(server, tmp_path / "bot.sqlite3", TELEGRAM_API_URL=address)
        status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(
        status,
        stderr,
        f"Telegram's Bot API at {address} did not answer in time",
        "TELEGRAM_API_URL",
    )


async def test_an_invalid_webhook_secret_is_refused_at_start_up(server, tmp_path):
    env = env_for(
        server,
        tmp_path / "bot.sqlite3",
        WEBHOOK_URL="https://bots.example.com",
        WEBHOOK_SECRET="not/allowed here",
    )
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(status, stderr, "WEBHOOK_SECRET", "1 to 256 characters", "_ and -")
    assert not server.api.calls


@pytest.mark.parametrize(
    "url", ["http://tables.example.com", "ftp://127.0.0.1", "tables.example.com", "https://"]
)
async def test_a_table_app_address_that_is_not_https_stops_the_start_in_one_line(
    server, tmp_path, url
):
    env = env_for(server, tmp_path / "bot.sqlite3", WEB_APP_URL=url)
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(status, stderr, "WEB_APP_URL must be an https:// address", "127.0.0.1")
    assert not server.api.calls


def test_the_table_app_takes_https_and_plain_http_only_on_the_loopback():
    def settings(url: str | None) -> Settings:
        return Settings(telegram_bot_token="1:x", web_app_url=url, _env_file=None)

    assert settings("https://tables.example.com/").web_app_url == "https://tables.example.com"
    assert settings("http://127.0.0.1:8080").web_app_url == "http://127.0.0.1:8080"
    assert settings("http://localhost:8080").web_app_url == "http://localhost:8080"
    assert settings("").web_app_url is None and settings(None).web_app_url is None
    # the app needs the bot's web server: on PORT, or a polling bot's HEALTH_PORT
    assert settings(None).web_port() is None
    assert settings("https://t.example.com").web_port() == 8080
    polling = Settings(
        telegram_bot_token="1:x",
        web_app_url="https://t.example.com",
        health_port=9090,
        _env_file=None,
    )
    assert polling.web_port() == 9090


def test_the_derived_webhook_secret_is_stable_valid_and_unguessable_without_the_token():
    def secret(token: str, configured: str | None = None) -> str:
        return Settings(
            telegram_bot_token=token, webhook_secret=configured, _env_file=None
        ).webhook_secret_token()

    derived = secret(TOKEN)
    assert derived == secret(TOKEN)  # the same after every restart
    assert derived != secret("123456:ANOTHER-TOKEN") and TOKEN.split(":")[1] not in derived
    assert 32 <= len(derived) <= 256 and derived.isalnum()
    assert secret(TOKEN, "") == derived  # an empty WEBHOOK_SECRET means "derive one"
    assert secret(TOKEN, "my_own-Secret") == "my_own-Secret"


# -- a database the bot cannot use -----------------------------------------------------------


async def real_database(path) -> None:
    """A database as the bot leaves it: one lobby, closed cleanly."""
    storage = SQLiteStorage(path)
    await storage.open()
    await storage.create_lobby(GROUP, 0, "5211", {"match_target": 0}, 7, "Game Night")
    await storage.close()


async def newer_schema(path) -> None:
    await real_database(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 3}")


async def corrupt(path) -> None:
    path.write_bytes(bytes(range(256)) * 40)


async def truncated(path) -> None:
    await real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


async def read_only_file(path) -> None:
    await real_database(path)
    path.chmod(0o444)


async def read_only_folder(path) -> None:
    await real_database(path)
    path.parent.chmod(0o555)


BROKEN = {
    "newer": (newer_schema, ("newer version of the bot", f"schema {len(MIGRATIONS) + 3}")),
    "corrupt": (corrupt, ("not a usable SQLite database", "restore it from a backup")),
    "truncated": (truncated, ("not a usable SQLite database", "malformed")),
    "read-only file": (read_only_file, ("read-only", "let the bot's user write to it")),
    "read-only folder": (read_only_folder, ("folder is read-only", "DATABASE_PATH")),
}


@pytest.mark.parametrize("case", list(BROKEN))
async def test_a_database_the_bot_cannot_use_is_named_in_one_line_and_left_unchanged(
    server, tmp_path, case
):
    make, phrases = BROKEN[case]
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "bot.sqlite3"
    await make(path)
    before = path.read_bytes()
    files_before = sorted(p.name for p in folder.iterdir())
    try:
        status, stderr = await run_to_exit(
            env_for(server, path), cwd=tmp_path, prefix=without_write_override()
        )
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)
    assert_one_clear_line(status, stderr, str(path.parent), *phrases)
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == files_before
    assert not [method for method, _ in server.api.calls if method != "getMe"]


# -- the webhook -----------------------------------------------------------------------------


def forged_update(driver: Driver) -> dict:
    return driver.message_update(MALLORY, GROUP, "/new 5211")


async def post(port: int, update: dict, secret: str | None) -> int:
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
    async with httpx.AsyncClient() as client:
        response = await client.post(
            f"http://127.0.0.1:{port}/{TOKEN.split(':')[0]}",
            content=json.dumps(update),
            headers={"Content-Type": "application/json", **headers},
        )
    return response.status_code


async def test_the_webhook_refuses_updates_without_the_secret_when_none_is_configured(
    server, tmp_path
):
    port = free_port()
    db_path = tmp_path / "bot.sqlite3"
    bot = BotProcess(
        server,
        db_path,
        TELEGRAM_BOT_TOKEN=TOKEN,
        WEBHOOK_URL="https://bots.example.com",
        WEBHOOK_SECRET="",
        PORT=str(port),
    )
    driver = Driver(application=None, api=server.api)  # type: ignore[arg-type]
    driver.group(GROUP, "Game Night")
    await bot.start(ready="setWebhook")
    try:
        (registered,) = [params for m, params in server.api.calls if m == "setWebhook"]
        secret = registered["secret_token"]
        assert registered["url"] == "https://bots.example.com/123456" and len(secret) >= 32
        sent = len(server.api.calls)
        await until(lambda: _listening(port), what="the webhook server")
        assert await post(port, forged_update(driver), None) == 403
        assert await post(port, forged_update(driver), "guessed-secret") == 403
        assert await post(port, forged_update(driver), secret[:-1]) == 403
        with sqlite3.connect(db_path) as db:
            assert db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 0
        assert [m for m, _ in server.api.calls[sent:] if m == "sendMessage"] == []
        # Telegram's own requests carry the secret and are handled
        assert await post(port, forged_update(driver), secret) == 200
        await until(
            lambda: any(m == "sendMessage" for m, _ in server.api.calls[sent:]),
            what="the bot to answer Telegram's update",
        )
    finally:
        await bot.terminate()
    # the same secret after a restart: Telegram keeps sending the one it was given
    await bot.start(ready="setWebhook")
    try:
        secrets = [params["secret_token"] for m, params in server.api.calls if m == "setWebhook"]
        assert secrets == [secret, secret]
    finally:
        await bot.terminate()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
