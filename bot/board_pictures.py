"""The board pictures of a running match, as the publisher needs them: only for games that
have pictures in groups that want them, drawn in a worker thread, remembered by (match,
version, audience), and never fatal.

Drawing a picture takes a few milliseconds of CPU — on this machine's event loop that was
a 55–70 ms stall per picture under load, in a worker thread 0.2 ms (Pillow releases the
GIL while it draws and compresses) — so it runs off the loop. A picture that cannot be
drawn is logged and the board or prompt goes out as text: a picture problem never stalls
a match.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable

from bot import pictures
from bot.storage import Match, Storage
from games.core import View

log = logging.getLogger(__name__)

CACHED_PICTURES = 256  # about 60 KB each: some 15 MB at most


def names_of(match: Match) -> tuple[str, ...]:
    """The names the pictures draw on the boards (a match keeps its players' names, so the
    cache key needs none)."""
    return tuple(seat.name for seat in match.seats)


class BoardPictures:
    def __init__(self, storage: Storage, capacity: int = CACHED_PICTURES) -> None:
        self.storage = storage
        self.cache = pictures.PictureCache(capacity)
        self._ready: dict[str, asyncio.Future] = {}  # game -> its palette and backgrounds

    async def wanted(self, match: Match) -> bool:
        """Whether the match's boards are pictures: a tile game, in a group that has not
        switched them off."""
        return pictures.supports(match.game) and await self.storage.chat_pictures(match.chat_id)

    async def group(self, match: Match, public: View) -> bytes | None:
        """The group's picture of the match as committed (every board, the players to act
        framed), or None: text instead."""
        if not await self.wanted(match):
            return None
        return await self._draw(
            match.game,
            (match.id, match.version, "group"),
            lambda: pictures.render_group(match.game, public, names=names_of(match)),
        )

    async def private(self, match: Match, view: View, seat: int) -> bytes | None:
        """The supply, ``seat``'s own board in full and every other board compact, or
        None: text instead."""
        if not await self.wanted(match):
            return None
        return await self._draw(
            match.game,
            (match.id, match.version, seat),
            lambda: pictures.render_private(match.game, view, seat, names=names_of(match)),
        )

    async def _draw(self, game: str, key: Hashable, draw: Callable[[], bytes]) -> bytes | None:
        try:
            await self._warmed_up(game)
            return await self.cache.render(key, draw)
        except Exception:
            log.exception("could not draw the picture %s; showing text instead", key)
            return None

    async def _warmed_up(self, game: str) -> None:
        """A game's palette and backgrounds are made once per process, in a worker thread,
        when its first picture is wanted (about 0.8 s of CPU for Azul, 1.5 s for Summer
        Pavilion): pictures wanted meanwhile wait for it rather than make their own, and a
        bot that plays no tile game never pays for it."""
        ready = self._ready.get(game)
        if ready is None:
            ready = self._ready[game] = asyncio.ensure_future(
                asyncio.to_thread(pictures.warm_up, (game,))
            )
        await asyncio.shield(ready)
