"""Seeded random-play simulation with invariant checks (OpenSpiel's RandomSimTest is the model).

    python -m games.simulate GAME --players N --games K --seed S [--option KEY=VALUE] [--fast]
        [--digest]

Plays K games with random legal moves and prints one JSON line with the figures. Unless
``--fast`` is given, every step checks: the engine's own invariants (conservation etc.),
that the legal actions are sorted, unique and accepted, that illegal actions raise and change
nothing, that ``apply`` is pure, that the state round-trips through JSON, that no view leaks
a secret, and, at the end of each game, that replaying the same seed and moves gives the same
game. Any violation is printed and the command exits with status 1.

``--digest`` adds ``digest``: a SHA-256 of every game's final state (log included) and
moves, so a change meant to make an engine faster can show that it plays the very same games
(run it before and after, with the same arguments; the hashing counts in the times).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from games import GAME_MODULES, get_engine
from games.core import Action, Engine, IllegalAction, InvariantViolation, State

MAX_MOVES_PER_GAME = 100_000  # far above any real game; reaching it means a game never ends


@dataclass
class SimulationReport:
    game: str
    players: int
    games: int
    moves: int
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time: steady on a shared, busy machine
    options: dict[str, Any]
    seed: int
    fast: bool
    digest: str | None = None  # of the games played, with ``--digest``

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / self.seconds, 1) if self.seconds else None,
            "cpu_s": round(self.cpu_seconds, 3),
            "games_per_cpu_s": (
                round(self.games / self.cpu_seconds, 1) if self.cpu_seconds else None
            ),
            "moves_per_game": round(self.moves / self.games, 1) if self.games else 0,
            "options": self.options,
            "seed": self.seed,
            "fast": self.fast,
            **({"digest": self.digest} if self.digest else {}),
        }


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 < share <= 1) of a non-empty list (the arena's and
    the AI timing's figures)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play_random_game(
    engine: Engine, players: int, options: dict[str, Any], seed: int, checked: bool = True
) -> tuple[State, list[tuple[int, Action]]]:
    """Play one game with random legal moves; returns the final state and the moves made."""
    chooser = random.Random(seed)
    # A uniform pick from n options: random() * n is a few times cheaper than choice(), and
    # the loop should measure the engine, not the chooser.
    uniform = chooser.random
    # The engine's methods, looked up once: this loop is part of what --fast measures.
    is_over, to_act_of, legal_actions, apply = (
        engine.is_over,
        engine.to_act,
        engine.legal_actions,
        engine.apply,
    )
    state = engine.new_game(players, options, seed)
    moves: list[tuple[int, Action]] = []
    record = moves.append
    in_order: dict[frozenset[int], list[int]] = {}  # seats that act at once, sorted once
    for _ in range(MAX_MOVES_PER_GAME + 1):
        # Nobody may act once the game is over (the checks also ask ``is_over`` every step).
        to_act = to_act_of(state)
        if not to_act or (checked and is_over(state)):
            break
        if checked:
            check_step(engine, state, sorted(to_act), chooser)
        if len(to_act) == 1:
            (seat,) = to_act
        else:
            seats = in_order.get(to_act)
            if seats is None:
                seats = in_order[to_act] = sorted(to_act)
            seat = seats[int(uniform() * len(seats))]
        actions = legal_actions(state, seat)
        if not actions:
            raise InvariantViolation(f"{engine.id}: seat {seat} is to act but has no move")
        action = actions[int(uniform() * len(actions))]
        state = apply(state, seat, action)
        record((seat, action))
    else:
        raise InvariantViolation(f"{engine.id}: no end after {MAX_MOVES_PER_GAME} moves")
    if not is_over(state):
        raise InvariantViolation(f"{engine.id}: nobody may act but the game is not over")
    if checked:
        check_finished(engine, state)
        replayed = replay(engine, players, options, seed, moves)
        if replayed != state:
            raise InvariantViolation(f"{engine.id}: replaying seed {seed} gave another game")
    return state, moves


def replay(
    engine: Engine,
    players: int,
    options: dict[str, Any],
    seed: int,
    moves: list[tuple[int, Action]],
) -> State:
    state = engine.new_game(players, options, seed)
    for seat, action in moves:
        state = engine.apply(state, seat, action)
    return state


def snapshot_of(state: State) -> str:
    """The state as canonical JSON. The append-only log counts by its length and its newest
    entries (older entries never change), so long matches stay cheap to check."""
    body = {key: value for key, value in state.items() if key != "log"}
    log = state.get("log", [])
    return json.dumps([body, len(log), log[-3:]], sort_keys=True)


def check_step(engine: Engine, state: State, seats: list[int], chooser: random.Random) -> None:
    engine.check_invariants(state)
    snapshot = snapshot_of(state)
    body, _, newest = json.loads(snapshot)
    log = state.get("log", [])
    if body != {k: v for k, v in state.items() if k != "log"} or newest != log[-3:]:
        raise InvariantViolation(f"{engine.id}: the state does not round-trip through JSON")
    engine.check_views(state)
    for seat in range(state["num_players"]):
        actions = engine.legal_actions(state, seat)
        if actions != sorted(set(actions)):
            raise InvariantViolation(f"{engine.id}: legal actions of {seat} not sorted/unique")
        if bool(actions) != (seat in seats):
            raise InvariantViolation(f"{engine.id}: seat {seat} to_act disagrees with actions")
        for action in actions:
            if not engine.is_legal(state, seat, action):
                raise InvariantViolation(f"{engine.id}: listed action {action} is not legal")
        if actions:  # a legal move must not mutate the state it was applied to
            engine.apply(state, seat, chooser.choice(actions))
    for seat, action in illegal_attempts(engine, state, seats, chooser):
        try:
            engine.apply(state, seat, action)
        except IllegalAction:
            pass
        else:
            raise InvariantViolation(f"{engine.id}: illegal {action} by {seat} was accepted")
    if snapshot_of(state) != snapshot:
        raise InvariantViolation(f"{engine.id}: apply changed the state it was given")


def illegal_attempts(
    engine: Engine, state: State, seats: list[int], chooser: random.Random
) -> list[tuple[int, Action]]:
    """Moves that must be refused: out-of-turn moves, mangled moves, out-of-range seats."""
    attempts: list[tuple[int, Action]] = []
    idle = [seat for seat in range(state["num_players"]) if seat not in seats]
    if seats:
        seat = chooser.choice(seats)
        action = chooser.choice(engine.legal_actions(state, seat))
        legal = set(engine.legal_actions(state, seat))
        for mangled in ((*action, 0), action[:-1], (99,) * len(action), ()):
            if mangled not in legal:
                attempts.append((seat, mangled))
        if idle:
            attempts.append((chooser.choice(idle), action))
        attempts.append((state["num_players"], action))
        attempts.append((-1, action))
    return attempts


def check_finished(engine: Engine, state: State) -> None:
    engine.check_invariants(state)
    if json.loads(json.dumps(state)) != state:  # the whole state, log included, once a game
        raise InvariantViolation(f"{engine.id}: the final state does not round-trip through JSON")
    engine.check_views(state)
    if engine.to_act(state):
        raise InvariantViolation(f"{engine.id}: the game is over but seats may still act")
    result = engine.result(state)
    n = state["num_players"]
    if len(result.scores) != n or len(result.ranks) != n or 1 not in result.ranks:
        raise InvariantViolation(f"{engine.id}: malformed result {result}")


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    fast: bool = False,
    digest: bool = False,
) -> SimulationReport:
    engine = get_engine(game)
    opts = engine.options(options).model_dump()
    moves = 0
    hasher = hashlib.sha256() if digest else None
    started = time.perf_counter()
    cpu_started = time.process_time()
    for index in range(games):
        state, made = play_random_game(engine, players, opts, game_seed(seed, index), not fast)
        moves += len(made)
        if hasher:
            hasher.update(json.dumps([state, made], sort_keys=True).encode())
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    return SimulationReport(
        game,
        players,
        games,
        moves,
        seconds,
        cpu_seconds,
        opts,
        seed,
        fast,
        hasher.hexdigest() if hasher else None,
    )


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.simulate", description=__doc__)
    parser.add_argument("game", choices=sorted(GAME_MODULES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        type=parse_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o match_target=50 or -o wall=grey",
    )
    parser.add_argument("--fast", action="store_true", help="skip the invariant checks")
    parser.add_argument(
        "--digest", action="store_true", help="print a hash of the final states and moves"
    )
    args = parser.parse_args(argv)
    try:
        report = simulate(
            args.game,
            args.players,
            args.games,
            args.seed,
            dict(args.option),
            args.fast,
            args.digest,
        )
    except (InvariantViolation, IllegalAction) as error:
        print(f"violation: {error}", file=sys.stderr)
        return 1
    except ValueError as error:  # bad options or player count
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report.as_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
