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
    """Games that have both an engine and a UI, in menu order."""
    found = []
    for game_id, module in UI_MODULES.items():
        try:
            import_module(module)
        except ModuleNotFoundError as error:
            if error.name not in (module, module.replace("bot.ui", "games", 1)):
                raise
            continue
        found.append(game_id)
    return found
