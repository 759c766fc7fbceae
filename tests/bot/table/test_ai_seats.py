"""AI seats through the real Application and the fake Bot API: the lobby's bots, whole
matches with AI seats in every game, a restart in the middle of an AI's turn, the real
process pool, absent players played by the normal AI, and practice in the private chat
with its hint."""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import threading
import time
from dataclasses import dataclass, field

import pytest
from telegram import Update

import games.ai
from bot.presentation.i18n import translator
from bot.presentation.ui import get_ui
from bot.storage import Match
from bot.table.ai_moves import MOST_ITERATIONS, decision_args, decision_seed, normal_move
from bot.table.ai_seats import AISeats
from bot.table.host import get_host
from bot.telegram_api.callbacks import Callback
from bot.testing.driver import Driver, FakeUser
from games import get_engine
from games.ai import choose, game_ai, hint
from games.core import encode_action
from tests.bot.conftest import ALICE, BOB, CAROL, GIULIA, GROUP, IVAN, OKSANA, running_bot
from tests.bot.helpers import current_match, play_by_data, prompt, tick, use_clock
from tests.bot.worker_faults import die_once, run_away

EN = translator("en")
NORMAL_BOT = "🤖 Normal Bot"


async def open_with_bots(
    driver: Driver,
    game: str,
    humans: list[FakeUser],
    bots: int,
    chat: int = GROUP,
    level: str = "Normal",
) -> Match:
    """``/new game`` by the first human; every human joins; the creator seats ``bots``
    bots of ``level`` (its button's word) and starts."""
    creator = humans[0]
    await driver.send(creator, chat, f"/new {game}")
    if chat == GROUP:
        for human in humans:
            await driver.press_label(human, chat, EN("lobby.join"))
    for _ in range(bots):
        await driver.press_label(creator, chat, f"➕🤖 {level}")
    await driver.press_label(creator, chat, EN("lobby.start"))
    return await current_match(driver, chat)


async def play_out(
    driver: Driver, humans: list[FakeUser], seed: int, chat: int = GROUP, moves: int = 3000
) -> Match:
    """The humans make random legal moves (the AI seats play by themselves) to the end."""
    match = await play_some(driver, humans, seed, chat, moves)
    if match.status != "playing":
        return match
    raise AssertionError("the match did not end")


async def play_some(
    driver: Driver, humans: list[FakeUser], seed: int, chat: int = GROUP, moves: int = 3
) -> Match:
    """The humans make up to ``moves`` random legal moves (the AI seats play by
    themselves); the match as they leave it."""
    rng = random.Random(seed)
    users = {user.id: user for user in humans}
    for _ in range(moves):
        match = await current_match(driver, chat)
        if match.status != "playing":
            return match
        engine = get_engine(match.game)
        acting = [s for s in sorted(engine.to_act(match.state)) if not match.seats[s].is_ai]
        assert acting, "the AI seats left the table waiting"
        seat = acting[0]
        action = rng.choice(engine.legal_actions(match.state, seat))
        await play_by_data(driver, match, users[match.seats[seat].user_id], action)
    return await current_match(driver, chat)


async def ai_moves(driver: Driver, match: Match) -> list[tuple[int, str]]:
    """Every move the AI seats made: (seat, encoded action)."""
    moves = await get_host(driver.app).storage.moves(match.id)
    return [(seat, action) for _, seat, action in moves if seat >= 0 and match.seats[seat].is_ai]


# -- the lobby -----------------------------------------------------------------------------------


async def test_the_creator_or_an_admin_seats_bots_and_removes_them(driver, api):
    await driver.send(ALICE, GROUP, "/new azul")
    await driver.press_label(ALICE, GROUP, EN("lobby.join"))
    assert await driver.press_label(ALICE, GROUP, "➕🤖 Hard") == "🤖 Hard Bot takes a seat."
    assert "2. 🤖 Hard Bot" in api.last(GROUP).text
    # another player may not
    assert await driver.press_label(BOB, GROUP, "➕🤖 Easy") == EN("lobby.creator_only")
    api.admins[GROUP].add(CAROL.id)
    assert await driver.press_label(CAROL, GROUP, "➕🤖 Easy") == "🤖 Easy Bot takes a seat."
    match = await current_match(driver)
    assert [(seat.name, seat.ai) for seat in match.seats] == [
        ("Alice", None),
        ("🤖 Hard Bot", "hard"),
        ("🤖 Easy Bot", "easy"),
    ]
    assert await driver.press_label(BOB, GROUP, "➖🤖") == EN("lobby.creator_only")
    assert await driver.press_label(ALICE, GROUP, "➖🤖") == "🤖 Easy Bot leaves the table."
    assert await driver.press_label(ALICE, GROUP, "➖🤖") == "🤖 Hard Bot leaves the table."
    assert [seat.name for seat in (await current_match(driver)).seats] == ["Alice"]
    assert "➖🤖" not in str(api.last(GROUP).buttons())  # nothing left to remove


