"""Lobbies: /new, the game menu, options, joining, leaving, start and cancel."""

from __future__ import annotations

import unicodedata

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.ui import get_ui, playable_games
from bot.settings import TURN_PRESETS
from bot.storage import Match
from bot.table.publishing.lobby_view import lobby_screen, option_choices, turn_label
from bot.testing.driver import FakeUser
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP, MALLORY, running_bot
from tests.bot.play5211 import board, card_buttons, play_to_the_end, prompt

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
        "➕🤖 Easy",
        "➕🤖 Normal",
        "➕🤖 Hard",
        "⚙️ Length: one game ▸",
        "⏱ 3 minutes per move ▸",
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


async def test_new_in_a_private_chat_offers_practice_against_bots(driver, api):
    await driver.send(ALICE, ALICE.id, "/new")
    assert api.last(ALICE.id).text == "Practise against bots: which game?"


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


async def test_a_lobby_survives_a_restart(api, database):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await open_lobby(driver)
        await driver.press_label(ALICE, GROUP, "Join")
    async with running_bot(api, database) as driver:
        await driver.press_label(BOB, GROUP, "Join")
        assert "2. Bob" in api.last(GROUP).text
        assert await driver.press_label(ALICE, GROUP, "Start") == "Let's play!"


async def test_a_stranger_cannot_leave_or_play_in_a_lobby(driver, api):
    await open_lobby(driver)
    assert await driver.press_label(MALLORY, GROUP, "Leave") == "You have not joined this game."


async def finish_a_game(driver, players, long_game=False):
    """A 5211 lobby (to 50 points if ``long_game``, 10 minutes per move) played to its end."""
    await open_lobby(driver)
    if long_game:
        await driver.press_label(ALICE, GROUP, "Length: one game")  # → to 50 points
    await driver.press_label(ALICE, GROUP, "3 minutes per move")  # → 10 minutes
    for player in players:
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(ALICE, GROUP, "Start")
    await play_to_the_end(driver, players, max_parts=2000)


async def test_a_rematch_seats_the_same_players_with_the_same_options(driver, api):
    await finish_a_game(driver, [ALICE, BOB, CAROL], long_game=True)
    # someone who did not play cannot open it, and nothing opens
    sent = len(api.visible(GROUP))
    assert await driver.press_label(MALLORY, GROUP, "Rematch") == (
        "Only this game's players or an admin can start a rematch. "
        "For a game of your own, send /new."
    )
    assert len(api.visible(GROUP)) == sent
    assert await driver.press_label(BOB, GROUP, "Rematch") == (
        "Rematch open: the same players are seated."
    )
    lobby = api.last(GROUP)
    assert lobby.text.startswith("🔁 5211 — rematch")
    assert "• Length: to 50 points" in lobby.text
    assert "• ⏱ 10 minutes per move" in lobby.text
    assert "1. Alice\n2. Bob\n3. Carol" in lobby.text
    assert "tap Leave if you're out" in lobby.text
    # a player leaves; a newcomer takes the free seat but may not start or change it
    assert await driver.press_label(CAROL, GROUP, "Leave") == "You left the game."
    await driver.press_label(DAVE, GROUP, "Join")
    assert "1. Alice\n2. Bob\n3. Dave" in api.last(GROUP).text
    players_only = "Only the players of the last game or an admin can do that."
    assert await driver.press_label(DAVE, GROUP, "Start") == players_only
    assert await driver.press_label(DAVE, GROUP, "Length: to 50 points") == players_only
    assert await driver.press_label(MALLORY, GROUP, "Cancel") == players_only
    assert await driver.press_label(MALLORY, GROUP, "Rematch") == (
        "Only this game's players or an admin can start a rematch. "
        "For a game of your own, send /new."
    )
    # any player of the finished game starts it, not only the one who pressed Rematch
    assert await driver.press_label(ALICE, GROUP, "Start") == "Let's play!"
    assert api.messages[GROUP][lobby.message_id].text == (
        "▶️ The game has started: Alice, Bob, Dave."
    )
    assert "Long game to 50 points · game 1" in board(driver, GROUP).text
    assert len(card_buttons(prompt(driver, DAVE))) == 5
    assert await driver.press_label(BOB, GROUP, "Rematch") == (
        "A game is already open here. Finish it or /cancel it first."
    )


async def test_an_admin_may_open_and_start_a_rematch_without_having_played(driver, api):
    await finish_a_game(driver, [ALICE, BOB])
    api.admins[GROUP].add(EVE.id)
    assert await driver.press_label(EVE, GROUP, "Rematch") == (
        "Rematch open: the same players are seated."
    )
    lobby = api.last(GROUP).text
    assert "1. Alice\n2. Bob" in lobby and "Eve" not in lobby
    assert await driver.press_label(BOB, GROUP, "Leave") == "You left the game."
    assert await driver.press_label(EVE, GROUP, "Start") == (
        "Not enough players yet: the game needs at least 2."
    )
    await driver.send(FRANK, GROUP, "/cancel")
    assert api.last(GROUP).text == "Only the players of the last game or an admin can do that."


async def test_a_rematch_lobby_keeps_its_players_rights_after_a_restart(api, database):
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await finish_a_game(driver, [ALICE, BOB])
        await driver.press_label(ALICE, GROUP, "Rematch")
    async with running_bot(api, database) as driver:
        assert await driver.press_label(BOB, GROUP, "Start") == "Let's play!"


# A full-width inline button in a group chat on a 360-dp phone shows about 32 characters
# before Telegram cuts the label with "…" (an emoji takes the room of two); a row of two
# buttons gives each half of that.
PHONE_ROW_COLUMNS = 32


def columns(label: str) -> int:
    """The room a label takes on a button, in character widths: an emoji counts two, its
    variation selector nothing."""
    width = 0
    for char in label:
        if char in "\ufe0f\u200d":
            continue
        wide = unicodedata.category(char) == "So" and ord(char) >= 0x2300
        width += 2 if wide and not 0x25A0 <= ord(char) <= 0x25FF else 1  # ▸ is narrow
    return width


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_every_lobby_button_fits_a_phone_and_options_say_they_cycle(game, lang):
    t = translator(lang)
    ui = get_ui(game)
    defaults = get_engine(game).options(None).model_dump()
    lobbies = [({**defaults, name: value}, TURN_PRESETS[0]) for name, values in
               option_choices(game).items() for value in values]  # fmt: skip
    lobbies += [(defaults, seconds) for seconds in TURN_PRESETS]
    for options, seconds in lobbies:
        match = Match(1, GROUP, 0, game, options, "lobby", ALICE.id, turn_seconds=seconds)
        _, markup = lobby_screen(match, t, "https://t.me/bot?start=j1")
        for row in markup.inline_keyboard:
            for button in row:
                room = PHONE_ROW_COLUMNS // len(row)
                assert columns(button.text) <= room, (lang, button.text, columns(button.text))
        cycling = [b.text for row in markup.inline_keyboard for b in row if b.callback_data
                   and b.callback_data.startswith("op:")]  # fmt: skip
        assert cycling[-1] == turn_label(t, seconds) + " ▸"
        for name, label in zip(option_choices(game), cycling, strict=False):
            assert label == f"⚙️ {ui.option_label(t, name, options[name])} ▸"
