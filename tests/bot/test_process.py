"""The bot as a real process: it survives SIGKILL at any moment and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import ALICE, BOB, GROUP
from tests.bot.play5211 import card_buttons, confirm_button, has_choice, prompt
from tests.bot.process import BotProcess, ProcessDriver, until


@pytest.fixture
async def server():
    api = FakeTelegram()
    running = FakeTelegramServer(api)
    running.start()
    yield running
    await running.stop()


async def open_5211(driver, players):
    await driver.send(players[0], GROUP, "/new 5211")
    await until(lambda: any("new game" in m.text for m in driver.api.visible(GROUP)))
    for player in players:
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(players[0], GROUP, "Start")
    await until(lambda: all(has_choice(driver, p) for p in players), what="the deal")


async def test_the_bot_process_plays_against_the_fake_api(server, tmp_path):
    bot = BotProcess(server, tmp_path / "bot.sqlite3")
    await bot.start()
    try:
        driver = ProcessDriver(server.api)
        driver.group(GROUP, "Game Night")
        await open_5211(driver, [ALICE, BOB])
        assert len(card_buttons(prompt(driver, ALICE))) == 5
    finally:
        seconds = await bot.terminate()
    assert seconds < 5
    assert bot.process.returncode == 0


def answered_played(api: FakeTelegram, query_ids: dict[str, tuple[int, str]]) -> list:
    """(seat, action) of every confirm press whose answer said the move was played."""
    played = []
    for answer in api.answers:
        query = answer.get("callback_query_id")
        if query in query_ids and str(answer.get("text", "")).startswith("Played"):
            played.append(query_ids[query])
    return played


@pytest.mark.parametrize("trial", range(3))
async def test_sigkill_at_random_moments_loses_no_answered_move(server, tmp_path, trial):
    rng = random.Random(trial)
    players = [ALICE, BOB]
    db_path = tmp_path / "bot.sqlite3"
    bot = BotProcess(server, db_path)
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await open_5211(driver, players)
    confirms: dict[str, tuple[int, str]] = {}
    kills = 0
    for _ in range(400):
        waiting = [p for p in players if has_choice(driver, p)]
        if not waiting:
            break
        player = rng.choice(waiting)
        message = prompt(driver, player)
        confirm = confirm_button(message)
        if confirm is None:  # tap a card (a selection survives a crash too)
            data = rng.choice(card_buttons(message))["callback_data"]
            await driver.press(player, player.id, message.message_id, data)
            continue
        data = confirm["callback_data"]
        update = driver.press_update(player, player.id, message.message_id, data)
        confirms[update["callback_query"]["id"]] = (players.index(player), data.split(":")[3])
        server.api.queue_update(update)
        if rng.random() < 0.35:  # SIGKILL at a random moment around the press
            await asyncio.sleep(rng.uniform(0, 0.08))
            await bot.kill()
            kills += 1
            await bot.start()
        await until(
            lambda u=update: (
                any(
                    a.get("callback_query_id") == u["callback_query"]["id"]
                    for a in server.api.answers
                )
                or not server.api.pending_updates
            ),
            what="the press to be handled",
        )
        await driver.settle()
    assert kills >= 3
    await until(lambda: any("5211 is over" in m.text for m in server.api.visible(GROUP)), 30)
    await bot.terminate()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        moves = [tuple(row) for row in db.execute("SELECT seat, action FROM moves WHERE seat >= 0")]
        status = db.execute("SELECT status FROM matches WHERE id = 1").fetchone()[0]
    assert status == "finished"
    assert len(moves) == 11 * 3 * 2  # 2 players: 11 rounds of 3 parts, every move exactly once
    for played in answered_played(server.api, confirms):
        assert played in moves, f"an answered move was lost: {played}"


async def test_sigterm_finishes_the_update_in_flight_and_closes_the_database(server, tmp_path):
    db_path = tmp_path / "bot.sqlite3"
    bot = BotProcess(server, db_path)
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await open_5211(driver, [ALICE, BOB])
    message = prompt(driver, ALICE)
    for index in (0, 1):
        card = card_buttons(server.api.messages[ALICE.id][message.message_id])[index]
        await driver.press(ALICE, ALICE.id, message.message_id, card["callback_data"])
    confirm = confirm_button(server.api.messages[ALICE.id][message.message_id])
    update = driver.press_update(ALICE, ALICE.id, message.message_id, confirm["callback_data"])
    server.api.queue_update(update)
    await until(lambda: not server.api.pending_updates or server.api.answers[-1:] != [], 5)
    seconds = await bot.terminate()  # a PaaS restart
    assert seconds < 5 and bot.process.returncode == 0
    assert not (tmp_path / "bot.sqlite3-wal").exists()  # closed cleanly: WAL checkpointed
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    await bot.start()  # whatever was not handled before the stop is handled now
    try:
        await until(
            lambda: any(
                a.get("callback_query_id") == update["callback_query"]["id"]
                for a in server.api.answers
            ),
            what="the press to be answered",
        )
        await driver.settle()
        with sqlite3.connect(db_path) as db:
            seats = [row[0] for row in db.execute("SELECT seat FROM moves WHERE seat >= 0")]
        assert seats == [0]  # Alice's move, exactly once
    finally:
        await bot.terminate()
