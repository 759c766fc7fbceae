"""What the records are read for: a player's stats, a leaderboard, a group's history — and
``/forget``. Part of the storage contract (:class:`bot.storage.Storage` inherits it); every
query is served by an index (see the migrations), so it stays fast with a long history."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.model import INLINE_CHATS
from bot.storage.records import FORGOTTEN, GLOBAL, provisional, shown_rating

TOP = 10  # places on a leaderboard
HISTORY = 8  # matches on /history


@dataclass(frozen=True)
class GameStats:
    game: str
    games: int  # finished matches
    wins: int  # first places (shared first places included)
    average: float | None
    lowest: int | None  # scores: the best is the highest, or in a penalty game the lowest
    highest: int | None
    rating: float | None  # the ordinal; None: never rated in this scope
    rated_games: int

    @property
    def shown(self) -> int | None:
        """The rating on the scale players see (:func:`shown_rating`)."""
        return None if self.rating is None else shown_rating(self.rating)

    @property
    def provisional(self) -> bool:
        return provisional(self.rated_games)


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    rating: float  # the ordinal, by which the board is sorted
    games: int  # rated games in this scope

    @property
    def shown(self) -> int:
        """The rating on the scale players see (:func:`shown_rating`)."""
        return shown_rating(self.rating)

    @property
    def provisional(self) -> bool:
        return provisional(self.games)


@dataclass(frozen=True)
class PastPlayer:
    seat: int
    name: str
    score: int | None
    rank: int | None


@dataclass(frozen=True)
class PastMatch:
    match_id: int
    chat_id: int
    game: str
    options: dict[str, Any]
    outcome: str
    rated: bool
    started_at: float
    ended_at: float
    players: list[PastPlayer]

    @property
    def winners(self) -> list[PastPlayer]:
        return [player for player in self.players if player.rank == 1]


@dataclass(frozen=True)
class Unrated:
    """A finished match that rated nobody, and why: ``"bots"`` (an AI seat played) or
    ``"practice"`` (played in a private chat)."""

    game: str
    reason: str


class Standings:
    """Reads of the records, and forgetting a player: mixed into
    :class:`bot.storage.Storage`, whose primitives (``_rows``, ``_write``, ``_transaction``)
    they use."""

    async def player_stats(self, user_id: int, chat_id: int | None = None) -> list[GameStats]:
        """A player's finished matches per game — everywhere, or in one group — with their
        rating in the same scope."""
        where = "user_id = ? AND outcome = 'finished'" + (" AND chat_id = ?" if chat_id else "")
        args = (user_id, chat_id) if chat_id else (user_id,)
        played = await self._rows(
            "SELECT game, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), AVG(score), "
            f"MIN(score), MAX(score) FROM match_players WHERE {where} GROUP BY game",
            args,
        )
        rated = await self._rows(
            "SELECT game, ordinal, games FROM ratings WHERE user_id = ? AND scope = ?",
            (user_id, chat_id or GLOBAL),
        )
        ratings = {row[0]: (row[1], row[2]) for row in rated}
        return [
            GameStats(
                game=row[0],
                games=row[1],
                wins=row[2] or 0,
                average=float(row[3]) if row[3] is not None else None,
                lowest=row[4],
                highest=row[5],
                rating=ratings.get(row[0], (None, 0))[0],
                rated_games=ratings.get(row[0], (None, 0))[1],
            )
            for row in played
        ]

    async def leaderboard(self, game: str, chat_id: int | None = None) -> list[Standing]:
        """The top players of a game by rating (the ordinal), in a group or everywhere."""
        rows = await self._rows(
            "SELECT user_id, name, ordinal, games FROM ratings WHERE scope = ? AND game = ? "
            f"ORDER BY ordinal DESC, user_id DESC LIMIT {TOP}",
            (chat_id or GLOBAL, game),
        )
        return [Standing(row[0], row[1], row[2], row[3]) for row in rows]

    async def ratings_of(
        self, game: str, chat_id: int, user_ids: Sequence[int]
    ) -> dict[int, float]:
        """The group's rating (the ordinal) of each of these players who has one in the game."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._rows(
            f"SELECT user_id, ordinal FROM ratings WHERE scope = ? AND game = ? "
            f"AND user_id IN ({marks})",
            (chat_id, game, *user_ids),
        )
        return {row[0]: row[1] for row in rows}

    async def rated_games(self, games: Sequence[str], chat_id: int | None = None) -> list[str]:
        """Those of ``games`` that have a leaderboard in this scope (one index probe each,
        not a scan of the scope's ratings)."""
        if not games:
            return []
        probe = "EXISTS (SELECT 1 FROM ratings WHERE scope = ? AND game = ?)"
        scope = chat_id or GLOBAL
        rows = await self._rows(
            f"SELECT {', '.join([probe] * len(games))}",
            [value for game in games for value in (scope, game)],
        )
        return [game for game, found in zip(games, rows[0], strict=True) if found]

    async def last_unrated(
        self, game: str | None = None, chat_id: int | None = None, user_id: int | None = None
    ) -> Unrated | None:
        """The latest finished match — of ``game`` (else any), in the group ``chat_id``
        (else anywhere), played by ``user_id`` (else by anyone) — if it rated nobody, and
        why: what /top and /stats say where a leaderboard or a rating is missing."""
        where, args = ["r.outcome = 'finished'"], []
        for clause, value in (
            ("r.game = ?", game),
            ("r.chat_id = ?", chat_id),
            ("r.match_id IN (SELECT match_id FROM match_players WHERE user_id = ?)", user_id),
        ):
            if value is not None:
                where.append(clause)
                args.append(value)
        rows = await self._rows(
            "SELECT r.game, r.chat_id, r.rated, EXISTS (SELECT 1 FROM match_players b "
            "WHERE b.match_id = r.match_id AND b.user_id < 0) FROM match_records r "
            f"WHERE {' AND '.join(where)} ORDER BY r.ended_at DESC LIMIT 1",
            args,
        )
        if not rows or rows[0][2]:
            return None
        game_, chat, _, bots = rows[0]
        # a private chat's id is positive (practice: against AI seats); an AI seat's user id
        # is negative (``bot.table.ai_moves.next_ai_user_id``)
        if chat > 0:
            return Unrated(game_, "practice")
        return Unrated(game_, "bots") if bots else None

    async def history(self, chat_id: int, limit: int = HISTORY) -> list[PastMatch]:
        """A group's last ended matches, the latest first."""
        rows = await self._rows(
            "SELECT * FROM match_records WHERE chat_id = ? ORDER BY ended_at DESC LIMIT ?",
            (chat_id, limit),
        )
        return await self._with_players(rows)

    async def player_history(self, user_id: int, limit: int = HISTORY) -> list[PastMatch]:
        """A player's last ended matches, everywhere, the latest first (the table app's
        home)."""
        rows = await self._rows(
            "SELECT r.* FROM match_records r JOIN match_players p ON p.match_id = r.match_id "
            "WHERE p.user_id = ? ORDER BY r.ended_at DESC LIMIT ?",
            (user_id, limit),
        )
        return await self._with_players(rows)

    async def inline_history(self, user_id: int, limit: int = HISTORY) -> list[PastMatch]:
        """A player's last ended matches played in inline messages (chats the bot is not
        in, which have no /history of their own), the latest first."""
        rows = await self._rows(
            "SELECT r.* FROM match_records r JOIN match_players p ON p.match_id = r.match_id "
            "WHERE p.user_id = ? AND r.chat_id <= ? ORDER BY r.ended_at DESC LIMIT ?",
            (user_id, INLINE_CHATS, limit),
        )
        return await self._with_players(rows)

    async def past_match(self, match_id: int) -> PastMatch | None:
        rows = await self._rows("SELECT * FROM match_records WHERE match_id = ?", (match_id,))
        found = await self._with_players(rows)
        return found[0] if found else None

    async def _with_players(self, rows: list) -> list[PastMatch]:
        if not rows:
            return []
        ids = [row["match_id"] for row in rows]
        players = await self._rows(
            "SELECT match_id, seat, name, score, rank FROM match_players "
            f"WHERE match_id IN ({', '.join('?' * len(ids))}) ORDER BY match_id, seat",
            ids,
        )
        seated: dict[int, list[PastPlayer]] = {match_id: [] for match_id in ids}
        for p in players:
            seated[p[0]].append(PastPlayer(p[1], p[2], p[3], p[4]))
        return [
            PastMatch(
                match_id=row["match_id"],
                chat_id=row["chat_id"],
                game=row["game"],
                options=json.loads(row["options"]),
                outcome=row["outcome"],
                rated=bool(row["rated"]),
                started_at=row["started_at"],
                ended_at=row["ended_at"],
                players=seated[row["match_id"]],
            )
            for row in rows
        ]

    async def leaderboard_on(self, chat_id: int) -> bool:
        rows = await self._rows("SELECT leaderboard FROM chats WHERE chat_id = ?", (chat_id,))
        return bool(rows[0][0]) if rows else True

    async def set_leaderboard(self, chat_id: int, on: bool) -> None:
        await self._write(
            "INSERT INTO chats (chat_id, leaderboard) VALUES (?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET leaderboard = excluded.leaderboard",
            (chat_id, on),
        )

    async def remember_username(self, user_id: int, username: str | None) -> None:
        """So that ``/stats @username`` finds them (usernames are unique, case aside)."""
        if not username:
            return
        await self._write(
            "INSERT INTO usernames (username, user_id) VALUES (?, ?) "
            "ON CONFLICT (username) DO UPDATE SET user_id = excluded.user_id",
            (username.lower(), user_id),
        )

    async def user_by_username(self, username: str) -> int | None:
        rows = await self._rows(
            "SELECT user_id FROM usernames WHERE username = ?", (username.lower().lstrip("@"),)
        )
        return rows[0][0] if rows else None

    async def forget(self, user_id: int) -> None:
        """``/forget``: the user's ratings and stats go; the matches they played stay, with
        their name replaced and their id removed. The matches they are playing now play on,
        marked so that they record them the same way when they end
        (:mod:`bot.storage.records`); matches they start later record them as usual."""
        async with self._transaction() as tx:
            # First the running matches, by an update that changes nothing but takes their
            # rows' locks: a match ending at this moment is then either recorded before
            # (and its record is made anonymous below) or after (and reads the mark).
            running = await tx.rows(
                "UPDATE matches SET version = version WHERE status = 'playing' AND id IN "
                "(SELECT match_id FROM seats WHERE user_id = ?) RETURNING id",
                (user_id,),
            )
            for row in running:
                await tx.run(
                    "INSERT INTO forgotten_players (match_id, user_id) VALUES (?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (row[0], user_id),
                )
            await tx.run("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            await tx.run(
                "UPDATE match_players SET user_id = NULL, name = ? WHERE user_id = ?",
                (FORGOTTEN, user_id),
            )
            await tx.run(
                "UPDATE seats SET user_id = 0, name = ? WHERE user_id = ? AND match_id IN "
                "(SELECT id FROM matches WHERE status IN ('finished', 'cancelled'))",
                (FORGOTTEN, user_id),
            )
            await tx.run("DELETE FROM usernames WHERE user_id = ?", (user_id,))
            await tx.run("DELETE FROM lessons WHERE user_id = ?", (user_id,))
