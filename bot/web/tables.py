"""A table as the app shows it: what one viewer may see of a match, as JSON.

The seat's view is the engine's ``view(state, seat)`` — the very function its chat prompt is
drawn from — with its legal moves as lists of numbers, the heading and the turn story in the
viewer's language (the game's own screens' words: ``bot.presentation.ui``), the time left to
move, and what the page needs to draw the tiles as the pictures do (colours and symbols:
``bot.presentation.pictures``) — for a card game the seat's hand and its moves as cards
(``bot.web.cards``) — and the seats around the table; a card game's table is drawn, not
written: its centre, what to do now, the last move and a round's summary
(``bot.web.card_table``), never the group board's text. Nobody without a seat gets a
seat's view: a member of the match's group watches the public view, with no move. The page
draws this and nothing else; legal moves come from the engine, never from the page."""

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
from bot.storage import Match, PastMatch
from bot.table.place import place_of
from bot.web import card_table, cards, tile_table
from bot.web.cards import CARD_GAMES
from games import get_engine, package_name

TABLE_GAMES = ("5211", "sultan", "donkey", "azul", "summer_pavilion")  # the games the app draws
TAG = re.compile(r"<[^>]+>")
# the page's own words, in the viewer's language ("app." keys of the bot's catalogue)
PAGE_TEXTS = (
    "open_table", "your_turn", "your_tables", "no_tables", "open_in_telegram", "connecting",
    "offline", "storage_down", "not_your_table", "no_table", "game_over", "centre", "pass",
    "done", "take", "cancel", "waiting", "score", "play", "watching", "replay", "back",
    "forward", "start", "end", "finished", "deal", "step", "play_again", "home", "player",
    "you", "starts", "empty", "unavailable", "to_move", "legend",
)  # fmt: skip
# the drawn table's own words ("table.page." keys of the table domain)
TABLE_TEXTS = ("continue", "total", "table", "last", "bonus", "lost")
# words that name a game's own pieces and places, each game's in its own words
# ("app.<game>." and "table.<game>." keys): the glossary reads them as the game's
GAME_TEXTS = {
    "azul": (
        "factory", "floor", "pick_tiles", "pick_line", "pick_column", "line", "wall_row", "board",
    ),
    "summer_pavilion": (
        "factory", "supply", "hand", "corners", "wild", "pick_tiles", "pick_space",
        "pick_payment", "pick_bonus", "pick_keep", "space", "board",
    ),
}  # fmt: skip
CARD_TEXTS = ("back", "hand")  # a card face down, the player's hand: "table.<game>." keys


def plain_lines(text: str) -> list[str]:
    """A screen's HTML text as plain lines: the page shows text, never markup."""
    return [html.unescape(TAG.sub("", line)) for line in text.split("\n")]


