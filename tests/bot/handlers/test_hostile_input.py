"""Property-based attacks: random and malformed callback data, commands, forwarded and
edited messages, unknown chats, presses for finished or deleted matches. The bot never
raises, never changes a match it should not, and answers every press."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Update

from bot.table.host import get_host
from bot.testing.driver import FakeUser
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import ALICE, BOB, GROUP, MALLORY, OTHER_GROUP, running_bot
from tests.bot.databases import Database
from tests.bot.play5211 import board, card_buttons, prompt, start_game

USERS = [ALICE, BOB, MALLORY, FakeUser(999, "Zed")]
KINDS = ["a", "d", "ng", "op", "lv", "st", "cx", "ab", "lg", "pc", "rm", "rl", "bk", "ck", "zz", ""]


class Failures(logging.Handler):
    """Collects every error the bot logs (unhandled exceptions end up here)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness:
    """One running bot with a match in progress, reused across hypothesis examples."""

    def __init__(self, database: Database) -> None:
        self.loop = asyncio.new_event_loop()
        self.api = FakeTelegram()
        self.context = running_bot(self.api, database)
        self.driver = self.loop.run_until_complete(self.context.__aenter__())
        self.driver.group(GROUP, "Game Night")
        self.driver.group(OTHER_GROUP, "Office")
        self.loop.run_until_complete(start_game(self.driver, GROUP, ALICE, [ALICE, BOB]))
        self.failures = Failures()
        logging.getLogger().addHandler(self.failures)

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    def snapshot(self) -> str:
        match = self.run(get_host(self.driver.app).storage.load(1))
        return json.dumps([match.version, match.status, match.state], sort_keys=True)

    def close(self) -> None:
        logging.getLogger().removeHandler(self.failures)
        self.run(self.context.__aexit__(None, None, None))
        self.loop.close()


@pytest.fixture
def harness(database):
    running = Harness(database)
    yield running
    running.close()


callback_data = st.one_of(
    st.text(max_size=70),
    st.builds(
        lambda kind, match, token, payload: f"{kind}:{match}:{token}:{payload}",
        st.sampled_from(KINDS),
        st.one_of(st.integers(-5, 5), st.integers(0, 10**15), st.text(max_size=4)),
        st.one_of(st.integers(-5, 50), st.text(max_size=4)),
        st.one_of(st.text(max_size=20), st.from_regex(r"[0-9.]{0,12}", fullmatch=True)),
    ),
)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=callback_data, user=st.sampled_from(USERS), chat=st.sampled_from([GROUP, 1, 999]))
def test_random_callback_data_is_answered_and_changes_nothing(harness, data, user, chat):
    chat_id = user.id if chat == 1 else chat
    before = harness.snapshot()
    answers = len(harness.api.answers)
    update = harness.driver.press_update(user, chat_id, 1, data)
    harness.run(harness.driver.feed(update))
    assert len(harness.api.answers) == answers + 1, f"press {data!r} was not answered"
    assert harness.snapshot() == before
    assert not harness.failures.records, harness.failures.records[0].getMessage()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    text=st.one_of(
        st.builds(lambda c, rest: f"/{c}{rest}", st.sampled_from(
            ["new", "start", "rules", "language", "cancel", "help", "x", "new@other_bot"]
        ), st.text(max_size=40)),
        st.text(max_size=80),
    ),
    user=st.sampled_from(USERS),
    where=st.sampled_from(["group", "other", "private"]),
)  # fmt: skip
def test_random_commands_and_text_never_break_the_bot(harness, text, user, where):
    chat_id = {"group": GROUP, "other": OTHER_GROUP, "private": user.id}[where]
    before = harness.snapshot()
    harness.run(harness.driver.send(user, chat_id, text))
    assert not harness.failures.records, harness.failures.records[0].getMessage()
    if not text.startswith("/cancel"):
        assert harness.snapshot() == before


def raw_message(chat: dict, user: FakeUser, text: str, **extra) -> dict:
    return {
        "message_id": 500,
        "date": int(time.time()),
        "chat": chat,
        "from": user.as_dict(),
        "text": text,
        **extra,
    }


