"""Tournaments in the database (SQLite and PostgreSQL): a whole Swiss kept in rows, a restart
in the middle of a round or of pairing losing nothing and pairing nobody twice."""

from __future__ import annotations

import sqlite3
from fractions import Fraction

import asyncpg
import pytest

from bot.storage import Storage, storage_for
from bot.tournaments.formats import standings
from bot.tournaments.model import Bye, ByeKind, Entrant, Round, Rules, Table
from bot.tournaments.pairing import is_over, next_round
from bot.tournaments.standings import points_by_player
from tests.bot.databases import Database, Look
from tests.bot.tournaments.helpers import by_lowest_id

GROUP = -100
SWISS = Rules("swiss", 2, rounds=3)


async def opened(database: Database) -> Storage:
    store = storage_for(database.url, database.path)
    await store.open()
    return store


@pytest.fixture
async def storage(database):
    store = await opened(database)
    yield store
    await store.close()


async def with_entrants(storage: Storage, players: int, rules: Rules = SWISS) -> int:
    tournament_id = await storage.create_tournament(GROUP, 0, 1, "azul", {"players": 2}, rules)
    for player in range(1, players + 1):
        assert await storage.enter_tournament(tournament_id, Entrant(player, player), f"P{player}")
    return tournament_id


async def test_one_tournament_at_a_time_in_a_topic_and_entries_counted_once(storage):
    tournament_id = await with_entrants(storage, 3)
    assert await storage.create_tournament(GROUP, 0, 2, "azul", {}, SWISS) is None
    assert await storage.create_tournament(GROUP, 7, 2, "azul", {}, SWISS) is not None
    assert await storage.active_tournament(GROUP) == tournament_id
    assert not await storage.enter_tournament(tournament_id, Entrant(2, 9), "P2")
    assert await storage.leave_tournament(tournament_id, 3)
    assert not await storage.leave_tournament(tournament_id, 3)
    stored = await storage.tournament(tournament_id)
    assert [e.player for e in stored.state.entrants] == [1, 2]
    assert stored.names == {1: "P1", 2: "P2"} and stored.status == "lobby"
    assert stored.options == {"players": 2} and stored.rated
    # Start pressed twice starts it once; nobody leaves a running tournament through the lobby
    assert await storage.set_tournament_status(tournament_id, "running", ("lobby",))
    assert not await storage.set_tournament_status(tournament_id, "running", ("lobby",))
    assert not await storage.leave_tournament(tournament_id, 2)
    assert await storage.set_tournament_status(tournament_id, "finished", ("running",))
    assert await storage.active_tournament(GROUP) is None


async def play_stored_round(storage: Storage, tournament_id: int, first_match: int) -> None:
    stored = await storage.tournament(tournament_id)
    round_ = next_round(stored.state)
    assert await storage.add_tournament_round(tournament_id, round_)
    for index, table in enumerate(round_.tables):
        match_id = first_match + index
        assert await storage.set_table_match(tournament_id, round_.number, index, match_id)
        heard = await storage.finish_tournament_table(match_id, by_lowest_id(table.players), None)
        assert (heard.tournament_id, heard.round, heard.table_no) == (
            tournament_id,
            round_.number,
            index,
        )
        # the same end heard again (a retry, a restart) counts once
        assert await storage.finish_tournament_table(match_id, (2, 1), None) is None


async def test_a_whole_swiss_of_seven_kept_in_rows_through_restarts(database):
    storage = await opened(database)
    tournament_id = await with_entrants(storage, 7)
    for number in (1, 2, 3):
        await play_stored_round(storage, tournament_id, first_match=100 * number)
        await storage.close()  # a restart after every round
        storage = await opened(database)
    stored = await storage.tournament(tournament_id)
    assert is_over(stored.state)
    rows = standings(stored.state)
    assert rows[0].player == 1 and rows[0].points == 3
    assert sum(row.byes for row in rows) == 3 and max(row.byes for row in rows) == 1
    assert stored.matches[(3, 0)] == 300
    await storage.close()


async def test_a_restart_during_pairing_pairs_nobody_twice(database):
    storage = await opened(database)
    tournament_id = await with_entrants(storage, 5)
    await play_stored_round(storage, tournament_id, first_match=10)
    before = await storage.tournament(tournament_id)
    planned = next_round(before.state)
    # the writing of round 2 fails half-way (a second bye for the same player breaks the
    # table's key after the tables were written): nothing of it stays
    broken = Round(2, planned.tables, (*planned.byes, *planned.byes))
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await storage.add_tournament_round(tournament_id, broken)
    await storage.close()
    storage = await opened(database)
    again = await storage.tournament(tournament_id)
    assert again.state == before.state
    # paired again after the restart: the same round, written once
    assert next_round(again.state) == planned
    assert await storage.add_tournament_round(tournament_id, planned)
    assert not await storage.add_tournament_round(tournament_id, planned)
    look = Look(database)
    assert look.rows("SELECT COUNT(*) FROM tournament_tables WHERE round = 2")[0][0] == 2
    assert look.rows("SELECT COUNT(*) FROM tournament_byes WHERE round = 2")[0][0] == 1
    # a table's match is set once: a second match for the same table is refused
    assert await storage.set_table_match(tournament_id, 2, 0, 21)
    assert not await storage.set_table_match(tournament_id, 2, 0, 22)
    await storage.close()


async def test_late_join_and_withdrawal(storage):
    tournament_id = await with_entrants(storage, 4, Rules("swiss", 2, rounds=4))
    await storage.add_tournament_round(tournament_id, Round(1, (Table((1, 2)), Table((3, 4)))))
    assert await storage.enter_tournament(tournament_id, Entrant(5, 5, late_rounds=1), "Late")
    assert await storage.withdraw_from_tournament(tournament_id, Entrant(4, 4, 0, 1))
    assert not await storage.withdraw_from_tournament(tournament_id, Entrant(4, 4, 0, 2))
    stored = await storage.tournament(tournament_id)
    assert stored.state.entrant(5).late_rounds == 1
    assert stored.state.entrant(4).withdrawn_after == 1
    assert points_by_player(stored.state)[5] == Fraction(1, 2)
    assert await storage.finish_tournament_table(999, (1, 2), None) is None  # no tournament's


async def test_byes_and_game_points_come_back_as_written(storage):
    # (the game's limits come back from its engine: Azul seats 2 to 4)
    rules = Rules("swiss", 4, rounds=2, smallest=2, largest=4)
    tournament_id = await with_entrants(storage, 5, rules)
    round_ = Round(1, (Table((1, 2, 3, 4)),), (Bye(5, ByeKind.FULL),))
    await storage.add_tournament_round(tournament_id, round_)
    await storage.set_table_match(tournament_id, 1, 0, 7)
    await storage.finish_tournament_table(7, (1, 2, 2, 4), (60, 41, 41, 12))
    stored = await storage.tournament(tournament_id)
    assert stored.state.rules == rules
    assert stored.state.rounds[0].byes == (Bye(5, ByeKind.FULL),)
    assert stored.state.rounds[0].tables[0].game_points == (60, 41, 41, 12)
    assert points_by_player(stored.state) == {1: 12, 2: 6, 3: 6, 4: 0, 5: 6}
