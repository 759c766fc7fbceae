"""Storage, on SQLite and on PostgreSQL: migrations, optimistic versions, the move log, the
public log kept out of the state row, group commit, and one instance at a time."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3

import pytest

from bot.presentation.i18n import translator
from bot.storage import (
    InstanceRunning,
    Seat,
    StaleMatch,
    Storage,
    StorageUnavailable,
    storage_for,
)
from bot.storage.migrations import postgres as postgres_migrations
from bot.storage.migrations import sqlite as sqlite_migrations
from bot.storage.sqlite import SQLiteStorage, lock_path
from bot.table.host import get_host
from games import get_engine
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, OTHER_GROUP, running_bot
from tests.bot.databases import BEFORE_EVENTS, Database, Look
from tests.bot.helpers import current_match
from tests.bot.play5211 import card_buttons, choose, has_choice, prompt, start_game


def storage_of(database: Database) -> Storage:
    return storage_for(database.url, database.path)


@pytest.fixture
async def storage(database):
    store = storage_of(database)
    await store.open()
    yield store
    await store.close()


def migrations_of(database: Database) -> list[str]:
    return (postgres_migrations if database.url else sqlite_migrations).MIGRATIONS


async def playing(storage: Storage, chat: int = -1, state: dict | None = None):
    match = await storage.create_lobby(chat, 0, "5211", {}, 7)
    match.seats = [Seat(0, 7, "Ann"), Seat(1, 8, "Ben")]
    match.state = state if state is not None else {"anything": [1, 2], "log": [{"type": "a"}]}
    match.status = "playing"
    await storage.save(match, move=(-1, "start"))
    return match


async def test_opens_and_migrates_to_the_latest_schema(storage, database):
    assert await storage.schema_version() == len(migrations_of(database))
    if database.backend == "sqlite":
        assert database.path.exists()
        assert Look(database).rows("PRAGMA journal_mode") == [("wal",)]
        assert await storage.integrity_check() == "ok"


async def test_reopening_keeps_data_and_does_not_migrate_twice(database):
    first = storage_of(database)
    await first.open()
    match = await first.create_lobby(-1, 0, "5211", {"match_target": 0}, 7, "Group")
    await first.close()
    second = storage_of(database)
    await second.open()
    loaded = await second.load(match.id)
    assert loaded.game == "5211" and loaded.title == "Group" and loaded.status == "lobby"
    assert loaded.options == {"match_target": 0}
    assert await second.schema_version() == len(migrations_of(database))
    await second.close()


async def test_one_active_match_per_chat_topic(storage):
    assert await storage.create_lobby(-1, 0, "5211", {}, 7) is not None
    assert await storage.create_lobby(-1, 0, "5211", {}, 8) is None
    assert await storage.create_lobby(-1, 5, "5211", {}, 8) is not None  # another topic
    assert await storage.create_lobby(-2, 0, "5211", {}, 8) is not None  # another group


async def test_a_move_bumps_the_version_and_is_logged_once(storage, database):
    match = await playing(storage)
    match.state = {**match.state, "log": [*match.state["log"], {"type": "b"}]}
    await storage.save(match, move=(0, "3.4"))
    assert match.version == 2
    storage._matches.clear()  # read the database, not the cache
    loaded = await storage.load(match.id)
    assert loaded.version == 2
    assert loaded.state == {"anything": [1, 2], "log": [{"type": "a"}, {"type": "b"}]}
    assert [seat.name for seat in loaded.seats] == ["Ann", "Ben"]
    assert await storage.moves(match.id) == [(1, -1, "start"), (2, 0, "3.4")]
    assert await storage.events(match.id) == [{"type": "a"}, {"type": "b"}]


async def test_the_state_row_keeps_the_logs_length_and_each_event_is_written_once(
    storage, database
):
    match = await playing(storage, state={"turn": 0, "log": []})
    look = Look(database)
    rows = []
    for turn in range(1, 30):
        entries = [{"type": "move", "turn": turn, "text": "x" * 50}] * (turn % 3)
        match.state = {"turn": turn, "log": match.state["log"] + entries}
        await storage.save(match, move=(turn % 2, str(turn)))
        (row,) = look.rows("SELECT state FROM matches WHERE id = ?", (match.id,))[0]
        rows.append(row)
    events = look.rows("SELECT seq FROM events WHERE match_id = ? ORDER BY seq", (match.id,))
    assert [seq for (seq,) in events] == list(range(len(match.state["log"])))  # each once
    assert json.loads(rows[-1]) == {"turn": 29, "log": len(match.state["log"])}
    assert max(len(row) for row in rows) <= len(rows[0]) + 3  # the row does not grow
    assert look.state(match.id) == match.state
    look.close()


async def test_a_save_from_a_stale_copy_is_refused_and_writes_nothing(storage):
    match = await playing(storage)
    copy_a = await storage.load(match.id)
    copy_b = await storage.load(match.id)
    copy_a.state = {**copy_a.state, "log": [*copy_a.state["log"], {"type": "a2"}]}
    await storage.save(copy_a, move=(0, "1"))
    copy_b.state = {**copy_b.state, "log": [*copy_b.state["log"], {"type": "b2"}]}
    with pytest.raises(StaleMatch):
        await storage.save(copy_b, move=(1, "2"), notices=[("timer.timeout", {"x": 1})])
    assert await storage.moves(match.id) == [(1, -1, "start"), (2, 0, "1")]
    assert await storage.events(match.id) == [{"type": "a"}, {"type": "a2"}]
    assert await storage.unsent_notices(match.id) == []
    assert (await storage.load(match.id)).state == copy_a.state


async def test_a_lobby_loses_the_seats_of_players_who_left(storage):
    match = await storage.create_lobby(-1, 0, "5211", {}, 7)
    match.seats = [Seat(0, 7, "Ann"), Seat(1, 8, "Ben"), Seat(2, 9, "Cy")]
    await storage.save(match)
    match.seats = match.seats[:1]
    await storage.save(match)
    storage._matches.clear()
    assert [seat.name for seat in (await storage.load(match.id)).seats] == ["Ann"]


async def test_seat_fields_round_trip(storage):
    match = await playing(storage)
    seat = match.seats[1]
    seat.draft, seat.deadline, seat.reminded, seat.autopilot = {"selected": [1, 2]}, 5.5, True, True
    seat.timeouts, seat.draft_step, seat.waiting_since, seat.clock_offered = 2, 3, 4.25, True
    await storage.save(match)
    seat.prompt_message_id, seat.prompt_text, seat.prompt_token = 77, "k:abc", 1
    await storage.save_seat_display(match.id, seat)
    storage._matches.clear()
    loaded = (await storage.load(match.id)).seats[1]
    assert loaded == seat


async def test_user_and_chat_preferences(storage):
    await storage.remember_user(5, "Ann")
    assert (await storage.user(5)).can_message is False
    await storage.remember_user(5, "Ann B", can_message=True)
    await storage.remember_user(5, "Ann B")  # not knowing does not forget
    user = await storage.user(5)
    assert user.name == "Ann B" and user.can_message is True
    await storage.set_user_lang(5, "Ann B", "it")
    assert (await storage.user(5)).lang == "it"
    assert await storage.chat_lang(-9) is None
    await storage.set_chat_lang(-9, "uk")
    assert await storage.chat_lang(-9) == "uk"
    await storage.set_can_message(5, False)
    storage._users.clear()
    assert (await storage.user(5)).can_message is False


async def test_deadlines_due_are_found_in_the_database(storage):
    match = await playing(storage)
    match.seats[0].deadline = 100.0
    await storage.save(match)
    assert await storage.due_matches(99.0, 0) == []
    assert await storage.due_matches(100.0, 0) == [match.id]


async def test_concurrent_saves_are_committed_together_and_a_stale_one_spoils_none(storage):
    matches = [await playing(storage, chat=-100 - n) for n in range(20)]
    stale = await storage.load(matches[0].id)
    trips = storage.stats.round_trips
    outcomes = await asyncio.gather(
        *(storage.save(match, move=(0, "1")) for match in matches),
        storage.save(stale, move=(1, "2")),
        return_exceptions=True,
    )
    trips = storage.stats.round_trips - trips
    assert all(outcome is None for outcome in outcomes[:-1])
    assert isinstance(outcomes[-1], StaleMatch)
    for match in matches:
        assert await storage.moves(match.id) == [(1, -1, "start"), (2, 0, "1")]
    # many saves share a hand-off to the database thread, or a round trip to the server
    assert trips <= 3


async def test_a_save_that_fails_in_a_batch_fails_alone(storage):
    """Saves committed together, one of them broken (it would write its log entries over
    ones already there): that one fails with its error, every other is committed once,
    with its notices in order, and the broken one writes nothing."""
    matches = [await playing(storage, chat=-300 - n) for n in range(6)]
    broken = await storage.load(matches[2].id)
    broken.state = {**broken.state, "log": [*broken.state["log"], {"type": "again"}]}
    broken.logged = 0  # its entries from the first on: the first is in the database already
    saves = []
    for match in matches:
        copy = broken if match.id == broken.id else match
        copy.state = {**copy.state, "log": [*copy.state["log"], {"type": "b"}]}
        notices = [("timer.timeout", {"n": 1}), ("timer.timeout", {"n": 2})]
        saves.append(storage.save(copy, move=(0, "1"), notices=notices))
    outcomes = await asyncio.gather(*saves, return_exceptions=True)
    failed = outcomes.pop(2)
    assert isinstance(failed, Exception)
    assert not isinstance(failed, StaleMatch | StorageUnavailable)
    assert outcomes == [None] * 5
    storage._matches.clear()
    for match in matches:
        loaded = await storage.load(match.id)
        if match.id == broken.id:
            assert loaded.version == 1
            assert await storage.moves(match.id) == [(1, -1, "start")]
            assert await storage.events(match.id) == [{"type": "a"}]
            assert await storage.unsent_notices(match.id) == []
            continue
        assert loaded.version == 2
        assert await storage.moves(match.id) == [(1, -1, "start"), (2, 0, "1")]
        assert await storage.events(match.id) == [{"type": "a"}, {"type": "b"}]
        notices = await storage.unsent_notices(match.id)
        assert [notice.params for notice in notices] == [{"n": 1}, {"n": 2}]


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_hung_server_fails_every_save_of_a_batch_and_writes_none_of_them(
    storage, postgres_server
):
    """Saves sent together while the server hangs: each caller is told the storage does not
    answer; the server, once it resumes, finds their deadline passed and writes none of
    them; play goes on from the versions the players were shown."""
    matches = [await playing(storage, chat=-400 - n) for n in range(5)]
    for match in matches:
        match.state = {**match.state, "log": [*match.state["log"], {"type": "b"}]}
    with postgres_server.frozen():
        outcomes = await asyncio.gather(
            *(storage.save(match, move=(0, "1")) for match in matches), return_exceptions=True
        )
    assert all(isinstance(outcome, StorageUnavailable) for outcome in outcomes), outcomes
    while storage.out_of_service:  # the lock watch hears the server again
        await asyncio.sleep(0.1)
    storage._matches.clear()
    for match in matches:
        loaded = await storage.load(match.id)
        assert loaded.version == 1
        assert await storage.moves(match.id) == [(1, -1, "start")]
        assert await storage.events(match.id) == [{"type": "a"}]
        loaded.state = {**loaded.state, "log": [*loaded.state["log"], {"type": "c"}]}
        await storage.save(loaded, move=(1, "2"))
        assert await storage.moves(match.id) == [(1, -1, "start"), (2, 1, "2")]


async def test_a_second_instance_waits_until_the_first_closes(storage, database, caplog):
    with pytest.raises(InstanceRunning):
        await storage_of(database).open(wait_for_lock=False)
    second = storage_of(database)
    waiting = asyncio.create_task(second.open())
    await asyncio.sleep(1.0)
    assert not waiting.done()
    assert "another bot instance is running" in caplog.text
    if database.backend == "sqlite":
        assert lock_path(database.path).read_text().strip() == str(os.getpid())
    await storage.close()
    await asyncio.wait_for(waiting, 5)
    assert await second.schema_version() == len(migrations_of(database))
    await second.close()
    await storage.open()  # for the fixture's close


async def test_closing_while_waiting_for_the_lock_stops_waiting(storage, database):
    second = storage_of(database)
    waiting = asyncio.create_task(second.open())
    await asyncio.sleep(0.2)
    await second.close()
    assert waiting.done() and waiting.cancelled()


async def test_the_cache_always_matches_the_database_through_a_whole_game(api, database):
    """Copies of a match share its state (engines never change a state in place): through a
    whole game played by the bot, what the cache hands out is what the database holds."""
    look = Look(database)
    players = [ALICE, BOB, CAROL]
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, players)
        storage = get_host(driver.app).storage
        for _ in range(200):
            match = await current_match(driver)
            assert look.state(match.id) == match.state
            assert look.rows("SELECT version FROM matches WHERE id = ?", (match.id,)) == [
                (match.version,)
            ]
            waiting = [player for player in players if has_choice(driver, player)]
            if not waiting:
                break
            await choose(driver, waiting[0])
        assert match.status == "finished" and get_engine("5211").is_over(match.state)
        assert len(await storage.moves(match.id)) == match.version
    look.close()


async def test_an_old_sqlite_database_with_the_log_in_the_state_is_upgraded(tmp_path):
    """A database of the release before the events table: its logs move out of the state
    rows, and every match loads as before."""
    path = tmp_path / "old.sqlite3"
    state = {"seed": 1, "log": [{"type": "deal", "n": 1}, {"type": "bid", "n": 2}]}
    with sqlite3.connect(path) as raw:
        for script in sqlite_migrations.MIGRATIONS[:BEFORE_EVENTS]:
            raw.executescript(script)
        raw.execute(f"PRAGMA user_version = {BEFORE_EVENTS}")
        raw.execute(
            "INSERT INTO matches (chat_id, game, options, status, creator_id, version, state, "
            "created_at, updated_at) VALUES (-1, '5211', '{}', 'playing', 7, 3, ?, 0, 0)",
            (json.dumps(state),),
        )
    store = SQLiteStorage(path)
    await store.open()
    assert await store.schema_version() == len(sqlite_migrations.MIGRATIONS)
    assert (await store.load(1)).state == state
    assert await store.events(1) == state["log"]
    await store.close()


async def test_random_saves_and_reads_agree_with_a_model(storage):
    """Many interleaved saves (some stale) on a few matches: what loads is what was last
    committed, the moves are those of the successful saves, and the log is whole."""
    rng = random.Random(5)
    matches = [await playing(storage, chat=-200 - n) for n in range(3)]
    expected_moves = {match.id: [(1, -1, "start")] for match in matches}
    for step in range(60):
        match = rng.choice(matches)
        copy = await storage.load(match.id)
        copy.state = {**copy.state, "log": [*copy.state["log"], {"step": step}]}
        copy.seats[rng.randrange(2)].timeouts = step
        if rng.random() < 0.2:
            stale = await storage.load(match.id)
            await storage.save(copy, move=(0, str(step)))
            with pytest.raises(StaleMatch):
                await storage.save(stale, move=(1, "stale"))
        else:
            await storage.save(copy, move=(0, str(step)))
        expected_moves[match.id].append((copy.version, 0, str(step)))
    storage._matches.clear()
    for match in matches:
        loaded = await storage.load(match.id)
        assert await storage.moves(match.id) == expected_moves[match.id]
        assert await storage.events(match.id) == loaded.state["log"]
        assert loaded.version == len(expected_moves[match.id])


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_full_disk_fails_a_write_as_storage_unavailable_and_undoes_its_batch(storage):
    """No room left: the file may not grow (its page limit stands in for the disk) and the
    free space in its pages is filled, down to rows of a few bytes; every write that needs
    room is refused as the storage not answering (the player is told to try again), and the
    writes committed with it in one batch are undone with it, never half kept."""
    pages = (await storage._rows("PRAGMA page_count"))[0][0]
    await storage._run("CREATE TABLE filler (junk BLOB)")
    await storage._rows(f"PRAGMA max_page_count = {pages + 1}")
    for size in (4000, 400, 40, 4):
        with pytest.raises(StorageUnavailable, match="full"):
            for _ in range(100_000):
                await storage._run("INSERT INTO filler VALUES (randomblob(?))", (size,))
    rows = (await storage._rows("SELECT COUNT(*) FROM filler"))[0][0]
    together = await asyncio.gather(
        storage._run("INSERT INTO filler VALUES (randomblob(1))"),
        storage._run("INSERT INTO filler VALUES (randomblob(4000))"),
        return_exceptions=True,
    )
    assert all(isinstance(outcome, StorageUnavailable) for outcome in together)
    assert (await storage._rows("SELECT COUNT(*) FROM filler"))[0][0] == rows
    await storage._rows("PRAGMA max_page_count = 1000000")  # room again
    assert await storage._run("INSERT INTO filler VALUES (randomblob(4000))") == 1


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_running_match_s_group_learns_of_an_outage_once_and_of_its_end(api, database):
    """While the database refuses writes, the group of the running match gets one notice
    (not one per press), found without asking the database; a group with only a lobby
    hears nothing; the first write that commits again turns the notice into "play on", and
    the next outage is told again."""
    en = translator("en")
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        driver.group(OTHER_GROUP, "Office")
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        await driver.send(CAROL, OTHER_GROUP, "/new")  # a lobby: no match running there
        lobby_messages = len(api.visible(OTHER_GROUP))
        host = get_host(driver.app)
        storage = host.storage

        def notices() -> list:
            return [
                m for m in api.visible(GROUP) if m.html in (en("outage.started"), en("outage.over"))
            ]

        for outage in range(2):
            await storage._rows("PRAGMA query_only = ON")
            waiting = [player for player in (ALICE, BOB) if has_choice(driver, player)]
            for player in waiting * 2:
                hand = prompt(driver, player)
                first_card = card_buttons(hand)[0]["callback_data"]
                answer = await driver.press(player, player.id, hand.message_id, first_card)
                assert answer == en("error.storage")
            await host.outage.idle()
            assert [m.html for m in notices()][outage:] == [en("outage.started")]
            await storage._rows("PRAGMA query_only = OFF")
            assert await choose(driver, waiting[0]) != en("error.storage")
            await host.outage.idle()
            assert [m.html for m in notices()][outage:] == [en("outage.over")]
            assert notices()[outage].edits == 1  # the same message, edited
        assert len(api.visible(OTHER_GROUP)) == lobby_messages


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_read_only_database_refuses_a_move_with_a_clear_answer_and_play_goes_on(
    api, database
):
    """The database turns read-only mid-game (a remounted volume): the press is told the
    storage is not answering and no move was made; once it is writable the same choice is
    made."""
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, ALICE, [ALICE, BOB])
        storage = get_host(driver.app).storage
        version = (await current_match(driver)).version
        await storage._rows("PRAGMA query_only = ON")
        storage_down = translator("en")("error.storage")
        hand = prompt(driver, ALICE)
        first_card = card_buttons(hand)[0]["callback_data"]
        assert await driver.press(ALICE, ALICE.id, hand.message_id, first_card) == storage_down
        assert (await current_match(driver)).version == version
        await storage._rows("PRAGMA query_only = OFF")
        assert await choose(driver, ALICE) != storage_down
        assert (await current_match(driver)).version == version + 1
