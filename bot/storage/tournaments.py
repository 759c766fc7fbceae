"""A tournament's rows: its header, entrants, rounds, tables and byes. Part of the storage
contract (:class:`bot.storage.Storage` inherits it), on its primitives (``_rows``, ``_run``,
``_transaction``), the same SQL for both backends.

What survives a restart, and how nothing happens twice: a round is written with all its
tables and byes in one transaction, and only if its number is new (a second pairing of the
same round, after a restart in the middle of one, writes nothing); a table's result is set
only while it is still empty (a match's end heard twice counts once); an entrant is added
once. The rules live in the core, not here: an entrant, a withdrawal, a table's result and
the seeds are written as the core made them (``bot.tournaments.entries``).
:meth:`TournamentStore.tournament` builds the pure core's state back from the rows (the
game's table limits from its engine; AI seats are never entrants).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.model import Match
from bot.tournaments import formats
from bot.tournaments.model import (
    Bye,
    ByeKind,
    Entrant,
    Round,
    Rules,
    Table,
    TieBreak,
    Tournament,
    is_bot,
)
from games import get_engine

ACTIVE_TOURNAMENT = ("lobby", "running")


@dataclass(frozen=True)
class StoredTournament:
    """A tournament as stored: where it runs, who made it and how, and its pure state."""

    id: int
    chat_id: int
    thread_id: int
    creator_id: int
    game: str
    options: dict[str, Any]
    turn_seconds: int
    with_bots: bool
    starts_at: float | None
    status: str  # lobby, running, finished, cancelled
    message_id: int | None
    names: dict[int, str]
    state: Tournament
    matches: dict[tuple[int, int], int]  # (round, table index) -> the table's match
    told: frozenset[int] = frozenset()  # the rounds whose pairings message went out

    @property
    def rated(self) -> bool:
        """Tournaments with AI seats are not rated."""
        return not self.with_bots


@dataclass(frozen=True)
class HeardResult:
    """A table's result, just written: whose tournament and round it was."""

    tournament_id: int
    round: int
    table_no: int


