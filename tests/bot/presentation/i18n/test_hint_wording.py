"""💡 Hint suggests a move ("Take F2 🟦×2 → line 2"); it never tells it as made ("Taken: …",
"You took …"): in every game and language, through a random game's decisions."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.ui import get_ui, playable_games
from games import get_engine

# how English suggests each game's moves: an imperative, or a placement's place first
SUGGESTING = ("Take ", "Place ", "Play ", "Bid ", "Send ", "Pass", "Lead ", "Keep ", "Finish")
TOLD_AS_MADE = ("You ", "Taken", "Played", "passed", " taken", " kept", "Done")


def decisions(game: str, seed: int, count: int = 40):
    """(view, seat, action) of the decisions of one random game, until ``count``."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(3 if game != "donkey" else 4, None, seed)
    found = []
    while len(found) < count and engine.to_act(state):
        seat = min(engine.to_act(state))
        action = rng.choice(list(engine.legal_actions(state, seat)))
        found.append((engine.view(state, seat), seat, action))
        state = engine.apply(state, seat, action)
    return found


@pytest.mark.parametrize("game", playable_games())
def test_a_hint_suggests_the_move_in_every_language(game):
    ui = get_ui(game)
    for view, seat, action in decisions(game, seed=3):
        for lang in LANGUAGES:
            t = translator(lang)
            suggested = ui.move_label(t, view, action, seat, suggested=True)
            assert suggested != ui.move_label(t, view, action, seat), (game, lang, suggested)
        english = ui.move_label(translator("en"), view, action, seat, suggested=True)
        placement = ", space " in english and ": place " in english
        assert english.startswith(SUGGESTING) or placement, (game, english)
        assert not any(told in english for told in TOLD_AS_MADE), (game, english)
