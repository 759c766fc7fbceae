"""Every tutorial replayed through its engine: each scripted move legal and in turn, each
caption's claims true at its step, every other move answered by a named rule."""

from __future__ import annotations

import pytest

from games import GAME_MODULES, get_engine
from games.core import IllegalAction
from games.tutorial import LEARNER, MAX_STEPS, get_tutorial, problems


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_the_script_replays_through_the_engine(game: str) -> None:
    tutorial = get_tutorial(game)
    assert problems(tutorial) == []
    assert 1 <= len(tutorial) <= MAX_STEPS
    engine = get_engine(game)
    for index, step in enumerate(tutorial.steps):
        state = tutorial.state_at(index)
        assert LEARNER in engine.to_act(state)
        assert engine.is_legal(state, LEARNER, step.move)
        assert step.claims, f"{game} step {index} claims nothing about the table"


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_a_claim_that_is_false_is_caught(game: str) -> None:
    """The claims are checked, not decorative: step 0's claims fail at another step's move
    somewhere (a caption put on the wrong step would be caught)."""
    tutorial = get_tutorial(game)
    first = tutorial.steps[0]
    failing = []
    for index in range(1, len(tutorial)):
        state = tutorial.state_at(index)
        move = tutorial.steps[index].move
        failing += [
            claim.name
            for claim in first.claims
            if not tutorial.predicates[claim.name](state, move, *claim.args)
        ]
    assert failing


def test_the_replay_is_the_same_every_time() -> None:
    tutorial = get_tutorial("azul")
    again = tutorial.start()
    for index in range(len(tutorial)):
        again = tutorial.after(again, index)
    assert again == tutorial.state_at(len(tutorial))


def test_azul_names_the_one_colour_rule_for_a_line_of_another_colour() -> None:
    """The issue's own example: a line already holding red takes no other colour."""
    tutorial = get_tutorial("azul")
    engine = get_engine("azul")
    index = next(i for i, s in enumerate(tutorial.steps) if s.key == "one_colour")
    state = tutorial.state_at(index)
    row = next(r for r in range(5) if state["line_counts"][r] and state["line_colours"][r] >= 0)
    held = state["line_colours"][row]
    other = next(a for a in engine.legal_actions(state, LEARNER) if len(a) == 3 and a[1] != held)
    pressed = (other[0], other[1], row)
    with pytest.raises(IllegalAction):
        engine.apply(state, LEARNER, pressed)
    why = tutorial.explain(index, pressed)
    assert why.rule == "line_colour"
    assert why.values == {"line": row + 1, "colour": held}


def test_sultan_refuses_a_second_card_on_the_same_cushion() -> None:
    tutorial = get_tutorial("sultan")
    index = next(i for i, s in enumerate(tutorial.steps) if s.key == "second")
    state = tutorial.state_at(index)
    assert state["start"] == LEARNER  # the learner bid first this circle
    first_cushion = state["bid_cushions"][0]
    assert tutorial.explain(index, (1, first_cushion, 1)).rule == "two_cushions"