class TournamentStore:
    """Tournaments' reads and writes: mixed into :class:`bot.storage.Storage`."""

    async def create_tournament(
        self,
        chat_id: int,
        thread_id: int,
        creator_id: int,
        game: str,
        options: dict[str, Any],
        rules: Rules,
        turn_seconds: int = 0,
        with_bots: bool = False,
        starts_at: float | None = None,
    ) -> int | None:
        """A new tournament in its lobby, or None if this topic already has an active one."""
        formats.check(rules)
        now = time.time()
        rows = await self._rows(
            "INSERT INTO tournaments (chat_id, thread_id, creator_id, game, options, format, "
            "table_size, rounds, advance, turn_seconds, with_bots, starts_at, tie_breaks, "
            "status, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING id",
            (
                chat_id,
                thread_id,
                creator_id,
                game,
                json.dumps(options, sort_keys=True),
                rules.format,
                rules.table_size,
                rules.rounds,
                rules.advance,
                turn_seconds,
                with_bots,
                starts_at,
                _tie_breaks(rules),
                now,
                now,
            ),
        )
        return rows[0][0] if rows else None

    async def active_tournament(self, chat_id: int, thread_id: int = 0) -> int | None:
        rows = await self._rows(
            "SELECT id FROM tournaments WHERE chat_id = ? AND thread_id = ? "
            "AND status IN ('lobby', 'running')",
            (chat_id, thread_id),
        )
        return rows[0][0] if rows else None

    async def tournament(self, tournament_id: int) -> StoredTournament | None:
        async with self._transaction() as tx:  # one consistent read of all its rows
            head = await tx.rows("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            if not head:
                return None
            entrants = await tx.rows(
                "SELECT user_id, name, seed, late_rounds, withdrawn_after "
                "FROM tournament_entrants WHERE tournament_id = ? ORDER BY seed",
                (tournament_id,),
            )
            rounds = await tx.rows(
                "SELECT number, message_id FROM tournament_rounds WHERE tournament_id = ? "
                "ORDER BY number",
                (tournament_id,),
            )
            tables = await tx.rows(
                "SELECT round, table_no, players, match_id, places, game_points "
                "FROM tournament_tables WHERE tournament_id = ? ORDER BY round, table_no",
                (tournament_id,),
            )
            byes = await tx.rows(
                "SELECT round, user_id, kind FROM tournament_byes WHERE tournament_id = ? "
                "ORDER BY round, user_id",
                (tournament_id,),
            )
        return _built(head[0], entrants, rounds, tables, byes)

    async def enter_tournament(self, tournament_id: int, entrant: Entrant, name: str) -> bool:
        """Writes the entrant as the core made them (``entries.enter``: their seed, the
        rounds they missed); False if they were in already."""
        return (
            await self._run(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed, "
                "late_rounds) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tournament_id, entrant.player, name, entrant.seed, entrant.late_rounds),
            )
            == 1
        )

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Out of a tournament still in its lobby; False if they were not in it."""
        return (
            await self._run(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? "
                "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'lobby')",
                (tournament_id, user_id, tournament_id),
            )
            == 1
        )

    async def withdraw_from_tournament(self, tournament_id: int, entrant: Entrant) -> bool:
        """Writes a withdrawal as the core made it (``entries.withdraw``: the last round
        they are in); False if they were not in it or had withdrawn already."""
        return (
            await self._run(
                "UPDATE tournament_entrants SET withdrawn_after = ? WHERE tournament_id = ? "
                "AND user_id = ? AND withdrawn_after IS NULL",
                (entrant.withdrawn_after, tournament_id, entrant.player),
            )
            == 1
        )

    async def set_tournament_status(
        self, tournament_id: int, status: str, expected: Sequence[str]
    ) -> bool:
        """Moves the tournament on (lobby → running → finished, or cancelled) only from one of
        the ``expected`` statuses: two presses of Start start it once."""
        marks = ", ".join("?" for _ in expected)
        return (
            await self._run(
                f"UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ? "
                f"AND status IN ({marks})",
                (status, time.time(), tournament_id, *expected),
            )
            == 1
        )

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        await self._run(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )

    async def add_tournament_round(self, tournament_id: int, round_: Round) -> bool:
        """Writes a round with its tables and byes, all or nothing; False (and nothing
        written) if this round was written before."""
        async with self._transaction() as tx:
            new = await tx.rows(
                "INSERT INTO tournament_rounds (tournament_id, number, started_at) "
                "VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING number",
                (tournament_id, round_.number, time.time()),
            )
            if not new:
                return False
            for index, table in enumerate(round_.tables):
                await tx.run(
                    "INSERT INTO tournament_tables (tournament_id, round, table_no, players) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament_id, round_.number, index, json.dumps(list(table.players))),
                )
            for bye in round_.byes:
                await tx.run(
                    "INSERT INTO tournament_byes (tournament_id, round, user_id, kind) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament_id, round_.number, bye.player, bye.kind.value),
                )
        return True

    async def set_table_match(
        self, tournament_id: int, round_number: int, table_no: int, match_id: int
    ) -> bool:
        """The match opened for a table; False if the table has one already."""
        return (
            await self._run(
                "UPDATE tournament_tables SET match_id = ? WHERE tournament_id = ? AND round = ? "
                "AND table_no = ? AND match_id IS NULL",
                (match_id, tournament_id, round_number, table_no),
            )
            == 1
        )

    async def finish_tournament_table(
        self, match_id: int, places: Sequence[int], game_points: Sequence[int] | None
    ) -> HeardResult | None:
        """A tournament match ended: its table's places and game scores. None if the match is
        no tournament's, or its result was heard before."""
        rows = await self._rows(
            "UPDATE tournament_tables SET places = ?, game_points = ? "
            "WHERE match_id = ? AND places IS NULL RETURNING tournament_id, round, table_no",
            (
                json.dumps(list(places)),
                None if game_points is None else json.dumps(list(game_points)),
                match_id,
            ),
        )
        return HeardResult(rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def create_tournament_match(
        self,
        tournament_id: int,
        chat_id: int,
        thread_id: int,
        game: str,
        options: dict,
        creator_id: int,
        title: str,
        turn_seconds: int,
    ) -> Match:
        """A table's match, as a lobby to be seated and started at once (a tournament's
        matches are not the one match of their topic)."""
        now = time.time()
        args = (chat_id, thread_id, title, game, json.dumps(options), turn_seconds, creator_id,
                tournament_id, now, now)  # fmt: skip
        rows = await self._rows(
            "INSERT INTO matches (chat_id, thread_id, title, game, options, turn_seconds, "
            "status, creator_id, tournament_id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING id",
            args,
        )
        return await self.load(rows[0][0])

    async def set_tournament_setup(
        self,
        tournament_id: int,
        rules: Rules,
        turn_seconds: int,
        with_bots: bool,
        starts_at: float | None,
        options: dict[str, Any] | None = None,
    ) -> bool:
        """The creator's choices (the game's options too, when given), while the tournament
        is still in its lobby."""
        formats.check(rules)
        if options is not None:
            await self._run(
                "UPDATE tournaments SET options = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(options, sort_keys=True), tournament_id),
            )
        return (
            await self._run(
                "UPDATE tournaments SET format = ?, table_size = ?, rounds = ?, advance = ?, "
                "tie_breaks = ?, turn_seconds = ?, with_bots = ?, starts_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'lobby'",
                (
                    rules.format,
                    rules.table_size,
                    rules.rounds,
                    rules.advance,
                    _tie_breaks(rules),
                    turn_seconds,
                    with_bots,
                    starts_at,
                    time.time(),
                    tournament_id,
                ),
            )
            == 1
        )

    async def set_round_message(self, tournament_id: int, number: int, message_id: int) -> None:
        """A round's pairings message went out (told once, after a restart too)."""
        await self._run(
            "UPDATE tournament_rounds SET message_id = ? WHERE tournament_id = ? AND number = ?",
            (message_id, tournament_id, number),
        )

    async def set_tournament_seeds(self, tournament_id: int, seeds: dict[int, int]) -> None:
        """The entrants' seeds as the core ordered them (an elimination's, by rating)."""
        async with self._transaction() as tx:
            for user_id, seed in seeds.items():
                await tx.run(
                    "UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? "
                    "AND user_id = ?",
                    (seed, tournament_id, user_id),
                )

    async def tournaments_of(self, user_id: int) -> list[int]:
        """The active tournaments a player is in (and has not withdrawn from)."""
        rows = await self._rows(
            "SELECT t.id FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id "
            "WHERE e.user_id = ? AND e.withdrawn_after IS NULL "
            "AND t.status IN ('lobby', 'running') ORDER BY t.id",
            (user_id,),
        )
        return [row[0] for row in rows]

    async def due_tournaments(self, now: float) -> list[int]:
        """Tournaments in their lobby whose start time has come."""
        rows = await self._rows(
            "SELECT id FROM tournaments WHERE status = 'lobby' AND starts_at IS NOT NULL "
            "AND starts_at <= ? ORDER BY id",
            (now,),
        )
        return [row[0] for row in rows]

    async def running_tournaments(self) -> list[int]:
        """Tournaments to pick up after a restart: in their lobby or running."""
        rows = await self._rows(
            "SELECT id FROM tournaments WHERE status IN ('lobby', 'running') ORDER BY id"
        )
        return [row[0] for row in rows]


def _tie_breaks(rules: Rules) -> str:
    return ",".join(kind.value for kind in rules.tie_breaks)


def _built(head, entrants, rounds, tables, byes) -> StoredTournament:
    engine = get_engine(head["game"])
    order = head["tie_breaks"] or ""
    rules = Rules(
        head["format"],
        head["table_size"],
        rounds=head["rounds"],
        advance=head["advance"],
        smallest=engine.min_players,
        largest=engine.max_players,
        bots=bool(head["with_bots"]),
        tie_breaks=tuple(TieBreak(kind) for kind in order.split(",") if kind),
    )
    # AI seats are never entrants (a tournament stored before they stopped being: skipped)
    entrants = [row for row in entrants if not is_bot(row["user_id"])]
    tables_of: dict[int, list[Table]] = {}
    matches: dict[tuple[int, int], int] = {}
    for row in tables:
        places = json.loads(row["places"]) if row["places"] is not None else None
        points = json.loads(row["game_points"]) if row["game_points"] is not None else None
        tables_of.setdefault(row["round"], []).append(
            Table(
                tuple(json.loads(row["players"])),
                tuple(places) if places is not None else None,
                tuple(points) if points is not None else None,
            )
        )
        if row["match_id"] is not None:
            matches[(row["round"], row["table_no"])] = row["match_id"]
    byes_of: dict[int, list[Bye]] = {}
    for row in byes:
        byes_of.setdefault(row["round"], []).append(Bye(row["user_id"], ByeKind(row["kind"])))
    state = Tournament(
        rules,
        tuple(
            Entrant(row["user_id"], row["seed"], row["late_rounds"], row["withdrawn_after"])
            for row in entrants
        ),
        tuple(
            Round(row[0], tuple(tables_of.get(row[0], ())), tuple(byes_of.get(row[0], ())))
            for row in rounds
        ),
    )
    return StoredTournament(
        id=head["id"],
        chat_id=head["chat_id"],
        thread_id=head["thread_id"],
        creator_id=head["creator_id"],
        game=head["game"],
        options=json.loads(head["options"]),
        turn_seconds=head["turn_seconds"],
        with_bots=bool(head["with_bots"]),
        starts_at=head["starts_at"],
        status=head["status"],
        message_id=head["message_id"],
        names={row["user_id"]: row["name"] for row in entrants},
        state=state,
        matches=matches,
        told=frozenset(row[0] for row in rounds if row[1] is not None),
    )
