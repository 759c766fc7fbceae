"""AI players against each other, seats rotated.

    python -m games.arena GAME --players N --games K --seed S --seats hard,hard-v1[,...]
        [--budget ITERATIONS | --budget 0.25x] [--option KEY=VALUE] [--jobs J]

``--seats`` lists one level per seat (``random``, ``easy``, ``normal``, ``hard``, and
``hard-v1``, the hard level before the tree search, and ``reference``, textbook MCTS with
random playouts, the outside yardstick). ``--budget``: the hard level's
iterations per decision, or a multiple of the game's default (about a second; the
reference always makes 1,000); counted, never timed, so the results reproduce on any
machine. Game
``i`` deals with the seed of pair ``i // N`` and shifts the levels round the table by
``i % N`` seats, so every level plays every seat on the same deals. Prints one JSON line:
``game``, ``players``, ``games``, and for each level: ``win_rate`` (a shared win is split
between the winners), ``mean_score`` (the mean penalty in games where lower is better,
see ``lower_is_better``), their 95% confidence intervals (normal approximation over the
games), and the wall-clock and CPU milliseconds per decision at the median and the 99th
percentile. Each game and each decision is seeded from ``--seed``, so the results are the
same whatever ``--jobs`` (worker processes) is; only the timings vary.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from games import GAME_MODULES, get_engine
from games.ai import LEVELS, choose, game_ai
from games.simulate import game_seed, parse_option, percentile

Z95 = 1.96


@dataclass
class GameRecord:
    """One finished game: per seat its level, score, share of the win, decision times."""

    levels: list[str]
    scores: list[int]
    win_shares: list[float]
    wall_ms: list[list[float]]
    cpu_ms: list[list[float]]


def seating(levels: Sequence[str], index: int) -> list[str]:
    """The levels of game ``index`` by seat: rotated by one seat per game."""
    shift = index % len(levels)
    return list(levels[-shift:]) + list(levels[:-shift]) if shift else list(levels)


def play_game(
    game: str,
    levels: Sequence[str],
    index: int,
    seed: int,
    options: dict[str, Any],
    iterations: int | None = None,
) -> GameRecord:
    engine = get_engine(game)
    players = len(levels)
    seats = seating(levels, index)
    state = engine.new_game(players, options, game_seed(seed, index // players))
    decision_seeds = random.Random(f"arena:{seed}:{index}")
    wall_ms: list[list[float]] = [[] for _ in range(players)]
    cpu_ms: list[list[float]] = [[] for _ in range(players)]
    while not engine.is_over(state):
        decisions = []
        for seat in sorted(engine.to_act(state)):  # simultaneous choices see none of the others
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            decision_seed = decision_seeds.getrandbits(63)
            wall, cpu = time.perf_counter(), time.process_time()
            action = choose(game, seats[seat], view, seat, legal, decision_seed, iterations)
            cpu_ms[seat].append((time.process_time() - cpu) * 1000)
            wall_ms[seat].append((time.perf_counter() - wall) * 1000)
            decisions.append((seat, action))
        for seat, action in decisions:
            state = engine.apply(state, seat, action)
    result = engine.result(state)
    winners = result.winners
    shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    return GameRecord(seats, list(result.scores), shares, wall_ms, cpu_ms)


def _play_indexed(args: tuple) -> GameRecord:
    return play_game(*args)


def mean_ci(values: list[float]) -> tuple[float, list[float]]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, [mean, mean]
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, [mean - half, mean + half]


def summarise(records: list[GameRecord]) -> dict[str, Any]:
    """Per level: each game counts once, with the mean over that level's seats in it."""
    summary: dict[str, Any] = {}
    for level in dict.fromkeys(level for record in records for level in record.levels):
        wins, scores, wall, cpu = [], [], [], []
        seats = 0
        for record in records:
            mine = [seat for seat, name in enumerate(record.levels) if name == level]
            seats = len(mine)
            wins.append(statistics.fmean(record.win_shares[seat] for seat in mine))
            scores.append(statistics.fmean(record.scores[seat] for seat in mine))
            for seat in mine:
                wall += record.wall_ms[seat]
                cpu += record.cpu_ms[seat]
        win_rate, win_ci = mean_ci(wins)
        mean_score, score_ci = mean_ci(scores)
        summary[level] = {
            "seats": seats,
            "win_rate": round(win_rate, 4),
            "win_rate_ci95": [round(min(1.0, max(0.0, bound)), 4) for bound in win_ci],
            "mean_score": round(mean_score, 2),
            "mean_score_ci95": [round(bound, 2) for bound in score_ci],
            "decisions": len(wall),
            "ms_per_decision_p50": round(percentile(wall, 0.5), 3) if wall else None,
            "ms_per_decision_p99": round(percentile(wall, 0.99), 3) if wall else None,
            "cpu_ms_per_decision_p50": round(percentile(cpu, 0.5), 3) if cpu else None,
            "cpu_ms_per_decision_p99": round(percentile(cpu, 0.99), 3) if cpu else None,
        }
    return summary


def arena(
    game: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    iterations: int | None = None,
) -> dict[str, Any]:
    engine = get_engine(game)
    opts = engine.options(options).model_dump()
    engine.new_game(len(levels), opts, seed)  # rejects a wrong player count at once
    if iterations is None:
        iterations = game_ai(game).iterations
    tasks = [(game, list(levels), index, seed, opts, iterations) for index in range(games)]
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    if jobs > 1:
        with get_context("spawn").Pool(jobs) as pool:
            records = pool.map(_play_indexed, tasks, chunksize=1)
    else:
        records = [_play_indexed(task) for task in tasks]
    return {
        "game": game,
        "players": len(levels),
        "games": games,
        "seed": seed,
        "options": opts,
        "seats": list(levels),
        "budget": iterations,
        "lower_is_better": game_ai(game).lower_is_better,
        "levels": summarise(records),
        "seconds": round(time.perf_counter() - started_wall, 1),
        "cpu_seconds_main": round(time.process_time() - started_cpu, 1),
        "jobs": jobs,
    }


def budget_iterations(game: str, budget: str | None) -> int | None:
    """``--budget``: iterations ("800"), a multiple of the game's default ("0.5x"), or
    none (the default)."""
    if budget is None:
        return None
    if budget.endswith("x"):
        iterations = round(float(budget[:-1]) * game_ai(game).iterations)
    else:
        iterations = int(budget)
    if iterations < 1:
        raise ValueError(f"--budget {budget}: at least one iteration")
    return iterations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.arena", description=__doc__)
    parser.add_argument("game", choices=sorted(GAME_MODULES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", required=True, help="levels by seat, e.g. hard,normal")
    parser.add_argument(
        "--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--budget", help="the hard level's iterations per decision, or a multiple: 0.5x"
    )
    args = parser.parse_args(argv)
    levels = args.seats.split(",")
    if len(levels) != args.players or any(level not in LEVELS for level in levels):
        print(
            f"error: --seats needs {args.players} levels out of {', '.join(LEVELS)}",
            file=sys.stderr,
        )
        return 2
    if args.games < 1 or args.jobs < 1:
        print("error: --games and --jobs must be positive", file=sys.stderr)
        return 2
    try:
        iterations = budget_iterations(args.game, args.budget)
        report = arena(
            args.game, levels, args.games, args.seed, dict(args.option), args.jobs, iterations
        )
    except ValueError as error:  # bad options or player count
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
