"""A table as the app shows it: what one viewer may see of a match, as JSON.

The seat's view is the engine's ``view(state, seat)`` — the very function its chat prompt
is drawn from — with its legal moves as lists of numbers, the heading and the turn story in
the viewer's language (the game's own screens' words: ``bot.presentation.ui``), the time
left to move, and what the page needs to draw the tiles as the pictures do (colours and
symbols: ``bot.presentation.pictures``). Nobody without a seat gets a seat's view: the app
shows a table only to its players. The page draws this and nothing else; legal moves come
from the engine, never from the page."""

from __future__ import annotations

import html
import re
from functools import cache
from importlib import import_module
from typing import Any

from bot.presentation.i18n import Translator, translator
from bot.presentation.pictures.drawing import RGB, ink_on
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import COLOUR_GLYPHS, Names
from bot.storage import Match
from games import get_engine, package_name

TABLE_GAMES = ("azul", "summer_pavilion")  # the games the app draws (the card games: later)
TAG = re.compile(r"<[^>]+>")
# the page's own words, in the viewer's language ("app." keys of the bot's catalogue)
PAGE_TEXTS = (
    "open_table", "your_turn", "your_tables", "no_tables", "open_in_telegram", "connecting",
    "offline", "storage_down", "not_your_table", "no_table", "game_over", "centre", "factory",
    "supply", "floor", "hand", "corners", "wild", "pass", "done", "take", "cancel", "pick_tiles",
    "pick_line", "pick_column", "pick_space", "pick_payment", "pick_bonus", "pick_keep",
    "waiting", "score",
)  # fmt: skip


def plain_lines(text: str) -> list[str]:
    """A screen's HTML text as plain lines: the page shows text, never markup."""
    return [html.unescape(TAG.sub("", line)) for line in text.split("\n")]


def css(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def looks(game: str, t: Translator) -> list[dict[str, Any]]:
    """Each colour of the game's tiles as its pictures draw it: its colour, its symbol (no
    colour is told by colour alone), the ink that reads on it, and its name."""
    return _looks(game, t.lang)


def texts(t: Translator) -> dict[str, str]:
    return _texts(t.lang)


@cache
def _texts(lang: str) -> dict[str, str]:
    t = translator(lang)
    return {key: t(f"app.{key}") for key in PAGE_TEXTS}


@cache
def _looks(game: str, lang: str) -> list[dict[str, Any]]:
    t = translator(lang)
    pictures = import_module(f"bot.presentation.pictures.{package_name(game)}")
    engine = import_module(f"games.{package_name(game)}.engine")
    return [
        {
            "rgb": css(rgb),
            "symbol": COLOUR_GLYPHS[name],
            "ink": css(ink_on(rgb)),
            "name": t(f"{game}.colour.{name}"),
        }
        for name, rgb in zip(engine.COLOURS, pictures.TILE_RGB, strict=True)
    ]


def time_left(match: Match, now: float) -> dict[str, float]:
    """Seconds left to each seat that has a deadline (its default move comes then)."""
    return {
        str(seat.seat): max(0.0, seat.deadline - now)
        for seat in match.seats
        if seat.deadline is not None and match.status == "playing"
    }


def table(match: Match, viewer: int, t: Translator, now: float) -> dict[str, Any]:
    """The table ``viewer`` (a seated player's user id) sees now."""
    engine, ui = get_engine(match.game), get_ui(match.game)
    seat = match.seat_of(viewer)
    if seat is None:
        raise PermissionError(viewer)
    view = engine.view(match.state, seat.seat)
    public = engine.view(match.state, None)
    names = Names.of([s.name for s in match.seats])
    playing = match.status == "playing"
    legal = engine.legal_actions(match.state, seat.seat) if playing else []
    story = (
        ui.since_your_turn(t, view, seat.seat, names)
        if legal
        else ui.latest_moves(t, public, seat.seat, names)
    )
    heading = ui.caption(t, public, names).split("\n\n", 1)[0]
    result = None
    if match.status == "finished":
        outcome = engine.result(match.state)
        result = {
            "scores": outcome.scores,
            "ranks": outcome.ranks,
            "lines": plain_lines(ui.final(t, public, outcome, names)),
        }
    return {
        "match": match.id,
        "version": match.version,
        "game": match.game,
        "status": match.status,
        "title": match.title,
        "seat": seat.seat,
        "token": seat.token,
        "players": [{"name": s.name, "ai": s.ai, "me": s.seat == seat.seat} for s in match.seats],
        "view": {key: value for key, value in view.items() if key != "log"},
        "legal": [list(action) for action in legal],
        "to_act": sorted(engine.to_act(match.state)) if playing else [],
        "time_left": time_left(match, now),
        "heading": plain_lines(heading)[1:],  # the game's title is the page's own
        "story": [line for line in plain_lines(story) if line],
        "result": result,
        "looks": looks(match.game, t),
        "texts": texts(t),
    }


def listing(match: Match, viewer: int, t: Translator, now: float) -> dict[str, Any]:
    """One line of "your tables": the game, whose turn, the time left."""
    engine, ui = get_engine(match.game), get_ui(match.game)
    to_act = sorted(engine.to_act(match.state)) if match.status == "playing" else []
    seat = match.seat_of(viewer)
    deadlines = time_left(match, now)
    return {
        "match": match.id,
        "game": ui.title(t),
        "title": match.title,
        "your_turn": seat is not None and seat.seat in to_act,
        "to_act": [match.seats[number].name for number in to_act],
        "time_left": min((deadlines[str(n)] for n in to_act if str(n) in deadlines), default=None),
    }
