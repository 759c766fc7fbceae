"""The arena's outside yardstick (``games.ai.reference``): textbook MCTS with random
playouts. It must be a real search — it finds a move that wins, and it plays better than
chance — for its figures against our levels to mean anything. (Like every level it never
sees hidden information and never writes into a view: test_no_cheating.py and
test_read_only.py loop over every level.)"""

import math

import pytest

from games import get_engine
from games.ai import choose, reference
from games.arena import arena
from tests.games.ai.helpers import positions


def last_moves_that_decide(game: str, players: int, seed: int):
    """The positions of a random game where one seat acts, each of its moves ends the game,
    and some of them win it and some do not: (state, seat, the winning moves)."""
    engine = get_engine(game)
    for state in positions(game, players, {}, seed=seed, every=1):
        acting = sorted(engine.to_act(state))
        if len(acting) != 1:
            continue
        seat = acting[0]
        legal = engine.legal_actions(state, seat)
        ends = [engine.apply(state, seat, action) for action in legal]
        if len(legal) < 2 or not all(engine.is_over(end) for end in ends):
            continue
        winning = [
            action
            for action, end in zip(legal, ends, strict=True)
            if seat in engine.result(end).winners
        ]
        if 0 < len(winning) < len(legal):
            yield state, seat, winning


@pytest.mark.parametrize("seed", [20, 32, 54])
def test_it_plays_the_last_move_that_wins_the_game(seed):
    """Azul's last draft: nothing hidden matters any more, so the playouts are exact."""
    engine = get_engine("azul")
    found = list(last_moves_that_decide("azul", 2, seed))
    assert found, "the seeded game has such a last move"
    for state, seat, winning in found:
        legal = engine.legal_actions(state, seat)
        assert choose("azul", "reference", engine.view(state, seat), seat, legal, 1) in winning


def test_it_beats_random_moves(monkeypatch):
    """A small budget is enough to beat chance in 5211, seats rotated on the same deals."""
    monkeypatch.setattr(reference, "ITERATIONS", 20)
    levels = arena("5211", ["reference", "random"], 6, seed=3)["levels"]
    assert levels["reference"]["win_rate"] > 0.8, levels
    assert levels["reference"]["mean_score"] > levels["random"]["mean_score"] + 10, levels


def test_its_value_is_the_lead_in_the_rules_score_and_a_penalty_counts_against():
    points = reference.leads([30, 20, 10], lower_is_better=False)
    assert points[0] > 0.5 > points[1] > points[2]  # 10 ahead; 10 and 20 behind the best
    assert points[0] == pytest.approx(1 / (1 + math.exp(-1)))
    penalties = reference.leads([30, 20, 10], lower_is_better=True)
    assert penalties[2] > 0.5 > penalties[1] > penalties[0]  # Who's the Donkey?
