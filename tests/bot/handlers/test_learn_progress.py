"""A lesson's progress in the chat: any move that reaches a step's goal is accepted and the
lesson goes on from the position it made; the place is stored, so a lesson resumes after
a restart; 💡 points at the button; ↩️ and 🔁; ✓ in the menu; each learner counted once;
a random learner finishes every lesson in every language."""

from __future__ import annotations

import random

import pytest

from bot.presentation.i18n import translator
from bot.presentation.tutorial import POINTER, Lesson, caption, taps, well_done
from bot.presentation.ui import get_ui, playable_games
from bot.table.host import get_host
from bot.testing.fake_telegram import plain
from games.g5211.engine import colour_of, value_of
from games.tutorial import LEARNER, get_tutorial
from tests.bot.conftest import ALICE, BOB, running_bot
from tests.bot.play_tutorial import (
    LEARNERS,
    lesson_message,
    open_lesson,
    play_move,
    play_step,
    press_data,
)

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


def green_threes(lesson: Lesson) -> tuple[int, int]:
    hand = lesson.state["hands"][LEARNER]
    pair = [card for card in hand if colour_of(card) == 3 and value_of(card) == 3][:2]
    return (pair[0], pair[1])


async def test_5211s_other_good_pair_is_accepted_and_the_lesson_goes_on_from_it(driver, api):
    t = translator("en")
    await open_lesson(driver, api, ALICE, "5211")
    first = Lesson("5211")
    pair = green_threes(first)
    assert pair != first.taught
    assert await play_move(driver, api, ALICE, first, pair) == t("tutorial.right")
    shown = lesson_message(api, ALICE).text
    assert "🟩3 🟩3" in shown  # the learner's own pair, face up
    following = first.then(pair)
    assert plain(caption(t, following)) in shown
    stored = await get_host(driver.app).storage.lesson_path(ALICE.id, "5211")
    assert stored == [list(pair)]


async def test_a_lesson_resumes_where_it_was_left_after_a_restart(api, database):
    t = translator("en")
    async with running_bot(api, database) as driver:
        await open_lesson(driver, api, ALICE, "5211")
        lesson = Lesson("5211")
        pair = green_threes(lesson)
        await play_move(driver, api, ALICE, lesson, pair)
        lesson = lesson.then(pair)
        await play_step(driver, api, ALICE, lesson)
        lesson = lesson.then(lesson.taught)
        message = lesson_message(api, ALICE)
    async with running_bot(api, database) as driver:  # a new process on the same database
        # the message's buttons still work: the step comes from the stored moves
        answer = ""
        for verb, argument in taps(t, lesson):
            answer = await press_data(driver, api, ALICE, f"-{verb}{argument}")
        assert answer == t("tutorial.right")
        assert lesson_message(api, ALICE).message_id == message.message_id
        after = lesson.then(lesson.taught)
        assert plain(caption(t, after)) in lesson_message(api, ALICE).text
        # and /learn shows where the learner is, and takes them back there
        await driver.send(ALICE, ALICE.id, "/learn")
        menu = lesson_message(api, ALICE)
        label = f"{get_ui('5211').title(t)} · {after.index + 1}/{len(after.tutorial)}"
        assert label in [button["text"] for button in menu.buttons()]
        await driver.press_label(ALICE, ALICE.id, label)
        assert plain(caption(t, after)) in lesson_message(api, ALICE).text


async def test_the_hint_marks_the_button_to_press(driver, api):
    t = translator("en")
    await open_lesson(driver, api, ALICE, "azul")
    lesson = Lesson("azul")
    before = [b["text"] for b in lesson_message(api, ALICE).buttons()]
    assert not any(label.startswith(POINTER) for label in before)
    await press_data(driver, api, ALICE, "-h")
    marked = [b for b in lesson_message(api, ALICE).buttons() if b["text"].startswith(POINTER)]
    verb, argument = taps(t, lesson)[0]
    assert len(marked) == 1 and marked[0]["callback_data"].endswith(f"-{verb}{argument}")
    # the next press is marked too, until the move is made
    await press_data(driver, api, ALICE, f"-{verb}{argument}")
    marked = [b for b in lesson_message(api, ALICE).buttons() if b["text"].startswith(POINTER)]
    verb, argument = taps(t, lesson)[1]
    assert len(marked) == 1 and marked[0]["callback_data"].endswith(f"-{verb}{argument}")


async def test_a_step_is_retried_and_the_lesson_restarted_counting_each_learner_once(driver, api):
    t = translator("en")
    game = "sultan"
    tutorial = get_tutorial(game)
    await open_lesson(driver, api, ALICE, game)
    for index in range(2):
        await play_step(driver, api, ALICE, Lesson.at(game, index))
    await press_data(driver, api, ALICE, "-b")  # ↩️ step 2 again
    assert plain(caption(t, Lesson.at(game, 1))) in lesson_message(api, ALICE).text
    await press_data(driver, api, ALICE, "-s")  # 🔁 from the start
    assert plain(caption(t, Lesson.at(game, 0))) in lesson_message(api, ALICE).text
    for _ in range(2):  # finished twice: counted once
        for index in range(len(tutorial)):
            await play_step(driver, api, ALICE, Lesson.at(game, index))
        end = lesson_message(api, ALICE)
        assert plain(t(f"tutorial.{game}.learned")) in end.text
        await driver.press_label(ALICE, ALICE.id, t("tutorial.restart_button"), end.message_id)
    await open_lesson(driver, api, BOB, game)
    storage = get_host(driver.app).storage
    assert await storage.tutorial_counts() == {
        game: {0: 2, **{step: 1 for step in range(1, len(tutorial) + 1)}}
    }
    await driver.send(ALICE, ALICE.id, "/learn")
    labels = [button["text"] for button in lesson_message(api, ALICE).buttons()]
    assert f"✓ {get_ui(game).title(t)}" in labels
    assert get_ui("azul").title(t) in labels  # not begun: its title alone


@pytest.mark.parametrize("lang", list(LEARNERS))
@pytest.mark.parametrize("game", playable_games())
async def test_a_random_learner_finishes_every_lesson(driver, api, game, lang):
    """A learner who makes a random accepted move at every step (found on the step's own
    buttons) reaches the end in every language."""
    user = LEARNERS[lang]
    t = translator(lang)
    rng = random.Random(f"{game}-{lang}")
    await open_lesson(driver, api, user, game)
    lesson = Lesson(game)
    while not lesson.over:
        assert plain(caption(t, lesson)) in lesson_message(api, user).text
        move = rng.choice(lesson.tutorial.accepted(lesson.index, lesson.path))
        assert await play_move(driver, api, user, lesson, move) == well_done(t, lesson, move)
        if lesson.tutorial.steps[lesson.index].goal == "any_move":  # chosen alone: told back
            assert well_done(t, lesson, move) != t("tutorial.right")
        lesson = lesson.then(move)
    end = lesson_message(api, user)
    assert plain(t(f"tutorial.{game}.learned")) in end.text
    assert "{" not in end.text
