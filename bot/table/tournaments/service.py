"""A tournament's life in its group: the lobby, each round paired and its tables opened as
ordinary matches, each match's end heard, the next round paired as soon as the last table of
the current one ends, and the podium.

Everything is in the database first (:mod:`bot.storage.tournaments`): a round is written
once with its tables, each table's match id once, each result once. So a restart anywhere —
in the middle of a round, during pairing, between opening two tables — loses nothing and
pairs nobody twice: :meth:`Tournaments.restore` hears the ends it missed and opens the tables
still without a match. One lock per tournament keeps its own changes in order.

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

from telegram.error import TelegramError

from bot.presentation.i18n import Translator, format_duration
from bot.settings import TURN_PRESETS, Settings
from bot.storage import Match, Seat, Storage
from bot.storage.records import build_record
from bot.storage.tournaments import StoredTournament
from bot.table import flow
from bot.table.ai_moves import NORMAL
from bot.table.languages import Languages
from bot.table.locks import MatchLocks
from bot.table.publishing.lobby_view import option_choices
from bot.table.publishing.messages import Ending
from bot.table.publishing.publisher import Publisher
from bot.table.timers import Timers
from bot.table.tournaments import screens
from bot.telegram_api.messenger import MessageGone, Messenger, Unreachable
from bot.tournaments.model import Format, Rules
from bot.tournaments.pairing import NoNextRound, is_over, next_round
from bot.tournaments.standings import standings
from games import get_engine
from games.ai import game_ai

log = logging.getLogger(__name__)

ROUND_CHOICES = (3, 4, 5, 6, 7, 2)
STARTS_IN = (0, 900, 3600, 86400)  # the lobby's start: by hand, or this long after choosing
NO_SHOW_TIMEOUTS = 2  # timeouts in a row that withdraw a player after their match
SWEEP_SECONDS = 30  # how often lobbies whose start time came are looked for
GAME_OPTION = "o."  # a lobby button's payload for one of the game's own options: o.<name>


def table_sizes(game: str) -> list[int]:
    engine = get_engine(game)
    return [size for size in range(2, 6) if engine.min_players <= size <= engine.max_players]


def default_rules(game: str) -> Rules:
    sizes = table_sizes(game)
    return Rules(Format.SWISS, sizes[0], rounds=ROUND_CHOICES[0])


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
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()
        self._drawing: dict[int, asyncio.Task] = {}
        self._dirty: set[int] = set()
        storage.on_match_end = self.match_ended

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

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
            await self.storage.enter_tournament(tournament_id, creator_id, creator_name)
        self.redraw(tournament_id)
        return tournament_id

    async def enter(self, tournament_id: int, user_id: int, name: str) -> str:
        """A player taps Join: the message key of the answer."""
        async with self._lock(tournament_id):
            stored = await self.storage.tournament(tournament_id)
            if stored is None or stored.status not in ("lobby", "running"):
                return "tournament.closed"
            if user_id in stored.names:
                return "tournament.already_in"
            if stored.status == "running" and not stored.state.late_join_open():
                return "tournament.late_closed"
            await self.storage.enter_tournament(tournament_id, user_id, name)
        self.redraw(tournament_id)
        return "tournament.joined" if stored.status == "lobby" else "tournament.joined_late"

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
            formats = [Format.SWISS]
            formats.append(Format.ROUND_ROBIN if rules.table_size == 2 else Format.ELIMINATION)
            chosen = next_value(formats, rules.format)
            rules = dataclasses.replace(rules, format=chosen, advance=rules.table_size // 2)
        elif option == "size":
            size = next_value(sizes, rules.table_size)
            chosen = rules.format
            if (chosen is Format.ROUND_ROBIN and size != 2) or (
                chosen is Format.ELIMINATION and size < 3
            ):
                chosen = Format.SWISS
            rules = dataclasses.replace(rules, table_size=size, format=chosen, advance=size // 2)
        elif option == "rounds":
            rules = dataclasses.replace(rules, rounds=next_value(ROUND_CHOICES, rules.rounds))
        elif option == "clock":
            turn = next_value(TURN_PRESETS, turn)
        elif option == "bots":
            bots = not bots
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
        self.redraw(stored.id)
        return True

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
            field = len(humans)
            tables = rules.format is not Format.ROUND_ROBIN  # (a round robin pairs any field)
            if tables and not stored.with_bots and field < rules.table_size:
                return "tournament.need_table"
            if tables and stored.with_bots:
                missing = -field % rules.table_size
                for number in range(1, missing + 1):
                    await self.storage.enter_tournament(tournament_id, -number, "bot")
            if not await self.storage.set_tournament_status(tournament_id, "running", ("lobby",)):
                return "tournament.closed"
            if stored.with_bots:
                self.storage.unrated_tournaments.add(tournament_id)
            await self._advance(tournament_id)
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
            if not await self.storage.withdraw_from_tournament(tournament_id, user_id):
                return False
            stored = await self.storage.tournament(tournament_id)
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
    async def _advance(self, tournament_id: int) -> None:
        """Under the tournament's lock: open the current round's missing tables, or pair the
        next round once the current one is over, or finish the tournament."""
        for _ in range(64):  # rounds of byes alone end at once; a bound all the same
            stored = await self.storage.tournament(tournament_id)
            if stored is None or stored.status != "running":
                return
            state = stored.state
            if state.rounds and not state.rounds[-1].finished:
                await self._open_tables(stored)
                return
            if is_over(state):
                await self._finish(stored)
                return
            try:  # a big field takes a while to pair: not on the event loop
                round_ = await asyncio.to_thread(next_round, state)
            except NoNextRound:
                return
            if await self.storage.add_tournament_round(tournament_id, round_):
                paired = await self.storage.tournament(tournament_id)
                await self._open_tables(paired)  # the games first: nothing waits on a message
                await self._say(paired, screens.pairings_text(paired, await self.t_of(paired)))

    async def _open_tables(self, stored: StoredTournament) -> None:
        number = len(stored.state.rounds)
        for index, table in enumerate(stored.state.rounds[-1].tables):
            if (number, index) in stored.matches or table.finished:
                continue
            await self._open_table(stored, number, index, table.players)

    async def _open_table(
        self, stored: StoredTournament, number: int, index: int, players: tuple[int, ...]
    ) -> None:
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
            return
        engine = get_engine(stored.game)
        seated = list(players)
        filler = -100
        while len(seated) < engine.min_players:  # a final smaller than the game allows
            seated.append(filler)
            filler -= 1
        async with self.lock(match.id):
            for player in seated:
                seat = Seat(seat=len(match.seats), user_id=player, name="")
                seat.name = screens.name_of(stored, t, player)
                if player < 0:
                    seat.ai = NORMAL
                match.seats.append(seat)
            await self.storage.save(match)
            await flow.start_match(self.storage, match, self.clock())
            await self.timers.settle(match)
        self.publisher.request(match)

    async def _finish(self, stored: StoredTournament) -> None:
        if not await self.storage.set_tournament_status(stored.id, "finished", ("running",)):
            return
        finished = await self.storage.tournament(stored.id)
        await self._say(finished, screens.podium_text(finished, await self.t_of(finished)))

    # -- hearing the matches ------------------------------------------------------------------
    def match_ended(self, match: Match) -> None:
        """The storage committed a match's end: a tournament's is heard in the background."""
        if match.tournament_id is None:
            return
        task = asyncio.get_running_loop().create_task(self.hear(match.tournament_id, match.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def hear(self, tournament_id: int, match_id: int) -> None:
        try:
            async with self._lock(tournament_id):
                await self._hear(tournament_id, match_id)
                await self._advance(tournament_id)
        except Exception:
            log.exception("tournament %s: could not hear match %s", tournament_id, match_id)
        self.redraw(tournament_id)

    async def _hear(self, tournament_id: int, match_id: int) -> None:
        stored = await self.storage.tournament(tournament_id)
        match = await self.storage.load(match_id)
        if stored is None or match is None or stored.status != "running":
            return
        if match.status != "finished":  # stopped, or the bot was removed from the group
            log.info("tournament %s: match %s ended unfinished", tournament_id, match_id)
            await self.storage.set_tournament_status(tournament_id, "cancelled", ("running",))
            return
        record = build_record(match, "finished", time.time())
        ranks = {p.user_id: p.rank for p in record.players}
        scores = {p.user_id: p.score for p in record.players}
        where = next(((r, i) for (r, i), m in stored.matches.items() if m == match_id), None)
        if where is None:
            return
        table = stored.state.rounds[where[0] - 1].tables[where[1]]
        entrants_ranks = [ranks.get(player) or len(table.players) for player in table.players]
        places = tuple(1 + sum(other < rank for other in entrants_ranks) for rank in entrants_ranks)
        # game points count up: a penalty game's (Who's the Donkey?) go in as negatives
        sign = -1 if game_ai(stored.game).lower_is_better else 1
        points = tuple(sign * (scores.get(player) or 0) for player in table.players)
        if await self.storage.finish_tournament_table(match_id, places, points) is None:
            return  # heard before
        for seat in match.humans:
            absent = seat.autopilot or seat.timeouts >= NO_SHOW_TIMEOUTS
            # (one who withdrew already, and whose game autopilot finished, is not told of)
            if absent and await self.storage.withdraw_from_tournament(tournament_id, seat.user_id):
                t = await self.t_of(stored)
                await self._say(
                    stored, t("tournament.no_show", name=screens.mention(stored, t, seat.user_id))
                )

    async def restore(self) -> None:
        """At start-up: the ends missed while the bot was down are heard, the tables without
        a match opened, and the sweep for timed starts begins."""
        for tournament_id in await self.storage.running_tournaments():
            stored = await self.storage.tournament(tournament_id)
            if stored.with_bots:
                self.storage.unrated_tournaments.add(tournament_id)
            async with self._lock(tournament_id):
                for match_id in stored.matches.values():
                    match = await self.storage.load(match_id)
                    if match is not None and match.status in ("finished", "cancelled"):
                        await self._hear(tournament_id, match_id)
                await self._advance(tournament_id)
            self.redraw(tournament_id)
        job_queue = self.timers.job_queue
        if job_queue is not None:
            job_queue.run_repeating(self._on_sweep, SWEEP_SECONDS, name="tournament-starts")

    async def _on_sweep(self, context) -> None:
        if self.storage.leads():  # a singleton: on several workers, the leader's
            await self.start_due()

    # -- the group's messages -----------------------------------------------------------------
    async def _say(self, stored: StoredTournament, text: str) -> None:
        """A message to the group; one that cannot go out is logged, and the tournament goes
        on (its players' games are in their private chats)."""
        try:
            await self.messenger.send(stored.chat_id, text, thread_id=stored.thread_id)
        except Unreachable:
            log.info("tournament %s: the bot left its group", stored.id)
        except TelegramError:
            log.exception("tournament %s: a message to its group failed", stored.id)

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
            text, markup = t("tournament.cancelled_lobby", title=screens.title(t, stored)), None
        else:
            page = None  # its page in the app: opened in the group, or by the private chat
            param = self.publisher.tables.tournament_start_param(stored.id)
            if param is not None:
                page = self.messenger.main_app_link(param)
            elif self.publisher.tables.tournament_link(stored.id) is not None:
                page = self.messenger.deep_link(f"p{stored.id}")
            text, markup = screens.running_screen(
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

    async def idle(self) -> None:
        """Wait until every end heard is dealt with and every message drawn (tests)."""
        while self._tasks or self._drawing:
            await asyncio.gather(
                *list(self._tasks), *list(self._drawing.values()), return_exceptions=True
            )

    def leaders(self, stored: StoredTournament) -> list[int]:
        return [row.player for row in standings(stored.state)[:3]]
