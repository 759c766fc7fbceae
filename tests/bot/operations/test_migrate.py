"""``python -m bot.migrate``: a database made by the release before this one (the log inside
the state rows) moves to PostgreSQL whole, the game goes on there, and copying again changes
nothing."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.operations import migrate as migrate_module
from bot.storage.migrations.postgres import WORKERS_ONLY, WORKERS_ONLY_COLUMNS
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage
from bot.table.host import get_host
from tests.bot.conftest import ALICE, BOB, CAROL, GROUP, OTHER_GROUP, running_bot
from tests.bot.databases import BEFORE_EVENTS, UNDO_INLINE_TABLES, UNDO_TOURNAMENTS, Database, Look
from tests.bot.helpers import current_match
from tests.bot.play5211 import choose, has_choice, play_to_the_end, start_game
from tests.bot.process import ROOT

TABLES = ("chats", "users", "matches", "seats", "moves", "events", "notices", "match_records",
          "match_players", "ratings", "usernames", "forgotten_players", "bot_flags", "tournaments",
          "tournament_entrants", "tournament_rounds", "tournament_tables",
          "tournament_byes", "season_ratings", "season_podiums", "tutorial_steps",
          "lessons")  # fmt: skip


def as_released_before(path: Path) -> None:
    """Rewrite a database in the schema before the events table (and so before the match
    records and ratings, which come after it): every match's log back inside its state row,
    no events table, no match records or ratings."""
    with sqlite3.connect(path) as db:
        for match_id, text in db.execute("SELECT id, state FROM matches").fetchall():
            if text is None:
                continue
            events = db.execute(
                "SELECT event FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
            state = json.loads(text)
            state["log"] = [json.loads(event) for (event,) in events]
            db.execute("UPDATE matches SET state = ? WHERE id = ?", (json.dumps(state), match_id))
        db.execute("DROP TABLE events")
        for table in (
            "match_players",
            "match_records",
            "ratings",
            "usernames",
            "forgotten_players",
            "bot_flags",
        ):
            db.execute(f"DROP TABLE {table}")
        db.execute("ALTER TABLE chats DROP COLUMN leaderboard")
        for statement in (*UNDO_TOURNAMENTS, *UNDO_INLINE_TABLES):  # nor the later migrations
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {BEFORE_EVENTS}")


async def migrate(source: Path, url: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.migrate", "--to", url, "--from", str(source),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


def dump(look: Look) -> dict[str, list]:
    """Every row of the bot's tables, but for the workers' bookkeeping (a match's revision
    counts writes, and a copy again writes its rows again)."""
    dumped = {}
    for table in TABLES:
        columns = [
            name
            for (name,) in look.rows(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND table_schema = current_schema() ORDER BY ordinal_position",
                (table,),
            )
            if (table, name) not in WORKERS_ONLY_COLUMNS
        ]
        dumped[table] = sorted(map(repr, look.rows(f"SELECT {', '.join(columns)} FROM {table}")))
    return dumped


async def test_a_database_of_the_last_release_moves_to_postgres_and_play_goes_on(
    api, tmp_path, postgres_server
):
    source = tmp_path / "bot.sqlite3"
    players = [ALICE, BOB, CAROL]
    async with running_bot(api, source) as driver:
        driver.group(GROUP, "Game Night")
        driver.group(OTHER_GROUP, "Office")
        await get_host(driver.app).storage.set_chat_lang(OTHER_GROUP, "it")
        await start_game(driver, GROUP, ALICE, players)
        for _ in range(4):
            await choose(driver, next(p for p in players if has_choice(driver, p)))
        await driver.send(BOB, OTHER_GROUP, "/new 5211")  # an open lobby too
        before = await current_match(driver)
    as_released_before(source)
    fingerprint = hashlib.sha256(source.read_bytes()).hexdigest()

    target = Database("postgres", tmp_path / "pg", postgres_server.url_of(
        await postgres_server.create_database()))  # fmt: skip
    status, out, err = await migrate(source, target.url)
    assert status == 0, err
    counts = json.loads(out)["copied"]
    assert counts["matches"] == {"source": 2, "target": 2}
    assert counts["moves"]["target"] == 5 and counts["events"]["target"] > 0
    assert all(count["source"] == count["target"] for count in counts.values())
    assert hashlib.sha256(source.read_bytes()).hexdigest() == fingerprint  # only read

    look = Look(target)
    copied = dump(look)
    status, out, err = await migrate(source, target.url)  # again: nothing changes
    assert status == 0, err
    assert dump(look) == copied

    async with running_bot(api, target) as driver:
        storage = get_host(driver.app).storage
        moved = await current_match(driver)
        assert moved.state == before.state and moved.version == before.version
        assert [seat.token for seat in moved.seats] == [seat.token for seat in before.seats]
        assert await storage.chat_lang(OTHER_GROUP) == "it"
        assert await storage.active_match_id(OTHER_GROUP, 0) is not None
        await play_to_the_end(driver, players)
        assert (await current_match(driver)).status == "finished"

    status, out, err = await migrate(source, target.url)  # the copy has moved on: refused
    assert status == 1 and not out
    assert "bot has been running on PostgreSQL since" in err and len(err.strip().splitlines()) == 1
    async with running_bot(api, target) as driver:  # and nothing was changed
        assert (await current_match(driver)).status == "finished"
        await driver.send(CAROL, GROUP, "/new 5211")  # ids go on after the copied ones
        assert await get_host(driver.app).storage.active_match_id(GROUP, 0) == 3
    look.close()


@pytest.mark.parametrize(
    ("target", "phrase"),
    [
        ("sqlite:///elsewhere.sqlite3", "must be a PostgreSQL address"),
        (
            "postgresql://nobody@127.0.0.1:1/none",
            "cannot connect to PostgreSQL at 127.0.0.1:1/none",
        ),
    ],
)
async def test_a_wrong_target_is_one_line(tmp_path, target, phrase):
    source = tmp_path / "bot.sqlite3"
    sqlite3.connect(source).close()
    status, _, err = await migrate(source, target)
    assert status == 1 and phrase in err and len(err.strip().splitlines()) == 1


async def test_the_copy_knows_every_table_and_both_schemas_have_the_same_columns(
    tmp_path, postgres_server
):
    """A table added to the schema later (ratings, say) must be added to the copy too, on
    both backends, with the same columns: otherwise moving house would leave it behind."""
    source = SQLiteStorage(tmp_path / "bot.sqlite3")
    await source.open()
    await source.close()
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
        names = [
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        sqlite_tables = {
            name: {row[1] for row in db.execute(f"PRAGMA table_info({name})")}
            for name in names
            if name != "sqlite_sequence"  # SQLite's own bookkeeping of AUTOINCREMENT
        }
    target = Database("postgres", tmp_path / "pg", postgres_server.url_of(
        await postgres_server.create_database()))  # fmt: skip
    storage = PostgresStorage(target.url)
    await storage.open()
    await storage.close()
    look = Look(target)
    postgres_tables: dict[str, set[str]] = {}
    for table, column in look.rows(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'schema_version'"
    ):
        if table in WORKERS_ONLY or (table, column) in WORKERS_ONLY_COLUMNS:
            continue  # the workers' coordination, PostgreSQL's alone
        postgres_tables.setdefault(table, set()).add(column)
    look.close()
    assert set(sqlite_tables) == set(TABLES) == set(migrate_module.TABLES)
    assert postgres_tables == sqlite_tables