async def test_the_arena_only_levels_cannot_be_seated(driver, api):
    """hard-v1 and the reference player are the arena's yardsticks: a button forged to seat
    one is refused like any bad button."""
    await driver.send(ALICE, GROUP, "/new azul")
    lobby = api.last(GROUP)
    hard = next(b["callback_data"] for b in lobby.buttons() if b["text"] == "➕🤖 Hard")
    assert hard.endswith(":hard")
    for level in ("hard-v1", "reference"):
        forged = hard.removesuffix("hard") + level
        answer = await driver.press(ALICE, GROUP, lobby.message_id, forged)
        assert answer == EN("error.bad_button")
    assert (await current_match(driver)).seats == []


async def test_a_full_table_offers_no_more_bots(driver, api):
    await driver.send(ALICE, GROUP, "/new azul")
    for _ in range(4):
        await driver.press_label(ALICE, GROUP, "➕🤖 Normal")
    labels = [button["text"] for button in api.last(GROUP).buttons()]
    assert not [label for label in labels if label.startswith("➕🤖")]
    assert "➖🤖 Remove" in labels


async def test_bots_alone_cannot_play_a_match(driver, api):
    await driver.send(ALICE, GROUP, "/new 5211")
    await driver.press_label(ALICE, GROUP, "➕🤖 Normal")
    await driver.press_label(ALICE, GROUP, "➕🤖 Normal")
    answer = await driver.press_label(ALICE, GROUP, EN("lobby.start"))
    assert answer == "At least one player must be a person, not a bot."
    assert (await current_match(driver)).status == "lobby"


async def test_two_people_and_one_bot_play_who_is_the_donkey(driver, api, deal):
    deal(5)
    match = await open_with_bots(driver, "donkey", [ALICE, BOB], bots=1)
    assert match.status == "playing"
    assert [seat.name for seat in match.seats] == ["Alice", "Bob", NORMAL_BOT]


# -- whole matches -------------------------------------------------------------------------------

GAMES = [
    ("5211", [ALICE], 2),  # every seat chooses at once: the two bots decide together
    ("sultan", [ALICE], 1),
    ("donkey", [ALICE, BOB], 1),
    ("azul", [ALICE], 1),
    ("summer_pavilion", [ALICE], 1),
]


@pytest.mark.parametrize(("game", "humans", "bots"), GAMES)
async def test_a_whole_match_with_ai_seats(driver, api, deal, game, humans, bots):
    deal(11)
    match = await open_with_bots(driver, game, humans, bots)
    final = await play_out(driver, humans, seed=3)
    assert final.status == "finished"
    played = await ai_moves(driver, final)
    assert {seat for seat, _ in played} == {s.seat for s in final.seats if s.is_ai}
    # shown as AI in the result; nobody pinged or wrote to a bot
    result = api.last(GROUP).text
    assert NORMAL_BOT in result
    bot_ids = {seat.user_id for seat in match.seats if seat.is_ai}
    assert not bot_ids & set(api.messages)
    pings = [m.text for m in api.messages[GROUP].values() if m.text.startswith("👉")]
    assert not [text for text in pings if "🤖" in text]


async def test_the_same_match_replays_the_same_ai_moves(api, tmp_path, deal):
    logs = []
    for run in (1, 2):
        deal(4)
        async with running_bot(api, tmp_path / f"run{run}.sqlite3") as driver:
            driver.group(GROUP, "Game Night")
            match = await open_with_bots(driver, "azul", [ALICE], bots=1)
            await play_out(driver, [ALICE], seed=9)
            logs.append(await get_host(driver.app).storage.moves(match.id))
    assert logs[0] == logs[1]
    assert len([seat for _, seat, _ in logs[0] if seat == 1]) > 10


