"""Move time limits: a reminder at half time, a default move at the deadline, autopilot after
several timeouts in a row, and expiry of abandoned lobbies.

Deadlines are absolute times stored with each seat, so they survive restarts: start-up arms
one job per match, and a deadline that passed while the bot was down fires at once. A job
that fires late (a busy event loop, a loaded machine) still runs — there is no misfire
limit — and a sweep every 30 seconds plays whatever the database says is overdue, so no
deadline can be lost.

Matches without a time limit: when the player to act has not moved for a while
(``START_CLOCK_AFTER_MINUTES``), the group is told and the board offers the other players a
"Start the clock" button; it gives the absent player a short deadline
(``START_CLOCK_SECONDS``), after which timeouts and autopilot apply as usual.
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING

from telegram.ext import ContextTypes

from bot.flow import commit_move, end_match_time
from bot.i18n import Translator
from bot.messenger import Unreachable
from bot.storage import Match, Seat
from games import get_engine

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

# Move time limits offered in the lobby, in seconds; 0 = no limit.
TURN_PRESETS = (60, 180, 600, 3600, 86400, 0)
MAX_AUTOMATIC_MOVES = 10_000  # a safety stop: autopilot seats never loop forever
LOBBY_SWEEP_SECONDS = 300
DEADLINE_SWEEP_SECONDS = 30
SWEEP_JOB = "deadline-sweep"
# a job that fires late still runs (APScheduler would drop it after 1 s), and runs once
LATE_JOBS_RUN = {"misfire_grace_time": None, "coalesce": True}


def format_duration(t: Translator, seconds: float) -> str:
    seconds = max(1, round(seconds))
    if seconds % 3600 == 0:
        return t.plural("time.hours", seconds // 3600)
    if seconds >= 60:
        return t.plural("time.minutes", seconds // 60)
    return t.plural("time.seconds", seconds)


def turn_label(t: Translator, seconds: int) -> str:
    if not seconds:
        return t("lobby.turn.none")
    return t("lobby.turn", limit=format_duration(t, seconds))


class Timers:
    def __init__(self, host: Host) -> None:
        self.host = host

    # -- scheduling ------------------------------------------------------------------------
    @property
    def offer_after(self) -> float:
        """Seconds without a move before the others may start an absent player's clock
        (0: never)."""
        return self.host.settings.start_clock_after_minutes * 60

    def clock_offer_due(self, match: Match, seat: Seat) -> float | None:
        """When the others may be offered to start this seat's clock (None: not in play)."""
        if (
            match.turn_seconds
            or not self.offer_after
            or seat.deadline is not None
            or seat.clock_offered
            or seat.waiting_since is None
        ):
            return None
        return seat.waiting_since + self.offer_after

    def next_event(self, match: Match) -> float | None:
        """When this match next needs attention: a deadline, a half-time reminder, or an
        offer to start an absent player's clock. (``Storage.due_matches`` asks the same.)"""
        if match.status != "playing":
            return None
        times = [match.ends_at] if match.ends_at is not None else []
        for seat in match.seats:
            offer = self.clock_offer_due(match, seat)
            if offer is not None:
                times.append(offer)
            if seat.deadline is None:
                continue
            times.append(seat.deadline)
            if match.turn_seconds and not seat.reminded and not seat.autopilot:
                times.append(seat.deadline - match.turn_seconds / 2)
        return min(times, default=None)

    def arm(self, match: Match) -> None:
        """(Re)schedule the match's one timer job."""
        jobs = self.host.job_queue
        if jobs is None:
            return
        name = f"timer-{match.id}"
        for job in jobs.get_jobs_by_name(name):
            job.schedule_removal()
        when = self.next_event(match)
        if when is not None:
            delay = max(0.0, when - self.host.clock())
            jobs.run_once(
                self._on_job, when=delay, data=match.id, name=name, job_kwargs=LATE_JOBS_RUN
            )

    async def _on_job(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.tick(context.job.data)

    async def arm_all(self) -> None:
        """Start-up: a job for every unfinished match (overdue ones fire at once)."""
        for match_id in await self.host.storage.match_ids("playing"):
            match = await self.host.storage.load(match_id)
            if match is not None:
                self.arm(match)

    async def sweep(self, now: float | None = None) -> list[int]:
        """Play whatever is overdue according to the database, whatever became of the
        timer jobs; returns the matches it looked at."""
        now = self.host.clock() if now is None else now
        due = await self.host.storage.due_matches(now, self.offer_after)
        for match_id in due:
            await self.tick(match_id, now=now)
        return due

    async def _on_sweep(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.sweep()

    def start_sweeper(self) -> None:
        """The safety net behind the timer jobs, every ``DEADLINE_SWEEP_SECONDS``."""
        if self.host.job_queue is not None:
            self.host.job_queue.run_repeating(
                self._on_sweep,
                interval=DEADLINE_SWEEP_SECONDS,
                first=DEADLINE_SWEEP_SECONDS,
                name=SWEEP_JOB,
                job_kwargs=LATE_JOBS_RUN,
            )

    # -- what happens when time passes -----------------------------------------------------
    async def tick(self, match_id: int, now: float | None = None) -> None:
        """Do whatever is due in a match: reminders, default moves, offers to start a
        clock."""
        host = self.host
        async with host.lock(match_id):
            match = await host.storage.load(match_id)
            if match is None or match.status != "playing":
                return
            await self.run_due(match, host.clock() if now is None else now)
            self.arm(match)
        host.publisher.request(match)

    async def settle(self, match: Match) -> None:
        """After a commit, under the match lock: seats on autopilot move at once."""
        await self.run_due(match, self.host.clock(), autopilot_only=True)
        self.arm(match)

    async def run_due(self, match: Match, now: float, autopilot_only: bool = False) -> None:
        engine = get_engine(match.game)
        limit = self.host.settings.autopilot_after
        if match.ends_at is not None and match.ends_at <= now and not autopilot_only:
            await end_match_time(self.host.storage, match, now)
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
            action = engine.default_action(match.state, seat.seat)
            await commit_move(
                self.host.storage, match, seat.seat, action, now, automatic=True, notices=notices
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
            await self.host.storage.save(match)
            for seat in reminders:
                await self._remind(match, seat, seat.deadline - now)
        offers = [
            seat
            for seat in match.seats
            if (due := self.clock_offer_due(match, seat)) is not None and due <= now
        ]
        if offers:
            for seat in offers:
                seat.clock_offered = True
            await self.host.storage.save(
                match,
                notices=[
                    (
                        "clock.offer",
                        {
                            "user_id": seat.user_id,
                            "name": seat.name,
                            "waited": self.offer_after,
                            "seconds": self.host.settings.start_clock_seconds,
                        },
                    )
                    for seat in offers
                ],
            )

    async def _remind(self, match: Match, seat: Seat, left: float) -> None:
        t = await self.host.user_t_by_id(seat.user_id)
        text = t(
            "timer.reminder",
            title=html.escape(match.title or "—"),
            left=format_duration(t, left),
        )
        try:
            await self.host.messenger.send(seat.user_id, text)
        except Unreachable:
            log.info("match %s: cannot remind %s", match.id, seat.user_id)

    def may_start_clock(self, match: Match, seat: Seat) -> bool:
        """The offer stands: no time limit, no deadline yet, and the offer was made."""
        return (
            match.status == "playing"
            and not match.turn_seconds
            and seat.clock_offered
            and seat.deadline is None
            and seat.waiting_since is not None
        )

    async def start_clock(self, match: Match, absent: Seat, by: Seat) -> None:
        """Another player started the absent player's clock: a short deadline from now, and
        a notice for the group."""
        seconds = self.host.settings.start_clock_seconds
        absent.deadline = self.host.clock() + seconds
        await self.host.storage.save(
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
        """The absent player hears privately that their clock runs (unless they blocked the
        bot; the group has been told either way)."""
        seconds = self.host.settings.start_clock_seconds
        t = await self.host.user_t_by_id(absent.user_id)
        text = t(
            "clock.started_private",
            title=html.escape(match.title or "—"),
            left=format_duration(t, seconds),
        )
        try:
            await self.host.messenger.send(absent.user_id, text)
        except Unreachable:
            log.info("match %s: cannot tell %s their clock runs", match.id, absent.user_id)

    async def come_back(self, match: Match, seat: Seat) -> None:
        """The player pressed "I'm back": their own clock again, from now."""
        seat.autopilot = False
        seat.timeouts = 0
        if seat.waiting_since is not None:
            seat.waiting_since = self.host.clock()
        if seat.deadline is not None:
            seat.deadline = self.host.clock() + match.turn_seconds if match.turn_seconds else None
        await self.host.storage.save(
            match, notices=[("timer.back", {"user_id": seat.user_id, "name": seat.name})]
        )
        self.arm(match)

    # -- lobbies ---------------------------------------------------------------------------
    async def expire_lobbies(self, now: float | None = None) -> list[int]:
        """Close lobbies nobody touched for the configured time; returns their ids."""
        from bot.handlers.lobby import close_lobby_message

        host = self.host
        now = host.clock() if now is None else now
        cutoff = now - host.settings.lobby_ttl_minutes * 60
        expired = []
        for match_id in await host.storage.stale_lobbies(cutoff):
            async with host.lock(match_id):
                match = await host.storage.load(match_id)
                if match is None or match.status != "lobby" or match.updated_at >= cutoff:
                    continue
                match.status = "cancelled"
                await host.storage.save(match)
                t = await host.chat_t(match.chat_id)
                await close_lobby_message(host, match, t("lobby.expired_text"))
                expired.append(match_id)
        return expired

    async def _sweep_lobbies(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.expire_lobbies()

    def start_lobby_sweeper(self) -> None:
        if self.host.job_queue is not None:
            self.host.job_queue.run_repeating(
                self._sweep_lobbies,
                interval=LOBBY_SWEEP_SECONDS,
                first=LOBBY_SWEEP_SECONDS,
                job_kwargs=LATE_JOBS_RUN,
            )
