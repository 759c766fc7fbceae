"""Lessons' rows: each learner's place in each lesson (``lessons``: their moves so far, and
the furthest step they reached) and how far learners get (``tutorial_steps``: counts only,
naming no one, for the owner's /status). Part of the storage contract
(:class:`bot.storage.Storage` inherits it), on its primitives (``_rows``, ``_write``,
``_transaction``), the same SQL for both backends.

A step is counted the first time a learner reaches it, in the transaction that stores their
place: a lesson restarted, retried, resumed or finished again counts nothing more.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence


class LessonStore:
    """Lessons' reads and writes: mixed into :class:`bot.storage.Storage`."""

    async def lesson_path(self, user_id: int, game: str) -> list[list[int]] | None:
        """A learner's moves so far in ``game``'s lesson (None: never begun)."""
        rows = await self._rows(
            "SELECT path FROM lessons WHERE user_id = ? AND game = ?", (user_id, game)
        )
        return json.loads(rows[0]["path"]) if rows else None

    async def lessons_reached(self, user_id: int) -> dict[str, int]:
        """The furthest step each lesson a learner began reached (its length: finished)."""
        rows = await self._rows("SELECT game, reached FROM lessons WHERE user_id = ?", (user_id,))
        return {row["game"]: row["reached"] for row in rows}

    async def save_lesson(self, user_id: int, game: str, path: Sequence[Sequence[int]]) -> None:
        """A learner's place in ``game``'s lesson (their moves so far), in one transaction
        with the counts: a step counted the first time this learner reaches it, so a
        lesson restarted, retried or finished again counts nothing more."""
        step = len(path)
        async with self._transaction() as tx:
            rows = await tx.rows(
                "SELECT reached FROM lessons WHERE user_id = ? AND game = ?", (user_id, game)
            )
            reached = rows[0]["reached"] if rows else -1
            await tx.run(
                "INSERT INTO lessons (user_id, game, path, reached, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET "
                "path = excluded.path, reached = excluded.reached, "
                "updated_at = excluded.updated_at",
                (user_id, game, json.dumps([list(m) for m in path]), max(step, reached),
                 time.time()),
            )  # fmt: skip
            for new in range(reached + 1, step + 1):
                await tx.run(
                    "INSERT INTO tutorial_steps (game, step, reached) VALUES (?, ?, 1) "
                    "ON CONFLICT (game, step) DO UPDATE SET reached = tutorial_steps.reached + 1",
                    (game, new),
                )

    async def tutorial_counts(self) -> dict[str, dict[int, int]]:
        """For each tutorial begun at least once: how many reached each step."""
        counts: dict[str, dict[int, int]] = {}
        for game, step, reached in await self._rows(
            "SELECT game, step, reached FROM tutorial_steps ORDER BY game, step"
        ):
            counts.setdefault(game, {})[step] = reached
        return counts
