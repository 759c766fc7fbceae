"""PAID_BROADCAST: the game's new messages (prompts, news, boards) carry
``allow_paid_broadcast`` (Telegram then takes up to 1,000 a second and charges 0.1 Stars for
each above 30); without it none does, so nothing is ever charged. A reply to a player's own
command is no broadcast and is not marked."""

from __future__ import annotations

import bot.table.flow
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, running_bot
from tests.bot.play5211 import start_game
from tests.bot.table.publishing.test_message_counts import counting_from_the_start

SENDS = ("sendMessage", "sendPhoto", "sendDocument")


async def started_game(tmp_path, **settings) -> list[tuple[str, dict]]:
    """The calls from a game's start on: the lobby closed, the board, the prompts (sends and
    edits, in the group and in private chats)."""
    api = FakeTelegram()
    start_match = bot.table.flow.start_match
    starts = counting_from_the_start(api)
    try:
        async with running_bot(api, tmp_path / "bot.sqlite3", **settings) as driver:
            driver.group(GROUP, "Game Night")
            await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    finally:
        bot.table.flow.start_match = start_match
    return api.calls[starts[0] :]


async def test_with_paid_broadcasts_every_new_message_may_be_paid_for(tmp_path):
    calls = await started_game(tmp_path, paid_broadcast=True)
    sends = [params for method, params in calls if method in SENDS]
    others = [params for method, params in calls if method not in SENDS]
    assert {int(params["chat_id"]) for params in sends} == {GROUP, ALICE.id, BOB.id, CAROL.id}
    assert all(params.get("allow_paid_broadcast") is True for params in sends)
    # edits and deletes have no such option: they are never marked
    assert not any("allow_paid_broadcast" in params for params in others)


async def test_without_paid_broadcasts_no_message_is_marked(tmp_path):
    calls = await started_game(tmp_path)
    assert calls and not any("allow_paid_broadcast" in params for _, params in calls)
