"""Makes ``round_values.json`` (:mod:`games.sultan.round_values`) from games of the normal
player against itself, two players.

    python -m games.sultan.learn_round_values [--games 30000] [--seed 2]

The same games and seed always give the same table; 30,000 games take about 2 CPU minutes.
Run it again when the normal player or the rules change.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Sequence

from games.sultan.ai import AI
from games.sultan.engine import ENGINE, NUM_COLOURS, gems_of
from games.sultan.round_values import PLAYERS, TABLE_FILE, Key, colour_points


def collect(games: int, seed: int) -> dict[Key, tuple[float, int]]:
    """Per cell: the mean final points of the colour, and how many times it was seen."""
    sums: dict[Key, list[float]] = defaultdict(lambda: [0.0, 0])
    for index in range(games):
        state = ENGINE.new_game(PLAYERS, {}, seed * 1_000_003 + index)
        decision_seeds = random.Random(index)  # a seed for each decision, as `choose` takes
        ends = []  # (round finished, each seat's gems by colour then)
        while not ENGINE.is_over(state):
            playing = state["round"]
            moves = []
            for seat in sorted(ENGINE.to_act(state)):
                view, legal = ENGINE.view(state, seat), ENGINE.legal_actions(state, seat)
                rng = random.Random(decision_seeds.getrandbits(63))
                moves.append((seat, AI.normal(view, seat, legal, rng)))
            for seat, action in moves:
                state = ENGINE.apply(state, seat, action)
            if not ENGINE.is_over(state) and state["round"] != playing:
                ends.append((playing, [gems_of(state["gems"], s) for s in range(PLAYERS)]))
        final = [gems_of(state["gems"], seat) for seat in range(PLAYERS)]
        for finished, gems in ends:
            for seat in range(PLAYERS):
                for colour in range(NUM_COLOURS):
                    key = (finished, colour, gems[seat][colour], gems[1 - seat][colour])
                    cell = sums[key]
                    cell[0] += colour_points(colour, final[seat][colour])
                    cell[1] += 1
    return {key: (total / seen, int(seen)) for key, (total, seen) in sorted(sums.items())}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.sultan.learn_round_values", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    cells = collect(args.games, args.seed)
    rows = ",\n".join(json.dumps([*key, round(mean, 3), n]) for key, (mean, n) in cells.items())
    made = f'{{"games": {args.games}, "seed": {args.seed}, "cells": [\n{rows}\n]}}\n'
    TABLE_FILE.write_text(made, encoding="utf-8")
    print(f"{len(cells)} cells from {args.games} games: {TABLE_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
