"""``./start``, the README's start command: one clear line when the token is missing, and a
repeat start that does not reinstall the package."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from bot.settings import NO_DOTENV

ROOT = Path(__file__).resolve().parents[1]

# Stand-ins for the virtual environment's programs: each notes how it was called.
FAKE_PROGRAM = """#!/bin/sh
echo "$(basename "$0") $*" >> "$(dirname "$0")/../calls"
"""


def run_start(folder: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(folder / "start")],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def a_checkout(tmp_path: Path) -> Path:
    folder = tmp_path / "tablebot"
    folder.mkdir()
    shutil.copy2(ROOT / "start", folder / "start")
    shutil.copy2(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return folder


def test_without_a_dotenv_the_start_says_what_to_do_in_one_line_before_installing(tmp_path):
    folder = a_checkout(tmp_path)
    done = run_start(folder)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [f"tablebot: {NO_DOTENV}"]
    assert "cp .env.example .env" in NO_DOTENV
    assert not (folder / ".venv").exists()  # nothing installed for a start that cannot work


def test_a_repeat_start_installs_nothing_until_pyproject_changes(tmp_path):
    folder = a_checkout(tmp_path)
    (folder / ".env").write_text("TELEGRAM_BOT_TOKEN=1:x\n")
    programs = folder / ".venv" / "bin"
    programs.mkdir(parents=True)
    for name in ("python", "pip"):
        (programs / name).write_text(FAKE_PROGRAM)
        (programs / name).chmod(0o755)
    calls = folder / ".venv" / "calls"

    def started() -> list[str]:
        assert run_start(folder).returncode == 0
        made = calls.read_text().splitlines()
        calls.unlink()
        return made

    assert started() == ["pip install -q -e .", "python -m bot"]  # a new environment
    assert started() == ["python -m bot"]
    assert started() == ["python -m bot"]
    with (folder / "pyproject.toml").open("a") as pyproject:
        pyproject.write("# a new dependency\n")
    assert started() == ["pip install -q -e .", "python -m bot"]
    assert started() == ["python -m bot"]
