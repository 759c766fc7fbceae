"""``python -m bot.bench.tournament_round``: the event loop's longest stall while a round of a
big tournament ends and the next is paired.

A Swiss of ``--field`` people (128) at ``--size``-player tables (2) of 5211 runs through the
whole bot and the fake Telegram: everyone joins by the deep link, the creator starts it, and
every table of round 1 but one is played through the bot to its end, and that one to its
last move. Then a watcher ticks on the event loop every millisecond while the last move is
played: the round's last table ends, its end is heard, the next round is paired (FIDE's
Dutch system at 2 players, in the pairing's worker process) and its tables are opened. The
window closes when round 2's tables are all open.

Prints one JSON line: the longest gap between the watcher's ticks beyond its millisecond
(``stall_max_ms``, wall clock) and the most CPU time the loop's thread spent between two
ticks (``stall_max_cpu_ms``: the work that held the loop, whatever else the machine ran),
and the window's wall and CPU time (``time.process_time``: this process, not the pairing's
worker), each the median of ``--runs`` runs (3), with every run's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

GROUP = -100_600
TICK = 0.001


class StallWatch:
    """Ticks on the event loop; the longest it waited beyond each tick: on the wall clock
    (which on a loaded machine counts the time the process was not scheduled at all), and
    in the CPU time of the loop's own thread between two ticks (the work that held it)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self._stop = asyncio.Event()

    async def run(self) -> None:
        last, last_cpu = time.perf_counter(), time.thread_time()
        while not self._stop.is_set():
            await asyncio.sleep(TICK)
            now, now_cpu = time.perf_counter(), time.thread_time()
            self.worst = max(self.worst, now - last - TICK)
            self.worst_cpu = max(self.worst_cpu, now_cpu - last_cpu)
            last, last_cpu = now, now_cpu

    def stop(self) -> None:
        self._stop.set()


async def one_run(field: int, size: int) -> dict:
    from bot.bench import bot_for_a_bench
    from bot.table.host import get_host
    from bot.testing.driver import FakeUser
    from bot.testing.fake_telegram import FakeTelegram
    from games import get_engine

    api = FakeTelegram()
    engine = get_engine("5211")
    with tempfile.TemporaryDirectory() as folder:
        # one worker process, as deployed (AI_WORKERS ≥ 1): the round is paired there
        async with bot_for_a_bench(Path(folder) / "bench.sqlite3", api, ai_workers=1) as driver:
            host = get_host(driver.app)
            driver.group(GROUP, "Bench Night")
            people = [FakeUser(2000 + n, f"Player {n}") for n in range(field)]
            await driver.send(people[0], GROUP, "/tournament 5211")
            tournament_id = await host.storage.active_tournament(GROUP)
            for _ in range(size - 2):
                await driver.press_label(people[0], GROUP, "Tables of")
            for person in people:
                await driver.send(person, person.id, f"/start t{tournament_id}")
            await driver.press_label(people[0], GROUP, "▶️ Start")
            await driver.settle()
            stored = await host.storage.tournament(tournament_id)
            last_moves = []
            for match_id in sorted(stored.matches.values()):  # every table to its last move
                while True:
                    match = await host.storage.load(match_id)
                    seat = min(engine.to_act(match.state))
                    action = engine.legal_actions(match.state, seat)[0]
                    if engine.is_over(engine.apply(match.state, seat, action)):
                        last_moves.append((match_id, seat, action))
                        break
                    async with host.lock(match_id):
                        await host.play(match, match.seats[seat], action)
            for match_id, seat, action in last_moves[:-1]:  # every table but one ends
                async with host.lock(match_id):
                    match = await host.storage.load(match_id)
                    await host.play(match, match.seats[seat], action)
            last_moves = last_moves[-1:]
            await driver.settle()
            await host.tournaments.idle()
            await host.tournaments.pairing.warm()  # (started with the bot, as deployed)
            watch = StallWatch()
            watcher = asyncio.create_task(watch.run())
            wall, cpu = time.perf_counter(), time.process_time()
            for match_id, seat, action in last_moves:  # the round ends
                async with host.lock(match_id):
                    match = await host.storage.load(match_id)
                    await host.play(match, match.seats[seat], action)
            while True:  # until round 2 is paired and all its tables are open
                await host.tournaments.idle()
                paired = await host.storage.tournament(tournament_id)
                if len(paired.state.rounds) >= 2:
                    tables = len(paired.state.rounds[1].tables)
                    if sum(1 for (r, _), _m in paired.matches.items() if r == 2) == tables:
                        break
                await asyncio.sleep(0.01)
            figures = {
                "wall_ms": (time.perf_counter() - wall) * 1000,
                "cpu_ms": (time.process_time() - cpu) * 1000,
                "stall_max_ms": watch.worst * 1000,
                "stall_max_cpu_ms": watch.worst_cpu * 1000,
                "tables_next_round": tables,
            }
            watch.stop()
            await watcher
            await driver.settle()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", type=int, default=128)
    parser.add_argument("--size", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = [asyncio.run(one_run(args.field, args.size)) for _ in range(args.runs)]
    median = {
        key: round(statistics.median(run[key] for run in runs), 1)
        for key in ("stall_max_ms", "stall_max_cpu_ms", "wall_ms", "cpu_ms")
    }
    print(json.dumps({"field": args.field, "size": args.size, **median, "runs": runs}))


if __name__ == "__main__":
    main()
