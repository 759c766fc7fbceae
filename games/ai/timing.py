"""How long an AI takes to decide, per level, and to give a hint.

    python -m games.ai.timing GAME --players N --positions K --seed S [--runs R]
        [--levels normal,hard] [--option KEY=VALUE]

Collects K positions from seeded games of normal players (every seat's decisions, spread
over whole games), then times ``choose`` at each level and ``hint`` on every one of them,
in this process alone (the arena's ``--jobs`` share the machine and blur the clock). Does
this R times and prints one JSON line with, per level and for the hint, the milliseconds
per decision at the median and the 99th percentile by the wall clock and by CPU time
(``time.process_time``), each the median of the R runs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from games import GAME_MODULES, get_engine
from games.ai import LEVELS, choose, hint
from games.core import Action, View
from games.simulate import game_seed, parse_option, percentile

HINT = "hint"
# One position in this many of a game is kept, so that K positions span whole games.
EVERY = 3

Position = tuple[View, int, list[Action]]


def collect_positions(
    game: str, players: int, options: dict[str, Any], count: int, seed: int
) -> list[Position]:
    """``count`` decisions of seeded games of normal players with more than one choice."""
    engine = get_engine(game)
    found: list[Position] = []
    index = 0
    while len(found) < count:
        state = engine.new_game(players, options, game_seed(seed, index))
        seeds = random.Random(f"timing:{seed}:{index}")
        moves = 0
        while not engine.is_over(state) and len(found) < count:
            decisions = []
            for seat in sorted(engine.to_act(state)):
                view = engine.view(state, seat)
                legal = list(engine.legal_actions(state, seat))
                if len(legal) > 1 and moves % EVERY == 0:
                    found.append((view, seat, legal))
                decisions.append(
                    (seat, choose(game, "normal", view, seat, legal, seeds.getrandbits(63)))
                )
                moves += 1
            for seat, action in decisions:
                state = engine.apply(state, seat, action)
        index += 1
    return found[:count]


def time_calls(game: str, what: str, positions: list[Position], seed: int) -> dict[str, float]:
    wall_ms, cpu_ms = [], []
    for number, (view, seat, legal) in enumerate(positions):
        call_seed = seed * 100_003 + number
        wall, cpu = time.perf_counter(), time.process_time()
        if what == HINT:
            hint(game, view, seat, legal, call_seed)
        else:
            choose(game, what, view, seat, legal, call_seed)
        cpu_ms.append((time.process_time() - cpu) * 1000)
        wall_ms.append((time.perf_counter() - wall) * 1000)
    return {
        "ms_p50": percentile(wall_ms, 0.5),
        "ms_p99": percentile(wall_ms, 0.99),
        "cpu_ms_p50": percentile(cpu_ms, 0.5),
        "cpu_ms_p99": percentile(cpu_ms, 0.99),
    }


def timing(
    game: str,
    players: int,
    count: int,
    seed: int,
    runs: int,
    levels: list[str],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    engine = get_engine(game)
    opts = engine.options(options).model_dump()
    positions = collect_positions(game, players, opts, count, seed)
    figures: dict[str, Any] = {}
    for what in [*levels, HINT]:
        measured = [time_calls(game, what, positions, seed) for _ in range(runs)]
        figures[what] = {
            key: round(statistics.median(run[key] for run in measured), 3) for key in measured[0]
        }
    return {
        "game": game,
        "players": players,
        "positions": len(positions),
        "runs": runs,
        "seed": seed,
        "options": opts,
        "levels": figures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai.timing", description=__doc__)
    parser.add_argument("game", choices=sorted(GAME_MODULES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--levels", default="normal,hard", help="levels to time, e.g. normal")
    parser.add_argument(
        "--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE"
    )
    args = parser.parse_args(argv)
    levels = args.levels.split(",") if args.levels else []
    if any(level not in LEVELS for level in levels):
        print(f"error: --levels takes levels out of {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    if args.positions < 1 or args.runs < 1:
        print("error: --positions and --runs must be positive", file=sys.stderr)
        return 2
    try:
        report = timing(
            args.game, args.players, args.positions, args.seed, args.runs, levels, dict(args.option)
        )
    except ValueError as error:  # bad options or player count
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
