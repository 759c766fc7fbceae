"""Lobbies: /new, the game menu, options, joining, leaving, start and cancel."""

from __future__ import annotations

from bot.i18n import translator
from bot.testing.fake_telegram import FakeUser
from bot.ui import get_ui, playable_games
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, MALLORY, running_bot
from tests.bot.play5211 import board, card_buttons, prompt

EVE = FakeUser(105, "Eve")
FRANK = FakeUser(106, "Frank")


async def open_lobby(driver, group=GROUP, creator=ALICE, thread_id=None):
    await driver.send(creator, group, "/new", thread_id=thread_id)
    await driver.press_label(creator, group, "5211")
    return driver.api.last(group)


async def test_new_offers_the_games_and_the_choice_becomes_the_lobby(driver, api):
    await driver.send(ALICE, GROUP, "/new")
    menu = api.last(GROUP)
    assert menu.text == "Which game shall we play?"
    english = translator("en")
    titles = [get_ui(game).title(english) for game in playable_games()]
    assert [b["text"] for b in menu.buttons()] == titles
    assert {"5211", "Sultan"} <= set(titles)
    await driver.press_label(ALICE, GROUP, "5211")
    lobby = api.messages[GROUP][menu.message_id]
    assert lobby.text.startswith("🎲 5211 — new game")
    labels = [b["text"] for b in lobby.buttons()]
    assert labels == [
        "✋ Join",
        "🚪 Leave",
        "⚙️ Length: one game",
        "⏱ 3 minutes per move",
        "▶️ Start",
        "✖️ Cancel",
    ]
    join = lobby.buttons()[0]
    assert join["url"] == "https://t.me/tablebot_test_bot?start=j1"


async def test_new_with_a_game_name_opens_the_lobby_directly_and_rejects_unknown_games(driver, api):
    await driver.send(ALICE, GROUP, "/new chess")
    games = ", ".join(playable_games())
    assert api.last(GROUP).text == f"I don't know that game. Choose one of: {games}"
    await driver.send(ALICE, GROUP, "/new 5211")
    assert api.last(GROUP).text.startswith("🎲 5211 — new game")


async def test_new_in_a_private_chat_points_to_groups(driver, api):
    await driver.send(ALICE, ALICE.id, "/new")
    assert "Games are played in groups" in api.last(ALICE.id).text


async def test_one_match_at_a_time_per_group(driver, api):
    await open_lobby(driver)
    await driver.send(BOB, GROUP, "/new")
    assert api.last(GROUP).text == "A game is already open here. Finish it or /cancel it first."


async def test_a_second_menu_choice_cannot_open_a_second_lobby(driver, api):
    await driver.send(ALICE, GROUP, "/new")
    first_menu = api.last(GROUP)
    await driver.send(BOB, GROUP, "/new")
    second_menu = api.last(GROUP)
    await driver.press_label(ALICE, GROUP, "5211", message_id=first_menu.message_id)
    answer = await driver.press_label(BOB, GROUP, "5211", message_id=second_menu.message_id)
    assert answer == "A game is already open here. Finish it or /cancel it first."


async def test_forum_topics_each_have_their_own_match(driver, api):
    forum = driver.group(-100999, "Forum", forum=True)
    await open_lobby(driver, forum, ALICE, thread_id=11)
    await open_lobby(driver, forum, BOB, thread_id=22)
    lobbies = [m for m in api.visible(forum) if m.text.startswith("🎲 5211")]
    assert [m.thread_id for m in lobbies] == [11, 22]


async def test_joining_goes_through_the_private_chat_and_fills_the_lobby(driver, api):
    await open_lobby(driver)
    await driver.press_label(ALICE, GROUP, "Join")
    await driver.press_label(BOB, GROUP, "Join")
    assert "You joined 5211 in Game Night" in api.last(BOB.id).text
    lobby = api.last(GROUP)
    assert "1. Alice" in lobby.text and "2. Bob" in lobby.text
    await driver.press_label(BOB, GROUP, "Join")
    assert api.last(BOB.id).text == "You are already in this 5211 game."
    for player in (CAROL, DAVE, EVE):
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(FRANK, GROUP, "Join")
    assert api.last(FRANK.id).text == "This game is full (maximum: 5)."
    assert "6. Frank" not in api.last(GROUP).text


async def test_the_creator_who_already_talks_to_the_bot_is_seated_at_once(driver, api):
    await driver.send(ALICE, ALICE.id, "/start")
    await open_lobby(driver)
    assert "1. Alice" in api.last(GROUP).text


