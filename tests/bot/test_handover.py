"""A deploy that starts the new bot before stopping the old one: two real ``python -m bot``
processes on one database and one (fake) Telegram. The second waits, saying so, until the
first stops on SIGTERM, then takes over within seconds: no update handled twice, no answered
move lost — on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import time

import pytest

from bot.testing.driver import FakeUser
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from games.core import decode_action, encode_action
from tests.bot.conftest import GROUP
from tests.bot.databases import Look
from tests.bot.process import BotProcess, ProcessDriver, last_calls, until
from tests.bot.test_process import (
    answered,
    assert_each_answered_move_committed_once,
    read_match,
)

WAITING = "another bot instance is running"
TAKING_OVER = "taking over"

pytestmark = pytest.mark.usefixtures("no_bot_left_running")

PLAYERS = [FakeUser(400 + n, f"P{n}") for n in range(3)]


def logged(bot: BotProcess, text: str) -> bool:
    return bot.log.exists() and text in bot.log.read_text(errors="replace")


def queue_presses(
    driver: ProcessDriver, look: Look, players: list[FakeUser], rng: random.Random
) -> list:
    """A press from every seat that has a decision (5211: everyone chooses at once)."""
    engine = get_engine("5211")
    state, _, tokens, status = read_match(look)
    if status != "playing":
        return []
    pressed = []
    for seat in sorted(engine.to_act(state)):
        action = encode_action(rng.choice(engine.legal_actions(state, seat)))
        player = players[seat]
        update = driver.press_update(player, player.id, 1, f"a:1:{tokens[seat]}:{action}")
        driver.api.queue_update(update)
        pressed.append((update["callback_query"]["id"], seat, action))
    return pressed


async def start_5211(api: FakeTelegram) -> ProcessDriver:
    """A 5211 match of ``PLAYERS``, joined by the lobby's link and started."""
    driver = ProcessDriver(api)
    driver.group(GROUP, "Game Night")
    await driver.send(PLAYERS[0], GROUP, "/new 5211")
    for player in PLAYERS:
        await driver.follow(player, f"https://t.me/{api.username}?start=j1")
    await driver.press_label(PLAYERS[0], GROUP, "Start")
    return driver


async def play_a_round(driver: ProcessDriver, look: Look, rng: random.Random, pressed: list):
    """Every seat with a decision presses, and each press is answered (``pressed`` keeps
    them)."""
    presses = queue_presses(driver, look, PLAYERS, rng)
    pressed.extend(presses)
    for query, _, _ in presses:
        await until(
            lambda q=query: answered(driver.api, q) is not None,
            what=f"an answer; calls:\n{last_calls(driver.api)}",
        )


async def test_a_second_instance_waits_then_takes_over_when_the_first_stops(server, database):
    rng = random.Random(7)
    look = Look(database)
    first = BotProcess(server, database, log="first.log", LOG_LEVEL="INFO")
    second = BotProcess(server, database, log="second.log", LOG_LEVEL="INFO")
    await first.start()
    driver = await start_5211(server.api)

    await second.start(ready=None)  # the deploy starts the new instance
    await until(lambda: logged(second, WAITING), what="the second instance to say it waits")
    pressed: list = []

    for _ in range(3):  # the first instance plays on while the second waits
        await play_a_round(driver, look, rng, pressed)
    assert not logged(second, TAKING_OVER)

    in_flight = queue_presses(driver, look, PLAYERS, rng)  # pressed as the deploy stops it
    pressed.extend(in_flight)
    await first.terminate()
    stopped = time.monotonic()
    for query, _, _ in in_flight:  # answered by one instance or the other
        await until(lambda q=query: answered(server.api, q) is not None, what="an answer")
    await play_a_round(driver, look, rng, pressed)  # only the second instance can answer these
    took = time.monotonic() - stopped
    assert took < 5, f"the second instance took {took:.1f} s to take over"
    assert logged(second, TAKING_OVER)

    for _ in range(200):  # the second instance plays the game to its end
        if read_match(look)[3] != "playing":
            break
        await play_a_round(driver, look, rng, pressed)
    await second.terminate()

    moves = assert_each_answered_move_committed_once(server.api, look, pressed)
    state, _, _, status = read_match(look)
    engine = get_engine("5211")
    replayed = engine.new_game(len(PLAYERS), state["options"], state["seed"])
    for seat, action in moves:
        replayed = engine.apply(replayed, seat, decode_action(action))
    assert status == "finished" and replayed == state
    look.close()


async def test_a_waiting_instance_stopped_by_the_deploy_exits_at_once(server, database):
    first = BotProcess(server, database, log="first.log")
    second = BotProcess(server, database, log="second.log")
    await first.start()
    await second.start(ready=None)
    await until(lambda: logged(second, WAITING), what="the second instance to say it waits")
    seconds = await second.terminate()  # a deploy that is rolled back
    assert seconds < 5 and second.process.returncode == 0
    assert "Traceback" not in second.log.read_text()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    player = FakeUser(500, "Solo")
    await driver.send(player, GROUP, "/new 5211")  # the first instance still serves
    assert any("new game" in message.text for message in server.api.visible(GROUP))
    await first.terminate()
