"""The bot as a real process: it survives SIGKILL at any moment and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3

import pytest

from bot.i18n import translator
from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram, FakeUser
from bot.ui import playable_games
from games import get_engine
from games.core import decode_action, encode_action
from tests.bot.conftest import ALICE, BOB, GROUP
from tests.bot.play5211 import card_buttons, confirm_button, has_choice, prompt
from tests.bot.process import BotProcess, ProcessDriver, last_calls, until


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


# What the bot answers when a press changed nothing (anything else means the move was played).
REFUSALS = {
    translator("en")(key)
    for key in (
        "play.stale",
        "play.not_your_turn",
        "play.illegal",
        "play.match_over",
        "play.no_match",
        "play.not_your_match",
        "error.bad_button",
        "error.internal",
    )
}


def read_match(db_path) -> tuple[dict, int, list[int], str]:
    """The committed state, version, seat tokens and status, straight from the database."""
    with sqlite3.connect(db_path) as db:
        state, version, status = db.execute(
            "SELECT state, version, status FROM matches WHERE id = 1"
        ).fetchone()
        tokens = [row[0] for row in db.execute("SELECT token FROM seats WHERE match_id = 1")]
    return json.loads(state), version, tokens, status


def answered(api: FakeTelegram, query_id: str) -> str | None:
    for answer in api.answers:
        if answer.get("callback_query_id") == query_id:
            return str(answer.get("text", ""))
    return None


TRIALS = [(game, seed) for game in playable_games() for seed in (1, 2)]


@pytest.mark.parametrize(("game", "seed"), TRIALS)
async def test_sigkill_at_random_moments_loses_no_answered_move(server, tmp_path, game, seed):
    """Play a whole match with random legal presses, killing the bot (SIGKILL) at random
    moments and starting it again on the same database."""
    rng = random.Random(seed)
    engine = get_engine(game)
    players = [FakeUser(300 + n, f"P{n}") for n in range(engine.min_players)]
    db_path = tmp_path / "bot.sqlite3"
    bot = BotProcess(server, db_path)
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await driver.send(players[0], GROUP, f"/new {game}")
    for player in players:
        await driver.follow(player, f"https://t.me/{server.api.username}?start=j1")
    await driver.press_label(players[0], GROUP, "Start")
    played: list[tuple[int, str]] = []  # moves whose press was answered as played
    kills = 0
    for _ in range(2000):
        state, _, tokens, status = read_match(db_path)
        if status == "finished":
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        action = encode_action(rng.choice(engine.legal_actions(state, seat)))
        data = f"a:1:{tokens[seat]}:{action}"
        update = driver.press_update(players[seat], players[seat].id, 1, data)
        query = update["callback_query"]["id"]
        server.api.queue_update(update)
        if rng.random() < 0.12:  # SIGKILL at a random moment around the press
            await asyncio.sleep(rng.uniform(0, 0.05))
            await bot.kill()
            kills += 1
            await bot.start()
            # Fetched but not yet handled when the process died, the press is gone, as
            # with Telegram itself: it was never answered, and the player presses again.
            with contextlib.suppress(AssertionError):
                await until(lambda q=query: answered(server.api, q) is not None, timeout=2)
        else:
            await until(
                lambda q=query: answered(server.api, q) is not None,
                what=f"an answer to {data}; calls:\n{last_calls(server.api)}",
            )
        if answered(server.api, query) not in (None, *REFUSALS):
            played.append((seat, action))
    else:
        raise AssertionError("the match did not end")
    assert kills >= 2
    await until(lambda: any(m.buttons() for m in server.api.visible(GROUP)), what="the end")
    await bot.terminate()
    state, _, _, status = read_match(db_path)
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        moves = [tuple(row) for row in db.execute(
            "SELECT seat, action FROM moves WHERE match_id = 1 AND seat >= 0 ORDER BY version"
        )]  # fmt: skip
    for move in played:
        assert move in moves, f"an answered move was lost: {move}"
    # every committed move exactly once: replaying them from the seed gives the final state
    replayed = engine.new_game(len(players), state["options"], state["seed"])
    for move_seat, move_action in moves:
        replayed = engine.apply(replayed, move_seat, decode_action(move_action))
    assert replayed == state and engine.is_over(state)


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
