"""The repository's own checks: lint and formatting are part of the test suite."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_check_is_clean():
    result = ruff("check", "bot", "games", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean():
    result = ruff("format", "--check", "bot", "games", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
