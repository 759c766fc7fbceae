"""AI functions that misbehave inside a worker process. They live in a module of their own,
with nothing heavy to import, because a spawned worker unpickles them by name."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from games.ai import choose
from games.core import Action

RUNAWAY_SECONDS = 20.0  # far past any bound the tests set; the old code waited it out


def die_once(marker: str, *args: object) -> Action:
    """The first call kills its own worker, as the OOM killer would, mid decision; later
    calls decide like :func:`games.ai.choose`."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return choose(*args)  # type: ignore[arg-type]


def run_away(marker: str, *args: object) -> Action:
    """A decision that never finishes in time (a bug, a huge position): writes its worker's
    pid to ``marker``, then keeps the worker busy."""
    Path(marker).write_text(str(os.getpid()))
    time.sleep(RUNAWAY_SECONDS)
    raise RuntimeError("a runaway decision came back at last")
