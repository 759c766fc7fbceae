"""The open tables: who has which match's table open, told at once when it changes.

A live connection only says "version N is out"; the page then reads its table with a plain
request, so a lost or repeated notification is harmless and a reconnect reads the current
state. While a player's table is open the bot leaves their chat prompt alone (fewer calls
to Telegram); when their last connection to it closes — the app closed, a phone that went
to sleep — their chat is brought up to date after a short grace, so a player whose app is
closed still gets their turn's notification there.

A watcher's connection (a group member with no seat) ends as soon as the bot hears they
left the group or were removed (:meth:`LiveTables.member_left`).

Where several workers serve (PostgreSQL), a page may be connected to one worker while the
move is made on another: each change is also told to every worker through the database's
LISTEN/NOTIFY ("match M is at version N", :meth:`LiveTables.hear_workers`), and each worker
tells its own pages. A notification lost (the listening connection dropped a moment) is
made good when it listens again: the open tables' versions are read then."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable

from bot.storage import Match
from bot.storage.workers import SharedWorkers
from bot.web import start_param
from bot.web.limits import LIVE_IN_ALL, LIVE_PER_USER
from bot.web.tables import TABLE_GAMES
from bot.web.watchers import Watchers

log = logging.getLogger(__name__)

# A connection that drops and comes back within this long (a network blip, a reload) does
# not bring the chat prompt back in between.
REDRAW_GRACE_SECONDS = 10.0


class Stream:
    """One open live connection to one match's table; ``watching``: the group it is watched
    in, for a member with no seat."""

    def __init__(
        self, match_id: int, user_id: int, version: int, watching: int | None = None
    ) -> None:
        self.match_id, self.user_id = match_id, user_id
        self.version = version  # the latest version it was told of
        self.watching = watching
        self.ended = False  # the table is no longer the user's to watch
        self._news = asyncio.Event()

    def end(self) -> None:
        self.ended = True
        self._news.set()

    def tell(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self._news.set()

    async def wait(self, timeout: float) -> bool:
        """Until a newer version is out (True) or ``timeout`` passes (False)."""
        try:
            await asyncio.wait_for(self._news.wait(), timeout)
        except TimeoutError:
            return False
        self._news.clear()
        return True


class LiveTables:
    """The table app's side of publishing (:class:`bot.table.publishing.drawing.OpenTables`):
    its streams by match and user, and the app's address for each table."""

    def __init__(
        self,
        base_url: str,
        redraw_prompt: Callable[[int, int], None],
        watchers: Watchers | None = None,
        grace: float = REDRAW_GRACE_SECONDS,
        main_app: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.main_app = main_app  # WEB_APP_MAIN: the app is the bot's Main Mini App
        self.redraw_prompt = redraw_prompt
        self.watchers = watchers or Watchers(_nobody_watches)
        self.grace = grace
        self._streams: dict[int, dict[int, set[Stream]]] = defaultdict(lambda: defaultdict(set))
        self._per_user: dict[int, int] = defaultdict(int)
        self.count = 0
        self._workers: SharedWorkers | None = None  # several workers: told through it
        self._telling: set[asyncio.Task] = set()
        self._telling_fails = False

    async def hear_workers(
        self, workers: SharedWorkers, forget: Callable[[int, int], None] | None = None
    ) -> None:
        """Several workers: tell the other workers' pages of this worker's changes, and
        this worker's pages of theirs — ``forget(match, version)`` first, so what the page
        then reads here is not an older copy this worker kept."""

        def heard(match_id: int, version: int) -> None:
            if forget is not None:
                forget(match_id, version)
            self.heard(match_id, version)

        self._workers = workers
        await workers.hear_tables(heard, self._read_again)

    def heard(self, match_id: int, version: int) -> None:
        """The match is at ``version`` (a change here or on another worker)."""
        for streams in self._streams.get(match_id, {}).values():
            for stream in streams:
                stream.tell(version)

    async def _read_again(self) -> None:
        if self._workers is not None and self._streams:
            versions = await self._workers.versions(list(self._streams))
            for match_id, version in versions.items():
                self.heard(match_id, version)

    async def _tell_workers(self, workers: SharedWorkers, match: Match) -> None:
        try:
            await workers.tell_tables(match.id, match.version)
        except Exception as error:  # the database does not answer: their pages read later
            if not self._telling_fails:
                log.warning("cannot tell the other workers' tables of a change: %r", error)
            self._telling_fails = True
        else:
            self._telling_fails = False

    # -- OpenTables ----------------------------------------------------------------------
    def changed(self, match: Match) -> None:
        self.heard(match.id, match.version)
        workers = self._workers
        if workers is not None:  # in the background: a move never waits for it
            task = asyncio.get_running_loop().create_task(self._tell_workers(workers, match))
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

    def is_open(self, match_id: int, user_id: int) -> bool:
        return bool(self._streams.get(match_id, {}).get(user_id))

    def member_left(self, chat_id: int, user_id: int) -> None:
        """The user left the group or was removed: they lose its tables they watch, at
        once (a seat of theirs plays on)."""
        self.watchers.forget(chat_id, user_id)
        for by_user in list(self._streams.values()):
            for stream in list(by_user.get(user_id, ())):
                if stream.watching == chat_id:
                    stream.end()

    def link(self, match: Match) -> str | None:
        if match.game not in TABLE_GAMES:
            return None
        return f"{self.base_url}/app/?m={match.id}"

    def start_param(self, match: Match) -> str | None:
        if not self.main_app or match.game not in TABLE_GAMES:
            return None
        return start_param.encode(match.id)

    def replay_link(self, match: Match) -> str | None:
        if match.game not in TABLE_GAMES:
            return None
        return f"{self.base_url}/app/?r={match.id}"

    def tournament_link(self, tournament_id: int) -> str | None:
        return f"{self.base_url}/app/?t={tournament_id}"

    def tournament_start_param(self, tournament_id: int) -> str | None:
        return start_param.encode_tournament(tournament_id) if self.main_app else None

    # -- connections ---------------------------------------------------------------------
    def open(
        self, match_id: int, user_id: int, version: int, watching: int | None = None
    ) -> Stream | None:
        """A new live connection (``watching``: the group, for a member with no seat); None
        where the user or everyone has too many open."""
        if self.count >= LIVE_IN_ALL or self._per_user[user_id] >= LIVE_PER_USER:
            return None
        stream = Stream(match_id, user_id, version, watching)
        self._streams[match_id][user_id].add(stream)
        self._per_user[user_id] += 1
        self.count += 1
        return stream

    def close(self, stream: Stream) -> None:
        by_user = self._streams.get(stream.match_id)
        if by_user is None or stream not in by_user.get(stream.user_id, ()):
            return
        by_user[stream.user_id].discard(stream)
        self.count -= 1
        self._per_user[stream.user_id] -= 1
        if not self._per_user[stream.user_id]:
            del self._per_user[stream.user_id]
        if by_user[stream.user_id]:
            return
        del by_user[stream.user_id]
        if not by_user:
            del self._streams[stream.match_id]
        loop = asyncio.get_running_loop()
        loop.call_later(self.grace, self._after_grace, stream.match_id, stream.user_id)

    def _after_grace(self, match_id: int, user_id: int) -> None:
        if not self.is_open(match_id, user_id):  # not back: the chat takes over again
            self.redraw_prompt(match_id, user_id)


async def _nobody_watches(chat_id: int, user_id: int) -> bool:
    return False
