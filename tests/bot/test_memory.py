"""What the bot keeps in memory: bounded however many matches come and go.

A drawing backlog (Telegram takes about 30 calls a second; a busy bot may want more) holds
only as many read matches as there are drawing slots."""

from __future__ import annotations

import asyncio

from bot import publisher
from bot.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, running_bot
from tests.bot.helpers import prompt, start_match


async def test_a_drawing_backlog_draws_a_slot_at_a_time_and_every_chat_in_the_end(
    api, database, monkeypatch
):
    monkeypatch.setitem(publisher.DRAWING_SLOTS, "user", 1)
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        match = await start_match(driver, "5211", ALICE, [ALICE, BOB, CAROL])
        before = {user.id: prompt(driver, user).message_id for user in (ALICE, BOB, CAROL)}
        # Telegram stalls: every call to a private chat waits until it is let through
        let_through = asyncio.Event()
        in_flight, most = 0, 0
        handle = api.handle

        async def slow(method: str, params: dict, files=None):
            nonlocal in_flight, most
            if int(params.get("chat_id") or 0) > 0:
                in_flight += 1
                most = max(most, in_flight)
                await let_through.wait()
                in_flight -= 1
            return await handle(method, params, files)

        monkeypatch.setattr(api, "handle", slow)
        host = get_host(driver.app)
        for user in (ALICE, BOB, CAROL):  # each asks for the prompt again: three chats
            host.publisher.resend_prompt(match, user.id)
        await asyncio.sleep(0.1)
        stalled = most  # the other two chats wait for the slot, their match not read yet
        let_through.set()
        await host.publisher.idle()
        assert stalled == most == 1
        for user in (ALICE, BOB, CAROL):  # and each got its prompt anew
            assert prompt(driver, user).message_id != before[user.id]
