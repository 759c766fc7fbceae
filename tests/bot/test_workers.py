"""Several workers on one PostgreSQL (issue 57): each update handled once, whichever worker
it reaches and however often Telegram sends it; two workers' presses for one match applied
one after the other, each against the state the other left.

The workers are real Applications in this test's process, each with its own storage (its
own connections) on one embedded PostgreSQL, and one fake Telegram."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import pytest

from bot.operations.inbox import Inbox
from bot.storage import StorageUnavailable
from bot.storage.shared import Shared
from bot.table.host import get_host
from bot.testing.driver import Driver
from bot.testing.fake_server import free_port
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import ALICE, BOB, GROUP, IVAN, running_bot
from tests.bot.databases import Database, Look
from tests.bot.helpers import Clock, prompt
from tests.bot.play5211 import (
    board,
    card_buttons,
    choose,
    confirm_button,
    has_choice,
    select,
    start_game,
)
from tests.bot.process import ROOT, BotProcess, ProcessDriver, until
from tests.bot.routing import HOOK, deliver, handle_queued, webhook_worker
from tests.bot.web.test_health import post_update, until_status

pytestmark = pytest.mark.parametrize("backend", ["postgres"])


@asynccontextmanager
async def workers(
    api: FakeTelegram, database: Database, count: int, **overrides
) -> AsyncIterator[list]:
    """``count`` workers on one database and one Telegram, numbering their updates as one
    Telegram does."""
    async with AsyncExitStack() as stack:
        drivers = [
            await stack.enter_async_context(
                running_bot(api, database, one_of_several=True, **overrides)
            )
            for _ in range(count)
        ]
        for driver in drivers[1:]:
            driver._update_ids = drivers[0]._update_ids
        drivers[0].group(GROUP, "Game Night")
        yield drivers


def moves_of(look: Look, match_id: int = 1) -> list[tuple]:
    return look.rows(
        "SELECT version, seat, action FROM moves WHERE match_id = ? AND seat >= 0 ORDER BY version",
        (match_id,),
    )


async def confirm_press(driver: Driver, user) -> dict:
    """A 5211 player's choice, made on ``driver``: the cards tapped, the confirm press's
    update (not sent)."""
    message, confirm = await select(driver, user)
    return driver.press_update(user, user.id, message.message_id, confirm["callback_data"])


# -- each update handled once --------------------------------------------------------------
async def test_an_update_delivered_twice_at_once_and_again_later_is_handled_once(
    api, database: Database
):
    async with webhook_worker(api, database) as (driver, client, queue):
        settings = get_host(driver.app).settings
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        look = Look(database)
        before = moves_of(look)
        update = await confirm_press(driver, ALICE)
        # Telegram (or a router) sends the same update twice at once, then once more later
        answers = await asyncio.gather(*(deliver(client, settings, update) for _ in range(2)))
        assert [answer.status_code for answer in answers] == [200, 200]
        assert await handle_queued(driver, queue) == 1
        again = await deliver(client, settings, update)
        assert again.status_code == 200
        assert await handle_queued(driver, queue) == 0
        made = moves_of(look)[len(before) :]
        assert [seat for _, seat, _ in made] == [0]  # Alice's choice, once
        # handled, and known again for a day
        [(done, body)] = look.rows(
            "SELECT done_at IS NOT NULL, body FROM inbox WHERE update_id = ?",
            (update["update_id"],),
        )
        assert done and body == ""
        look.close()


async def test_the_webhook_answers_200_only_once_the_update_is_kept(
    api, database: Database, postgres_server
):
    """A database that cannot keep the update: 503, so Telegram sends it again; sent again
    once the database answers, it is handled."""
    async with webhook_worker(api, database) as (driver, client, queue):
        settings = get_host(driver.app).settings
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        update = await confirm_press(driver, ALICE)
        with postgres_server.frozen():
            refused = await deliver(client, settings, update)
        assert refused.status_code == 503
        assert queue.empty()
        look = Look(database)
        assert look.rows("SELECT COUNT(*) FROM inbox") == [(0,)]
        storage = get_host(driver.app).storage
        for _ in range(100):  # the bot hears the server again within a second or two
            try:
                await storage.ping()
                break
            except StorageUnavailable:
                await asyncio.sleep(0.1)
        for _ in range(100):
            answer = await deliver(client, settings, update)
            if answer.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert answer.status_code == 200
        assert await handle_queued(driver, queue) == 1
        assert [seat for _, seat, _ in moves_of(look)] == [0]
        look.close()


async def test_a_worker_gone_before_handling_its_update_leaves_it_to_the_others(
    api, database: Database
):
    """The update was kept (Telegram had its 200), then the worker died: another worker
    takes it over and handles it, once, and two workers looking at once never both take it."""
    async with workers(api, database, 1) as [driver]:
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        update = await confirm_press(driver, ALICE)
        look = Look(database)
        gone = Shared(database.url, name="web.1-gone")
        await gone.open()
        assert await gone.take_update(update["update_id"], json.dumps(update))
        await gone.close()  # as a worker that stops (or, later, one silent 5 s)
        lookers = [Shared(database.url) for _ in range(2)]
        for looker in lookers:
            await looker.open()
        found = await asyncio.gather(*(looker.take_orphans() for looker in lookers))
        assert sorted(len(bodies) for bodies in found) == [0, 1]
        for looker in lookers:
            await looker.close()
        # the worker's own look takes it (its row freed again: the lookers above are gone)
        look.run("UPDATE inbox SET worker = 'web.1-gone'")
        inbox: Inbox = driver.app.bot_data["inbox"]
        queue: asyncio.Queue = asyncio.Queue()
        assert await inbox.look(driver.app.bot, queue) == 1
        assert await handle_queued(driver, queue) == 1
        assert [seat for _, seat, _ in moves_of(look)] == [0]
        [(done,)] = look.rows("SELECT done_at IS NOT NULL FROM inbox")
        assert done
        assert await inbox.look(driver.app.bot, queue) == 0  # handled: nobody takes it again
        look.close()


async def test_a_silent_worker_keeps_its_updates_for_five_seconds(api, database: Database):
    """A worker heard from within WORKER_SILENCE_SECONDS is alive: its updates are its own."""
    async with workers(api, database, 1):
        alive = Shared(database.url, name="web.2-alive")
        await alive.open()
        await alive.take_update(10**9, '{"update_id": 1000000000}')
        other = Shared(database.url)
        await other.open()
        assert await other.take_orphans() == []
        await alive.close()
        assert len(await other.take_orphans()) == 1
        await other.close()


# -- per-match order across workers -------------------------------------------------------
async def test_two_workers_presses_for_one_match_apply_one_after_the_other(api, database: Database):
    """Alice's and Bob's choices in one 5211 match, pressed at the same moment on two
    workers, every part of a whole match: each applied against the state the other left —
    both moves made, in consecutive versions, and the match played to its end."""
    async with workers(api, database, 2) as [first, second]:
        await start_game(first, GROUP, ALICE, [ALICE, BOB])
        look = Look(database)
        pressed = together = 0
        for _ in range(200):
            waiting = [
                (driver, user)
                for driver, user in ((first, ALICE), (second, BOB))
                if has_choice(first, user)
            ]
            if not waiting:
                break
            presses = [(driver, await confirm_press(driver, user)) for driver, user in waiting]
            await asyncio.gather(*(driver.feed(update) for driver, update in presses))
            await asyncio.gather(first.settle(), second.settle())
            pressed += len(presses)
            together += len(presses) == 2
        moves = moves_of(look)
        versions = [version for version, _, _ in moves]
        assert versions == sorted(set(versions))  # no version applied twice
        assert len(moves) == pressed  # each press applied, none lost
        assert together >= 3  # the two workers' presses met, part after part
        [(status,)] = look.rows("SELECT status FROM matches WHERE id = 1")
        assert status == "finished"
        assert not any("try again" in (answer.get("text") or "") for answer in api.answers)
        look.close()


# -- deadlines and the leader --------------------------------------------------------------
async def test_a_deadline_two_workers_find_at_once_is_played_once(api, database: Database):
    """Bob's deadline passes while two workers run: both sweeps find it, and the timer
    jobs of both fire too; the normal AI plays for him once, and the match goes on."""
    async with workers(api, database, 2) as [first, second]:
        clock = Clock()
        for driver in (first, second):
            get_host(driver.app).clock = clock
        await start_game(first, GROUP, ALICE, [ALICE, BOB])
        await choose(first, ALICE)
        clock.now += 181
        hosts = [get_host(driver.app) for driver in (first, second)]
        await asyncio.gather(*(host.timers.sweep() for host in hosts))
        await asyncio.gather(*(host.timers.tick(1) for host in hosts))
        await asyncio.gather(first.settle(), second.settle())
        assert await hosts[1].storage.automatic_moves(1) == 1
        assert "Round 1, part 2 of 3" in board(first, GROUP).text
        # the next part's deadline too, once: Bob's second timeout in a row (then autopilot)
        await choose(second, ALICE)
        clock.now += 181
        await asyncio.gather(*(host.timers.sweep() for host in hosts))
        await asyncio.gather(first.settle(), second.settle())
        look = Look(database)
        notices = dict(look.rows("SELECT key, COUNT(*) FROM notices GROUP BY key"))
        assert notices["timer.timeout"] == 2 and notices["timer.autopilot"] == 1
        versions = [version for version, _, _ in moves_of(look)]
        assert versions == sorted(set(versions))
        look.close()


LEADER = """
import asyncio, sys
from bot.storage.postgres import PostgresStorage

