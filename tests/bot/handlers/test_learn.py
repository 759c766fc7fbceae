"""Learning a game in the chat: /learn, "🎓 Learn a game" under /start, "Learn it by playing"
under a group's /rules; each lesson played to its end through the fake Telegram, the wrong
move answered and not played, the hint, leaving, a stale button, and the counts."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import translator
from bot.presentation.tutorial import Lesson, caption, hint, taps
from bot.presentation.ui import get_ui, playable_games
from bot.table.host import get_host
from bot.testing.fake_telegram import plain
from games.core import encode_action
from games.tutorial import LEARNER, get_tutorial
from tests.bot.conftest import ALICE, GIULIA, GROUP, IVAN, OKSANA
from tests.bot.play_tutorial import LEARNERS, lesson_message, open_lesson, play_step, press_data


@pytest.mark.parametrize("backend", ["sqlite"])
@pytest.mark.parametrize("lang", list(LEARNERS))
@pytest.mark.parametrize("game", playable_games())
async def test_a_lesson_is_played_to_its_end_in_every_language(driver, api, game, lang):
    """Each step shows its caption and the game's own table and buttons; the taught move,
    made with those buttons, moves on; the end tells what was learned and offers a practice
    game and the full rules."""
    user = LEARNERS[lang]
    t = translator(lang)
    await open_lesson(driver, api, user, game)
    tutorial = get_tutorial(game)
    for index in range(len(tutorial)):
        lesson = Lesson.at(game, index)
        shown = lesson_message(api, user)
        assert plain(caption(t, lesson)) in shown.text
        title = get_ui(game).title(t)
        assert t("tutorial.step", game=title, number=index + 1, total=len(tutorial)) in shown.text
        labels = [b["text"] for b in shown.buttons()]
        assert t("tutorial.hint_button") in labels and t("tutorial.leave_button") in labels
        await play_step(driver, api, user, lesson)
    end = lesson_message(api, user)
    assert plain(t(f"tutorial.{game}.learned")) in end.text
    assert len(t(f"tutorial.{game}.learned").splitlines()) == 3
    assert [b["text"] for b in end.buttons()] == [
        t("tutorial.practice_button"),
        t("tutorial.rules_button"),
        t("tutorial.back_button"),
        t("tutorial.restart_button"),
    ]
    counts = await get_host(driver.app).storage.tutorial_counts()
    assert counts == {game: {step: 1 for step in range(len(tutorial) + 1)}}


async def test_a_wrong_move_is_answered_with_its_rule_and_not_played(driver, api):
    """Azul's line that already holds a colour: the issue's own example. The line's other
    colours are not on the buttons (the game's screens offer legal moves only), so a wrong
    legal move is pressed: it is explained and the step stays."""
    await open_lesson(driver, api, ALICE, "azul")
    t = translator("en")
    lesson = Lesson.at("azul", 0)
    for verb, argument in taps(t, lesson)[:-1]:  # the taught take, up to its line
        await press_data(driver, api, ALICE, f"-{verb}{argument}")
    before = lesson_message(api, ALICE)
    text_before = before.text
    taught = encode_action(lesson.taught)
    other = next(
        b["callback_data"]
        for b in before.buttons()
        if "-a" in b["callback_data"] and not b["callback_data"].endswith(taught)
    )
    answer = await driver.press(ALICE, ALICE.id, before.message_id, other)
    pressed = tuple(int(n) for n in other.rsplit("-a", 1)[1].split("."))
    why = get_tutorial("azul").explain(0, pressed)
    assert why.rule in ("falls", "floor_only", "other_line")
    assert answer.startswith("✋") and len(answer) <= 200
    assert lesson_message(api, ALICE).text == text_before  # nothing was played
    assert get_tutorial("azul").state_at(0)["line_counts"][LEARNER * 5 + 1] == 0
    # the taught move still works from here
    assert await press_data(driver, api, ALICE, f"-a{taught}") == t("tutorial.right")
    assert plain(caption(t, Lesson.at("azul", 1))) in lesson_message(api, ALICE).text


async def test_the_hint_names_the_move_and_leaving_ends_the_lesson(driver, api):
    await open_lesson(driver, api, IVAN, "sultan")
    t = translator("ru")
    assert await press_data(driver, api, IVAN, "-h") == hint(t, Lesson.at("sultan", 0))
    await press_data(driver, api, IVAN, "-x")
    left = lesson_message(api, IVAN)
    assert left.text == t("tutorial.left", number=1) and left.buttons() == []
    counts = await get_host(driver.app).storage.tutorial_counts()
    assert counts == {"sultan": {0: 1}}  # started, left at step 1: no user named anywhere


async def test_a_button_of_an_older_step_is_stale(driver, api):
    t = translator("en")
    await open_lesson(driver, api, ALICE, "donkey")
    first = lesson_message(api, ALICE)
    old = [b["callback_data"] for b in first.buttons()]
    await play_step(driver, api, ALICE, Lesson.at("donkey", 0))
    text = lesson_message(api, ALICE).text
    hint_data = next(d for d in old if d.endswith("-h"))
    answer = await driver.press(ALICE, ALICE.id, first.message_id, hint_data)  # step 1's hint
    assert answer == t("tutorial.stale")
    assert lesson_message(api, ALICE).text == text


async def test_the_group_rules_offer_learning_by_playing_in_private(driver, api):
    """The group sees nothing of the lesson: the button is a link into the private chat."""
    t = translator("en")
    await driver.send(ALICE, GROUP, "/rules azul")
    summary = api.last(GROUP)
    learn = next(b for b in summary.buttons() if b["text"] == t("tutorial.learn_by_playing"))
    assert learn["url"] == f"https://t.me/{api.username}?start=learn_azul"
    in_group = len(api.visible(GROUP))
    await driver.press_label(ALICE, GROUP, t("tutorial.learn_by_playing"))
    assert len(api.visible(GROUP)) == in_group
    assert plain(caption(t, Lesson.at("azul", 0))) in lesson_message(api, ALICE).text


async def test_learn_in_a_group_points_to_the_private_chat(driver, api):
    t = translator("en")
    await driver.send(ALICE, GROUP, "/learn 5211")
    answer = api.last(GROUP)
    assert answer.text == t("tutorial.in_private")
    assert answer.buttons()[0]["url"].endswith("?start=learn_5211")


async def test_start_offers_learn_a_game(driver, api):
    t = translator("it")
    await driver.send(GIULIA, GIULIA.id, "/start")
    await driver.press_label(GIULIA, GIULIA.id, t("tutorial.learn_button"))
    assert lesson_message(api, GIULIA).text == t("tutorial.choose")


async def test_the_end_offers_a_practice_game_and_the_full_rules(driver, api):
    t = translator("en")
    await open_lesson(driver, api, ALICE, "5211")
    for index in range(len(get_tutorial("5211"))):
        await play_step(driver, api, ALICE, Lesson.at("5211", index))
    end = lesson_message(api, ALICE)
    await driver.press_label(ALICE, ALICE.id, t("tutorial.rules_button"), end.message_id)
    assert get_ui("5211").title(t) in api.last(ALICE.id).text
    assert plain(get_ui("5211").rules(t))[:80] in plain(api.last(ALICE.id).html)
    await driver.press_label(ALICE, ALICE.id, t("tutorial.practice_button"), end.message_id)
    storage = get_host(driver.app).storage
    match = await storage.load(await storage.active_match_id(ALICE.id, 0))
    assert match.game == "5211" and match.status == "lobby" and match.practice
    assert sum(seat.ai is not None for seat in match.seats) >= 1


async def test_a_forged_lesson_button_changes_nothing(driver, api):
    t = translator("en")
    await open_lesson(driver, api, ALICE, "azul")
    message = lesson_message(api, ALICE)
    for data in ("tu:0:99:azul-h", "tu:0:0:chess-h", "tu:0:0:azul-q", "tu:0:0:azul-a9.x"):
        assert await driver.press(ALICE, ALICE.id, message.message_id, data) == t(
            "error.bad_button"
        )
    # the lesson is still at its first step
    assert plain(caption(t, Lesson.at("azul", 0))) in lesson_message(api, ALICE).text


async def test_help_in_private_names_learn(driver, api):
    await driver.send(OKSANA, OKSANA.id, "/help")
    assert plain(translator("uk")("tutorial.help")) in api.last(OKSANA.id).text
