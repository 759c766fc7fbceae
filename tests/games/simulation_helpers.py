"""Running ``python -m games.simulate`` in-process and reading its JSON line."""

from __future__ import annotations

import json

from games.simulate import main


def cli_figures(capsys, game: str, players: int, games: int, *extra: str) -> dict:
    """Run the command line for ``games`` seeded games (seed 1); it must succeed and print
    one JSON line naming the game, the players and the games, which is returned."""
    argv = [game, "--players", str(players), "--games", str(games), "--seed", "1", *extra]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["game"] == game and figures["players"] == players
    assert figures["games"] == games
    return figures