async def choose_calls_of_a_game_with_hard_bots(
    api, database, monkeypatch, game: str, bots: int, think_seconds: float, seed: int
) -> list[tuple]:
    """The arguments of every AI decision of a whole game of Alice (her moves drawn with
    ``seed``) and ``bots`` 🤖 Hard seats, played out with ``AI_THINK_SECONDS`` at
    ``think_seconds``."""
    seen: list[tuple] = []

    def spy(*args):
        seen.append(args)
        return choose(*args)

    monkeypatch.setattr("bot.table.ai_seats.choose", spy)
    async with running_bot(api, database, ai_think_seconds=think_seconds) as driver:
        driver.group(GROUP, "Game Night")
        await open_with_bots(driver, game, [ALICE], bots=bots, level="Hard")
        final = await play_out(driver, [ALICE], seed=seed)
    assert final.status == "finished"
    return seen


async def test_a_hard_seat_thinks_for_the_set_time_in_its_worker(api, database, deal, monkeypatch):
    """``AI_THINK_SECONDS`` bounds a 🤖 Hard seat's tree search by the clock (and at 4× the
    game's iterations); the other levels get no clock."""
    deal(3)
    seen = await choose_calls_of_a_game_with_hard_bots(
        api, database, monkeypatch, "summer_pavilion", bots=1, think_seconds=0.02, seed=4
    )
    hard = [args for args in seen if args[1] == "hard"]
    assert hard and len(hard) == len(seen)
    cap = game_ai("summer_pavilion").iterations * MOST_ITERATIONS
    assert {args[6:] for args in hard} == {(cap, 0.02)}
    assert "🤖 Hard Bot" in api.last(GROUP).text


async def test_hard_seats_share_the_think_time_when_more_decide_than_workers_run(
    api, database, deal, monkeypatch
):
    """Two 🤖 Hard seats bidding at once in 5211, on one worker: each thinks half of
    ``AI_THINK_SECONDS``, so the table waits one think time, not two."""
    deal(5)
    seen = await choose_calls_of_a_game_with_hard_bots(
        api, database, monkeypatch, "5211", bots=2, think_seconds=0.04, seed=2
    )
    assert len(seen) > 20
    assert {args[7] for args in seen} == {0.02}


def test_the_think_time_is_shared_out_down_to_a_quarter():
    seats = AISeats(None, None, None, None, workers=2, think_seconds=1.0)  # type: ignore[arg-type]
    assert seats.think_time(1) == 1.0  # a worker is free
    assert seats.think_time(2) == 1.0
    seats.pool.in_flight = 2
    assert seats.think_time(2) == 0.5  # four decisions on two workers
    seats.pool.in_flight = 20
    assert seats.think_time(1) == 0.25  # never below a quarter
    assert AISeats(None, None, None, None, workers=2).think_time(3) is None  # no clock


# -- restarts and the real pool ------------------------------------------------------------------


async def test_an_ai_turn_pending_at_start_up_is_played(api, database, deal, monkeypatch):
    deal(7)
    with monkeypatch.context() as patch:
        patch.setattr("bot.table.ai_seats.AISeats.wake", lambda self, match: None)  # the bot "dies"
        async with running_bot(api, database) as driver:
            driver.group(GROUP, "Game Night")
            match = await open_with_bots(driver, "azul", [ALICE], bots=1)
            engine = get_engine("azul")
            while not any(match.seats[s].is_ai for s in engine.to_act(match.state)):
                action = engine.legal_actions(match.state, 0)[0]
                await play_by_data(driver, match, ALICE, action)
                match = await current_match(driver)
    bot_seat = match.seats[1]
    expected = choose(*decision_args(match, bot_seat, "normal"))
    async with running_bot(api, database) as driver:  # start-up plays the AI's turn
        after = await current_match(driver)
        moves = await get_host(driver.app).storage.moves(match.id)
    assert after.version > match.version
    assert moves[match.version][1:] == (1, encode_action(expected))


