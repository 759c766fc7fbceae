"""A match's move log, to study or check a match later: a readable text file and a JSON
file that replays it.

The readable log has one line per move, in the reader's language, made only of what the
group saw: each move is replayed with the engine, and its line shows the game's own
announcements of the public events that move caused (a secret choice — cards picked, a bid's
value — reads as "moved" until the events reveal it). Then the final standings, if it
finished.

The JSON holds the game, its options, the number of players, the seed and every action in
order: :func:`replay` deals the same game and applies them with the engine. It is the whole
truth — with the seed it shows every card dealt and every bid — so it is given only for a
match that is over.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

from bot.i18n import Translator
from bot.storage import Match
from bot.ui import get_ui
from bot.ui.base import Names
from games import get_engine
from games.core import State, decode_action

START, TIME_UP = "start", "time_up"  # the host's own entries in the moves table
FORMAT = 1


def plain_text(telegram_html: str) -> str:
    """Telegram HTML as plain text (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", telegram_html))


def replay_document(match: Match, moves: Sequence[tuple[int, int, str]]) -> dict[str, Any]:
    """The replay of a match: ``moves`` as :meth:`Storage.moves` gives them."""
    return {
        "format": FORMAT,
        "match": match.id,
        "game": match.game,
        "options": match.options,
        "players": len(match.seats),
        "seed": match.state["seed"],
        "moves": [[seat, action] for _, seat, action in moves if action != START],
    }


def replay(document: dict[str, Any]) -> State:
    """Deal the game of a replay document and play its moves; returns the last state."""
    engine = get_engine(document["game"])
    state = engine.new_game(document["players"], document["options"], seed=document["seed"])
    for seat, action in document["moves"]:
        if action == TIME_UP:
            state = engine.time_up(state)
        else:
            state = engine.apply(state, seat, decode_action(action))
    return state


def readable_log(
    t: Translator, match: Match, moves: Sequence[tuple[int, int, str]], title: str
) -> str:
    """The readable log (plain text, one line per move) in ``t``'s language."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    names = Names.of([seat.name for seat in match.seats])
    document = replay_document(match, moves)
    state = engine.new_game(document["players"], document["options"], seed=document["seed"])
    lines = [title, t("log.players", names=", ".join(seat.name for seat in match.seats)), ""]
    seen = len(engine.view(state, None)["log"])
    for number, (seat, action) in enumerate(document["moves"], start=1):
        if action == TIME_UP:
            state = engine.time_up(state)
            who = t("log.time_up")
        else:
            state = engine.apply(state, seat, decode_action(action))
            who = match.seats[seat].name
        public = engine.view(state, None)
        events = public["log"][seen:]
        seen = len(public["log"])
        told = [plain_text(text) for text in ui.announce(t, events, public, names) if text]
        said = " / ".join(" ".join(text.split()) for text in told) or t("log.moved")
        lines.append(f"{number}. {who}: {said}")
    if engine.is_over(state):
        public = engine.view(state, None)
        lines += ["", plain_text(ui.final(t, public, engine.result(state), names))]
    return "\n".join(lines) + "\n"


def replay_json(match: Match, moves: Sequence[tuple[int, int, str]]) -> str:
    """The replay document as JSON, one move per line."""
    document = replay_document(match, moves)
    head = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in document.items() if key != "moves"]  # fmt: skip
    lines = [f"  {json.dumps(move)}" for move in document["moves"]]
    return "{\n" + ",\n".join([*head, ' "moves": [\n' + ",\n".join(lines) + "\n ]"]) + "\n}\n"
