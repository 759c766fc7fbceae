"""Playing a lesson through the fake Telegram, as a newcomer who follows the hints."""

from __future__ import annotations

from bot.presentation.i18n import negotiate, translator
from bot.presentation.tutorial import Lesson, taps, well_done
from bot.presentation.ui import get_ui, playable_games
from bot.testing.driver import Driver
from bot.testing.fake_telegram import FakeTelegram
from tests.bot.conftest import ALICE, GIULIA, IVAN, OKSANA, FakeUser

LEARNERS = {"en": ALICE, "ru": IVAN, "uk": OKSANA, "it": GIULIA}


def lesson_message(api: FakeTelegram, user: FakeUser):
    return api.last(user.id)


async def press_data(driver: Driver, api: FakeTelegram, user: FakeUser, suffix: str) -> str | None:
    """Press the lesson's button whose data ends with ``suffix`` (a verb and its argument)."""
    message = lesson_message(api, user)
    for button in message.buttons():
        if button.get("callback_data", "").endswith(suffix):
            return await driver.press(user, user.id, message.message_id, button["callback_data"])
    raise AssertionError(f"no button …{suffix} on {[b['text'] for b in message.buttons()]}")


async def open_lesson(driver: Driver, api: FakeTelegram, user: FakeUser, game: str) -> None:
    t = translator(negotiate(user.language_code))
    await driver.send(user, user.id, "/learn")
    menu = lesson_message(api, user)
    assert menu.text == t("tutorial.choose")
    assert [b["text"] for b in menu.buttons()] == [get_ui(g).title(t) for g in playable_games()]
    await driver.press_label(user, user.id, get_ui(game).title(t))
    assert lesson_message(api, user).message_id == menu.message_id  # the menu became the lesson


async def play_step(driver: Driver, api: FakeTelegram, user: FakeUser, lesson: Lesson) -> None:
    t = translator(negotiate(user.language_code))
    for verb, argument in taps(t, lesson):
        answer = await press_data(driver, api, user, f"-{verb}{argument}")
    assert answer == well_done(t, lesson, lesson.taught)


async def play_move(driver: Driver, api: FakeTelegram, user: FakeUser, lesson: Lesson, move) -> str:
    """Make ``move`` (any accepted one) with the step's buttons; the last press's answer."""
    t = translator(negotiate(user.language_code))
    answer = ""
    for verb, argument in taps(t, lesson, move=move):
        answer = await press_data(driver, api, user, f"-{verb}{argument}")
    return answer