async def test_the_ai_seats_play_in_worker_processes(api, database, deal):
    deal(2)
    async with running_bot(api, database, ai_workers=1) as driver:
        driver.group(GROUP, "Game Night")
        await open_with_bots(driver, "sultan", [ALICE], bots=1)
        final = await play_out(driver, [ALICE], seed=1)
        assert final.status == "finished"
        assert await ai_moves(driver, final)
        assert multiprocessing.active_children()  # the pool's worker
    assert not multiprocessing.active_children()  # shut down with the bot


# -- a worker killed, a decision that runs away, a flood of hints -----------------------------


def expect_ai_moves(
    monkeypatch, level: str | None = None, defaults: dict[int, tuple[int, str]] | None = None
) -> dict[int, tuple[int, str]]:
    """What the AI would choose (at ``level``, or each seat's own) at every version it is
    woken for, computed here in the test's own process: version → (seat, encoded move);
    ``defaults`` gets the engine's default moves there."""
    expected: dict[int, tuple[int, str]] = {}
    defaults = {} if defaults is None else defaults
    wake = AISeats.wake

    def spy(self: AISeats, match: Match) -> None:
        if match.status == "playing":
            for number in get_engine(match.game).to_act(match.state):
                seat = match.seats[number]
                if seat.is_ai and (args := decision_args(match, seat, level or seat.ai)):
                    expected[match.version] = (number, encode_action(choose(*args)))
                    default = get_engine(match.game).default_action(match.state, number)
                    defaults[match.version] = (number, encode_action(default))
        wake(self, match)

    monkeypatch.setattr(AISeats, "wake", spy)
    return expected


async def ai_moves_since(driver: Driver, match: Match) -> dict[int, tuple[int, str]]:
    """The AI seats' moves from ``match``'s version on: version → (seat, encoded move)."""
    moves = await get_host(driver.app).storage.moves(match.id)
    return {
        version: (seat, action)
        for version, (_, seat, action) in enumerate(moves)
        if version >= match.version and seat >= 0 and match.seats[seat].is_ai
    }


def expected_hint(match: Match, user: FakeUser) -> str:
    """The popup a hint for ``user``'s current decision shows (in English)."""
    engine, seat = get_engine(match.game), match.seat_of(user.id)
    view = engine.view(match.state, seat.seat)
    legal = engine.legal_actions(match.state, seat.seat)
    tip = hint(match.game, view, seat.seat, legal, decision_seed(match, seat))
    move = get_ui(match.game).move_label(EN, view, tip.action, seat.seat, suggested=True)
    return EN.plural("hint.points", round(tip.expected_score), move=move)


def kill_ai_workers() -> list[int]:
    """SIGKILL every AI worker process, as the OOM killer would; wait until they are gone."""
    workers = multiprocessing.active_children()
    for worker in workers:
        os.kill(worker.pid, signal.SIGKILL)
    multiprocessing.connection.wait([worker.sentinel for worker in workers], timeout=10)
    return [worker.pid for worker in workers]


async def start_practice(driver: Driver, user: FakeUser, game: str = "azul") -> Match:
    await driver.send(user, user.id, f"/new {game}")
    await driver.press_label(user, user.id, EN("lobby.start"))
    return await current_match(driver, user.id)


def replaced_pools(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno == logging.WARNING and "replaced" in record.getMessage()
    ]