def test_edited_forwarded_and_foreign_updates_are_ignored_safely(harness):
    driver = harness.driver
    group = harness.api.chats[GROUP]
    entities = [{"type": "bot_command", "offset": 0, "length": 4}]
    odd_updates = [
        {"update_id": 9001, "edited_message": raw_message(group, ALICE, "/new", entities=entities)},
        {
            "update_id": 9002,
            "message": raw_message(
                group,
                ALICE,
                "/new",
                entities=entities,
                forward_origin={"type": "hidden_user", "sender_user_name": "X", "date": 1},
            ),
        },
        {
            "update_id": 9003,
            "channel_post": raw_message(
                {"id": -100777, "type": "channel", "title": "News"}, ALICE, "/new"
            ),
        },
        {
            "update_id": 9004,
            "message": raw_message({"id": -100888, "type": "group", "title": "?"}, BOB, "/rules"),
        },
        {"update_id": 9005, "my_chat_member": None},
    ]
    before = harness.snapshot()
    for update in odd_updates:
        update = {key: value for key, value in update.items() if value is not None}
        harness.run(driver.app.process_update(Update.de_json(update, driver.app.bot)))
    harness.run(driver.settle())
    assert not harness.failures.records, harness.failures.records[0].getMessage()
    assert harness.snapshot() == before
    assert harness.run(get_host(driver.app).storage.active_match_id(GROUP, 0)) == 1


def test_presses_for_finished_cancelled_or_deleted_matches_change_nothing(harness):
    driver = harness.driver
    message = prompt(driver, ALICE)
    old_card = card_buttons(message)[0]["callback_data"]
    harness.run(driver.send(ALICE, GROUP, "/cancel"))
    harness.run(driver.press_label(ALICE, GROUP, "Yes, stop it"))
    before = harness.snapshot()
    answer = harness.run(driver.press(ALICE, ALICE.id, message.message_id, old_card))
    assert answer == "This game is over."
    step_token = old_card.split(":")[2]  # a selection step carries token.step
    token = step_token.split(".")[0]
    for data in (
        f"a:424242:{token}:1.2",
        f"d:424242:{step_token}:t0",
        "st:424242:0:",
        "op:1:0:turn",
    ):
        assert harness.run(driver.press(ALICE, GROUP, 1, data)) in (
            "This game was not found.",
            "This lobby is closed.",
        )
    assert harness.snapshot() == before
    assert not harness.failures.records


# -- buttons pressed where they do not belong, double presses, odd commands ------------------


@pytest.fixture
def errors(caplog):
    caplog.set_level(logging.ERROR)
    return caplog


def screen(message) -> tuple[str, list]:
    return message.text, message.buttons()


async def test_menu_buttons_forged_onto_the_board_or_a_lobby_change_nothing(driver, api, errors):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])  # match 1
    await driver.send(ALICE, OTHER_GROUP, "/new")
    await driver.press_label(ALICE, OTHER_GROUP, "5211")  # match 2, a lobby
    lobby = api.last(OTHER_GROUP)
    table = board(driver, GROUP)
    before = {m.message_id: screen(m) for m in (table, lobby)}
    api.admins[GROUP].add(ALICE.id)
    for chat, message in ((GROUP, table), (OTHER_GROUP, lobby)):
        forged = ("rl:0:0:5211", "fr:0:0:5211", "lg:0:0:it", "pc:0:0:off", "ng:0:0:5211", "ab:1:0:")
        for data in forged:
            answer = await driver.press(ALICE, chat, message.message_id, data)
            assert answer == "This button is not valid.", (data, answer)
    for message in (table, lobby):
        stored = api.messages[message.chat_id][message.message_id]
        assert screen(stored) == before[message.message_id]
    assert await get_host(driver.app).storage.chat_lang(GROUP) == "en"
    assert await get_host(driver.app).storage.chat_pictures(GROUP) is True
    assert (await get_host(driver.app).storage.load(1)).status == "playing"
    assert (await get_host(driver.app).storage.load(2)).status == "lobby"
    assert not errors.records


