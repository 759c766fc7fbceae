"""Tournaments on several workers (issue 57): a round opens once, whichever workers hear
its tables end, and a timed start opens its first round once after the leader dies."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from bot.table.host import get_host
from bot.testing.driver import Driver
from bot.testing.fake_telegram import FakeTelegram
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, DAVE, GROUP
from tests.bot.databases import Database
from tests.bot.helpers import Clock
from tests.bot.process import ROOT
from tests.bot.test_workers import LEADER, workers
from tests.bot.tournaments.test_in_a_group import open_with, stored, texts

pytestmark = pytest.mark.parametrize("backend", ["postgres"])

ENGINE = get_engine("5211")
FIELD = [ALICE, BOB, CAROL, DAVE]  # 5211 at tables of 2: two tables a round


def round_messages(driver: Driver, number: int) -> int:
    """How many times the group was told a round's tables."""
    return sum(
        text.startswith(f"🏆 Round {number} of 3: the tables") for text in texts(driver, GROUP)
    )


async def play_all_but_the_last_moves(driver: Driver, match_ids: list[int]) -> list[tuple]:
    """Every table's moves on ``driver`` up to the one that would end it; those last moves
    (match, seat, action), not made."""
    host = get_host(driver.app)
    last: dict[int, tuple] = {}
    for _ in range(1000):
        moved = False
        for match_id in match_ids:
            if match_id in last:
                continue
            async with host.lock(match_id):
                match = await host.storage.load(match_id)
                seat = min(ENGINE.to_act(match.state))
                action = ENGINE.legal_actions(match.state, seat)[0]
                if ENGINE.is_over(ENGINE.apply(match.state, seat, action)):
                    last[match_id] = (match_id, seat, action)
                    continue
                await host.play(match, match.seats[seat], action)
                moved = True
        await driver.settle()
        if len(last) == len(match_ids):
            return [last[match_id] for match_id in match_ids]
        assert moved
    raise AssertionError("the tables did not come to their last moves")


async def last_move(driver: Driver, match_id: int, seat: int, action) -> None:
    host = get_host(driver.app)
    async with host.lock(match_id):
        match = await host.storage.load(match_id)
        await host.play(match, match.seats[seat], action)


async def test_a_rounds_two_tables_ending_at_once_on_two_workers_open_the_next_round_once(
    api: FakeTelegram, database: Database
):
    async with workers(api, database, 2) as [first, second]:
        await open_with(first, ALICE, FIELD)
        await first.press_label(ALICE, GROUP, "▶️ Start")
        one = await stored(first)
        tables = sorted(one.matches.values())
        assert len(tables) == 2 and round_messages(first, 1) == 1
        ends = await play_all_but_the_last_moves(first, tables)
        for driver in (first, second):  # each worker reads the tournament, then dawdles:
            storage = get_host(driver.app).storage  # the two hearings overlap

            async def read_then_dawdle(tournament_id, read=storage.tournament):
                found = await read(tournament_id)
                await asyncio.sleep(0.2)
                return found

            storage.tournament = read_then_dawdle
        # the two tables' last moves at the same moment, one on each worker
        await asyncio.gather(last_move(first, *ends[0]), last_move(second, *ends[1]))
        for driver in (first, second):
            await get_host(driver.app).tournaments.idle()
        await asyncio.gather(first.settle(), second.settle())
        two = await stored(second)
        assert len(two.state.rounds) == 2  # heard both, and went on
        assert all(table.finished for table in two.state.rounds[0].tables)
        assert len(two.matches) == 4  # the second round's two tables, opened once
        assert round_messages(first, 2) == 1


async def test_the_leader_killed_a_timed_start_still_opens_its_first_round_once(
    api: FakeTelegram, database: Database
):
    """A worker process leads; two workers follow. A lobby's start time passes while the
    leader is killed (kill -9): another worker leads within 5 s, and with both workers'
    sweeps and both lobbies' start jobs running, the first round opens once."""
    leader = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LEADER, database.url, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    try:
        name = (await asyncio.wait_for(leader.stdout.readline(), 60)).strip().decode()
        assert name != "following"
        async with workers(api, database, 2) as [first, second]:
            hosts = [get_host(driver.app) for driver in (first, second)]
            clock = Clock()
            for host in hosts:
                host.clock = clock
            await open_with(first, ALICE, FIELD)
            await first.press_label(ALICE, GROUP, "Start time: by hand")  # in 15 minutes
            clock.now += 15 * 60 + 1
            await asyncio.gather(*(host.tournaments._on_sweep(None) for host in hosts))
            assert (await stored(first)).status == "lobby"  # the sweep is the leader's
            leader.kill()
            await leader.wait()
            killed = time.monotonic()
            while not any(host.storage.shared.leading for host in hosts):
                assert time.monotonic() - killed < 5, "nobody leads 5 s after the kill"
                await asyncio.sleep(0.05)
            print(f"a follower leads {time.monotonic() - killed:.2f} s after the kill")
            runs = [host.tournaments._on_sweep(None) for host in hosts]
            runs += [host.tournaments._on_due(None) for host in hosts]
            await asyncio.gather(*runs)
            await asyncio.gather(first.settle(), second.settle())
            started = await stored(second)
            assert started.status == "running" and len(started.state.rounds) == 1
            assert len(started.matches) == 2
            assert round_messages(first, 1) == 1
    finally:
        if leader.returncode is None:
            leader.kill()
            await leader.wait()
