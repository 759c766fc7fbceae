"""The table app's API as an OpenAPI 3.1 document, made from the contract's models
(``bot.web.contract``) and the routes they answer on. The bot serves it at
``GET /api/openapi.json``; ``docs/openapi.json`` is the same document, written by
``python -m bot.web.openapi > docs/openapi.json`` (a test keeps the two equal), and the
fuzz test drives the running bot from it.

Every ``/api/tables`` and ``/api/replays`` operation needs the launch data
(``Authorization: tma <initData>``); the health paths and this document need nothing."""

from __future__ import annotations

import json
import sys
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from bot.web import contract

API_VERSION = "1.1"  # the contract's own: raised when an answer or a request changes shape

REF = "#/components/schemas/{model}"


def path_number(name: str, description: str, digits: int) -> dict[str, Any]:
    """A number in the path, as the routes match it (``[0-9]{1,digits}``)."""
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "pattern": f"^[0-9]{{1,{digits}}}$"},
    }


MATCH = path_number("match", "The match's number.", 18)
STEP = path_number("step", "The replay's step: 0 is the deal.", 6)
TOURNAMENT = path_number("tournament", "The tournament's number.", 18)
LESSON_STEP = path_number("step", "The lesson's step: 0 is the first.", 2)
GAME = {
    "name": "game",
    "in": "path",
    "required": True,
    "description": "The game's id.",
    "schema": {"type": "string", "pattern": "^[a-z0-9_]{1,20}$"},
}
REFUSALS = {  # what any signed-in request may be answered besides its own success
    "400": "The request is malformed.",
    "401": "No launch data, or launch data that does not check (forged, expired, malformed).",
    "413": "The body is over the route's limit (refused at the headers).",
    "429": "A budget is spent (bot.web.limits: this user's requests, failed sign-ins from "
    "this address, their invitations, practice matches or look-ups, or everyone's questions "
    "to Telegram): Retry-After says when to try again, the message says why.",
    "503": "The database does not answer.",
}


def _json(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": REF.format(model=model.__name__)}}},
    }


def _body(model: type[BaseModel]) -> dict[str, Any]:
    schema = {"$ref": REF.format(model=model.__name__)}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _refusals(*statuses: str) -> dict[str, Any]:
    return {status: _json(contract.Error, REFUSALS[status]) for status in statuses}


def _signed(summary: str, ok: dict, *, params=(), extra=None, **more) -> dict:
    """A signed-in operation: ``ok`` its 200 answer, ``extra`` its own refusals."""
    responses = {"200": ok, **_refusals("401", "413", "429", "503")}
    for status, description in (extra or {}).items():
        responses[status] = _json(contract.Error, description)
    return {
        "summary": summary,
        "security": [{"launchData": []}],
        "parameters": list(params),
        "responses": dict(sorted(responses.items())),
        **more,
    }


