"""Health checks as a platform makes them, against real ``python -m bot`` processes:
``GET /healthz`` answers 200 while the instance serves (it holds the lock, its database
answers) and 503 while it waits for the lock or its database is out; ``/livez`` answers
while the process runs. Polling mode serves them on ``HEALTH_PORT``; webhook mode on
``PORT``, beside the webhook."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from bot.testing.fake_server import free_port
from tests.bot.conftest import ALICE, GROUP
from tests.bot.databases import Database
from tests.bot.process import BotProcess, ProcessDriver, until
from tests.bot.test_handover import TAKING_OVER, WAITING, logged

pytestmark = pytest.mark.usefixtures("no_bot_left_running")


async def health(port: int, path: str = "/healthz") -> tuple[int, dict] | None:
    """(status, answer) of a health check, or None while nothing listens."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"http://127.0.0.1:{port}{path}", timeout=5)
    except httpx.TransportError:
        return None
    return response.status_code, response.json()


async def status(port: int) -> int | None:
    answer = await health(port)
    return answer[0] if answer else None


async def until_status(port: int, wanted: int | None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while (seen := await status(port)) != wanted:
        assert time.monotonic() < deadline, f"health on {port}: {seen}, not {wanted}"
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_health_follows_the_lock_across_a_handover(server, database: Database):
    """The old instance is healthy, the new one (waiting for the lock) is not, until the old
    one stops: then the new one is."""
    old_port, new_port = free_port(), free_port()
    old = BotProcess(server, database, log="old.log", HEALTH_PORT=str(old_port))
    new = BotProcess(server, database, log="new.log", HEALTH_PORT=str(new_port), LOG_LEVEL="INFO")
    await old.start()
    try:
        assert await health(old_port) == (200, {"serving": True, "reason": "serving"})
        await new.start(ready=None)
        await until(lambda: logged(new, WAITING), what="the new instance to wait")
        code, answer = await health(new_port)
        assert code == 503 and "waiting for the instance lock" in answer["reason"]
        assert await health(new_port, "/livez") == (200, {"alive": True})  # alive all the same
        assert await status(old_port) == 200
        await old.terminate()
        await until(lambda: logged(new, TAKING_OVER), what="the new instance to take over")
        await until_status(new_port, 200)
        assert await status(old_port) is None  # the old one is gone, its checks with it
    finally:
        for bot in (old, new):
            if bot.process is not None and bot.process.returncode is None:
                await bot.terminate()


@pytest.mark.parametrize("backend", ["postgres"])
async def test_health_is_503_while_the_database_hangs_and_200_once_it_answers(
    server, database: Database, postgres_server
):
    port = free_port()
    bot = BotProcess(server, database, HEALTH_PORT=str(port))
    await bot.start()
    try:
        assert await status(port) == 200
        with postgres_server.frozen():
            code, answer = await health(port)
            assert code == 503 and "does not answer" in answer["reason"]
        await until_status(port, 200)
    finally:
        await bot.terminate()


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_webhook_mode_answers_health_checks_on_the_webhook_port(server, database: Database):
    port = free_port()
    bot = BotProcess(server, database, WEBHOOK_URL="https://bots.example.com", PORT=str(port))
    await bot.start(ready="setWebhook")
    try:
        await until_status(port, 200)
        assert await health(port, "/livez") == (200, {"alive": True})
    finally:
        await bot.terminate()


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_without_health_port_polling_opens_no_port(server, database: Database, tmp_path):
    """Nothing listens unless asked: a worker on a platform without checks opens no port."""
    port = free_port()
    bot = BotProcess(server, database, PORT=str(port))
    await bot.start()
    try:
        assert await status(port) is None
    finally:
        await bot.terminate()


async def post_update(port: int, update: dict, secret: str) -> int:
    async with httpx.AsyncClient() as client:
        response = await client.post(
            f"http://127.0.0.1:{port}/123456",  # the bot's id, from the test token
            json=update,
            headers={"X-Telegram-Bot-Api-Secret-Token": secret},
        )
    return response.status_code


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_waiting_webhook_instance_listens_and_defers_updates_until_it_serves(
    server, database: Database
):
    """A web process must answer on its port soon after it starts (Heroku kills one that
    does not within a minute). While it waits for the lock it answers health checks with
    503 and Telegram's updates with 503, which Telegram sends again later."""
    webhook = {"WEBHOOK_URL": "https://bots.example.com"}
    old_port, new_port = free_port(), free_port()
    old = BotProcess(server, database, log="old.log", PORT=str(old_port), **webhook)
    new = BotProcess(
        server, database, log="new.log", PORT=str(new_port), LOG_LEVEL="INFO", **webhook
    )
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await old.start(ready="setWebhook")
    try:
        (registered,) = [p for m, p in server.api.calls if m == "setWebhook"]
        secret = registered["secret_token"]
        await new.start(ready=None)
        await until(lambda: logged(new, WAITING), what="the new instance to wait")
        assert await status(new_port) == 503
        update = driver.message_update(ALICE, GROUP, "/help")
        assert await post_update(new_port, update, secret) == 503
        assert await post_update(new_port, update, "wrong") == 403
        await old.terminate()
        await until_status(new_port, 200)
        sent = len(server.api.calls)
        assert await post_update(new_port, update, secret) == 200  # Telegram's retry
        await until(
            lambda: any(m == "sendMessage" for m, _ in server.api.calls[sent:]),
            what="the new instance to answer the update",
        )
    finally:
        for bot in (old, new):
            if bot.process is not None and bot.process.returncode is None:
                await bot.terminate()
