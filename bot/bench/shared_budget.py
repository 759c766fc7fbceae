"""``python -m bot.bench.shared_budget``: what one call to Telegram costs a worker among
several for the budget they share (issue 57): the reservation of its moment in the
``telegram_pace`` table, one statement, on a PostgreSQL started for the run. Prints the
wall and CPU time per reservation, a group's call (two keys) and a private chat's (one),
the median of three runs."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time

from bot.bench import database_for
from bot.storage.postgres import PostgresStorage


async def one_run(url: str, calls: int) -> dict[str, tuple[float, float]]:
    storage = PostgresStorage(url, instance_lock=False)  # a worker among several
    await storage.open()
    shared = storage.shared
    assert shared is not None
    overall = (1 / 1e6, 1.0)  # spacing so small that nothing waits: the cost alone
    figures = {}
    try:
        for kind, group in (("group", (-1001, 1 / 1e6, 1.0)), ("private", None)):
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(calls):
                await shared.reserve_call(overall, group)
            figures[kind] = (
                (time.perf_counter() - wall) / calls * 1000,
                (time.process_time() - cpu) / calls * 1000,
            )
    finally:
        await storage.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="reservations a run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir, database_for("postgres", workdir) as url:
        assert url is not None
        runs = [asyncio.run(one_run(url, args.calls)) for _ in range(args.runs)]
    for kind in ("group", "private"):
        wall = statistics.median(run[kind][0] for run in runs)
        cpu = statistics.median(run[kind][1] for run in runs)
        print(f"a {kind} call's reservation: {wall:.3f} ms wall, {cpu:.3f} ms CPU", end="")
        print(f" (median of {args.runs})")


if __name__ == "__main__":
    main()
