"""``python -m bot.bench.tournaments``: pairing a big Swiss, tournaments' state in memory, and
the Telegram calls a round costs its group.

Plays ``--players`` players (default 1,000) through ``--rounds`` rounds (5) of a Swiss, each
table's result drawn from a seeded random generator, and times the pairing of every round:
at 2 players (FIDE's Dutch system through py4swiss up to ``DUTCH_MAX_FIELD`` players, then
grouped by score, as the bot does) and at 4 (grouped by score). Then holds
``--tournaments`` tournaments (50) of ``--field`` players (64) three rounds in and measures
the memory their state takes (tracemalloc). Prints one JSON line: for each table size the
first and the slowest round's pairing, wall clock and process CPU time, each the median of
``--runs`` runs (3), and the memory in KB.

``--running``: instead, ``--tournaments`` Swiss tournaments (50) of ``--field`` people (64)
at 2-player tables of 5211, each in a group of its own, all started through the whole bot
and the fake Telegram (every player joins by the deep link), so that every first-round game
runs; prints the bot process's resident memory (psutil) before the first tournament and
with them all running, in one JSON line.

``--calls``: instead, a Swiss of ``--field`` people (64) at 2-player tables of 5211 runs
through the whole bot and the fake Telegram (every player joins by the deep link, every
game is played to its end by its players' first legal moves), and the calls made to the
group in each round are counted (a round's pairings, the tournament message's edits; no
game posts anything there). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.tournaments.entries import add_round, finish_table
from bot.tournaments.model import Entrant, Rules, Tournament
from bot.tournaments.pairing import DUTCH_MAX_FIELD, next_round


def random_places(generator: random.Random, size: int) -> tuple[int, ...]:
    """A table's places at random; at two players a draw one time in ten."""
    if size == 2 and generator.random() < 0.1:
        return (1, 1)
    order = list(range(1, size + 1))
    generator.shuffle(order)
    return tuple(order)


def swiss(players: int, size: int, rounds: int) -> Tournament:
    rules = Rules("swiss", size, rounds=rounds)
    return Tournament(rules, tuple(Entrant(player, player) for player in range(1, players + 1)))


def play(tournament: Tournament, seed: int, rounds: int) -> tuple[Tournament, list[tuple]]:
    """Plays `rounds` rounds; each round's pairing timed (wall, CPU)."""
    generator = random.Random(seed)
    timings = []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        round_ = next_round(tournament)
        timings.append((time.perf_counter() - wall, time.process_time() - cpu))
        tournament = add_round(tournament, round_)
        for index, table in enumerate(round_.tables):
            places = random_places(generator, len(table.players))
            tournament = finish_table(tournament, round_.number, index, places)
    return tournament, timings


def pairing_figures(args: argparse.Namespace, size: int) -> dict:
    slowest_walls, slowest_cpus, first_walls, first_cpus = [], [], [], []
    for run in range(args.runs):
        _, timings = play(swiss(args.players, size, args.rounds), run, args.rounds)
        first_walls.append(timings[0][0])
        first_cpus.append(timings[0][1])
        slowest = max(timings)
        slowest_walls.append(slowest[0])
        slowest_cpus.append(slowest[1])
    return {
        "first_round_ms": round(statistics.median(first_walls) * 1000, 1),
        "first_round_cpu_ms": round(statistics.median(first_cpus) * 1000, 1),
        "slowest_round_ms": round(statistics.median(slowest_walls) * 1000, 1),
        "slowest_round_cpu_ms": round(statistics.median(slowest_cpus) * 1000, 1),
    }


def memory_kb(args: argparse.Namespace) -> float:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = [play(swiss(args.field, 2, 7), seed, 3)[0] for seed in range(args.tournaments)]
    taken = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(held) == args.tournaments
    return round(taken / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--field", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", action="store_true", help="a round's calls to the group")
    parser.add_argument("--running", action="store_true", help="memory with them all running")
    args = parser.parse_args()
    if args.running:
        print(json.dumps(asyncio.run(running_memory(args.tournaments, args.field))))
        return
    if args.calls:
        print(json.dumps(asyncio.run(group_calls(args.field, args.rounds))))
        return
    figures = {
        "players": args.players,
        "dutch_max_field": DUTCH_MAX_FIELD,
        "rounds": args.rounds,
        "two_player_tables": pairing_figures(args, 2),
        "four_player_tables": pairing_figures(args, 4),
        f"state_of_{args.tournaments}_tournaments_of_{args.field}_kb": memory_kb(args),
    }
    print(json.dumps(figures))