@pytest.mark.parametrize("backend", ["sqlite"])  # the pool's behaviour: one backend is enough
async def test_a_killed_ai_worker_is_replaced_and_play_and_hints_go_on(
    api, database, deal, monkeypatch, caplog
):
    deal(6)
    expected = expect_ai_moves(monkeypatch)
    caplog.set_level(logging.WARNING)
    async with running_bot(api, database, ai_workers=1) as driver:
        await start_practice(driver, ALICE)
        match = await play_some(driver, [ALICE], seed=2, chat=ALICE.id, moves=3)
        assert await driver.press_label(ALICE, ALICE.id, EN("hint.button")) == expected_hint(
            match, ALICE
        )
        assert kill_ai_workers()
        answer = await driver.press_label(ALICE, ALICE.id, EN("hint.button"))
        assert answer == expected_hint(match, ALICE)  # not "Something went wrong"
        final = await play_out(driver, [ALICE], seed=5, chat=ALICE.id)
        played = await ai_moves_since(driver, match)
    assert final.status == "finished"
    assert len(played) > 10
    assert played == {version: expected[version] for version in played}  # none a default move
    assert replaced_pools(caplog)


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_worker_that_dies_mid_decision_costs_one_retry(
    api, database, deal, monkeypatch, tmp_path
):
    deal(6)
    expected = expect_ai_moves(monkeypatch)
    died = tmp_path / "died"
    monkeypatch.setattr("bot.table.ai_seats.choose", functools.partial(die_once, str(died)))
    async with running_bot(api, database, ai_workers=1) as driver:
        match = await start_practice(driver, ALICE)
        await play_some(driver, [ALICE], seed=2, chat=ALICE.id, moves=4)
        played = await ai_moves_since(driver, match)
    assert died.exists()  # the first decision's worker was killed
    assert len(played) >= 3
    assert played == {version: expected[version] for version in played}


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_runaway_decision_gives_way_to_the_normal_ai_and_its_worker_is_killed(
    api, database, deal, monkeypatch, tmp_path, caplog
):
    deal(6)
    defaults: dict[int, tuple[int, str]] = {}
    expected = expect_ai_moves(monkeypatch, "normal", defaults)  # what replaces the hard search
    runaway = tmp_path / "runaway"
    monkeypatch.setattr("bot.table.ai_seats.DECISION_SECONDS", 2.0, raising=False)
    monkeypatch.setattr("bot.table.ai_seats.choose", functools.partial(run_away, str(runaway)))
    caplog.set_level(logging.WARNING)
    async with running_bot(api, database, ai_workers=1) as driver:
        # the worker is up before the decision: a pool marks a call running when it queues
        # it for a worker, and a worker still starting (a loaded machine) is no runaway
        await get_host(driver.app).ai_seats.pool.run(60, os.getpid)
        driver.group(GROUP, "Game Night")
        await driver.send(ALICE, GROUP, "/new azul")
        await driver.press_label(ALICE, GROUP, EN("lobby.join"))
        await driver.press_label(ALICE, GROUP, "➕🤖 Hard")
        await driver.press_label(ALICE, GROUP, EN("lobby.start"))
        match = await current_match(driver)
        started = time.perf_counter()
        await play_some(driver, [ALICE], seed=2, moves=1)  # then the bot's decision runs away
        waited = time.perf_counter() - started
        played = await ai_moves_since(driver, match)
    assert len(played) == 1
    ((version, move),) = played.items()
    assert move == expected[version] != defaults[version]
    assert waited < 10  # the bound, not the runaway's 20 s
    assert int(runaway.read_text()) not in {
        worker.pid for worker in multiprocessing.active_children()
    }
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"match {match.id}" in text and "seat 1" in text for text in warnings)


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_stop_does_not_wait_for_a_runaway_decision(
    api, database, deal, monkeypatch, tmp_path
):
    deal(6)
    runaway = tmp_path / "runaway"
    monkeypatch.setattr("bot.table.worker_pool.CLOSE_SECONDS", 0.5, raising=False)
    monkeypatch.setattr("bot.table.ai_seats.choose", functools.partial(run_away, str(runaway)))
    async with running_bot(api, database, ai_workers=1) as driver:
        match = await start_practice(driver, ALICE)
        action = get_engine("azul").legal_actions(match.state, 0)[0]
        data = Callback("a", match.id, match.seats[0].token, encode_action(action)).encode()
        press = driver.press_update(ALICE, ALICE.id, prompt(driver, ALICE).message_id, data)
        await driver.app.process_update(Update.de_json(press, driver.app.bot))  # no settling
        for _ in range(200):  # until the bot's decision has begun in its worker
            if runaway.exists():
                break
            await asyncio.sleep(0.05)
        assert runaway.exists()
        started = time.perf_counter()
    assert time.perf_counter() - started < 5  # not the runaway's 20 s
    assert not multiprocessing.active_children()


@dataclass
class SlowHints:
    """Hints that take ``seconds`` each (computed in a thread: ``ai_workers=0``)."""

    seconds: float
    calls: list[int] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def slow_hints(monkeypatch) -> SlowHints:
    slow = SlowHints(seconds=0.25)
    expected_final_score = games.ai.expected_final_score

    def slowly(*args):
        slow.calls.append(1)
        slow.started.set()
        time.sleep(slow.seconds)
        return expected_final_score(*args)

    monkeypatch.setattr("games.ai.expected_final_score", slowly)
    return slow


