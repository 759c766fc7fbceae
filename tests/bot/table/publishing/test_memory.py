"""What the bot and the bench keep in memory: bounded however many matches come and go.

A drawing backlog (Telegram takes about 30 calls a second; a busy bot may want more) holds
only as many read matches as there are drawing slots, and the in-memory Bot API, when not
recording (the bench), keeps neither deleted messages nor calls older than a minute."""

from __future__ import annotations

import asyncio

import pytest

from bot.table.host import get_host
from bot.table.publishing import publisher
from bot.testing import fake_telegram
from bot.testing.fake_telegram import FakeTelegram
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


async def send(api: FakeTelegram, chat_id: int, text: str = "hello") -> int:
    status, _ = await api.handle("sendMessage", {"chat_id": chat_id, "text": text})
    assert status == 200
    return max(api.messages[chat_id])


@pytest.mark.parametrize("record", [True, False])
async def test_the_fake_forgets_what_the_bench_never_reads(record, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(fake_telegram.time, "monotonic", lambda: now[0])
    api = FakeTelegram(record=record)
    api.chats[GROUP] = {"id": GROUP, "type": "supergroup", "title": "Game Night"}
    api.chats[GROUP - 1] = {"id": GROUP - 1, "type": "supergroup", "title": "Office"}
    first = await send(api, GROUP)
    for _ in range(4):  # five calls to a group within a minute, then two minutes of quiet
        now[0] += 1
        await send(api, GROUP)
    now[0] += 120
    await send(api, GROUP - 1)
    assert api.peak_group_calls_per_minute() == 5
    if not record:  # the group quiet for a minute is forgotten, its busiest minute is not
        assert list(api._recent) == [GROUP - 1]
    status, _ = await api.handle("deleteMessage", {"chat_id": GROUP, "message_id": first})
    assert status == 200
    # a deleted message answers the same, kept or not
    status, body = await api.handle(
        "editMessageText", {"chat_id": GROUP, "message_id": first, "text": "again"}
    )
    assert status == 400 and b"message to edit not found" in body
    assert (first in api.messages[GROUP]) == record