GROUP = -100_500


async def group_calls(field: int, rounds: int) -> dict:
    """A Swiss of `field` people through the bot: the calls to the group, round by round."""
    from bot.bench import bot_for_a_bench  # the whole bot: only for --calls
    from bot.table.host import get_host
    from bot.testing.driver import FakeUser
    from bot.testing.fake_telegram import FakeTelegram
    from games import get_engine

    api = FakeTelegram()
    # no pace: every call counted, none held back (the most a round costs)
    with tempfile.TemporaryDirectory() as folder:
        async with bot_for_a_bench(Path(folder) / "bench.sqlite3", api) as driver:
            host = get_host(driver.app)
            driver.group(GROUP, "Bench Night")
            people = [FakeUser(1000 + n, f"Player {n}") for n in range(field)]
            await driver.send(people[0], GROUP, "/tournament 5211")
            tournament_id = await host.storage.active_tournament(GROUP)
            for person in people:
                await driver.send(person, person.id, f"/start t{tournament_id}")
            for _ in range(6):  # the rounds asked for (3, 4, 5, 6, 7 or 2)
                if f"Rounds: {rounds}" in driver.api.last(GROUP).text:
                    break
                await driver.press_label(people[0], GROUP, "Rounds:")
            before = len(api.calls)
            await driver.press_label(people[0], GROUP, "▶️ Start")
            per_round = []
            engine = get_engine("5211")
            for _ in range(rounds):
                stored = await host.storage.tournament(tournament_id)
                number = len(stored.state.rounds)
                for (round_number, _index), match_id in sorted(stored.matches.items()):
                    if round_number != number:
                        continue
                    while True:
                        async with host.lock(match_id):
                            match = await host.storage.load(match_id)
                            if match.status != "playing":
                                break
                            seat = min(engine.to_act(match.state))
                            action = engine.legal_actions(match.state, seat)[0]
                            await host.play(match, match.seats[seat], action)
                        await driver.settle()
                calls = [(method, params) for method, params in api.calls[before:]]
                before = len(api.calls)
                to_group = [m for m, p in calls if str(p.get("chat_id")) == str(GROUP)]
                per_round.append(len(to_group))
            finished = await host.storage.tournament(tournament_id)
    return {
        "field": field,
        "rounds_played": len(finished.state.rounds),
        "status": finished.status,
        "group_calls_per_round": per_round,
        "tables_a_round": field // 2,
    }


async def running_memory(tournaments: int, field: int) -> dict:
    """``tournaments`` Swiss tournaments of ``field`` people started through the bot: the
    process's memory before and with all their first-round games running."""
    import psutil

    from bot.bench import bot_for_a_bench  # the whole bot: only for --running
    from bot.table.host import get_host
    from bot.testing.driver import FakeUser
    from bot.testing.fake_telegram import FakeTelegram

    def rss_mb() -> float:
        return psutil.Process().memory_info().rss / 2**20

    api = FakeTelegram()  # it keeps the messages (their buttons are pressed): counted too
    with tempfile.TemporaryDirectory() as folder:
        async with bot_for_a_bench(Path(folder) / "bench.sqlite3", api) as driver:
            host = get_host(driver.app)
            before, cpu, wall = rss_mb(), time.process_time(), time.perf_counter()
            running = 0
            for number in range(tournaments):
                group = GROUP - number
                driver.group(group, f"Bench Night {number}")
                people = [FakeUser(10**6 * (number + 1) + n, f"P{n}") for n in range(field)]
                await driver.send(people[0], group, "/tournament 5211")
                tournament_id = await host.storage.active_tournament(group)
                for person in people:
                    await driver.send(person, person.id, f"/start t{tournament_id}")
                await driver.press_label(people[0], group, "▶️ Start")
                stored = await host.storage.tournament(tournament_id)
                for match_id in stored.matches.values():
                    match = await host.storage.load(match_id)
                    running += match is not None and match.status == "playing"
            await driver.settle()
            with_them = rss_mb()
            figures = {
                "tournaments": tournaments,
                "field": field,
                "games_running": running,
                "rss_mb_before": round(before, 1),
                "rss_mb_running": round(with_them, 1),
                "kb_a_tournament": round(1024 * (with_them - before) / tournaments, 1),
                "cpu_s": round(time.process_time() - cpu, 1),
                "wall_s": round(time.perf_counter() - wall, 1),
            }
    return figures


if __name__ == "__main__":
    main()