def press_hint_soon(driver: Driver, user: FakeUser) -> tuple[str, asyncio.Task]:
    """Press "Hint" in ``user``'s practice without waiting: the query's id and its task."""
    message, button = driver.find_button(user.id, EN("hint.button"))
    update = driver.press_update(user, user.id, message.message_id, button["callback_data"])
    task = asyncio.create_task(driver.app.process_update(Update.de_json(update, driver.app.bot)))
    return update["callback_query"]["id"], task


def answer_to(api, query_id: str) -> str:
    (answer,) = [a for a in api.answers if str(a["callback_query_id"]) == query_id]
    return answer.get("text")


async def timed_move(driver: Driver, user: FakeUser) -> float:
    """Seconds from ``user``'s move in the group's match until the bot has answered it."""
    match = await current_match(driver)
    seat = match.seat_of(user.id)
    action = get_engine(match.game).legal_actions(match.state, seat.seat)[0]
    started = time.perf_counter()
    await play_by_data(driver, match, user, action)
    seconds = time.perf_counter() - started
    assert (await current_match(driver)).version == match.version + 2  # the bot moved too
    return seconds


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_hint_flood_leaves_another_matchs_bot_move_on_time(driver, api, deal, slow_hints):
    deal(3)
    players = [FakeUser(400 + number, f"Player {number}") for number in range(12)]
    for player in players:
        await start_practice(driver, player)
    await open_with_bots(driver, "azul", [ALICE], bots=1)
    normal = await timed_move(driver, ALICE)
    presses = [press_hint_soon(driver, player) for player in players for _ in range(2)]
    assert await asyncio.to_thread(slow_hints.started.wait, 10)
    flooded = await timed_move(driver, ALICE)
    await asyncio.gather(*(task for _, task in presses))
    assert flooded < normal + 1.0
    answers = [answer_to(api, query_id) for query_id, _ in presses]
    hints = [text for text in answers if text.startswith("💡 The normal bot would play")]
    refusals = [text for text in answers if text in (EN("hint.thinking"), EN("hint.busy"))]
    assert hints and len(hints) + len(refusals) == len(answers)
    assert len(slow_hints.calls) == len(hints)  # a refused press computes nothing


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_repeated_hint_press_is_told_still_thinking_and_computes_nothing(
    driver, api, deal, slow_hints
):
    deal(8)
    match = await start_practice(driver, ALICE)
    presses = [press_hint_soon(driver, ALICE) for _ in range(3)]
    await asyncio.gather(*(task for _, task in presses))
    assert len(slow_hints.calls) == 1  # only the first press computed a hint
    answers = [answer_to(api, query_id) for query_id, _ in presses]
    thinking = EN("hint.thinking")
    assert thinking == "💡 Still thinking…"
    assert sorted(answers) == sorted([expected_hint(match, ALICE), thinking, thinking])


# -- absent players ------------------------------------------------------------------------------


async def test_a_timeout_plays_the_normal_ais_move(driver, api, deal):
    deal(1)
    await driver.send(ALICE, GROUP, "/new azul")
    for user in (ALICE, BOB):
        await driver.press_label(user, GROUP, EN("lobby.join"))
    await driver.press_label(ALICE, GROUP, EN("lobby.start"))
    clock = use_clock(driver)
    match = await current_match(driver)
    engine = get_engine("azul")
    seat = match.seats[min(engine.to_act(match.state))]
    expected = normal_move(match, seat)
    assert expected != engine.default_action(match.state, seat.seat)  # the test can tell
    clock.now = seat.deadline + 1
    await tick(driver, clock, match.id)
    moves = await get_host(driver.app).storage.moves(match.id)
    assert moves[-1][1:] == (seat.seat, encode_action(expected))


