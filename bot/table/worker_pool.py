"""A pool of worker processes that heals itself: the AI's computations run off the event loop,
and neither a killed worker nor a runaway computation disables the pool for good.

A ``ProcessPoolExecutor`` whose worker dies (SIGKILL, the OOM killer) is broken for the rest
of its life: every later call raises ``BrokenProcessPool``. Here a broken executor is
replaced by a fresh one (made on the next call: no process starts before it is needed) and
the call is tried again, once. A call that runs past its bound raises :class:`Overrun`, and
its executor is replaced with its workers killed, so the runaway stops using a CPU.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

# A call whose worker died is tried this many times in all: one death costs one retry; a
# call that kills every worker it meets (a crash, not bad luck) is given up after that.
ATTEMPTS = 2
# How often a queued call looks whether a worker has taken it (its bound starts then).
QUEUED_CHECK_SECONDS = 1.0
# At shutdown, how long the calls still running may take before their workers are killed.
CLOSE_SECONDS = 5.0


class Overrun(Exception):
    """A call ran past its bound; its workers were killed (processes) or left behind
    (a thread cannot be stopped)."""


def make_executor(workers: int, name: str) -> Executor:
    """``workers`` processes (spawned: a fresh interpreter, never a fork of the bot's
    threads); 0: one thread of the bot's own process (tests)."""
    if workers == 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


class WorkerPool:
    def __init__(self, workers: int, name: str) -> None:
        self.workers = workers
        self.name = name  # in the log: whose pool it is
        self.executor: Executor | None = None  # made on first use
        self.in_flight = 0  # calls queued or running
        self._closed = False

    @property
    def capacity(self) -> int:
        """How many calls run at once (one thread when there are no worker processes)."""
        return max(1, self.workers)

    async def run(self, seconds: float, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker; the loop stays free. Raises :class:`Overrun`
        past ``seconds``, and whatever the function raised."""
        self.in_flight += 1
        try:
            for attempt in range(1, ATTEMPTS + 1):
                executor = self._current()
                try:
                    return await self._call(executor, seconds, function, args)
                except BrokenProcessPool:
                    self._replace(executor, "a worker died")
                    if attempt == ATTEMPTS:
                        raise
            raise AssertionError("unreachable: the last attempt returns or raises")
        finally:
            self.in_flight -= 1

    async def _call(
        self, executor: Executor, seconds: float, function: Callable[..., Any], args: tuple
    ) -> Any:
        call = executor.submit(function, *args)
        result = asyncio.wrap_future(call)
        loop = asyncio.get_running_loop()
        # the bound counts from when a worker takes the call: waiting behind other matches'
        # decisions on a busy pool is no runaway
        began: float | None = None
        try:
            while not result.done():
                if began is None and call.running():
                    began = loop.time()
                left = QUEUED_CHECK_SECONDS if began is None else began + seconds - loop.time()
                if left <= 0:
                    self._replace(executor, f"a call ran past {seconds:g} s")
                    name = getattr(function, "__name__", repr(function))
                    raise Overrun(f"{name} ran past {seconds:g} s")
                await asyncio.wait({result}, timeout=min(left, QUEUED_CHECK_SECONDS))
        finally:
            if not result.done():  # cancelled, or past the bound: if still queued, never start
                result.cancel()
        return result.result()

    async def warm(self) -> None:
        """Start the workers now, from a thread: spawning them takes a second that the event
        loop must not wait through (a call's first use would spawn them on it)."""
        if self.workers == 0 or self._closed:
            return
        executor = self._current()
        await asyncio.to_thread(lambda: executor.submit(int).result())

    async def close(self) -> None:
        """Shutdown: drop calls not started and wait for those running — for at most
        :data:`CLOSE_SECONDS`, then kill the workers (a runaway must not hold up a stop)."""
        self._closed = True
        executor, self.executor = self.executor, None
        if executor is None:
            return
        closing = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        done, _ = await asyncio.wait({closing}, timeout=CLOSE_SECONDS)
        if not done and isinstance(executor, ProcessPoolExecutor):
            log.warning("the %s pool still computes at shutdown: its workers are killed", self.name)
            _kill_workers(executor)
            await closing

    def _current(self) -> Executor:
        if self._closed:
            raise RuntimeError(f"the {self.name} pool is closed")
        if self.executor is None:
            self.executor = make_executor(self.workers, self.name)
        return self.executor

    def _replace(self, executor: Executor, why: str) -> None:
        """Retire ``executor`` (the next call makes a fresh one), killing its workers: other
        calls running there fail as broken and are tried again on the new one."""
        if self.executor is not executor:
            return  # another call has replaced it already
        self.executor = None
        log.warning("the %s pool is replaced: %s", self.name, why)
        if isinstance(executor, ProcessPoolExecutor):
            _kill_workers(executor)
        else:
            log.warning("the %s pool's thread is left to finish on its own", self.name)
        executor.shutdown(wait=False, cancel_futures=True)


def _kill_workers(executor: ProcessPoolExecutor) -> None:
    # no public way to stop a running call: kill its process (and its siblings; their calls
    # fail as broken)
    for process in list((executor._processes or {}).values()):
        process.kill()
