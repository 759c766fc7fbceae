"""SQLite persistence (aiosqlite, WAL): matches, seats, the move log, notices, preferences.

Handlers never write SQL. A move is saved with :meth:`Storage.save` in one transaction
guarded by the match's version (optimistic concurrency), so it is committed exactly once
before anything about it is sent to Telegram. What the publisher has shown (message ids,
what was announced) is written separately with :meth:`Storage.save_display` and
:meth:`Storage.save_prompt`: drawing never races with playing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiosqlite

from games.core import clone, clone_state

# Each entry upgrades the schema by one version (PRAGMA user_version). Never edit a released
# entry: append a new one. Columns no longer read stay (dropping them would need a
# migration for nothing): matches.ping_message_id and seats.pinged_token, from when the
# group was pinged about whose turn it is.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        lang TEXT
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        lang TEXT,
        telegram_lang TEXT,
        can_message INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        title TEXT NOT NULL DEFAULT '',
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        turn_seconds INTEGER NOT NULL DEFAULT 0,
        ends_at REAL,
        last_mover INTEGER,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        creator_id INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        board_print TEXT,
        ping_message_id INTEGER,
        announced INTEGER NOT NULL DEFAULT 0,
        published INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_match_per_topic
        ON matches (chat_id, thread_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX matches_by_status ON matches (status);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        token INTEGER NOT NULL DEFAULT 0,
        prompt_sig TEXT,
        draft TEXT,
        deadline REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        autopilot INTEGER NOT NULL DEFAULT 0,
        pinged_token INTEGER NOT NULL DEFAULT 0,
        prompt_message_id INTEGER,
        prompt_text TEXT,
        prompt_token INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        automatic INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        params TEXT NOT NULL,
        sent INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX unsent_notices ON notices (match_id) WHERE sent = 0;
    """,
    """
    ALTER TABLE seats ADD COLUMN draft_step INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN waiting_since REAL;
    ALTER TABLE seats ADD COLUMN clock_offered INTEGER NOT NULL DEFAULT 0;
    """,
    """
    ALTER TABLE matches ADD COLUMN rematch_of INTEGER REFERENCES matches (id);
    """,
    """
    ALTER TABLE matches ADD COLUMN board_below INTEGER NOT NULL DEFAULT 0;
    """,
    # an AI seat: its level (NULL: a human); its user_id is a negative number no Telegram
    # user has, unique within the match
    """
    ALTER TABLE seats ADD COLUMN ai TEXT;
    """,
    """
    ALTER TABLE chats ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
    """,
]

ACTIVE = ("lobby", "playing")
CACHED_MATCHES = 512  # recently used unfinished matches kept in memory; others read on demand
CACHED_PEOPLE = 10_000  # users and chats whose language is kept in memory


class StaleMatch(Exception):
    """The match changed since it was loaded (another update won the race)."""


@dataclass
class Seat:
    seat: int
    user_id: int
    name: str
    # -- play (saved with the match) --
    token: int = 0  # version at which this seat's choices last changed; buttons carry it
    prompt_sig: str | None = None  # fingerprint of the choices the token belongs to
    draft: Any = None  # UI selection in progress (e.g. cards toggled but not confirmed)
    deadline: float | None = None  # when an absent player's move is made for them
    reminded: bool = False  # the half-time reminder for the current deadline was sent
    timeouts: int = 0  # timeouts in a row; at AUTOPILOT_AFTER the seat goes on autopilot
    autopilot: bool = False
    draft_step: int = 0  # counts selection steps: a step button from an older prompt is stale
    waiting_since: float | None = None  # when the current decision began (None: no decision)
    clock_offered: bool = False  # the others were offered to start this decision's clock
    # -- display (saved by the publisher) --
    prompt_message_id: int | None = None  # the private message holding this seat's prompt
    prompt_text: str | None = None  # fingerprint of what that message shows
    prompt_token: int = 0  # token of the decision that message was sent for
    ai: str | None = None  # an AI seat's level (random, easy, normal, hard); None: a human

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