async def test_a_failing_ai_falls_back_to_the_default_move(driver, api, deal, monkeypatch):
    deal(3)
    await driver.send(ALICE, GROUP, "/new azul")
    for user in (ALICE, BOB):
        await driver.press_label(user, GROUP, EN("lobby.join"))
    await driver.press_label(ALICE, GROUP, EN("lobby.start"))

    def broken(*args):
        raise RuntimeError("no AI today")

    monkeypatch.setattr("bot.table.ai_moves.choose", broken)
    clock = use_clock(driver)
    match = await current_match(driver)
    engine = get_engine("azul")
    seat = match.seats[min(engine.to_act(match.state))]
    clock.now = seat.deadline + 1
    await tick(driver, clock, match.id)
    moves = await get_host(driver.app).storage.moves(match.id)
    default = engine.default_action(match.state, seat.seat)
    assert moves[-1][1:] == (seat.seat, encode_action(default))


# -- practice in the private chat ----------------------------------------------------------------


async def test_practice_in_the_private_chat(driver, api, deal):
    deal(6)
    await driver.send(ALICE, ALICE.id, "/new")
    await driver.press_label(ALICE, ALICE.id, "Azul")
    lobby = api.last(ALICE.id)
    assert lobby.text.startswith("🤖 Azul — practice")
    assert "2. 🤖 Normal Bot" in lobby.text
    labels = [button["text"] for button in lobby.buttons()]
    assert EN("lobby.join") not in labels and EN("lobby.leave") not in labels
    await driver.press_label(ALICE, ALICE.id, EN("lobby.start"))
    match = await current_match(driver, ALICE.id)
    assert match.status == "playing" and match.practice
    # the board and the prompt in the same chat, no pings
    texts = [m.text for m in api.visible(ALICE.id) if m.from_bot]
    assert any(text.startswith("Azul") for text in texts)
    assert not [text for text in texts if text.startswith("👉")]
    final = await play_out(driver, [ALICE], seed=2, chat=ALICE.id)
    assert final.status == "finished"
    assert NORMAL_BOT in api.last(ALICE.id).text or any(
        NORMAL_BOT in m.text for m in api.visible(ALICE.id)[-3:]
    )
    # /cancel works there too (nothing to cancel now)
    await driver.send(ALICE, ALICE.id, "/cancel")
    assert api.last(ALICE.id).text == EN("cancel.nothing")


async def test_a_practice_prompt_comes_below_its_board_which_links_nowhere(
    driver, api, deal, monkeypatch
):
    """In practice the board and the prompt share the private chat: the prompt comes below
    the board from the first turn (its buttons in sight) — even when the board's picture
    takes longer to draw than the prompt's — and the board has no link to the chat the
    player is already in."""
    deal(6)
    pictures = get_host(driver.app).publisher.pictures
    draw_board = pictures.group

    async def slowly(*args, **kwargs):
        picture = await draw_board(*args, **kwargs)
        await asyncio.sleep(0.3)
        return picture

    monkeypatch.setattr(pictures, "group", slowly)
    match = await start_practice(driver, ALICE)
    engine = get_engine("azul")
    for _ in range(2):  # the first turn, and the next after Alice's move and the bots'
        board = api.messages[ALICE.id][match.board_message_id]
        prompt_id = match.seat_of(ALICE.id).prompt_message_id
        assert not [b for b in board.buttons() if "url" in b]
        assert prompt_id > board.message_id and api.last(ALICE.id).message_id == prompt_id
        seat = match.seat_of(ALICE.id).seat
        assert engine.legal_actions(match.state, seat)  # her turn
        await play_by_data(driver, match, ALICE, engine.default_action(match.state, seat))
        match = await current_match(driver, ALICE.id)


async def test_a_stopped_practice_game_says_so_in_its_prompt(driver, api, deal):
    deal(6)
    match = await start_practice(driver, ALICE)
    await driver.send(ALICE, ALICE.id, "/cancel")
    question = api.last(ALICE.id)
    assert [b["text"] for b in question.buttons()] == ["Yes, stop it", "No, keep playing"]
    await driver.press_label(ALICE, ALICE.id, "Yes, stop it")
    assert question.text == "⏹ The game was stopped by Alice."
    shown = api.messages[ALICE.id][match.seat_of(ALICE.id).prompt_message_id]
    assert shown.text == "⏹ The practice game of Azul was stopped."
    assert not [m for m in api.visible(ALICE.id) if m.buttons()]


async def test_nobody_joins_a_practice_match_by_its_link(driver, api):
    await driver.send(ALICE, ALICE.id, "/new azul")
    match = await current_match(driver, ALICE.id)
    await driver.send(BOB, BOB.id, f"/start j{match.id}")
    assert api.last(BOB.id).text == EN("lobby.closed")
    assert [seat.name for seat in (await current_match(driver, ALICE.id)).seats] == [
        "Alice",
        NORMAL_BOT,
    ]


