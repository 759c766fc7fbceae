"""Draining before an upgrade: while on, no new lobby or rematch opens (people are told a
short maintenance is coming) and running matches play to their end. The switch is kept in
the database, so it holds across the restart it prepares for until the operator turns it
off (``/drain off``)."""

from __future__ import annotations

from bot.storage import Storage

FLAG = "draining"


class Draining:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.on = False

    async def load(self) -> None:
        """At start-up: whether an operator left the bot draining."""
        self.on = await self.storage.flag(FLAG) is not None

    async def switch(self, on: bool) -> None:
        await self.storage.set_flag(FLAG, "on" if on else None)
        self.on = on