PLAY_SEAT_FIELDS = ("user_id", "name", "token", "prompt_sig", "draft", "deadline", "reminded",
                    "timeouts", "autopilot", "draft_step", "waiting_since",
                    "clock_offered", "ai")  # fmt: skip
BOOLEAN_SEAT_FIELDS = ("reminded", "autopilot", "clock_offered")
DISPLAY_SEAT_FIELDS = ("prompt_message_id", "prompt_text", "prompt_token")


@dataclass
class Match:
    id: int
    chat_id: int
    thread_id: int
    game: str
    options: dict[str, Any]
    status: str
    creator_id: int
    version: int = 0
    state: dict[str, Any] | None = None
    turn_seconds: int = 0  # move time limit; 0 = none
    ends_at: float | None = None  # a timed match's end (the engine is told when it passes)
    last_mover: int | None = None  # the seat whose own press made the latest move
    title: str = ""  # the group's title, to tell matches apart in private chats
    rematch_of: int | None = None  # a rematch lobby: the finished match whose players manage it
    seats: list[Seat] = field(default_factory=list)
    created_at: float = 0.0
    updated_at: float = 0.0
    # -- display (saved by the publisher) --
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    board_print: str | None = None  # fingerprint of the board as last drawn
    board_below: int = 0  # phone-screen rows of the bot's news posted below the board
    announced: int = 0  # how many log events have been announced in the group
    published: int = 0  # the last version the group has been shown

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_ai]

    @property
    def practice(self) -> bool:
        """Played in a player's private chat with the bot (chat ids of users are
        positive, of groups negative): a practice match against AI seats."""
        return self.chat_id > 0


def _play_values(seat: Seat) -> tuple:
    """A seat's play fields as stored, in the order of ``PLAY_SEAT_FIELDS``."""
    values = []
    for name in PLAY_SEAT_FIELDS:
        value = getattr(seat, name)
        if name == "draft":
            value = json.dumps(value) if value is not None else None
        elif name in BOOLEAN_SEAT_FIELDS:
            value = int(value)
        values.append(value)
    return tuple(values)


def copy_match(match: Match) -> Match:
    """An independent copy: the cache hands out copies, so a handler that changes a match and
    then fails to save it never corrupts what others read."""
    state = clone_state(match.state) if match.state is not None else None
    copied = replace(match, options=dict(match.options), state=state)
    copied.seats = [replace(seat, draft=clone(seat.draft)) for seat in match.seats]
    return copied


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
DISPLAY_MATCH_FIELDS = ("lobby_message_id", "board_message_id", "board_print", "board_below",
                        "announced", "published")  # fmt: skip


@dataclass
class User:
    user_id: int
    name: str
    lang: str | None  # chosen with /language
    can_message: bool
    telegram_lang: str | None = None  # the language of their Telegram app


@dataclass
class Notice:
    id: int
    key: str
    params: dict[str, Any]


