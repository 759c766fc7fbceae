"""Never two serving instances, whatever happens to the lock under a running bot: real
``python -m bot`` processes on one database and one (fake) Telegram.

A PostgreSQL restart (a managed database's maintenance, a failover) ends the session that
held the advisory lock; a deleted lock file frees SQLite's. The running instance takes its
lock again within seconds, so an instance started next waits; if another instance got the
lock first, the running one stops serving and exits non-zero (the platform then starts it
again, as a waiting instance)."""

from __future__ import annotations

import asyncio
import fcntl
import os
import random

import asyncpg
import pytest

from bot.storage.postgres import INSTANCE_LOCK_KEY
from bot.storage.sqlite import lock_path
from bot.testing.driver import FakeUser
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.databases import Database, Look, PostgresServer
from tests.bot.process import BotProcess, until
from tests.bot.test_handover import (
    PLAYERS,
    TAKING_OVER,
    WAITING,
    logged,
    play_a_round,
    start_5211,
)
from tests.bot.test_process import REFUSALS, answered, assert_each_answered_move_committed_once

pytestmark = pytest.mark.usefixtures("no_bot_left_running")

TOOK_IT_AGAIN = "took it again"
STOPS_SERVING = "this one stops serving"
STARTED = "Application started"  # PTB's line once it serves


def live_prompts(api: FakeTelegram, player: FakeUser) -> int:
    """Messages with buttons in a player's private chat: one prompt, unless two instances
    drew it."""
    return sum(1 for message in api.visible(player.id) if message.buttons())


def drop_lock_under(database: Database, postgres: PostgresServer | None) -> None:
    """What the platform does to a running instance's lock: the database restarts, or the
    lock file is deleted."""
    if postgres is not None:
        postgres.restart()
    else:
        os.unlink(lock_path(database.path))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_lock_dropped_under_a_running_instance_is_taken_again_and_the_next_one_waits(
    server, database, request
):
    postgres = request.getfixturevalue("postgres_server") if database.url else None
    rng = random.Random(11)
    first = BotProcess(server, database, log="first.log", LOG_LEVEL="INFO")
    second = BotProcess(server, database, log="second.log", LOG_LEVEL="INFO")
    await first.start()
    driver = await start_5211(server.api)
    look = Look(database)
    pressed: list = []
    await play_a_round(driver, look, rng, pressed)
    look.close()

    drop_lock_under(database, postgres)
    look = Look(database)  # a restart ended the old connection
    before = len(pressed)
    while not any(answered(server.api, q) not in REFUSALS for q, _, _ in pressed[before:]):
        await play_a_round(driver, look, rng, pressed)  # until the database answers again
    await second.start(ready=None)  # the next deploy's instance
    await until(
        lambda: logged(second, WAITING) or logged(second, STARTED),
        what="the second instance to wait or to start",
    )
    assert logged(second, WAITING) and not logged(second, STARTED)
    assert logged(first, TOOK_IT_AGAIN)

    for _ in range(3):  # the first plays on alone: one prompt per player, each press once
        await play_a_round(driver, look, rng, pressed)
        await until(  # a prompt being replaced settles; one that two instances drew stays
            lambda: all(live_prompts(server.api, player) == 1 for player in PLAYERS),
            what="one live prompt per player",
        )
    assert not logged(second, TAKING_OVER)
    assert first.process.returncode is None

    await first.terminate()  # the second was really waiting on the same lock
    await until(lambda: logged(second, TAKING_OVER), what="the second instance to take over")
    await play_a_round(driver, look, rng, pressed)
    await second.terminate()
    assert_each_answered_move_committed_once(server.api, look, pressed)
    look.close()


async def hold_postgres_lock_instead(url: str) -> asyncpg.Connection:
    """Another instance gets the lock between the restart and the first one's retake: its
    session is ended and the lock taken at once, from here."""
    connection = await asyncpg.connect(url)
    holder = await connection.fetchval(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND classid::bigint = $1 AND objid::bigint = $2",
        INSTANCE_LOCK_KEY >> 32,
        INSTANCE_LOCK_KEY & 0xFFFFFFFF,
    )
    await connection.fetchval("SELECT pg_terminate_backend($1)", holder)
    await connection.fetchval("SELECT pg_advisory_lock($1)", INSTANCE_LOCK_KEY)
    return connection


def hold_sqlite_lock_instead(database: Database) -> int:
    """Another instance replaced the lock file and locked the new one."""
    path = lock_path(database.path)
    os.unlink(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_instance_whose_lock_another_took_stops_serving_and_exits_non_zero(
    server, database
):
    bot = BotProcess(server, database, LOG_LEVEL="INFO")
    await bot.start()
    driver = await start_5211(server.api)
    if database.url:
        holder = await hold_postgres_lock_instead(database.url)
    else:
        fd = hold_sqlite_lock_instead(database)
    try:
        await asyncio.wait_for(bot.process.wait(), 15)
        assert bot.process.returncode not in (0, None)
        log = bot.log.read_text()
        assert STOPS_SERVING in log and "another instance took over the database" in log
        # a press after the loss is answered by nobody: nothing was served beside the holder
        polls = sum(1 for method, _ in server.api.calls if method == "getUpdates")
        await asyncio.sleep(1.5)
        assert sum(1 for method, _ in server.api.calls if method == "getUpdates") == polls
        assert driver.api is server.api
    finally:
        if database.url:
            await holder.close()
        else:
            os.close(fd)
