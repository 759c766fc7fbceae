"""Is the database file usable? Checked before the bot opens it for writing, so a file the
bot cannot use — from a newer version, damaged, read-only — is reported in one line and
left exactly as it was."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

from bot.storage import MIGRATIONS

ELSEWHERE = "or point DATABASE_PATH at another file"


class DatabaseProblem(Exception):
    """The database cannot be used; the message names the file, the problem and the fix."""


def check_database(path: Path) -> None:
    """Raise :class:`DatabaseProblem` unless the bot can read and write ``path`` (a missing
    file is fine: it will be created). Never writes to the file."""
    path = Path(path)
    if path.is_dir():
        raise DatabaseProblem(f"{path}: this is a folder, not a database file; {_fix_path()}")
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseProblem(
            f"{folder}: cannot create the database's folder ({error.strerror}); create it and "
            f"let the bot's user write to it, {ELSEWHERE}"
        ) from None
    if not _folder_writable(folder):
        raise DatabaseProblem(
            f"{folder}: the database's folder is read-only (SQLite keeps its journal files "
            f"next to the database); let the bot's user write to it, {ELSEWHERE}"
        )
    if not path.exists():
        return
    if not _file_writable(path):
        raise DatabaseProblem(
            f"{path}: the database file is read-only; let the bot's user write to it, {ELSEWHERE}"
        )
    version, damage = _inspect(path)
    if damage:
        raise DatabaseProblem(
            f"{path}: the file is not a usable SQLite database ({damage}); restore it from a "
            f"backup, {ELSEWHERE} to start afresh (this file was left unchanged)"
        )
    if version > len(MIGRATIONS):
        raise DatabaseProblem(
            f"{path}: the database was written by a newer version of the bot (schema "
            f"{version}; this version knows up to {len(MIGRATIONS)}); run the newer version, "
            f"or restore a backup made for this one"
        )


def _fix_path() -> str:
    return "point DATABASE_PATH at a file, e.g. data/bot.sqlite3"


def _folder_writable(folder: Path) -> bool:
    """Try, rather than ask (``os.access`` ignores capabilities, ACLs, read-only mounts): an
    anonymous temporary file leaves nothing behind."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _file_writable(path: Path) -> bool:
    try:
        descriptor = os.open(path, os.O_RDWR)  # opening for writing writes nothing
    except OSError:
        return False
    os.close(descriptor)
    return True


def _inspect(path: Path) -> tuple[int, str | None]:
    """(schema version, what is damaged or None), read through a read-only connection.
    Without a ``-wal`` file (a clean shutdown) the file is the whole database and is read as
    immutable, which creates no journal files either; after a crash its WAL is read too."""
    wal = path.with_name(path.name + "-wal")
    uri = f"{path.resolve().as_uri()}?{'mode=ro' if wal.exists() else 'immutable=1'}"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:
        return 0, str(error)
    if problems != ["ok"]:
        return version, " ".join(" / ".join(problems).split())  # one line
    return version, None