async def test_new_game_data_pressed_in_a_private_chat_opens_no_lobby(driver, api):
    # not pressed on the game menu (practice lobbies open from /new's menu there)
    answer = await driver.press(ALICE, ALICE.id, 1, "ng:0:0:5211")
    assert answer == "This button is not valid."
    assert await get_host(driver.app).storage.active_match_id(ALICE.id, 0) is None
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    # nor do the lobby's or the game's group buttons act from a private chat
    message = prompt(driver, ALICE)
    for data in ("st:1:0:", "cx:1:0:", "ab:1:0:", "op:1:0:turn"):
        assert await driver.press(ALICE, ALICE.id, message.message_id, data) in (
            "This button is not valid.",
            "This lobby is closed.",
        )
    assert (await get_host(driver.app).storage.load(1)).status == "playing"
    assert card_buttons(api.messages[ALICE.id][message.message_id])


async def test_a_start_link_with_a_huge_number_is_just_a_bad_link(driver, api, errors):
    await driver.send(ALICE, ALICE.id, "/start m" + "9" * 30)
    assert api.last(ALICE.id).text == (
        "This link is not valid. Use the buttons in the group, or /help."
    )
    await driver.send(ALICE, ALICE.id, "/start j99999999999999999999")
    assert api.last(ALICE.id).text.startswith("This link is not valid")
    assert not errors.records


async def test_an_over_long_unknown_command_is_answered_within_telegrams_limit(driver, api, errors):
    command = "/" + "x" * 5000
    await driver.send(ALICE, ALICE.id, command)
    answer = api.last(ALICE.id).text
    assert answer.startswith("I don't know the command /xxxx") and len(answer) < 200
    assert "…" in answer
    assert not errors.records


@pytest.mark.parametrize(
    ("command", "label", "left"),
    [
        ("/rules", "5211", ["📖 Full rules", "🎓 Learn it by playing"]),  # now the summary
        ("/rules 5211", "Full rules", []),
        ("/language", "English", []),
    ],
)
async def test_a_menu_choice_pressed_twice_is_answered_once_each_without_errors(
    driver, api, errors, command, label, left
):
    await driver.send(ALICE, ALICE.id, command)
    menu, button = driver.find_button(ALICE.id, label)
    # two taps before the first edit arrives: both presses carry the menu
    updates = [
        driver.press_update(ALICE, ALICE.id, menu.message_id, button["callback_data"])
        for _ in range(2)
    ]
    for update in updates:
        await driver.feed(update)
    for update in updates:
        query = update["callback_query"]["id"]
        assert len([a for a in api.answers if a["callback_query_id"] == query]) == 1
    assert [b["text"] for b in api.messages[ALICE.id][menu.message_id].buttons()] == left
    assert not errors.records


async def test_a_selection_step_from_an_older_version_of_the_prompt_is_stale(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    message = prompt(driver, ALICE)
    old_cards = card_buttons(message)  # the prompt as first drawn
    await driver.press(ALICE, ALICE.id, message.message_id, old_cards[0]["callback_data"])
    draft = (await get_host(driver.app).storage.load(1)).seats[0].draft
    # a step button of the prompt before that step: same decision, older prompt
    answer = await driver.press(ALICE, ALICE.id, message.message_id, old_cards[1]["callback_data"])
    assert answer == "This button is no longer valid. Use the latest message."
    assert (await get_host(driver.app).storage.load(1)).seats[0].draft == draft
    # the same card on the current prompt is taken
    fresh_cards = card_buttons(api.messages[ALICE.id][message.message_id])
    assert fresh_cards[1]["callback_data"] != old_cards[1]["callback_data"]
    assert (
        await driver.press(ALICE, ALICE.id, message.message_id, fresh_cards[1]["callback_data"])
        is None
    )
    assert sum("✅" in b["text"] for b in card_buttons(prompt(driver, ALICE))) == 2
