import pytest

from games.ai import game_ai, reference
from games.ai.base import Budget
from tests.games.ai.helpers import CONFIGS


@pytest.fixture
def small_budgets(monkeypatch):
    """The searching levels with tiny budgets: the same code, far fewer playouts."""
    for game in {game for game, _, _ in CONFIGS}:
        ai = game_ai(game)
        monkeypatch.setattr(ai, "budget", Budget(candidates=2, samples=1))
        monkeypatch.setattr(ai, "hint_samples", 1)
        monkeypatch.setattr(ai, "iterations", 12)
    monkeypatch.setattr(reference, "ITERATIONS", 12)
