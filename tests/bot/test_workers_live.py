"""Several workers on one PostgreSQL (issue 57): a table app's page connected to one worker
hears, live, a move made through another, within a second — the workers tell one another
through the database's LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import random
import time
from contextlib import AsyncExitStack

import httpx
import pytest

from bot.storage.shared import Shared
from bot.testing.fake_server import free_port
from bot.testing.fake_telegram import FakeTelegram
from tests.bot import play_azul
from tests.bot.conftest import ALICE, BOB, GROUP, running_bot
from tests.bot.databases import Database
from tests.bot.helpers import current_match
from tests.bot.web.conftest import header
from tests.bot.web.test_api import Events

pytestmark = pytest.mark.parametrize("backend", ["postgres"])


async def test_a_page_on_one_worker_hears_a_move_made_through_another_within_a_second_and_reads_it(
    api: FakeTelegram, database: Database
):
    async with AsyncExitStack() as stack:
        drivers, urls = [], []
        for _ in range(2):
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            driver = await stack.enter_async_context(
                running_bot(api, database, one_of_several=True, web_app_url=url, health_port=port)
            )
            drivers.append(driver)
            urls.append(url)
        drivers[1]._update_ids = drivers[0]._update_ids
        first = drivers[0]
        first.group(GROUP, "Game Night")
        await play_azul.start_match(first, ALICE, [ALICE, BOB])
        await first.settle()
        match = await current_match(first)
        heard_after = []
        async with (
            httpx.AsyncClient(base_url=urls[1], timeout=10) as client,
            client.stream("GET", f"/api/tables/{match.id}/live", headers=header(BOB)) as live,
        ):
            events = Events(live)  # Bob's page, on the second worker
            assert await events.next() == [{"version": match.version}]
            # the second worker has the match in its cache (Bob's page read the table)
            table = await client.get(f"/api/tables/{match.id}", headers=header(BOB))
            assert table.json()["version"] == match.version
            rng = random.Random(1)
            for step in range(1, 4):  # three moves in the chat, each through the first
                moved = time.monotonic()
                await play_azul.play_move(first, [ALICE, BOB], rng)
                assert await events.next(timeout=5) == [{"version": match.version + step}]
                heard_after.append(time.monotonic() - moved)
                # the page reads its table on the second worker: the move's, not a copy kept
                table = await client.get(f"/api/tables/{match.id}", headers=header(BOB))
                assert table.json()["version"] == match.version + step
        print(f"heard on the other worker after {max(heard_after) * 1000:.0f} ms at most")
        assert max(heard_after) < 1.0


async def test_a_worker_whose_listening_dropped_reads_its_pages_tables_again(
    api: FakeTelegram, database: Database
):
    """The connection that listens is cut: within a heartbeat the worker listens again and
    tells its pages the versions they missed meanwhile."""
    async with running_bot(api, database, one_of_several=True):  # (the schema)
        pass
    heard: list[tuple[int, int]] = []
    listener, teller = Shared(database.url, name="web.1"), Shared(database.url, name="web.2")
    for shared in (listener, teller):
        await shared.open()
    try:
        read_again = asyncio.Event()

        async def listening_again() -> None:
            heard.append((0, 0))
            read_again.set()

        await listener.hear_tables(lambda m, v: heard.append((m, v)), listening_again)
        await teller.tell_tables(7, 3)
        for _ in range(100):
            if heard:
                break
            await asyncio.sleep(0.01)
        assert heard == [(7, 3)]
        listener._listener.terminate()  # the connection drops
        await asyncio.wait_for(read_again.wait(), 3)  # listening again within a heartbeat
        await teller.tell_tables(7, 4)
        for _ in range(100):
            if (7, 4) in heard:
                break
            await asyncio.sleep(0.01)
        assert heard == [(7, 3), (0, 0), (7, 4)]
    finally:
        for shared in (listener, teller):
            await shared.close()
