"""A tournament as the table app's page shows it (``GET /api/tournaments/<id>``): its
standings as the group's message ranks them (``bot.tournaments.standings``), every round
with its tables — players, playing or done, places and points — and the match each table
is, which the page opens live (``?m=``) or as a replay (``?r=``); the words in the
asker's language (the ``tournament`` catalogue)."""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

from bot.presentation.i18n import Translator, translator
from bot.presentation.tournaments import (
    format_label,
    name_of,
    rule_lines,
    rules_line,
    standings_cells,
    standings_columns,
)
from bot.presentation.ui import get_ui
from bot.storage.tournaments import StoredTournament
from bot.tournaments.formats import standings
from bot.tournaments.pairing import planned_rounds
from bot.tournaments.scoring import format_points, table_points
from bot.web.tables import TABLE_GAMES

# the page's words ("tournament.page." keys of the tournament catalogue)
PAGE_TEXTS = (
    "standings", "rank", "player", "withdrawn",
    "rounds", "round", "table", "playing", "done", "stopped", "open", "replay", "no_app",
    "bye_full", "bye_half", "bye_advance", "no_rounds", "home",
)  # fmt: skip


def entrants(stored: StoredTournament) -> set[int]:
    return {entrant.player for entrant in stored.state.entrants}


def payload(stored: StoredTournament, t: Translator, asker: int) -> dict[str, Any]:
    state = stored.state
    drawn = stored.game in TABLE_GAMES  # the app draws its tables: each one opens
    rows = [
        {
            "rank": row.rank,
            "name": name_of(stored, t, row.player),
            # under `columns`: points and the tie-breaks in their order, or the format's own
            "cells": standings_cells(t, row, state),
            "withdrawn": row.withdrawn,
            "me": row.player == asker,
        }
        for row in standings(state)
    ]
    rounds = []
    for round_ in state.rounds:
        tables = []
        for index, table in enumerate(round_.tables):
            points = table_points(table, state.rules.table_size) if table.finished else {}
            seats = [
                {
                    "name": name_of(stored, t, player),
                    "place": table.places[seat] if table.places is not None else None,
                    # (an AI seat scores for nobody: no points)
                    "points": format_points(points[player]) if player in points else None,
                    "me": player == asker,
                }
                for seat, player in enumerate(table.players)
            ]
            match = stored.matches.get((round_.number, index))
            tables.append(
                {
                    "number": index + 1,
                    "done": table.finished,
                    # still played (opened live); else over: a result, or cancelled with
                    # the tournament (either replays)
                    "live": not table.finished and stored.status == "running",
                    "match": match if drawn else None,
                    "players": seats,
                }
            )
        byes = [
            {"name": name_of(stored, t, bye.player), "kind": bye.kind.value} for bye in round_.byes
        ]
        rounds.append({"number": round_.number, "tables": tables, "byes": byes})
    return {
        "id": stored.id,
        "game": stored.game,
        "title": get_ui(stored.game).title(t),
        "format": format_label(t, state),
        "rules": rules_line(t, stored),
        "status": stored.status,
        "status_text": t(f"tournament.page.status.{stored.status}"),
        "round": len(state.rounds),
        "rounds": planned_rounds(state),
        "columns": standings_columns(t, state.rules),
        "standings": rows,
        # the rules the standings follow (what a place is worth, the tie-breaks in their
        # order, the tables that had bots), as the group's message publishes them, plain
        "notes": [_plain(line) for line in rule_lines(t, stored)],
        "played": rounds,
        "texts": texts(t),
    }


def listing(stored: StoredTournament, t: Translator) -> dict[str, Any]:
    """One line of the app's home: a tournament the asker is in, and where it stands."""
    return {
        "tournament": stored.id,
        "title": f"🏆 {get_ui(stored.game).title(t)}",
        "status": t(f"tournament.page.status.{stored.status}"),
    }


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def texts(t: Translator) -> dict[str, str]:
    return _texts(t.lang)


@cache
def _texts(lang: str) -> dict[str, str]:
    t = translator(lang)
    return {key: t(f"tournament.page.{key}") for key in PAGE_TEXTS}
