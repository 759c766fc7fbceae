"""The storage contract: everything the host asks of its database, whichever keeps it.

:class:`Storage` is the one interface the host talks to. It owns what every backend shares —
the write-through caches, the encoding of matches into rows, the public log kept out of the
state row — and leaves each backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`)
only its SQL, its connection and its instance lock.

Handlers never write SQL. A move is saved with :meth:`Storage.save` in one transaction
guarded by the match's version (optimistic concurrency), so it is committed exactly once
before anything about it is sent to Telegram. What the publisher has shown (message ids, what
was announced) is written separately with :meth:`Storage.save_display` and
:meth:`Storage.save_seat_display`: drawing never races with playing.

Writes stay flat through a game: the state's ``log`` (public events, append-only, entries
never changed once appended) is not part of the state row. Each save appends only the new
entries to the ``events`` table and stores the log's length in its place; loading puts the
log back together. Seats are written only when their play fields changed, the state only
when it changed (states are never changed in place, so "changed" is "another object").

SQL is written once, with ``?`` placeholders and standard SQL both backends accept
(``TRUE``/``FALSE``, ``ON CONFLICT``, ``RETURNING``); a backend translates what it must.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, MutableSequence, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.lessons import LessonStore
from bot.storage.match_queries import MatchQueries
from bot.storage.model import (
    ACTIVE,
    DISPLAY_MATCH_FIELDS,
    DISPLAY_SEAT_FIELDS,
    Match,
    Notice,
    Seat,
    StaleMatch,
    User,
    copy_match,
)
from bot.storage.records import MatchRecord, build_record
from bot.storage.rows import (
    LOG,
    MATCH_DISPLAY,
    SEAT_DISPLAY,
    MatchWrite,
    Row,
    dumps,
    encode_state,
    match_from_rows,
    payload,
    play_values,
    revised,
    seat_changed,
)
from bot.storage.seasons import SeasonReads, season_of
from bot.storage.standings import Standings
from bot.storage.tournaments import TournamentStore
from bot.storage.workers import SharedWorkers

log = logging.getLogger("bot.storage")

CACHED_MATCHES = 512  # recently used unfinished matches kept in memory; others read on demand
CACHED_PEOPLE = 10_000  # users and chats whose language is kept in memory
LOCK_POLL_SECONDS = 0.5  # how often a waiting instance tries the instance lock again
# how often a serving instance makes sure it still holds the lock: a database restart drops
# PostgreSQL's lock, a deleted lock file frees SQLite's; within this the instance takes it
# again or stops serving
LOCK_CHECK_SECONDS = 1.0


class StorageUnavailable(Exception):
    """The database did not answer in time, its connection failed, or this instance is not
    sure it still holds the instance lock: nothing was written; try again shortly."""


class InstanceRunning(Exception):
    """Another bot instance holds the database (raised when told not to wait)."""


class Transaction(Protocol):
    """Statements run one after another in one transaction (rare paths: several steps that
    read what the previous ones wrote)."""

    async def rows(self, sql: str, args: Sequence = ()) -> list[Row]: ...

    async def run(self, sql: str, args: Sequence = ()) -> int:
        """Execute a write; returns the number of rows it changed."""


@dataclass
class StorageStats:
    """What the storage costs, for the bench: hand-offs to the database (a call to the
    SQLite thread, a round trip to the PostgreSQL server) and the bytes written (text as
    UTF-8, numbers as 8 bytes). ``move_sizes`` collects the bytes of each committed move
    when set (the bench sets it; the running bot counts only)."""

    round_trips: int = 0
    bytes_written: int = 0
    moves: int = 0
    move_sizes: MutableSequence[int] | None = None


class LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

    def hit(self, key):
        value = self.get(key, _MISSING)
        if value is not _MISSING:
            self.move_to_end(key)
        return value


_MISSING = object()


class Storage(MatchQueries, Standings, SeasonReads, TournamentStore, LessonStore, abc.ABC):
    """Matches, seats, the move log, notices, users' and chats' preferences — and the lock
    that keeps one bot instance at a time on the database."""

    backend: str  # "sqlite" or "postgres"

    def __init__(self) -> None:
        # Write-through caches: every write goes through this class, so they stay exact.
        self._matches: LRU = LRU(CACHED_MATCHES)
        self._users: LRU = LRU(CACHED_PEOPLE)
        self._chat_langs: LRU = LRU(CACHED_PEOPLE)
        self._chat_pictures: LRU = LRU(CACHED_PEOPLE)
        self._with_notices: set[int] = set()  # matches that have unsent notices
        self.stats = StorageStats()
        # called once if another instance took the lock: the app stops serving
        self.on_lock_lost: Callable[[], None] = lambda: None
        # called with True when calls start being refused (StorageUnavailable), with False
        # when the database takes them again: once each per outage
        self.on_outage: Callable[[bool], None] = lambda started: None
        # called with each started match whose end (finished or cancelled) was just committed,
        # and its record (built once, as written): a tournament hears its tables end here
        # (the match knows only its tournament's id); wired by bot.app
        self.on_match_end: Callable[[Match, MatchRecord], None] = lambda match, record: None
        # tournaments filled with bots, whose tables rate nobody (kept by their service)
        self.unrated_tournaments: set[int] = set()
        # several workers on this database (PostgreSQL): their inbox and locks; None where
        # one process serves it (SQLite)
        self.shared: SharedWorkers | None = None
        self.out_of_service = False
        self.holds_lock = False  # open, and no other instance took the lock since (health)
        self._lock_watch: asyncio.Task | None = None

    # -- what each backend provides ----------------------------------------------------------
    @abc.abstractmethod
    def describe(self) -> str:
        """Where the data is, for people (no password)."""

    @abc.abstractmethod
    async def _open(self, wait_for_lock: bool) -> None:
        """Take the instance lock (waiting while another instance holds it, saying so once
        in the log — or raising :class:`InstanceRunning`), connect, migrate."""

    @abc.abstractmethod
    async def _close(self) -> None:
        """Disconnect, then release the instance lock."""

    @abc.abstractmethod
    async def _keep_lock(self) -> bool:
        """Make sure this instance still holds the instance lock, taking it again if it was
        dropped (the server restarted, the lock file was deleted) and is free; False if
        another instance holds it now. Raises if the database cannot be asked."""

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    @abc.abstractmethod
    async def database_size(self) -> int:
        """The bytes the database takes (SQLite: the file and its WAL), for /status."""

    @abc.abstractmethod
    async def _rows(self, sql: str, args: Sequence = ()) -> list[Row]:
        """Run a query (in its own transaction)."""

    @abc.abstractmethod
    async def _run(self, sql: str, args: Sequence = ()) -> int:
        """Run a write (committed on return); returns the number of rows it changed."""

    @abc.abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Transaction]: ...

    @abc.abstractmethod
    async def _read_match(self, match_id: int) -> tuple[Row, list[Row], list[str]] | None:
        """The match's row, its seats in order and its events in order, read consistently."""

    @abc.abstractmethod
    async def _write_match(self, write: MatchWrite) -> bool:
        """Commit ``write`` atomically — with its record and the ratings it changes, if it
        ends the match; False (and nothing written) if the row is no longer at
        ``write.expected``."""

    @abc.abstractmethod
    async def _write_record(self, record: MatchRecord) -> bool:
        """Record (and rate) an ended match in one transaction; False if it already was."""

    # -- lifecycle -------------------------------------------------------------------------
    async def open(self, wait_for_lock: bool = True) -> None:
        await self._open(wait_for_lock)
        self.holds_lock = True
        self._lock_watch = asyncio.get_running_loop().create_task(self._watch_lock())
        rows = await self._rows("SELECT DISTINCT match_id FROM notices WHERE sent = FALSE")
        self._with_notices = {row[0] for row in rows}
        await self.record_earlier_matches()

    async def record_earlier_matches(self) -> int:
        """Record (and rate, in the order they ended) the matches that ended before records
        existed — from their stored final state and seats; the moves tell who played
        themselves. Returns how many were recorded (0 once done: a cheap query)."""
        ids = await self._ids(
            "SELECT id FROM matches WHERE status IN ('finished', 'cancelled') "
            "AND state IS NOT NULL AND NOT EXISTS "
            "(SELECT 1 FROM match_records r WHERE r.match_id = matches.id) "
            "ORDER BY updated_at, id"
        )
        recorded = 0
        for match_id in ids:
            match = await self.load(match_id)
            if match is None:
                continue
            outcome = "finished" if match.status == "finished" else "cancelled"
            try:
                record = build_record(match, outcome, match.updated_at)
            except Exception:  # a state this version cannot read: left unrecorded, said so
                log.warning("match %s could not be recorded from its stored state", match_id)
                continue
            recorded += await self._write_record(record)
        if recorded:
            log.info("recorded %s matches that ended before match records existed", recorded)
        return recorded

    async def close(self) -> None:
        self.holds_lock = False
        if self._lock_watch is not None:
            self._lock_watch.cancel()
            await asyncio.gather(self._lock_watch, return_exceptions=True)
            self._lock_watch = None
        await self._close()

    async def _watch_lock(self) -> None:
        """Never two serving instances: every ``LOCK_CHECK_SECONDS`` make sure the lock is
        still ours; if another instance holds it now, tell the app to stop serving."""
        unanswered = False
        while True:
            await asyncio.sleep(LOCK_CHECK_SECONDS)
            try:
                held = await self._keep_lock()
            except Exception as error:  # the database does not answer: try again
                if not unanswered:
                    log.warning("cannot check the instance lock on %s: %r", self.describe(), error)
                unanswered = True
                continue
            if unanswered:
                log.warning("%s answers again", self.describe())
                unanswered = False
            if not held:
                log.error(
                    "another bot instance holds the lock on %s now: this one stops serving",
                    self.describe(),
                )
                self.holds_lock = False
                self.on_lock_lost()
                return

    # -- outages: the backends report them, the app tells the groups ---------------------------
    def _refused(self) -> None:
        """A call is being refused with :class:`StorageUnavailable` (every backend calls
        this where it raises one): the first refusal of an outage starts it."""
        if not self.out_of_service:
            self.out_of_service = True
            self.on_outage(True)

    def _answered(self) -> None:
        """The database takes writes again (a write committed; PostgreSQL: the server
        answers again): the outage, if any, is over."""
        if self.out_of_service:
            self.out_of_service = False
            log.warning("%s takes writes again", self.describe())
            self.on_outage(False)

    def running_chats(self) -> list[tuple[int, int, str | None]]:
        """(chat id, topic id, the chat's language if known) of each running match held in
        memory — known without asking the database, so an outage can be told to them."""
        chats: dict[tuple[int, int], str | None] = {}
        for match in list(self._matches.values()):
            if match.status == "playing" and match.chat_id < 0 and not match.inline:
                lang = self._chat_langs.get(match.chat_id)
                chats[match.chat_id, match.thread_id] = None if lang is _MISSING else lang
        return [(chat, thread, lang) for (chat, thread), lang in chats.items()]

    SEVERAL_WORKERS = (
        "several workers side by side need SEVERAL_WORKERS=true with DATABASE_URL "
        "(PostgreSQL) and WEBHOOK_URL; an SQLite file, or long polling, is served by one "
        "process"
    )

    def waiting_for_lock(self, holder: str) -> None:
        log.warning(
            "another bot instance is running on %s; waiting for it to stop "
            "(it releases the database when it exits; %s)",
            holder,
            self.SEVERAL_WORKERS,
        )

    @staticmethod
    def took_lock(holder: str, waited: float) -> None:
        log.warning("the other instance stopped after %.1f s: taking over %s", waited, holder)

    async def _write(self, sql: str, args: Sequence = ()) -> int:
        self.stats.bytes_written += payload(args)
        return await self._run(sql, args)

    # -- chats and users -------------------------------------------------------------------
    async def chat_lang(self, chat_id: int) -> str | None:
        lang = self._chat_langs.hit(chat_id)
        if lang is _MISSING:
            rows = await self._rows("SELECT lang FROM chats WHERE chat_id = ?", (chat_id,))
            lang = rows[0]["lang"] if rows else None
            self._chat_langs.put(chat_id, lang)
        return lang

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await self._write(
            "INSERT INTO chats (chat_id, lang) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET lang = excluded.lang",
            (chat_id, lang),
        )
        self._chat_langs.put(chat_id, lang)

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the group shows the tile games' boards as pictures (the default) or as
        text (``/pictures``)."""
        pictures = self._chat_pictures.hit(chat_id)
        if pictures is _MISSING:
            rows = await self._rows("SELECT pictures FROM chats WHERE chat_id = ?", (chat_id,))
            pictures = bool(rows[0]["pictures"]) if rows else True
            self._chat_pictures.put(chat_id, pictures)
        return pictures

    async def set_chat_pictures(self, chat_id: int, pictures: bool) -> None:
        await self._write(
            "INSERT INTO chats (chat_id, pictures) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET pictures = excluded.pictures",
            (chat_id, int(pictures)),
        )
        self._chat_pictures.put(chat_id, pictures)

    async def user(self, user_id: int) -> User | None:
        user = self._users.hit(user_id)
        if user is _MISSING:
            rows = await self._rows("SELECT * FROM users WHERE user_id = ?", (user_id,))
            user = None
            if rows:
                row = rows[0]
                user = User(
                    row["user_id"],
                    row["name"],
                    row["lang"],
                    bool(row["can_message"]),
                    row["telegram_lang"],
                )
            self._users.put(user_id, user)
        return User(**user.__dict__) if user else None

    async def remember_user(
        self,
        user_id: int,
        name: str,
        can_message: bool | None = None,
        telegram_lang: str | None = None,
    ) -> None:
        """Record a user's display name, their Telegram language, and whether the bot may
        write to them privately (``None``: unchanged)."""
        await self._write(
            "INSERT INTO users (user_id, name, can_message, telegram_lang) "
            "VALUES (?, ?, COALESCE(?, FALSE), ?) "
            "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
            "can_message = COALESCE(?, users.can_message), "
            "telegram_lang = COALESCE(excluded.telegram_lang, users.telegram_lang)",
            (user_id, name, can_message, telegram_lang, can_message),
        )
        self._users.pop(user_id, None)

    async def set_can_message(self, user_id: int, can_message: bool) -> None:
        await self._write(
            "UPDATE users SET can_message = ? WHERE user_id = ?", (can_message, user_id)
        )
        self._users.pop(user_id, None)

    async def set_user_lang(self, user_id: int, name: str, lang: str) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, lang) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang",
            (user_id, name, lang),
        )
        self._users.pop(user_id, None)

    # -- matches ---------------------------------------------------------------------------
    async def create_lobby(
        self,
        chat_id: int,
        thread_id: int,
        game: str,
        options: dict[str, Any],
        creator_id: int,
        title: str = "",
        turn_seconds: int = 0,
        rematch_of: int | None = None,
        inline_message_id: str | None = None,
    ) -> Match | None:
        """A new lobby, or ``None`` if this chat (topic) — or for an inline table, its
        message — already has an active match."""
        now = time.time()
        args = (
            chat_id,
            thread_id,
            title,
            game,
            dumps(options),
            turn_seconds,
            creator_id,
            rematch_of,
            inline_message_id,
            now,
            now,
        )
        self.stats.bytes_written += payload(args)
        # the unique index on active matches per topic refuses a second one
        rows = await self._rows(
            "INSERT INTO matches (chat_id, thread_id, title, game, options, turn_seconds, "
            "status, creator_id, rematch_of, inline_message_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            args,
        )
        if not rows:
            return None
        match = Match(
            id=rows[0]["id"],
            chat_id=chat_id,
            thread_id=thread_id,
            game=game,
            options=options,
            status="lobby",
            creator_id=creator_id,
            title=title,
            turn_seconds=turn_seconds,
            rematch_of=rematch_of,
            inline_message_id=inline_message_id,
            created_at=now,
            updated_at=now,
        )
        self._matches.put(match.id, copy_match(match))
        return match

    def refuse_if_unavailable(self) -> None:
        """Raise :class:`StorageUnavailable` at once while calls are refused (PostgreSQL)."""

    def leads(self) -> bool:
        """Whether this process runs the singletons: the only one, or the workers' leader."""
        return self.shared is None or self.shared.leading

    def forget_older(self, match_id: int, version: int) -> None:
        """Another worker moved the match to ``version``: a cached copy older goes."""
        cached = self._matches.get(match_id)
        if cached is not None and cached.version < version:
            self._matches.pop(match_id, None)

    def forget_match(self, match_id: int) -> None:
        """Drop the match's cached copy: another worker may have changed it."""
        self._matches.pop(match_id, None)

    async def forget_if_changed(self, match_id: int) -> None:
        """Drop the match's cached copy unless the database still holds the revision it was
        read or written at — another worker may have changed it (called under its lock
        across workers, and before drawing it, so the next load reads what they left). One
        small read in place of the whole match's, most of the time."""
        if self._matches.get(match_id) is None:
            return
        revision = await self._revision(match_id)
        cached = self._matches.get(match_id)  # (our own writes may have moved it meanwhile)
        if cached is not None and (cached.revision is None or cached.revision != revision):
            self._matches.pop(match_id, None)

    async def _revision(self, match_id: int) -> int | None:
        """The match's revision in the database, where the backend keeps one."""
        return None

    async def load(self, match_id: int) -> Match | None:
        cached = self._matches.hit(match_id)
        if cached is not _MISSING:
            return copy_match(cached)
        read = await self._read_match(match_id)
        if read is None:
            return None
        match = match_from_rows(*read)
        cached = self._matches.get(match_id)
        if cached is not None and cached.version >= match.version:
            return copy_match(cached)  # saved while we were reading: the cache is newer
        if match.status in ACTIVE:
            self._matches.put(match_id, copy_match(match))
        return match

    async def save(
        self,
        match: Match,
        move: tuple[int, str] | None = None,
        automatic: bool = False,
        notices: Sequence[tuple[str, dict]] = (),
        ended: str = "cancelled",
    ) -> None:
        """Commit the match's play state (status, options, state, seats) in one transaction,
        with any ``notices`` for the group. With a ``move`` (seat, encoded action; seat -1 for
        the start) the version goes up by one and the move is logged. A save that leaves a
        started match finished or cancelled also records it (``ended``: how a cancelled
        one ended, ``cancelled`` or ``abandoned``) and, if finished, rates it — in the same
        transaction (:mod:`bot.storage.records`). Fails with :class:`StaleMatch` if someone
        else saved a newer version in between."""
        expected = match.version
        cached = self._matches.get(match.id)
        if cached is not None and cached.version != expected:
            cached = None  # not what the database holds at this version: write everything
        state = match.state
        entries = state.get(LOG) if state is not None else None
        events: list[str] = []
        if type(entries) is list:
            if len(entries) < match.logged:
                raise ValueError(f"match {match.id}: the state's log lost entries")
            events = [dumps(entry) for entry in entries[match.logged :]]
        state_changed = cached is None or cached.state is not state
        lobby = match.status == "lobby"
        if cached is None or lobby:
            seats = match.seats
        else:
            before = {seat.seat: seat for seat in cached.seats}
            seats = [seat for seat in match.seats if seat_changed(seat, before.get(seat.seat))]
        write = MatchWrite(
            match_id=match.id,
            expected=expected,
            version=expected + 1 if move else expected,
            status=match.status,
            options=dumps(match.options),
            turn_seconds=match.turn_seconds,
            ends_at=match.ends_at,
            last_mover=match.last_mover,
            updated_at=time.time(),
            state_changed=state_changed,
            state=encode_state(state) if state_changed else None,
            seats=[(seat.seat, *play_values(seat)) for seat in seats],
            seat_count=len(match.seats) if lobby else None,
            first_event=match.logged,
            events=events,
            move=(move[0], move[1], automatic) if move else None,
            notices=[(key, dumps(params)) for key, params in notices],
        )
        if match.state is not None and match.status in ("finished", "cancelled"):
            outcome = "finished" if match.status == "finished" else ended
            write.record = build_record(match, outcome, write.updated_at)
            write.record = dataclasses.replace(
                write.record,
                unrated=match.tournament_id in self.unrated_tournaments,
                season=season_of(write.updated_at, self.season_months),
            )
        try:
            saved = await self._write_match(write)
        except StorageUnavailable:
            self._matches.pop(match.id, None)  # whether it was written is read afresh later
            raise
        if not saved:
            self._matches.pop(match.id, None)  # someone else wrote: read it afresh
            raise StaleMatch(f"match {match.id} is no longer at version {expected}")
        size = write.size()
        self.stats.bytes_written += size
        if move:
            self.stats.moves += 1
            if self.stats.move_sizes is not None:
                self.stats.move_sizes.append(size)
        if notices:
            self._with_notices.add(match.id)
        match.version = write.version
        match.updated_at = write.updated_at
        if type(entries) is list:
            match.logged = len(entries)
        self._remember(match, display=False, revision=write.revision)
        if write.record is not None:
            self.on_match_end(match, write.record)

    def _remember(self, match: Match, display: bool, revision: int | None) -> None:
        """Write a saved match through to the cache: its play fields, or its display fields
        (the publisher's), each owned by one writer. ``revision``: the match's once written."""
        cached = self._matches.get(match.id)
        if cached is None:
            return  # not cached: the next load reads the database
        if match.status not in ACTIVE:
            del self._matches[match.id]  # finished matches are read on demand, not kept
            return
        written = revised(cached, revision)
        if display:
            for name in DISPLAY_MATCH_FIELDS:
                setattr(cached, name, getattr(match, name))
            cached.revision = written
            return
        saved = copy_match(match)
        saved.revision = written
        for name in DISPLAY_MATCH_FIELDS:
            setattr(saved, name, getattr(cached, name))
        saved.chat_id = cached.chat_id  # only move_chat changes it; a play save never does
        by_number = {seat.seat: seat for seat in cached.seats}
        for seat in saved.seats:
            old = by_number.get(seat.seat)
            if old is not None and old.user_id == seat.user_id:
                for name in DISPLAY_SEAT_FIELDS:
                    setattr(seat, name, getattr(old, name))
        self._matches.put(match.id, saved)

    async def save_display(self, match: Match) -> None:
        """Record what the group has been shown. Never touches the play state. Ignored if
        the match has moved to another chat meanwhile (its message ids are of the old one)."""
        values = tuple(getattr(match, name) for name in DISPLAY_MATCH_FIELDS)
        cached = self._matches.get(match.id)
        if (
            cached is not None
            and cached.chat_id == match.chat_id
            and values == tuple(getattr(cached, name) for name in DISPLAY_MATCH_FIELDS)
        ):
            return  # already recorded
        changed, revision = await self._write_match_display(match.id, match.chat_id, values)
        if changed == 1:
            self._remember(match, display=True, revision=revision)

    async def _write_match_display(
        self, match_id: int, chat_id: int, values: tuple
    ) -> tuple[int, int | None]:
        """Write the group's display fields if the match is still in ``chat_id``: how many
        rows changed, and the match's revision after it, where kept."""
        return await self._write(MATCH_DISPLAY, (*values, match_id, chat_id)), None

    async def save_seat_display(self, match_id: int, seat: Seat) -> None:
        """Record what a seat's private chat shows (its own flusher's fields only)."""
        values = tuple(getattr(seat, name) for name in DISPLAY_SEAT_FIELDS)
        revision = await self._write_seat_display(match_id, seat.seat, values)
        cached = self._matches.get(match_id)
        if cached is not None and seat.seat < len(cached.seats):
            for name, value in zip(DISPLAY_SEAT_FIELDS, values, strict=True):
                setattr(cached.seats[seat.seat], name, value)
            cached.revision = revised(cached, revision)

    async def _write_seat_display(self, match_id: int, seat: int, values: tuple) -> int | None:
        """Write a seat's display fields; the match's revision after it, where kept."""
        await self._write(SEAT_DISPLAY, (*values, match_id, seat))
        return None

    async def move_chat(self, old: int, new: int) -> list[int]:
        """A group became a supergroup with a new id: move its matches (and its language) to
        the new id in one transaction; returns the unfinished matches now there. Message ids
        of the old chat mean nothing in the new one, so boards and lobbies are posted
        anew. Where the new chat already has an unfinished match in the same topic, a
        running game wins over a lobby; otherwise the one already there stays."""
        async with self._transaction() as tx:
            moving = await tx.rows(
                "SELECT id, thread_id, status FROM matches WHERE chat_id = ? AND status IN (?, ?)",
                (old, *ACTIVE),
            )
            for row in moving:
                there = await tx.rows(
                    "SELECT id, status FROM matches "
                    "WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
                    (new, row["thread_id"], *ACTIVE),
                )
                if there:
                    loser = there[0]["id"]
                    if not (row["status"] == "playing" and there[0]["status"] == "lobby"):
                        loser = row["id"]
                    # a new version: a handler holding the old copy can no longer save it
                    await tx.run(
                        "UPDATE matches SET status = 'cancelled', version = version + 1 "
                        "WHERE id = ?",
                        (loser,),
                    )
                    self._matches.pop(loser, None)
            await tx.run(
                "UPDATE matches SET chat_id = ?, lobby_message_id = NULL, "
                "board_message_id = NULL, board_print = NULL, board_below = 0 "
                "WHERE chat_id = ?",
                (new, old),
            )
            await tx.run(
                "INSERT INTO chats (chat_id, lang, pictures, leaderboard) "
                "SELECT ?, lang, pictures, leaderboard FROM chats WHERE chat_id = ? "
                "ON CONFLICT (chat_id) DO UPDATE SET "
                "lang = coalesce(excluded.lang, chats.lang), pictures = excluded.pictures, "
                "leaderboard = excluded.leaderboard",
                (new, old),
            )
            # the group's records and leaderboard move with it (a rating the new id already
            # has, from a match recorded there first, is kept)
            for table in ("match_records", "match_players"):
                await tx.run(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new, old))
            await tx.run(
                "UPDATE ratings SET scope = ? WHERE scope = ? AND NOT EXISTS (SELECT 1 FROM "
                "ratings r WHERE r.scope = ? AND r.game = ratings.game "
                "AND r.user_id = ratings.user_id)",
                (new, old, new),
            )
            await tx.run("DELETE FROM ratings WHERE scope = ?", (old,))
            # its season ladders, its podiums told and its tournaments too
            await tx.run(
                "UPDATE season_ratings SET scope = ? WHERE scope = ? AND NOT EXISTS (SELECT 1 "
                "FROM season_ratings r WHERE r.season = season_ratings.season AND r.scope = ? "
                "AND r.game = season_ratings.game AND r.user_id = season_ratings.user_id)",
                (new, old, new),
            )
            await tx.run("DELETE FROM season_ratings WHERE scope = ?", (old,))
            await tx.run(
                "UPDATE season_podiums SET scope = ? WHERE scope = ? AND NOT EXISTS (SELECT 1 "
                "FROM season_podiums p WHERE p.scope = ? AND p.season = season_podiums.season)",
                (new, old, new),
            )
            await tx.run("DELETE FROM season_podiums WHERE scope = ?", (old,))
            await tx.run("UPDATE tournaments SET chat_id = ? WHERE chat_id = ?", (new, old))
            await tx.run("DELETE FROM chats WHERE chat_id = ?", (old,))
            moved = await tx.rows(
                "SELECT id FROM matches WHERE chat_id = ? AND status IN (?, ?) ORDER BY id",
                (new, *ACTIVE),
            )
        for match_id, cached in list(self._matches.items()):
            if cached.chat_id in (old, new):
                del self._matches[match_id]  # read afresh, with the new chat
        for chats in (self._chat_langs, self._chat_pictures):
            chats.pop(old, None)
            chats.pop(new, None)
        return [row["id"] for row in moved]

    # -- notices and the move log ----------------------------------------------------------
    async def unsent_notices(self, match_id: int) -> list[Notice]:
        if match_id not in self._with_notices:
            return []
        rows = await self._rows(
            "SELECT id, key, params FROM notices WHERE match_id = ? AND sent = FALSE ORDER BY id",
            (match_id,),
        )
        if not rows:
            self._with_notices.discard(match_id)
        return [Notice(row["id"], row["key"], json.loads(row["params"])) for row in rows]

    async def mark_notice_sent(self, notice_id: int) -> None:
        await self._write("UPDATE notices SET sent = TRUE WHERE id = ?", (notice_id,))

    async def add_notice(self, match_id: int, key: str, params: dict) -> None:
        await self._write(
            "INSERT INTO notices (match_id, key, params) VALUES (?, ?, ?)",
            (match_id, key, dumps(params)),
        )
        self._with_notices.add(match_id)

    async def moves(self, match_id: int) -> list[tuple[int, int, str]]:
        rows = await self._rows(
            "SELECT version, seat, action FROM moves WHERE match_id = ? ORDER BY version",
            (match_id,),
        )
        return [(row["version"], row["seat"], row["action"]) for row in rows]

    async def automatic_moves(self, match_id: int) -> int:
        rows = await self._rows(
            "SELECT COUNT(*) FROM moves WHERE match_id = ? AND automatic = TRUE", (match_id,)
        )
        return rows[0][0]

    async def events(self, match_id: int) -> list[dict[str, Any]]:
        """The match's public log as stored."""
        rows = await self._rows(
            "SELECT event FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
        )
        return [json.loads(row[0]) for row in rows]

    # -- the operator's view: health, /status, switches that outlive a restart ----------------
    async def ping(self) -> None:
        """One trivial query: raises if the database does not answer (the health check)."""
        await self._rows("SELECT 1")

    async def flag(self, name: str) -> str | None:
        rows = await self._rows("SELECT value FROM bot_flags WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    async def set_flag(self, name: str, value: str | None) -> None:
        """Set an operator's switch (None: clear it)."""
        if value is None:
            await self._write("DELETE FROM bot_flags WHERE name = ?", (name,))
            return
        await self._write(
            "INSERT INTO bot_flags (name, value) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )

    async def activity(self, since: float) -> Activity:
        """Running matches by game, open lobbies, and the groups with a match that changed
        since ``since`` (a time from the bot's clock): /status's numbers."""
        rows = await self._rows(
            "SELECT game, COUNT(*) FROM matches WHERE status = 'playing' GROUP BY game"
        )
        lobbies = await self._rows("SELECT COUNT(*) FROM matches WHERE status = 'lobby'")
        groups = await self._rows(
            "SELECT COUNT(DISTINCT chat_id) FROM matches WHERE updated_at >= ? AND chat_id < 0",
            (since,),
        )
        return Activity(
            playing={row[0]: row[1] for row in rows},
            lobbies=lobbies[0][0],
            groups_active=groups[0][0],
        )


@dataclass(frozen=True)
class Activity:
    playing: dict[str, int]  # running matches by game
    lobbies: int
    groups_active: int