def css(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def looks(game: str, t: Translator) -> list[dict[str, Any]]:
    """Each colour of the game's tiles as its pictures draw it: its colour, its symbol (no
    colour is told by colour alone), the ink that reads on it, and its name."""
    return _looks(game, t.lang)


def texts(t: Translator, game: str | None = None) -> dict[str, str]:
    """The page's words in ``t``'s language; with a ``game``, that game's own words too."""
    return _texts(t.lang, game)


@cache
def _texts(lang: str, game: str | None) -> dict[str, str]:
    t = translator(lang)
    words = {key: t(f"app.{key}") for key in PAGE_TEXTS}
    words.update({f"table_{key}": t(f"table.page.{key}") for key in TABLE_TEXTS})
    words["refused"] = t("app.error.refused")  # a refusal that came without its words
    words["lang"] = lang  # the page's dates and its <html lang> in the reader's language
    words.update({key: t(f"app.{game}.{key}") for key in GAME_TEXTS.get(game, ())})
    if game in CARD_GAMES:
        words.update({f"table_{key}": t(f"table.{game}.{key}") for key in CARD_TEXTS})
    return words


@cache
def _looks(game: str, lang: str) -> list[dict[str, Any]]:
    if game in CARD_GAMES:
        return []  # cards are told by their labels
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
    """The table ``viewer`` sees now: a seated player their seat's view, anyone else (a
    member of the match's group, as the caller checked) the public view, with no move."""
    engine, ui = get_engine(match.game), get_ui(match.game)
    seat = match.seat_of(viewer)
    number = seat.seat if seat is not None else None
    view = engine.view(match.state, number)  # a spectator's is the public one
    public = engine.view(match.state, None)
    names = Names.of([s.name for s in match.seats])
    playing = match.status == "playing"
    to_act = sorted(engine.to_act(match.state)) if playing else []
    legal = engine.legal_actions(match.state, number) if playing and seat is not None else []
    if legal:
        story = ui.since_your_turn(t, view, number, names)
    elif match.game in CARD_GAMES:
        story = ""  # the board's own words say the last move, as the group's board does
    else:  # what the player to act is deciding after (the latest moves, as on the board)
        story = ui.latest_moves(t, public, to_act[0] if to_act else 0, names)
    payload = {
        "match": match.id,
        "version": match.version,
        "game": match.game,
        "game_name": ui.title(t),
        "status": match.status,
        "title": match.title,
        "seat": number,
        "token": seat.token if seat is not None else None,
        "players": [{"name": s.name, "ai": s.ai, "me": s.seat == number} for s in match.seats],
        "view": without_log(view),
        "legal": [list(action) for action in legal],
        "to_act": to_act,
        "time_left": time_left(match, now),
        "story": [line for line in plain_lines(story) if line],
        "result": result(match, t, public, names) if match.status == "finished" else None,
        # the end screen's Play again, where the chat offers a rematch (not a tournament's)
        "rematch": match.status == "finished"
        and seat is not None
        and place_of(match).board_in_group,
        "looks": looks(match.game, t),
        "texts": texts(t, match.game),
        **public_lines(match.game, t, public, names),
        **drawn(match.game, t, view, number, names, to_act, bool(legal)),
    }
    if match.game in CARD_GAMES and seat is not None:
        payload["hand"] = cards.hand(match.game, t, view)
        payload["choices"] = cards.choices(match.game, t, view, number, legal)
    return payload


def without_log(view: dict) -> dict:
    return {key: value for key, value in view.items() if key != "log"}


def public_lines(game: str, t: Translator, public: dict, names: Names) -> dict[str, Any]:
    """The words of the group's board the page keeps: a tile game's heading (its picture's
    caption; the page draws the rest). A card game keeps none: its table is drawn
    (``drawn``)."""
    if game in CARD_GAMES:
        return {"heading": []}
    heading = get_ui(game).caption(t, public, names).split("\n\n", 1)[0]
    return {"heading": plain_lines(heading)[1:]}  # the title is the page's own


def drawn(
    game: str, t: Translator, view: dict, seat: int | None, names: Names, to_act: list[int],
    legal: bool,
) -> dict[str, Any]:  # fmt: skip
    """The seats around the table for every game; a card game's centre, what to do now,
    its last move and the summary of a round just over (``bot.web.card_table``); a tile
    game's round as it was scored (``bot.web.tile_table``)."""
    if game in CARD_GAMES:
        return card_table.drawn(game, t, view, seat, names, to_act, legal)
    return {
        "seats": card_table.tile_seats(game, t, view, names),
        "summary": tile_table.summary(game, t, view, names) if "log" in view else None,
        "labels": tile_table.labels(game, t, view),
    }


def result(match: Match, t: Translator, public: dict, names: Names) -> dict[str, Any]:
    outcome = get_engine(match.game).result(match.state)
    return {
        "scores": outcome.scores,
        "ranks": outcome.ranks,
        "lines": plain_lines(get_ui(match.game).final(t, public, outcome, names)),
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


def finished_line(past: PastMatch, t: Translator) -> dict[str, Any]:
    """One finished match of the app's home: the game, when, the players' results."""
    return {
        "match": past.match_id,
        "game": get_ui(past.game).title(t),
        "ended_at": past.ended_at,
        "outcome": past.outcome,
        "players": [
            {"name": p.name, "score": p.score, "winner": p.rank == 1} for p in past.players
        ],
    }
