"""Pure rules engines: no Telegram, no I/O, no clock, no global random state."""

from __future__ import annotations

from importlib import import_module

from games.core import Engine

# Game id -> module holding its ``ENGINE``. Imported lazily so one game's bug or slow import
# never affects the others.
GAME_MODULES: dict[str, str] = {
    "5211": "games.g5211",
    "sultan": "games.sultan",
    "donkey": "games.donkey",
    "azul": "games.azul",
    "summer_pavilion": "games.summer_pavilion",
}


def available_games() -> list[str]:
    """Ids of the games whose engines are installed, in menu order."""
    found = []
    for game_id, module in GAME_MODULES.items():
        try:
            import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
            continue
        found.append(game_id)
    return found


def get_engine(game_id: str) -> Engine:
    if game_id not in GAME_MODULES:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(GAME_MODULES)}")
    return import_module(GAME_MODULES[game_id]).ENGINE
