"""The AI's worker pool on its own: what counts as a runaway call."""

from __future__ import annotations

import asyncio
import time

from bot.table.worker_pool import WorkerPool


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


async def test_a_call_waiting_behind_another_is_no_runaway():
    pool = WorkerPool(0, "test")  # one thread: the second call queues behind the first
    try:
        answers = await asyncio.gather(pool.run(0.4, nap, 0.3), pool.run(0.4, nap, 0.3))
    finally:
        await pool.close()
    assert answers == [0.3, 0.3]  # the second took 0.6 s in all, 0.3 s of it its own
