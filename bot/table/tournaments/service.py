"""A tournament's life in its group: the lobby, each round paired and its tables opened as
ordinary matches, each match's end heard, the next round paired as soon as the last table of
the current one ends, and the podium.

Everything is in the database first (:mod:`bot.storage.tournaments`): a round is written
once with its tables, each table's match id once, each result once. So a restart anywhere —
in the middle of a round, during pairing, between opening two tables — loses nothing and
pairs nobody twice: :meth:`Tournaments.restore` hears the ends it missed and opens the tables
still without a match. One lock per tournament keeps its own changes in order (with several
workers, an advisory lock across them: two tables of a round ending at once on two workers
are heard one after the other, and the next round opens once).

The group sees one message per tournament, kept up to date (at most one edit under way, the
latest state drawn next), one pairings message per round (it notifies the players) and the
podium. Each match is played from the players' private prompts and the table app; it posts
nothing in the group. A player whose match ends with them absent (two timeouts in a row, or
on autopilot) is withdrawn after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from telegram.error import TelegramError

from bot.presentation import tournaments as words
from bot.presentation.i18n import Translator, format_duration
from bot.settings import TURN_PRESETS, Settings
from bot.storage import Match, Seat, Storage, StorageUnavailable
from bot.storage.records import MatchRecord, build_record
from bot.storage.tournaments import StoredTournament
from bot.table import flow
from bot.table.ai_moves import NORMAL
from bot.table.languages import Languages
from bot.table.locks import TOURNAMENT_LOCKS, MatchLocks
from bot.table.publishing.lobby_view import option_choices
from bot.table.publishing.messages import Ending
from bot.table.publishing.publisher import Publisher
from bot.table.timers import LATE_JOBS_RUN, Timers
from bot.table.tournaments import screens
from bot.table.worker_pool import Overrun, WorkerPool
from bot.telegram_api.messenger import MessageGone, Messenger, Unreachable
from bot.tournaments import entries
from bot.tournaments.formats import choices as format_choices
from bot.tournaments.formats import format_of, standings
from bot.tournaments.model import TIE_BREAK_ORDERS, Rules
from bot.tournaments.pairing import NoNextRound, is_over, next_round
from bot.tournaments.seating import allowed_sizes
from games import get_engine
from games.ai import game_ai

log = logging.getLogger(__name__)

ROUND_CHOICES = (3, 4, 5, 6, 7, 2)
STARTS_IN = (0, 900, 3600, 86400)  # the lobby's start: by hand, or this long after choosing
NO_SHOW_TIMEOUTS = 2  # timeouts in a row that withdraw a player after their match
SWEEP_SECONDS = 30  # the net behind each lobby's own start job: how often due ones are sought
MEMBERSHIP_SECONDS = 60  # a member's right to join, asked of Telegram this seldom
# a table's end not heard for the database (or the tournament's lock, held by another
# worker while it pairs a round) is tried again this often, this many times
HEAR_ATTEMPTS = 30
HEAR_RETRY_SECONDS = 2.0
PAIRING_SECONDS = 300.0  # a round's pairing's bound (1,000 players take well under 1 s)
GAME_OPTION = "o."  # a lobby button's payload for one of the game's own options: o.<name>


def table_sizes(game: str) -> list[int]:
    engine = get_engine(game)
    return [size for size in range(2, 6) if engine.min_players <= size <= engine.max_players]


def default_rules(game: str) -> Rules:
    sizes = table_sizes(game)
    engine = get_engine(game)
    return Rules(
        format_choices(sizes[0])[0],  # the lobby's first choice
        sizes[0],
        rounds=ROUND_CHOICES[0],
        smallest=engine.min_players,
        largest=engine.max_players,
    )


def next_value(values, current):
    position = values.index(current) if current in values else -1
    return values[(position + 1) % len(values)]


class Tournaments:
    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        messenger: Messenger,
        languages: Languages,
        lock: MatchLocks,
        publisher: Publisher,
        timers: Timers,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.messenger = messenger
        self.languages = languages
        self.lock = lock
        self.publisher = publisher
        self.timers = timers
        # one tournament's changes in order: across workers too (its advisory lock, in a key
        # space of its own beside the matches')
        self._locks = MatchLocks(storage)
        self._tasks: set[asyncio.Task] = set()
        self._drawing: dict[int, asyncio.Task] = {}
        self._dirty: set[int] = set()
        self._members: dict[tuple[int, int], tuple[bool, float]] = {}
        # the next round is paired in a worker process: FIDE's Dutch system matches in C
        # holding the GIL, which a thread would not keep off the event loop (no worker
        # processes, ``AI_WORKERS=0``: a thread all the same)
        self.pairing = WorkerPool(min(settings.ai_workers, 1), "tournament pairing")
        self._warming: asyncio.Task | None = None  # its worker started after start-up

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    def _lock(self, tournament_id: int) -> AbstractAsyncContextManager[object]:
        return self._locks(TOURNAMENT_LOCKS + tournament_id)

    async def t_of(self, stored: StoredTournament) -> Translator:
        return await self.languages.chat_t(stored.chat_id)

    # -- the lobby ----------------------------------------------------------------------------
    async def open(
        self, chat_id: int, thread_id: int, game: str, creator_id: int, creator_name: str
    ) -> int | None:
        """A new tournament lobby (the creator in it where the bot can write to them); None if
        the topic has one."""
        tournament_id = await self.storage.create_tournament(
            chat_id,
            thread_id,
            creator_id,
            game,
            get_engine(game).options(None).model_dump(),
            default_rules(game),
            turn_seconds=self.settings.default_turn_seconds,
        )
        if tournament_id is None:
            return None
        record = await self.storage.user(creator_id)
        if record is not None and record.can_message:  # else they join by the link, which
            # opens the private chat their games are played in
            stored = await self.storage.tournament(tournament_id)
            entered = entries.enter(stored.state, creator_id)
            await self.storage.enter_tournament(
                tournament_id, entered.entrant(creator_id), creator_name
            )
        self.redraw(tournament_id)
        return tournament_id

    async def enter(self, tournament_id: int, user_id: int, name: str) -> str:
        """A player taps Join: the message key of the answer. Only members of the group
        may join (asked of Telegram, then known for ``MEMBERSHIP_SECONDS``)."""
        stored = await self.storage.tournament(tournament_id)
        if stored is None or stored.status not in ("lobby", "running"):
            return "tournament.closed"
        if user_id not in stored.names and not await self.is_member(stored.chat_id, user_id):
            return "tournament.members_only"
        async with self._lock(tournament_id):
            stored = await self.storage.tournament(tournament_id)
            if stored is None or stored.status not in ("lobby", "running"):
                return "tournament.closed"
            try:
                entered = entries.enter(stored.state, user_id)
            except entries.EntryClosed:
                in_already = user_id in stored.names
                return "tournament.already_in" if in_already else "tournament.late_closed"
            await self.storage.enter_tournament(tournament_id, entered.entrant(user_id), name)
        self.redraw(tournament_id)
        return "tournament.joined" if stored.status == "lobby" else "tournament.joined_late"

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is in the group, as Telegram said within ``MEMBERSHIP_SECONDS``
        (a Telegram that cannot answer: let them in, the group's own rules apply)."""
        known = self._members.get((chat_id, user_id))
        now = time.monotonic()
        if known is not None and now - known[1] < MEMBERSHIP_SECONDS:
            return known[0]
        try:
            member = await self.messenger.is_member(chat_id, user_id)
        except TelegramError:
            log.warning("could not ask whether %s is in group %s", user_id, chat_id)
            return True
        self._members[(chat_id, user_id)] = (member, now)
        return member

    def forget_member(self, chat_id: int, user_id: int) -> None:
        self._members.pop((chat_id, user_id), None)

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        async with self._lock(tournament_id):
            left = await self.storage.leave_tournament(tournament_id, user_id)
        if left:
            self.redraw(tournament_id)
        return left

    async def change(self, stored: StoredTournament, option: str) -> bool:
        """The creator cycles one of the lobby's choices; False for an unknown one."""
        rules, turn, bots, starts_at = (
            stored.state.rules,
            stored.turn_seconds,
            stored.with_bots,
            stored.starts_at,
        )
        options = None
        sizes = table_sizes(stored.game)
        if option == "format":
            chosen = next_value(format_choices(rules.table_size), rules.format)
            rules = dataclasses.replace(
                rules, format=chosen, advance=rules.table_size // 2, tie_breaks=()
            )
        elif option == "size":
            size = next_value(sizes, rules.table_size)
            offered = format_choices(size)
            chosen = rules.format if rules.format in offered else offered[0]
            rules = dataclasses.replace(rules, table_size=size, format=chosen, advance=size // 2)
        elif option == "ties":
            order = format_of(rules).tie_breaks(rules)
            rules = dataclasses.replace(rules, tie_breaks=next_value(TIE_BREAK_ORDERS, order))
        elif option == "rounds":
            rules = dataclasses.replace(rules, rounds=next_value(ROUND_CHOICES, rules.rounds))
        elif option == "clock":
            turn = next_value(TURN_PRESETS, turn)
        elif option == "bots":
            bots = not bots
            rules = dataclasses.replace(rules, bots=bots)
        elif option.startswith(GAME_OPTION):
            name = option.removeprefix(GAME_OPTION)
            choices = option_choices(stored.game)
            if name not in choices:
                return False
            options = {**stored.options, name: next_value(choices[name], stored.options.get(name))}
        elif option == "when":
            current = self.starts_in(stored)
            choice = next_value(STARTS_IN, min(STARTS_IN, key=lambda s: abs(s - (current or 0))))
            starts_at = self.clock() + choice if choice else None
        else:
            return False
        async with self._lock(stored.id):
            await self.storage.set_tournament_setup(
                stored.id, rules, turn, bots, starts_at, options
            )
        if option == "when":
            self._start_at(stored.id, starts_at)
        self.redraw(stored.id)
        return True

    def _start_at(self, tournament_id: int, starts_at: float | None) -> None:
        """A job that starts the lobby at its time (the sweep is the net behind it): run
        however late the event loop lets it fire, never dropped."""
        job_queue = self.timers.job_queue
        if job_queue is None:
            return
        name = f"tournament-start-{tournament_id}"
        for job in job_queue.get_jobs_by_name(name):
            job.schedule_removal()
        if starts_at is None:
            return
        job_queue.run_once(
            self._on_due,
            when=max(0.0, starts_at - self.clock()),
            name=name,
            job_kwargs=LATE_JOBS_RUN,
        )

    def starts_in(self, stored: StoredTournament) -> float | None:
        if stored.starts_at is None:
            return None
        return max(0.0, stored.starts_at - self.clock())

    async def start(self, tournament_id: int) -> str | None:
        """Starts the tournament: None, or the message key saying why it cannot start."""
        async with self._lock(tournament_id):
            stored = await self.storage.tournament(tournament_id)
            if stored is None or stored.status != "lobby":
                return "tournament.closed"
            humans = [e.player for e in stored.state.entrants]
            rules = stored.state.rules
            if len(humans) < 2:
                return "tournament.need_players"
            played = format_of(rules)
            short = len(humans) < min(allowed_sizes(rules))
            if short and not played.pairs_any_field and not rules.bots:
                return "tournament.need_table"
            if played.seeds_by_rating:  # by the group's rating in the game
                ratings = await self.storage.ratings_of(stored.game, stored.chat_id, humans)
                seeded = entries.seeded_by_rating(stored.state, ratings)
                await self.storage.set_tournament_seeds(
                    tournament_id, {e.player: e.seed for e in seeded.entrants}
                )
            if not await self.storage.set_tournament_status(tournament_id, "running", ("lobby",)):
                return "tournament.closed"
            if rules.bots:
                self.storage.unrated_tournaments.add(tournament_id)
            await self._advance(await self.storage.tournament(tournament_id))
        self.redraw(tournament_id)
        return None

    async def start_due(self, now: float | None = None) -> None:
        """Lobbies whose start time has come start (or, short of players, are cancelled)."""
        for tournament_id in await self.storage.due_tournaments(now or self.clock()):
            refused = await self.start(tournament_id)
            if refused is not None and refused != "tournament.closed":
                stored = await self.storage.tournament(tournament_id)
                t = await self.t_of(stored)
                await self.cancel(tournament_id)
                await self._say(stored, t("tournament.not_started", why=t(refused)))

    async def cancel(self, tournament_id: int) -> bool:
        """Cancelled by its creator or an admin: its running matches stop."""
        async with self._lock(tournament_id):
            if not await self.storage.set_tournament_status(
                tournament_id, "cancelled", ("lobby", "running")
            ):
                return False
            stored = await self.storage.tournament(tournament_id)
        for match_id in stored.matches.values():
            async with self.lock(match_id):
                match = await self.storage.load(match_id)
                if match is None or match.status not in ("lobby", "playing"):
                    continue
                match.status = "cancelled"
                await self.storage.save(match)
                self.timers.arm(match)
            self.publisher.end_prompts(match, Ending("tournament.match_stopped"))
        self.redraw(tournament_id)
        return True

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Never paired again; a match of theirs still running goes on with autopilot."""
        async with self._lock(tournament_id):
            stored = await self.storage.tournament(tournament_id)
            if stored is None or user_id not in stored.names:
                return False
            state = entries.withdraw(stored.state, user_id)
            if not await self.storage.withdraw_from_tournament(
                tournament_id, state.entrant(user_id)
            ):
                return False
        await self._autopilot(stored, user_id)
        self.redraw(tournament_id)
        return True

    async def withdraw_everywhere(self, user_id: int, chat_id: int | None = None) -> None:
        """A player who left the group (or blocked the bot) leaves its tournaments cleanly."""
        for tournament_id in await self.storage.tournaments_of(user_id):
            stored = await self.storage.tournament(tournament_id)
            if stored is None or (chat_id is not None and stored.chat_id != chat_id):
                continue
            if stored.status == "lobby":
                await self.leave(tournament_id, user_id)
            else:
                await self.withdraw(tournament_id, user_id)

    async def _autopilot(self, stored: StoredTournament, user_id: int) -> None:
        for match_id in stored.matches.values():
            async with self.lock(match_id):
                match = await self.storage.load(match_id)
                seat = match.seat_of(user_id) if match is not None else None
                if seat is None or match.status != "playing" or seat.autopilot:
                    continue
                seat.autopilot = True
                seat.deadline = self.clock() if seat.deadline is not None else None
                await self.storage.save(match)
                await self.timers.settle(match)
            self.publisher.request(match)

    # -- rounds -------------------------------------------------------------------------------
    async def _advance(self, stored: StoredTournament | None) -> None:
        """Under the tournament's lock, from its state as just read: open the current
        round's missing tables (and tell its pairings, if a restart came between), or pair
        the next round once the current one is over — once, off the event loop — or finish
        the tournament."""
        for _ in range(64):  # rounds of byes alone end at once; a bound all the same
            if stored is None or stored.status != "running":
                return
            state = stored.state
            if state.rounds and not state.rounds[-1].finished:
                await self._open_tables(stored)
                await self._tell_pairings(stored)
                return
            if is_over(state):  # (never pairs: cheap)
                await self._finish(stored)
                return
            try:  # pairing a big field takes a while: not on the event loop
                round_ = await self.pairing.run(PAIRING_SECONDS, next_round, state)
            except NoNextRound:
                return
            except Overrun:
                log.error("tournament %s: pairing ran past %s s", stored.id, PAIRING_SECONDS)
                return
            if not await self.storage.add_tournament_round(stored.id, round_):
                return  # paired before (another start): what is stored stands
            stored = dataclasses.replace(stored, state=entries.add_round(state, round_))
            if not round_.tables:
                continue  # a round of byes alone: over as soon as it starts
            stored = await self._open_tables(stored)  # the games first: nothing waits on a message
            await self._tell_pairings(stored)
            return

    async def _tell_pairings(self, stored: StoredTournament) -> None:
        number = len(stored.state.rounds)
        if not number or number in stored.told:
            return
        sent = await self._say(stored, words.pairings_text(stored, await self.t_of(stored)))
        if sent is not None:
            await self.storage.set_round_message(stored.id, number, sent)

    async def _open_tables(self, stored: StoredTournament) -> StoredTournament:
        """The round's tables without a match opened; the tournament with their matches."""
        number = len(stored.state.rounds)
        matches = dict(stored.matches)
        for index, table in enumerate(stored.state.rounds[-1].tables):
            if (number, index) in matches or table.finished:
                continue
            opened = await self._open_table(stored, number, index, table.players)
            if opened is not None:
                matches[(number, index)] = opened
        return dataclasses.replace(stored, matches=matches)

    async def _open_table(
        self, stored: StoredTournament, number: int, index: int, players: tuple[int, ...]
    ) -> int | None:
        t = await self.t_of(stored)
        title = t("tournament.match_title", round=number, number=index + 1)
        match = await self.storage.create_tournament_match(
            stored.id,
            stored.chat_id,
            stored.thread_id,
            stored.game,
            stored.options,
            stored.creator_id,
            title,
            stored.turn_seconds,
        )
        if not await self.storage.set_table_match(stored.id, number, index, match.id):
            match.status = "cancelled"  # another start opened this table first
            await self.storage.save(match)
            return None
        engine = get_engine(stored.game)
        seated = list(players)
        filler = -100
        while len(seated) < engine.min_players:  # a final smaller than the game allows
            seated.append(filler)
            filler -= 1
        async with self.lock(match.id):
            for player in seated:
                seat = Seat(seat=len(match.seats), user_id=player, name="")
                seat.name = words.name_of(stored, t, player)
                if player < 0:
                    seat.ai = NORMAL
                match.seats.append(seat)
            await self.storage.save(match)
            await flow.start_match(self.storage, match, self.clock())
            await self.timers.settle(match)
        self.publisher.request(match)
        return match.id

    async def _finish(self, stored: StoredTournament) -> None:
        if not await self.storage.set_tournament_status(stored.id, "finished", ("running",)):
            return
        finished = dataclasses.replace(stored, status="finished")
        await self._say(finished, words.podium_text(finished, await self.t_of(finished)))

    # -- hearing the matches ------------------------------------------------------------------
    def match_ended(self, match: Match, record: MatchRecord) -> None:
        """The storage committed a match's end, with its record: a tournament's is heard in
        the background."""
        if match.tournament_id is None:
            return
        task = asyncio.get_running_loop().create_task(
            self.hear(match.tournament_id, record, [_seat_state(seat) for seat in match.humans])
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def hear(
        self, tournament_id: int, record: MatchRecord, absent: list[tuple[int, bool]]
    ) -> None:
        """One table's end, done once: one read under the tournament's lock; the core turns
        the record into the table's result and applies it; the storage writes that; the
        next round is paired (once, in a thread) if it was the round's last table."""
        for attempt in range(HEAR_ATTEMPTS):
            try:
                async with self._lock(tournament_id):
                    stored = await self.storage.tournament(tournament_id)
                    stored = await self._heard(stored, record, absent)
                    await self._advance(stored)
            except StorageUnavailable as error:  # or its lock held long on another worker
                if attempt + 1 == HEAR_ATTEMPTS:  # the next start hears it (``restore``)
                    log.error(
                        "tournament %s: match %s not heard: %r",
                        tournament_id,
                        record.match_id,
                        error,
                    )
                    break
                await asyncio.sleep(HEAR_RETRY_SECONDS)
            except Exception:
                log.exception(
                    "tournament %s: could not hear match %s", tournament_id, record.match_id
                )
                break
            else:
                break
        self.redraw(tournament_id)

    async def _heard(
        self,
        stored: StoredTournament | None,
        record: MatchRecord,
        absent: list[tuple[int, bool]],
    ) -> StoredTournament | None:
        """The tournament with this table's result in it (None if there is nothing to go on
        with: not running, or cancelled by the match's stop)."""
        if stored is None or stored.status != "running":
            return None
        match_id = record.match_id
        if record.outcome != "finished":  # stopped, or the bot was removed from the group
            log.info("tournament %s: match %s ended unfinished", stored.id, match_id)
            await self.storage.set_tournament_status(stored.id, "cancelled", ("running",))
            return None
        where = next(((r, i) for (r, i), m in stored.matches.items() if m == match_id), None)
        if where is None:
            return stored
        table = stored.state.rounds[where[0] - 1].tables[where[1]]
        if table.finished:
            return stored  # heard before
        places, points = entries.table_result(
            table.players,
            {p.user_id: p.rank for p in record.players},
            {p.user_id: p.score for p in record.players},
            game_ai(stored.game).lower_is_better,
        )
        if await self.storage.finish_tournament_table(match_id, places, points) is None:
            return stored  # heard before
        state = entries.finish_table(stored.state, where[0], where[1], places, points)
        t = await self.t_of(stored)
        for user_id, was_absent in absent:
            # (one who withdrew already, and whose game autopilot finished, is not told of)
            if not was_absent or user_id not in stored.names:
                continue
            withdrawn = entries.withdraw(state, user_id)
            if await self.storage.withdraw_from_tournament(stored.id, withdrawn.entrant(user_id)):
                state = withdrawn
                await self._say(
                    stored, t("tournament.no_show", name=words.mention(stored, t, user_id))
                )
        return dataclasses.replace(stored, state=state)

    async def restore(self) -> None:
        """At start-up: the ends missed while the bot was down are heard, the tables without
        a match opened, a round's pairings told if a restart came before, and the sweep for
        timed starts begins."""
        for tournament_id in await self.storage.running_tournaments():
            stored = await self.storage.tournament(tournament_id)
            if stored.state.rules.bots:
                self.storage.unrated_tournaments.add(tournament_id)
            if stored.status == "lobby":
                self._start_at(tournament_id, stored.starts_at)
            async with self._lock(tournament_id):
                for match_id in stored.matches.values():
                    match = await self.storage.load(match_id)
                    if match is not None and match.status in ("finished", "cancelled"):
                        record = build_record(match, match.status, time.time())
                        absent = [_seat_state(seat) for seat in match.humans]
                        stored = await self._heard(stored, record, absent)
                        if stored is None:
                            break
                await self._advance(stored)
            self.redraw(tournament_id)
        self._warming = asyncio.get_running_loop().create_task(self.pairing.warm())
        job_queue = self.timers.job_queue
        if job_queue is not None:
            job_queue.run_repeating(
                self._on_sweep, SWEEP_SECONDS, name="tournament-starts", job_kwargs=LATE_JOBS_RUN
            )

    async def _on_due(self, context) -> None:
        """A lobby's own start job: whichever worker set it starts it (a start is done once,
        under the tournament's lock, from the lobby's stored status)."""
        await self.start_due()

    async def _on_sweep(self, context) -> None:
        if self.storage.leads():  # a singleton: on several workers, the leader's
            await self.start_due()

    # -- the group's messages -----------------------------------------------------------------
    async def _say(self, stored: StoredTournament, text: str) -> int | None:
        """A message to the group (its id); one that cannot go out is logged, and the
        tournament goes on (its players' games are in their private chats)."""
        try:
            return await self.messenger.send(stored.chat_id, text, thread_id=stored.thread_id)
        except Unreachable:
            log.info("tournament %s: the bot left its group", stored.id)
        except TelegramError:
            log.exception("tournament %s: a message to its group failed", stored.id)
        return None

    def redraw(self, tournament_id: int) -> None:
        """Bring the tournament's message up to date, in the background (one drawing at a
        time; whatever changed meanwhile is drawn next)."""
        self._dirty.add(tournament_id)
        if tournament_id not in self._drawing:
            task = asyncio.get_running_loop().create_task(self._draw_while_dirty(tournament_id))
            self._drawing[tournament_id] = task

    async def repost(self, tournament_id: int) -> None:
        """The message again at the bottom of the group (/tournament); the old one goes."""
        stored = await self.storage.tournament(tournament_id)
        if stored is not None and stored.message_id is not None:
            with contextlib.suppress(Unreachable):
                await self.messenger.delete(stored.chat_id, stored.message_id)
            await self.storage.set_tournament_message(tournament_id, None)
        self.redraw(tournament_id)
        await self.idle()

    async def _draw_while_dirty(self, tournament_id: int) -> None:
        try:
            while tournament_id in self._dirty:
                self._dirty.discard(tournament_id)
                try:
                    await self._draw(tournament_id)
                except Unreachable:
                    log.info("tournament %s: the bot left its group", tournament_id)
                except Exception:
                    log.exception("could not draw tournament %s", tournament_id)
        finally:
            del self._drawing[tournament_id]

    async def _draw(self, tournament_id: int) -> None:
        stored = await self.storage.tournament(tournament_id)
        if stored is None:
            return
        t = await self.t_of(stored)
        if stored.status == "lobby":
            left = self.starts_in(stored)
            when = format_duration(t, left) if left is not None else None
            link = self.messenger.deep_link(f"t{stored.id}")
            text, markup = screens.lobby_screen(stored, t, link, when)
        elif stored.status == "cancelled" and not stored.state.rounds:
            text, markup = t("tournament.cancelled_lobby", title=words.title(t, stored)), None
        else:
            page = None  # its page in the app: opened in the group, or by the private chat
            param = self.publisher.tables.tournament_start_param(stored.id)
            if param is not None:
                page = self.messenger.main_app_link(param)
            elif self.publisher.tables.tournament_link(stored.id) is not None:
                page = self.messenger.deep_link(f"p{stored.id}")
            # the standings of a big field take tens of milliseconds: not on the event loop
            text, markup = await asyncio.to_thread(
                screens.running_screen,
                stored,
                t,
                self._watch_link(stored),
                self.messenger.deep_link(f"t{stored.id}"),
                page,
            )
        message_id = stored.message_id
        try:
            shown = await self.messenger.edit_or_send(
                stored.chat_id, message_id, text, markup, thread_id=stored.thread_id
            )
        except MessageGone:
            shown = await self.messenger.send(
                stored.chat_id, text, markup, thread_id=stored.thread_id, notify=False
            )
        if shown != message_id:
            await self.storage.set_tournament_message(tournament_id, shown)

    def _watch_link(self, stored: StoredTournament) -> Callable[[int], str | None]:
        """Each running table's link to the table app (through the private chat, which
        answers with the button that opens it), where the app is on."""
        probe = Match(0, stored.chat_id, stored.thread_id, stored.game, {}, "playing", 0)
        if self.publisher.tables.link(probe) is None:
            return lambda match_id: None
        return lambda match_id: self.messenger.deep_link(f"w{match_id}")

    async def close(self) -> None:
        """At shutdown: the pairing's worker stops (a round being paired is paired again at
        the next start: nothing of it was written)."""
        if self._warming is not None:
            await asyncio.gather(self._warming, return_exceptions=True)
        await self.pairing.close()

    async def idle(self) -> None:
        """Wait until every end heard is dealt with and every message drawn (tests)."""
        while self._tasks or self._drawing:
            await asyncio.gather(
                *list(self._tasks), *list(self._drawing.values()), return_exceptions=True
            )

    def leaders(self, stored: StoredTournament) -> list[int]:
        return [row.player for row in standings(stored.state)[:3]]


def _seat_state(seat: Seat) -> tuple[int, bool]:
    """A human seat's player and whether they were absent at the end (two timeouts in a row,
    or on autopilot): such a player is withdrawn after the match."""
    return seat.user_id, seat.autopilot or seat.timeouts >= NO_SHOW_TIMEOUTS
