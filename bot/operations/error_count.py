"""How many errors the bot logged lately, for /status: a logging handler that keeps the
times of the ERROR records of the last hour."""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

WINDOW_SECONDS = 3600.0


class ErrorCount(logging.Handler):
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(level=logging.ERROR)
        self.clock = clock
        self._times: deque[float] = deque()

    def emit(self, record: logging.LogRecord) -> None:
        self._times.append(self.clock())
        self._forget_old()

    def last_hour(self) -> int:
        self._forget_old()
        return len(self._times)

    def _forget_old(self) -> None:
        cutoff = self.clock() - WINDOW_SECONDS
        while self._times and self._times[0] < cutoff:
            self._times.popleft()
