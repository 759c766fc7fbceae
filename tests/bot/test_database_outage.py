"""A PostgreSQL server that hangs (a frozen host, a network partition: every server process
stopped with SIGSTOP) under a real ``python -m bot``: presses are answered within seconds
with "the storage is not answering, no move was made", the bot plays on once the server
answers again, no answered move is lost, and SIGTERM during the outage stops the bot well
within a PaaS's 30 s."""

from __future__ import annotations

import random
import time

import pytest

from bot.presentation.i18n import translator
from tests.bot.conftest import GROUP
from tests.bot.databases import Look
from tests.bot.process import BotProcess, until
from tests.bot.test_handover import PLAYERS, play_a_round, queue_presses, start_5211
from tests.bot.test_process import REFUSALS, answered, assert_each_answered_move_committed_once

pytestmark = pytest.mark.usefixtures("no_bot_left_running")

STORAGE_DOWN = translator("en")("error.storage")
OUTAGE = (translator("en")("outage.started"), translator("en")("outage.over"))
ANSWER_WITHIN = 8.0  # Telegram drops an answer after about 15 s
STOP_WITHIN = 20.0  # a PaaS sends SIGKILL about 30 s after SIGTERM


@pytest.mark.parametrize("backend", ["postgres"])
async def test_presses_during_a_hung_database_are_answered_and_nothing_is_lost(
    server, database, postgres_server
):
    rng = random.Random(5)
    bot = BotProcess(server, database, LOG_LEVEL="INFO")
    await bot.start()
    driver = await start_5211(server.api)
    look = Look(database)
    pressed: list = []
    await play_a_round(driver, look, rng, pressed)

    presses = queue_presses(driver, look, PLAYERS, rng)  # read before the server hangs
    look.close()
    with postgres_server.frozen():
        waits = []
        for query, _, _ in presses:
            asked = time.monotonic()
            await until(lambda q=query: answered(server.api, q) is not None, timeout=30)
            waits.append(time.monotonic() - asked)
        assert all(answered(server.api, q) == STORAGE_DOWN for q, _, _ in presses)
        assert max(waits) < ANSWER_WITHIN, waits
        # the group is told once, without asking the database (it does not answer)
        await until(lambda: outage_notices(server.api) == [OUTAGE[0]], what="outage notice")
    pressed.extend(presses)

    look = Look(database)
    before = len(pressed)
    while not any(answered(server.api, q) not in REFUSALS for q, _, _ in pressed[before:]):
        await play_a_round(driver, look, rng, pressed)  # plays on once the server answers
    for _ in range(2):
        await play_a_round(driver, look, rng, pressed)
    await until(lambda: outage_notices(server.api) == [OUTAGE[1]], what="the notice: back")

    with postgres_server.frozen():  # a deploy's SIGTERM while the server hangs
        stopped_in = await bot.terminate()
    assert stopped_in < STOP_WITHIN

    assert_each_answered_move_committed_once(server.api, look, pressed)
    look.close()


def outage_notices(api) -> list[str]:
    return [message.html for message in api.visible(GROUP) if message.html in OUTAGE]
