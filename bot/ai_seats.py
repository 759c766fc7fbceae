"""AI seats play: whenever a match changes and an AI seat is to act, its move is computed
off the event loop — in a pool of worker processes (``AI_WORKERS``) — then committed like
any move (before anything about it is shown) and drawn.

One task per match at a time. It reads the committed match, lets every AI seat that is to
act decide together (a simultaneous phase: all at once, each from its own view), then
takes the match's lock and commits each move that is still that seat's current decision.
Each decision's seed comes from the match and the decision (``bot.ai_moves``), so a restart
in the middle of an AI's turn — start-up wakes every running match — replays the same
move.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from bot import flow
from bot.ai_moves import decision_args
from bot.locks import MatchLocks
from bot.publisher import Publisher
from bot.storage import Match, Storage
from bot.timers import Timers
from games import get_engine
from games.ai import choose
from games.core import Action

log = logging.getLogger(__name__)


def make_executor(workers: int) -> Executor:
    """``workers`` processes (spawned: a fresh interpreter, never a fork of the bot's
    threads); 0: one thread of the bot's own process (tests)."""
    if workers == 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


class AISeats:
    def __init__(
        self,
        storage: Storage,
        lock: MatchLocks,
        publisher: Publisher,
        timers: Timers,
        workers: int,
    ) -> None:
        self.storage = storage
        self.lock = lock
        self.publisher = publisher
        self.timers = timers
        self.workers = workers
        self._executor: Executor | None = None
        self._tasks: dict[int, asyncio.Task] = {}
        self._thinking: set[int] = set()  # matches whose task waits for the workers
        self._closed = False

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    # -- running work off the event loop ---------------------------------------------------
    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the pool (made on first use); the loop stays free."""
        if self._executor is None:
            self._executor = make_executor(self.workers)
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

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
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    # -- playing ---------------------------------------------------------------------------
    async def _play(self, match_id: int) -> None:
        try:
            while not self._closed:
                match = await self.storage.load(match_id)
                if match is None or match.status != "playing":
                    return
                decisions = [
                    (seat.seat, seat.token, args)
                    for seat in match.seats
                    if seat.is_ai and (args := decision_args(match, seat, seat.ai)) is not None
                ]
                if not decisions:
                    return
                self._thinking.add(match_id)
                try:
                    actions = await asyncio.gather(
                        *(self.run(choose, *args) for _, _, args in decisions),
                        return_exceptions=True,
                    )
                finally:
                    self._thinking.discard(match_id)
                moves = [
                    (seat, token, self._checked(match, seat, action))
                    for (seat, token, _), action in zip(decisions, actions, strict=True)
                ]
                await self._commit(match_id, moves)
        except Exception:
            log.exception("match %s: the AI seats could not play", match_id)
        finally:
            self._tasks.pop(match_id, None)

    @staticmethod
    def _checked(match: Match, seat: int, action: Action | BaseException) -> Action:
        """The AI's move, or the engine's default move where the AI failed."""
        if isinstance(action, BaseException):
            if isinstance(action, asyncio.CancelledError):
                raise action
            log.error("match %s: the AI failed for seat %s: %r", match.id, seat, action)
            return get_engine(match.game).default_action(match.state, seat)
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
