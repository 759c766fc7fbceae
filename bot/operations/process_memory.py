"""The whole bot's resident memory: its own process and every process it started (AI and
hint workers, multiprocessing's resource tracker) — what a small instance's limit counts.
Read by ``/status`` and by the bench."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import psutil


@dataclass(frozen=True)
class ProcessMemory:
    """Resident bytes (a worker's shared libraries count in each process, as a container's
    memory limit does not: a little over, never under)."""

    main: int
    workers: int
    processes: int  # the bot's own and its workers

    @property
    def whole(self) -> int:
        return self.main + self.workers


def whole_bot() -> ProcessMemory:
    me = psutil.Process()
    workers, count = 0, 1
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):  # it exited since it was listed
            workers += child.memory_info().rss
            count += 1
    return ProcessMemory(me.memory_info().rss, workers, count)
