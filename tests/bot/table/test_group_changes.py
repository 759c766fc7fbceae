"""The group itself changes under a match: it is upgraded to a supergroup (a new chat id), or
the bot is removed from it."""

from __future__ import annotations

import logging

import pytest

from bot.table.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, OTHER_GROUP
from tests.bot.play5211 import board, card_buttons, choose, has_choice, prompt, start_game

OLD = -4001  # a basic group...
NEW = -1004001  # ...and the supergroup it became


@pytest.fixture
def old_group(driver, api):
    api.chats[OLD] = {"id": OLD, "type": "group", "title": "Game Night"}
    return OLD


@pytest.fixture
def errors(caplog):
    caplog.set_level(logging.ERROR)
    return caplog


async def upgrade(driver, api, by=ALICE):
    api.migrate(OLD, NEW)
    for update in driver.migration_updates(by, OLD, NEW):
        await driver.feed(update)


async def test_an_upgrade_moves_the_running_game_and_it_goes_on_in_the_supergroup(
    driver, api, old_group, errors
):
    await start_game(driver, OLD, ALICE, [ALICE, BOB, CAROL])
    await choose(driver, ALICE)
    await driver.send(ALICE, OLD, "/language")
    api.admins[OLD].add(ALICE.id)
    await driver.press_label(ALICE, OLD, "Italiano")
    await upgrade(driver, api)
    # the board is posted anew in the supergroup, in the group's language
    assert "Round 1, fase 1 di 3" in board(driver, NEW).text
    await driver.send(BOB, NEW, "/new")
    assert api.last(NEW).text == (
        "C'è già una partita aperta qui. Prima finiscila o annullala con /cancel."
    )
    await choose(driver, BOB)
    await choose(driver, CAROL)
    assert "Round 1, fase 2 di 3" in board(driver, NEW).text  # drawing goes on there
    await driver.send(ALICE, NEW, "/cancel")
    assert api.last(NEW).text == "Vuoi davvero interrompere la partita?"
    await driver.press_label(ALICE, NEW, "Sì, interrompi")
    assert (await get_host(driver.app).storage.load(1)).status == "cancelled"
    assert not errors.records


async def test_a_refused_call_alone_tells_the_bot_where_the_group_went(
    driver, api, old_group, errors
):
    """No service message reached the bot: the old id answering "migrated" is enough."""
    await start_game(driver, OLD, ALICE, [ALICE, BOB])
    api.migrate(OLD, NEW)
    await choose(driver, ALICE)  # the board's redraw meets the new id
    assert "✅ Alice" in board(driver, NEW).text
    await driver.send(BOB, NEW, "/new")
    assert api.last(NEW).text == "A game is already open here. Finish it or /cancel it first."
    await choose(driver, BOB)
    assert "part 2 of 3" in board(driver, NEW).text
    await driver.send(ALICE, NEW, "/cancel")
    assert api.last(NEW).text == "Really stop the game?"
    assert not errors.records


async def test_an_upgrade_moves_an_open_lobby_and_players_join_it_there(driver, api, old_group):
    await driver.send(ALICE, OLD, "/new")
    await driver.press_label(ALICE, OLD, "5211")
    await driver.press_label(ALICE, OLD, "Join")
    await upgrade(driver, api, by=BOB)
    lobby = api.last(NEW)
    assert "1. Alice" in lobby.text
    await driver.press_label(BOB, NEW, "Join")
    await driver.press_label(ALICE, NEW, "Start")
    assert has_choice(driver, ALICE) and has_choice(driver, BOB)
    assert "⏳ Alice" in board(driver, NEW).text


async def test_an_upgrade_is_safe_to_hear_twice_and_keeps_the_running_game_over_a_new_lobby(
    driver, api, old_group
):
    await start_game(driver, OLD, ALICE, [ALICE, BOB])
    api.migrate(OLD, NEW)
    # someone opened a lobby in the supergroup before the bot heard of the upgrade
    await driver.send(CAROL, NEW, "/new 5211")
    await upgrade(driver, api)
    await upgrade(driver, api)
    storage = get_host(driver.app).storage
    assert await storage.active_match_id(NEW, 0) == 1
    assert (await storage.load(2)).status == "cancelled"
    await choose(driver, ALICE)
    assert "✅ Alice" in board(driver, NEW).text


async def test_removing_the_bot_ends_its_games_there_and_tells_the_players_privately(
    driver, api, errors
):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    old_prompt = prompt(driver, BOB)
    data = card_buttons(old_prompt)[0]["callback_data"]
    api.kicked.add(GROUP)
    await driver.feed(driver.membership_update(CAROL, GROUP, "member", "kicked"))
    storage = get_host(driver.app).storage
    assert (await storage.load(1)).status == "cancelled"
    # each player's prompt gives way to one new message (it notifies) saying which game
    # ended and why; nothing to press and no turn is left in the private chats
    for player in (ALICE, BOB):
        told = api.last(player.id)
        assert told.text == (
            "⏹ I was removed from Game Night, so our game of 5211 there has ended."
        )
        assert not [m for m in api.visible(player.id) if m.buttons() or "📍" in m.text]
    assert api.messages[BOB.id][old_prompt.message_id].deleted
    assert await driver.press(BOB, BOB.id, old_prompt.message_id, data) == "This game is over."
    assert not get_host(driver.app).job_queue.get_jobs_by_name("timer-1")
    assert not errors.records


async def test_a_group_that_refuses_the_bot_ends_the_game_once_without_errors(driver, api, errors):
    """The 403 of a group the bot was removed from (the membership update went missing)."""
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    api.kicked.add(GROUP)
    assert (await choose(driver, ALICE)).startswith("Played")  # committed and answered
    storage = get_host(driver.app).storage
    assert (await storage.load(1)).status == "cancelled"
    assert api.last(BOB.id).text.startswith("⏹ I was removed from Game Night")
    sent = len(api.calls)
    await driver.send(ALICE, ALICE.id, "/start")  # nothing left to draw for that group
    assert not [call for call in api.calls[sent:] if call[1].get("chat_id") == GROUP]
    assert not errors.records


async def test_the_bot_leaving_one_group_leaves_other_groups_alone(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB])
    await driver.feed(driver.membership_update(ALICE, OTHER_GROUP, "member", "left"))
    assert (await get_host(driver.app).storage.load(1)).status == "playing"
