"""A match's move log, to study or check a match later: a readable text file and a JSON
file that replays it.

The readable log has a numbered line per move, in the reader's language, made only of what
the group saw and in the game's own words (``move_text``: "F3 🟦×2 → line 3"). The news a
move caused — a round's tiling, a reveal, a round won, scores — follows as lines of its own,
not as the mover's. A secret choice (5211's cards) says only that it was made; its cards
show at the reveal, as a Sultan bid's value does. Then the final standings, if it finished.

The JSON holds the game, its options, the number of players, the seed and every action in
order: :func:`replay` deals the same game and applies them with the engine. It is the whole
truth (with the seed, the bag's order or every card dealt), so it is given only for a match
that is over.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import GameUI, Names
from bot.storage import Match
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


@dataclass(frozen=True)
class Step:
    """One move of a finished match, as the group saw it: its numbered line (the mover's
    words, or "time is up"), the moves the rules then made for others, the news it caused,
    and the public view after it."""

    number: int
    line: str
    others: list[str]
    news: list[str]
    public: Any


@dataclass(frozen=True)
class PublicReplay:
    """A finished match played again over the public views: the deal as the group saw it,
    every move as a :class:`Step`, and the last state (for the final standings)."""

    dealt: Any
    steps: list[Step]
    end: State


def public_replay(
    t: Translator, match: Match, moves: Sequence[tuple[int, int, str]]
) -> PublicReplay:
    """Every move of the match in ``t``'s language, over the public views: the readable log's
    lines and the table app's replay are both made of these."""
    engine = get_engine(match.game)
    ui = get_ui(match.game)
    names = Names.of([seat.name for seat in match.seats])
    document = replay_document(match, moves)
    state = engine.new_game(document["players"], document["options"], seed=document["seed"])
    dealt = public = engine.view(state, None)
    seen = len(public["log"])
    made = []
    for number, (seat, action) in enumerate(document["moves"], start=1):
        before = public  # a move's words name what it found (a cushion's gem)
        if action == TIME_UP:
            state = engine.time_up(state)
        else:
            state = engine.apply(state, seat, decode_action(action))
        public = engine.view(state, None)
        events = public["log"][seen:]
        seen = len(public["log"])
        turns = _turns(t, ui, before, events)
        if action == TIME_UP:
            line = f"{number}. {t('log.time_up')}"
        else:
            mover = turns.pop(0)[1] if turns and turns[0][0] == seat else []
            said = " · ".join(mover) or plain_text(
                ui.log_step(t, before, decode_action(action), seat) or t("log.moved")
            )
            line = f"{number}. {match.seats[seat].name}: {said}"
        # moves the rules made for others (a pass without tiles), under the move
        others = [f"{plain_text(names[other])}: {' · '.join(said)}" for other, said in turns]
        news = list(ui.log_news(t, events, public, names))
        made.append(Step(number, line, others, news, public))
    return PublicReplay(dealt, made, state)


def readable_log(
    t: Translator, match: Match, moves: Sequence[tuple[int, int, str]], title: str
) -> str:
    """The readable log (plain text) in ``t``'s language: a numbered line per move, then
    the news it caused (scores, reveals, a round's end) as lines of their own."""
    lines = [title, t("log.players", names=", ".join(seat.name for seat in match.seats)), ""]
    replayed = public_replay(t, match, moves)
    for step in replayed.steps:
        lines.append(step.line)
        lines += [f"    {other}" for other in step.others]
        for news in step.news:
            lines += ["", *_block(news), ""]
    engine = get_engine(match.game)
    end = replayed.end
    if engine.is_over(end):
        names = Names.of([seat.name for seat in match.seats])
        final = get_ui(match.game).final(t, engine.view(end, None), engine.result(end), names)
        lines += ["", *_block(final)]
    return "\n".join(_single_blanks(lines)) + "\n"


def _turns(
    t: Translator, ui: GameUI, view: Any, events: Sequence[dict]
) -> list[tuple[int, list[str]]]:
    """The moves among ``events`` in the UI's words over ``view`` (the table before them):
    (seat, texts) per run of a seat's moves in a row."""
    turns: list[tuple[int, list[str]]] = []
    for event in events:
        if event["type"] not in ui.move_events:
            continue
        text = ui.move_text(t, view, event)
        if text is None:
            continue
        text = " ".join(plain_text(text).split())
        if turns and turns[-1][0] == event["seat"]:
            turns[-1][1].append(text)
        else:
            turns.append((event["seat"], [text]))
    return turns


def _block(news: str) -> list[str]:
    """A news message as lines of its own: its first line, then the rest indented (so that
    a numbered line inside, a reveal's "1. 🔴 ruby" or a 4th place, is not taken for a
    move)."""
    rows = [row.rstrip() for row in plain_text(news).splitlines() if row.strip()]
    return rows[:1] + [f"    {row}" for row in rows[1:]]


def _single_blanks(lines: list[str]) -> list[str]:
    """``lines`` without a blank line after another one (two news in a row)."""
    return [line for i, line in enumerate(lines) if line or i == 0 or lines[i - 1]]


def replay_json(match: Match, moves: Sequence[tuple[int, int, str]]) -> str:
    """The replay document as JSON, one move per line."""
    document = replay_document(match, moves)
    head = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in document.items() if key != "moves"]  # fmt: skip
    lines = [f"  {json.dumps(move)}" for move in document["moves"]]
    return "{\n" + ",\n".join([*head, ' "moves": [\n' + ",\n".join(lines) + "\n ]"]) + "\n}\n"
