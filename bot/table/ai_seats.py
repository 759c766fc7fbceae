"""AI seats play: whenever a match changes and an AI seat is to act, its move is computed
off the event loop — in a pool of worker processes (``AI_WORKERS``, ``bot.table.worker_pool``:
a killed worker costs a retry) — then committed like any move (before anything about it is
shown) and drawn. Hints have a pool of their own (``bot.table.hints``), so they never delay a
seat's move.

One task per match at a time. It reads the committed match, lets every AI seat that is to
act decide together (a simultaneous phase: all at once, each from its own view), then
takes the match's lock and commits each move that is still that seat's current decision.
Each decision's seed comes from the match and the decision (``bot.table.ai_moves``), so a restart
in the middle of an AI's turn — start-up wakes every running match — replays the same
move; a hard seat's search stops by the clock (``AI_THINK_SECONDS``), so it may choose
another after a restart, which nobody can tell: its first choice was never shown.

A decision past :data:`DECISION_SECONDS` (a bug, a huge position) gives way: the normal AI,
computed here, replaces a hard level's search; any other level's move becomes the engine's
default move. Its worker is killed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.storage import Match, Seat, Storage
from bot.table import flow
from bot.table.ai_moves import HARD, decision_args, normal_move
from bot.table.locks import MatchLocks
from bot.table.publishing.publisher import Publisher
from bot.table.timers import Timers
from bot.table.worker_pool import Overrun, WorkerPool
from games import get_engine
from games.ai import choose
from games.core import Action

log = logging.getLogger(__name__)

# The longest a decision may take: about 10× the hard level's target (1.5 s at p99 on a
# loaded machine, docs/ai.md "Time per decision"); past it the decision is a runaway.
DECISION_SECONDS = 15.0
# With more decisions waiting than workers, a 🤖 Hard seat thinks for a share of
# AI_THINK_SECONDS (workers / decisions waiting), never less than this share: a quarter of
# the budget is about as strong (docs/ai.md, "Strength against budget"), and the queue of
# bot moves drains four times as fast.
LEAST_THINK_SHARE = 0.25


class AISeats:
    def __init__(
        self,
        storage: Storage,
        lock: MatchLocks,
        publisher: Publisher,
        timers: Timers,
        workers: int,
        think_seconds: float | None = None,
    ) -> None:
        self.storage = storage
        self.lock = lock
        self.publisher = publisher
        self.timers = timers
        self.think_seconds = think_seconds  # the hard level's time per decision
        self.pool = WorkerPool(workers, "AI seats")
        self._tasks: dict[int, asyncio.Task] = {}
        self._thinking: set[int] = set()  # matches whose task waits for the workers
        self._closed = False

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    # -- scheduling ------------------------------------------------------------------------
    def wake(self, match: Match) -> None:
        """The match changed: if an AI seat is to act, play it (in the background)."""
        if self._closed or match.status != "playing" or match.id in self._tasks:
            return  # a running task reads the match afresh before it stops
        if not _ai_to_act(match):
            return
        task = asyncio.get_running_loop().create_task(self._play(match.id))
        self._tasks[match.id] = task

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    @property
    def thinking(self) -> int:
        """Matches whose AI seat waits for, or is being computed by, the workers."""
        return len(self._thinking)

    async def idle(self) -> None:
        """Wait until no AI seat is thinking or moving (tests, the bench)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Shutdown: drop decisions still being computed (a restart computes them again, the
        same), let commits in progress finish, and close the pool."""
        self._closed = True
        for match_id, task in self._tasks.items():
            if match_id in self._thinking:
                task.cancel()
        await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
        await self.pool.close()

    # -- playing ---------------------------------------------------------------------------
    async def _play(self, match_id: int) -> None:
        try:
            while not self._closed:
                match = await self.storage.load(match_id)
                if match is None or match.status != "playing":
                    return
                to_act = get_engine(match.game).to_act(match.state)
                acting = [seat for seat in match.seats if seat.is_ai and seat.seat in to_act]
                seconds = self.think_time(sum(seat.ai == HARD for seat in acting))
                decisions = [
                    (seat, args)
                    for seat in acting
                    if (args := decision_args(match, seat, seat.ai, seconds)) is not None
                ]
                if not decisions:
                    return
                self._thinking.add(match_id)
                try:
                    actions = await asyncio.gather(
                        *(self.pool.run(DECISION_SECONDS, choose, *args) for _, args in decisions),
                        return_exceptions=True,
                    )
                finally:
                    self._thinking.discard(match_id)
                moves = [
                    (seat.seat, seat.token, self._checked(match, seat, action))
                    for (seat, _), action in zip(decisions, actions, strict=True)
                ]
                await self._commit(match_id, moves)
        except Exception:
            log.exception("match %s: the AI seats could not play", match_id)
        finally:
            self._tasks.pop(match_id, None)

    def think_time(self, hard_decisions: int) -> float | None:
        """A 🤖 Hard seat's thinking time for a decision now, ``hard_decisions`` of them about
        to join the decisions already queued or running: ``AI_THINK_SECONDS``, shared out
        when more wait than the workers can run at once."""
        if self.think_seconds is None:
            return None
        waiting = self.pool.in_flight + hard_decisions
        share = min(1.0, self.pool.capacity / waiting) if waiting else 1.0
        return self.think_seconds * max(LEAST_THINK_SHARE, share)

    @staticmethod
    def _checked(match: Match, seat: Seat, action: Action | BaseException) -> Action:
        """The AI's move; where it ran away, the normal AI's or the default move; where it
        failed, the engine's default move."""
        if isinstance(action, Overrun):
            fallback = "the normal AI's" if seat.ai == HARD else "the default"
            log.warning(
                "match %s: the AI's decision for seat %s ran past %g s: %s move instead",
                match.id,
                seat.seat,
                DECISION_SECONDS,
                fallback,
            )
            # the hard search gives way to the normal AI, computed here in milliseconds; any
            # other level's runaway may be the normal AI's own: the default move instead
            if seat.ai == HARD:
                return normal_move(match, seat)
            return get_engine(match.game).default_action(match.state, seat.seat)
        if isinstance(action, BaseException):
            if isinstance(action, asyncio.CancelledError):
                raise action
            log.error("match %s: the AI failed for seat %s: %r", match.id, seat.seat, action)
            return get_engine(match.game).default_action(match.state, seat.seat)
        return tuple(action)

    async def _commit(self, match_id: int, moves: list[tuple[int, int, Action]]) -> None:
        """Commit each move that is still its seat's current decision, then let seats on
        autopilot follow, and draw."""
        async with self.lock(match_id):
            match = await self.storage.load(match_id)
            if match is None or match.status != "playing":
                return
            engine = get_engine(match.game)
            moved = False
            for seat, token, action in moves:
                if match.status != "playing" or match.seats[seat].token != token:
                    continue  # the seat's decision changed meanwhile: it is decided afresh
                if not engine.is_legal(match.state, seat, action):  # never loop on a bad move
                    log.error("match %s: the AI chose %r for seat %s", match_id, action, seat)
                    action = engine.default_action(match.state, seat)
                await flow.commit_move(self.storage, match, seat, action, self.clock())
                moved = True
            if moved:
                await self.timers.settle(match)
        self.publisher.request(match)


def _ai_to_act(match: Match) -> bool:
    to_act = get_engine(match.game).to_act(match.state)
    return any(match.seats[number].is_ai for number in to_act)
