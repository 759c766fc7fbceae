"""Pure rules engines: no Telegram, no I/O, no clock, no global random state."""

from __future__ import annotations

from importlib import import_module

from games.core import Engine

# Game id -> module holding its ``ENGINE``, in menu order. Imported on first use.
GAME_MODULES: dict[str, str] = {
    "5211": "games.g5211",
    "sultan": "games.sultan",
    "donkey": "games.donkey",
    "azul": "games.azul",
    "summer_pavilion": "games.summer_pavilion",
}


def get_engine(game_id: str) -> Engine:
    if game_id not in GAME_MODULES:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(GAME_MODULES)}")
    return import_module(GAME_MODULES[game_id]).ENGINE
