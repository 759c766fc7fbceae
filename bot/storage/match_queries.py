"""Which matches: the ids of a chat's, an inline message's, a user's, the stale lobbies',
the overdue ones. Part of the storage contract (:class:`bot.storage.Storage` inherits it),
on its ``_rows``, the same SQL for both backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.model import ACTIVE


class MatchQueries:
    """The match-id queries: mixed into :class:`bot.storage.Storage`."""

    async def _ids(self, sql: str, args: Sequence = ()) -> list[int]:
        return [row[0] for row in await self._rows(sql, args)]

    async def active_match_id(self, chat_id: int, thread_id: int) -> int | None:
        ids = await self._ids(
            "SELECT id FROM matches WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
            (chat_id, thread_id, *ACTIVE),
        )
        return ids[0] if ids else None

    async def inline_match_id(self, inline_message_id: str, active: bool = True) -> int | None:
        """The active match of an inline message (``active=False``: its latest, whatever
        its status), if any."""
        if active:
            sql, args = "AND status IN (?, ?)", ACTIVE
        else:
            sql, args = "", ()
        ids = await self._ids(
            f"SELECT id FROM matches WHERE inline_message_id = ? {sql} ORDER BY id DESC LIMIT 1",
            (inline_message_id, *args),
        )
        return ids[0] if ids else None

    async def latest_match_id(self, chat_id: int) -> int | None:
        """The match opened last in a chat, whatever its status."""
        ids = await self._ids(
            "SELECT id FROM matches WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (chat_id,)
        )
        return ids[0] if ids else None

    async def match_ids(self, status: str) -> list[int]:
        return await self._ids("SELECT id FROM matches WHERE status = ? ORDER BY id", (status,))

    async def stale_lobbies(self, before: float) -> list[int]:
        return await self._ids(
            "SELECT id FROM matches WHERE status = 'lobby' AND updated_at < ? ORDER BY id",
            (before,),
        )

    async def active_matches_of(self, user_id: int) -> list[int]:
        return await self._ids(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            "WHERE s.user_id = ? AND m.status IN (?, ?) ORDER BY m.id",
            (user_id, *ACTIVE),
        )

    async def active_in_chat(self, chat_id: int) -> list[int]:
        return await self._ids(
            "SELECT id FROM matches WHERE chat_id = ? AND status IN (?, ?) ORDER BY id",
            (chat_id, *ACTIVE),
        )

    async def due_matches(self, now: float, offer_after: float) -> list[int]:
        """Running matches with something overdue at ``now`` — a move deadline, a half-time
        reminder, the end of a timed match, an offer to start an absent player's clock —
        whatever their timer jobs did: the safety net of the periodic sweep. Mirrors
        :meth:`bot.table.timers.Timers.next_event`."""
        offer = (
            " OR (m.turn_seconds = 0 AND m.chat_id < 0 AND s.deadline IS NULL"
            "     AND s.clock_offered = FALSE"
            "     AND s.waiting_since <= ?)"
            if offer_after > 0
            else ""
        )
        rows = await self._rows(
            "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            "WHERE m.status = 'playing' AND ("
            " s.deadline <= ?"
            " OR (m.turn_seconds > 0 AND s.deadline IS NOT NULL AND s.reminded = FALSE"
            "     AND s.autopilot = FALSE AND s.deadline - m.turn_seconds / 2.0 <= ?)"
            f"{offer}) UNION SELECT id FROM matches WHERE status = 'playing' AND ends_at <= ?",
            (now, now, *((now - offer_after,) if offer_after > 0 else ()), now),
        )
        return sorted(row[0] for row in rows)
