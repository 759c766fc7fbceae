"""Practice hints, computed in a lane of their own so that no flood of "Hint" presses can
delay an AI seat's move: one worker (a process, or a thread when ``AI_WORKERS`` is 0) made
at the first hint — on a small instance the memory of one more process, only once someone
asks.

A player has at most one hint being computed (a repeat press is told "still thinking"),
and at most :data:`HINTS_AT_ONCE` are computing or waiting across all players (more are
told "busy, try again"): a refused press computes nothing.
"""

from __future__ import annotations

from typing import Literal

from bot.table.worker_pool import Overrun, WorkerPool
from games.ai import Hint, hint
from games.core import Action, View

# Hints computing or waiting at once, across all players: the last of them waits for the
# ones before it (a hint takes up to about 0.2 s of CPU: docs/ai.md "Time per decision").
HINTS_AT_ONCE = 6
# The longest a hint may take: far past any hint's time (a bug, a huge position).
HINT_SECONDS = 15.0

Refusal = Literal["hint.thinking", "hint.busy"]  # the popup that answers a refused press


class Hints:
    def __init__(self, workers: int) -> None:
        self.pool = WorkerPool(min(workers, 1), "hints")
        self._asking: set[int] = set()  # players whose hint is computing or waiting

    async def ask(
        self, player: int, game: str, view: View, seat: int, legal: list[Action], seed: int
    ) -> Hint | Refusal:
        """``player``'s hint (:func:`games.ai.hint`), or why they get none now."""
        if player in self._asking:
            return "hint.thinking"
        if len(self._asking) >= HINTS_AT_ONCE:
            return "hint.busy"
        self._asking.add(player)
        try:
            return await self.pool.run(HINT_SECONDS, hint, game, view, seat, legal, seed)
        except Overrun:
            return "hint.busy"
        finally:
            self._asking.discard(player)

    @property
    def asking(self) -> int:
        """Hints computing or waiting."""
        return len(self._asking)

    async def close(self) -> None:
        await self.pool.close()