class Storage:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db: aiosqlite.Connection | None = None
        # One connection is shared by all handlers: transactions must not interleave.
        self._lock = asyncio.Lock()
        # Write-through caches: every write goes through this class, so they stay exact.
        self._matches: LRU = LRU(CACHED_MATCHES)
        self._users: LRU = LRU(CACHED_PEOPLE)
        self._chat_langs: LRU = LRU(CACHED_PEOPLE)
        self._chat_pictures: LRU = LRU(CACHED_PEOPLE)
        self._with_notices: set[int] = set()  # matches that have unsent notices

    # -- lifecycle -------------------------------------------------------------------------
    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL + WAL: a committed move survives a killed process; only an OS crash or
        # power cut could lose the very last commits.
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()
        rows = await self._fetchall("SELECT DISTINCT match_id FROM notices WHERE sent = 0")
        self._with_notices = {row[0] for row in rows}

    async def close(self) -> None:
        if self._db is not None:
            async with self._lock:
                await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in script.split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    async def schema_version(self) -> int:
        row = await self._fetchone("PRAGMA user_version")
        return row[0]

    async def integrity_check(self) -> str:
        row = await self._fetchone("PRAGMA integrity_check")
        return row[0]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def _fetchone(self, sql: str, args: tuple = ()) -> aiosqlite.Row | None:
        rows = await self._fetchall(sql, args)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, args: tuple = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, args))

    async def _execute(self, sql: str, args: tuple = ()) -> None:
        async with self.transaction() as db:
            await db.execute(sql, args)

    # -- chats and users -------------------------------------------------------------------
    async def chat_lang(self, chat_id: int) -> str | None:
        lang = self._chat_langs.hit(chat_id)
        if lang is _MISSING:
            row = await self._fetchone("SELECT lang FROM chats WHERE chat_id = ?", (chat_id,))
            lang = row["lang"] if row else None
            self._chat_langs.put(chat_id, lang)
        return lang

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await self._execute(
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
            row = await self._fetchone("SELECT pictures FROM chats WHERE chat_id = ?", (chat_id,))
            pictures = bool(row["pictures"]) if row else True
            self._chat_pictures.put(chat_id, pictures)
        return pictures

    async def set_chat_pictures(self, chat_id: int, pictures: bool) -> None:
        await self._execute(
            "INSERT INTO chats (chat_id, pictures) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET pictures = excluded.pictures",
            (chat_id, int(pictures)),
        )
        self._chat_pictures.put(chat_id, pictures)

    async def user(self, user_id: int) -> User | None:
        user = self._users.hit(user_id)
        if user is _MISSING:
            row = await self._fetchone("SELECT * FROM users WHERE user_id = ?", (user_id,))
            user = (
                User(
                    row["user_id"],
                    row["name"],
                    row["lang"],
                    bool(row["can_message"]),
                    row["telegram_lang"],
                )
                if row
                else None
            )
            self._users.put(user_id, user)
        return replace(user) if user else None

    async def remember_user(
        self,
        user_id: int,
        name: str,
        can_message: bool | None = None,
        telegram_lang: str | None = None,
    ) -> None:
        """Record a user's display name, their Telegram language, and whether the bot may
        write to them privately (``None``: unchanged)."""
        known = None if can_message is None else int(can_message)
        await self._execute(
            "INSERT INTO users (user_id, name, can_message, telegram_lang) "
            "VALUES (?, ?, COALESCE(?, 0), ?) "
            "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
            "can_message = COALESCE(?, can_message), "
            "telegram_lang = COALESCE(excluded.telegram_lang, telegram_lang)",
            (user_id, name, known, telegram_lang, known),
        )
        self._users.pop(user_id, None)

    async def set_can_message(self, user_id: int, can_message: bool) -> None:
        await self._execute(
            "UPDATE users SET can_message = ? WHERE user_id = ?", (int(can_message), user_id)
        )
        self._users.pop(user_id, None)

    async def set_user_lang(self, user_id: int, name: str, lang: str) -> None:
        await self._execute(
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
    ) -> Match | None:
        """A new lobby, or ``None`` if this chat (topic) already has an active match."""
        now = time.time()
        async with self.transaction() as db:
            if await db.execute_fetchall(
                "SELECT 1 FROM matches WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
                (chat_id, thread_id, *ACTIVE),
            ):
                return None
            async with db.execute(
                "INSERT INTO matches (chat_id, thread_id, title, game, options, turn_seconds, "
                "status, creator_id, rematch_of, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (chat_id, thread_id, title, game, json.dumps(options), turn_seconds,
                 creator_id, rematch_of, now, now),
            ) as cursor:  # fmt: skip
                match_id = cursor.lastrowid
        match = Match(
            id=match_id,
            chat_id=chat_id,
            thread_id=thread_id,
            game=game,
            options=options,
            status="lobby",
            creator_id=creator_id,
            title=title,
            turn_seconds=turn_seconds,
            rematch_of=rematch_of,
            created_at=now,
            updated_at=now,
        )
        self._matches.put(match_id, copy_match(match))
        return match

    async def load(self, match_id: int) -> Match | None:
        cached = self._matches.hit(match_id)
        if cached is not _MISSING:
            return copy_match(cached)
        match = await self._read_match(match_id)
        if match is not None and match.status in ACTIVE:
            self._matches.put(match_id, copy_match(match))
        return match

    async def _read_match(self, match_id: int) -> Match | None:
        async with self._lock:
            rows = await self.db.execute_fetchall("SELECT * FROM matches WHERE id = ?", (match_id,))
            if not rows:
                return None
            row = rows[0]
            seat_rows = await self.db.execute_fetchall(
                "SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            )
        match = Match(
            id=row["id"],
            chat_id=row["chat_id"],
            thread_id=row["thread_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            status=row["status"],
            creator_id=row["creator_id"],
            version=row["version"],
            state=json.loads(row["state"]) if row["state"] else None,
            turn_seconds=row["turn_seconds"],
            ends_at=row["ends_at"],
            last_mover=row["last_mover"],
            title=row["title"],
            rematch_of=row["rematch_of"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            board_print=row["board_print"],
            board_below=row["board_below"],
            announced=row["announced"],
            published=row["published"],
        )
        for r in seat_rows:
            seat = Seat(seat=r["seat"], user_id=r["user_id"], name=r["name"])
            for name in PLAY_SEAT_FIELDS[2:] + DISPLAY_SEAT_FIELDS:
                setattr(seat, name, r[name])
            seat.draft = json.loads(r["draft"]) if r["draft"] else None
            for name in BOOLEAN_SEAT_FIELDS:
                setattr(seat, name, bool(r[name]))
            match.seats.append(seat)
        return match

    async def active_match_id(self, chat_id: int, thread_id: int) -> int | None:
        row = await self._fetchone(
            "SELECT id FROM matches WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
            (chat_id, thread_id, *ACTIVE),
        )
        return row["id"] if row else None

    async def match_ids(self, status: str) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE status = ? ORDER BY id", (status,)
        )
        return [row["id"] for row in rows]

    async def stale_lobbies(self, before: float) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE status = 'lobby' AND updated_at < ? ORDER BY id",
            (before,),
        )
        return [row["id"] for row in rows]

    async def active_matches_of(self, user_id: int) -> list[int]:
        rows = await self._fetchall(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            "WHERE s.user_id = ? AND m.status IN (?, ?) ORDER BY m.id",
            (user_id, *ACTIVE),
        )
        return [row["id"] for row in rows]

    async def save(
        self,
        match: Match,
        move: tuple[int, str] | None = None,
        automatic: bool = False,
        notices: list[tuple[str, dict]] = (),
    ) -> None:
        """Commit the match's play state (status, options, state, seats) in one transaction,
        with any ``notices`` for the group. With a ``move`` (seat, encoded action; seat -1 for
        the start) the version goes up by one and the move is logged. Fails with
        :class:`StaleMatch` if someone else saved a newer version in between."""
        expected = match.version
        new_version = expected + 1 if move else expected
        now = time.time()
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET status = ?, options = ?, turn_seconds = ?, ends_at = ?, "
                "last_mover = ?, version = ?, state = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (
                    match.status,
                    json.dumps(match.options),
                    match.turn_seconds,
                    match.ends_at,
                    match.last_mover,
                    new_version,
                    json.dumps(match.state, separators=(",", ":")) if match.state else None,
                    now,
                    match.id,
                    expected,
                ),
            )
            if cursor.rowcount != 1:
                self._matches.pop(match.id, None)  # someone else wrote: read it afresh
                raise StaleMatch(f"match {match.id} is no longer at version {expected}")
            if match.status == "lobby":  # only a lobby gains and loses seats
                await db.execute(
                    "DELETE FROM seats WHERE match_id = ? AND seat >= ?",
                    (match.id, len(match.seats)),
                )
            columns = ", ".join(PLAY_SEAT_FIELDS)
            updates = ", ".join(f"{name} = excluded.{name}" for name in PLAY_SEAT_FIELDS)
            await db.executemany(
                f"INSERT INTO seats (match_id, seat, {columns}) "
                f"VALUES (?, ?, {', '.join('?' * len(PLAY_SEAT_FIELDS))}) "
                f"ON CONFLICT (match_id, seat) DO UPDATE SET {updates}",
                [(match.id, seat.seat, *_play_values(seat)) for seat in match.seats],
            )
            if move:
                await db.execute(
                    "INSERT INTO moves (match_id, version, seat, action, automatic, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (match.id, new_version, move[0], move[1], int(automatic), now),
                )
            if notices:
                await db.executemany(
                    "INSERT INTO notices (match_id, key, params) VALUES (?, ?, ?)",
                    [(match.id, key, json.dumps(params)) for key, params in notices],
                )
        if notices:
            self._with_notices.add(match.id)
        match.version = new_version
        match.updated_at = now
        self._remember(match, display=False)

    async def move_chat(self, old: int, new: int) -> list[int]:
        """A group became a supergroup with a new id: move its matches (and its language) to
        the new id in one transaction; returns the unfinished matches now there. Message ids
        of the old chat mean nothing in the new one, so boards and lobbies are posted
        anew. Where the new chat already has an unfinished match in the same topic, a
        running game wins over a lobby; otherwise the one already there stays."""
        async with self.transaction() as db:
            moving = await db.execute_fetchall(
                "SELECT id, thread_id, status FROM matches WHERE chat_id = ? AND status IN (?, ?)",
                (old, *ACTIVE),
            )
            for row in moving:
                there = await db.execute_fetchall(
                    "SELECT id, status FROM matches "
                    "WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
                    (new, row["thread_id"], *ACTIVE),
                )
                if there:
                    loser = there[0]["id"]
                    if not (row["status"] == "playing" and there[0]["status"] == "lobby"):
                        loser = row["id"]
                    # a new version: a handler holding the old copy can no longer save it
                    await db.execute(
                        "UPDATE matches SET status = 'cancelled', version = version + 1 "
                        "WHERE id = ?",
                        (loser,),
                    )
                    self._matches.pop(loser, None)
            await db.execute(
                "UPDATE matches SET chat_id = ?, lobby_message_id = NULL, "
                "board_message_id = NULL, board_print = NULL, board_below = 0 "
                "WHERE chat_id = ?",
                (new, old),
            )
            await db.execute(
                "INSERT INTO chats (chat_id, lang, pictures) SELECT ?, lang, pictures FROM chats "
                "WHERE chat_id = ? "
                "ON CONFLICT (chat_id) DO UPDATE SET "
                "lang = coalesce(excluded.lang, chats.lang), pictures = excluded.pictures",
                (new, old),
            )
            await db.execute("DELETE FROM chats WHERE chat_id = ?", (old,))
            moved = await db.execute_fetchall(
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

    async def active_in_chat(self, chat_id: int) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE chat_id = ? AND status IN (?, ?) ORDER BY id",
            (chat_id, *ACTIVE),
        )
        return [row["id"] for row in rows]

    async def due_matches(self, now: float, offer_after: float) -> list[int]:
        """Running matches with something overdue at ``now`` — a move deadline, a half-time
        reminder, the end of a timed match, an offer to start an absent player's clock —
        whatever their timer jobs did: the safety net of the periodic sweep. Mirrors
        :meth:`bot.timers.Timers.next_event`."""
        rows = await self._fetchall(
            "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            "WHERE m.status = 'playing' AND ("
            " s.deadline <= :now"
            " OR (m.turn_seconds > 0 AND s.deadline IS NOT NULL AND s.reminded = 0"
            "     AND s.autopilot = 0 AND s.deadline - m.turn_seconds / 2.0 <= :now)"
            " OR (:offer > 0 AND m.turn_seconds = 0 AND m.chat_id < 0 AND s.deadline IS NULL"
            "     AND s.clock_offered = 0 AND s.waiting_since + :offer <= :now)"
            ") UNION SELECT id FROM matches WHERE status = 'playing' AND ends_at <= :now",
            {"now": now, "offer": offer_after},
        )
        return sorted(row[0] for row in rows)

    def _remember(self, match: Match, display: bool) -> None:
        """Write a saved match through to the cache: its play fields, or its display fields
        (the publisher's), each owned by one writer."""
        cached = self._matches.get(match.id)
        if cached is None:
            return  # not cached: the next load reads the database
        if match.status not in ACTIVE:
            del self._matches[match.id]  # finished matches are read on demand, not kept
            return
        saved = copy_match(match)
        if display:
            for name in DISPLAY_MATCH_FIELDS:
                setattr(cached, name, getattr(saved, name))
            return
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
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET lobby_message_id = ?, board_message_id = ?, board_print = ?, "
                "board_below = ?, announced = ?, published = ? WHERE id = ? AND chat_id = ?",
                (
                    match.lobby_message_id,
                    match.board_message_id,
                    match.board_print,
                    match.board_below,
                    match.announced,
                    match.published,
                    match.id,
                    match.chat_id,
                ),
            )
            saved = cursor.rowcount == 1
        if saved:
            self._remember(match, display=True)

    async def save_seat_display(self, match_id: int, seat: Seat) -> None:
        """Record what a seat's private chat shows (its own flusher's fields only)."""
        await self._execute(
            "UPDATE seats SET prompt_message_id = ?, prompt_text = ?, prompt_token = ? "
            "WHERE match_id = ? AND seat = ?",
            (seat.prompt_message_id, seat.prompt_text, seat.prompt_token, match_id, seat.seat),
        )
        cached = self._matches.get(match_id)
        if cached is not None and seat.seat < len(cached.seats):
            for name in DISPLAY_SEAT_FIELDS:
                setattr(cached.seats[seat.seat], name, getattr(seat, name))

    async def unsent_notices(self, match_id: int) -> list[Notice]:
        if match_id not in self._with_notices:
            return []
        rows = await self._fetchall(
            "SELECT id, key, params FROM notices WHERE match_id = ? AND sent = 0 ORDER BY id",
            (match_id,),
        )
        if not rows:
            self._with_notices.discard(match_id)
        return [Notice(row["id"], row["key"], json.loads(row["params"])) for row in rows]

    async def mark_notice_sent(self, notice_id: int) -> None:
        await self._execute("UPDATE notices SET sent = 1 WHERE id = ?", (notice_id,))

    async def add_notice(self, match_id: int, key: str, params: dict) -> None:
        await self._execute(
            "INSERT INTO notices (match_id, key, params) VALUES (?, ?, ?)",
            (match_id, key, json.dumps(params)),
        )
        self._with_notices.add(match_id)

    async def moves(self, match_id: int) -> list[tuple[int, int, str]]:
        rows = await self._fetchall(
            "SELECT version, seat, action FROM moves WHERE match_id = ? ORDER BY version",
            (match_id,),
        )
        return [(row["version"], row["seat"], row["action"]) for row in rows]

    async def automatic_moves(self, match_id: int) -> int:
        row = await self._fetchone(
            "SELECT COUNT(*) FROM moves WHERE match_id = ? AND automatic = 1", (match_id,)
        )
        return row[0]
