"""Playing 5211 through the bot the way a person would: tap cards, then confirm."""

from __future__ import annotations

from bot.presentation.i18n import translator
from bot.testing.driver import Driver, FakeUser
from bot.testing.fake_telegram import StoredMessage
from tests.bot.helpers import prompt


def card_buttons(message: StoredMessage) -> list[dict]:
    return [b for b in message.buttons() if b.get("callback_data", "").startswith("d:")]


def has_choice(driver: Driver, user: FakeUser) -> bool:
    return bool(card_buttons(prompt(driver, user)))


def confirm_button(message: StoredMessage) -> dict | None:
    found = [b for b in message.buttons() if b.get("callback_data", "").startswith("a:")]
    return found[0] if found else None


async def select(
    driver: Driver,
    user: FakeUser,
    picks: list[int] | None = None,
    message: StoredMessage | None = None,
) -> tuple[StoredMessage, dict]:
    """Tap cards (``picks``, or the first ones until the confirm button appears) on
    ``message`` (by default the user's latest prompt); returns the prompt as it now is and
    its confirm button, not pressed."""
    if message is None:
        message = prompt(driver, user)
    for index in picks if picks is not None else range(5):
        if picks is None and confirm_button(message):
            break
        await driver.press(
            user, user.id, message.message_id, card_buttons(message)[index]["callback_data"]
        )
        message = driver.api.messages[user.id][message.message_id]
    confirm = confirm_button(message)
    assert confirm, f"no confirm button after selecting: {message.text}"
    return message, confirm


async def choose(
    driver: Driver,
    user: FakeUser,
    picks: list[int] | None = None,
    message: StoredMessage | None = None,
) -> str | None:
    """:func:`select`, then confirm."""
    message, confirm = await select(driver, user, picks, message)
    return await driver.press(user, user.id, message.message_id, confirm["callback_data"])


async def start_game(
    driver: Driver, group: int, creator: FakeUser, players: list[FakeUser], lang: str = "en"
) -> None:
    t = translator(lang)
    await driver.send(creator, group, "/new")
    await driver.press_label(creator, group, t("5211.title"))
    for player in players:
        await driver.press_label(player, group, t("lobby.join"))
    await driver.press_label(creator, group, t("lobby.start"))


async def play_to_the_end(driver: Driver, players: list[FakeUser], max_parts: int = 200) -> int:
    """Everyone chooses until nobody has a choice left; returns the number of parts played."""
    for part in range(max_parts):
        waiting = [player for player in players if has_choice(driver, player)]
        if not waiting:
            return part
        for player in waiting:
            await choose(driver, player)
    raise AssertionError("the game did not end")


def board(driver: Driver, group: int) -> StoredMessage:
    """The group's board: the latest bot message that shows a round of 5211."""
    for message in reversed(driver.api.visible(group)):
        if message.from_bot and message.text.startswith("5211\n"):
            return message
    raise AssertionError("no board in the group")
