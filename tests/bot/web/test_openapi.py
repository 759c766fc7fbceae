"""The API's OpenAPI document: kept in docs/ as the bot serves it, made from the very models
the handlers read and answer with, and naming every route of the API — no more, no fewer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.web import contract, openapi
from bot.web.api import TableApp
from tests.bot.web.conftest import running_table_bot

ROOT = Path(__file__).resolve().parents[3]


def test_the_document_in_docs_is_the_one_the_code_makes():
    kept = (ROOT / "docs" / "openapi.json").read_text()
    assert kept == openapi.document_json(), "run: python -m bot.web.openapi > docs/openapi.json"


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_bot_serves_the_document(database):
    async with running_table_bot(database) as bot, bot.client() as client:
        answer = await client.get("/api/openapi.json")
    assert answer.status_code == 200
    assert answer.json() == json.loads(openapi.document_json())


def test_every_route_of_the_api_is_documented_and_nothing_else():
    routed = [rule[0] for rule in TableApp(None, "", None).routes() if rule[0].startswith("/api/")]
    documented = [path for path in openapi.document()["paths"] if path.startswith("/api/")]
    for path in documented:
        concrete = (
            path.replace("{match}", "12")
            .replace("{tournament}", "7")
            .replace("{step}", "3")
            .replace("{game}", "azul")
        )
        assert any(re.fullmatch(rule, concrete) for rule in routed), path
    for rule in routed:
        assert rule == r"/api/openapi\.json" or any(
            re.fullmatch(
                rule,
                p.replace("{match}", "12")
                .replace("{tournament}", "7")
                .replace("{step}", "3")
                .replace("{game}", "azul"),
            )
            for p in documented
        ), rule


def test_the_document_describes_the_handlers_own_models():
    schemas = openapi.document()["components"]["schemas"]
    for model in (*contract.ANSWERS, *contract.REQUESTS):
        assert schemas[model.__name__] == model.model_json_schema(ref_template=openapi.REF).get(
            "$defs", {}
        ).get(model.__name__, _without_defs(model))


def _without_defs(model) -> dict:
    schema = model.model_json_schema(ref_template=openapi.REF)
    schema.pop("$defs", None)
    return schema
