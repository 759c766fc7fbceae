"""Every screen of every game, in every language, at every step of random games: no raw
message keys, no format errors, within Telegram's limits, and no secret in public screens."""

from __future__ import annotations

import random
import re

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.ui import get_ui, playable_games
from bot.presentation.ui.base import Names
from bot.storage import Match, Seat
from bot.table.publishing.messages import keyboard
from games import get_engine

# a message key shown as it is: a host prefix or a game's id (its catalogue's domain), a dot
PREFIXES = ("bot", "lobby", "play", "error", *playable_games())
RAW_KEY = re.compile(rf"\b(?:{'|'.join(map(re.escape, PREFIXES))})\.[a-z_]")
MAX_TEXT = 4096


def check_screen(text: str, rows: list, match: Match, seat: int | None) -> None:
    assert text.strip()
    assert not RAW_KEY.search(text), f"untranslated key in: {text}"
    assert len(re.sub(r"<[^>]+>", "", text)) <= MAX_TEXT
    markup = keyboard(match, rows, seat)
    assert sum(len(row) for row in markup) <= 100
    assert all(1 <= len(row) <= 8 for row in markup)
    for row in markup:
        for button in row:
            assert button["text"].strip() and not RAW_KEY.search(button["text"])
            if "callback_data" in button:
                assert len(button["callback_data"].encode()) <= 64


def player_counts(game: str) -> list[int]:
    engine = get_engine(game)
    return sorted({engine.min_players, engine.max_players})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_every_screen_renders_in_every_language(game, lang):
    engine = get_engine(game)
    ui = get_ui(game)
    t = translator(lang)
    for players in player_counts(game):
        names = Names.of([f"P{seat}<&>" for seat in range(players)])
        state = engine.new_game(players, None, seed=players)
        match = Match(1, -1, 0, game, state["options"], "playing", 1, version=5, state=state)
        match.seats = [Seat(seat, 100 + seat, f"P{seat}", token=5) for seat in range(players)]
        chooser = random.Random(players)
        announced = 0
        while True:
            public = engine.view(state, None)
            screen = ui.board(t, public, names)
            check_screen(screen.text, screen.rows, match, None)
            assert "&>" not in screen.text  # names are escaped
            for text in ui.announce(t, public["log"][announced:], public, names):
                check_screen(text, [], match, None)
            announced = len(public["log"])
            for seat in range(players):
                legal = engine.legal_actions(state, seat)
                view = engine.view(state, seat)
                prompt = ui.prompt(t, view, seat, legal, None, names)
                check_screen(prompt.text, prompt.rows, match, seat)
            if engine.is_over(state):
                break
            seat = chooser.choice(sorted(engine.to_act(state)))
            action = chooser.choice(engine.legal_actions(state, seat))
            assert ui.move_label(t, engine.view(state, seat), action, seat).strip()
            state = engine.apply(state, seat, action)
            match.state = state
        final = ui.final(t, engine.view(state, None), engine.result(state), names)
        check_screen(final, [], match, None)
        assert ui.rules(t).strip() and not RAW_KEY.search(ui.rules(t))


@pytest.mark.parametrize("game", playable_games())
def test_every_option_value_has_a_label_in_every_language(game):
    from bot.handlers.lobby import option_choices

    ui = get_ui(game)
    for lang in LANGUAGES:
        t = translator(lang)
        for name, values in option_choices(game).items():
            labels = [ui.option_label(t, name, value) for value in values]
            assert all(label and not RAW_KEY.search(label) for label in labels)
            assert len(set(labels)) == len(labels)
