"""Draw the pictures of a seeded random game and print what they cost.

    python -m bot.pictures GAME --players N --seed S --moves M --out DIR [-o KEY=VALUE]

Plays up to M random legal moves (fewer if the game ends), drawing the group picture and
the private picture of every seat to act at every position, writes the group picture and
each player's private picture of the last position into DIR, and prints one JSON line:
``game``, ``players``, ``options``, ``positions``, ``files``, ``render_ms_p50`` /
``render_ms_p99`` (group picture, view to PNG bytes, wall clock) with ``cpu_ms_p50`` /
``cpu_ms_p99`` (the same in process CPU time), ``private_ms_p50`` / ``private_ms_p99``
with ``private_cpu_ms_p50`` / ``private_cpu_ms_p99`` (the prompt's picture: every board),
``max_bytes`` / ``mean_bytes`` (every picture drawn), ``max_size`` (pixels) and
``warmup_ms`` (reading the palette, drawing the backgrounds and sprites: once per process
and layout, not counted in the figures above).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

from bot.presentation.pictures import PICTURE_MODULES, palette, render_group, render_private
from games import get_engine
from games.simulate import parse_option

# the players' names drawn on the boards: Latin with accents, Cyrillic, and a long one
NAMES = ("Alice", "Борис", "Niccolò dell'Àrca", "Ґанна Їжакевич-Євтушенко")


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, round(fraction * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


def timed(draw, *args) -> tuple[bytes, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    picture = draw(*args)
    return picture, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def run(
    game: str, players: int, seed: int, moves: int, out: Path, options: dict[str, Any]
) -> dict[str, Any]:
    engine = get_engine(game)
    opts = engine.options(options).model_dump()
    state = engine.new_game(players, opts, seed)
    chooser = random.Random(seed)

    started = time.perf_counter()
    palette(game)
    first = engine.view(state, None)
    render_group(game, first)  # this layout's background and sprites
    for seat in range(players):
        render_private(game, first, seat)
    warmup_ms = (time.perf_counter() - started) * 1000

    group_ms: list[float] = []
    group_cpu: list[float] = []
    private_ms: list[float] = []
    private_cpu: list[float] = []
    sizes: list[int] = []
    positions = 0
    while True:
        view = engine.view(state, None)
        picture, wall, cpu = timed(render_group, game, view, None, NAMES[:players])
        group_ms.append(wall)
        group_cpu.append(cpu)
        sizes.append(len(picture))
        for seat in sorted(engine.to_act(state)):
            picture, wall, cpu = timed(
                render_private, game, engine.view(state, seat), seat, NAMES[:players]
            )
            private_ms.append(wall)
            private_cpu.append(cpu)
            sizes.append(len(picture))
        positions += 1
        if positions > moves or engine.is_over(state):
            break
        seat = chooser.choice(sorted(engine.to_act(state)))
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))

    out.mkdir(parents=True, exist_ok=True)
    files = []
    largest = (0, 0)
    names = NAMES[:players]
    pictures = [("group", render_group(game, engine.view(state, None), None, names))]
    pictures += [
        (f"seat{seat + 1}", render_private(game, engine.view(state, seat), seat, names))
        for seat in range(players)
    ]
    for name, picture in pictures:
        path = out / f"{game}-{players}p-{name}.png"
        path.write_bytes(picture)
        files.append(str(path))
        with Image.open(path) as image:
            largest = max(largest, image.size)
    return {
        "game": game,
        "players": players,
        "options": opts,
        "seed": seed,
        "positions": positions,
        "files": files,
        "render_ms_p50": round(statistics.median(group_ms), 2),
        "render_ms_p99": round(percentile(group_ms, 0.99), 2),
        "cpu_ms_p50": round(statistics.median(group_cpu), 2),
        "cpu_ms_p99": round(percentile(group_cpu, 0.99), 2),
        "private_ms_p50": round(statistics.median(private_ms), 2) if private_ms else None,
        "private_ms_p99": round(percentile(private_ms, 0.99), 2) if private_ms else None,
        "private_cpu_ms_p50": round(statistics.median(private_cpu), 2) if private_cpu else None,
        "private_cpu_ms_p99": round(percentile(private_cpu, 0.99), 2) if private_cpu else None,
        "max_bytes": max(sizes),
        "mean_bytes": round(statistics.fmean(sizes)),
        "max_size": list(largest),
        "warmup_ms": round(warmup_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.pictures", description=__doc__)
    parser.add_argument("game", choices=sorted(PICTURE_MODULES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        type=parse_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o wall=grey or -o variant1=true",
    )
    args = parser.parse_args(argv)
    try:
        report = run(args.game, args.players, args.seed, args.moves, args.out, dict(args.option))
    except ValueError as error:  # bad options or player count
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report))
    return 0
