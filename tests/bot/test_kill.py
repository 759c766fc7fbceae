"""The kill test (issue 57): three ``python -m bot`` workers on one PostgreSQL behind a
router, one of them killed with SIGKILL every few seconds and started again (the platform),
while matches of every game are played to their end.

The test is Telegram, the router and the platform. Each match has a player (a task) who
reads the match from the database, presses a random legal move's button, posts the press to
a random worker's webhook — to another on a refused connection or an answer other than 200,
as Telegram sends an update again — and waits for the match to take it before pressing
again. A press answered 200 must be applied exactly once, even when its worker is killed
before handling it (another worker takes it over once it has been silent 5 s). Some matches
have a short move clock and a player who never presses: their deadlines fire once each.

Counted: the presses, the kills, the moves lost and applied twice (both must be 0), and how
long each kill's orphaned presses waited (the failover)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import statistics
import time
from dataclasses import dataclass, field

import asyncpg
import httpx
import pytest

from bot.presentation.i18n import translator
from bot.storage.rows import decode_state
from bot.telegram_api.callbacks import Callback
from bot.testing.driver import FakeUser
from bot.testing.fake_server import FakeTelegramServer, free_port
from games import get_engine
from games.core import encode_action
from tests.bot.databases import Database
from tests.bot.process import BotProcess, ProcessDriver
from tests.bot.routing import HOOK
from tests.bot.web.test_health import until_status

pytestmark = [
    pytest.mark.parametrize("backend", ["postgres"]),
    pytest.mark.usefixtures("no_bot_left_running"),
]

WORKERS = 3
TURN_SECONDS = 10  # the clocked matches' move limit (the lobby's shortest is 60 s)
KILL_EVERY = (3.0, 5.0)  # seconds between two kills, at random
PLATFORM_WAITS = 120.0  # seconds a held press waits for the platform's next kill or deploy
PRESS_WAITS = 40.0  # a press not applied after this long is lost
GAMES = {"5211": 2, "sultan": 2, "donkey": 3, "azul": 2, "summer_pavilion": 2}
TEXT_BOARDS = ("azul", "summer_pavilion")  # their groups chose text boards (/pictures)
CLOCKED_GAMES = ("5211", "sultan")  # one player presses, the other never does


@dataclass
class Press:
    match_id: int
    seat: int
    action: str
    worker: int  # the worker whose 200 took it
    answered_at: float
    applied_at: float | None = None


@dataclass
class Table:
    match_id: int
    game: str
    users: dict[int, FakeUser]  # by seat
    idle: set[int] = field(default_factory=set)  # seats that never press (their clock runs)


@dataclass
class Trial:
    presses: list[Press] = field(default_factory=list)
    kills: list[tuple[int, float]] = field(default_factory=list)  # (worker, when)
    refused: int = 0  # deliveries that found no worker or no 200: sent again elsewhere
    sent_twice: int = 0
    # presses the bot answered "the database did not answer, no move was made" (its bound
    # passed on a crowded machine): never applied later; the player presses again
    refused_by_bot: int = 0
    drains: list[tuple[int | None, float]] = field(default_factory=list)  # (exit code, s)
    # the platform's kills or deploys the trial needs during its play, and how many presses
    # may come before each: so a slow machine, where a restart costs more, still gets them
    events_wanted: int = 0
    presses_per_event: int = 0

    def events(self) -> int:
        return len(self.kills) + len(self.drains)

    async def keep_pace(self, platform: asyncio.Task) -> None:
        """Hold a press while the presses have run ahead of the platform's kills or deploys."""
        give_up = time.monotonic() + PLATFORM_WAITS
        while (
            self.events() < self.events_wanted
            and len(self.presses) >= (self.events() + 1) * self.presses_per_event
        ):
            if platform.done():
                platform.result()  # its failure, not a wait that never ends
            assert time.monotonic() < give_up, "the platform killed or deployed nothing in time"
            await asyncio.sleep(0.05)

    def failovers(self) -> list[float]:
        """For each kill, how long the presses its worker had taken but not handled waited
        for another worker (from the kill to the move applied)."""
        waits = []
        for worker, killed in self.kills:
            orphaned = [
                press.applied_at - killed
                for press in self.presses
                if press.worker == worker
                and press.answered_at <= killed
                and press.applied_at is not None
                and press.applied_at > killed
            ]
            if orphaned:
                waits.append(max(orphaned))
        return waits


