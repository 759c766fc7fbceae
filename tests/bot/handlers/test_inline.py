"""Inline mode: a match in any chat — "@bot" offers the games, the chosen one is a message the
bot keeps up to date, and the players' hands and prompts come privately, as in a group."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest
from telegram import Update

from bot.presentation.i18n import translator
from bot.table.host import get_host
from bot.table.place import inline_chat_id
from bot.table.publishing.lobby_view import turn_label
from bot.telegram_api.callbacks import Callback, Kind
from bot.telegram_api.rate_limit import TelegramLimits
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram, Fault, StoredMessage
from tests.bot import play_azul, play_donkey, play_sultan
from tests.bot.conftest import ALICE, BOB, CAROL, IVAN, MALLORY, running_bot
from tests.bot.helpers import current_match, prompt, tick, use_clock

PAIR = 7_000_001  # the private chat between two friends: the bot is not in it
CLUB = -100_777  # a group that never added the bot
POPUP_STRANGER = "You are not playing in this game."


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    """A known deal for every match."""
    monkeypatch.setattr("bot.table.flow.secrets.randbits", lambda bits: 20260101)


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
        assert titles == ["5211", "Султан", "Кто осёл?", "Азул", "Азул Мини: Летний дворец"]
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
        assert [result["id"] for result in filtered["results"]] == ["azul", "summer_pavilion"]
        filtered = await driver.inline_query(IVAN, "sultan")  # the game's id works too
        assert [result["id"] for result in filtered["results"]] == ["sultan"]
        await driver.follow(IVAN, "https://t.me/tablebot_test_bot?start=inline")
        assert "Привет" in prompt(driver, IVAN).text  # the welcome, not "a broken link"
        assert (await driver.inline_query(IVAN, "")).get("button") is None


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
        assert prompt(driver, BOB).text.startswith("📍 Alice's table\nSultan\n")
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


async def test_two_friends_play_a_whole_azul_match_with_the_board_as_a_picture(database):
    """The board is a photo as soon as the player to act has been sent theirs: Telegram's
    file is reused, as an inline message takes no upload."""
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "azul", ALICE, [BOB])
        board = shown(api, inline_id)
        assert board.is_photo
        assert prompt(driver, board_player(board)).is_photo
        assert board.photo_digest == prompt(driver, board_player(board)).photo_digest
        play = play_azul.PLAY
        await play.play_until(driver, [ALICE, BOB], lambda s: s["round"] > 1, group=stand_in(PAIR))
        board = shown(api, inline_id)
        assert "🧱 Round 1: wall tiling" in board.text  # the round's news, inside the board
        assert "↪️ Latest moves:" in board.text
        moves = await play.play_until(driver, [ALICE, BOB], lambda s: False, group=stand_in(PAIR))
        assert moves > 20
        board = shown(api, inline_id)
        assert "🏆 Game over! Winner:" in board.text
        assert [b["text"] for b in board.buttons()] == ["🔁 Rematch"]
        assert bot_messages(api, PAIR) == []
        assert api.refused == []  # never an upload into the inline message
        match = await current_match(driver, stand_in(PAIR))
        assert match.status == "finished"


def board_player(board: StoredMessage) -> FakeUser:
    """The player the board says is to act."""
    return ALICE if "👉 Alice takes tiles" in board.text else BOB


async def test_three_users_play_whos_the_donkey_in_a_group_without_the_bot(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB, CAROL)
        inline_id = await open_table(driver, "donkey", ALICE, [BOB, CAROL], chat_id=CLUB)
        assert shown(api, inline_id).text.startswith("🫏 Who's the Donkey?\n")
        rng = random.Random(3)
        players = [ALICE, BOB, CAROL]
        moves = 0
        while True:
            _match, _seat, user = await play_donkey.acting(driver, players, stand_in(CLUB))
            if user is None:
                break
            await play_donkey.random_move(driver, user, rng)
            moves += 1
            assert moves < 2000, "the match did not end"
        assert moves > 10
        match = await current_match(driver, stand_in(CLUB))
        assert match.status == "finished"
        assert "🔁 Rematch" in [b["text"] for b in shown(api, inline_id).buttons()]
        assert CLUB not in api.chats and bot_messages(api, CLUB) == []
        assert api.refused == []


# -- what a group match has --------------------------------------------------------------------


async def test_a_restart_mid_match_loses_nothing(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "sultan", ALICE, [BOB])
        rng = random.Random(5)
        for _ in range(7):
            await play_sultan.play_move(driver, stand_in(PAIR), [ALICE, BOB], rng)
        before = shown(api, inline_id).text
        version = (await current_match(driver, stand_in(PAIR))).version
    async with running_bot(api, database) as driver:  # a new process, the same chats
        assert shown(api, inline_id).text == before
        assert (await current_match(driver, stand_in(PAIR))).version == version
        await play_sultan.play_to_the_end(driver, stand_in(PAIR), [ALICE, BOB], seed=9)
        assert "🏁 Sultan is over." in shown(api, inline_id).text
        assert api.refused == []


async def test_a_player_who_runs_out_of_time_twice_goes_on_autopilot(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        clock = use_clock(driver)
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "sultan", ALICE, [BOB])
        match = await current_match(driver, stand_in(PAIR))
        (first,) = play_sultan.ENGINE.to_act(match.state)
        late = [ALICE, BOB][first]
        clock.now += 181
        await tick(driver, clock, match.id)
        board = shown(api, inline_id).text
        assert f"⏰ {late.first_name} ran out of time, so I made a move for them." in board
        rng = random.Random(2)
        while True:  # the other player moves until it is the late one's turn again
            match = await current_match(driver, stand_in(PAIR))
            if match.seats[first].user_id in {
                match.seats[s].user_id for s in play_sultan.ENGINE.to_act(match.state)
            }:
                break
            await play_sultan.play_move(driver, stand_in(PAIR), [ALICE, BOB], rng)
        clock.now += 181
        await tick(driver, clock, match.id)
        match = await current_match(driver, stand_in(PAIR))
        assert match.seats[first].autopilot
        assert "You are on autopilot" in prompt(driver, late).text
        assert f"Moves {late.first_name} missed in a row: 2." in shown(api, inline_id).text


async def test_a_rematch_opens_in_the_same_message_with_the_same_players(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "sultan", ALICE, [BOB])
        await play_sultan.play_to_the_end(driver, stand_in(PAIR), [ALICE, BOB])
        assert await driver.press_inline_label(MALLORY, inline_id, "Rematch") == (
            "Only this game's players can start a rematch. "
            "For a game of your own, type @tablebot_test_bot in any chat."
        )
        popup = await driver.press_inline_label(BOB, inline_id, "Rematch")
        assert popup == "Rematch open: the same players are seated."
        lobby = shown(api, inline_id).text
        assert lobby.startswith("🔁 Sultan — rematch")
        assert "1. Alice\n2. Bob" in lobby
        assert await driver.press_inline_label(BOB, inline_id, "Start") == "Let's play!"
        match = await current_match(driver, stand_in(PAIR))
        assert match.status == "playing" and match.rematch_of == 1
        assert shown(api, inline_id).text.startswith("Sultan\nRound 1 of 3")


async def test_a_strangers_press_gets_a_popup_and_changes_nothing(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB, MALLORY)
        inline_id = await offer(driver, ALICE, PAIR, "sultan")
        await driver.press_inline_label(BOB, inline_id, "Join")
        assert await driver.press_inline_label(MALLORY, inline_id, "Start") == (
            "Only the player who opened the game or an admin can do that."
        )
        assert await driver.press_inline_label(MALLORY, inline_id, "Leave") == (
            "You have not joined this game."
        )
        await driver.press_inline_label(ALICE, inline_id, "Start")
        match = await current_match(driver, stand_in(PAIR))
        (seat,) = play_sultan.ENGINE.to_act(match.state)
        move = play_sultan.ENGINE.legal_actions(match.state, seat)[0]
        token = match.seats[seat].token
        data = Callback(Kind.ACTION, match.id, token, ".".join(map(str, move))).encode()
        board_before = shown(api, inline_id).text
        assert await driver.press_inline(MALLORY, inline_id, data) == POPUP_STRANGER
        # a move of this table pressed on another table (a forged press) is refused too
        other = await offer(driver, BOB, PAIR, "sultan")
        player = [ALICE, BOB][seat]
        assert await driver.press_inline(player, other, data) == "This button is not valid."
        assert (await get_host(driver.app).storage.load(match.id)).version == match.version
        assert shown(api, inline_id).text == board_before
        # that other table is a table of its own, in the same chat, while this one plays
        await driver.press_inline_label(ALICE, other, "Join")
        second = await current_match(driver, stand_in(PAIR))
        assert (second.id, second.status, second.creator_id) == (2, "lobby", BOB.id)
        assert [seat.name for seat in second.seats] == ["Bob", "Alice"]


@pytest.mark.parametrize("how", ["deleted", "too old"])
async def test_an_inline_message_gone_ends_its_match_and_the_players_hear_it(database, how):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB)
        inline_id = await open_table(driver, "sultan", ALICE, [BOB])
        if how == "deleted":
            driver.delete_inline(inline_id)
            refusal = "Bad Request: MESSAGE_ID_INVALID"
        else:
            refusal = "Bad Request: message can't be edited"
            api.faults.append(Fault("editMessageText", 400, refusal, chat_id=PAIR))
        rng = random.Random(1)
        await play_sultan.play_move(driver, stand_in(PAIR), [ALICE, BOB], rng)
        match = await get_host(driver.app).storage.load(1)
        assert match.status == "cancelled"
        for user in (ALICE, BOB):
            assert prompt(driver, user).text == (
                "⏹ The message of our game of Sultan (Alice's table) was deleted or can no "
                "longer be edited, so the game has ended."
            )
        if how == "deleted":
            assert api.refused == [("editMessageText", PAIR, refusal)]
        storage = get_host(driver.app).storage
        assert [p.outcome for p in await storage.history(stand_in(PAIR))] == ["abandoned"]


async def test_a_flood_of_presses_on_one_inline_message_keeps_its_chat_within_telegrams_limit(
    database,
):
    """Telegram's minute shrunk to a second: the creator cycles an option 50 times a second;
    the lobby's edits, which name no chat, are paced as their chat's calls (at most 19 in
    any minute), coalesce, and the message ends on the latest state."""
    api = FakeTelegram()
    window = 1.0
    limits = TelegramLimits(window=window, margin=0.05)
    async with running_bot(api, database, limits, rate_limit=True) as driver:
        await started(driver, ALICE)
        inline_id = await offer(driver, ALICE, CLUB, "sultan")
        await driver.press_inline_label(ALICE, inline_id, "Join")
        data = next(
            b["callback_data"] for b in shown(api, inline_id).buttons() if "per move" in b["text"]
        )
        api.timeline.clear()
        for _ in range(100):
            update = Update.de_json(press(driver, inline_id, data), driver.app.bot)
            await driver.app.process_update(update)
            await asyncio.sleep(window / 50)
        await driver.settle()
        match = await current_match(driver, stand_in(CLUB))
        edits = [when for when, method, chat in api.timeline if method == "editMessageText"]
    assert len(edits) > 19  # more than one minute's budget was drawn...
    assert api.peak_group_calls_per_minute(window=window) <= 19  # ...never more in a minute
    assert len(edits) < 100  # coalesced
    assert turn_label(translator("en"), match.turn_seconds) in shown(api, inline_id).text


def press(driver: Driver, inline_id: str, data: str) -> dict:
    """A press on an inline message by Alice, as an update (not yet handled)."""
    message = driver.api.inline_messages[inline_id]
    query = {
        "id": f"flood-{random.random()}",
        "from": ALICE.as_dict(),
        "chat_instance": Driver.chat_instance(message.chat_id),
        "inline_message_id": inline_id,
        "data": data,
    }
    return {"update_id": random.randrange(10**9), "callback_query": query}


async def test_history_in_private_lists_ones_inline_games_and_sends_them_there(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE, BOB, MALLORY)
        await open_table(driver, "sultan", ALICE, [BOB])
        await play_sultan.play_to_the_end(driver, stand_in(PAIR), [ALICE, BOB])
        await driver.send(BOB, BOB.id, "/history")
        listing = prompt(driver, BOB)
        assert listing.text.startswith("📜 Your games in other chats\n#1 · Sultan · ")
        assert await driver.press_label(BOB, BOB.id, "#1 Sultan") == (
            "#1: its final screen and move log are below."
        )
        assert "🏁 Sultan is over." in "\n".join(m.text for m in api.visible(BOB.id))
        await driver.send(MALLORY, MALLORY.id, "/history")  # not hers
        assert "#1" not in prompt(driver, MALLORY).text


async def test_a_player_who_never_started_the_bot_is_sent_to_it_and_seated_on_return(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE)
        inline_id = await offer(driver, ALICE, PAIR, "azul")
        before = len(api.answers)
        popup = await driver.press_inline_label(CAROL, inline_id, "Join")
        assert popup == (
            "Open our private chat and press Start: that seats you, and your cards will come there."
        )
        link = api.answers[before]["url"]
        assert link == "https://t.me/tablebot_test_bot?start=j1"
        assert "1. Alice\n" in shown(api, inline_id).text  # the lobby is open, Alice seated
        assert "Carol" not in shown(api, inline_id).text
        await driver.follow(CAROL, link)  # her app opens the private chat: /start j1
        assert prompt(driver, CAROL).text.startswith("You joined Azul in Alice's table.")
        assert "1. Alice\n2. Carol" in shown(api, inline_id).text
        assert await driver.press_inline_label(CAROL, inline_id, "Join") == (
            "You are already in this Azul game."
        )


async def test_an_inline_lobby_nobody_starts_expires_into_one_line(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        clock = use_clock(driver)
        await started(driver, ALICE)
        inline_id = await offer(driver, ALICE, PAIR, "sultan")
        await driver.press_inline_label(ALICE, inline_id, "Join")
        clock.now += 24 * 3600
        assert await get_host(driver.app).timers.expire_lobbies() == [1]
        assert shown(api, inline_id).text == "⌛ This lobby expired: nobody started it."
        assert shown(api, inline_id).buttons() == []
        assert await driver.press_inline(ALICE, inline_id, "st:1:0:") == "This lobby is closed."
        invitation = await driver.inline_query(ALICE, "sultan")  # its first button, again
        opening = invitation["results"][0]["reply_markup"]["inline_keyboard"][0][0]
        assert await driver.press_inline(BOB, inline_id, opening["callback_data"]) == (
            "This lobby is closed."
        )
        assert shown(api, inline_id).text == "⌛ This lobby expired: nobody started it."


async def test_the_creator_fills_seats_with_bots_and_plays_them(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        await started(driver, ALICE)
        inline_id = await offer(driver, ALICE, PAIR, "sultan")
        await driver.press_inline_label(ALICE, inline_id, "Join")
        assert await driver.press_inline_label(BOB, inline_id, "Normal") == (
            "Only the player who opened the game or an admin can do that."
        )
        await driver.press_inline_label(ALICE, inline_id, "Normal")
        assert "1. Alice\n2. 🤖" in shown(api, inline_id).text
        await driver.press_inline_label(ALICE, inline_id, "Start")
        rng = random.Random(4)
        while (await current_match(driver, stand_in(PAIR))).status == "playing":
            match = await current_match(driver, stand_in(PAIR))
            (seat,) = play_sultan.ENGINE.to_act(match.state)
            assert seat == 0, "the bot's turns are played for it"
            await play_sultan.play_move(driver, stand_in(PAIR), [ALICE, ALICE], rng)
        assert "🏁 Sultan is over." in shown(api, inline_id).text
        assert api.refused == []


async def test_a_silent_player_in_a_game_without_limit_can_be_given_a_clock(database):
    api = FakeTelegram()
    async with running_bot(api, database) as driver:
        clock = use_clock(driver)
        await started(driver, ALICE, BOB)
        inline_id = await offer(driver, ALICE, PAIR, "sultan")
        await driver.press_inline_label(BOB, inline_id, "Join")
        for _ in range(4):  # 3 min → 10 min → 1 h → 24 h → none
            await driver.press_inline_label(ALICE, inline_id, "per move")
        await driver.press_inline_label(ALICE, inline_id, "Start")
        match = await current_match(driver, stand_in(PAIR))
        (seat,) = play_sultan.ENGINE.to_act(match.state)
        silent, other = ([ALICE, BOB][seat], [ALICE, BOB][1 - seat])
        clock.now += 10 * 60
        await tick(driver, clock, match.id)
        board = shown(api, inline_id)
        assert f"⏳ {silent.first_name} has not moved for 10 minutes." in board.text
        assert await driver.press_inline_label(other, inline_id, "Start the clock") == (
            "⏰ The clock is running."
        )
        assert (await current_match(driver, stand_in(PAIR))).seats[seat].deadline == (
            clock.now + 120
        )
        board = shown(api, inline_id)
        assert f"⏰ {other.first_name} started the clock" in board.text
        assert board.text.endswith("⏱ Time left to move: over 90 seconds.")
