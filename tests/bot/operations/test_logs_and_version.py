"""What an operator reads: ``LOG_FORMAT=json`` gives one JSON object a line (time, level,
logger, message, and for each update its kind, chat, match and latency); the version is in
``python -m bot --version`` and in the start-up line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.operations.version import VERSION
from tests.bot.conftest import ALICE, GROUP
from tests.bot.process import ROOT, BotProcess, ProcessDriver

pytestmark = pytest.mark.usefixtures("no_bot_left_running")


def test_version_from_the_installed_package():
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--version"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"tablebot {VERSION}"
    assert VERSION[0].isdigit()  # pyproject's version, not "unknown"


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_json_logs_parse_line_by_line_with_each_updates_facts(server, database):
    bot = BotProcess(server, database, LOG_FORMAT="json", LOG_LEVEL="INFO")
    await bot.start()
    driver = ProcessDriver(server.api)
    driver.group(GROUP, "Game Night")
    await driver.send(ALICE, GROUP, "/new 5211")
    lobby = server.api.last(GROUP)
    setting = next(b for b in lobby.buttons() if "callback_data" in b)  # the creator's
    await driver.press(ALICE, GROUP, lobby.message_id, setting["callback_data"])
    await bot.terminate()

    lines = bot.log.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert records and all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert any(
        r["message"].startswith(f"tablebot {VERSION} starting") and r["level"] == "INFO"
        for r in records
    )
    updates = [r for r in records if r["logger"] == "bot.updates"]
    command, press = updates
    assert command["update_kind"] == "command" and command["chat"] == GROUP
    assert press["update_kind"] == "callback_query" and press["chat"] == GROUP
    assert press["match"] == 1
    assert all(isinstance(r["latency_ms"], float) and r["latency_ms"] >= 0 for r in updates)
    assert "/new 5211" not in bot.log.read_text()  # what people write is not logged