class Router:
    """Telegram's deliveries to the workers' webhooks, through the platform's router."""

    def __init__(self, ports: list[int], secret: str, rng: random.Random, trial: Trial) -> None:
        self.ports = ports
        self.secret = secret
        self.rng = rng
        self.trial = trial
        self.client = httpx.AsyncClient(timeout=10)

    async def _post(self, worker: int, update: dict) -> bool:
        try:
            answer = await self.client.post(
                f"http://127.0.0.1:{self.ports[worker]}/123456",
                json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": self.secret},
            )
        except httpx.HTTPError:
            return False
        return answer.status_code == 200

    async def deliver(self, update: dict) -> int:
        """Deliver until a worker answers 200; that worker's number. A tenth of the updates
        are delivered to a second worker at once as well (a router's retry)."""
        for _ in range(600):
            worker = self.rng.randrange(len(self.ports))
            if self.rng.random() < 0.1:
                self.trial.sent_twice += 1
                other = (worker + 1) % len(self.ports)
                took = await asyncio.gather(self._post(worker, update), self._post(other, update))
                if took[0]:
                    return worker
                if took[1]:
                    return other
            elif await self._post(worker, update):
                return worker
            self.trial.refused += 1
            await asyncio.sleep(0.05)
        raise AssertionError(f"no worker took update {update['update_id']} in 30 s")


class Watcher:
    """Every match's version and its players' moves, read from the database every 40 ms
    (one query for all the matches), for the players waiting on them."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.versions: dict[int, int] = {}
        self.people_moves: dict[int, int] = {}
        self.changed = asyncio.Condition()

    async def run(self) -> None:
        while True:
            rows = await self.pool.fetch(
                "SELECT match_id, MAX(version), "
                "COUNT(*) FILTER (WHERE seat >= 0 AND NOT automatic) FROM moves GROUP BY match_id"
            )
            async with self.changed:
                for match_id, version, people in rows:
                    self.versions[match_id] = version
                    self.people_moves[match_id] = people
                self.changed.notify_all()
            await asyncio.sleep(0.04)

    async def until(self, condition, timeout: float) -> bool:
        async with self.changed:
            try:
                await asyncio.wait_for(self.changed.wait_for(condition), timeout)
            except TimeoutError:
                return False
        return True


async def read_match(pool: asyncpg.Pool, match_id: int) -> tuple[str, int, dict, dict[int, int]]:
    """The match as committed: its status, version, state and seats' tokens."""
    async with pool.acquire() as connection, connection.transaction(isolation="repeatable_read"):
        status, version, text = await connection.fetchrow(
            "SELECT status, version, state FROM matches WHERE id = $1", match_id
        )
        events = await connection.fetch(
            "SELECT event FROM events WHERE match_id = $1 ORDER BY seq", match_id
        )
        tokens = await connection.fetch(
            "SELECT seat, token FROM seats WHERE match_id = $1", match_id
        )
    state = decode_state(text, [event for (event,) in events])[0]
    return status, version, state, dict(tokens)


async def open_table(
    router: Router, pool: asyncpg.Pool, driver: ProcessDriver, number: int, game: str, clocked: bool
) -> Table:
    """A lobby through the bot: /new in a group, everybody joins by the deep link, the
    creator starts. A clocked match gets its short clock before the start (set in the
    database: the lobby offers a minute at the least)."""
    group = driver.group(-(10**9) - number, f"Kill {number}")
    if game in TEXT_BOARDS:
        await pool.execute("INSERT INTO chats (chat_id, pictures) VALUES ($1, 0)", group)
    players = [FakeUser(10**6 * number + seat, f"P{number}.{seat}") for seat in range(GAMES[game])]
    await router.deliver(driver.message_update(players[0], group, f"/new {game}"))
    match_id = None

    async def lobby() -> bool:
        nonlocal match_id
        match_id = await pool.fetchval("SELECT id FROM matches WHERE chat_id = $1", group)
        return match_id is not None

    await poll(lobby, f"the lobby of {game} in group {group}")
    for player in players:
        driver.api.started.add(player.id)
        await router.deliver(driver.message_update(player, player.id, f"/start j{match_id}"))
    seated = "SELECT COUNT(*) FROM seats WHERE match_id = $1"
    await poll(lambda: fetch_is(pool, seated, match_id, len(players)), "the players seated")
    if clocked:
        await pool.execute(
            "UPDATE matches SET turn_seconds = $1 WHERE id = $2", TURN_SECONDS, match_id
        )
    start = Callback("st", match_id).encode()
    await router.deliver(driver.press_update(players[0], group, 1, start))
    playing = "SELECT status FROM matches WHERE id = $1"
    await poll(lambda: fetch_is(pool, playing, match_id, "playing"), "the match started")
    seat_of = dict(
        await pool.fetch("SELECT user_id, seat FROM seats WHERE match_id = $1", match_id)
    )
    users = {seat_of[user.id]: user for user in players}
    return Table(match_id, game, users, idle={max(users)} if clocked else set())


