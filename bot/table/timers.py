"""Move time limits: a reminder at half time, the normal AI's move at the deadline, autopilot
after several timeouts in a row, and expiry of abandoned lobbies.

Deadlines are absolute times stored with each seat, so they survive restarts: start-up arms
one job per match, and a deadline that passed while the bot was down fires at once. A job
that fires late (a busy event loop, a loaded machine) still runs — there is no misfire
limit — and a sweep every 30 seconds plays whatever the database says is overdue, so no
deadline can be lost.

Several workers on one PostgreSQL: every worker sweeps every second (a worker that dies
leaves its matches' deadlines to the others' next sweep), skipping a match another worker
holds; a deadline is played under the match's lock across workers and against the state
read afresh (a deadline already played is no longer due), so it fires once whichever worker
finds it. The lobbies' expiry runs on the leader only.

Matches without a time limit: when the player to act has not moved for a while
(``START_CLOCK_AFTER_MINUTES``), the group is told and the board offers the other players a
"Start the clock" button; it gives the absent player a short deadline
(``START_CLOCK_SECONDS``), after which timeouts and autopilot apply as usual.
"""

from __future__ import annotations

import contextlib
import html
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import CallbackContext, JobQueue

from bot.settings import Settings
from bot.storage import Match, Seat, Storage
from bot.table.ai_moves import normal_move
from bot.table.deadlines import clock_offer_due, next_event
from bot.table.flow import commit_move, end_match_time
from bot.table.languages import Languages
from bot.table.locks import MatchLocks
from bot.table.publishing.publisher import Publisher

log = logging.getLogger(__name__)

MAX_AUTOMATIC_MOVES = 10_000  # a safety stop: autopilot seats never loop forever
LOBBY_SWEEP_SECONDS = 300
DEADLINE_SWEEP_SECONDS = 30
SHARED_SWEEP_SECONDS = 1  # several workers: the others' deadlines are found this soon
SWEEP_JOB = "deadline-sweep"
SAME_TIME_S = 0.05  # a match's job that would move by less than this stays where it is
# a job that fires late still runs (APScheduler would drop it after 1 s), and runs once
LATE_JOBS_RUN = {"misfire_grace_time": None, "coalesce": True}


class AITurns(Protocol):
    """Who plays the AI seats (``bot.table.ai_seats``): told whenever a match changed."""

    def wake(self, match: Match) -> None: ...


