"""A finished match as the table app replays it: the deal, then every move, each step with
the public view after it — the boards, and the hands as everyone saw them: face down, until
the rules show them — its numbered line, what the rules did for others, and the news it
caused, in the viewer's language. Built from the match's stored moves by the engine
(``bot.table.match_log``: the readable log's own steps); nothing hidden is ever in it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.presentation.i18n import Translator
from bot.presentation.ui import get_ui
from bot.presentation.ui.base import Names
from bot.storage import Match
from bot.table.match_log import public_replay
from bot.web.tables import drawn, looks, plain_lines, public_lines, result, texts, without_log
from games import get_engine

KEPT = 16  # replays kept worked out, by match and language: stepping back and forth is free


class Replays:
    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[int, str], list[dict[str, Any]]] = OrderedDict()

    def steps(
        self, t: Translator, match: Match, moves: list[tuple[int, int, str]]
    ) -> list[dict[str, Any]]:
        key = (match.id, t.lang)
        made = self._kept.get(key)
        if made is None:
            made = replay_steps(t, match, moves)
            self._kept[key] = made
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return made


def replay_steps(
    t: Translator, match: Match, moves: list[tuple[int, int, str]]
) -> list[dict[str, Any]]:
    names = Names.of([seat.name for seat in match.seats])
    replayed = public_replay(t, match, moves)
    made = [_step(t, match, names, replayed.dealt, 0, "", [], [])]
    for step in replayed.steps:
        news = [line for text in step.news for line in plain_lines(text) if line]
        made.append(_step(t, match, names, step.public, step.number, step.line, step.others, news))
    return made


def _step(t, match, names, public, number, line, others, news) -> dict[str, Any]:
    return {
        "step": number,
        "line": line,
        "others": others,
        "news": news,
        "view": without_log(public),
        **public_lines(match.game, t, public, names),
        **drawn(match.game, t, public, None, names, [], False),
    }


def summary(t: Translator, match: Match, count: int) -> dict[str, Any]:
    """What a replay's page needs once: the game, the players, the result, the words."""
    engine = get_engine(match.game)
    names = Names.of([seat.name for seat in match.seats])
    over = match.status == "finished"
    return {
        "match": match.id,
        "game": match.game,
        "game_name": get_ui(match.game).title(t),
        "title": match.title,
        "players": [{"name": s.name, "ai": s.ai, "me": False} for s in match.seats],
        "steps": count,
        "result": result(match, t, engine.view(match.state, None), names) if over else None,
        "looks": looks(match.game, t),
        "texts": texts(t, match.game),
    }
