"""Inline mode: a match in any chat — "@bot" offers the games, the chosen one is a message the
bot keeps up to date, and the players' hands and prompts come privately, as in a group."""

from __future__ import annotations

import logging
import random

import pytest

from bot.callbacks import Callback, Kind
from bot.host import get_host
from bot.place import inline_chat_id
from bot.testing.fake_telegram import Driver, FakeTelegram, FakeUser, StoredMessage
from tests.bot import play_azul, play_donkey, play_sultan
from tests.bot.conftest import ALICE, BOB, CAROL, IVAN, MALLORY, running_bot
from tests.bot.helpers import current_match, prompt, tick, use_clock

PAIR = 7_000_001  # the private chat between two friends: the bot is not in it
CLUB = -100_777  # a group that never added the bot
POPUP_STRANGER = "You are not playing in this game."


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    """A known deal for every match."""
    monkeypatch.setattr("bot.flow.secrets.randbits", lambda bits: 20260101)


def stand_in(chat_id: int) -> int:
    """The id the bot keeps an inline chat's matches under (it is told only the chat's
    ``chat_instance``)."""
    return inline_chat_id(Driver.chat_instance(chat_id))


async def offer(driver: Driver, creator: FakeUser, chat_id: int, game: str) -> str:
    """``creator`` types "@bot" in ``chat_id`` and picks ``game``: the invitation's id."""
    answer = await driver.inline_query(creator, "", "sender" if chat_id > 0 else "supergroup")
    result = next(result for result in answer["results"] if result["id"] == game)
    return driver.choose_result(creator, chat_id, result)


async def started(driver: Driver, *users: FakeUser) -> None:
    for user in users:
        await driver.send(user, user.id, "/start")


async def open_table(
    driver: Driver, game: str, creator: FakeUser, others: list[FakeUser], chat_id: int = PAIR
) -> str:
    """Invite, let the others join, start: the inline message's id."""
    inline_id = await offer(driver, creator, chat_id, game)
    for other in others:
        assert await driver.press_inline_label(other, inline_id, "Join") == (
            f"You joined {title(game)}. Your cards and moves come in our private chat."
        )
    assert await driver.press_inline_label(creator, inline_id, "Start") == "Let's play!"
    return inline_id


def title(game: str) -> str:
    return {"sultan": "Sultan", "azul": "Azul", "donkey": "Who's the Donkey?"}[game]


def shown(api: FakeTelegram, inline_id: str) -> StoredMessage:
    return api.inline_messages[inline_id]


def bot_messages(api: FakeTelegram, chat_id: int) -> list[StoredMessage]:
    """What the bot itself posted in a chat (an inline message is the user's, via the bot)."""
    return [m for m in api.visible(chat_id) if m.inline_message_id is None]


# -- the offer ---------------------------------------------------------------------------------


async def test_typing_the_bots_name_offers_the_five_games_in_the_users_language(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        answer = await driver.inline_query(IVAN, "")
        titles = [result["title"] for result in answer["results"]]
        assert titles == ["5211", "Султан", "Кто осёл?", "Азул", "Летний дворец"]
        sultan = answer["results"][1]
        assert sultan["description"].startswith("👥 2–5 · 🏆 За 3 раунда купи самые ценные камни")
        assert "Иван ищет соперников" in sultan["input_message_content"]["message_text"]
        assert answer["is_personal"] is True
        # Ivan never opened the private chat, where his cards would come: a way to it
        assert answer["button"] == {
            "text": "🔒 Карты приходят в личку: сначала запусти меня",
            "start_parameter": "inline",
        }
        filtered = await driver.inline_query(IVAN, "азу")
        assert [result["id"] for result in filtered["results"]] == ["azul"]
        await driver.follow(IVAN, "https://t.me/tablebot_test_bot?start=inline")
        assert "Привет" in prompt(driver, IVAN).text  # the welcome, not "a broken link"
        assert "button" not in (await driver.inline_query(IVAN, "sult")) or not (
            await driver.inline_query(IVAN, "sult")
        ).get("button")


async def test_the_bot_says_at_start_up_whether_inline_mode_is_on(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.app")
    async with running_bot(FakeTelegram(inline_mode=False), tmp_path / "off.sqlite3"):
        pass
    async with running_bot(FakeTelegram(), tmp_path / "on.sqlite3"):
        pass
    lines = [r.getMessage() for r in caplog.records if "inline mode" in r.getMessage()]
    assert lines == [
        "inline mode is off: players cannot start a game in a chat without the bot; "
        "switch it on with @BotFather: /setinline",
        "inline mode is on: '@tablebot_test_bot' in any chat offers a game",
    ]


# -- whole matches ------------------------------------------------------------------------------


async def test_two_friends_play_a_whole_sultan_match_in_their_private_chat(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "sultan", ALICE, [BOB])
        board = shown(api, inline_id)
        assert board.text.startswith("Sultan\nRound 1 of 3 · circle 1 of 4")
        assert "👉 Bob" in board.text
        assert prompt(driver, BOB).text.startswith("🎲 Alice's table")
        moves = await play_sultan.play_to_the_end(driver, stand_in(PAIR), [ALICE, BOB])
        assert moves > 40
        board = shown(api, inline_id)
        assert "🏁 Sultan is over." in board.text
        assert [b["text"] for b in board.buttons()] == ["🔁 Rematch"]
        # everything happened in the one message: the bot posted nothing in their chat
        assert bot_messages(api, PAIR) == []
        assert api.refused == []
        for user in (ALICE, BOB):
            assert "🏁" in prompt(driver, user).text or "over" in prompt(driver, user).text
        storage = get_host(driver.app).storage
        past = await storage.history(stand_in(PAIR))
        assert [(p.game, p.outcome) for p in past] == [("sultan", "finished")]
        here = await storage.leaderboard("sultan", stand_in(PAIR))
        everywhere = await storage.leaderboard("sultan")
        assert {s.user_id for s in here} == {s.user_id for s in everywhere} == {ALICE.id, BOB.id}
