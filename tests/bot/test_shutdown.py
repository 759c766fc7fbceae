"""A stop that Telegram or the database holds up: the drawings under way get
``STOP_DRAWING_SECONDS`` in all, then the bot goes on stopping (a PaaS kills it about 30 s
after SIGTERM); the next start draws those chats from what the database holds. The same stop
under a hung PostgreSQL server, in a real process: ``test_database_outage``."""

from __future__ import annotations

import asyncio

from telegram import Update

from tests.bot import play5211
from tests.bot.conftest import ALICE, BOB, GROUP, running_bot
from tests.bot.helpers import prompt


async def test_drawings_that_hang_at_a_stop_are_dropped_and_drawn_at_the_next_start(
    api, database, monkeypatch
):
    monkeypatch.setattr("bot.table.publishing.publisher.STOP_DRAWING_SECONDS", 0.2)
    telegram_answers = asyncio.Event()  # set once the test is over: the hung calls end
    answer = api.handle
    held: list[str] = []

    async def hangs_on_messages(method: str, params: dict, files=None):
        if method.startswith(("send", "edit")) and not telegram_answers.is_set():
            held.append(method)
            await telegram_answers.wait()
        return await answer(method, params, files)

    try:
        async with asyncio.timeout(60):  # without the bound, the stop would wait for ever
            async with running_bot(api, database) as driver:
                driver.group(GROUP, "Game Night")
                await play5211.start_game(driver, GROUP, ALICE, [ALICE, BOB])
                await play5211.choose(driver, BOB)
                message, confirm = await play5211.select(driver, ALICE)  # not confirmed yet

                api.handle = hangs_on_messages  # type: ignore[method-assign]
                answered = len(api.answers)
                press = driver.press_update(
                    ALICE, ALICE.id, message.message_id, confirm["callback_data"]
                )
                await driver.app.process_update(Update.de_json(press, driver.app.bot))
                while len(api.answers) == answered or not held:
                    await asyncio.sleep(0.01)  # the press is answered; its drawing is held up
        # the stop dropped them: Alice's chat still offers the choice she made
        assert "part 1 of 3" in prompt(driver, ALICE).text
        assert play5211.confirm_button(prompt(driver, ALICE)) is not None
    finally:
        telegram_answers.set()
        api.handle = answer  # type: ignore[method-assign]

    async with running_bot(api, database) as driver:  # start-up draws what the stop dropped
        assert "part 2 of 3" in prompt(driver, ALICE).text  # both chose: the next part
        assert "part 2 of 3" in play5211.board(driver, GROUP).text
