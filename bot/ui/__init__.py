"""Per-game UI adapters, looked up by game id."""

from __future__ import annotations

from importlib import import_module

from bot.ui.base import GameUI

UI_MODULES: dict[str, str] = {
    "5211": "bot.ui.g5211",
    "sultan": "bot.ui.sultan",
    "donkey": "bot.ui.donkey",
    "azul": "bot.ui.azul",
    "summer_pavilion": "bot.ui.summer_pavilion",
}


def get_ui(game_id: str) -> GameUI:
    return import_module(UI_MODULES[game_id]).UI


def playable_games() -> list[str]:
    """The games offered in /new and /rules, in menu order."""
    return list(UI_MODULES)
