"""The layering is a checked contract: `lint-imports` runs the import-linter contracts of
pyproject.toml (engines free of the bot and of Telegram, game screens and pictures free of
Telegram, handlers on top, the layers of the bot, no import cycles)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def test_the_import_contracts_are_kept():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout
