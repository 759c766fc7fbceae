"""The tutorials' words: every step of every game in every language, each rule against a
wrong move a sentence that fits Telegram's popup, and the screens drawn from the game's own
adapter."""

from __future__ import annotations

import html

import pytest

from bot.presentation.i18n import LANGUAGES, translator
from bot.presentation.tutorial import (
    Lesson,
    caption,
    ending,
    final_table,
    hint,
    screen,
    taps,
    why_text,
)
from bot.presentation.ui import get_ui, playable_games
from games import get_engine
from games.tutorial import ELSEWHERE, LEARNER, Why, get_tutorial

POPUP = 200  # the most characters Telegram shows in a button's answer


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_every_language_has_every_step_and_every_rule(game, lang):
    t = translator(lang)
    tutorial = get_tutorial(game)
    english = translator("en")
    for step in tutorial.steps:
        key = f"tutorial.{game}.{step.key}"
        assert t.has(key), f"{lang}: {key}"
        assert lang == "en" or t(key) != english(key), f"{lang}: {key} is not translated"
    for rule in tutorial.rules:
        assert t.has(f"tutorial.{game}.why.{rule}"), f"{lang}: {game} rule {rule}"
    learned = t(f"tutorial.{game}.learned")
    assert len(learned.splitlines()) == 3 and all(
        line.startswith("• ") for line in learned.splitlines()
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_every_wrong_move_is_answered_in_a_sentence_that_fits_a_popup(game, lang):
    """Every legal move the step does not accept, and a few illegal ones, get their rule in
    a full sentence (no placeholder left), short enough for Telegram's popup."""
    t = translator(lang)
    tutorial = get_tutorial(game)
    engine = get_engine(game)
    for index in range(len(tutorial)):
        state = tutorial.state_at(index)
        lesson = Lesson.at(game, index)
        assert len(hint(t, lesson)) <= POPUP
        accepted = tutorial.accepted(index)
        assert lesson.taught in accepted
        pressed = [a for a in engine.legal_actions(state, LEARNER) if tuple(a) not in accepted]
        pressed += [(99,), (0, 99, 99), (1, 99, 99, 99)]  # what no button makes: still answered
        for action in pressed:
            why = tutorial.explain(index, tuple(action))
            assert why.rule in (*tutorial.rules, ELSEWHERE)
            text = t("tutorial.wrong", detail=why_text(t, game, why))
            assert "{" not in text and len(text) <= POPUP, (game, index, action, text)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", playable_games())
def test_a_step_is_the_games_own_prompt_under_its_caption(game, lang):
    t = translator(lang)
    tutorial = get_tutorial(game)
    for index in range(len(tutorial)):
        lesson = Lesson.at(game, index)
        drawn = screen(t, lesson)
        assert drawn.text.count(caption(t, lesson)) == 1
        assert len(drawn.text) <= 4096  # one Telegram message
        own = [[t("tutorial.hint_button"), t("tutorial.leave_button")]]
        if index:  # the step before again, the lesson again
            own.append([t("tutorial.back_button"), t("tutorial.restart_button")])
        game_rows, last = drawn.rows[: -len(own)], drawn.rows[-len(own) :]
        assert [[key.label for key in row] for row in last] == own
        assert game_rows, "the step offers the game's buttons"
        assert taps(t, lesson)[-1][0] in ("a", "d")  # the taught move is on those buttons
    end = ending(t, game)
    assert html.escape(get_ui(game).title(t)) in end and t(f"tutorial.{game}.learned") in end
    assert final_table(t, Lesson.at(game, len(tutorial)))


def test_a_colour_in_a_rule_is_named_in_the_readers_language():
    tutorial = get_tutorial("azul")
    index = next(i for i, s in enumerate(tutorial.steps) if s.key == "one_colour")
    state = tutorial.state_at(index)
    row = next(r for r in range(5) if state["line_counts"][r])
    held = state["line_colours"][row]
    move = tutorial.steps[index].move
    why = tutorial.explain(index, (move[0], (held + 1) % 5, row))
    assert why.rule == "line_colour"
    colour = ("blue", "yellow", "red", "black", "white")[held]
    for lang in LANGUAGES:
        t = translator(lang)
        assert t(f"azul.colour.{colour}") in why_text(t, "azul", why)


@pytest.mark.parametrize(
    ("lang", "two", "five"),
    [
        ("en", "2 green cards", "5 green cards"),
        ("ru", "2 зелёные карточки", "5 зелёных карточек"),
        ("uk", "2 зелені картки", "5 зелених карток"),
        ("it", "2 carte verdi", "5 carte verdi"),
    ],
)
def test_cards_of_a_colour_agree_with_their_number(lang, two, five):
    """The issue's «сыграй два «зелёный»»: the number, the colour and the noun agree."""
    t = translator(lang)
    green = 3
    assert two in why_text(t, "5211", Why("split", {"colour": green, "count": 2}))
    assert five in why_text(t, "5211", Why("over_limit", {"colour": green, "limit": 5, "count": 5}))
