"""Every tutorial replayed through its engine: each scripted move legal and in turn, each
caption's claims true at its step, every other move answered by a named rule."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from games import GAME_MODULES, get_engine
from games.core import IllegalAction
from games.g5211.engine import colour_of, value_of
from games.sultan.engine import CARD_SLOTS
from games.tutorial import (
    LEARNER,
    MAX_STEPS,
    followed,
    get_tutorial,
    problems,
    random_path,
    untaught,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


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
        assert step.teaches or step.key in ("again", "cover"), (
            f"{game} step {index} teaches nothing"
        )


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


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_rule_a_first_game_needs_is_taught_by_a_step(game: str) -> None:
    """The syllabus names each rule's heading in docs/rules/<game>.md, and a step teaches
    each; the end of the game and its winner among them."""
    tutorial = get_tutorial(game)
    headings = [
        line.lstrip("#").strip()
        for line in (DOCS / f"{game}.md").read_text().splitlines()
        if line.startswith("## ")
    ]
    assert untaught(tutorial) == []
    for rule, heading in tutorial.syllabus.items():
        assert any(h.startswith(heading) for h in headings), (rule, heading)
    taught = {rule for step in tutorial.steps for rule in step.teaches}
    assert "winner" in taught or "loser" in taught
    assert {"game_end", "hand_end", "end_scoring"} & taught


def test_a_rule_no_step_teaches_is_caught() -> None:
    tutorial = get_tutorial("azul")
    lacking = dataclasses.replace(tutorial, syllabus={**tutorial.syllabus, "tiles_in_lid": "End"})
    assert untaught(lacking) == ["tiles_in_lid"]


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_a_random_learner_finishes_with_every_caption_true(game: str) -> None:
    """Learners who make any accepted move at every step: each path goes to the end, every
    step on it has a move that reaches its goal and every caption's claims hold."""
    tutorial = get_tutorial(game)
    for seed in range(25):
        path = random_path(tutorial, random.Random(seed))
        assert len(path) == len(tutorial), (seed, path)
        assert problems(tutorial, path) == [], seed


def test_5211s_equally_good_pair_is_accepted() -> None:
    """🟩3 🟩3 scores more than the hint's 🟩2 🟩3: both are a pair of one colour, and the
    lesson goes on from the position the learner made."""
    tutorial = get_tutorial("5211")
    state = tutorial.state_at(0)
    green_3 = [
        card for card in state["hands"][LEARNER] if colour_of(card) == 3 and value_of(card) == 3
    ]
    pair = (green_3[0], green_3[1])
    assert tutorial.script[0] != pair and tutorial.accepts(0, (), pair)
    after = tutorial.state_at(1, (pair,))
    assert sorted(after["table"][LEARNER]) == sorted(pair)
    assert problems(tutorial, followed(tutorial, (pair,))) == []


def test_sultans_other_identical_cushion_is_accepted() -> None:
    """Two cushions hold the same gem: a low card on either is the step's goal."""
    tutorial = get_tutorial("sultan")
    index = next(i for i, s in enumerate(tutorial.steps) if s.key == "second")
    state = tutorial.state_at(index)
    cushions = state["cushions"]
    twins = [c for c in range(len(cushions)) if cushions.count(cushions[c]) > 1]
    assert len(twins) == 2
    low = min(value for value in range(1, 13) if state["hands"][LEARNER * CARD_SLOTS + value])
    for cushion in twins:
        assert tutorial.accepts(index, tutorial.script, (1, cushion, low))
    assert {(1, cushion, low) for cushion in twins} <= set(tutorial.accepted(index))


def test_a_move_that_misses_the_goal_says_why_in_the_games_terms() -> None:
    """Donkey's donkey step: a card played is answered with the donkey, not with shedding."""
    tutorial = get_tutorial("donkey")
    index = next(i for i, s in enumerate(tutorial.steps) if s.key == "donkey")
    state = tutorial.state_at(index)
    plays = [a for a in get_engine("donkey").legal_actions(state, LEARNER) if a[0] == 1]
    assert plays
    assert {tutorial.explain(index, play).rule for play in plays} == {"lead_donkey"}


def test_the_learners_moves_are_never_written_down() -> None:
    for game in GAME_MODULES:
        for step in get_tutorial(game).steps:
            assert all(seat != LEARNER for seat, _ in step.replies), (game, step.key)


def test_donkeys_last_steps_are_a_choice_on_every_path() -> None:
    """Who's the Donkey?'s last two steps are the learner's own choice: wherever the
    lesson's earlier accepted moves lead, each accepts every legal move, and there are at
    least two (never a forced pass)."""
    tutorial = get_tutorial("donkey")
    engine = get_engine("donkey")
    chosen = [i for i, step in enumerate(tutorial.steps) if step.goal == "any_move"]
    assert chosen == [len(tutorial) - 2, len(tutorial) - 1]
    paths: list[tuple] = [()]
    for index in range(len(tutorial)):
        if index in chosen:
            for path in paths:
                legal = [tuple(a) for a in engine.legal_actions(tutorial.state_at(index, path), 0)]
                assert len(legal) >= 2, (index, path)
                assert tutorial.accepted(index, path) == legal, (index, path)
        paths = [(*path, move) for path in paths for move in tutorial.accepted(index, path)]