@pytest.mark.parametrize(
    ("user", "bot_name", "words", "advice"),
    [
        (ALICE, "🤖 Normal Bot", "The normal bot would play", "Take "),
        (IVAN, "🤖 Бот (средний)", "Средний бот сыграл бы так", "Взять "),
        (OKSANA, "🤖 Бот (середній)", "Середній бот зіграв би так", "Взяти "),
        (GIULIA, "🤖 Bot normale", "Il bot normale giocherebbe", "Prendi "),
    ],
)
async def test_the_hint_shows_the_normal_move_and_the_points_it_expects(
    driver, api, deal, user, bot_name, words, advice
):
    deal(8)
    t = translator(user.language_code[:2] if user.language_code else "en")
    await driver.send(user, user.id, "/new azul")
    assert bot_name in api.last(user.id).text
    await driver.press_label(user, user.id, t("lobby.start"))
    match = await current_match(driver, user.id)
    engine = get_engine("azul")
    seat = match.seat_of(user.id)
    view = engine.view(match.state, seat.seat)
    legal = engine.legal_actions(match.state, seat.seat)
    _, _, _, _, _, seed = decision_args(match, seat, "normal")
    tip = hint("azul", view, seat.seat, legal, seed)
    move = get_ui("azul").move_label(t, view, tip.action, seat.seat, suggested=True)
    answer = await driver.press_label(user, user.id, t("hint.button"))
    assert answer == t.plural("hint.points", round(tip.expected_score), move=move)
    assert words in answer and move in answer and len(answer) <= 200
    assert f"\n{advice}" in answer  # the move suggested, not told as made ("Taken: …")
    assert (await current_match(driver, user.id)).version == match.version  # nothing played


async def test_the_hint_counts_penalty_points_in_who_is_the_donkey(driver, api, deal):
    deal(8)
    await driver.send(ALICE, ALICE.id, "/new donkey")
    await driver.press_label(ALICE, ALICE.id, EN("lobby.start"))
    match = await current_match(driver, ALICE.id)
    assert [seat.name for seat in match.seats] == ["Alice", NORMAL_BOT, NORMAL_BOT]
    assert 0 in get_engine("donkey").to_act(match.state)  # the bots have moved
    answer = await driver.press_label(ALICE, ALICE.id, EN("hint.button"))
    assert "penalty point" in answer


async def test_no_hint_outside_practice(driver, api, deal):
    deal(8)
    await open_with_bots(driver, "azul", [ALICE], bots=1)
    match = await current_match(driver)
    seat = match.seat_of(ALICE.id)
    data = f"hn:{match.id}:{seat.token}:"
    prompt = api.last(ALICE.id)
    assert EN("hint.button") not in str(prompt.buttons())
    answer = await driver.press(ALICE, ALICE.id, prompt.message_id, data)
    assert answer == EN("error.bad_button")


async def test_a_rematch_seats_the_same_bots(driver, api, deal):
    deal(12)
    await open_with_bots(driver, "sultan", [ALICE], bots=1)
    await play_out(driver, [ALICE], seed=4)
    assert await driver.press_label(ALICE, GROUP, EN("play.rematch")) == EN("rematch.opened")
    rematch = await current_match(driver)
    assert rematch.status == "lobby"
    assert [(seat.name, seat.ai) for seat in rematch.seats] == [
        ("Alice", None),
        (NORMAL_BOT, "normal"),
    ]


async def test_a_long_hint_is_shortened_to_fit_a_popup(driver, api, deal, monkeypatch):
    deal(8)
    ui = type(get_ui("azul"))
    monkeypatch.setattr(ui, "move_label", lambda self, t, view, action, seat, **_: "tiles " * 60)
    await driver.send(ALICE, ALICE.id, "/new azul")
    await driver.press_label(ALICE, ALICE.id, EN("lobby.start"))
    answer = await driver.press_label(ALICE, ALICE.id, EN("hint.button"))
    assert len(answer) == 200
    assert answer.startswith("💡 The normal bot would play:\ntiles tiles")
    assert "…\nIt expects to end with about" in answer