def paths() -> dict[str, Any]:
    # a table the asker may not see is answered as one that is not there: the same 404
    not_found = {
        "404": "No table of a game the app draws has this number that the asker plays or may "
        "watch (either way the same answer)."
    }
    return {
        "/api/tables": {
            "get": _signed(
                "The asker's running tables and finished matches.",
                _json(contract.Tables, "The asker's tables."),
            )
        },
        "/api/launch": {
            "get": _signed(
                "The match a `startapp` link from the group opened: the signed launch data's "
                "`start_param`, for a player of it or a member of its group.",
                _json(contract.Launched, "The match to open."),
                extra={"404": "The link names no table the asker plays or may watch."},
            )
        },
        "/api/tables/{match}": {
            "get": _signed(
                "One table as the asker sees it: their seat's view, or a member's public view.",
                _json(contract.Table, "The table."),
                params=[MATCH],
                extra=not_found,
            )
        },
        "/api/tables/{match}/moves": {
            "post": _signed(
                "A move, made as a chat button's is.",
                _json(contract.Moved, "The move is played."),
                params=[MATCH],
                extra=not_found
                | {
                    "400": REFUSALS["400"] + " Not a move's shape.",
                    "403": "Not the asker's turn, or not a legal move.",
                    "409": "The move answers an older decision (stale): nothing changed.",
                },
                requestBody=_body(contract.MoveRequest),
            )
        },
        "/api/tables/{match}/rematch": {
            "post": _signed(
                "Play again: the chat's rematch of a finished match, opened by one of its "
                "players (its lobby in the match's chat).",
                _json(contract.Rematched, "The rematch's lobby is open."),
                params=[MATCH],
                extra=not_found
                | {
                    "403": "Not one of the match's players.",
                    "409": "Not now: the match is not over, a match runs in its chat, or the "
                    "bot is draining.",
                    "429": "The asker's rematches are spent for a minute.",
                },
            )
        },
        "/api/tables/{match}/live": {
            "get": _signed(
                'Server-Sent Events: `data: {"version": n}` each time the match changes.',
                {
                    "description": "An event stream that stays open.",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                },
                params=[MATCH],
                extra=not_found
                | {"503": "Too many live connections, or the database does not answer."},
            )
        },
        "/api/replays/{match}": {
            "get": _signed(
                "A finished match to replay: its players and result.",
                _json(contract.ReplaySummary, "The replay's summary."),
                params=[MATCH],
                extra=not_found | {"409": "The match is still being played."},
            )
        },
        "/api/replays/{match}/{step}": {
            "get": _signed(
                "One step of a finished match's replay, as everyone saw it.",
                _json(contract.ReplayStep, "The step."),
                params=[MATCH, STEP],
                extra={"404": "No such match the asker may see, or no such step."}
                | {"409": "The match is still being played."},
            )
        },
        "/api/tournaments/{tournament}": {
            "get": _signed(
                "A tournament's page: its standings, rounds and tables, for its entrants and "
                "the members of its group.",
                _json(contract.TournamentPage, "The tournament."),
                params=[TOURNAMENT],
                extra={
                    "404": "No tournament has this number that the asker is in or whose group "
                    "they are a member of (either way the same answer).",
                },
            )
        },
        "/api/lessons": {
            "get": _signed(
                "The app home's lessons, practice games and levels.",
                _json(contract.Home, "What the home offers."),
            )
        },
        "/api/lessons/{game}": {
            "post": _signed(
                "A lesson where the asker left it (a finished or new one from its first step), "
                'or from a step already reached again (`{"step": n}`: retried; 0: restarted). '
                "Each step is counted once per learner, with no one named.",
                _json(contract.LessonTable, "The step, drawn as a table."),
                params=[GAME],
                extra={
                    "400": REFUSALS["400"] + " Not a step's shape.",
                    "404": "No lesson of this game.",
                    "409": "A step the asker has not reached.",
                },
                requestBody=_body(contract.LessonBegin),
            )
        },
        "/api/lessons/{game}/{step}": {
            "get": _signed(
                "A step of the asker's lesson (theirs, or one before it), drawn as a table.",
                _json(contract.LessonTable, "The step."),
                params=[GAME, LESSON_STEP],
                extra={
                    "404": "No lesson of this game.",
                    "409": "A step the asker has not reached.",
                },
            )
        },
        "/api/lessons/{game}/{step}/moves": {
            "post": _signed(
                "A move at the asker's step: stored, with the next step, if it reaches the "
                "step's goal; else why it misses it, and nothing is played.",
                _json(contract.LessonAnswer, "Right, or why not."),
                params=[GAME, LESSON_STEP],
                extra={
                    "400": REFUSALS["400"] + " Not a move's shape.",
                    "404": "No lesson of this game.",
                    "409": "The lesson is over, or the asker is at another step.",
                },
                requestBody=_body(contract.LessonMove),
            )
        },
        "/api/practice": {
            "post": _signed(
                "A practice match against bots in the asker's private chat, started at once.",
                _json(contract.Launched, "The practice match's table to open."),
                extra={
                    "400": REFUSALS["400"] + " No such game or level.",
                    "409": "Not now: the private chat is not open, a match runs there, or "
                    "the bot is draining.",
                },
                requestBody=_body(contract.PracticeRequest),
            )
        },
        "/api/friend": {
            "post": _signed(
                "Play with a friend: the game's invitation prepared for the asker to send.",
                _json(contract.Prepared, "The prepared message's id, for Telegram's picker."),
                extra={
                    "400": REFUSALS["400"] + " Not a two-player game.",
                    "502": "Telegram did not prepare the invitation.",
                },
                requestBody=_body(contract.FriendRequest),
            )
        },
        "/healthz": {
            "get": {
                "summary": "Whether this instance serves (for a platform's health checks).",
                "responses": {
                    "200": _json(contract.Health, "Serving."),
                    "503": _json(contract.Health, "Not serving: the reason says why."),
                },
            }
        },
        "/livez": {
            "get": {
                "summary": "Whether the process runs.",
                "responses": {"200": _json(contract.Alive, "Alive.")},
            }
        },
    }


def document() -> dict[str, Any]:
    models = [*contract.ANSWERS, *contract.REQUESTS]
    _, schemas = models_json_schema([(model, "validation") for model in models], ref_template=REF)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Table Bot: the table app's API",
            "version": API_VERSION,
            "description": (
                "The API of the Telegram Mini App served by the bot. Every table and replay "
                "request carries Telegram's signed launch data: `Authorization: tma <initData>`."
            ),
        },
        "paths": paths(),
        "components": {
            "schemas": schemas["$defs"],
            "securitySchemes": {
                "launchData": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "Authorization",
                    "description": "`tma ` and the Mini App's initData, as Telegram signed it.",
                }
            },
        },
    }


@cache
def document_json() -> str:
    return json.dumps(document(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document_json())
