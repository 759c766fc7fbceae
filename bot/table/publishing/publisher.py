"""Draw committed matches in Telegram: the lobby, the group's news and board, the final
result (``group_board``), and each player's private prompt (``prompts``).

Publishing reads the committed match from the database and is safe to repeat. Each chat
(a group, or a player's private chat) has at most one flusher at a time; requests that
arrive while it is busy — for example while it waits for the rate limiter — only mark the
chat dirty, and the next pass draws the *latest* state. So under fast play board edits
coalesce, a group never gets more calls than Telegram allows, and the board is never more
than one call behind.

Where several workers serve (PostgreSQL), each chat has one writer among them
(``Storage.shared.claim_chat``): a worker that changed a match whose chat another worker
draws hands the drawing over (``hand_over``) and the writer draws it within
``HANDED_LOOK_SECONDS``, so a chat's edits leave one worker, in the order drawn, never an
older board after a newer one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable

from bot.storage import Match, Storage
from bot.table.languages import Languages
from bot.table.place import place_of
from bot.table.publishing.board_pictures import BoardPictures
from bot.table.publishing.drawing import ChatKey, ChatWatcher, NoTables, OpenTables, Services
from bot.table.publishing.group_board import GroupBoard
from bot.table.publishing.messages import Ending
from bot.table.publishing.prompts import Prompts
from bot.telegram_api.messenger import ChatMoved, Messenger, Unreachable

log = logging.getLogger(__name__)

# Chats drawn at the same time, per audience; the others wait for a slot as keys, before
# their match is read. Under a backlog (Telegram takes about 30 calls a second from a bot,
# a busy bot may want more) each chat drawing held a read match, its screens and a chain of
# suspended calls — some 30 KB — until its call left, so memory grew with the backlog.
# Groups wait on their own minute's budget as well, so more of them are drawn at once.
DRAWING_SLOTS = {"group": 256, "user": 64}
# At shutdown (the platform kills the process about 30 s after SIGTERM), the drawings under
# way get this long in all; the next start draws those chats again from the database
STOP_DRAWING_SECONDS = 8.0
# several workers: how often a chat's writer takes the drawings other workers handed it
HANDED_LOOK_SECONDS = 0.2


class Publisher:
    def __init__(
        self,
        storage: Storage,
        messenger: Messenger,
        languages: Languages,
        pictures: BoardPictures,
    ) -> None:
        self.storage = storage
        self.messenger = messenger
        self.pictures = pictures
        self._chats: ChatWatcher | None = None
        self.tables: OpenTables = NoTables()
        self._dirty: dict[ChatKey, set[int]] = {}
        self._tasks: dict[ChatKey, asyncio.Task] = {}
        self._later: set[asyncio.TimerHandle] = set()  # boards that wait (``GroupBoard``)
        self._handed: asyncio.Task | None = None  # several workers: takes what is handed over
        self._owed: dict[int, set[str]] = {}  # chat → drawings handed over, not yet drawn
        self._slots = {
            audience: asyncio.Semaphore(slots) for audience, slots in DRAWING_SLOTS.items()
        }
        services = Services(storage, messenger, languages, pictures)
        self.group = GroupBoard(services, watcher=self._watcher, prompt_task=self._prompt_task)
        self.prompts = Prompts(services, request=self.request)
        self.clock = time.time

    @property
    def clock(self) -> Callable[[], float]:
        """The host's clock (tests move it): the time left shown on boards and prompts."""
        return self.group.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.group.clock = self.prompts.clock = clock

    def watch_chats(self, chats: ChatWatcher) -> None:
        """Tell ``chats`` when drawing finds that a group moved or no longer has the bot.
        (``bot.app`` connects it: the watcher is built after the publisher, which it uses.)"""
        self._chats = chats

    def watch_tables(self, tables: OpenTables) -> None:
        """Tell the table app's open tables of every change, and leave the chat prompt of a
        player whose table is open (``bot.app`` connects it when ``WEB_APP_URL`` is set)."""
        self.tables = self.group.tables = self.prompts.tables = tables

    def request(self, match: Match, chats: Iterable[ChatKey] | None = None) -> None:
        """Bring the group and every player's private chat up to the committed state, in
        the background, and tell the open tables. Returns at once."""
        self.tables.changed(match)
        group: list[ChatKey] = [("group", match.chat_id)] if place_of(match).board_in_group else []
        keys = (
            list(chats)
            if chats is not None
            else group + [("user", seat.user_id) for seat in match.humans]
        )
        for key in keys:
            self._mark(key, match.id)

    def _mark(self, key: ChatKey, match_id: int) -> None:
        self._dirty.setdefault(key, set()).add(match_id)
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    def redraw_prompt(self, match_id: int, user_id: int) -> None:
        """Bring a player's chat prompt up to date (their table app closed meanwhile)."""
        self._mark(("user", user_id), match_id)

    def resend_prompt(self, match: Match, user_id: int) -> None:
        """Send a player's prompt again as a new message (they asked for it)."""
        self.prompts.resend.add((match.id, user_id))
        self.request(match, [("user", user_id)])

    def repost_board(self, match: Match) -> None:
        """Post the board again at the bottom of the group (``/board``); the old one goes."""
        self.group.repost.add(match.id)
        self.request(match, [("group", match.chat_id)])

    def end_prompts(self, match: Match, ending: Ending) -> None:
        """A match stopped or abandoned: each player's prompt becomes the line saying so,
        without buttons — drawn in turn with the chat's other drawings, so no drawing of the
        running match lands after it."""
        for seat in match.humans:
            self.prompts.endings[(match.id, seat.user_id)] = ending
        self.request(match, [("user", seat.user_id) for seat in match.humans])

    async def _drawn_here(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def idle(self, within: float = 30.0) -> None:
        """Wait until every chat is drawn (tests, the bench); with several workers, also
        what was handed over to any writer (this worker draws its own at once), for at most
        ``within`` seconds."""
        shared = self.storage.shared
        give_up = time.monotonic() + within
        while True:
            await self._drawn_here()
            if shared is None or time.monotonic() > give_up:
                return
            if await self.draw_handed():
                continue
            if await shared.handed_waiting():
                await asyncio.sleep(0.01)  # another worker's to draw: it does within a look
            elif not self._tasks:  # (the look in the background may have started some)
                return

    async def finish(self, within: float = STOP_DRAWING_SECONDS) -> None:
        """Shutdown: wait for the drawings under way, ``within`` seconds in all, then drop
        the rest — a database or a Telegram that does not answer must not hold up the stop.
        :func:`bot.app.restore_matches` draws those chats again at the next start."""
        if self._handed is not None:  # what is handed over now goes to another writer
            self._handed.cancel()
            await asyncio.gather(self._handed, return_exceptions=True)
            self._handed = None
        for handle in self._later:  # a board that waits is drawn at the next start
            handle.cancel()
        self._later.clear()
        drawn = asyncio.ensure_future(self._drawn_here())  # (not the other workers' chats)
        done, _ = await asyncio.wait({drawn}, timeout=within)
        if not done:
            log.warning(
                "%d chats still drawing at shutdown: left to the next start", len(self._tasks)
            )
            for task in list(self._tasks.values()):
                task.cancel()
        await drawn

    async def _run(self, key: ChatKey) -> None:
        try:
            # a practice match's board and prompt share the chat: the prompt comes below
            # the board drawn with it, its buttons in sight
            board = self._tasks.get(("group", key[1])) if key[0] == "user" else None
            if board is not None:
                await asyncio.wait([board])
            async with self._slots[key[0]]:
                await self._flush(key)
        finally:
            del self._tasks[key]

    def take_handed_over(self) -> None:
        """Several workers: draw, as their chats' writer, what other workers hand over."""
        if self.storage.shared is not None and self._handed is None:
            self._handed = asyncio.get_running_loop().create_task(self._take_handed_forever())

    async def _take_handed_forever(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(HANDED_LOOK_SECONDS)
            if self.storage.shared is None:
                return
            try:
                await self.draw_handed()
            except Exception as error:  # the database does not answer: the next look
                if not failing:
                    log.warning("cannot take the drawings handed over: %r", error)
                failing = True
                continue
            failing = False

    async def draw_handed(self) -> int:
        """Take the drawings handed to this worker (and a gone writer's) and start them;
        how many."""
        shared = self.storage.shared
        if shared is None:
            return 0
        handed = await shared.take_handed()
        for chat_id, drawing in handed:
            self._mark_drawing(chat_id, drawing)
        return len(handed)

    def _mark_drawing(self, chat_id: int, drawing: str) -> None:
        self._owed.setdefault(chat_id, set()).add(drawing)
        kind, _, match_id = drawing.partition(":")
        if kind in self._slots and match_id.isdigit():
            self._mark((kind, chat_id), int(match_id))

    async def _writer_draws(self, key: ChatKey, match_ids: set[int]) -> set[int]:
        """Several workers: the matches this worker draws in the chat now — all of them if
        it is the chat's writer (what was handed to it follows in the next pass), none if
        another worker is,
        which they are handed to."""
        shared = self.storage.shared
        if shared is None:
            return match_ids
        kind, chat_id = key
        try:
            writer, handed = await shared.claim_chat(chat_id)
            if not writer:
                for match_id in sorted(match_ids):
                    await shared.hand_over(chat_id, f"{kind}:{match_id}")
                return set()
        except Exception as error:  # the database does not answer: nor will the drawing
            log.warning("chat %s: its writer is not known (%r): drawn here", chat_id, error)
            return match_ids
        for drawing in handed:  # (this chat's kind: drawn in the flush's next pass)
            self._mark_drawing(chat_id, drawing)
        return match_ids

    async def _flush(self, key: ChatKey) -> None:
        while self._dirty.get(key):
            match_ids = await self._writer_draws(key, self._dirty.pop(key))
            for match_id in sorted(match_ids):
                try:
                    if self.storage.shared is not None:  # another worker may have moved it
                        await self.storage.forget_if_changed(match_id)  # and drawn it
                    if key[0] == "group":
                        later = await self.group.draw(match_id)
                        if later is not None:  # the board waits: drawn then, if not sooner
                            self._draw_later(later, key, match_id)
                    else:
                        await self.prompts.draw(match_id, key[1])
                except ChatMoved as moved:  # the group became a supergroup
                    await self._watcher().move_chat(moved.chat_id, moved.new_chat_id)
                except Unreachable as error:  # 403 from a group: the bot is not in it
                    log.info("match %s: the bot left chat %s", match_id, error.chat_id)
                    await self._watcher().bot_removed(error.chat_id)
                except Exception:
                    log.exception("could not draw match %s in %s", match_id, key)
            await self._drawn_handed(key, match_ids)

    async def _drawn_handed(self, key: ChatKey, match_ids: set[int]) -> None:
        """Several workers: tell the database the drawings handed over are drawn (so a
        writer that dies before drawing them leaves them to the next)."""
        shared, owed = self.storage.shared, self._owed.get(key[1])
        if shared is None or not owed:
            return
        drawn = owed & {f"{key[0]}:{match_id}" for match_id in match_ids}
        if not drawn:
            return
        owed -= drawn
        if not owed:
            del self._owed[key[1]]
        try:
            await shared.drawn(key[1], sorted(drawn))
        except Exception as error:  # drawn again by whoever takes them: harmless
            log.warning("chat %s: drawn, not yet marked so: %r", key[1], error)

    def _draw_later(self, seconds: float, key: ChatKey, match_id: int) -> None:
        def due() -> None:
            self._later.discard(handle)
            self._mark(key, match_id)

        handle = asyncio.get_running_loop().call_later(seconds, due)
        self._later.add(handle)

    def _watcher(self) -> ChatWatcher:
        if self._chats is None:
            raise RuntimeError("Publisher.watch_chats was never called")
        return self._chats

    def _prompt_task(self, user_id: int) -> asyncio.Task | None:
        """The drawing of a player's private chat under way, if any."""
        return self._tasks.get(("user", user_id))

    async def close_lobby(self, match: Match, text: str) -> None:
        """Replace a lobby that closed without a game (cancelled, expired) with a line of
        text and no buttons: a finished lobby leaves a clean chat."""
        await self.group.close_lobby(match, text)
