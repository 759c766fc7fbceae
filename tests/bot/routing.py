"""Several webhook workers on one PostgreSQL behind a router (issue 57): the router is the
test's :class:`RoutedDriver`, which posts each update to a random worker's webhook — a third
of them to two workers at once, as Telegram redelivers an update whose 200 it did not hear
— and hands what each webhook took to that worker's handlers.

The workers are real Applications in the test's process, each with its own storage (its own
connections) and its own webhook server, on one embedded PostgreSQL and one fake Telegram."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import httpx

from bot.settings import Settings
from bot.table.host import get_host
from bot.testing.driver import Driver
from bot.testing.fake_server import free_port
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import GROUP, running_bot
from tests.bot.databases import Database, Look

HOOK = "https://bots.example.com"


@asynccontextmanager
async def webhook_worker(
    api: FakeTelegram, database: Database, **overrides
) -> AsyncIterator[tuple[Driver, httpx.AsyncClient, asyncio.Queue]]:
    """A worker in webhook mode; the updates its webhook takes wait in the queue given back
    (the test hands them to the handlers)."""
    port = free_port()
    async with running_bot(
        api, database, webhook_url=HOOK, port=port, several_workers=True, **overrides
    ) as driver:
        driver.group(GROUP, "Game Night")
        web = driver.app.bot_data["web"]
        queue: asyncio.Queue = asyncio.Queue()
        web.webhook.open(driver.app.bot, queue)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=20) as client:
            yield driver, client, queue


def deliver(client: httpx.AsyncClient, settings: Settings, update: dict):
    """Telegram's POST of one update to the webhook."""
    secret = settings.webhook_secret_token()
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret}
    return client.post(f"/{settings.webhook_path()}", json=update, headers=headers)


async def handle_queued(
    driver: Driver, queue: asyncio.Queue, handled: Counter | None = None
) -> int:
    """Hand every update the webhook took to the handlers, as PTB's update fetcher does
    (``handled`` counts each update's handlings by id)."""
    count = 0
    while not queue.empty():
        update = queue.get_nowait()
        if handled is not None:
            handled[update.update_id] += 1
        await driver.app.process_update(update)
        count += 1
    await driver.settle()
    return count


@dataclass
class Worker:
    driver: Driver
    client: httpx.AsyncClient
    queue: asyncio.Queue


class RoutedDriver(Driver):
    """The players' updates reach the workers through a router: each to a random worker's
    webhook, a third of them to a second worker too. The players read the chats (one fake
    Telegram) and the matches through the first worker, whose copy of the matches is dropped
    after each update, as another worker may have changed them.

    It checks, update by update, what a player would: every delivery answered 200; each
    update handled once, by one worker; a press applies at most one move, the presser's own,
    as the next version of its match (the log in the order the presses were accepted)."""

    def __init__(self, workers: list[Worker], look: Look, rng: random.Random) -> None:
        first = workers[0].driver
        super().__init__(first.app, first.api)
        self.workers = workers
        self.look = look
        self.rng = rng
        self.settings: Settings = get_host(first.app).settings
        self.routed: list[int] = []
        self.handled: Counter = Counter()
        self.served_by: Counter = Counter()  # updates handled by each worker (its index)
        self.sent_twice = 0
        self.presses_applied = 0
        self.seen: dict[int, int] = {}  # each match's last version seen after an update

    async def feed(self, update: dict) -> None:
        many = 2 if self.rng.random() < 1 / 3 else 1
        targets = self.rng.sample(self.workers, many)
        self.sent_twice += many == 2
        answers = await asyncio.gather(
            *(deliver(worker.client, self.settings, update) for worker in targets)
        )
        assert [answer.status_code for answer in answers] == [200] * many, answers
        self.routed.append(update["update_id"])
        counts = await asyncio.gather(
            *(handle_queued(w.driver, w.queue, self.handled) for w in self.workers)
        )
        self.served_by.update(n for n, count in enumerate(counts) if count)
        await asyncio.gather(*(w.driver.settle() for w in self.workers))
        get_host(self.app).storage._matches.clear()  # the players' view: what is committed
        self.check_moves(update)

    async def settle(self) -> None:
        await asyncio.gather(*(w.driver.settle() for w in self.workers))

    def check_moves(self, update: dict) -> None:
        """The moves committed since the last update: the next versions of their matches,
        and a press's own move at most (the players here are all people: no AI, no clock)."""
        made = self.look.rows(
            "SELECT m.match_id, m.version, m.seat, m.automatic, s.user_id FROM moves m "
            "LEFT JOIN seats s ON s.match_id = m.match_id AND s.seat = m.seat "
            "ORDER BY m.match_id, m.version"
        )
        new = [row for row in made if row[1] > self.seen.get(row[0], -1)]
        for match_id, version, _, _, _ in new:
            if match_id in self.seen:  # (the first: the start's, seat -1)
                assert version == self.seen[match_id] + 1, (match_id, version, self.seen)
            self.seen[match_id] = version
        by_people = [row for row in new if row[2] >= 0 and not row[3]]
        presser = (update.get("callback_query") or update.get("message") or {}).get("from", {})
        assert len(by_people) <= 1, f"one update applied {len(by_people)} moves: {by_people}"
        if by_people:
            assert "callback_query" in update, "a move applied by a message"
            assert by_people[0][4] == presser.get("id"), "a move applied for someone else"
            self.presses_applied += 1

    def check_the_end(self) -> None:
        """Every update handled once and kept as done; the logs whole: versions 0.. (the
        start's) without a gap or a repeat."""
        assert sorted(self.handled) == sorted(set(self.routed))
        twice = {update_id: n for update_id, n in self.handled.items() if n != 1}
        assert not twice, f"updates handled more than once: {twice}"
        kept = self.look.rows("SELECT update_id, done_at IS NOT NULL FROM inbox")
        assert sorted(update_id for update_id, _ in kept) == sorted(set(self.routed))
        assert all(done for _, done in kept), "an update kept but never marked handled"
        for match_id, versions in self.versions().items():
            assert versions == list(range(versions[0], versions[0] + len(versions))), match_id

    def versions(self) -> dict[int, list[int]]:
        logs: dict[int, list[int]] = {}
        for match_id, version in self.look.rows(
            "SELECT match_id, version FROM moves ORDER BY match_id, version"
        ):
            logs.setdefault(match_id, []).append(version)
        return logs


@asynccontextmanager
async def routed_workers(
    api: FakeTelegram, database: Database, count: int, seed: int = 57, **overrides
) -> AsyncIterator[RoutedDriver]:
    """``count`` webhook workers on one database behind a router: the players' driver."""
    async with AsyncExitStack() as stack:
        workers = [
            Worker(*await stack.enter_async_context(webhook_worker(api, database, **overrides)))
            for _ in range(count)
        ]
        look = Look(database)
        stack.callback(look.close)
        yield RoutedDriver(workers, look, random.Random(seed))
