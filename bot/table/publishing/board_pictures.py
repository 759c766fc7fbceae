"""The board pictures of a running match, as the publisher needs them: only for games that
have pictures in groups that want them, drawn in one drawing thread, remembered by (match,
version, audience), and never fatal.

Drawing a picture takes a few milliseconds of CPU — on this machine's event loop that was
a 55–70 ms stall per picture under load, in a worker thread 0.2 ms (Pillow releases the
GIL while it draws and compresses) — so it runs off the loop, in one thread
(:class:`bot.presentation.pictures.PictureCache` says why one). A picture that cannot be
drawn is logged and the board or prompt goes out as text: a picture problem never stalls
a match.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable

from bot.presentation import pictures
from bot.storage import Match, Storage
from games.core import View

log = logging.getLogger(__name__)

# The pictures remembered, in bytes: some 250 of 60 KB (a redraw of an unchanged match —
# a retry, a restart, a resent prompt — costs nothing while its picture is here)
CACHED_PICTURE_BYTES = 16 * 2**20


def names_of(match: Match) -> tuple[str, ...]:
    """The names the pictures draw on the boards (a match keeps its players' names, so the
    cache key needs none)."""
    return tuple(seat.name for seat in match.seats)


class BoardPictures:
    def __init__(self, storage: Storage, capacity_bytes: int = CACHED_PICTURE_BYTES) -> None:
        self.storage = storage
        self.cache = pictures.PictureCache(capacity_bytes)

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
            (match.id, match.version, "group"),
            lambda: pictures.render_group(match.game, public, names=names_of(match)),
        )

    async def private(self, match: Match, view: View, seat: int) -> bytes | None:
        """The supply, ``seat``'s own board in full and every other board compact, or
        None: text instead."""
        if not await self.wanted(match):
            return None
        return await self._draw(
            (match.id, match.version, seat),
            lambda: pictures.render_private(match.game, view, seat, names=names_of(match)),
        )

    async def _draw(self, key: Hashable, draw: Callable[[], bytes]) -> bytes | None:
        # a layout's background is drawn by its first picture (0.1–0.3 s of CPU), in the
        # drawing thread like every picture: the pictures behind it wait, none draws it twice
        try:
            return await self.cache.render(key, draw)
        except Exception:
            log.exception("could not draw the picture %s; showing text instead", key)
            return None
