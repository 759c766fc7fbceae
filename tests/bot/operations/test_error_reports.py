"""Error reports to Sentry: an error a handler meets is reported with the game, the match
and the kind of update, and with nothing private — no token, no hand of cards, no message
text, no local variables. Captured with the SDK's own transport, in memory. Without
``SENTRY_DSN`` the SDK is not even imported."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from bot.operations import error_reports
from bot.table.host import get_host
from tests.bot.conftest import BOB, CAROL, DAVE, GROUP, running_bot
from tests.bot.helpers import current_match, prompt
from tests.bot.play5211 import card_buttons, start_game
from tests.bot.process import ROOT

TOKEN = "123456:TEST-TOKEN"  # the token the in-process bot runs with (conftest)
SECRET_WORDS = "my-secret-plan-for-the-table"


class InMemory(Transport):
    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)

    def events(self) -> list[dict]:
        return [event for e in self.envelopes if (event := e.get_event()) is not None]


@pytest.fixture
def reports():
    transport = InMemory()
    assert error_reports.start("https://public@sentry.example.com/1", TOKEN, transport)
    yield transport
    error_reports.stop()


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_handlers_error_is_reported_with_its_match_and_nothing_private(
    api, database, reports, monkeypatch
):
    players = [BOB, CAROL, DAVE]
    async with running_bot(api, database) as driver:
        driver.group(GROUP, "Game Night")
        await start_game(driver, GROUP, BOB, players)
        match = await current_match(driver)
        shown = prompt(driver, BOB)
        hand = shown.text.split("Your hand: ")[1].split("\n")[0]
        storage = get_host(driver.app).storage

        async def broken_save(*args, **kwargs):
            raise RuntimeError("the disk is on fire")

        monkeypatch.setattr(storage, "save", broken_save)
        await driver.press(BOB, BOB.id, shown.message_id, card_buttons(shown)[0]["callback_data"])

        # a command with words of the player's own, whose handler fails
        def broken_games():
            raise RuntimeError("the disk is on fire")

        monkeypatch.setattr("bot.handlers.commands.playable_games", broken_games)
        await driver.send(CAROL, CAROL.id, f"/help {SECRET_WORDS}")

    events = reports.events()
    press, command = events
    assert press["tags"] == {
        "update_kind": "callback_query",
        "game": "5211",
        "match": str(match.id),
        "button": "draft",
    }
    assert command["tags"] == {"update_kind": "command"}
    for event in events:
        assert event["exception"]["values"][-1]["value"] in ("the disk is on fire",)
        everything = json.dumps(event, ensure_ascii=False)
        assert TOKEN not in everything and TOKEN.split(":")[1] not in everything
        assert hand not in everything and SECRET_WORDS not in everything
        assert "Game Night" not in everything  # the group's name
        assert "Bob" not in everything and "Carol" not in everything
        frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
        assert frames and not any("vars" in frame for frame in frames)
        assert "request" not in event and "user" not in event


def test_the_token_is_scrubbed_from_whatever_text_carries_it(reports):
    import logging

    logging.getLogger("bot.test").error("calling https://api.telegram.org/bot%s/getMe", TOKEN)
    (event,) = reports.events()
    assert TOKEN not in json.dumps(event)
    assert error_reports.SCRUBBED in json.dumps(event)


def test_without_a_dsn_the_sdk_is_not_loaded():
    probe = (
        "import sys\n"
        "from bot.operations import error_reports\n"
        "import bot.__main__, bot.app\n"
        f"assert not error_reports.start(None, {TOKEN!r})\n"
        "print('sentry_sdk' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