async def fetch_is(pool: asyncpg.Pool, sql: str, arg, wanted) -> bool:
    return await pool.fetchval(sql, arg) == wanted


async def poll(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def play(
    table: Table,
    router: Router,
    pool: asyncpg.Pool,
    watcher: Watcher,
    driver: ProcessDriver,
    trial: Trial,
    rng: random.Random,
    platform: asyncio.Task,
) -> None:
    """Random legal moves of the pressing players until the match ends, one press at a time,
    each waited for until the match has taken it."""
    engine = get_engine(table.game)
    while True:
        await trial.keep_pace(platform)
        status, version, state, tokens = await read_match(pool, table.match_id)
        if status != "playing":
            return
        seats = sorted(set(engine.to_act(state)) - table.idle)
        if not seats:  # the clocked player's turn: wait for its deadline (or autopilot)
            await watcher.until(lambda v=version: watcher.versions.get(table.match_id, 0) > v, 60)
            continue
        seat = rng.choice(seats)
        action = encode_action(rng.choice(engine.legal_actions(state, seat)))
        data = Callback("a", table.match_id, tokens[seat], action).encode()
        user = table.users[seat]
        before = watcher.people_moves.get(table.match_id, 0)
        update = driver.press_update(user, user.id, 1, data)
        worker = await router.deliver(update)
        press = Press(table.match_id, seat, action, worker, time.monotonic())
        query = update["callback_query"]["id"]
        give_up = time.monotonic() + PRESS_WAITS
        while not await watcher.until(
            lambda n=before: watcher.people_moves.get(table.match_id, 0) > n, 1.0
        ):
            if refused_by_the_bot(driver, query):  # "no move was made: press again"
                break
            assert time.monotonic() < give_up, (
                f"match {table.match_id}: a press answered 200 was not applied in time"
            )
        else:
            trial.presses.append(press)
            press.applied_at = time.monotonic()
            continue
        trial.refused_by_bot += 1  # a database slower than its bound under load: told so


REFUSED = translator("en")("error.storage")


def refused_by_the_bot(driver: ProcessDriver, query_id: str) -> bool:
    return any(
        answer.get("callback_query_id") == query_id and answer.get("text") == REFUSED
        for answer in driver.api.answers
    )


async def killer(bots: list[BotProcess], trial: Trial, rng: random.Random) -> None:
    """The platform: SIGKILL a random worker every few seconds, and start it again."""
    while True:
        await asyncio.sleep(rng.uniform(*KILL_EVERY))
        worker = rng.randrange(len(bots))
        await bots[worker].kill()
        trial.kills.append((worker, time.monotonic()))
        await bots[worker].start(ready="setWebhook")


def worker_process(server: FakeTelegramServer, database: Database, name: str, port: int):
    return BotProcess(
        server,
        database,
        log=f"{name}.log",
        PORT=str(port),
        WEBHOOK_URL=HOOK,
        SEVERAL_WORKERS="true",
        AI_WORKERS="0",  # the clocked seats' AI in a thread: no pool left behind by a kill
        AI_THINK_SECONDS="0.05",
    )


async def rolling_restarts(
    server: FakeTelegramServer,
    database: Database,
    bots: list[BotProcess],
    router: Router,
    trial: Trial,
    rng: random.Random,
) -> None:
    """The platform deploys, again and again: each worker in turn is replaced — the new
    one started beside it and ready, the router sends to it instead, then the old one gets
    SIGTERM and drains (it must exit by itself within the platform's 30 s)."""
    for deploy in itertools.count(1):
        await asyncio.sleep(rng.uniform(*KILL_EVERY))
        worker = deploy % len(bots)
        port = free_port()
        new = worker_process(server, database, f"worker{worker}-deploy{deploy}", port)
        await new.start(ready=None)
        await until_status(port, 200)  # the platform's health check: ready
        old, bots[worker], router.ports[worker] = bots[worker], new, port
        took = await old.terminate()
        trial.drains.append((old.process.returncode, took))


async def kill_trial(
    server: FakeTelegramServer,
    database: Database,
    per_game: int,
    clocked: int,
    seed: int,
    rolling: bool = False,
    events: int = 0,
    presses_per_event: int = 0,
) -> dict:
    """``per_game`` matches of each game and ``clocked`` clocked ones, played while the
    workers are killed (``rolling``: replaced one by one, as a deploy does) — at least
    ``events`` times, one per ``presses_per_event`` presses at most; the figures, once
    every check has passed."""
    rng = random.Random(seed)
    ports = [free_port() for _ in range(WORKERS)]
    bots = [worker_process(server, database, f"worker{n}", port) for n, port in enumerate(ports)]
    for bot in bots:
        await bot.start(ready="setWebhook")
    secret = [p for m, p in server.api.calls if m == "setWebhook"][-1]["secret_token"]
    trial = Trial(events_wanted=events, presses_per_event=presses_per_event)
    router = Router(ports, secret, rng, trial)
    driver = ProcessDriver(server.api)
    pool = await asyncpg.create_pool(database.url, min_size=2, max_size=8)
    watcher = Watcher(pool)
    watching = asyncio.create_task(watcher.run())
    killing: asyncio.Task | None = None
    try:
        kinds = [(game, False) for game in GAMES for _ in range(per_game)]
        kinds += [(CLOCKED_GAMES[n % len(CLOCKED_GAMES)], True) for n in range(clocked)]
        tables = await asyncio.gather(
            *(
                open_table(router, pool, driver, number, game, clock)
                for number, (game, clock) in enumerate(kinds, start=1)
            )
        )
        started = time.monotonic()
        platform = (
            rolling_restarts(server, database, bots, router, trial, rng)
            if rolling
            else killer(bots, trial, rng)
        )
        killing = asyncio.create_task(platform)
        seeds = [rng.randrange(2**32) for _ in tables]
        await asyncio.gather(
            *(
                play(table, router, pool, watcher, driver, trial, random.Random(s), killing)
                for table, s in zip(tables, seeds, strict=True)
            )
        )
        played = time.monotonic() - started
        if killing.done():  # the platform failed to start a worker again
            killing.result()
        killing.cancel()
        figures = await check_the_end(pool, tables, trial)
        figures["seconds"] = round(played, 1)
        return figures
    finally:
        watching.cancel()
        if killing is not None:
            killing.cancel()
        await router.client.aclose()
        await pool.close()
        for bot in bots:
            if bot.process is not None and bot.process.returncode is None:
                await bot.kill()


async def check_the_end(pool: asyncpg.Pool, tables: list[Table], trial: Trial) -> dict:
    """Every match finished; each press answered 200 in its match's log once, in the order
    pressed; every update kept is handled; every clocked seat's deadlines fired once each."""
    lost = twice = 0
    mismatched = []
    for table in tables:
        status = await pool.fetchval("SELECT status FROM matches WHERE id = $1", table.match_id)
        assert status == "finished", f"match {table.match_id} ({table.game}): {status}"
        log = [
            (seat, action)
            for seat, action in await pool.fetch(
                "SELECT seat, action FROM moves WHERE match_id = $1 AND seat >= 0 "
                "AND NOT automatic ORDER BY version",
                table.match_id,
            )
        ]
        pressed = [(p.seat, p.action) for p in trial.presses if p.match_id == table.match_id]
        # the log is the presses, in order; what differs is lost or applied twice
        common = sum(1 for a, b in zip(log, pressed, strict=False) if a == b)
        lost += len(pressed) - common
        twice += len(log) - common
        if log != pressed:
            mismatched.append((table.match_id, table.game, log, pressed))
        await check_deadlines(pool, table)
    await poll(lambda: inbox_done(pool), "every update kept to be handled")
    failovers = trial.failovers()
    return {
        "workers": WORKERS,
        "matches": len(tables),
        "clocked_matches": sum(1 for table in tables if table.idle),
        "presses": len(trial.presses),
        "kills": len(trial.kills),
        "presses_refused_by_the_bot": trial.refused_by_bot,
        "rolling_restarts": len(trial.drains),
        "drains_s": [round(took, 1) for _, took in trial.drains],
        "drain_exit_codes": sorted({code for code, _ in trial.drains}),
        "deliveries_sent_again": trial.refused,
        "deliveries_to_two_workers": trial.sent_twice,
        "moves_lost": lost,
        "moves_applied_twice": twice,
        "logs_not_as_pressed": [m[:2] for m in mismatched],
        "failover_s": {
            "kills_with_orphans": len(failovers),
            "median": round(statistics.median(failovers), 2) if failovers else None,
            "max": round(max(failovers), 2) if failovers else None,
        },
    }


async def inbox_done(pool: asyncpg.Pool) -> bool:
    return await pool.fetchval("SELECT COUNT(*) FROM inbox WHERE done_at IS NULL") == 0


async def check_deadlines(pool: asyncpg.Pool, table: Table) -> None:
    """The clocked seat timed out AUTOPILOT_AFTER (2) times, each deadline fired once: its
    timeouts at least a move limit apart, the first a move limit after the start (not
    before, and not much later); then autopilot played it. The pressing players never timed
    out."""
    notices = await pool.fetch(
        "SELECT key, params FROM notices WHERE match_id = $1 AND key LIKE 'timer.%' ORDER BY id",
        table.match_id,
    )
    timeouts = [json.loads(params)["user_id"] for key, params in notices if key == "timer.timeout"]
    autopilots = [key for key, _ in notices if key == "timer.autopilot"]
    if not table.idle:
        assert timeouts == [] and autopilots == [], table
        return
    [idle] = table.idle
    assert timeouts == [table.users[idle].id] * 2, (table, timeouts)
    assert len(autopilots) == 1, (table, autopilots)
    start = await pool.fetchval(
        "SELECT at FROM moves WHERE match_id = $1 AND seat = -1", table.match_id
    )
    automatic = [
        at
        for (at,) in await pool.fetch(
            "SELECT at FROM moves WHERE match_id = $1 AND seat = $2 AND automatic ORDER BY version",
            table.match_id,
            idle,
        )
    ]
    assert len(automatic) >= 2
    first, second = automatic[:2]
    # a move's time is its save's, a few ms after the moment its deadline was counted from
    slack = 0.5
    assert TURN_SECONDS - slack <= first - start < TURN_SECONDS + 15, (table, first - start)
    assert second - first >= TURN_SECONDS - slack, (table, second - first)  # not fired twice


async def test_workers_killed_every_few_seconds_lose_no_move_and_apply_none_twice(
    server: FakeTelegramServer, database: Database
):
    """Five matches of each game and four clocked ones (29), ≥ 2,000 presses, three
    workers, a kill every 3 to 5 s: about a minute (``-s`` prints the figures)."""
    figures = await kill_trial(
        server, database, per_game=5, clocked=4, seed=58, events=5, presses_per_event=300
    )
    print("\nkill test:", json.dumps(figures))
    assert figures["presses"] >= 2000 and figures["matches"] >= 20 and figures["kills"] >= 5
    assert figures["moves_lost"] == 0 and figures["moves_applied_twice"] == 0
    assert figures["logs_not_as_pressed"] == []


@pytest.mark.soak
async def test_soak_workers_killed_during_many_more_presses(
    server: FakeTelegramServer, database: Database
):
    """``KILL_PER_GAME=12 python -m pytest -m soak -s tests/bot/test_kill.py``: the same
    trial, longer (``KILL_PER_GAME`` matches of each game, default 12, and 8 clocked)."""
    per_game = int(os.environ.get("KILL_PER_GAME", "12"))
    figures = await kill_trial(server, database, per_game=per_game, clocked=8, seed=59)
    print("\nkill test:", json.dumps(figures))
    assert figures["moves_lost"] == 0 and figures["moves_applied_twice"] == 0
    assert figures["logs_not_as_pressed"] == []


async def test_rolling_restarts_refuse_no_update_and_lose_nothing(
    server: FakeTelegramServer, database: Database
):
    """Deploys one after another while matches of every game play: each worker replaced
    in turn, the new one ready before the old one drains. No delivery is refused, no move
    lost or applied twice, every match ends, and each old worker exits by itself, cleanly,
    well within the platform's 30 s."""
    figures = await kill_trial(
        server,
        database,
        per_game=2,
        clocked=2,
        seed=61,
        rolling=True,
        events=3,
        presses_per_event=200,
    )
    print("\nrolling restarts:", json.dumps(figures))
    assert figures["rolling_restarts"] >= 3 and figures["kills"] == 0
    assert figures["deliveries_sent_again"] == 0  # no update refused, none to retry
    assert figures["moves_lost"] == 0 and figures["moves_applied_twice"] == 0
    assert figures["logs_not_as_pressed"] == []
    assert figures["drain_exit_codes"] == [0] and max(figures["drains_s"]) < 30
