"""SQLite storage: WAL, migrations, optimistic versions, the move log."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import MIGRATIONS, Seat, StaleMatch, Storage


@pytest.fixture
async def storage(tmp_path):
    store = Storage(tmp_path / "sub" / "bot.sqlite3")
    await store.open()
    yield store
    await store.close()


async def test_opens_in_wal_mode_and_migrates_to_the_latest_schema(storage, tmp_path):
    assert await storage.schema_version() == len(MIGRATIONS)
    async with storage.db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    assert await storage.integrity_check() == "ok"
    assert (tmp_path / "sub" / "bot.sqlite3").exists()


async def test_reopening_keeps_data_and_does_not_migrate_twice(tmp_path):
    path = tmp_path / "bot.sqlite3"
    first = Storage(path)
    await first.open()
    match = await first.create_lobby(-1, 0, "5211", {"match_target": 0}, 7, "Group")
    await first.close()
    second = Storage(path)
    await second.open()
    loaded = await second.load(match.id)
    assert loaded.game == "5211" and loaded.title == "Group" and loaded.status == "lobby"
    assert await second.schema_version() == len(MIGRATIONS)
    await second.close()


async def test_an_old_database_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 0")
    store = Storage(path)
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_one_active_match_per_chat_topic(storage):
    assert await storage.create_lobby(-1, 0, "5211", {}, 7) is not None
    assert await storage.create_lobby(-1, 0, "5211", {}, 8) is None
    assert await storage.create_lobby(-1, 5, "5211", {}, 8) is not None  # another topic
    assert await storage.create_lobby(-2, 0, "5211", {}, 8) is not None  # another group


async def test_a_move_bumps_the_version_and_is_logged_once(storage):
    match = await storage.create_lobby(-1, 0, "5211", {}, 7)
    match.seats = [Seat(0, 7, "Ann"), Seat(1, 8, "Ben")]
    match.state = {"anything": [1, 2]}
    match.status = "playing"
    await storage.save(match, move=(-1, "start"))
    await storage.save(match, move=(0, "3.4"))
    assert match.version == 2
    loaded = await storage.load(match.id)
    assert loaded.version == 2 and loaded.state == {"anything": [1, 2]}
    assert [seat.name for seat in loaded.seats] == ["Ann", "Ben"]
    assert await storage.moves(match.id) == [(1, -1, "start"), (2, 0, "3.4")]


async def test_a_save_from_a_stale_copy_is_refused(storage):
    match = await storage.create_lobby(-1, 0, "5211", {}, 7)
    copy_a = await storage.load(match.id)
    copy_b = await storage.load(match.id)
    await storage.save(copy_a, move=(0, "1"))
    with pytest.raises(StaleMatch):
        await storage.save(copy_b, move=(1, "2"))
    assert await storage.moves(match.id) == [(1, 0, "1")]


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
