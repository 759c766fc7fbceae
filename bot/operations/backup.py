"""Backups of the SQLite database, taken while the bot runs, and the one step that restores
one.

``python -m bot.backup DEST`` writes a consistent copy (SQLite's online backup API: the
pages of one committed state, never a half-written file as a plain file copy of a live
database can be); DEST is a file, or a folder to put a dated file in. ``python -m bot.backup
--restore BACKUP`` puts a backup in place of DATABASE_PATH, with the bot stopped (it
refuses while an instance holds the database). With ``BACKUP_DIR`` the running bot takes a
daily backup itself and keeps the newest ``BACKUP_KEEP``.

PostgreSQL is backed up by its platform (Heroku, Render, Railway keep daily backups) or
with ``pg_dump``; this module says so instead of copying anything.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sqlite3
import sys
import time
from pathlib import Path

from bot.settings import SettingsError, load_settings
from bot.storage.sqlite import InstanceLock

log = logging.getLogger(__name__)

PREFIX = "bot-"  # backups in a folder: bot-20261126-101500.sqlite3
SUFFIX = ".sqlite3"
DAY_SECONDS = 86400.0
POSTGRES_ADVICE = (
    "the database is PostgreSQL (DATABASE_URL): use your platform's backups (Heroku, Render "
    "and Railway keep daily ones) or pg_dump, e.g. pg_dump --format=custom "
    '--file=tablebot.dump "$DATABASE_URL"; restore with pg_restore --clean --dbname '
    '"$DATABASE_URL" tablebot.dump'
)


class BackupProblem(Exception):
    """A backup or restore that cannot be made, in one line for the operator."""


def backup(database: Path, dest: Path, now: float | None = None) -> Path:
    """A consistent copy of ``database`` at ``dest`` (a file, or a folder for one named by
    the time, UTC), written beside it first and moved into place only once complete and
    checked."""
    if not database.exists():
        raise BackupProblem(f"there is no database at {database}")
    if dest.is_dir():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
        dest = dest / f"{PREFIX}{stamp}{SUFFIX}"
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    with (
        contextlib.closing(sqlite3.connect(database, timeout=30)) as source,
        contextlib.closing(sqlite3.connect(partial)) as copy,
    ):
        # in one step: one read transaction, so one committed state, while WAL lets the bot
        # write on (a copy in steps would start over after each of the bot's commits)
        source.backup(copy)
        _check(copy, partial)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    os.replace(partial, dest)
    return dest


def restore(backup_file: Path, database: Path) -> None:
    """Put ``backup_file`` in place of ``database``; the bot must be stopped."""
    if not backup_file.is_file():
        raise BackupProblem(f"there is no backup at {backup_file}")
    with contextlib.closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as source:
        _check(source, backup_file)
        database.parent.mkdir(parents=True, exist_ok=True)
        lock = InstanceLock(database)
        if not lock.try_take():
            raise BackupProblem(
                f"a bot instance is running on {database}: stop it first, then restore"
            )
        try:
            with contextlib.closing(sqlite3.connect(database)) as target:
                # the backup API writes through the database's own journal (its WAL
                # included): what was there is replaced whole
                source.backup(target)
                with target:
                    _redraw_running_matches(target)
        finally:
            lock.release()


def _stale(column: str) -> str:
    """SQL: a message's fingerprint (``bot.table.publishing.publisher.fingerprint``: "k:"
    or "t:", a digest, ":p" and a picture's digest for a photo) that matches no drawing, of
    the same kind."""
    return (
        f"CASE WHEN instr({column}, ':p') > 0 THEN substr({column}, 1, 2) || 'restored:prestored'"
        f" ELSE substr({column}, 1, 2) || 'restored' END"
    )


def _redraw_running_matches(db: sqlite3.Connection) -> None:
    """Telegram still shows what the bot drew after the backup (later moves, newer buttons):
    the running matches' boards and prompts are marked as not drawn, so the first start
    draws them again from the restored state, and players press buttons it knows."""
    running = "SELECT id FROM matches WHERE status IN ('lobby', 'playing')"
    db.execute(
        f"UPDATE matches SET board_print = {_stale('board_print')} "
        f"WHERE board_print IS NOT NULL AND id IN ({running})"
    )
    db.execute(
        f"UPDATE seats SET prompt_text = {_stale('prompt_text')} "
        f"WHERE prompt_text IS NOT NULL AND match_id IN ({running})"
    )


def _check(db: sqlite3.Connection, path: Path) -> None:
    result = db.execute("PRAGMA quick_check").fetchone()[0]
    if result != "ok":
        raise BackupProblem(f"{path} is damaged: {result}")


# -- the daily backup of the running bot --------------------------------------------------------


def backups_in(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names sort by time)."""
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))


def backup_if_due(database: Path, folder: Path, keep: int, now: float | None = None) -> Path | None:
    """The daily backup, if the newest in ``folder`` is a day old or there is none (a
    restart does not take another), then the oldest beyond ``keep`` are removed."""
    now = time.time() if now is None else now
    folder.mkdir(parents=True, exist_ok=True)
    existing = backups_in(folder)
    if existing and now - existing[-1].stat().st_mtime < DAY_SECONDS:
        return None
    made = backup(database, folder, now)
    os.utime(made, (now, now))
    for old in backups_in(folder)[:-keep]:
        old.unlink()
    log.info("daily backup written to %s", made)
    return made


# -- python -m bot.backup ------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot.backup",
        description="Back up the bot's SQLite database while the bot runs, or restore a backup.",
    )
    parser.add_argument("dest", nargs="?", type=Path, help="the backup file, or a folder")
    parser.add_argument(
        "--restore", type=Path, metavar="BACKUP", help="put BACKUP in place of DATABASE_PATH"
    )
    args = parser.parse_args(argv)
    if (args.dest is None) == (args.restore is None):
        parser.error("give DEST to back up, or --restore BACKUP")
    try:
        settings = load_settings()
        if settings.postgres_url():
            raise BackupProblem(POSTGRES_ADVICE)
        if args.restore is not None:
            restore(args.restore, settings.database_path)
            print(f"restored {args.restore} into {settings.database_path}: start the bot")
        else:
            made = backup(settings.database_path, args.dest)
            print(f"backed up {settings.database_path} to {made}")
    except (SettingsError, BackupProblem, sqlite3.Error, OSError) as problem:
        sys.exit(f"tablebot backup: {problem}")