async def main():
    storage = PostgresStorage(sys.argv[1], instance_lock=False)  # a worker among several
    await storage.open()
    print(storage.shared.name if storage.leads() else "following", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_the_leader_killed_another_worker_leads_within_5_seconds(api, database: Database):
    """A worker process leads; another worker starts and follows; the leader is killed
    with SIGKILL (no goodbye): the other leads within 5 s."""
    leader = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LEADER, database.url, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    try:
        name = (await asyncio.wait_for(leader.stdout.readline(), 60)).strip().decode()
        assert name != "following"
        async with workers(api, database, 1) as [driver]:
            shared = get_host(driver.app).storage.shared
            assert not shared.leading and not await shared.try_to_lead()  # one at a time
            assert await shared.leader() == name
            leader.kill()  # kill -9
            await leader.wait()
            killed = time.monotonic()
            while not shared.leading:
                assert time.monotonic() - killed < 5, "nobody leads 5 s after the kill"
                await asyncio.sleep(0.05)
            took = time.monotonic() - killed
            assert await shared.leader() == shared.name
            print(f"failover in {took:.2f} s")
    finally:
        if leader.returncode is None:
            leader.kill()
            await leader.wait()


# -- side by side: real processes ----------------------------------------------------------
@pytest.mark.usefixtures("no_bot_left_running")
async def test_two_webhook_processes_serve_side_by_side_and_answer_an_update_sent_to_both_once(
    server, database: Database
):
    """With SEVERAL_WORKERS on PostgreSQL in webhook mode a second ``python -m bot`` does not
    wait for the first:
    both serve (their health checks say so), and an update a router hands to both is
    answered once."""
    ports = [free_port(), free_port()]
    bots = [
        BotProcess(
            server,
            database,
            log=f"web{n}.log",
            PORT=str(port),
            WEBHOOK_URL=HOOK,
            SEVERAL_WORKERS="true",
        )
        for n, port in enumerate(ports, start=1)
    ]
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    try:
        for bot in bots:
            await bot.start(ready="setWebhook")
        for port in ports:
            await until_status(port, 200)
        secret = [p for m, p in server.api.calls if m == "setWebhook"][-1]["secret_token"]
        update = driver.message_update(ALICE, GROUP, "/help")
        sent = len(server.api.calls)
        answers = await asyncio.gather(*(post_update(port, update, secret) for port in ports))
        assert answers == [200, 200]

        def replies() -> int:
            return sum(
                1
                for method, params in server.api.calls[sent:]
                if method == "sendMessage" and int(params["chat_id"]) == GROUP
            )

        await until(lambda: replies() > 0, what="the update to be answered")
        await asyncio.sleep(1.0)  # time for a second answer, were there one
        assert replies() == 1
    finally:
        for bot in bots:
            if bot.process is not None and bot.process.returncode is None:
                await bot.terminate()


async def test_three_workers_behind_a_router_that_redelivers_play_a_match_to_its_end(
    api, database: Database
):
    """A router spreads every update of a whole 5211 match over three workers' webhooks at
    random and sends a third of them to a second worker too (a redelivery): every press is
    applied once, in the order accepted, and the match ends."""
    rng = random.Random(57)
    async with AsyncExitStack() as stack:
        three = [await stack.enter_async_context(webhook_worker(api, database)) for _ in range(3)]
        first = three[0][0]
        for driver, _, _ in three[1:]:
            driver._update_ids = first._update_ids
        settings = get_host(first.app).settings
        routed: set[int] = set()
        twice = [0]
        # one press at a time through the router (the two players' presses interleave):
        # else one player's look at the workers' queues could find the other's press taken
        # but not yet drawn, and read a prompt not drawn yet
        routing = asyncio.Lock()

        async def route(update: dict) -> None:
            async with routing:
                targets = rng.sample(range(3), 2 if rng.random() < 1 / 3 else 1)
                twice[0] += len(targets) == 2
                answers = await asyncio.gather(
                    *(deliver(three[n][1], settings, update) for n in targets)
                )
                assert all(answer.status_code == 200 for answer in answers)
                routed.add(update["update_id"])
                await asyncio.gather(*(handle_queued(driver, queue) for driver, _, queue in three))

        async def choose_through_router(user) -> None:
            message = prompt(first, user)
            for index in range(5):
                if confirm_button(message):
                    break
                data = card_buttons(message)[index]["callback_data"]
                await route(first.press_update(user, user.id, message.message_id, data))
                message = api.messages[user.id][message.message_id]
            data = confirm_button(message)["callback_data"]
            await route(first.press_update(user, user.id, message.message_id, data))

        await start_game(first, GROUP, ALICE, [ALICE, BOB])
        look = Look(database)
        confirms = 0
        for _ in range(200):
            waiting = [user for user in (ALICE, BOB) if has_choice(first, user)]
            if not waiting:
                break
            await asyncio.gather(*(choose_through_router(user) for user in waiting))
            confirms += len(waiting)
        assert confirms >= 6 and twice[0] >= 10  # a whole match, many updates sent twice
        versions = [version for version, _, _ in moves_of(look)]
        assert len(versions) == confirms  # each confirm applied once, none lost
        assert versions == sorted(set(versions))
        [(status,)] = look.rows("SELECT status FROM matches WHERE id = 1")
        assert status == "finished"
        kept = look.rows("SELECT update_id, done_at IS NOT NULL FROM inbox")
        assert {update_id for update_id, _ in kept} == routed and all(d for _, d in kept)
        look.close()


async def test_status_lists_the_workers_the_leader_and_the_shared_queue(api, database: Database):
    owners = frozenset({ALICE.id, IVAN.id})
    async with workers(api, database, 2, owner_ids=owners) as [first, second]:
        names = [get_host(driver.app).storage.shared.name for driver in (first, second)]
        await first.send(ALICE, ALICE.id, "/status")
        text = api.last(ALICE.id).text
        assert "Instance lock: none: the workers share the database" in text
        assert f"Workers: 2; this one: {names[0]}; the leader: {names[0]}" in text
        assert "Updates waiting in the shared inbox: 0" in text
        await second.send(IVAN, IVAN.id, "/status")  # on the other worker, in Russian
        assert f"этот: {names[1]}; ведущий: {names[0]}" in api.last(IVAN.id).text


async def test_workers_started_together_on_a_new_database_both_serve(database: Database):
    """A platform starts N dynos at once on an empty database: they migrate one at a time
    (the first makes the schema, the others find it made), and every one opens."""
    from bot.storage.postgres import PostgresStorage

    storages = [PostgresStorage(database.url, instance_lock=False) for _ in range(3)]
    await asyncio.gather(*(storage.open() for storage in storages))
    try:
        versions = {await storage.schema_version() for storage in storages}
        assert len(versions) == 1
    finally:
        for storage in storages:
            await storage.close()
