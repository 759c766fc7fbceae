"""Backups of the SQLite database: ``python -m bot.backup DEST`` while the bot plays, and
``python -m bot.backup --restore BACKUP`` into a fresh start, which plays the match on from
where the backup caught it. The daily backup keeps the newest ``BACKUP_KEEP``."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.operations.backup import DAY_SECONDS, backup_if_due, backups_in
from bot.table.host import get_host
from tests.bot.conftest import BOB, CAROL, DAVE, GROUP, running_bot
from tests.bot.databases import Database
from tests.bot.helpers import current_match
from tests.bot.play5211 import choose, has_choice, play_to_the_end, start_game
from tests.bot.process import ROOT, BotProcess, until

PLAYERS = [BOB, CAROL, DAVE]


async def backup_command(database: Path, *args: str) -> tuple[int, str]:
    """``python -m bot.backup ARGS`` for the bot whose database is ``database``."""
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": "123456:BACKUP-TEST",
        "DATABASE_PATH": str(database),
        "DATABASE_URL": "",
    }
    where = next(folder for folder in database.parents if folder.exists())  # no .env there
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.backup", *args, cwd=where, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    return process.returncode, (out + err).decode()


def version_in(path: Path, match_id: int) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version FROM matches WHERE id = ?", (match_id,)).fetchone()[0]


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_backup_taken_mid_match_restored_into_a_fresh_start_plays_on(
    api, database: Database, tmp_path
):
    backups = tmp_path / "backups"
    backups.mkdir()
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, BOB, PLAYERS)
        for player in PLAYERS:
            await choose(driver, player)
        match = await current_match(driver)
        # while the bot runs and holds the database
        status, said = await backup_command(database.path, str(backups))
        assert status == 0, said
        (taken,) = backups_in(backups)
        assert f"to {taken}" in said
        for player in PLAYERS:  # the match goes on past the backup
            await choose(driver, player)
        later = (await current_match(driver)).version
        # restoring over a running bot's database is refused
        status, said = await backup_command(database.path, "--restore", str(taken))
        assert status == 1 and "stop it first" in said
    assert version_in(taken, match.id) == match.version < later

    # a lost disk: a fresh start from the backup
    fresh = Database("sqlite", tmp_path / "new-disk" / "bot.sqlite3")
    status, said = await backup_command(fresh.path, "--restore", str(taken))
    assert status == 0, said
    async with running_bot(api, fresh) as driver:
        restored = await current_match(driver)
        assert (restored.id, restored.version) == (match.id, match.version)
        assert restored.state == match.state
        assert all(has_choice(driver, player) for player in PLAYERS)  # prompts redrawn
        await play_to_the_end(driver, PLAYERS)
        assert (await current_match(driver)).status == "finished"
        assert await get_host(driver.app).storage.integrity_check() == "ok"


async def test_a_postgres_database_is_pointed_to_pg_dump(tmp_path):
    env_database = tmp_path / "bot.sqlite3"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.backup", str(tmp_path),
        cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={
            "PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT),
            "TELEGRAM_BOT_TOKEN": "123456:BACKUP-TEST", "DATABASE_PATH": str(env_database),
            "DATABASE_URL": "postgresql://bot@localhost:5432/tablebot",
        },
    )  # fmt: skip
    _, err = await process.communicate()
    assert process.returncode == 1
    assert "pg_dump" in err.decode() and "pg_restore" in err.decode()
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_daily_backup_is_taken_once_a_day_and_keeps_the_newest(tmp_path):
    database = tmp_path / "bot.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE moves (x)")
        db.execute("INSERT INTO moves VALUES (1)")
    folder = tmp_path / "backups"
    made = []
    for day in range(5):
        now = 1_800_000_000.0 + day * DAY_SECONDS
        made.append(backup_if_due(database, folder, keep=3, now=now))
        # restarts later that day take none
        assert backup_if_due(database, folder, keep=3, now=now + DAY_SECONDS - 60) is None
    assert None not in made and len(set(made)) == 5
    assert backups_in(folder) == made[-3:]  # the newest three
    with sqlite3.connect(made[-1]) as copy:
        assert copy.execute("SELECT x FROM moves").fetchall() == [(1,)]


@pytest.mark.usefixtures("no_bot_left_running")
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_running_bot_takes_its_daily_backup_into_backup_dir(server, database, tmp_path):
    folder = tmp_path / "backups"
    bot = BotProcess(server, database, BACKUP_DIR=str(folder), BACKUP_KEEP="2")
    await bot.start()
    try:
        await until(lambda: len(backups_in(folder)) == 1, what="the first daily backup")
    finally:
        await bot.terminate()
    (taken,) = backups_in(folder)
    with sqlite3.connect(taken) as copy:
        assert copy.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT COUNT(*) FROM bot_flags").fetchone()[0] == 0  # the schema
