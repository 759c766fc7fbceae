"""Every refusal the table app's page can show is said in the asker's language: the one the
chat speaks to them, else their Telegram app's — read from the launch data even when its
signature fails, else the browser's — and never as a raw key or the server's English."""

from __future__ import annotations

import ast
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.table.host import get_host
from bot.web import limits
from tests.bot import play_azul
from tests.bot.conftest import ALICE, BOB
from tests.bot.helpers import current_match
from tests.bot.web.conftest import header

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])
RU = translator("ru")
ALICE_RU = replace(ALICE, language_code="ru")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
WEB = Path(__file__).resolve().parents[3] / "bot" / "web"


def russian(message: str) -> bool:
    """Russian words, and no English left in (Telegram's name aside)."""
    return bool(CYRILLIC.search(message)) and set(LATIN_WORD.findall(message)) <= {"Telegram"}


async def test_expired_launch_data_in_russian_is_refused_in_russian(table_bot):
    expired = header(ALICE_RU, auth_date=time.time() - 25 * 3600)
    async with table_bot.client() as client:
        answer = await client.get("/api/tables", headers=expired)
    assert answer.status_code == 401
    assert answer.json() == {"error": "signed_out", "message": RU("app.error.expired")}
    assert russian(answer.json()["message"])


async def test_forged_or_missing_launch_data_is_refused_in_the_language_it_claims(table_bot):
    forged = header(ALICE_RU)
    forged["Authorization"] = forged["Authorization"].replace("hash=", "hash=00")
    async with table_bot.client() as client:
        bad = await client.get("/api/tables", headers=forged)
        missing = await client.get("/api/tables", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
        italian = await client.get(
            "/api/tables", headers={"Authorization": "tma", "Accept-Language": "it"}
        )
    assert bad.json() == {"error": "signed_out", "message": RU("app.error.signed_out")}
    assert missing.json() == {"error": "signed_out", "message": RU("app.open_in_telegram")}
    assert italian.json()["message"] == translator("it")("app.open_in_telegram")


async def test_every_refusal_without_words_of_its_own_is_said_in_the_stored_language(
    table_bot,
):
    """Alice's Telegram is English, but she chose Russian in the chat: the refusals that
    carry only a key (a replay's missing step, a lesson that is not there or is over, a
    malformed move, a replay of a match still played) speak Russian."""
    await play_azul.start_match(table_bot.driver, ALICE, [ALICE, BOB])
    await table_bot.driver.settle()
    await get_host(table_bot.driver.app).storage.set_user_lang(ALICE.id, ALICE.first_name, "ru")
    match = await current_match(table_bot.driver)
    said = header(ALICE)
    async with table_bot.client() as client:
        answers = {
            "no_lesson": await client.get("/api/lessons/chess/0", headers=said),
            "lesson_over": await client.post(
                "/api/lessons/azul/99/moves", json={"action": [0]}, headers=said
            ),
            "bad_move": await client.post(
                f"/api/tables/{match.id}/moves", content=b"{", headers=said
            ),
            # refused at its headers, before the launch data is checked: in the language
            # that launch data claims
            "too_large": await client.post(
                f"/api/tables/{match.id}/moves",
                content=b"x" * (limits.MAX_BODY_BYTES + 1),
                headers=header(ALICE_RU),
            ),
            "still_playing": await client.get(f"/api/replays/{match.id}/5", headers=said),
        }
    for key, answer in answers.items():
        body = answer.json()
        assert answer.status_code >= 400, (key, body)
        assert body["message"] and russian(body["message"]), (key, body)
        assert body["error"] not in body["message"]


def refusal_keys() -> tuple[set[str], set[str]]:
    """Every key the table app's code refuses with (``Answer(status, "key", ...)``): those
    raised with their message, and those raised with none (the page shows their words)."""
    given, bare = set(), set()
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "Answer"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                with_message = len(node.args) >= 3 or any(k.arg == "message" for k in node.keywords)
                (given if with_message else bare).add(node.args[1].value)
    return given, bare


# the webhook's refusals (Telegram reads them), and a request framed two ways at once
# (Content-Length with Transfer-Encoding), which no browser sends: refused before any route
SERVER_ONLY = {"not_an_update", "forbidden", "not_serving", "bad_framing"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_key_has_words_in_every_language(backend, lang):
    """A refusal either brings its message (a key of the catalogue, given where it is
    raised) or has ``app.error.<key>``: no key reaches the page bare."""
    t = translator(lang)
    given, bare = refusal_keys()
    assert {"no_step", "no_lesson", "lesson_over", "too_many_connections"} <= bare
    assert {"signed_out", "play.stale"} <= given
    # a budget's refusal (too_fast among them) brings its own message, from the budgets' table
    for budget in limits.BUDGETS.values():
        assert t.has(budget.refusal), f"{lang}: {budget.error} has no words"
    assert "too_fast" in {budget.error for budget in limits.BUDGETS.values()}
    for key in bare - SERVER_ONLY:
        assert t.has(f"app.error.{key}"), f"{lang}: {key} has no words"
    assert t.has("app.error.refused") and t.has("app.error.server")
