"""What the storage contract knows of several workers on one database: the interface of
:class:`bot.storage.shared.Shared` (PostgreSQL), which the host reaches as
``Storage.shared`` (None where one process serves the database: SQLite)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol


class MatchHeld(Exception):
    """Another worker held the match's lock past the wait (the database answers)."""


class SharedWorkers(Protocol):
    """What several workers on one database share (PostgreSQL: :mod:`bot.storage.shared`):
    a name for this worker, the inbox of updates, each match's lock across workers, the
    Telegram budget they share, each chat's writer, the live tables' news."""

    name: str
    leading: bool  # this worker runs the singletons (tournaments' starts, seasons, lobbies)

    def match_lock(self, match_id: int) -> AbstractAsyncContextManager[None]: ...

    async def take_update(self, update_id: int, body: str) -> bool: ...

    async def handled(self, update_id: int) -> None: ...

    async def take_orphans(self) -> list[str]: ...

    async def match_busy(self, match_id: int) -> bool: ...

    async def forget_old(self) -> None: ...

    async def waiting(self) -> int: ...

    async def workers(self) -> list: ...  # of bot.storage.shared.Worker

    async def leader(self) -> str | None: ...

    async def reserve_call(
        self, overall: tuple[float, float], group: tuple[int, float, float] | None = None
    ) -> float: ...

    async def claim_chat(self, chat_id: int) -> tuple[bool, list[str]]: ...

    async def hand_over(self, chat_id: int, drawing: str) -> None: ...

    async def take_handed(self) -> list[tuple[int, str]]: ...

    async def drawn(self, chat_id: int, drawings: list[str]) -> None: ...

    async def handed_waiting(self) -> int: ...

    async def tell_tables(self, match_id: int, version: int) -> None: ...

    async def hear_tables(
        self,
        heard: Callable[[int, int], None],
        listening_again: Callable[[], Awaitable[None]] | None = None,
    ) -> None: ...

    async def versions(self, match_ids: list[int]) -> dict[int, int]: ...
