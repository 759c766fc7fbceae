"""Pure rules engines: no Telegram, no I/O, no clock, no global random state.

Every game is registered here, once: its id and the package that holds its engine (the
package's ``ENGINE``; its options are the engine's ``Options`` model). The id names the game
everywhere else — in callback data, in ``/new <id>``, as its message catalogue's domain and
its rules file ``docs/rules/<id>.md`` — and the package's name is the name of its UI adapter
and board pictures in the bot (see docs/extending.md).
"""

from __future__ import annotations

from importlib import import_module

from games.core import Engine

# Game id -> the package holding its ``ENGINE``, in menu order. Imported on first use.
GAME_MODULES: dict[str, str] = {
    "5211": "games.g5211",
    "sultan": "games.sultan",
    "donkey": "games.donkey",
    "azul": "games.azul",
    "summer_pavilion": "games.summer_pavilion",
}


def _known(game_id: str) -> str:
    if game_id not in GAME_MODULES:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(GAME_MODULES)}")
    return GAME_MODULES[game_id]


def get_engine(game_id: str) -> Engine:
    return import_module(_known(game_id)).ENGINE


def package_name(game_id: str) -> str:
    """The name of the game's package under ``games/`` (``"g5211"`` for ``"5211"``)."""
    return _known(game_id).rpartition(".")[2]
