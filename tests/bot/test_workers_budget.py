"""Several workers on one PostgreSQL spend one Telegram budget (issue 57): the calls of all
of them together stay within the bot's calls a second and each group's minute, and each
chat has one writer, so a group's board never goes back to an older state.

Telegram's limits are scaled down (``PER_SECOND`` calls a second for the bot, a group's
minute shrunk to ``WINDOW`` seconds) so a busy run takes seconds; the limiter and the
budget shared through the database are the ones the bot runs with."""

from __future__ import annotations

import asyncio
import re
from contextlib import AsyncExitStack
from typing import Any

import pytest
from telegram import Update
from telegram.request import BaseRequest

from bot.storage.shared import Shared
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback
from bot.telegram_api.rate_limit import GROUP_CALLS, TelegramLimits
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from games.core import encode_action
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, OTHER_GROUP, running_bot
from tests.bot.databases import Database
from tests.bot.play5211 import start_game

pytestmark = pytest.mark.parametrize("backend", ["postgres"])

PER_SECOND = 8  # the bot's calls a second, scaled down from Telegram's ~30
WINDOW = 1.0  # a group's minute, shrunk
ENGINE = get_engine("5211")
TABLES = ((GROUP, [ALICE, BOB]), (OTHER_GROUP, [CAROL, DAVE]))
ROUND_PART = re.compile(r"Round (\d+), part (\d+) of 3")


class Tagged(BaseRequest):
    """One worker's line to the shared fake Telegram: it notes which worker made each call."""

    def __init__(self, api: FakeTelegram, worker: int, log: list[tuple[int, str, Any]]) -> None:
        self.api, self.worker, self.log = api, worker, log

    async def initialize(self) -> None:
        await self.api.initialize()

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return self.api.read_timeout

    async def do_request(self, url: str, method: str, request_data=None, **timeouts):
        params = request_data.parameters if request_data is not None else {}
        self.log.append((self.worker, url.rsplit("/", 1)[-1], params.get("chat_id")))
        return await self.api.do_request(url, method, request_data, **timeouts)


def most_in_any_span(times: list[float], span: float) -> int:
    times = sorted(times)
    most = start = 0
    for end, at in enumerate(times):
        while at - times[start] > span:
            start += 1
        most = max(most, end - start + 1)
    return most


async def test_two_workers_calls_together_stay_within_one_budget_and_each_group_has_one_writer(
    api: FakeTelegram, database: Database
):
    """Two 5211 matches whose players press on both workers as fast as they can: the calls
    to Telegram of both workers together keep to the bot's pace and to each group's minute
    (each worker alone would allow as much again), every group's messages come from one
    worker, and its board only moves forward."""
    made_by: list[tuple[int, str, Any]] = []
    async with AsyncExitStack() as stack:
        drivers = []
        for worker in range(2):
            limits = TelegramLimits(window=WINDOW, margin=0.05, overall_per_second=PER_SECOND)
            driver = await stack.enter_async_context(
                running_bot(
                    Tagged(api, worker, made_by),
                    database,
                    limits,
                    one_of_several=True,
                    rate_limit=True,
                )
            )
            driver.api = api
            drivers.append(driver)
        drivers[1]._update_ids = drivers[0]._update_ids
        for worker, (chat, players) in enumerate(TABLES):  # each worker writes to one table
            drivers[0].group(chat, f"Table {chat}")
            await start_game(drivers[worker], chat, players[0], players)
        storage = get_host(drivers[0].app).storage
        api.timeline.clear()
        made_by.clear()
        presses = 0
        for turn in range(12):  # every player presses at once, on one worker or the other
            pressing = []
            for match_id, (_, players) in enumerate(TABLES, start=1):
                storage.forget_match(match_id)
                match = await storage.load(match_id)
                if match.status != "playing":
                    continue
                for seat in sorted(ENGINE.to_act(match.state)):
                    action = ENGINE.legal_actions(match.state, seat)[0]
                    data = Callback(
                        "a", match.id, match.seats[seat].token, encode_action(action)
                    ).encode()
                    driver = drivers[(seat + turn) % 2]
                    update = driver.press_update(players[seat], players[seat].id, 1, data)
                    pressing.append(
                        driver.app.process_update(Update.de_json(update, driver.app.bot))
                    )
            await asyncio.gather(*pressing)
            presses += len(pressing)
            await asyncio.sleep(0.05)
        await asyncio.gather(*(driver.settle() for driver in drivers))
    assert presses >= 40
    limited = [(when, chat) for when, method, chat in api.timeline if chat is not None]
    groups = [when for when, chat in limited if chat < 0]
    # both workers called Telegram, more than a second's budget in all...
    assert {worker for worker, _, _ in made_by} == {0, 1}
    assert len(limited) > 2 * PER_SECOND
    # ...and the two together kept to one bot's: in any span of s seconds at most the burst
    # and s times the pace (one more for the clocks' rounding)
    for span in (1.0, 2.0, 3.0):
        assert most_in_any_span([when for when, _ in limited], span) <= PER_SECOND * (1 + span) + 1
    assert groups and api.peak_group_calls_per_minute(window=WINDOW) <= GROUP_CALLS
    for chat, _ in TABLES:
        writers = {worker for worker, _, to in made_by if to is not None and int(to) == chat}
        assert len(writers) == 1, f"group {chat} was written to by workers {writers}"
        shown = [
            tuple(int(n) for n in ROUND_PART.search(params["text"]).groups())
            for method, params in api.calls
            if method in ("sendMessage", "editMessageText")
            and int(params["chat_id"]) == chat
            and str(params.get("text", "")).startswith("<b>5211</b>\n")
            and ROUND_PART.search(params["text"])
        ]
        assert len(shown) >= 3 and shown == sorted(shown), f"group {chat}'s board went back"


async def test_a_chats_writer_is_handed_drawings_and_a_gone_writers_chats_pass_to_another(
    api: FakeTelegram, database: Database
):
    """Through the database alone: the first worker to draw a chat writes it; another hands
    its drawings over; they count as waiting until drawn; once the writer is gone, what it
    was handed and had not drawn goes to the next worker, which writes the chat from then."""
    async with running_bot(api, database, one_of_several=True):  # (the schema)
        first, second = Shared(database.url, name="web.1"), Shared(database.url, name="web.2")
        for shared in (first, second):
            await shared.open()
    try:
        assert await first.claim_chat(GROUP) == (True, [])
        assert await second.claim_chat(GROUP) == (False, [])
        await second.hand_over(GROUP, "group:1")
        await second.hand_over(GROUP, "group:1")  # (once is enough)
        await second.hand_over(GROUP, "user:1")
        assert await second.take_handed() == []  # not its chat
        assert sorted(await first.take_handed()) == [(GROUP, "group:1"), (GROUP, "user:1")]
        assert await first.handed_waiting() == 1  # taken, not drawn yet
        await first.drawn(GROUP, ["group:1"])
        await second.hand_over(GROUP, "group:2")
        await first.close()  # gone, with user:1 taken and group:2 handed, neither drawn
        assert sorted(await second.take_handed()) == [(GROUP, "group:2"), (GROUP, "user:1")]
        assert await second.claim_chat(GROUP) == (True, [])
        await second.drawn(GROUP, ["group:2", "user:1"])
        assert await second.handed_waiting() == 0
    finally:
        await second.close()
