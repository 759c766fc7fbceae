"""``python -m bot.bench_records`` on a small history: the made-up history is rated as the
bot rates, the leaderboards it fills are ordered, and the figures come out."""

from __future__ import annotations

import argparse

from bot.bench.records import history, run
from bot.storage.records import GLOBAL


def small(**overrides) -> argparse.Namespace:
    values = {"matches": 300, "players": 80, "groups": 4, "calls": 20, "runs": 1, "seed": 3}
    return argparse.Namespace(**{**values, **overrides})


def test_the_history_rates_every_player_of_every_match():
    rows, members = history(small())
    assert len(rows["matches"]) == len(rows["match_records"]) == 300
    players = rows["match_players"]
    games_by_player: dict[tuple, int] = {}
    for _, _, user, _, chat, game, *_ in players:
        for scope in (GLOBAL, chat):
            games_by_player[(scope, game, user)] = games_by_player.get((scope, game, user), 0) + 1
    assert {(scope, game, user): games for scope, game, user, *_, games in rows["ratings"]} == (
        games_by_player
    )
    assert all(user in members[(-chat - 10**12)] for _, _, user, _, chat, *_ in players)


async def test_the_figures_of_a_small_run(tmp_path):
    figures = await run(small(), tmp_path, None)
    assert figures["matches"] == 300 and figures["database"] == "sqlite"
    assert len(figures["load_average"]) == 3
    for command in ("top", "stats"):
        assert set(figures[command]) == {"p50_ms", "p99_ms", "cpu_p50_ms", "cpu_p99_ms"}
        assert 0 < figures[command]["p50_ms"] <= figures[command]["p99_ms"]