@dataclass(eq=False)  # compared and hashed by identity, like any service
class Timers:
    settings: Settings
    storage: Storage
    languages: Languages
    lock: MatchLocks
    publisher: Publisher  # draws what the timers changed
    job_queue: JobQueue | None = None  # None where no scheduler runs
    clock: Callable[[], float] = time.time  # injectable: tests move time by hand
    ai_turns: AITurns | None = None  # set by ``bot.app``: built after the timers, which it uses
    # when each match's job is set to fire (``time.time()``), as last armed
    _armed: dict[int, float] = field(default_factory=dict, init=False, repr=False)

    # -- scheduling ------------------------------------------------------------------------
    @property
    def offer_after(self) -> float:
        """Seconds without a move before the others may start an absent player's clock
        (0: never)."""
        return self.settings.start_clock_after_minutes * 60

    def arm(self, match: Match) -> None:
        """(Re)schedule the match's one timer job, and let its AI seats play if they are to
        act."""
        if self.ai_turns is not None:
            self.ai_turns.wake(match)
        jobs = self.job_queue
        if jobs is None:
            return
        # One job per match, its id its name. Most moves leave the next event where it was:
        # then the job is left alone; else it is moved by its id. (Before, every move went
        # through all matches' jobs to remove its job and made a new one: the scheduler's
        # bookkeeping was a tenth of the bot's CPU under load.)
        when = next_event(match, self.offer_after, now=self.clock())
        armed = self._armed.get(match.id)
        name = f"timer-{match.id}"
        if when is None:
            if armed is not None:
                del self._armed[match.id]
                with contextlib.suppress(JobLookupError):
                    jobs.scheduler.remove_job(name)
            return
        delay = max(0.0, when - self.clock())
        fire_at = time.time() + delay  # the scheduler's time (``clock`` may be a test's)
        if armed is not None and abs(fire_at - armed) < SAME_TIME_S:
            return
        self._armed[match.id] = fire_at
        if armed is not None:
            with contextlib.suppress(JobLookupError):  # gone: it fired; made anew below
                run_at = datetime.fromtimestamp(fire_at, UTC)
                jobs.scheduler.modify_job(name, next_run_time=run_at)
                return
        # APScheduler counts running instances by job id, and a match's jobs share theirs: a
        # job due while the previous one's tick still runs must not be skipped as one too many
        jobs.run_once(
            self._on_job,
            when=delay,
            data=match.id,
            name=name,
            job_kwargs={**LATE_JOBS_RUN, "id": name, "replace_existing": True, "max_instances": 8},
        )

    async def _on_job(self, context: CallbackContext) -> None:
        self._armed.pop(context.job.data, None)  # it fired: the scheduler has dropped it
        await self.tick(context.job.data)

    async def arm_all(self) -> None:
        """Start-up: a job for every unfinished match (overdue ones fire at once)."""
        for match_id in await self.storage.match_ids("playing"):
            match = await self.storage.load(match_id)
            if match is not None:
                self.arm(match)

    async def sweep(self, now: float | None = None) -> list[int]:
        """Play whatever is overdue according to the database, whatever became of the
        timer jobs; returns the matches it looked at."""
        due = await self.storage.due_matches(self.clock() if now is None else now, self.offer_after)
        shared = self.storage.shared
        swept = []
        for match_id in due:
            if shared is not None and await shared.match_busy(match_id):
                continue  # another worker is at it (SKIP LOCKED): the next sweep looks again
            # the time read under the match's lock (unless given): a move played now is timed
            # now, and the next deadline counted from it, however long the sweep took so far
            await self.tick(match_id, now=now)
            swept.append(match_id)
        return swept

    async def _on_sweep(self, context: CallbackContext) -> None:
        await self.sweep()

    def start_sweeper(self) -> None:
        """The safety net behind the timer jobs, every ``DEADLINE_SWEEP_SECONDS``."""
        if self.job_queue is not None:
            several = self.settings.one_of_several()
            every = SHARED_SWEEP_SECONDS if several else DEADLINE_SWEEP_SECONDS
            self.job_queue.run_repeating(
                self._on_sweep,
                interval=every,
                first=every,
                name=SWEEP_JOB,
                job_kwargs=LATE_JOBS_RUN,
            )

    # -- what happens when time passes -----------------------------------------------------
    async def tick(self, match_id: int, now: float | None = None) -> None:
        """Do whatever is due in a match: reminders, default moves, offers to start a
        clock."""
        async with self.lock(match_id):
            match = await self.storage.load(match_id)
            if match is None or match.status != "playing":
                return
            await self.run_due(match, self.clock() if now is None else now)
            self.arm(match)
        self.publisher.request(match)

    async def settle(self, match: Match) -> None:
        """After a commit, under the match lock: seats on autopilot move at once."""
        await self.run_due(match, self.clock(), autopilot_only=True)
        self.arm(match)

    async def run_due(self, match: Match, now: float, autopilot_only: bool = False) -> None:
        limit = self.settings.autopilot_after
        if match.ends_at is not None and match.ends_at <= now and not autopilot_only:
            await end_match_time(self.storage, match, now)
        for _ in range(MAX_AUTOMATIC_MOVES):
            if match.status != "playing":
                return
            due = [
                seat
                for seat in match.seats
                if seat.deadline is not None
                and seat.deadline <= now
                and (seat.autopilot or not autopilot_only)
            ]
            if not due:
                break
            seat = due[0]
            notices: list[tuple[str, dict]] = []
            if not seat.autopilot:
                seat.timeouts += 1
                who = {"user_id": seat.user_id, "name": seat.name}
                notices.append(("timer.timeout", who))
                if seat.timeouts >= limit:
                    seat.autopilot = True
                    notices.append(("timer.autopilot", {**who, "count": seat.timeouts}))
            action = normal_move(match, seat)  # the normal AI; the default move if it fails
            await commit_move(
                self.storage, match, seat.seat, action, now, automatic=True, notices=notices
            )
        if autopilot_only:
            return
        reminders = [
            seat
            for seat in match.seats
            if seat.deadline is not None
            and now < seat.deadline <= now + match.turn_seconds / 2
            and not seat.reminded
            and not seat.autopilot
        ]
        if reminders:
            for seat in reminders:
                seat.reminded = True
            await self.storage.save(match)
            for seat in reminders:
                # the prompt comes again as a new message (which notifies) with the time
                # left; the board shows it too when the match is drawn after this tick
                self.publisher.resend_prompt(match, seat.user_id)
        offers = [
            seat
            for seat in match.seats
            if (due := clock_offer_due(match, seat, self.offer_after)) is not None and due <= now
        ]
        if offers:
            for seat in offers:
                seat.clock_offered = True
            await self.storage.save(
                match,
                notices=[
                    (
                        "clock.offer",
                        {
                            "user_id": seat.user_id,
                            "name": seat.name,
                            "waited": self.offer_after,
                            "seconds": self.settings.start_clock_seconds,
                        },
                    )
                    for seat in offers
                ],
            )

    async def start_clock(self, match: Match, absent: Seat, by: Seat) -> None:
        """Another player started the absent player's clock: a short deadline from now, and
        a notice for the group."""
        seconds = self.settings.start_clock_seconds
        absent.deadline = self.clock() + seconds
        await self.storage.save(
            match,
            notices=[
                (
                    "clock.started",
                    {
                        "user_id": absent.user_id,
                        "name": absent.name,
                        "by": html.escape(by.name),
                        "seconds": seconds,
                    },
                )
            ],
        )
        self.arm(match)

    async def tell_clock_started(self, match: Match, absent: Seat) -> None:
        """The absent player hears privately that their clock runs: their prompt comes
        again as a new message, which notifies, with the time they have (unless they blocked
        the bot; the group has been told either way)."""
        self.publisher.resend_prompt(match, absent.user_id)

    async def come_back(self, match: Match, seat: Seat) -> None:
        """The player pressed "I'm back": their own clock again, from now."""
        seat.autopilot = False
        seat.timeouts = 0
        if seat.waiting_since is not None:
            seat.waiting_since = self.clock()
        if seat.deadline is not None:
            seat.deadline = self.clock() + match.turn_seconds if match.turn_seconds else None
        await self.storage.save(
            match, notices=[("timer.back", {"user_id": seat.user_id, "name": seat.name})]
        )
        self.arm(match)

    # -- lobbies ---------------------------------------------------------------------------
    async def expire_lobbies(self, now: float | None = None) -> list[int]:
        """Close lobbies nobody touched for the configured time; returns their ids."""
        now = self.clock() if now is None else now
        cutoff = now - self.settings.lobby_ttl_minutes * 60
        expired = []
        for match_id in await self.storage.stale_lobbies(cutoff):
            async with self.lock(match_id):
                match = await self.storage.load(match_id)
                if match is None or match.status != "lobby" or match.updated_at >= cutoff:
                    continue
                match.status = "cancelled"
                await self.storage.save(match)
                t = await self.languages.chat_t(match.chat_id)
                await self.publisher.close_lobby(match, t("lobby.expired_text"))
                expired.append(match_id)
        return expired

    async def _sweep_lobbies(self, context: CallbackContext) -> None:
        if self.storage.leads():  # a singleton: one worker's job
            await self.expire_lobbies()

    def start_lobby_sweeper(self) -> None:
        if self.job_queue is not None:
            self.job_queue.run_repeating(
                self._sweep_lobbies,
                interval=LOBBY_SWEEP_SECONDS,
                first=LOBBY_SWEEP_SECONDS,
                job_kwargs=LATE_JOBS_RUN,
            )
