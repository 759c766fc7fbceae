"""The bot as a real process: it survives SIGKILL at any moment and stops cleanly on SIGTERM
— on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass

import pytest

from bot.presentation.i18n import translator
from bot.presentation.ui import playable_games
from bot.testing.driver import FakeUser
from bot.testing.fake_server import FakeTelegramServer
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from games.core import decode_action, encode_action
from tests.bot.conftest import ALICE, BOB, GROUP
from tests.bot.databases import Database, Look
from tests.bot.play5211 import card_buttons, confirm_button, has_choice, prompt
from tests.bot.process import BotProcess, ProcessDriver, last_calls, until

# a failed test's bot process never outlives it (the fixtures are in conftest.py)
pytestmark = pytest.mark.usefixtures("no_bot_left_running")


async def open_5211(driver, players):
    await driver.send(players[0], GROUP, "/new 5211")
    await until(lambda: any("new game" in m.text for m in driver.api.visible(GROUP)))
    for player in players:
        await driver.press_label(player, GROUP, "Join")
    await driver.press_label(players[0], GROUP, "Start")
    await until(lambda: all(has_choice(driver, p) for p in players), what="the deal")


async def test_the_bot_process_plays_against_the_fake_api(server, database):
    bot = BotProcess(server, database)
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
        "error.storage",
    )
}


def read_match(look: Look) -> tuple[dict, int, list[int], str]:
    """The committed state, version, seat tokens and status, straight from the database."""
    version, status = look.rows("SELECT version, status FROM matches WHERE id = 1")[0]
    tokens = [
        row[0] for row in look.rows("SELECT token FROM seats WHERE match_id = 1 ORDER BY seat")
    ]
    return look.state(1), version, tokens, status


def answered(api: FakeTelegram, query_id: str) -> str | None:
    for answer in api.answers:
        if answer.get("callback_query_id") == query_id:
            return str(answer.get("text", ""))
    return None


def assert_each_answered_move_committed_once(
    api: FakeTelegram, look: Look, pressed: list[tuple[str, int, str]]
) -> list[tuple[int, str]]:
    """``pressed``: (query id, seat, action) of each move pressed in match 1. Each press was
    answered once, and the moves in the database (returned, in order) are exactly those
    answered as played."""
    once = Counter(answer["callback_query_id"] for answer in api.answers)
    assert all(once[query] == 1 for query, _, _ in pressed)  # no update handled twice
    played = [(seat, action) for query, seat, action in pressed
              if answered(api, query) not in REFUSALS]  # fmt: skip
    moves = look.rows(
        "SELECT seat, action FROM moves WHERE match_id = 1 AND seat >= 0 ORDER BY version"
    )
    assert Counter(moves) == Counter(played)  # every answered move, once
    return moves


@dataclass
class Trial:
    """What one SIGKILL trial did."""

    game: str
    kills: int = 0
    answered: int = 0  # presses answered as played: each must be in the move log
    lost: int = 0  # answered moves missing from the log: must stay 0
    rearmed: int = 0  # deadlines that fell due while the bot was down, then played
    redrawn: int = 0  # restarts after which the board and every prompt were redrawn


def automatic_moves(look: Look) -> int:
    return look.rows("SELECT COUNT(*) FROM moves WHERE automatic = TRUE")[0][0]


def deadline_soon(look: Look, seconds: float) -> None:
    """While the bot is down, time passes: one waiting player's deadline is ``seconds``
    away."""
    look.run(
        "UPDATE seats SET deadline = ? WHERE match_id = 1 AND seat = "
        "(SELECT MIN(seat) FROM seats WHERE match_id = 1 AND deadline IS NOT NULL)",
        (time.time() + seconds,),
    )


def drawn_as_committed(api: FakeTelegram, look: Look) -> bool:
    """The group shows the committed version, and every player with a decision has a
    private prompt whose buttons carry their current token."""
    version, published, board_id, status = look.rows(
        "SELECT version, published, board_message_id, status FROM matches WHERE id = 1"
    )[0]
    seats = look.rows(
        "SELECT user_id, token, prompt_token, prompt_message_id, deadline FROM seats "
        "WHERE match_id = 1"
    )
    if published != version or board_id is None:
        return False
    if board_id not in api.messages[GROUP] or api.messages[GROUP][board_id].deleted:
        return False
    for user_id, token, prompt_token, prompt_id, deadline in seats:
        if status != "playing" or deadline is None:
            continue  # no decision waits for this seat
        shown = api.messages[user_id].get(prompt_id)
        if prompt_token != token or shown is None or shown.deleted:
            return False
        data = [button.get("callback_data", "") for button in shown.buttons()]
        if not any(f":{token}:" in d or f":{token}." in d for d in data):
            return False
    return True


async def sigkill_trial(server, database: Database, game: str, seed: int) -> Trial:
    """Play a whole match with random legal presses, killing the bot (SIGKILL) at random
    moments and starting it again on the same database. After a restart the board and the
    prompts must be redrawn; sometimes a deadline falls due while the bot is down and must
    be played once it is back (its timer re-armed). At the end: every answered move is in
    the log, replaying the log gives the final state, the database is intact, and the
    match is recorded and rated exactly once."""
    rng = random.Random(seed)
    engine = get_engine(game)
    look = Look(database)
    try:
        return await _sigkill_trial(server, database, look, engine, game, rng)
    finally:
        look.close()


async def _sigkill_trial(server, database, look, engine, game, rng) -> Trial:
    players = [FakeUser(300 + n, f"P{n}") for n in range(engine.min_players)]
    trial = Trial(game)
    # a move time limit, so that timers are part of every restart; autopilot kept out of
    # the way (the random presses play every seat)
    bot = BotProcess(server, database, DEFAULT_TURN_SECONDS="60", AUTOPILOT_AFTER="1000")
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await driver.send(players[0], GROUP, f"/new {game}")
    for player in players:
        await driver.follow(player, f"https://t.me/{server.api.username}?start=j1")
    await driver.press_label(players[0], GROUP, "Start")
    played: list[tuple[int, str]] = []  # moves whose press was answered as played

    async def restart(deadline_due: bool = False) -> None:
        await bot.kill()
        trial.kills += 1
        automatic = automatic_moves(look)
        if deadline_due:
            deadline_soon(look, 1.0)
        await bot.start()
        if deadline_due:
            await until(
                lambda: automatic_moves(look) > automatic,
                what=f"the deadline to be played after a restart; calls:\n{last_calls(server.api)}",
            )
            trial.rearmed += 1

    for press in range(3000):
        state, _, tokens, status = read_match(look)
        if status == "finished":
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        action = encode_action(rng.choice(engine.legal_actions(state, seat)))
        data = f"a:1:{tokens[seat]}:{action}"
        update = driver.press_update(players[seat], players[seat].id, 1, data)
        query = update["callback_query"]["id"]
        server.api.queue_update(update)
        # SIGKILL at a random moment around a random press, and surely around the 3rd and
        # the 8th, so even a short match is killed at least twice
        if rng.random() < 0.12 or press in (3, 8):
            await asyncio.sleep(rng.uniform(0, 0.05))
            await restart()
            # Fetched but not yet handled when the process died, the press is gone, as
            # with Telegram itself: it was never answered, and the player presses again.
            with contextlib.suppress(AssertionError):
                await until(lambda q=query: answered(server.api, q) is not None, timeout=2)
            if rng.random() < 0.2 and read_match(look)[3] == "playing":
                await driver.settle()  # nothing in flight: the deadline is the only change
                await restart(deadline_due=True)  # time passed while the bot was down
            await until(
                lambda: drawn_as_committed(server.api, look),
                what=f"the board and prompts redrawn; calls:\n{last_calls(server.api)}",
            )
            trial.redrawn += 1
        else:
            await until(
                lambda q=query: answered(server.api, q) is not None,
                what=f"an answer to {data}; calls:\n{last_calls(server.api)}",
            )
        if answered(server.api, query) not in (None, *REFUSALS):
            played.append((seat, action))
    else:
        raise AssertionError("the match did not end")
    await until(lambda: any(m.buttons() for m in server.api.visible(GROUP)), what="the end")
    await bot.terminate()
    state, _, _, status = read_match(look)
    if database.backend == "sqlite":
        assert look.rows("PRAGMA integrity_check") == [("ok",)]
    moves = look.rows(
        "SELECT seat, action FROM moves WHERE match_id = 1 AND seat >= 0 ORDER BY version"
    )
    trial.answered = len(played)
    trial.lost = sum(1 for move in played if move not in moves)
    assert trial.lost == 0, f"answered moves were lost: {set(played) - set(moves)}"
    # every committed move exactly once: replaying them from the seed gives the final state
    replayed = engine.new_game(len(players), state["options"], state["seed"])
    for move_seat, move_action in moves:
        replayed = engine.apply(replayed, move_seat, decode_action(move_action))
    assert replayed == state and engine.is_over(state)
    # recorded and rated in the transaction that finished it, whenever the kills fell:
    # once — every player's rating counts one game, globally and in the group
    assert look.rows("SELECT match_id, outcome, rated FROM match_records") == [
        (1, "finished", True)
    ]
    ratings = look.rows("SELECT scope, user_id, games FROM ratings ORDER BY scope, user_id")
    assert sorted(ratings) == sorted(
        (scope, player.id, 1) for scope in (0, GROUP) for player in players
    )
    return trial


# Two trials per game on SQLite, one on PostgreSQL: the storage's part of the guarantee (a move
# is committed before its press is answered) is the same in every game, and these trials are
# the suite's longest tests. The soak runs many more on either backend.
TRIALS = [("sqlite", game, seed) for game in playable_games() for seed in (1, 2)] + [
    ("postgres", game, 1) for game in playable_games()
]


@pytest.mark.parametrize(("backend", "game", "seed"), TRIALS)
async def test_sigkill_at_random_moments_loses_no_answered_move(server, database, game, seed):
    trial = await sigkill_trial(server, database, game, seed)
    assert trial.kills >= 2 and trial.redrawn >= 1


@pytest.mark.soak
async def test_soak_many_sigkill_trials_across_all_games(tmp_path, request):
    """The same trials, many of them (``SOAK_TRIALS``, default 100), across all five games:
    ``SOAK_TRIALS=100 python -m pytest -m soak -s tests/bot/test_process.py``, on SQLite, or
    on PostgreSQL with ``SOAK_BACKEND=postgres``. Prints its figures as one JSON line."""
    count = int(os.environ.get("SOAK_TRIALS", "100"))
    backend = os.environ.get("SOAK_BACKEND", "sqlite")
    postgres = request.getfixturevalue("postgres_server") if backend == "postgres" else None
    games = playable_games()
    started = time.monotonic()
    trials = []
    for number in range(count):
        api = FakeTelegram(record=True)
        server = FakeTelegramServer(api)
        server.start()
        workdir = tmp_path / f"trial{number}"
        workdir.mkdir()
        game = games[number % len(games)]
        try:
            database = Database("sqlite", workdir / "bot.sqlite3")
            if postgres is not None:
                url = postgres.url_of(await postgres.create_database())
                database = Database("postgres", workdir / "bot.sqlite3", url)
            trials.append(await sigkill_trial(server, database, game, number))
        except AssertionError as error:
            raise AssertionError(f"trial {number} ({game}, seed {number}): {error}") from None
        finally:
            await server.stop()
    figures = {
        "database": backend,
        "trials": len(trials),
        "games": {game: sum(t.game == game for t in trials) for game in games},
        "kills": sum(t.kills for t in trials),
        "answered_moves": sum(t.answered for t in trials),
        "lost_answered_moves": sum(t.lost for t in trials),
        "deadlines_rearmed": sum(t.rearmed for t in trials),
        "redraws_checked": sum(t.redrawn for t in trials),
        "seconds": round(time.monotonic() - started, 1),
    }
    print("\nsoak:", json.dumps(figures))
    assert figures["lost_answered_moves"] == 0 and figures["trials"] == count


async def test_sigterm_finishes_the_update_in_flight_and_closes_the_database(server, database):
    bot = BotProcess(server, database)
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
    look = Look(database)
    if database.backend == "sqlite":
        wal = database.path.with_name(database.path.name + "-wal")
        assert not wal.exists()  # closed cleanly: WAL checkpointed
        assert look.rows("PRAGMA integrity_check") == [("ok",)]
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
        seats = [row[0] for row in look.rows("SELECT seat FROM moves WHERE seat >= 0")]
        assert seats == [0]  # Alice's move, exactly once
    finally:
        await bot.terminate()
        look.close()


async def test_an_inline_match_survives_sigkill(server, database):
    """Inline mode as a real process: two friends' Sultan in an inline message, the bot
    killed (SIGKILL) around two presses: no answered move is lost, the message is redrawn
    to the committed state, and the match ends, recorded once."""
    api: FakeTelegram = server.api
    look = Look(database)
    bot = BotProcess(server, database)
    try:
        await bot.start()
        driver = ProcessDriver(api)
        for player in (ALICE, BOB):
            await driver.send(player, player.id, "/start")
        answer = await driver.inline_query(ALICE, "sultan")
        inline_id = driver.choose_result(ALICE, 7_000_003, answer["results"][0])
        await driver.press_inline_label(BOB, inline_id, "Join")
        await driver.press_inline_label(ALICE, inline_id, "Start")
        engine, rng, played = get_engine("sultan"), random.Random(7), []
        for press in range(500):
            state, _, tokens, status = read_match(look)
            if status == "finished":
                break
            (seat,) = engine.to_act(state)
            action = encode_action(rng.choice(engine.legal_actions(state, seat)))
            user = (ALICE, BOB)[seat]
            update = driver.press_update(user, user.id, 1, f"a:1:{tokens[seat]}:{action}")
            query = update["callback_query"]["id"]
            api.queue_update(update)
            if press in (3, 8):  # killed around the press: it may or may not be answered
                await asyncio.sleep(rng.uniform(0, 0.05))
                await bot.kill()
                await bot.start()
                with contextlib.suppress(AssertionError):
                    await until(lambda q=query: answered(api, q) is not None, timeout=2)
                await until(lambda: inline_drawn(look), what="the inline message redrawn")
            else:
                await until(lambda q=query: answered(api, q) is not None, what="an answer")
            if answered(api, query) not in (None, *REFUSALS):
                played.append((seat, action))
        await until(lambda: "is over" in api.inline_messages[inline_id].text, what="the end")
        await bot.terminate()
        moves = look.rows(
            "SELECT seat, action FROM moves WHERE match_id = 1 AND seat >= 0 ORDER BY version"
        )
        assert [move for move in played if move not in moves] == []
        assert look.rows("SELECT match_id, outcome, rated FROM match_records") == [
            (1, "finished", True)
        ]
    finally:
        look.close()


def inline_drawn(look: Look) -> bool:
    """The inline message shows the committed version of match 1."""
    version, published = look.rows("SELECT version, published FROM matches WHERE id = 1")[0]
    return published == version