async def test_leaving_frees_the_seat(driver, api):
    await open_lobby(driver)
    for player in (ALICE, BOB, CAROL):
        await driver.press_label(player, GROUP, "Join")
    assert await driver.press_label(BOB, GROUP, "Leave") == "You left the game."
    lobby = api.last(GROUP).text
    assert "1. Alice" in lobby and "2. Carol" in lobby and "Bob" not in lobby


async def test_only_the_creator_or_an_admin_may_start_cancel_or_change_options(driver, api):
    await open_lobby(driver)
    await driver.press_label(ALICE, GROUP, "Join")
    await driver.press_label(BOB, GROUP, "Join")
    refusal = "Only the player who opened the game or an admin can do that."
    assert await driver.press_label(BOB, GROUP, "Start") == refusal
    assert await driver.press_label(BOB, GROUP, "Cancel") == refusal
    assert await driver.press_label(BOB, GROUP, "Length: one game") == refusal
    api.admins[GROUP].add(CAROL.id)
    assert await driver.press_label(CAROL, GROUP, "Length: one game") == "Length: to 50 points"
    assert await driver.press_label(ALICE, GROUP, "to 50 points") == "Length: to 100 points"
    assert "• Length: to 100 points" in api.last(GROUP).text
    assert await driver.press_label(CAROL, GROUP, "Start") == "Let's play!"
    assert "Long game to 100 points · game 1" in board(driver, GROUP).text


async def test_start_turns_the_lobby_into_a_line_without_buttons_and_deals(driver, api):
    lobby = await open_lobby(driver)
    await driver.press_label(ALICE, GROUP, "Join")
    await driver.press_label(BOB, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    closed = api.messages[GROUP][lobby.message_id]
    assert closed.text == "▶️ The game has started: Alice, Bob."
    assert closed.buttons() == []
    assert len(card_buttons(prompt(driver, BOB))) == 5
    # a second press of the old Start button does nothing
    assert await driver.press(ALICE, GROUP, lobby.message_id, "st:1:0:") == "This lobby is closed."


async def test_cancel_closes_the_lobby(driver, api):
    lobby = await open_lobby(driver)
    await driver.press_label(ALICE, GROUP, "Join")
    assert await driver.press_label(ALICE, GROUP, "Cancel") == "Cancelled."
    assert api.messages[GROUP][lobby.message_id].text == "✖️ This lobby was cancelled."
    await driver.follow(BOB, "https://t.me/tablebot_test_bot?start=j1")
    assert api.last(BOB.id).text == "This lobby is closed."
    await driver.send(BOB, GROUP, "/new")
    assert api.last(GROUP).text == "Which game shall we play?"


async def test_a_lobby_survives_a_restart(api, db_path):
    async with running_bot(api, db_path) as driver:
        driver.group(GROUP, "Game Night")
        await open_lobby(driver)
        await driver.press_label(ALICE, GROUP, "Join")
    async with running_bot(api, db_path) as driver:
        await driver.press_label(BOB, GROUP, "Join")
        assert "2. Bob" in api.last(GROUP).text
        assert await driver.press_label(ALICE, GROUP, "Start") == "Let's play!"


async def test_a_stranger_cannot_leave_or_play_in_a_lobby(driver, api):
    await open_lobby(driver)
    assert await driver.press_label(MALLORY, GROUP, "Leave") == "You have not joined this game."


async def test_new_game_button_after_the_end_opens_a_lobby_with_the_same_options(driver, api):
    from tests.bot.play5211 import play_to_the_end

    await open_lobby(driver)
    await driver.press_label(ALICE, GROUP, "Length: one game")  # → to 50 points
    await driver.press_label(ALICE, GROUP, "3 minutes per move")  # → 10 minutes
    for player in (ALICE, BOB):
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    await play_to_the_end(driver, [ALICE, BOB], max_parts=2000)
    await driver.press_label(BOB, GROUP, "New game")
    lobby = api.last(GROUP)
    assert lobby.text.startswith("🎲 5211 — new game")
    assert "• Length: to 50 points" in lobby.text
    assert "• ⏱ 10 minutes per move" in lobby.text
    assert "1. Bob" in lobby.text  # Bob talks to the bot already: seated at once
    assert await driver.press_label(ALICE, GROUP, "New game") == (
        "A game is already open here. Finish it or /cancel it first."
    )
