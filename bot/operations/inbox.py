"""Each update handled once, whichever worker Telegram sends it to and however often.

With several workers (PostgreSQL in webhook mode) the webhook keeps every update in the
shared inbox (``Storage.shared``) before it answers Telegram 200: an update already there
(a redelivery, a duplicate, the same update sent to two workers) is answered 200 and
nothing more, and a database that cannot keep it is answered 503, so Telegram sends it
again later. Once its handlers have run, the update is marked handled. Every second each
worker takes over the updates of workers gone before handling theirs (a crash, a kill), in
Telegram's order. Whatever handles an update again — a worker killed between its move's
commit and marking the update handled — meets the guards every press already has: a
button's token is stale once its move is made, a second lobby in a chat is refused.

Where one process serves (SQLite, long polling) there is no inbox: updates go straight to
the handlers, as always.
"""

from __future__ import annotations

import asyncio
import json
import logging

from telegram import Bot, Update

from bot.storage import Storage

log = logging.getLogger(__name__)

ORPHAN_LOOK_SECONDS = 1.0  # how often a worker looks for the updates of workers gone
FORGET_EVERY = 600  # looks: the handled updates older than a day are dropped every 10 minutes


class Inbox:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._taken: set[int] = set()  # taken by this worker, not yet marked handled
        self._unmarked: set[int] = set()  # handled, but the mark did not reach the database
        self._watch: asyncio.Task | None = None

    async def take(self, update_id: int, body: str) -> bool:
        """Keep an update before answering it: True if this worker is to handle it, False
        if it was taken already. Raises ``StorageUnavailable`` or a database error if it
        could not be kept (the webhook then answers 503)."""
        shared = self.storage.shared
        if shared is None:
            return True
        taken = await shared.take_update(update_id, body)
        if taken:
            self._taken.add(update_id)
        return taken

    async def handled(self, update: object) -> None:
        """After an update's handlers: mark it handled, if it came through the inbox."""
        if not isinstance(update, Update) or update.update_id not in self._taken:
            return
        self._taken.discard(update.update_id)
        await self._mark(update.update_id)

    async def _mark(self, update_id: int) -> None:
        shared = self.storage.shared
        if shared is None:
            return
        try:
            await shared.handled(update_id)
        except Exception as error:  # the database does not answer: marked on the next look
            log.warning("update %s handled, not yet marked so: %r", update_id, error)
            self._unmarked.add(update_id)
        else:
            self._unmarked.discard(update_id)

    def start(self, bot: Bot, queue: asyncio.Queue) -> None:
        """Take over the updates of workers gone, every ``ORPHAN_LOOK_SECONDS``, into
        ``queue`` (the handlers'): the webhook's updates and these are handled alike."""
        if self.storage.shared is not None and self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self._look_forever(bot, queue))

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)
            self._watch = None

    async def _look_forever(self, bot: Bot, queue: asyncio.Queue) -> None:
        looks = 0
        failing = False
        while True:
            await asyncio.sleep(ORPHAN_LOOK_SECONDS)
            try:
                await self.look(bot, queue, forget=looks % FORGET_EVERY == 0)
            except Exception as error:  # the database does not answer: the next look
                if not failing:
                    log.warning("cannot look for the updates of workers gone: %r", error)
                failing = True
            else:
                failing = False
            looks += 1

    async def look(self, bot: Bot, queue: asyncio.Queue, forget: bool = False) -> int:
        """One look: the marks that failed, then the updates of workers gone, queued;
        returns how many were taken over."""
        shared = self.storage.shared
        if shared is None:
            return 0
        for update_id in list(self._unmarked):
            await self._mark(update_id)
        if forget:
            await shared.forget_old()
        bodies = await shared.take_orphans()
        for body in bodies:
            update = Update.de_json(json.loads(body), bot)
            self._taken.add(update.update_id)
            log.warning("update %s: its worker is gone, handled here", update.update_id)
            await queue.put(update)
        return len(bodies)
