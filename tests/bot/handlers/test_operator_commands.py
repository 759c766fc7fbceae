"""The operator's view (``OWNER_IDS``): /status and /drain answer the owners in private only;
anyone else, and any group, gets the answer to an unknown command. A drain stops new lobbies
and rematches, lets the running match play to its end, and outlives a restart."""

from __future__ import annotations

import logging

from bot.operations.version import VERSION
from bot.presentation.i18n import translator
from bot.presentation.tutorial import Lesson
from bot.table.host import get_host
from games.tutorial import get_tutorial
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GROUP,
    IVAN,
    MALLORY,
    OTHER_GROUP,
    running_bot,
)
from tests.bot.helpers import current_match
from tests.bot.play5211 import choose, has_choice, play_to_the_end, start_game
from tests.bot.play_tutorial import open_lesson, play_step, press_data

EN = translator("en")
OWNER = ALICE
OWNERS = {"owner_ids": frozenset({OWNER.id, IVAN.id})}


async def test_status_and_drain_answer_owners_in_private_and_no_one_else(api, database):
    async with running_bot(api, database, **OWNERS) as driver:
        driver.group(GROUP, "Game Night")
        for command in ("/status", "/drain"):
            await driver.send(MALLORY, MALLORY.id, command)
            assert api.last(MALLORY.id).text == EN("error.unknown_command", command=command)
            # an owner in a group: not there either (the answer would show the bot's state)
            sent = len(api.visible(GROUP))
            await driver.send(OWNER, GROUP, f"{command}@{api.username}")
            assert api.last(GROUP).text == EN(
                "error.unknown_command", command=f"{command}@{api.username}"
            )
            assert len(api.visible(GROUP)) == sent + 2  # the command and that answer
        assert not get_host(driver.app).draining.on  # nobody's /drain took effect
        await driver.send(MALLORY, GROUP, "/new")
        assert api.last(GROUP).text == EN("lobby.choose_game")


async def test_status_tells_the_owner_what_the_bot_is_doing(api, database):
    async with running_bot(api, database, **OWNERS) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, BOB, [BOB, CAROL, DAVE])
        logging.getLogger("bot.test").error("something failed")  # counted as an error
        await driver.send(OWNER, OWNER.id, "/status")
        text = api.last(OWNER.id).text
        assert f"tablebot {VERSION}" in text
        assert f"Database: {database.backend}" in text
        assert "Instance lock: held by this instance" in text
        assert "Draining: no" in text
        assert "Running matches: 5211 1" in text
        assert "Open lobbies: 0" in text
        assert "Groups active today: 1" in text
        assert "AI queue: matches 0, hints 0" in text
        assert "Errors in the last hour: 1" in text
        assert " MB, processes: " in text
        # in the owner's own language
        await driver.send(IVAN, IVAN.id, "/status")
        assert "Идущие матчи: 5211 1" in api.last(IVAN.id).text


async def test_drain_stops_new_games_lets_the_running_match_finish_and_outlives_a_restart(
    api, database
):
    players = [BOB, CAROL, DAVE]
    async with running_bot(api, database, **OWNERS) as driver:
        driver.group(GROUP, "Game Night")
        await driver.send(BOB, GROUP, "/new")  # a menu sent before the drain
        menu = api.last(GROUP)
        await driver.send(OWNER, OWNER.id, "/drain")
        assert api.last(OWNER.id).text == EN("drain.done")  # nothing runs: upgrade at once
        await driver.send(OWNER, OWNER.id, "/drain off")
        assert api.last(OWNER.id).text == EN("drain.off")
        await driver.press_label(BOB, GROUP, "5211", menu.message_id)
        for player in players:
            await driver.press_label(player, GROUP, "Join")
        await driver.press_label(BOB, GROUP, "Start")
        assert (await current_match(driver)).status == "playing"
        driver.group(OTHER_GROUP, "Office")
        await driver.send(MALLORY, OTHER_GROUP, "/new 5211")  # a lobby open before the drain
        await driver.send(MALLORY, MALLORY.id, "/new")  # a game menu sent before the drain
        practice_menu = api.last(MALLORY.id)
        await driver.send(OWNER, OWNER.id, "/drain")
        assert api.last(OWNER.id).text == EN("drain.on", running=1, lobbies=1)
        # no new game, and people are told why: /new in a group or in private (practice),
        # a game menu sent before the drain, the start of a lobby opened before it
        await driver.send(BOB, OTHER_GROUP, "/new")
        assert api.last(OTHER_GROUP).text == EN("drain.paused")
        await driver.send(MALLORY, MALLORY.id, "/new")
        assert api.last(MALLORY.id).text == EN("drain.paused")
        answer = await driver.press_label(MALLORY, MALLORY.id, "5211", practice_menu.message_id)
        assert answer == EN("drain.paused")
        assert await driver.press_label(MALLORY, OTHER_GROUP, "Start") == EN("drain.paused")
        storage = get_host(driver.app).storage
        assert await storage.active_match_id(MALLORY.id, 0) is None
        lobby = await current_match(driver, OTHER_GROUP)
        assert lobby.status == "lobby"
        # a move or two before the upgrade's restart
        await choose(driver, BOB)
    async with running_bot(api, database, **OWNERS) as driver:
        assert get_host(driver.app).draining.on  # the switch outlived the restart
        await driver.send(MALLORY, MALLORY.id, "/new")
        assert api.last(MALLORY.id).text == EN("drain.paused")
        # the running match plays on to its end
        await play_to_the_end(driver, players)
        match = await current_match(driver)
        assert match.status == "finished"
        assert not any(has_choice(driver, player) for player in players)
        # no rematch while draining, and the group is told why
        sent = len(api.visible(GROUP))
        assert await driver.press_label(BOB, GROUP, "Rematch") == EN("drain.paused")
        assert len(api.visible(GROUP)) == sent
        await driver.send(OWNER, OWNER.id, "/drain")
        assert api.last(OWNER.id).text == EN("drain.done")
        await driver.send(OWNER, OWNER.id, "/drain off")
    async with running_bot(api, database, **OWNERS) as driver:
        assert not get_host(driver.app).draining.on
        assert await driver.press_label(BOB, GROUP, "Rematch") == EN("rematch.opened")


async def test_status_shows_each_tutorials_completion_and_where_most_leave(api, database):
    """Counts only: how many started and finished, and the step after which most left."""
    async with running_bot(api, database, **OWNERS) as driver:
        await driver.send(OWNER, OWNER.id, "/status")
        assert "🎓 Tutorials" in api.last(OWNER.id).text
        assert "no tutorial started yet" in api.last(OWNER.id).text
        await open_lesson(driver, api, BOB, "5211")
        for index in range(len(get_tutorial("5211"))):
            await play_step(driver, api, BOB, Lesson.at("5211", index))
        for learner in (CAROL, DAVE):  # both leave Sultan: one at step 1, one at step 2
            await open_lesson(driver, api, learner, "sultan")
        await play_step(driver, api, DAVE, Lesson.at("sultan", 0))
        await press_data(driver, api, CAROL, "-x")
        await open_lesson(driver, api, IVAN, "sultan")  # and a third one at step 1
        await driver.send(OWNER, OWNER.id, "/status")
        text = api.last(OWNER.id).text
        assert "5211: 1 → 1 (100%)" in text
        assert "Sultan: 3 → 0 (0%), most leave at step 1" in text
        assert "Azul" not in text.split("🎓")[1]  # never started: not listed
