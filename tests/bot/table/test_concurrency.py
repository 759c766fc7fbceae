"""Presses that arrive at the same moment: each move is applied exactly once."""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.table.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP
from tests.bot.play5211 import board, card_buttons, confirm_button, prompt, start_game


async def select_two(driver, user):
    message = prompt(driver, user)
    for index in (0, 1):
        data = card_buttons(driver.api.messages[user.id][message.message_id])[index]
        await driver.press(user, user.id, message.message_id, data["callback_data"])
    return message.message_id, confirm_button(driver.api.messages[user.id][message.message_id])


async def press_all_at_once(driver, presses):
    updates = [driver.press_update(user, user.id, mid, data) for user, mid, data in presses]
    await asyncio.gather(
        *(driver.app.process_update(Update.de_json(u, driver.app.bot)) for u in updates)
    )
    await driver.settle()


async def test_the_same_button_pressed_many_times_at_once_moves_once(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    message_id, confirm = await select_two(driver, ALICE)
    answers_before = len(api.answers)
    await press_all_at_once(driver, [(ALICE, message_id, confirm["callback_data"])] * 25)
    host = get_host(driver.app)
    moves = await host.storage.moves(1)
    assert [seat for _, seat, _ in moves] == [-1, 0]  # the start, then Alice once
    answers = [a.get("text") for a in api.answers[answers_before:]]
    assert len(answers) == 25  # every press is answered
    assert sum(text.startswith("Played") for text in answers) == 1
    assert all(
        text == "This button is no longer valid. Use the latest message."
        for text in answers
        if not text.startswith("Played")
    )
    assert "✅ Alice" in board(driver, GROUP).text


async def test_players_pressing_at_the_same_moment_in_a_simultaneous_phase(driver, api):
    await start_game(driver, GROUP, ALICE, [ALICE, BOB, CAROL])
    presses = []
    for player in (ALICE, BOB, CAROL):
        message_id, confirm = await select_two(driver, player)
        presses.append((player, message_id, confirm["callback_data"]))
    await press_all_at_once(driver, presses * 3)  # everyone, three times each, all at once
    host = get_host(driver.app)
    moves = await host.storage.moves(1)
    assert sorted(seat for _, seat, _ in moves) == [-1, 0, 1, 2]
    match = await host.storage.load(1)
    assert match.state["part"] == 2 and len(match.state["log"]) == 1  # one reveal
    assert "Round 1, part 2 of 3" in board(driver, GROUP).text
