"""``python -m bot`` with ``DATABASE_URL``: a PostgreSQL database the bot cannot use is named
in one line (never with its password), before any call to Telegram, and left unchanged."""

from __future__ import annotations

import pytest

from bot.storage.migrations.postgres import MIGRATIONS
from tests.bot.conftest import ALICE, GROUP
from tests.bot.databases import Database, Look
from tests.bot.process import BotProcess, ProcessDriver, run_to_exit
from tests.bot.test_startup import assert_one_clear_line, env_for

pytestmark = pytest.mark.usefixtures("no_bot_left_running")


async def fresh_database(postgres_server, tmp_path) -> Database:
    name = await postgres_server.create_database()
    return Database("postgres", tmp_path / "bot.sqlite3", postgres_server.url_of(name))


async def test_a_server_that_cannot_be_reached_is_one_line_without_the_password(server, tmp_path):
    url = "postgresql://bot:s3cret-word@127.0.0.1:1/games"
    env = env_for(server, tmp_path / "bot.sqlite3", DATABASE_URL=url)
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(
        status, stderr, "DATABASE_URL", "cannot connect to PostgreSQL at 127.0.0.1:1/games"
    )
    assert "s3cret-word" not in stderr
    assert not server.api.calls  # nothing else happened


async def test_an_address_that_is_not_postgresql_is_refused_as_a_setting(server, tmp_path):
    env = env_for(server, tmp_path / "bot.sqlite3", DATABASE_URL="mysql://bot@db/games")
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(status, stderr, "DATABASE_URL", "must be a PostgreSQL address")


async def test_a_database_from_a_newer_version_is_one_line_and_left_unchanged(
    server, tmp_path, postgres_server
):
    database = await fresh_database(postgres_server, tmp_path)
    bot = BotProcess(server, database)  # a real database: the bot made it
    await bot.start()
    await bot.terminate()
    look = Look(database)
    look.run("UPDATE schema_version SET version = ?", (len(MIGRATIONS) + 3,))
    tables = look.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    calls = len(server.api.calls)
    env = env_for(server, database.path, DATABASE_URL=database.url)
    status, stderr = await run_to_exit(env, cwd=tmp_path)
    assert_one_clear_line(
        status, stderr, "newer version of the bot", f"schema {len(MIGRATIONS) + 3}"
    )
    assert look.rows("SELECT version FROM schema_version") == [(len(MIGRATIONS) + 3,)]
    assert look.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == tables
    assert len(server.api.calls) == calls
    look.close()


async def test_with_database_url_nothing_goes_to_the_sqlite_file(server, tmp_path, postgres_server):
    database = await fresh_database(postgres_server, tmp_path)
    bot = BotProcess(server, database)
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await driver.send(ALICE, GROUP, "/new 5211")
    await bot.terminate()
    assert not database.path.exists() and not database.path.with_suffix(".sqlite3.lock").exists()
    look = Look(database)
    assert look.rows("SELECT game, status FROM matches") == [("5211", "lobby")]
    look.close()
