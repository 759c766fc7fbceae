"""Per-game UI adapters, looked up by game id.

The games are the ones registered in ``games.GAME_MODULES``; a game's adapter is the ``UI``
of ``bot/presentation/ui/<package>.py``, named after its engine's package
(``bot/presentation/ui/g5211.py`` for ``games/g5211/``). There is no second list to keep.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from bot.presentation.ui.base import GameUI
from games import GAME_MODULES, package_name


@cache
def get_ui(game_id: str) -> GameUI:
    return import_module(f"bot.presentation.ui.{package_name(game_id)}").UI


def playable_games() -> list[str]:
    """The games offered in /new and /rules, in menu order."""
    return list(GAME_MODULES)
